#!/usr/bin/env bash
# A bundled default paraphraser: prepare the corpus (data_prep/quora.sh or lcqmc.sh), train a "small"
# copy model on CPU (English: up to 8 epochs with early stopping on the held-out loss, about 2.5 CPU hours
# on 2 cores, resumable: run the same command again after a stop; Chinese: one epoch), evaluate it on the
# held-out split and store it (fp16 safetensors and a model card) in paraguide/models/LANG/.
#   bash data_prep/train_default.sh en      # Quora union
#   bash data_prep/train_default.sh zh      # LCQMC train positives
set -euo pipefail
LANG_=${1:?usage: train_default.sh en|zh}
case "$LANG_" in
  en) CORPUS=quora; OUT=runs/models/en-quora-small
      LENGTH=(--epochs 8 --eval-every 1200 --save-every 600 --eval-examples 500 --patience 4) ;;
  zh) CORPUS=lcqmc; OUT=runs/models/zh-lcqmc-small
      LENGTH=(--epochs 1 --eval-every 600 --save-every 300 --eval-examples 300) ;;
  *) echo "unknown language $LANG_ (en or zh)" >&2; exit 2 ;;
esac
[ -f "runs/$CORPUS/train.jsonl" ] || bash "data_prep/$CORPUS.sh"
paraguide train --train-file "runs/$CORPUS/train.jsonl" --output-dir "$OUT" --size small "${LENGTH[@]}" \
    --batch-size 64 --lr 1e-3 --warmup-steps 800 --resume
python data_prep/bundle_model.py "$OUT" "paraguide/models/$LANG_" --eval-file "runs/$CORPUS/train.heldout.jsonl" \
    --lang "$LANG_"
