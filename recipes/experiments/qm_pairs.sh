#!/usr/bin/env bash
# The recorded QM experiment (issue 17): a question-matching cross-encoder per data set -- LCQMC (zh, from
# scratch) and MRPC (en, the bundled all-MiniLM-L6-v2) -- trained on (a seeded sample of) the train set,
# scored on the full test set and on paraguide's paraphrased test set (original.tsv vs paraphrased.tsv), then
# retrained on the train pairs augmented with accepted paraphrases and scored again; several seeds.
# Every step resumes: run the same command again after a crash or at the next session.
#
#   bash recipes/experiments/qm_pairs.sh          # defaults below: about 2 CPU hours here (LCQMC: 20,000
#                                                 # train pairs, 3 epochs from scratch, 6-20 min a run, 15-20
#                                                 # augmented; MRPC: 4,076 pairs, 3 epochs of MiniLM, 10-16 min
#                                                 # a run, 9-15 augmented; 8 runs; paraphrasing: minutes)
#   DATASETS=mrpc SEEDS="42 43 44" bash recipes/experiments/qm_pairs.sh
#   LCQMC_N=0 LCQMC_MODEL=/models/bert-base-chinese LCQMC_LR=3e-5 bash recipes/experiments/qm_pairs.sh  # GPU
#   PRESET=paraphrase DATASETS=lcqmc LCQMC_AUG_N=5000 OUT=runs/exp/qm-rewrite bash recipes/experiments/qm_pairs.sh
#                                                 # the pretrained paraphraser's rewrites (test set and augmentation)
#   REWRITE=1 AUG_PRESET=paraphrase DATASETS=lcqmc LCQMC_AUG_N=5000 OUT=runs/exp/qm-rewrite bash recipes/experiments/qm_pairs.sh
#                                                 # both test sets from the same pairs -- swaps (para/) and rewrites
#                                                 # (rewrite/) -- and training augmented with rewrites
#
# Per data set X (LCQMC, MRPC): X_TRAIN, X_TEST (the files), X_N (train pairs, a seeded sample; 0: all),
# X_TEST_N (test pairs the paraphrased set is built from; 0: all), X_AUG_N (paraphrases added; empty: every
# accepted one), X_MODEL (a checkpoint; empty: LCQMC from scratch, MRPC the bundled MiniLM), X_LEN, X_LR.
# Tiny check (1.8 min here): LCQMC_N=40 MRPC_N=40 LCQMC_TEST=30-pairs.tsv LCQMC_TEST_N=12 MRPC_TEST=12-pairs.tsv
# SEEDS=1 EPOCHS=1 (test samples from subset.py --pairs).
# The paraphrased side: SIDE=a (default) paraphrases the first question of each pair and keeps the second:
# one change per pair, so a changed prediction is that change's; a pair is kept only when all its paraphrased
# sides are accepted, so --side both keeps fewer pairs (about the acceptance rate squared) at twice the cost.
# Then: python recipes/experiments/collect.py $OUT/lcqmc (and $OUT/mrpc)  (the tables, mean and spread).
set -euo pipefail
BIN=${BIN:-.venv/bin}
D=${D:-../shared/data}
OUT=${OUT:-runs/exp/qm}
DATASETS=${DATASETS:-"lcqmc mrpc"}
SEEDS=${SEEDS:-"42 43"}
EPOCHS=${EPOCHS:-3}
BATCH=${BATCH:-32}
SIDE=${SIDE:-a}
PRESET=${PRESET:-substitute}  # the build-testset preset of para/: substitute (the default), paraphrase (rewrites)
AUG_PRESET=${AUG_PRESET:-$PRESET}  # the preset augment paraphrases the training pairs with
CONTROL=${CONTROL:-0}        # 1: a third run per seed, qm-control-SEED: the original pairs for as many steps as
                             # the augmented run took (a gain of augmentation told apart from one of more steps)
REWRITE=${REWRITE:-0}        # 1: also the test set --preset paraphrase writes from the same pairs (rewrite/),
                             # scored beside para/ (collect.py: the pairs both hold, asked three ways)
SIZE=${SIZE:-small}          # --from_scratch tiny|small|base, for LCQMC when no LCQMC_MODEL
SAVE_STEPS=${SAVE_STEPS:-100}  # checkpoint every N steps (what a resumed run continues from)
LCQMC_TRAIN=${LCQMC_TRAIN:-$D/lcqmc/train.tsv.gz}
LCQMC_TEST=${LCQMC_TEST:-$D/lcqmc/test.tsv}
LCQMC_N=${LCQMC_N:-20000}
LCQMC_TEST_N=${LCQMC_TEST_N:-2000}
LCQMC_AUG_N=${LCQMC_AUG_N:-}
LCQMC_MODEL=${LCQMC_MODEL:-}
LCQMC_LEN=${LCQMC_LEN:-64}
LCQMC_LR=${LCQMC_LR:-5e-4}
MRPC_TRAIN=${MRPC_TRAIN:-$D/mrpc/msr_paraphrase_train.txt.gz}
MRPC_TEST=${MRPC_TEST:-$D/mrpc/msr_paraphrase_test.txt}
MRPC_N=${MRPC_N:-0}
MRPC_TEST_N=${MRPC_TEST_N:-0}
MRPC_AUG_N=${MRPC_AUG_N:-}
MRPC_MODEL=${MRPC_MODEL:-}
MRPC_LEN=${MRPC_LEN:-128}
MRPC_LR=${MRPC_LR:-5e-5}
RUN_QM=${ACCELERATE:-$BIN/python}
export HF_HUB_OFFLINE=1

for name in $DATASETS; do
    X=${name^^}
    v() { local var="${X}_$1"; echo "${!var}"; }
    [ "$name" = lcqmc ] && lang=zh || lang=en
    dir="$OUT/$name"
    mkdir -p "$dir"
    train=$(v TRAIN)
    if [ "$(v N)" != 0 ]; then
        [ -f "$dir/train.tsv" ] || $BIN/python recipes/experiments/subset.py --pairs "$train" "$dir/train.tsv" --n "$(v N)" --seed 13
        train="$dir/train.tsv"
    fi
    test=$(v TEST)
    para_in=$test
    if [ "$(v TEST_N)" != 0 ]; then
        [ -f "$dir/test-sample.tsv" ] || $BIN/python recipes/experiments/subset.py --pairs "$test" "$dir/test-sample.tsv" --n "$(v TEST_N)" --seed 13
        para_in="$dir/test-sample.tsv"
    fi
    # --resume on a missing folder starts the run; on a finished one it only writes the files again
    $BIN/paraguide build-testset --quiet --pairs "$para_in" --lang $lang --side "$SIDE" --preset "$PRESET" --out "$dir/para" --resume
    tests=("test=$test" "original=$dir/para/original.tsv" "paraphrased=$dir/para/paraphrased.tsv")
    if [ "$REWRITE" = 1 ]; then
        $BIN/paraguide build-testset --quiet --pairs "$para_in" --lang $lang --side "$SIDE" --preset paraphrase --out "$dir/rewrite" --resume
        tests+=("rewrite-original=$dir/rewrite/original.tsv" "rewrite-paraphrased=$dir/rewrite/paraphrased.tsv")
    fi
    aug_n=$(v AUG_N)
    $BIN/paraguide augment --quiet --pairs "$train" --lang $lang --side "$SIDE" --preset "$AUG_PRESET" ${aug_n:+--n "$aug_n"} --out "$dir/aug" --resume

    model=()
    if [ -n "$(v MODEL)" ]; then
        model=(--model_name_or_path "$(v MODEL)")
    elif [ $lang = zh ]; then
        model=(--from_scratch "$SIZE")
    fi
    runs=(original augmented)
    [ "$CONTROL" = 1 ] && runs+=(control)
    for seed in $SEEDS; do
        for data in "${runs[@]}"; do
            run="$dir/qm-$data-$seed"
            [ -f "$run/all_results.json" ] && continue
            file=$train
            [ $data = augmented ] && file="$dir/aug/train.tsv"
            length=(--num_train_epochs "$EPOCHS")
            if [ $data = control ]; then
                steps=$($BIN/python -c 'import json, sys; print(json.load(open(sys.argv[1]))["steps"])' \
                    "$dir/qm-augmented-$seed/all_results.json")
                length=(--max_steps "$steps")
            fi
            resume=()
            if [ -d "$run/checkpoints" ]; then
                resume=(--resume)
            elif [ -d "$run" ]; then
                resume=(--overwrite_output_dir)  # stopped before its first checkpoint: start again
            fi
            $RUN_QM recipes/qm/run_qm.py "${model[@]}" --train_file "$file" \
                --test_files "${tests[@]}" \
                --output_dir "$run" --seed "$seed" "${length[@]}" --max_seq_length "$(v LEN)" \
                --per_device_train_batch_size "$BATCH" --learning_rate "$(v LR)" --save_steps "$SAVE_STEPS" "${resume[@]}"
        done
        # paraguide evaluate per test set: report[-rewrite]-SEED (before/after retraining), and the control's
        sets=(para)
        [ "$REWRITE" = 1 ] && sets+=(rewrite)
        for set in "${sets[@]}"; do
            name=""  # predictions_[rewrite-]original.tsv
            [ $set = rewrite ] && name="rewrite-"
            report="$dir/report${name:+-rewrite}"
            $BIN/paraguide evaluate --testset "$dir/$set" --out "$report-$seed" --overwrite \
                --original "$dir/qm-original-$seed/predictions_${name}original.tsv" \
                --paraphrased "$dir/qm-original-$seed/predictions_${name}paraphrased.tsv" \
                --after-original "$dir/qm-augmented-$seed/predictions_${name}original.tsv" \
                --after-paraphrased "$dir/qm-augmented-$seed/predictions_${name}paraphrased.tsv"
            if [ -f "$dir/qm-control-$seed/all_results.json" ]; then
                $BIN/paraguide evaluate --testset "$dir/$set" --out "$report-control-$seed" --overwrite \
                    --original "$dir/qm-control-$seed/predictions_${name}original.tsv" \
                    --paraphrased "$dir/qm-control-$seed/predictions_${name}paraphrased.tsv"
            fi
        done
    done
    $BIN/python recipes/experiments/collect.py "$dir"
done
