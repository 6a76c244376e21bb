"""Training pairs for the pretrained paraphraser from its own rewrites that passed every filter (filtered
self-training): ``paraguide augment --preset paraphrase --no-reorder --no-in-place`` on SQuAD *train*
questions writes, for each question, the paraphraser's rewrite that passed the builders' whole chain (the
embedding similarity, the names, the question type, the content and scope words, the swap check of the
suggestion that guided it) and changes enough of the question; this script checks each again with what the
chain does not hold (``WellFormed``: a question that ends on an added preposition, two questions) and with
Gemma's own fluency (the rewrite may read at most ``--fluency-drop`` worse than the question, in mean
log-probability per token), and writes what is left as ``paraguide prepare``'s rows.

Why: the raw rewrites readers accept are far fewer than the filtered ones (issue 30's reading is *before any
filter*); a stage trained on the rewrites the filters keep moves the raw output toward them. The rows are
the model's own words, so nothing it could not write is taught, only what of it to prefer.

A guided row's suggestion is the phrase as it stands in the rewrite (the builders give it in place).

    paraguide augment --squad ../shared/data/squad_v1.1/train-v1.1.reconstructed.json.gz --preset paraphrase \\
        --model runs/r2b-adapter --guide-check gemma-en --no-reorder --no-in-place --n 1200 --seed 5 \\
        --out runs/self/aug1
    python data_prep/self_corpus.py runs/self/aug1 \\
        --squad ../shared/data/squad_v1.1/train-v1.1.reconstructed.json.gz --out runs/gemma_corpus/self1/train.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from paraguide.data.squad import SquadReader
from paraguide.score.filters import FRAME_WORDS, Candidate, _content_change, keeps_meaning
from paraguide.text.edits import edit_rate
from paraguide.text.substitute import forms
from paraguide.text.tokenize import tokenize


def selected(folder: Path) -> list[dict]:
    """The selected paraphraser rewrites of an augment run's shards (finished or not), in shard order."""
    rows = []
    for shard in sorted((folder / "work").glob("shard-*.jsonl")):
        for line in shard.read_text(encoding="utf-8").splitlines():
            result = json.loads(line).get("result", {})
            if result.get("status") == "selected" and result.get("origin") == "paraphraser":
                rows.append(result)
    return rows


def in_target(suggestion: str, target: str) -> str | None:
    """The form of ``suggestion`` that stands in ``target`` (its own, else an inflection), or None."""
    words = " ".join(tokenize(target, "en")).lower()
    for form in dict.fromkeys((suggestion, *forms(suggestion))):
        if f" {' '.join(tokenize(form, 'en')).lower()} " in f" {words} ":
            return form
    return None


def added(source: str, target: str, suggestion: str, matched: str) -> list[str]:
    """The target's content words from nowhere (the suggestion's may come, frame words aside)."""
    _, _, new = _content_change(Candidate(source, target, suggestion, lang="en", matched=matched))
    return [w for w in new if w not in FRAME_WORDS]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    ap.add_argument("runs", nargs="+", type=Path, help="augment output folders (their work/shard-*.jsonl)")
    ap.add_argument("--squad", required=True, help="the SQuAD file the runs paraphrased (for the questions)")
    ap.add_argument("--out", required=True, type=Path, help="the JSONL corpus to write")
    ap.add_argument("--lm", default="paraguide/models/lm-gemma-en", help="Gemma fluency LM folder")
    ap.add_argument("--fluency-drop", type=float, default=0.5,
                    help="most the rewrite may read worse than the question (mean log-prob per token)")  # fmt: skip
    ap.add_argument("--min-edit", type=float, default=0.14, help="least token edit rate kept")
    args = ap.parse_args(argv)

    questions = {r["id"]: r["question"].strip() for r in SquadReader(args.squad)}
    found = [r for run in args.runs for r in selected(run)]
    rows, why = [], Counter()
    for r in found:
        if r["key"] not in questions:
            raise SystemExit(f"{r['key']}: not a question of {args.squad}")
    sources = [questions[r["key"]] for r in found]
    targets = [r["paraphrase"] for r in found]
    keep = keeps_meaning(
        sources, targets, [r["suggestion"] for r in found], [r["matched"] for r in found], "en"
    )

    from paraguide.score.fluency import FluencyScorer

    drops = FluencyScorer(args.lm, lang="en", measure="logprob").score(
        list(zip(sources, targets, strict=True))
    )
    for r, q, t, ok, d in zip(found, sources, targets, keep, drops, strict=True):
        if not ok:
            why["meaning checks"] += 1
            continue
        if added(q, t, r["suggestion"], r["matched"]):
            why["added a content word"] += 1
            continue
        if d < -args.fluency_drop:
            why["fluency"] += 1
            continue
        if edit_rate(q, t, "en") < args.min_edit:
            why["edit rate"] += 1
            continue
        suggestion = ""
        if r["suggestion"]:
            suggestion = in_target(r["suggestion"], t)
            if suggestion is None:
                why["suggestion not in the rewrite"] += 1
                continue
        kind = "guided" if suggestion else "free"
        rows.append({"source": q, "target": t, "suggestion": suggestion, "matched": r["matched"] if suggestion else "",
                     "method": f"self:{kind}", "lang": "en", "origin": "squad-train"})  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    kinds = Counter(row["method"] for row in rows)
    print(f"{len(found)} selected rewrites, {len(rows)} rows written to {args.out} ({dict(kinds)}); "
          f"dropped: {dict(why)}", file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
