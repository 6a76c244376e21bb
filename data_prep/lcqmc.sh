#!/usr/bin/env bash
# Chinese paraphraser corpus: LCQMC train, positive pairs (label 1), TextRank over jieba words and POS,
# both directions, then the rule check.
#   bash data_prep/lcqmc.sh            (SHARED=path/to/shared/data OUT=folder to override)
set -euo pipefail
SHARED=${SHARED:-../shared/data}
OUT=${OUT:-runs/lcqmc}
paraguide prepare --pairs "$SHARED/lcqmc/train.tsv.gz" --lang zh --suggestions textrank \
    --out "$OUT/train.jsonl" --quiet
python data_prep/check_prepared.py "$OUT/train.jsonl" --lang zh --pairs 138574
