#!/usr/bin/env python
"""Paraphrasers compared on the same held-out pairs (issue 14): one table of BLEU, suggestion inclusion, the
share identical to the source, the copy rate, decoding speed, and how each was trained (steps, training
seconds, parameters) from its ``all_results.json`` / ``training_args.json``.

Each model decodes the first N held-out examples with beam search 4 (at most 48 new tokens, beams
containing the suggestion first), on the CPU, with the defaults users get (``Paraphraser.from_pretrained``),
after a 64-example warm-up that is not timed.

    python benchmarks/heldout_table.py --eval-file runs/quora/train.heldout.jsonl --examples 1000 \\
        small=paraguide/models/en minilm=runs/models/en-minilm --out benchmarks/results/heldout_en.json
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model  # noqa: E402

from paraguide.data.io import read_jsonl, write_json  # noqa: E402
from paraguide.model.heldout import copy_rate, decode, identical_to_source, quality  # noqa: E402
from paraguide.model.paraphraser import Paraphraser  # noqa: E402


def _json(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def measure(folder: Path, rows: list[dict], lang: str) -> dict:
    paraphraser = Paraphraser.from_pretrained(folder, device="cpu")
    decode(paraphraser, rows[:64])  # warm-up, not timed
    outputs, seconds = decode(paraphraser, rows)
    trained, args = _json(folder / "all_results.json"), _json(folder / "training_args.json")
    return {
        "model": str(folder),
        "backbone": args.get("backbone"),
        "size": None if args.get("backbone") else args.get("size"),
        "decoder_layers": args.get("decoder_layers"),
        "parameters": sum(p.numel() for p in paraphraser.model.parameters()),
        "train_steps": trained.get("step"),
        "train_seconds": trained.get("train_seconds"),
        "heldout_loss": trained.get("heldout_loss"),
        **quality(outputs, rows, lang),
        "identical_to_source": identical_to_source(outputs, rows),
        "copy_rate": copy_rate(outputs, rows, lang),
        "sentences_per_second_cpu": round(len(rows) / seconds, 1),
        "dtype": str(paraphraser.dtype).removeprefix("torch."),
        "first_outputs": outputs[:5],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+", metavar="NAME=FOLDER", help="paraguide model folders to compare")
    ap.add_argument("--eval-file", required=True, help="held-out JSONL from paraguide prepare")
    ap.add_argument("--examples", type=int, default=1000)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--out", required=True, help="JSON results")
    args = ap.parse_args()
    rows = [r for _, r in read_jsonl(args.eval_file)][: args.examples]
    results = {}
    for spec in args.models:
        name, _, folder = spec.partition("=")
        if not folder:
            ap.error(f"{spec!r}: give NAME=FOLDER")
        results[name] = measure(Path(folder), rows, args.lang)
        print(name, json.dumps({k: v for k, v in results[name].items() if k != "first_outputs"}), flush=True)
    write_json(
        args.out,
        {
            "eval_file": args.eval_file,
            "examples": len(rows),
            "decoding": "beam search 4, max 48 new tokens, beams containing the suggestion first, CPU",
            "machine": f"{cpu_model()}, {platform.machine()}, torch {torch.__version__}, "
            f"{torch.get_num_threads()} threads",
            "models": results,
        },
    )
    print(
        "| model | parameters | steps | training | held-out loss | BLEU | inclusion | identical | sentences/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(
            f"| {name} | {r['parameters'] / 1e6:.1f} M | {r['train_steps']} | {r['train_seconds']} s | "
            f"{r['heldout_loss']} | {r['bleu']} | {r['suggestion_inclusion']:.1%} | "
            f"{r['identical_to_source']:.1%} | {r['sentences_per_second_cpu']} |"
        )


if __name__ == "__main__":
    main()
