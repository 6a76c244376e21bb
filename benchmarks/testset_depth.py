#!/usr/bin/env python
"""How much a test-set run changes its questions: the issue's depth figures for any ``build-testset`` folder.

Selected share; median token edit rate; shares of the selected that are question-word-only swaps, that change
function words only, and that change two or more tokens (token edits as ``edit_rate`` counts them); and the
selected by origin (in-place swap, each reordering rule).

    paraguide build-testset --squad ../shared/data/squad_v1.1/dev-v1.1.json.gz --out runs/final/squad-dev
    paraguide build-testset --squad ../shared/data/dureader_robust/dev.json --lang zh --out runs/final/dureader-dev
    python benchmarks/testset_depth.py runs/final/squad-dev runs/final/dureader-dev --out benchmarks/results/X.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path

from paraguide.data.io import read_jsonl
from paraguide.text.edits import edit_rate, function_words_only, question_word_only, token_edits


def depth(run: Path) -> dict:
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    lang = json.loads((run / "run.json").read_text(encoding="utf-8"))["config"]["lang"]
    rows = [p for _, p in read_jsonl(run / "provenance.jsonl")]
    if not rows:
        raise SystemExit(f"{run}/provenance.jsonl: no selected question")
    rates = [edit_rate(p["original"], p["paraphrase"], lang) for p in rows]
    two = sum(token_edits(p["original"], p["paraphrase"], lang) >= 2 for p in rows)
    n = len(rows)
    return {
        "run": str(run),
        "lang": lang,
        "questions": summary["input_questions"],
        "selected": summary["selected"],
        "selected_share": round(summary["selected"] / summary["input_questions"], 4),
        "median_token_edit_rate": round(statistics.median(rates), 4),
        "question_word_only": round(
            sum(question_word_only(p["original"], p["paraphrase"], lang) for p in rows) / n, 4
        ),
        "function_words_only": round(
            sum(function_words_only(p["original"], p["paraphrase"], lang) for p in rows) / n, 4
        ),
        "two_or_more_words_changed": round(two / n, 4),
        "selected_by_origin": dict(Counter(p.get("origin", "paraphraser") for p in rows).most_common()),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="+", type=Path, help="build-testset output folders")
    p.add_argument("--out", help="write the figures as JSON here too")
    args = p.parse_args()
    result = [depth(run) for run in args.runs]
    text = json.dumps(result, indent=1, ensure_ascii=False)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
