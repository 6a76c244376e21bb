#!/usr/bin/env python
"""Store a trained paraphraser as a bundled default: fp16 safetensors + tokenizer in DEST, its measured
quality on the held-out split, and a model card.

    python data_prep/bundle_model.py runs/models/en-quora-small paraguide/models/en \
        --eval-file runs/quora/train.heldout.jsonl [--examples 1000]

Measured with beam search 4 on the first N held-out examples: BLEU of the output to the reference
target (sacrebleu, lower-cased), the share of non-empty suggestions found in the output (whole words;
Chinese: substring), the share of outputs identical to the source, and the copy rate (the share of
output words that occur in the source question).
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
from pathlib import Path

import torch

from paraguide.data.io import read_jsonl, write_json
from paraguide.model.copy import CopyGenerator
from paraguide.model.heldout import copy_rate, decode, identical_to_source, quality
from paraguide.model.paraphraser import Paraphraser
from paraguide.suggest.alignment import occurs_in
from paraguide.suggest.textrank import TextRank
from paraguide.text import tokenize


def evaluate(model_dir: Path, eval_file: str, n: int, lang: str) -> dict:
    rows = [r for _, r in read_jsonl(eval_file)][:n]
    paraphraser = Paraphraser.from_pretrained(model_dir, device="cpu")  # the defaults users get
    decode(paraphraser, rows[:64])  # warm-up, not timed
    outputs, seconds = decode(paraphraser, rows)
    # The same model by beam score alone, and in float32: what the defaults change.
    by_score = quality(decode(paraphraser, rows, prefer_suggestion=False)[0], rows, lang)
    fp32 = Paraphraser.from_pretrained(model_dir, device="cpu", dtype="float32")
    float32 = quality(decode(fp32, rows)[0], rows, lang)

    # Samples come from the project's own example questions: no dataset text goes into the repository.
    lines = Path(f"examples/data/questions_{lang}.tsv").read_text(encoding="utf-8").splitlines()
    own = [(a, b) for a, b, label in (line.split("\t") for line in lines) if label == "1"][:8]
    ranker = TextRank(lang)
    suggestions = []
    for a, b in own:
        words = [w.lower() for w in tokenize(a, lang)]
        found = [
            k.text.lower()
            for k in ranker.keyphrases(b)
            if not occurs_in(k.text, k.words, a.lower(), words, lang)
        ]
        suggestions.append(found[0] if found else "")
    sample_out = paraphraser.paraphrase([a for a, _ in own], suggestions, num_beams=4)
    examples = [
        {"source": a, "suggestion": sug, "output": o[0].text, "reference": b}
        for (a, b), sug, o in zip(own, suggestions, sample_out, strict=True)
    ]
    dtype = str(paraphraser.dtype).removeprefix("torch.")
    return {
        "eval_file": eval_file,
        "examples": len(rows),
        "decoding": f"beam search 4, max 48 new tokens, {dtype}, beams containing the suggestion first",
        **quality(outputs, rows, lang),
        "by_beam_score_alone": by_score,
        "float32": float32,
        "identical_to_source": identical_to_source(outputs, rows),
        "copy_rate": copy_rate(outputs, rows, lang),
        "sentences_per_second_cpu": round(len(rows) / seconds, 1),
        "machine": f"{platform.processor() or platform.machine()}, torch {torch.__version__}, {torch.get_num_threads()} threads",
        "samples": examples,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trained")
    ap.add_argument("dest")
    ap.add_argument("--eval-file", required=True)
    ap.add_argument("--examples", type=int, default=1000)
    ap.add_argument("--lang", default="en")
    ap.add_argument(
        "--no-curve-bleu", action="store_true", help="leave the training-curve BLEU out of the card"
    )
    args = ap.parse_args()
    trained, dest = Path(args.trained), Path(args.dest)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    model = CopyGenerator.from_pretrained(trained, dtype=torch.float32)
    model.to(torch.float16).save_pretrained(dest)  # half the size; loaded back as float32
    for name in (
        "tokenizer.json",
        "tokenizer_config.json",
        "spiece.model",
        "training_args.json",
        "all_results.json",
    ):
        if (trained / name).exists():
            shutil.copy(trained / name, dest / name)
    result = evaluate(dest, args.eval_file, args.examples, args.lang)
    params = sum(p.numel() for p in model.parameters())
    result["parameters"] = params
    result["size_mb"] = round((dest / "model.safetensors").stat().st_size / 2**20, 1)
    write_json(dest / "eval_results.json", result)
    training = json.loads((trained / "training_args.json").read_text())
    metrics = [
        json.loads(line) for line in (trained / "metrics.jsonl").read_text().splitlines() if line.strip()
    ]
    card = [
        f"# paraguide default paraphraser: {dest.name}",
        "",
        f"Suggestion-guided question paraphraser with a copy mechanism, `{training['size']}` size "
        f"({params / 1e6:.1f} M parameters, {result['size_mb']} MB in fp16 safetensors).",
        "",
        "## Data",
        f"`{training['train_file']}` written by `paraguide prepare` (see docs/prepare.md); its held-out split "
        f"`{args.eval_file}` was not trained on.",
        "",
        "## Reproduce",
        f"```bash\nbash data_prep/train_default.sh {args.lang}\n```",
        "",
        "Training settings: `"
        + json.dumps({k: v for k, v in training.items() if k not in ("train_file", "output_dir")})
        + "`",
        "",
        "## Quality on the held-out split",
        f"{result['examples']} held-out examples, {result['decoding']}:",
        "",
        "| BLEU | suggestion inclusion | identical to source | copy rate | sentences/s (CPU) |",
        "|---|---|---|---|---|",
        f"| {result['bleu']} | {result['suggestion_inclusion']:.1%} | {result['identical_to_source']:.1%} | "
        f"{result['copy_rate']:.1%} | {result['sentences_per_second_cpu']} |",
        "",
        f"By beam score alone (`prefer_suggestion=False`, `--by-score`): BLEU {result['by_beam_score_alone']['bleu']}, "
        f"suggestion inclusion {result['by_beam_score_alone']['suggestion_inclusion']:.1%}. In float32 "
        f"(`--dtype float32`): BLEU {result['float32']['bleu']}, suggestion inclusion "
        f"{result['float32']['suggestion_inclusion']:.1%}.",
        "",
        "Training curve (greedy decoding on the first held-out examples"
        + (
            "; BLEU left out: these runs scored it before Chinese tokenisation was fixed"
            if args.no_curve_bleu
            else ""
        )
        + "):",
        "",
        "| step | held-out loss |" + ("" if args.no_curve_bleu else " BLEU |") + " suggestion inclusion |",
        "|---|---|" + ("" if args.no_curve_bleu else "---|") + "---|",
        *[
            f"| {m['step']} | {m.get('heldout_loss')} |"
            + ("" if args.no_curve_bleu else f" {m.get('bleu')} |")
            + f" {m.get('suggestion_inclusion')} |"
            for m in metrics
        ],
        "",
        "## Samples",
        "",
        f"On the project's own example pairs (`examples/data/questions_{args.lang}.tsv`), with the suggestion taken "
        "from the paired question as in training (TextRank):",
        "",
        *[
            f"- `{s['suggestion'] or '<empty>'}` + {s['source']} → **{s['output']}** (reference: {s['reference']})"
            for s in result["samples"]
        ],
        "",
        f"Measured on: {result['machine']}.",
    ]
    (dest / "README.md").write_text("\n".join(card) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=2))


if __name__ == "__main__":
    main()
