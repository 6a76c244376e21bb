"""The pretrained paraphraser on held-out pairs of its training corpus (issue "A pretrained paraphraser"):
BLEU to the reference, suggestion inclusion, the share identical to the source, and, for the copy head's
worth, how often the numbers, names and rare words of the source are kept, with and without the head.

    python benchmarks/causal_heldout.py --n 300 \\
        --model gemma-en=paraguide/models/gemma-en:runs/gemma_corpus/v3en/train.heldout.jsonl:en \\
        --model gemma-zh=paraguide/models/gemma-zh:runs/gemma_corpus/v2/train.heldout.jsonl:zh \\
        --model mixed=runs/gpu/mixed:runs/gemma_corpus/v2/train.heldout.jsonl:en,zh \\
        --model nocopy=runs/gpu/nocopy:runs/gemma_corpus/v2/train.heldout.jsonl:en,zh \\
        --rare-from runs/gemma_corpus/v2/train.jsonl --out benchmarks/results/causal_heldout.json

NAME=ADAPTER:HELDOUT:LANGS: the first ``--n`` held-out rows of each language, beam 4, best beam, float32.
Kept counts are over the source's items that the reference keeps too (a number, a capitalised word
past the first, a word seen at most 3 times in ``--rare-from``'s targets): the pair says they should stay.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from paraguide.data.io import read_jsonl
from paraguide.model.heldout import identical_to_source, quality
from paraguide.model.paraphraser import Paraphraser
from paraguide.text import tokenize
from paraguide.text.match import contains

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
NAME = re.compile(r"(?<=\s)[A-Z][\w'’-]*")


def items(text: str, lang: str, rare: set[str]) -> dict[str, set[str]]:
    out = {"numbers": set(NUMBER.findall(text))}
    if lang == "en":
        out["names"] = set(NAME.findall(text))
    out["rare words"] = {w for w in tokenize(text.lower(), lang) if w in rare and not NUMBER.fullmatch(w)}
    return out


def kept(outputs, rows, lang, rare) -> dict:
    counts = Counter()
    for o, r in zip(outputs, rows, strict=True):
        for kind, found in items(r["source"], lang, rare).items():
            for x in found:
                if contains(r["target"], x, lang):  # the reference keeps it: it should stay
                    counts[kind, "should"] += 1
                    counts[kind, "kept"] += contains(o, x, lang)
    kinds = sorted({k for k, _ in counts})
    return {k: {"kept": round(counts[k, "kept"] / max(1, counts[k, "should"]), 4), "of": counts[k, "should"]}
            for k in kinds}  # fmt: skip


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", action="append", required=True, help="NAME=ADAPTER:HELDOUT:LANGS")
    ap.add_argument("--n", type=int, default=300, help="held-out rows per language")
    ap.add_argument("--rare-from", required=True, help="training JSONL whose targets define rare words")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    freq = Counter()
    for _, r in read_jsonl(args.rare_from):
        freq.update(tokenize(r["target"].lower(), r.get("lang", "en")))
    rare = {w for w, c in freq.items() if c <= 3}
    result = {}
    for spec in args.model:
        name, _, rest = spec.partition("=")
        adapter, heldout, langs = rest.split(":")
        paraphraser = Paraphraser.from_pretrained(adapter)
        rows_all = [r for _, r in read_jsonl(heldout)]
        for lang in langs.split(","):
            rows = [r for r in rows_all if r.get("lang", lang) == lang][: args.n]
            start = time.perf_counter()
            out = paraphraser.paraphrase(
                [r["source"] for r in rows],
                [r["suggestion"] or None for r in rows],
                matched=[r.get("matched") or None for r in rows],
                num_beams=4,
            )
            seconds = time.perf_counter() - start
            outputs = [x[0].text for x in out]
            row = {**quality(outputs, rows, lang), "identical_to_source": identical_to_source(outputs, rows),
                   "kept": kept(outputs, rows, lang, rare), "examples": len(rows),
                   "sentences_per_second": round(len(rows) / seconds, 2)}  # fmt: skip
            result[f"{name}/{lang}"] = row
            print(name, lang, json.dumps(row), file=sys.stderr, flush=True)
    Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
