"""Preference pairs for the English paraphraser from the blind readings of its raw rewrites.

    python data_prep/preference_corpus.py --out runs/pref/train.jsonl [--min-edit 0.14] [--heldout 0.1] \
        [--through 2026-12-07g | --tag TAG ...]

Every English rewrite judged in ``benchmarks/results/causal_reading_<tag>_*`` (blind readers: fluent,
same question and answer) is grouped by its prompt (question, suggestion, replaced phrase). Within a
prompt, each rewrite judged good that changes at least ``--min-edit`` of the question's tokens (the issue's
measure: a rewrite, not a copy) is paired with each judged not good: ``{"source", "suggestion", "matched",
"chosen", "rejected", "tag"}``, the rows ``paraguide train-causal --objective dpo`` reads. The pairs of a
seeded ``--heldout`` share of the questions go to ``<out stem>.heldout.jsonl``, so that held-out
preference accuracy is measured on questions the stage never saw. The questions themselves are written to
``<out stem>.questions.txt``: a later reading must not judge rewrites of them
(``benchmarks/causal_reading.py --exclude``). ``--through TAG`` takes the readings up to that one, so that a
stage trained on them is made again from the same pairs after later readings land.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))
from rewrite_ranking import judged  # noqa: E402

RESULTS = HERE.parent / "benchmarks" / "results"


def reading_tags(through: str | None = None) -> list[str]:
    """Every causal reading with judgements, oldest first; with ``through``, those up to that tag."""
    tags = sorted(p.name[len("causal_reading_") : -len("_judgements.tsv")]
                  for p in RESULTS.glob("causal_reading_*_judgements.tsv"))  # fmt: skip
    if through is None:
        return tags
    if through not in tags:
        raise SystemExit(f"--through {through}: no {RESULTS}/causal_reading_{through}_judgements.tsv")
    return tags[: tags.index(through) + 1]


def pairs(items: list[dict], min_edit: float) -> list[dict]:
    """(chosen, rejected) per prompt: good and deep enough against judged not good, each text once."""
    from paraguide.text.edits import edit_rate

    groups: dict[tuple, list[dict]] = collections.defaultdict(list)
    for i in items:
        groups[(i["q"], i["s"], i["m"])].append(i)
    out = []
    for (q, s, m), group in groups.items():
        good = {i["p"] for i in group if i["good"]}
        chosen = sorted(p for p in good if edit_rate(q, p, "en") >= min_edit)
        rejected = sorted({i["p"] for i in group if not i["good"]} - good)  # judged both ways: neither side
        tag = group[0]["tag"]
        out += [{"source": q, "suggestion": s, "matched": m, "chosen": c, "rejected": r, "tag": tag}
                for c in chosen for r in rejected]  # fmt: skip
    return out


def held_out(question: str, share: float) -> bool:
    """A question's side of the split: a pure function of its text."""
    h = int(hashlib.sha256(question.encode("utf-8")).hexdigest()[:8], 16)
    return h / 0xFFFFFFFF < share


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="train JSONL; .heldout.jsonl and .questions.txt beside it")
    ap.add_argument("--min-edit", type=float, default=0.14, help="token edit rate a chosen rewrite reaches")
    ap.add_argument("--heldout", type=float, default=0.1, help="share of the questions held out")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--tag", action="append", help="readings to use (default: every one)")
    which.add_argument("--through", help="the readings up to and including this tag, oldest first")
    args = ap.parse_args(argv)

    tags = args.tag or reading_tags(args.through)
    items = judged(tags)
    rows = pairs(items, args.min_edit)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    stem = out.with_suffix("")
    train = [r for r in rows if not held_out(r["source"], args.heldout)]
    heldout = [r for r in rows if held_out(r["source"], args.heldout)]
    for path, part in ((out, train), (Path(f"{stem}.heldout.jsonl"), heldout)):
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in part), encoding="utf-8")
    questions = sorted({i["q"] for i in items})
    Path(f"{stem}.questions.txt").write_text("".join(q + "\n" for q in questions), encoding="utf-8")
    print(f"{len(items)} judged rewrites of {len(questions)} questions in {len(tags)} readings -> "
          f"{len(train)} pairs ({len({r['source'] for r in train})} questions) + {len(heldout)} held out")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
