"""Training pairs for the pretrained paraphraser from paraguide's own rephrasing rules (paraguide.text.reorder):
SQuAD *train* questions and the rewrites the English rules make of them ("Which NFL team won Super Bowl
50?" -> "What was the NFL team that won Super Bowl 50?", "Why did X ...?" -> "For what reason did X ...?").

Why: the adapter's deep rewrites lose what the question hangs on (a qualifier dropped, a role turned; blind
readings 2026-11-27b and 2026-11-28a), because its corpus (Quora duplicates, KQA Pro) pairs questions that
are not quite the same. The rules' rewrites keep every content word and what is asked (readers judged
83-100 % of them fluent and the same question, docs/build.md), so a stage trained on them shows the adapter
deep changes that keep the question. The indirect frame ("Can you tell me ...") is left out: a template.

A rewrite that brings in a content word ("reason", "winner", "location") becomes a suggestion-guided row
(that word as the suggestion) half the time, else a free row (empty suggestion); with ``--swaps S``, a
share S of those questions also gives a guided row as the English default would suggest (a wordnet&ppdb
synonym put in place, ranked by all-MiniLM-L6-v2) whose target is a rule's rewrite of the swapped
question; with ``--placed``, that synonym as it stands in the swapped question ("situated" for WordNet's
"situate"), as the builders give the paraphraser its suggestions since 2026-11-29 -- without it only the
synonyms whose base form stands there unchanged make rows. Each question gives one free-or-guided row, its rule drawn at random, and no rule more than ``--per-rule`` rows. The rows are ``paraguide prepare``'s (source, target, suggestion, matched,
method, lang, origin), so ``paraguide train-causal`` reads them.

    python data_prep/rule_corpus.py ../shared/data/squad_v1.1/train-v1.1.reconstructed.json.gz \\
        --n 87599 --out runs/gemma_corpus/rules/train.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from paraguide.data.squad import SquadReader
from paraguide.text.edits import function_words_only, token_edits
from paraguide.text.reorder import reorder
from paraguide.text.stopwords import is_word, load_stopwords
from paraguide.text.tokenize import tokenize


def added_content(source: str, target: str, stop: set[str]) -> list[str]:
    """The target's content words the source does not say, in order."""
    have = {t.lower() for t in tokenize(source, "en")}
    return [t for t in tokenize(target, "en") if is_word(t) and t.lower() not in stop | have]


def swapped(questions: list[str], top: int = 3, threshold: float = 0.96) -> list[list[tuple]]:
    """Each question with a synonym put in place, as the English default makes them (wordnet&ppdb
    suggestions, inflected in place, all-MiniLM-L6-v2's similarity to the question at least ``threshold``):
    ``[(suggestion, Placed), ...]`` per question (``Placed.text`` the swapped question, ``Placed.phrase``
    the synonym as it stands there), best first, at most ``top``."""
    from paraguide.score import load_scorer
    from paraguide.suggest import load_source
    from paraguide.text.substitute import place

    found = load_source("wordnet&ppdb", lang="en").suggest(questions, top_k=12)
    placed = []
    for q, suggestions in zip(questions, found, strict=True):
        spanned = [s for s in suggestions if s.span is not None and s.matched]
        where = place(q, [(s.span, s.text) for s in spanned], "en") if spanned else []
        placed.append([(s, p) for s, p in zip(spanned, where, strict=True) if p is not None])
    pairs = [(q, p.text) for q, mine in zip(questions, placed, strict=True) for _, p in mine]
    scores = dict(zip(pairs, load_scorer("embedding", lang="en").score(pairs), strict=True)) if pairs else {}
    out = []
    for q, mine in zip(questions, placed, strict=True):
        kept = [(sug, p) for sug, p in mine if scores[q, p.text] >= threshold]
        out.append(sorted(kept, key=lambda x: -scores[q, x[1].text])[:top])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("squad", help="SQuAD-format train file (.gz ok)")
    ap.add_argument("--n", type=int, default=20000, help="questions drawn (seeded) before the rules run")
    ap.add_argument(
        "--per-rule", type=int, default=300, help="rows per rule at most (wh_relative fits a third)"
    )
    ap.add_argument("--heldout", type=int, default=200, help="rows kept apart (.heldout.jsonl)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument(
        "--swaps",
        type=float,
        default=0.0,
        help="share of the questions rewritten by a rule that also give a guided row whose target is "
        "the rule's rewrite of the question with a synonym in place (the synonym the suggestion)",
    )
    ap.add_argument(
        "--placed",
        action="store_true",
        help="--swaps rows: the synonym as it stands in place (inflected) for the suggestion, not its base form",
    )
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    questions = sorted({r["question"].strip() for r in SquadReader(args.squad)})
    rng = random.Random(args.seed)
    rng.shuffle(questions)
    questions = questions[: args.n]
    stop = set(load_stopwords("en"))
    rows, rules = [], Counter()
    for q, found in zip(questions, reorder(questions, "en", skip=("indirect",)), strict=True):
        deep = [
            r for r in found if not function_words_only(q, r.text, "en") or token_edits(q, r.text, "en") >= 3
        ]
        if not deep:
            continue
        deep = [r for r in deep if rules[r.rule] < args.per_rule]
        if not deep:
            continue
        r = rng.choice(deep)
        new = added_content(q, r.text, stop)
        suggestion = new[0] if new and rng.random() < 0.5 else ""
        rules[r.rule] += 1
        rows.append({"source": q, "target": r.text, "suggestion": suggestion, "matched": "",
                     "method": f"rule:{r.rule}", "lang": "en", "origin": "squad-train"})  # fmt: skip
    if args.swaps:  # guided rows: a synonym in place, then the same rules (a swap inside a reordering)
        chosen = sorted({r["source"] for r in rows})
        rng.shuffle(chosen)
        chosen = chosen[: int(len(chosen) * args.swaps)]
        for q, options in zip(chosen, swapped(chosen), strict=True):
            for sug, placed in options:
                text, given = placed.text, placed.phrase if args.placed else sug.text
                deep = [r for r in reorder([text], "en", skip=("indirect",))[0]
                        if not function_words_only(text, r.text, "en") and given.lower() in r.text.lower()]  # fmt: skip
                if deep:
                    r = rng.choice(deep)
                    rules[f"swap+{r.rule}"] += 1
                    rows.append({"source": q, "target": r.text, "suggestion": given, "matched": sug.matched,
                                 "method": f"rule:{r.rule}+swap", "lang": "en", "origin": "squad-train"})  # fmt: skip
                    break
    rng.shuffle(rows)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    held, train = rows[: args.heldout], rows[args.heldout :]
    for path, part in ((out, train), (out.with_suffix(".heldout.jsonl"), held)):
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in part), encoding="utf-8")
    guided = sum(bool(r["suggestion"]) for r in rows)
    print(f"{len(rows)} rows from {len(questions)} questions ({guided} guided) -> {out}; by rule: "
          f"{dict(rules.most_common())}", file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
