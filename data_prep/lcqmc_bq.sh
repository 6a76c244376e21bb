#!/usr/bin/env bash
# Chinese paraphraser corpus with more data (issue 14, lever 6): LCQMC train and BQ train positive pairs
# (238,766 + 100,000 pairs read), TextRank over jieba words and POS, both directions, then the rule check.
# The model is evaluated on LCQMC's own held-out split (runs/lcqmc/, data_prep/lcqmc.sh), so that it compares
# with the LCQMC-only model; the check fails if any of those pairs is in this corpus's training file.
#   bash data_prep/lcqmc_bq.sh         (SHARED=path/to/shared/data OUT=folder to override)
set -euo pipefail
SHARED=${SHARED:-../shared/data}
OUT=${OUT:-runs/zh-lcqmc-bq}
paraguide prepare --pairs "$SHARED/lcqmc/train.tsv.gz" --pairs "$SHARED/bq_corpus/train.tsv.gz" --lang zh \
    --suggestions textrank --out "$OUT/train.jsonl" --quiet
[ -f runs/lcqmc/train.heldout.jsonl ] || bash data_prep/lcqmc.sh
python data_prep/check_prepared.py "$OUT/train.jsonl" --lang zh --disjoint-from runs/lcqmc/train.heldout.jsonl
