#!/usr/bin/env python
"""Blind quality readings of accepted paraphrases: does a careful reader accept what the filters accept?

1. ``sample``: a seeded sample of SQuAD-format questions (their paragraphs kept), the input of every system.
2. Build each system's test set on it with ``paraguide build-testset`` (the commands go in the result).
3. ``sheet``: from each run, up to ``--per-system`` random accepted paraphrases; every (original,
   paraphrase) becomes a numbered item, all systems shuffled together, with no system name. The sheet
   goes to a reader (a helper that sees only the sheet); the key (item -> system, run, question id) stays
   here. The same paraphrase made by two systems is one item, credited to both.
4. ``score``: the reader's judgements (TSV: item, fluent y/n, same question and answer y/n, note) and the
   key -> per system: items judged, fluent, same, both; selected share of the run; median token edit rate;
   share that differ from the original by one inserted or deleted word only.

    python benchmarks/quality_reading.py sample ../shared/data/squad_v1.1/dev-v1.1.json.gz --n 600 \\
        --exclude-read benchmarks/results --out runs/reading/squad600.json   # questions no reading has seen
    paraguide build-testset --squad runs/reading/squad600.json --out runs/reading/A ...
    python benchmarks/quality_reading.py sheet --run A=runs/reading/A --run B=runs/reading/B \\
        --per-system 40 --sheet benchmarks/results/reading_X_sheet.md --key benchmarks/results/reading_X_key.json
    python benchmarks/quality_reading.py score --judgements benchmarks/results/reading_X_judgements.tsv \\
        --key benchmarks/results/reading_X_key.json --out benchmarks/results/reading_X.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

from paraguide.data.io import read_jsonl
from paraguide.data.squad import SquadReader
from paraguide.text.edits import (
    edit_rate,
    function_words_only,
    one_word_added_or_removed,
    question_word_only,
    token_edits,
)

ATTRIBUTION = {
    "en": "Questions from SQuAD v1.1 dev (Rajpurkar et al. 2016), CC BY-SA 4.0; paraphrases machine-written "
    "by paraguide.",
    "zh": "Questions from the LCQMC test set (Liu et al. 2018, research use); paraphrases machine-written by "
    "paraguide.",
}
LANG_NOTE = {
    "en": "Lower case, a missing question mark and British/American spelling are not errors. Answer as a",
    "zh": "The questions are Chinese: judge them as a native reader of Chinese would (fluent: natural Chinese\n"
    "a person could have typed; informal web questions are fine). A missing question mark is not an error. "
    "Answer as a",
}


def read_originals(folder: Path) -> set[str]:
    """The original questions of every reading whose key lies in ``folder`` (``*_key.json``)."""

    def walk(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("original"), str):
                originals.add(node["original"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    keys = sorted(folder.glob("*_key.json"))
    if not keys:
        raise SystemExit(f"--exclude-read: no reading keys (*_key.json) in {folder}")
    originals: set[str] = set()
    for key in keys:
        walk(json.loads(key.read_text(encoding="utf-8")))
    return originals


def sample(args) -> None:
    rng = random.Random(args.seed)
    records = list(SquadReader(args.input))
    seen: set[str] = set()  # questions something read or fitted on already (a learnt filter's readings)
    if args.exclude:
        seen |= set(Path(args.exclude).read_text(encoding="utf-8").splitlines())
    if args.exclude_read:
        seen |= read_originals(Path(args.exclude_read))
    if seen:
        before = len(records)
        records = [r for r in records if r["question"] not in seen]
        print(f"{before - len(records)} of {before} questions left out: read or fitted on already")
    keep = {r["id"] for r in rng.sample(records, min(args.n, len(records)))}
    articles: dict[int, dict] = {}
    for r in records:
        if r["id"] not in keep:
            continue
        article = articles.setdefault(r["article_index"], {"title": r["title"], "paragraphs": []})
        paragraphs = article["paragraphs"]
        if not paragraphs or paragraphs[-1]["context"] != r["context"]:
            paragraphs.append({"context": r["context"], "qas": []})
        paragraphs[-1]["qas"].append({"id": r["id"], "question": r["question"], "answers": r["answers"]})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(
        json.dumps({"version": "1.1", "data": list(articles.values())}), encoding="utf-8"
    )
    print(f"{len(keep)} questions -> {args.out}")


def accepted(run: Path) -> list[dict]:
    """(question id, original, paraphrase, suggestion) of every selected question of a test-set run."""
    out = []
    for _, p in read_jsonl(run / "provenance.jsonl"):
        out.append(
            {
                "id": p["original_id"],
                "original": p["original"],
                "paraphrase": p["paraphrase"],
                "suggestion": p.get("suggestion", ""),
                "matched": p.get("matched", ""),
                "origin": p.get("origin", "paraphraser"),
            }
        )
    return out


def sheet(args) -> None:
    rng = random.Random(args.seed)
    runs = dict(spec.split("=", 1) for spec in args.run)
    sizes = {name: int(k) for name, k in (spec.split("=", 1) for spec in args.size or [])}
    items: dict[tuple[str, str], dict] = {}  # (original, paraphrase) -> item
    for name, path in runs.items():
        found = accepted(Path(path))
        for a in rng.sample(found, min(sizes.get(name, args.per_system), len(found))):
            key = (a["original"], a["paraphrase"].strip().lower())
            item = items.setdefault(
                key, {"original": a["original"], "paraphrase": a["paraphrase"], "systems": []}
            )
            item["systems"].append(
                {k: a[k] for k in ("id", "suggestion", "matched", "origin")} | {"system": name}
            )
    order = list(items.values())
    rng.shuffle(order)
    lines = [
        "# Reading sheet",
        "",
        "For each item: an original question and a machine-written rewrite of it. Judge the rewrite:",
        "",
        "- **fluent**: is it a grammatical, natural question a person could have written? (y/n)",
        "- **same**: does it ask the same thing as the original, so that the same answer is right? (y/n)",
        "",
        # Said since reading 2026-12-06i: readers before it differed on a fault the rewrite only keeps (one
        # counted "what words to they think", one did not), which moved a reading by up to three points.
        "Judge the rewrite as written: a fault it keeps from the original still counts (note 'kept').",
        LANG_NOTE[args.lang],
        "TSV, one line per item: `item<TAB>fluent<TAB>same<TAB>note` (note: a few words when 'n').",
        "",
        args.attribution or ATTRIBUTION[args.lang],
        "",
    ]
    key = {
        "runs": runs,
        "per_system": args.per_system,
        "sizes": sizes,
        "seed": args.seed,
        "lang": args.lang,
        "items": {},
    }
    for n, item in enumerate(order, 1):
        # Every rewrite lower-cased: the paraphraser writes lower case and an in-place substitution keeps the
        # question's case, which would tell the reader where a rewrite came from.
        rewrite = item["paraphrase"].strip().lower()
        original = item["original"].strip()
        if args.lowercase:  # a reference set of lower-cased questions beside cased ones
            original = original.lower()
        lines += [f"## {n}", f"- original: {original}", f"- rewrite: {rewrite}", ""]
        key["items"][str(n)] = item
    Path(args.sheet).write_text("\n".join(lines), encoding="utf-8")
    Path(args.key).write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(order)} items -> {args.sheet}; key -> {args.key}")


def score(args) -> None:
    key = json.loads(Path(args.key).read_text(encoding="utf-8"))
    judged: dict[str, tuple[bool, bool, str]] = {}
    for line in Path(args.judgements).read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if len(cells) < 3 or not cells[0].strip().isdigit():
            continue  # header or blank
        yes = [c.strip().lower().startswith("y") for c in cells[1:3]]
        judged[cells[0].strip()] = (yes[0], yes[1], cells[3].strip() if len(cells) > 3 else "")
    lang = key.get("lang", "en")  # edit rates count words: jieba's for Chinese
    missing = sorted(set(key["items"]) - set(judged), key=int)
    if missing:
        raise SystemExit(f"{args.judgements}: no judgement for items {', '.join(missing)}")
    systems: dict[str, dict] = {}
    for n, item in key["items"].items():
        fluent, same, _ = judged[n]
        for s in item["systems"]:
            row = systems.setdefault(
                s["system"],
                {
                    "items": 0,
                    "fluent": 0,
                    "same": 0,
                    "both": 0,
                    "rates": [],
                    "one_word": 0,
                    "qword": 0,
                    "two": 0,
                    "func": 0,
                },
            )
            row["items"] += 1
            origin = row.setdefault("by_origin", {}).setdefault(s.get("origin", "paraphraser"), [0, 0])
            origin[0] += 1
            origin[1] += fluent and same
            row["fluent"] += fluent
            row["same"] += same
            row["both"] += fluent and same
            row["rates"].append(edit_rate(item["original"], item["paraphrase"], lang))
            row["one_word"] += one_word_added_or_removed(item["original"], item["paraphrase"], lang)
            row["qword"] += question_word_only(item["original"], item["paraphrase"], lang)
            row["func"] += function_words_only(item["original"], item["paraphrase"], lang)
            row["two"] += token_edits(item["original"], item["paraphrase"], lang) >= 2
    out = {
        "method": __doc__.split("    python")[0].strip(),
        "key": args.key,
        "judgements": args.judgements,
        "systems": {},
    }
    for name, row in sorted(systems.items()):
        summary_file = Path(key["runs"][name]) / "summary.json"
        selected = None
        if summary_file.exists():
            summary = json.loads(summary_file.read_text())
            selected = {"selected": summary["selected"], "questions": summary["input_questions"]}
        k = row["items"]
        out["systems"][name] = {
            "run": key["runs"][name],
            "selected": selected,
            "items_judged": k,
            "fluent": round(row["fluent"] / k, 3),
            "same_question": round(row["same"] / k, 3),
            "both": round(row["both"] / k, 3),
            "median_token_edit_rate": round(statistics.median(row["rates"]), 3),
            "one_word_inserted_or_deleted": round(row["one_word"] / k, 3),
            "question_word_only": round(row["qword"] / k, 3),
            "function_words_only": round(row["func"] / k, 3),
            "two_or_more_words_changed": round(row["two"] / k, 3),
            "both_by_origin": {
                o: {"items": n, "both": round(b / n, 3)}
                for o, (n, b) in sorted(row.get("by_origin", {}).items())
            },
        }
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out["systems"], indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(required=True)
    p = sub.add_parser("sample", help="a seeded sample of SQuAD-format questions")
    p.add_argument("input")
    p.add_argument("--n", type=int, default=600)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--exclude", help="a file of questions (one a line) the sample leaves out")
    p.add_argument("--exclude-read", metavar="FOLDER",
                   help="leave out the original questions of every reading keyed in FOLDER (*_key.json), "
                        "e.g. benchmarks/results: those the learnt filters were fitted on")  # fmt: skip
    p.add_argument("--out", required=True)
    p.set_defaults(func=sample)
    p = sub.add_parser("sheet", help="a blind sheet and its key from test-set runs")
    p.add_argument("--run", action="append", required=True, help="NAME=RUN_FOLDER (repeatable)")
    p.add_argument("--per-system", type=int, default=40)
    p.add_argument("--size", action="append", help="NAME=K: K items of that run instead of --per-system")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sheet", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="the reader's instructions")
    p.add_argument("--attribution", help="where the questions come from (default: SQuAD dev / LCQMC test)")
    p.add_argument("--lowercase", action="store_true",
                   help="lower-case the originals too (a run of lower-cased questions on the sheet, such as "
                        "Gan & Ng's paraphrased SQuAD dev set: the original's case would tell its source)")  # fmt: skip
    p.set_defaults(func=sheet)
    p = sub.add_parser("score", help="score a reader's judgements with the key")
    p.add_argument("--judgements", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=score)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
