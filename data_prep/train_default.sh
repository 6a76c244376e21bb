#!/usr/bin/env bash
# A bundled default paraphraser: prepare the corpus (data_prep/quora.sh or lcqmc.sh), train a "small"
# copy model for one epoch on CPU, evaluate it on the held-out split and store it (fp16 safetensors and a
# model card) in paraguide/models/LANG/.
#   bash data_prep/train_default.sh en      # Quora union
#   bash data_prep/train_default.sh zh      # LCQMC train positives
set -euo pipefail
LANG_=${1:?usage: train_default.sh en|zh}
case "$LANG_" in
  en) CORPUS=quora; OUT=runs/models/en-quora-small ;;
  zh) CORPUS=lcqmc; OUT=runs/models/zh-lcqmc-small ;;
  *) echo "unknown language $LANG_ (en or zh)" >&2; exit 2 ;;
esac
[ -f "runs/$CORPUS/train.jsonl" ] || bash "data_prep/$CORPUS.sh"
paraguide train --train-file "runs/$CORPUS/train.jsonl" --output-dir "$OUT" --size small --epochs 1 \
    --batch-size 64 --lr 1e-3 --warmup-steps 800 --eval-every 600 --save-every 300 --eval-examples 300 --resume
python data_prep/bundle_model.py "$OUT" "paraguide/models/$LANG_" --eval-file "runs/$CORPUS/train.heldout.jsonl" \
    --lang "$LANG_"
