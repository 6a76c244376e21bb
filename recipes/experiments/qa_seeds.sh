# The part of the QA experiments that qa_squad.sh and qa_dureader.sh share, sourced by both: per seed,
# run_qa.py trained on the original sample and on the augmented one (each resumed if a run folder exists,
# skipped once it has all_results.json), every run scored on all test sets, then paraguide evaluate's
# before/after report per test set; finally collect.py's table. Expects from the caller: BIN, OUT, SEEDS,
# QA_LANG, EPOCHS, LEN, STRIDE, BATCH, LR, SAVE_STEPS, RUN_QA, DEV (the dev file every run is scored on
# too), and the arrays model and sets (test-set folders under OUT: para, adv).

tests=("$DEV")
names=(dev)
for set in "${sets[@]}"; do
    tests+=("$OUT/$set/original.json" "$OUT/$set/paraphrased.json")
    names+=("$set-original" "$set-paraphrased")
done

for seed in $SEEDS; do
    for data in original augmented; do
        run="$OUT/qa-$data-$seed"
        [ -f "$run/all_results.json" ] && continue
        train="$OUT/train.json"
        [ $data = augmented ] && train="$OUT/aug/train.json"
        resume=()
        [ -d "$run" ] && resume=(--resume)
        $RUN_QA recipes/qa/run_qa.py --lang "$QA_LANG" "${model[@]}" --train_file "$train" \
            --test_files "${tests[@]}" --test_names "${names[@]}" --output_dir "$run" --seed "$seed" \
            --num_train_epochs "$EPOCHS" --max_seq_length "$LEN" --doc_stride "$STRIDE" \
            --per_device_train_batch_size "$BATCH" --learning_rate "$LR" --save_steps "$SAVE_STEPS" \
            --logging_steps 10 "${resume[@]}"
    done
    for set in "${sets[@]}"; do
        $BIN/paraguide evaluate --testset "$OUT/$set" --out "$OUT/report-$set-$seed" --overwrite \
            --original "$OUT/qa-original-$seed/predictions_$set-original.json" \
            --paraphrased "$OUT/qa-original-$seed/predictions_$set-paraphrased.json" \
            --after-original "$OUT/qa-augmented-$seed/predictions_$set-original.json" \
            --after-paraphrased "$OUT/qa-augmented-$seed/predictions_$set-paraphrased.json"
    done
done
$BIN/python recipes/experiments/collect.py "$OUT"
