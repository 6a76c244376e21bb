#!/usr/bin/env bash
# The English QA experiment, end to end, on the bundled example (make experiment): a paraphrased test set and
# augmented training data from examples/data/squad_en.json, a QA model (all-MiniLM-L6-v2) trained on the
# original and on the augmented data, both scored on the original and paraphrased questions, and the report.
# 24 questions: it shows the whole path working in a few minutes on a CPU, it measures nothing; the
# recorded experiment (SQuAD, DuReader-robust, LCQMC, seeds) is in recipes/README.md.
set -euo pipefail
BIN=${BIN:-.venv/bin}
OUT=${OUT:-runs/experiment}
EXAMPLE=examples/data/squad_en.json
SOURCE=ppdb:examples/data/ppdb_en.txt
export HF_HUB_OFFLINE=1
mkdir -p "$OUT"

$BIN/paraguide build-testset --squad $EXAMPLE --source $SOURCE --top-k 5 --quiet --out "$OUT/testset" --overwrite
$BIN/paraguide augment --squad $EXAMPLE --source $SOURCE --top-k 5 --quiet --out "$OUT/augmented" --overwrite
for data in original augmented; do
    train=$EXAMPLE
    [ $data = augmented ] && train=$OUT/augmented/train.json
    $BIN/python recipes/qa/run_qa.py --train_file "$train" \
        --test_files "$OUT/testset/original.json" "$OUT/testset/paraphrased.json" \
        --output_dir "$OUT/qa-$data" --overwrite_output_dir --max_seq_length 256 --num_train_epochs 5 \
        --per_device_train_batch_size 8 --learning_rate 1e-4 --seed 42
done
$BIN/paraguide evaluate --testset "$OUT/testset" --overwrite --out "$OUT/report" \
    --original "$OUT/qa-original/predictions_original.json" \
    --paraphrased "$OUT/qa-original/predictions_paraphrased.json" \
    --after-original "$OUT/qa-augmented/predictions_original.json" \
    --after-paraphrased "$OUT/qa-augmented/predictions_paraphrased.json"
cat "$OUT/report/report.md"
