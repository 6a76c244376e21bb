#!/usr/bin/env bash
# The bundled English paraphraser: prepare the Quora union (data_prep/quora.sh), train a "small" copy
# model for one epoch on CPU, evaluate on the held-out split, and store it (fp16 safetensors) in
# paraguide/models/en/.
#   bash data_prep/train_default_en.sh          (SHARED=path/to/shared/data to override)
set -euo pipefail
SHARED=${SHARED:-../shared/data}
OUT=${OUT:-runs/models/en-quora-small}
[ -f runs/quora/train.jsonl ] || SHARED=$SHARED bash data_prep/quora.sh
paraguide train --train-file runs/quora/train.jsonl --output-dir "$OUT" --size small --epochs 1 \
    --batch-size 64 --lr 1e-3 --warmup-steps 800 --eval-every 600 --save-every 300 --eval-examples 300 --resume
python data_prep/bundle_model.py "$OUT" paraguide/models/en --eval-file runs/quora/train.heldout.jsonl
