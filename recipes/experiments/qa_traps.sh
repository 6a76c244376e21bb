#!/usr/bin/env bash
# Over-stability (issue 18; DuReader-robust §2.2): the QA experiment's trained models scored on paraguide's
# trap set of the dev set (`paraguide perturb --trap`: one rule-written sentence with a same-type distractor
# added to the passage). Scoring only, no training: run it after qa_squad.sh (or qa_dureader.sh with
# QA_LANG=zh OUT=runs/exp/qa-zh DEV=../shared/data/dureader_robust/dev.json). Per run folder qa-DATA-SEED:
# EM/F1 on the trap questions with their original passages and with the trap, then paraguide evaluate's
# before/after report per seed (with how often the answer is the trap's distractor), then collect.py's
# tables. Traps are few (SQuAD dev: 270 of 10,570), so they are built from the whole dev set, not the
# experiment's dev sample. Every step is skipped once done; a few minutes on 2 CPU cores.
#
#   bash recipes/experiments/qa_traps.sh
set -euo pipefail
BIN=${BIN:-.venv/bin}
D=${D:-../shared/data}
OUT=${OUT:-runs/exp/qa-en}
QA_LANG=${QA_LANG:-en}
DEV=${DEV:-$D/squad_v1.1/dev-v1.1.json.gz}
LEN=${LEN:-192}                  # the experiment's window length
STRIDE=${STRIDE:-$((LEN / 3))}
TRAP="$OUT/trap"
export HF_HUB_OFFLINE=1

[ -f "$TRAP/trap.json" ] || $BIN/paraguide perturb --quiet --squad "$DEV" --lang "$QA_LANG" --trap --out "$TRAP"
seeds=()
for run in "$OUT"/qa-*-*; do
    [ -f "$run/all_results.json" ] || continue
    name=${run##*/qa-}          # DATA-SEED
    seeds+=("${name##*-}")
    eval="$OUT/trap-$name"
    [ -f "$eval/all_results.json" ] && continue
    $BIN/python recipes/qa/run_qa.py --lang "$QA_LANG" --model_name_or_path "$run" \
        --test_files "$TRAP/original.json" "$TRAP/trap.json" --test_names trap-original trap \
        --output_dir "$eval" --overwrite_output_dir --max_seq_length "$LEN" --doc_stride "$STRIDE"
done
for seed in $(printf '%s\n' "${seeds[@]}" | sort -u); do
    [ -f "$OUT/trap-original-$seed/all_results.json" ] || continue
    after=()
    [ -f "$OUT/trap-augmented-$seed/all_results.json" ] && after=(
        --after-original "$OUT/trap-augmented-$seed/predictions_trap-original.json"
        --after-paraphrased "$OUT/trap-augmented-$seed/predictions_trap.json")
    $BIN/paraguide evaluate --testset "$TRAP" --out "$OUT/report-trap-$seed" --overwrite \
        --original "$OUT/trap-original-$seed/predictions_trap-original.json" \
        --paraphrased "$OUT/trap-original-$seed/predictions_trap.json" "${after[@]}"
    if [ -f "$OUT/trap-control-$seed/all_results.json" ]; then
        $BIN/paraguide evaluate --testset "$TRAP" --out "$OUT/report-trap-control-$seed" --overwrite \
            --original "$OUT/trap-control-$seed/predictions_trap-original.json" \
            --paraphrased "$OUT/trap-control-$seed/predictions_trap.json"
    fi
done
$BIN/python recipes/experiments/collect.py "$OUT"
