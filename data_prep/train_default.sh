#!/usr/bin/env bash
# A bundled default paraphraser: prepare the corpus (data_prep/quora.sh or lcqmc_bq.sh), train a "small"
# copy model on CPU (English: up to 8 epochs with early stopping on the held-out loss, about 2.5 CPU hours
# on 2 cores, resumable: run the same command again after a stop; Chinese: 4 epochs, about 65 CPU minutes),
# evaluate it on the held-out split and store it (fp16 safetensors and a model card) in paraguide/models/LANG/.
#   bash data_prep/train_default.sh en      # Quora union
#   bash data_prep/train_default.sh zh      # LCQMC + BQ train positives, evaluated on LCQMC's held-out split
set -euo pipefail
LANG_=${1:?usage: train_default.sh en|zh}
case "$LANG_" in
  en) CORPUS=runs/quora; PREP=quora; HELDOUT=runs/quora/train.heldout.jsonl; OUT=runs/models/en-quora-small
      LENGTH=(--epochs 8) ;;
  zh) CORPUS=runs/zh-lcqmc-bq; PREP=lcqmc_bq; HELDOUT=runs/lcqmc/train.heldout.jsonl; OUT=runs/models/zh-more
      LENGTH=(--epochs 4 --heldout-file "$HELDOUT") ;;
  *) echo "unknown language $LANG_ (en or zh)" >&2; exit 2 ;;
esac
[ -f "$CORPUS/train.jsonl" ] && [ -f "$HELDOUT" ] || bash "data_prep/$PREP.sh"
paraguide train --train-file "$CORPUS/train.jsonl" --output-dir "$OUT" --size small "${LENGTH[@]}" \
    --eval-every 1200 --save-every 600 --eval-examples 500 --patience 4 \
    --batch-size 64 --lr 1e-3 --warmup-steps 800 --resume
python data_prep/bundle_model.py "$OUT" "paraguide/models/$LANG_" --eval-file "$HELDOUT" --lang "$LANG_"
