#!/usr/bin/env bash
# Train the bundled sim scorers (averaged sub-word embeddings) and write their cards:
#   paraguide/models/sim-en  on the Quora union's training split (runs/quora/train.jsonl; held-out kept aside)
#   paraguide/models/sim-zh  on LCQMC train positives (LCQMC dev/test kept aside)
#   bash data_prep/train_scorers.sh [en|zh|all]
set -euo pipefail
cd "$(dirname "$0")/.."
WHICH=${1:-all}
SHARED=${PARAGUIDE_SHARED_DATA:-../shared/data}
if [ "$WHICH" = en ] || [ "$WHICH" = all ]; then
  [ -f runs/quora/train.jsonl ] || bash data_prep/quora.sh
  paraguide train-scorer --pairs runs/quora/train.jsonl --output-dir paraguide/models/sim-en
fi
if [ "$WHICH" = zh ] || [ "$WHICH" = all ]; then
  paraguide train-scorer --pairs "$SHARED/lcqmc/train.tsv.gz" --output-dir paraguide/models/sim-zh
fi
