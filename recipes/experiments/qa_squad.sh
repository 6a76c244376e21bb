#!/usr/bin/env bash
# The recorded English QA experiment (issue 17; Gan & Ng 2019, Tables 1-6): a QA model trained on a SQuAD
# train sample, scored on SQuAD dev and on paraguide's paraphrased and adversarial test sets (and their
# original.json), then retrained on the sample augmented with accepted paraphrases and scored again; several
# seeds. Every step resumes: run the same command again after a crash or at the next session.
#
#   bash recipes/experiments/qa_squad.sh                      # defaults below, about 6-8 CPU hours here
#   N=87599 EPOCHS=2 LEN=384 SEEDS="42 43 44" bash recipes/experiments/qa_squad.sh   # a GPU: all of it
#   ACCELERATE="accelerate launch --multi_gpu --num_processes 4" bash recipes/experiments/qa_squad.sh
#
# Then: python recipes/experiments/collect.py $OUT  (the table, mean and spread over seeds).
set -euo pipefail
BIN=${BIN:-.venv/bin}
D=${D:-../shared/data}
OUT=${OUT:-runs/exp/qa-en}
N=${N:-2000}                 # training questions (a seeded sample of SQuAD train)
SEEDS=${SEEDS:-"42 43"}
EPOCHS=${EPOCHS:-2}
LEN=${LEN:-256}
STRIDE=${STRIDE:-$((LEN / 4))}   # overlap of the windows of a long context (transformers: 128 at 384)
BATCH=${BATCH:-16}
LR=${LR:-5e-5}
MODEL=${MODEL:-}             # a local checkpoint folder; empty: the bundled all-MiniLM-L6-v2
DEV=${DEV:-$D/squad_v1.1/dev-v1.1.json.gz}
TRAIN=${TRAIN:-$D/squad_v1.1/train-v1.1.reconstructed.json.gz}
RUN_QA=${ACCELERATE:-$BIN/python}
export HF_HUB_OFFLINE=1
mkdir -p "$OUT"

[ -f "$OUT/train.json" ] || $BIN/python recipes/experiments/subset.py "$TRAIN" "$OUT/train.json" --n "$N" --seed 13
# --resume on a missing folder starts the run; on a finished one it only writes the files again
$BIN/paraguide build-testset --quiet --squad "$DEV" --out "$OUT/para" --resume
$BIN/paraguide build-testset --quiet --squad "$DEV" --adversarial --out "$OUT/adv" --resume
$BIN/paraguide augment --quiet --squad "$OUT/train.json" --out "$OUT/aug" --resume

tests=("$DEV" "$OUT/para/original.json" "$OUT/para/paraphrased.json" "$OUT/adv/original.json" "$OUT/adv/paraphrased.json")
names=(dev para-original para-paraphrased adv-original adv-paraphrased)
for seed in $SEEDS; do
    for data in original augmented; do
        run="$OUT/qa-$data-$seed"
        [ -f "$run/all_results.json" ] && continue
        train="$OUT/train.json"
        [ $data = augmented ] && train="$OUT/aug/train.json"
        resume=()
        [ -d "$run" ] && resume=(--resume)
        $RUN_QA recipes/qa/run_qa.py ${MODEL:+--model_name_or_path "$MODEL"} --train_file "$train" \
            --test_files "${tests[@]}" --test_names "${names[@]}" --output_dir "$run" --seed "$seed" \
            --num_train_epochs "$EPOCHS" --max_seq_length "$LEN" --doc_stride "$STRIDE" --per_device_train_batch_size "$BATCH" \
            --learning_rate "$LR" --save_steps 200 "${resume[@]}"
    done
    for set in para adv; do
        $BIN/paraguide evaluate --testset "$OUT/$set" --out "$OUT/report-$set-$seed" --overwrite \
            --original "$OUT/qa-original-$seed/predictions_$set-original.json" \
            --paraphrased "$OUT/qa-original-$seed/predictions_$set-paraphrased.json" \
            --after-original "$OUT/qa-augmented-$seed/predictions_$set-original.json" \
            --after-paraphrased "$OUT/qa-augmented-$seed/predictions_$set-paraphrased.json"
    done
done
$BIN/python recipes/experiments/collect.py "$OUT"
