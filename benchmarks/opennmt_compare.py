#!/usr/bin/env python
"""paraguide's paraphraser vs OpenNMT-py 3.0.4 (the toolkit Gan & Ng used), side by side on this machine.

Both get the same model (Transformer encoder-decoder, 3+3 layers, d 256, 4 heads, FFN 1024, shared
embeddings, a separate copy attention: OpenNMT-py's `copy_attn: true`), the same vocabulary (the bundled
English model's 8k SentencePiece pieces; OpenNMT-py reads the same pieces, pre-tokenised), the same data
(`paraguide prepare` output: "<suggestion> <sep> <question>" → paraphrase), the same batches (64
sentences; sorted by the longer of source and target within windows of 100 batches: OpenNMT-py's
bucket_size 6400 and sort key), the same number of threads.

* Training tokens/s: each system trains `--warm` steps and `--warm + --steps` steps from scratch; the
  difference of the two wall times is the time of `--steps` steps without start-up (reading data, building
  the model). Tokens = source + target tokens (no padding) of `--steps` × 64 examples (the mean of the
  training file), the same count for both. paraguide runs float32 and, where the CPU computes bfloat16
  natively, again with bfloat16 autocast (`--mixed-precision bf16`; OpenNMT-py has no CPU mixed precision).
  paraguide's training keeps freed memory for reuse on CPU (glibc `mallopt`, `keep_freed_memory`); to show
  what that setting alone gives, paraguide also trains without it (`--no-keep-freed-memory`) and OpenNMT-py
  also with it (the same settings through glibc's environment variables).
* Generation sentences/s: beam 4, at most 48 new tokens, batches of 32, on `--generate` held-out inputs,
  model loading excluded (OpenNMT-py's own `-report_time`, paraguide's time around `paraphrase`). Twice: with
  the models' natural lengths, and with every output forced to exactly 30 tokens (`min_length` =
  `max_length`), which makes the decoding work identical whatever each model learnt.
* Peak memory: maximum resident set size of each whole command (`/usr/bin/time -v`).

    bash benchmarks/opennmt_setup.sh              # .bench/onmt-venv: torch 2.13.0 CPU + OpenNMT-py 3.0.4
    python benchmarks/opennmt_compare.py --train runs/quora/train.jsonl

Writes benchmarks/results/opennmt_<device>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from machine import cpu_model  # benchmarks/machine.py, beside this script

ROOT = Path(__file__).resolve().parents[1]
SIZE = dict(layers=3, hidden=256, ff=1024, heads=4)
FORCED = 30


def timed(cmd: list[str], log: Path, env: dict | None = None) -> tuple[float, float]:
    """Run a command under /usr/bin/time -v; (wall seconds, peak RSS in MB)."""
    started = time.perf_counter()
    with open(log, "w") as f:
        proc = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=f, stderr=subprocess.STDOUT, env=env)
    wall = time.perf_counter() - started
    text = log.read_text(errors="replace")
    if proc.returncode:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{text[-3000:]}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    return wall, rss_kb / 1024


def prepare_inputs(args, work: Path, tokenizer) -> dict:
    """Training examples for both systems (JSONL for paraguide, pieces for OpenNMT-py), the shared vocab."""
    from paraguide.model.tokenizer import EOS, PAD, UNK, model_input

    n_train = (args.warm + args.steps) * args.batch_size
    rows = []
    with open(args.train, encoding="utf-8") as f:
        for line in f:
            rows.append(json.loads(line))
            if len(rows) == n_train:
                break
    if len(rows) < n_train:
        sys.exit(f"{args.train}: {len(rows)} examples, {n_train} needed")
    heldout = []
    with open(args.heldout or str(args.train).replace(".jsonl", ".heldout.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["suggestion"]:
                heldout.append(r)
            if len(heldout) == args.generate:
                break
    (work / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (work / "heldout.jsonl").write_text("".join(json.dumps(r) + "\n" for r in heldout))

    def pieces(texts):
        ids = tokenizer(texts, add_special_tokens=False)["input_ids"]
        return [" ".join(tokenizer.convert_ids_to_tokens(x)) for x in ids], [len(x) + 1 for x in ids]

    src, src_len = pieces([model_input(r["suggestion"], r["source"]) for r in rows])
    tgt, tgt_len = pieces([r["target"].lower() for r in rows])
    (work / "train.src").write_text("\n".join(src) + "\n")
    (work / "train.tgt").write_text("\n".join(tgt) + "\n")
    test_src, _ = pieces([model_input(r["suggestion"], r["source"]) for r in heldout])
    (work / "test.src").write_text("\n".join(test_src) + "\n")
    # OpenNMT-py adds its own <unk>, <blank>, <s>, </s>; every other piece is listed once.
    vocab = [p for p in tokenizer.convert_ids_to_tokens(range(len(tokenizer))) if p not in (PAD, EOS, UNK)]
    (work / "vocab.txt").write_text("".join(f"{p}\t1\n" for p in vocab))
    return {
        "train_examples": n_train,
        "tokens_per_example": (sum(src_len) + sum(tgt_len)) / len(rows),
        "generate_examples": len(heldout),
        "vocab": len(vocab),
    }


def onmt_config(work: Path, steps: int, args) -> Path:
    cfg = f"""
save_data: {work}/onmt_data
src_vocab: {work}/vocab.txt
tgt_vocab: {work}/vocab.txt
share_vocab: true
src_vocab_size: 9000
tgt_vocab_size: 9000
data:
    corpus_1:
        path_src: {work}/train.src
        path_tgt: {work}/train.tgt
save_model: {work}/onmt_{steps}/model
save_checkpoint_steps: 1000000
train_steps: {steps}
valid_steps: 1000000
report_every: 10
seed: 13
world_size: 1
gpu_ranks: []
batch_type: sents
batch_size: {args.batch_size}
bucket_size: {100 * args.batch_size}
num_workers: {args.onmt_workers}
encoder_type: transformer
decoder_type: transformer
enc_layers: {SIZE["layers"]}
dec_layers: {SIZE["layers"]}
hidden_size: {SIZE["hidden"]}
word_vec_size: {SIZE["hidden"]}
transformer_ff: {SIZE["ff"]}
heads: {SIZE["heads"]}
dropout: [0.1]
attention_dropout: [0.1]
position_encoding: true
share_embeddings: true
share_decoder_embeddings: true
copy_attn: true
optim: adam
adam_beta1: 0.9
adam_beta2: 0.98
learning_rate: 2.0
decay_method: noam
warmup_steps: 1000
label_smoothing: 0.1
max_grad_norm: 1.0
param_init: 0.0
param_init_glorot: true
normalization: tokens
"""
    path = work / f"onmt_{steps}.yaml"
    path.write_text(cfg)
    (work / f"onmt_{steps}").mkdir(exist_ok=True)
    return path


def ours_train_cmd(work: Path, steps: int, args, mixed_precision: str = "no", keep: bool = True) -> list[str]:
    name = "ours" if mixed_precision == "no" else f"ours_{mixed_precision}"
    out = work / (f"{name}_{steps}" if keep else f"{name}_nokeep_{steps}")
    out.mkdir(exist_ok=True)
    for name in ("tokenizer.json", "tokenizer_config.json"):  # reuse the bundled vocabulary, as OpenNMT does
        shutil.copy(Path(args.tokenizer) / name, out / name)
    return [
        sys.executable, "-m", "paraguide.cli", "train",
        "--train-file", str(work / "train.jsonl"), "--heldout-file", str(work / "none.jsonl"),
        "--output-dir", str(out), "--size", "small", "--batch-size", str(args.batch_size),
        "--max-steps", str(steps), "--warmup-steps", "1000", "--lr", "1e-3", "--save-every", "1000000",
        "--eval-every", "1000000", "--mixed-precision", mixed_precision,
        *([] if keep else ["--no-keep-freed-memory"]),
    ]  # fmt: skip


def ours_generate(model: str, inputs: str, output: str, forced: int | None, dtype: str) -> None:
    """Internal: time paraguide's generation (model loading excluded), in its own process."""
    import torch

    from paraguide.model.paraphraser import Paraphraser

    rows = [json.loads(line) for line in Path(inputs).read_text(encoding="utf-8").splitlines()]
    paraphraser = Paraphraser.from_pretrained(model, device="cpu", dtype=dtype)
    extra = dict(min_new_tokens=forced, max_new_tokens=forced) if forced else dict(max_new_tokens=48)
    with torch.inference_mode():
        started = time.perf_counter()
        out = paraphraser.paraphrase(
            [r["source"] for r in rows], [r["suggestion"] for r in rows], num_beams=4, batch_size=32, **extra
        )
        seconds = time.perf_counter() - started
    lengths = [len(paraphraser.tokenizer(o[0].text)["input_ids"]) for o in out]
    dtype = str(paraphraser.dtype).removeprefix("torch.")
    report = {"seconds": seconds, "mean_output_tokens": sum(lengths) / len(lengths), "dtype": dtype}
    Path(output).write_text(json.dumps(report))


def onmt_generate(args, work: Path, model: Path, forced: int | None, env) -> tuple[dict, float]:
    out = work / f"onmt_pred_{forced or 'natural'}.txt"
    cmd = [
        str(Path(args.onmt_venv) / "bin" / "onmt_translate"), "-model", str(model),
        "-src", str(work / "test.src"), "-output", str(out), "-beam_size", "4", "-batch_size", "32",
        "-batch_type", "sents", "-max_length", str(forced or 48), "-min_length", str(forced or 0),
        "-report_time", "-gpu", "-1", "-seed", "13",
    ]  # fmt: skip
    log = work / f"onmt_translate_{forced or 'natural'}.log"
    # OpenNMT-py 3.0.4 predates torch 2.6's weights-only torch.load and pickles argparse options into its
    # checkpoints; this run loads only the checkpoint it has just trained itself.
    _, rss = timed(cmd, log, dict(env, TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD="1"))
    text = log.read_text()
    seconds = float(re.search(r"Total translation time \(s\): ([\d.]+)", text).group(1))
    lengths = [len(line.split()) + 1 for line in out.read_text().splitlines()]
    return {"seconds": seconds, "mean_output_tokens": sum(lengths) / len(lengths)}, rss


def compare_generation(args, work: Path, env: dict, steps: int, n: int) -> tuple[dict, dict]:
    """Generation rows (natural and forced lengths) and peak memory of each generating command."""
    generate, rss = {}, {}
    ours_model = work / f"ours_{steps}"
    onmt_model = work / f"onmt_{steps}" / f"model_step_{steps}.pt"
    for forced in (None, FORCED):
        key = f"forced_{FORCED}_tokens" if forced else "natural_length"
        onmt, rss_onmt = onmt_generate(args, work, onmt_model, forced, env)
        row = {"opennmt": {"sentences_per_s": round(n / onmt["seconds"], 1), "mean_output_tokens": round(onmt["mean_output_tokens"], 1)}}  # fmt: skip
        rss[f"opennmt_generate_{key}"] = round(rss_onmt)
        # paraguide's default (dtype auto: bfloat16 on a CPU that computes it natively) and float32.
        for dtype in ("auto", "float32"):
            name = "paraguide" if dtype == "auto" else "paraguide_float32"
            report = work / f"{name}_generate_{key}.json"
            cmd = [sys.executable, __file__, "--_ours-generate", str(ours_model), str(work / "heldout.jsonl"), str(report), str(forced or 0), dtype]  # fmt: skip
            _, rss_ours = timed(cmd, work / f"{name}_generate_{key}.log", env)
            ours = json.loads(report.read_text())
            row[name] = {"sentences_per_s": round(n / ours["seconds"], 1), "mean_output_tokens": round(ours["mean_output_tokens"], 1), "dtype": ours["dtype"]}  # fmt: skip
            row[f"ratio_{name}"] = round(row[name]["sentences_per_s"] / row["opennmt"]["sentences_per_s"], 2)
            rss[f"{name}_generate_{key}"] = round(rss_ours)
        generate[key] = row
        print(f"generate {key}: {row}", flush=True)
    return generate, rss


def compare_training(args, work: Path, env: dict, tokens: float) -> tuple[dict, dict]:
    """Training tokens/s of each system and their ratios, and the peak memory of each training command."""
    import torch

    from paraguide.model.paraphraser import resolve_dtype
    from paraguide.model.train import KEEP_FREED_MEMORY

    train, peak = {}, {}
    # paraguide also with bfloat16 autocast where the CPU computes bfloat16 natively (OpenNMT-py 3.0.4 has
    # no mixed precision on CPU). The models compared in generation are those of the plain float32 runs
    # (OpenNMT-py with the allocator setting trains first, into the same folder).
    systems = ["paraguide", "opennmt_with_keep", "opennmt", "paraguide_without_keep"]
    if resolve_dtype("auto", torch.device("cpu")) == torch.bfloat16:
        systems.insert(1, "paraguide_bf16")
    # OpenNMT-py with glibc tuned as keep_freed_memory does, through the environment.
    keep_env = env | {f"MALLOC_{name}_": str(value) for name, (_, value) in KEEP_FREED_MEMORY.items()}

    def command(system: str, steps: int) -> tuple[list[str], dict]:
        if system == "paraguide":
            return ours_train_cmd(work, steps, args), env
        if system == "paraguide_bf16":
            return ours_train_cmd(work, steps, args, "bf16"), env
        if system == "paraguide_without_keep":
            return ours_train_cmd(work, steps, args, keep=False), env
        onmt = [
            str(Path(args.onmt_venv) / "bin" / "onmt_train"),
            "-config",
            str(onmt_config(work, steps, args)),
        ]
        return onmt, keep_env if system == "opennmt_with_keep" else env

    for system in systems:
        walls, rss = {}, 0.0
        for steps in (args.warm, args.warm + args.steps):
            cmd, run_env = command(system, steps)
            walls[steps], r = timed(cmd, work / f"{system}_train_{steps}.log", run_env)
            rss = max(rss, r)
            print(f"{system} train {steps} steps: {walls[steps]:.1f} s, peak {r:.0f} MB", flush=True)
        seconds = walls[args.warm + args.steps] - walls[args.warm]
        train[system] = {"seconds": round(seconds, 2), "tokens_per_s": round(tokens / seconds, 1)}
        peak[f"{system}_train"] = round(rss)

    def ratio(ours: str, theirs: str = "opennmt") -> float:
        return round(train[ours]["tokens_per_s"] / train[theirs]["tokens_per_s"], 2)

    train["ratio"] = ratio("paraguide")
    # What the allocator setting alone gives: both with it, neither with it.
    train["ratio_both_keep_freed_memory"] = ratio("paraguide", "opennmt_with_keep")
    train["ratio_neither_keeps_freed_memory"] = ratio("paraguide_without_keep")
    if "paraguide_bf16" in train:
        train["ratio_bf16"] = ratio("paraguide_bf16")

    return train, peak


def add_rerun(out: Path, record: dict, part: str, figures: dict, rss: dict) -> None:
    """Append a rerun of one part ("train" or "generate") to the result file's <part>_reruns."""
    record.setdefault(f"{part}_reruns", []).append({part: figures, "peak_rss_mb": rss})
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
    print(f"added to {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", default=str(ROOT / "runs" / "quora" / "train.jsonl"))
    ap.add_argument("--heldout", help="default: the .heldout.jsonl beside --train")
    ap.add_argument("--tokenizer", default=str(ROOT / "paraguide" / "models" / "en"))
    ap.add_argument("--onmt-venv", default=str(ROOT / ".bench" / "onmt-venv"))
    ap.add_argument("--work", default=str(ROOT / ".bench" / "opennmt"))
    ap.add_argument("--steps", type=int, default=200, help="timed training steps")
    ap.add_argument("--warm", type=int, default=20, help="untimed start-up steps (subtracted)")
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument(
        "--onmt-workers", type=int, default=0, help="OpenNMT-py data-loader processes (0: its fastest here)"
    )
    ap.add_argument("--generate", type=int, default=500, help="held-out inputs to paraphrase")
    ap.add_argument(
        "--generate-again",
        action="store_true",
        help="rerun only the generation comparison with the models of the last full run (in --work), and "
        "add its figures to the result file's generate_reruns",
    )
    ap.add_argument(
        "--train-again",
        action="store_true",
        help="rerun only the training comparison on the data of the last full run (in --work; same --steps, "
        "--warm and --batch-size), and add its figures to the result file's train_reruns",
    )
    ap.add_argument("--_ours-generate", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._ours_generate:
        model, inputs, output, forced, dtype = args._ours_generate
        return ours_generate(model, inputs, output, int(forced) or None, dtype)

    from paraguide.model.tokenizer import load_tokenizer

    if not (Path(args.onmt_venv) / "bin" / "onmt_train").exists():
        sys.exit(f"no OpenNMT-py at {args.onmt_venv}; run: bash benchmarks/opennmt_setup.sh")
    work = Path(args.work)
    out = ROOT / "benchmarks" / "results" / "opennmt_cpu.json"
    threads = str(os.cpu_count() or 1)
    env = dict(os.environ, OMP_NUM_THREADS=threads, MKL_NUM_THREADS=threads, HF_HUB_OFFLINE="1")
    if args.train_again:
        record = json.loads(out.read_text())
        settings = record["settings"]
        args.steps, args.warm, args.batch_size = settings["steps"], settings["warm"], settings["batch_size"]
        tokens = settings["tokens_per_example"] * args.batch_size * args.steps
        train, rss = compare_training(args, work, env, tokens)
        return add_rerun(out, record, "train", train, rss)
    if args.generate_again:
        record = json.loads(out.read_text())
        steps = record["settings"]["warm"] + record["settings"]["steps"]
        generate, rss = compare_generation(args, work, env, steps, record["settings"]["generate_examples"])
        return add_rerun(out, record, "generate", generate, rss)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    data = prepare_inputs(args, work, load_tokenizer(args.tokenizer))
    tokens = data["tokens_per_example"] * args.batch_size * args.steps
    print(f"data: {data}", flush=True)

    result = {}
    result["train"], result["peak_rss_mb"] = compare_training(args, work, env, tokens)
    generate, rss = compare_generation(args, work, env, args.warm + args.steps, data["generate_examples"])
    result["generate"] = generate
    result["peak_rss_mb"].update(rss)
    import torch

    record = {
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(), "torch": torch.__version__},
        "method": __doc__.split("    bash")[0].strip(),
        "command": "python benchmarks/opennmt_compare.py " + " ".join(sys.argv[1:]),
        "settings": {"steps": args.steps, "warm": args.warm, "batch_size": args.batch_size, **SIZE, **data},
        **result,
    }  # fmt: skip
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    print(f"written {out}")


if __name__ == "__main__":
    main()
