#!/usr/bin/env bash
# English paraphraser corpus: the union of the Quora positive pairs in shared data (85,542 pairs),
# TextRank suggestions, both directions, then the rule check.
#   bash data_prep/quora.sh            (SHARED=path/to/shared/data OUT=folder to override)
set -euo pipefail
SHARED=${SHARED:-../shared/data}
OUT=${OUT:-runs/quora}
export NLTK_DATA=${NLTK_DATA:-$SHARED/nltk_data}
paraguide prepare --pairs "$SHARED/quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz" \
    --lang en --suggestions textrank --out "$OUT/train.jsonl" --quiet
python data_prep/check_prepared.py "$OUT/train.jsonl" --lang en --pairs 85542
