#!/usr/bin/env python
"""Blind reading of QA traps (issue 18): does a trap sentence leave the answer alone, and does it read well?

1. ``sheet``: from one or more ``paraguide perturb --trap`` folders, ``--per-run`` random traps each, mixed
   with ``--controls`` items per run in which the marked sentence is the passage's own answer sentence (the
   original passage, no trap). Every item shows a question and its passage with one sentence marked; the
   reader does not know which items hold a trap. The reader writes the answer the passage gives, whether the
   marked sentence on its own answers the question as asked, and whether it reads as fluent, plausible text.
   The key (item -> trap or control, gold answers, distractor, pattern, folder) stays here.
2. ``score``: the reader's judgements (TSV: item, answer, marked_answers y/n, fluent y/n, note) and the key ->
   per language: the reader's answer is still the gold one (F1 >= 0.5, SQuAD normalisation; characters for
   Chinese) and no nearer the distractor, the marked trap does not answer the question, it is fluent, all three;
   the controls show the reader finds answers and recognises an answering sentence.

    python benchmarks/trap_reading.py sheet --run runs/perturb/squad-trap --run runs/perturb/dr-trap \\
        --per-run 20 --controls 5 --seed 1 --sheet benchmarks/results/trap_reading_X_sheet.md \\
        --key benchmarks/results/trap_reading_X_key.json
    python benchmarks/trap_reading.py score --judgements benchmarks/results/trap_reading_X_judgements.tsv \\
        --key benchmarks/results/trap_reading_X_key.json --out benchmarks/results/trap_reading_X.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import defaultdict
from pathlib import Path

from reading import read_judgements, write_sheet  # benchmarks/reading.py, beside this script

from paraguide.data.io import read_jsonl
from paraguide.data.squad import SquadReader
from paraguide.evaluate.metrics import f1

ATTRIBUTION = {
    "en": "English passages and questions from SQuAD v1.1 dev (Rajpurkar et al. 2016, CC BY-SA 4.0)",
    "zh": "Chinese passages and questions from DuReader-robust dev (Tang et al. 2021, Apache-2.0)",
}
INSTRUCTIONS = """\
Each item shows a question and a passage in which one sentence is marked ⟦like this⟧. Read the whole
passage as a careful reader would, then answer three things:

- answer: the answer to the question that the passage gives, as a short span copied from the passage
  (write `-` if the passage does not answer it).
- marked_answers: does the marked sentence, on its own, answer the question exactly as asked (y), or is it
  about something else, e.g. another year, another team, another product (n)?
- fluent: is the marked sentence fluent, plausible text that could stand in such a passage (y/n)? Judge
  the language and whether it reads as a possible statement; you cannot check facts, so a claim that is
  merely unverifiable is fine, but one that is self-contradictory or absurd in context is not.

Write one line per item to a TSV file with the header `item<TAB>answer<TAB>marked_answers<TAB>fluent<TAB>note`
(marked_answers and fluent: y or n; note: a few words on anything doubtful or any n, else empty).
"""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|(?<=[。！？!?])")


def _paragraphs(path: Path) -> dict[str, tuple[str, dict]]:
    """Question id -> (context, qa) of a SQuAD-format file."""
    return {r["id"]: (r["context"], r) for r in SquadReader(path)}


def _mark(context: str, start: int, end: int) -> str:
    return context[:start] + "⟦" + context[start:end] + "⟧" + context[end:]


def _sentence_around(context: str, offset: int) -> tuple[int, int]:
    """The span of the sentence of ``context`` that holds ``offset``."""
    start = 0
    for m in _SENTENCE_END.finditer(context):
        if m.end() > offset:
            return start, m.start()
        start = m.end()
    return start, len(context)


def _lang(text: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def sheet(args) -> None:
    rng = random.Random(args.seed)
    items = []
    for run in args.run:
        folder = Path(run)
        traps = [obj for _, obj in read_jsonl(str(folder / "traps.jsonl"))]
        trapped, original = _paragraphs(folder / "trap.json"), _paragraphs(folder / "original.json")
        drawn = rng.sample(traps, min(args.per_run, len(traps)))
        for trap in drawn:
            context, qa = trapped[trap["id"]]
            start = context.index(trap["trap"], trap["offset"])
            items.append((run, "trap", qa, _mark(context, start, start + len(trap["trap"])), trap))
        # controls: other kept questions, in their original passage (original.json holds only kept ones)
        pool = sorted(set(original) - {trap["original_id"] for trap in drawn})
        for qid in rng.sample(pool, min(args.controls, len(pool))):
            context, qa = original[qid]
            start, end = _sentence_around(context, qa["answers"][0]["answer_start"])
            items.append((run, "control", qa, _mark(context, start, end), None))
    rng.shuffle(items)
    lines, key, langs = ["# Reading sheet", "", INSTRUCTIONS], {}, set()
    for n, (run, kind, qa, passage, trap) in enumerate(items, 1):
        lang = _lang(qa["question"])
        langs.add(lang)
        lines += [f"## {n}", "", f"Question: {qa['question']}", "", f"Passage: {passage}", ""]
        key[str(n)] = {"kind": kind, "lang": lang, "run": run, "id": qa["id"],
                       "answers": sorted({a["text"] for a in qa["answers"]})}  # fmt: skip
        if trap:
            key[str(n)] |= {k: trap[k] for k in ("trap", "distractor", "type", "pattern", "source")}
    lines += ["---", "", "Sources: " + "; ".join(ATTRIBUTION[lang] for lang in sorted(langs)) + ". Some "
              "sentences were machine-made by paraguide perturb --trap.", ""]  # fmt: skip
    write_sheet(args.sheet, args.key, lines, key)


def _yes(value: str, item: str, field: str) -> bool:
    value = value.strip().lower()
    if value not in ("y", "n"):
        raise SystemExit(f"judgements: item {item}: {field} must be y or n, got {value!r}")
    return value == "y"


def _pct(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def score(args) -> None:
    key = json.loads(Path(args.key).read_text(encoding="utf-8"))
    columns = ["answer", "marked_answers", "fluent"]
    rows = read_judgements(args.judgements, key, columns, {"marked_answers", "fluent"})
    judged = {
        item: (row["answer"], row["marked_answers"], row["fluent"], row["note"]) for item, row in rows.items()
    }
    table: dict[str, dict] = defaultdict(lambda: defaultdict(int))
    rejected = []
    for item, (answer, marked, fluent, note) in sorted(judged.items(), key=lambda kv: int(kv[0])):
        k = key[item]
        overlap = f1(answer, k["answers"], k["lang"]) if answer != "-" else 0.0
        gold = overlap >= 0.5
        t = table[f"{k['lang']}/{k['kind']}"]
        t["n"] += 1
        t["answer_kept"] += gold
        t["marked_answers"] += marked
        t["fluent"] += fluent
        if k["kind"] == "trap":
            # nearer the distractor than the gold answer (characters: "4000001999" shares most with
            # "4008899315", so an overlap alone says nothing)
            fooled = answer != "-" and f1(answer, [k["distractor"]], k["lang"]) > overlap
            t["answer_is_distractor"] += fooled
            good = gold and not fooled and not marked and fluent
            t["good"] += good
            if not good:
                rejected.append({"item": item, "reader_answer": answer, "marked_answers": marked, "fluent": fluent,
                                 "note": note, **k})  # fmt: skip
    result: dict = {"items": len(judged), "by": {}}
    for name, t in sorted(table.items()):
        row = dict(t)
        for field in ("answer_kept", "marked_answers", "fluent", "answer_is_distractor", "good"):
            if field in t or name.endswith("/trap"):
                row[f"{field}_%"] = _pct(t[field], t["n"])
        result["by"][name] = row
    result["rejected_traps"] = rejected
    Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for name, row in result["by"].items():
        print(f"{name:<12} n={row['n']:<3} answer kept {row['answer_kept_%']:5.1f} %  marked answers "
              f"{row['marked_answers_%']:5.1f} %  fluent {row['fluent_%']:5.1f} %"
              + (f"  good {row['good_%']:5.1f} %" if "good_%" in row else ""))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("sheet", help="a blind sheet of random traps and controls, and its key")
    p.add_argument(
        "--run", action="append", required=True, help="a paraguide perturb --trap folder (repeatable)"
    )
    p.add_argument("--per-run", type=int, default=20, help="traps drawn from each folder")
    p.add_argument(
        "--controls", type=int, default=5, help="control items (answer sentence marked) per folder"
    )
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
