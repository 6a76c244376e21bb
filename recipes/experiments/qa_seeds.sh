# The part of the QA experiments that qa_squad.sh and qa_dureader.sh share, sourced by both: per seed,
# run_qa.py trained on the original sample and on the augmented one (each resumed if a run folder exists,
# skipped once it has all_results.json), every run scored on all test sets, then paraguide evaluate's
# before/after report per test set; finally collect.py's table. Expects from the caller: BIN, OUT, SEEDS,
# QA_LANG, EPOCHS, LEN, STRIDE, BATCH, LR, SAVE_STEPS, RUN_QA, DEV (the dev file every run is scored on
# too), and the arrays model and sets (test-set folders under OUT: para, adv).
# CONTROL=1 adds a third run per seed, qa-control-SEED: the original sample trained for as many steps as the
# augmented run took, so that a gain of the augmented run can be told apart from a gain of more steps.

tests=("$DEV")
names=(dev)
for set in "${sets[@]}"; do
    tests+=("$OUT/$set/original.json" "$OUT/$set/paraphrased.json")
    names+=("$set-original" "$set-paraphrased")
done

runs=(original augmented)
[ "${CONTROL:-0}" = 1 ] && runs+=(control)
for seed in $SEEDS; do
    for data in "${runs[@]}"; do
        run="$OUT/qa-$data-$seed"
        [ -f "$run/all_results.json" ] && continue
        train="$OUT/train.json"
        [ $data = augmented ] && train="$OUT/aug/train.json"
        length=(--num_train_epochs "$EPOCHS")
        if [ $data = control ]; then
            steps=$($BIN/python -c 'import json, sys; print(json.load(open(sys.argv[1]))["train"]["steps"])' \
                "$OUT/qa-augmented-$seed/all_results.json")
            length=(--max_steps "$steps")
        fi
        resume=()
        [ -d "$run" ] && resume=(--resume)
        $RUN_QA recipes/qa/run_qa.py --lang "$QA_LANG" "${model[@]}" --train_file "$train" \
            --test_files "${tests[@]}" --test_names "${names[@]}" --output_dir "$run" --seed "$seed" \
            "${length[@]}" --max_seq_length "$LEN" --doc_stride "$STRIDE" \
            --per_device_train_batch_size "$BATCH" --learning_rate "$LR" --save_steps "$SAVE_STEPS" \
            --logging_steps 10 "${resume[@]}"
    done
    for set in "${sets[@]}"; do
        $BIN/paraguide evaluate --testset "$OUT/$set" --out "$OUT/report-$set-$seed" --overwrite \
            --original "$OUT/qa-original-$seed/predictions_$set-original.json" \
            --paraphrased "$OUT/qa-original-$seed/predictions_$set-paraphrased.json" \
            --after-original "$OUT/qa-augmented-$seed/predictions_$set-original.json" \
            --after-paraphrased "$OUT/qa-augmented-$seed/predictions_$set-paraphrased.json"
        if [ -f "$OUT/qa-control-$seed/all_results.json" ]; then
            $BIN/paraguide evaluate --testset "$OUT/$set" --out "$OUT/report-$set-control-$seed" --overwrite \
                --original "$OUT/qa-control-$seed/predictions_$set-original.json" \
                --paraphrased "$OUT/qa-control-$seed/predictions_$set-paraphrased.json"
        fi
    done
done
$BIN/python recipes/experiments/collect.py "$OUT"
