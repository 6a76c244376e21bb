"""Train the causal paraphraser's adapters on a lent GPU from a pack (data_prep/gpu/pack.py), several runs
side by side on the one card, each for a fixed time; then bring back each run's best adapter tensors.

Runs (``--runs``): ``mixed`` (one multilingual adapter, copy head), ``nocopy`` (the same without the copy
head), ``en`` and ``zh`` (one adapter per language). Each run trains with the CPU training's own pieces
(paraguide.model.causal: the model and its loss; causal_train: the batches' layout), bf16 autocast over
float32 weights, AdamW, constant learning rate after warm-up, the held-out loss per language every
``--eval-every`` steps, and keeps its best adapter (lowest mean held-out loss over its languages).

Written into ``--out``: ``<run>.safetensors`` (the adapter's fp16 tensors with ``vocab_ids`` in the full
base's numbering, as paraguide's adapter.safetensors holds them), ``metrics.json`` (every evaluation and
the throughput) and ``log.txt``. ``data_prep/gpu/finish.py`` makes adapter folders of them here.

    python data_prep/gpu/train.py --pack .gpu/b --more .gpu/a --out $OUT --minutes 7
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

RUNS = {  # name: (languages, copy head)
    "mixed": (("en", "zh"), True),
    "nocopy": (("en", "zh"), False),
    "en": (("en",), True),
    "zh": (("zh",), True),
}


def build_base(pack: Path, more: list[Path], folder: Path) -> None:
    """De-quantize the pack into a transformers folder (float32 safetensors + config)."""
    from pack import dequantize_pack
    from safetensors.torch import save_file

    meta = json.loads((pack / "base.json").read_text())
    state = dequantize_pack(pack, *more)
    folder.mkdir(parents=True, exist_ok=True)
    save_file(state, folder / "model.safetensors")
    (folder / "config.json").write_text(json.dumps(meta["config"], indent=2))
    (folder / "kept_ids.json").write_text(json.dumps(meta["kept_ids"]))  # which pack it is


def load_corpus(pack: Path):
    from safetensors.numpy import load_file

    from paraguide.model.causal_train import Example

    c = load_file(pack / "corpus.safetensors")
    po, to = c["prompt_offsets"], c["target_offsets"]
    examples = [
        Example(
            c["prompt"][po[i] : po[i + 1]].astype(np.int64).tolist(),
            c["copy"][po[i] : po[i + 1]].astype(np.int64).tolist(),
            c["target"][to[i] : to[i + 1]].astype(np.int64).tolist(),
        )
        for i in range(len(po) - 1)
    ]
    langs = ["zh" if z else "en" for z in c["lang"]]
    return examples, langs, c["heldout"].astype(bool)


def worker(args) -> None:
    from transformers import get_constant_schedule_with_warmup

    from paraguide.model.causal import CausalConfig, build
    from paraguide.model.causal_train import collate, heldout_loss, output_vocabulary, train_step
    from paraguide.model.train import epoch_batches

    name = args.worker
    langs, use_copy = RUNS[name]
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.backends.cuda.matmul.allow_tf32 = True
    meta = json.loads((Path(args.pack) / "base.json").read_text())
    examples, ex_lang, held = load_corpus(Path(args.pack))
    train = [e for e, lang, h in zip(examples, ex_lang, held, strict=True) if not h and lang in langs]
    heldout = {
        lang: [e for e, x, h in zip(examples, ex_lang, held, strict=True) if h and x == lang][
            : args.eval_examples
        ]
        for lang in langs
    }

    class Pad:  # the renumbered vocabulary's pad id (the base's own, renumbered by the pack)
        pad_token_id = meta["config"]["pad_token_id"]
        eos_token_id = meta["config"]["eos_token_id"]
        bos_token_id = meta["config"]["bos_token_id"]

    vocab = output_vocabulary(train + [e for v in heldout.values() for e in v], Pad)
    config = CausalConfig(base="gemma-3-270m", base_sha256=meta["gguf_sha256"], use_copy=use_copy)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build(args.base, config, vocab)
    if args.init_from:  # go on from an adapter (its LoRA and copy head; the vocabulary is this corpus's)
        from safetensors.torch import load_file

        state = load_file(Path(args.init_from, f"{name}.safetensors"))
        state.pop("vocab_ids")
        model.load_trainable({k: v.float() for k, v in state.items()}, args.init_from)
    model = model.to(device)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.0)
    scheduler = get_constant_schedule_with_warmup(optimizer, num_warmup_steps=args.warmup)
    autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda")
    lengths = [len(e.prompt) + len(e.target) for e in train]
    kept = torch.as_tensor(meta["kept_ids"], dtype=torch.long)
    log = []

    def evaluate(step, seen, loss):
        result = {"step": step, "examples_seen": seen, "train_loss": round(loss, 4),
                  "seconds": round(time.perf_counter() - started, 1)}  # fmt: skip
        for lang, data in heldout.items():
            result[f"heldout_{lang}"] = heldout_loss(model, data, Pad, autocast).get("heldout_loss")
        model.train()
        log.append(result)
        print(name, json.dumps(result), flush=True)
        return sum(result[f"heldout_{lang}"] for lang in langs) / len(langs)

    def save_best():
        state = model.adapter_state()
        state["vocab_ids"] = kept[state["vocab_ids"].cpu()].contiguous()  # back to the full base's ids
        from safetensors.torch import save_file

        save_file({k: v.cpu().contiguous() for k, v in state.items()}, Path(args.tmp, f"{name}.safetensors"))

    started = time.perf_counter()
    deadline = started + 60 * args.minutes
    step, seen, epoch, best = 0, 0, 0, None
    loss_sum, loss_n = 0.0, 0
    model.train()
    stop = False
    while not stop:
        for batch_ids in epoch_batches(lengths, args.batch_size, args.seed, epoch):
            batch = collate([train[j] for j in batch_ids], Pad.pad_token_id)
            loss = train_step(model, batch, optimizer, scheduler, trainable, autocast)
            step += 1
            seen += len(batch_ids)
            loss_sum += loss.item()
            loss_n += 1
            stop = time.perf_counter() > deadline
            if step % args.eval_every == 0 or stop:
                score = evaluate(step, seen, loss_sum / loss_n)
                loss_sum, loss_n = 0.0, 0
                if best is None or score < best["score"]:
                    best = {"step": step, "score": round(score, 4)}
                    save_best()
            if stop:
                break
        epoch += 1
    Path(args.tmp, f"{name}.json").write_text(
        json.dumps(
            {
                "run": name,
                "languages": langs,
                "copy": use_copy,
                "train_examples": len(train),
                "epochs_started": epoch,
                "best": best,
                "evaluations": log,
                "steps_per_second": round(step / (time.perf_counter() - started), 2),
            }
        )  # fmt: skip
    )


def smoke() -> None:
    """A tiny random Gemma 3 through the same build / loss / adapter path, on the GPU: the machine's
    transformers and peft versions work with paraguide's model before any time goes into the real runs."""
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig

    from paraguide.model.causal import CausalConfig, build
    from paraguide.model.causal_train import Example, collate

    folder = Path("/tmp/paraguide-smoke")
    cfg = Gemma3TextConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                           num_attention_heads=2, num_key_value_heads=1, head_dim=16)  # fmt: skip
    Gemma3ForCausalLM(cfg).save_pretrained(folder, safe_serialization=True)
    model = build(str(folder), CausalConfig(), list(range(64))).cuda()
    batch = collate([Example([2, 5, 6, 7], [0, 1, 1, 1], [6, 5, 1])] * 4, 0)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model.loss({k: v.cuda() for k, v in batch.items()})
    loss.backward()
    print("smoke ok: loss", round(loss.item(), 3), "adapter tensors", len(model.adapter_state()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pack", required=True, help="folder with base.json and corpus.safetensors")
    ap.add_argument("--more", action="append", default=[], help="other folders holding base parts")
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", default="mixed,nocopy,en,zh")
    ap.add_argument("--minutes", type=float, default=7.0, help="training time of each run")
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--warmup", type=int, default=60)
    ap.add_argument("--eval-every", type=int, default=200)
    ap.add_argument("--eval-examples", type=int, default=300, help="held-out examples per language")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument(
        "--base", default="/tmp/paraguide-gpu-base", help="where the de-quantized base is written"
    )
    ap.add_argument("--tmp", default="/tmp/paraguide-gpu-runs")
    ap.add_argument("--init-from", help="folder holding <run>.safetensors adapters to start from")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    if argv is None and sys.argv[1:] == ["--smoke"]:
        smoke()
        return 0
    args = ap.parse_args(argv)
    if args.worker:
        worker(args)
        return 0
    out, tmp = Path(args.out), Path(args.tmp)
    out.mkdir(parents=True, exist_ok=True)
    tmp.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if not Path(args.base, "model.safetensors").exists():
        build_base(Path(args.pack), [Path(m) for m in args.more], Path(args.base))
    elif (
        json.loads(Path(args.base, "kept_ids.json").read_text())
        != json.loads((Path(args.pack) / "base.json").read_text())["kept_ids"]
    ):
        raise SystemExit(
            f"{args.base} holds another pack's base (its vocabulary differs): give another --base"
        )
    print(f"base ready in {time.perf_counter() - t0:.0f} s", flush=True)
    procs, logs = {}, {}
    for name in args.runs.split(","):
        cmd = [sys.executable, __file__, "--worker", name, *(argv if argv is not None else sys.argv[1:])]
        logs[name] = open(tmp / f"{name}.log", "w")  # noqa: SIM115 (open while the worker runs)
        procs[name] = subprocess.Popen(cmd, stdout=logs[name], stderr=subprocess.STDOUT)
    codes = {name: p.wait() for name, p in procs.items()}
    for f in logs.values():
        f.close()
    summary = {"device": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu",
               "torch": torch.__version__, "exit_codes": codes, "args": vars(args), "runs": {}}  # fmt: skip
    with open(out / "log.txt", "w") as log:
        for name in procs:
            text = (tmp / f"{name}.log").read_text()
            log.write(f"=== {name} (exit {codes[name]})\n{text[-20000:]}\n")
            if (tmp / f"{name}.json").exists():
                summary["runs"][name] = json.loads((tmp / f"{name}.json").read_text())
            if (tmp / f"{name}.safetensors").exists():
                os.replace(tmp / f"{name}.safetensors", out / f"{name}.safetensors")
    (out / "metrics.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps({k: (v.get("best"), v.get("steps_per_second")) for k, v in summary["runs"].items()}))
    return 0 if all(c == 0 for c in codes.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
