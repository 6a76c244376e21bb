#!/usr/bin/env bash
# The bundled Chinese paraphraser: prepare LCQMC train positives (data_prep/lcqmc.sh), train a "small"
# copy model for one epoch on CPU, evaluate on the held-out split, store it in paraguide/models/zh/.
#   bash data_prep/train_default_zh.sh          (SHARED=path/to/shared/data to override)
set -euo pipefail
SHARED=${SHARED:-../shared/data}
OUT=${OUT:-runs/models/zh-lcqmc-small}
[ -f runs/lcqmc/train.jsonl ] || SHARED=$SHARED bash data_prep/lcqmc.sh
paraguide train --train-file runs/lcqmc/train.jsonl --output-dir "$OUT" --size small --epochs 1 \
    --batch-size 64 --lr 1e-3 --warmup-steps 800 --eval-every 600 --save-every 300 --eval-examples 300 --resume
python data_prep/bundle_model.py "$OUT" paraguide/models/zh --eval-file runs/lcqmc/train.heldout.jsonl --lang zh
