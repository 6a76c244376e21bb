#!/usr/bin/env python
"""Blind reading of perturbation pairs (issue 18): are the generated pairs correctly labelled and natural?

1. ``sheet``: from one or more ``paraguide perturb`` folders, up to ``--per-group`` random pairs of each
   category (or ``--by subcategory``); every pair becomes a numbered item, all shuffled together, with no
   label, operation or category. The reader answers, for each, whether the two ask the same thing and
   whether the second reads as a natural question. The key (item -> label, category, subcategory,
   operation, folder) stays here.
2. ``score``: the reader's judgements (TSV: item, same y/n, natural y/n, note) and the key -> per category,
   subcategory and operation: pairs judged, correctly labelled (the reader's "same" equals the label),
   natural, both.

    python benchmarks/perturb_reading.py sheet --run runs/perturb/lcqmc --run runs/perturb/quora \\
        --per-group 20 --seed 1 --sheet benchmarks/results/perturb_reading_X_sheet.md \\
        --key benchmarks/results/perturb_reading_X_key.json
    python benchmarks/perturb_reading.py score --judgements benchmarks/results/perturb_reading_X_judgements.tsv \\
        --key benchmarks/results/perturb_reading_X_key.json --out benchmarks/results/perturb_reading_X.json
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

from reading import read_judgements, write_sheet  # benchmarks/reading.py, beside this script

from paraguide.data.io import read_jsonl

ATTRIBUTION = {
    "en": "English questions from the Quora question pairs (the 4k test split of Gupta et al. 2018; Quora's terms)",
    "zh": "Chinese questions from the LCQMC test set (Liu et al. 2018, research use)",
}
INSTRUCTIONS = """\
Each item shows an original question (A) and a second question (B) made from it by a small change.
For each item answer two things:

- same: do A and B ask the same thing, so that one answer serves both (y), or not (n)? Judge meaning
  only, as a careful reader would; if B has a spelling mistake, judge what its writer evidently meant.
- natural: is B a natural question a person could have typed (y/n)? Informal web questions are fine.
  A spelling mistake alone does not make B unnatural when the rest reads naturally.

Write one line per item to a TSV file with the header `item<TAB>same<TAB>natural<TAB>note`
(same and natural: y or n; note: a few words on anything doubtful or any n, else empty).
"""


def sheet(args) -> None:
    rng = random.Random(args.seed)
    items = []
    for run in args.run:
        rows = [obj for _, obj in read_jsonl(str(Path(run) / "pairs.jsonl"))]
        groups: dict[str, list[dict]] = defaultdict(list)
        for row in rows:
            groups[row[args.by]].append(row)
        for group in sorted(groups):
            chosen = rng.sample(groups[group], min(args.per_group, len(groups[group])))
            items += [(run, row) for row in chosen]
    rng.shuffle(items)
    langs = set()
    lines = ["# Reading sheet", "", INSTRUCTIONS]
    key = {}
    for n, (run, row) in enumerate(items, 1):
        lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in row["question1"]) else "en"
        langs.add(lang)
        lines += [f"## {n}", "", f"A: {row['question1']}", f"B: {row['question2']}", ""]
        key[str(n)] = {k: row[k] for k in ("label", "category", "subcategory", "operation", "id")}
        key[str(n)] |= {"run": run, "lang": lang}
    lines += ["---", "", "Sources: " + "; ".join(ATTRIBUTION[lang] for lang in sorted(langs)) + ". Second "
              "questions machine-made by paraguide perturb.", ""]  # fmt: skip
    write_sheet(args.sheet, args.key, lines, key)


def score(args) -> None:
    key = json.loads(Path(args.key).read_text(encoding="utf-8"))
    rows = read_judgements(args.judgements, key, ["same", "natural"], {"same", "natural"})
    judged = {item: (row["same"], row["natural"], row["note"]) for item, row in rows.items()}
    result: dict = {"items": len(judged)}
    for level in ("language", "category", "subcategory", "operation"):
        table: dict[str, dict] = defaultdict(lambda: {"n": 0, "correct": 0, "natural": 0, "both": 0})
        for item, (same, natural, _) in judged.items():
            k = key[item]
            name = k["lang"] if level == "language" else f"{k['lang']}/{k[level]}"
            correct = same == bool(k["label"])
            t = table[name]
            t["n"] += 1
            t["correct"] += correct
            t["natural"] += natural
            t["both"] += correct and natural
        result[level] = {
            name: {**t, "correct_%": round(100 * t["correct"] / t["n"], 1),
                   "natural_%": round(100 * t["natural"] / t["n"], 1),
                   "both_%": round(100 * t["both"] / t["n"], 1)}
            for name, t in sorted(table.items())
        }  # fmt: skip
    result["mislabelled"] = [
        {"item": item, **key[item], "reader_same": same, "note": note}
        for item, (same, _, note) in sorted(judged.items(), key=lambda kv: int(kv[0]))
        if same != bool(key[item]["label"])
    ]
    Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for level in ("language", "category"):
        for name, t in result[level].items():
            print(f"{name:<24} n={t['n']:<4} correctly labelled {t['correct_%']:5.1f} %  natural "
                  f"{t['natural_%']:5.1f} %  both {t['both_%']:5.1f} %")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("sheet", help="a blind sheet of random pairs and its key")
    p.add_argument("--run", action="append", required=True, help="a paraguide perturb folder (repeatable)")
    p.add_argument("--per-group", type=int, default=20)
    p.add_argument("--by", default="category", choices=("category", "subcategory", "operation"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sheet", required=True)
    p.add_argument("--key", required=True)
    p.set_defaults(run_command=sheet)
    p = sub.add_parser("score", help="score the reader's judgements with the key")
    p.add_argument("--judgements", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(run_command=score)
    args = parser.parse_args()
    args.run_command(args)


if __name__ == "__main__":
    main()
