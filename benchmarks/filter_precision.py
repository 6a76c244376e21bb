#!/usr/bin/env python
"""Each filter's precision against "a reader accepts it" (issue 14, point 5).

The labelled set is every item of the blind readings in benchmarks/results (``reading_*_key.json`` with its
``reading_*_judgements.tsv``): a machine paraphrase the project's own filters accepted, judged fluent and
same question (yes/no) by a reader who saw only the sheet. An item judged in two readings counts once (its
first judgement). For each filter alone, and for whole chains, over the items with a known matched phrase:
how many it keeps, the share of those a reader accepted (precision) and the share of the accepted items it
keeps (recall). The answer-leak filter is left out (the sheet has no answers).

Since every item already passed the chain of the system that wrote it, this measures what each filter
adds on top of that chain -- the question a default must answer.

    python benchmarks/filter_precision.py --out benchmarks/results/filter_precision.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from paraguide.score import FluencyScorer, bundled_fluency_path, default_threshold, load_scorer
from paraguide.score import filters as F
from paraguide.score.filters import Candidate
from paraguide.suggest import WordNet, default_ppdb_path
from paraguide.suggest.ppdb import read_rules
from paraguide.text.substitute import lemmas

RESULTS = Path(__file__).parent / "results"


def labelled(results: Path) -> list[dict]:
    items, seen = [], set()
    for key_file in sorted(results.glob("reading_*_key.json")):
        judgements = key_file.with_name(key_file.name.replace("_key.json", "_judgements.tsv"))
        if not judgements.exists():
            continue
        judged = {}
        for line in judgements.read_text(encoding="utf-8").splitlines():
            cells = line.split("\t")
            if len(cells) >= 3 and cells[0].strip().isdigit():
                judged[cells[0].strip()] = all(c.strip().lower().startswith("y") for c in cells[1:3])
        key = json.loads(key_file.read_text(encoding="utf-8"))
        if key.get("lang", "en") != "en":
            continue  # the filters measured here are the English chain's
        for n, item in key["items"].items():
            s = item["systems"][0]
            pair = (item["original"].strip(), item["paraphrase"].strip().lower())
            if pair in seen or "matched" not in s:
                continue
            seen.add(pair)
            items.append({**item, **{k: s[k] for k in ("suggestion", "matched")}, "good": judged[n],
                          "reading": key_file.name})  # fmt: skip
    return items


class PPDBAgrees:
    """Not a filter of the chain but the default source's check, applied to the labelled items: PPDB's
    synonym pairs hold the (matched word, suggestion) pair, compared by lemma (suggest.Agreement)."""

    def __init__(self):
        self.pairs = {(a, b) for a, b, _, _ in read_rules(default_ppdb_path("en"))}

    def __call__(self, candidates: list[Candidate]) -> None:
        for c in candidates:
            if c.dropped is None and not any(
                (a, b) in self.pairs for a in lemmas(c.matched) for b in lemmas(c.suggestion)
            ):
                c.drop("ppdb_agreement", "PPDB does not hold the pair")


def evaluate(items: list[dict], filters: list) -> dict:
    candidates = [
        Candidate(i["original"], i["paraphrase"], i["suggestion"], matched=i["matched"]) for i in items
    ]
    for f in filters:
        f(candidates)
    kept = [i for i, c in zip(items, candidates, strict=True) if c.dropped is None]
    good = sum(i["good"] for i in items)
    kept_good = sum(i["good"] for i in kept)
    return {
        "kept": len(kept),
        "precision": round(kept_good / len(kept), 3) if kept else None,
        "recall": round(kept_good / good, 3) if good else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=str(RESULTS))
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    items = labelled(Path(args.results))
    wordnet = WordNet()
    sim = load_scorer("sim", lang="en")
    embedding = load_scorer("embedding", lang="en")
    fluency = FluencyScorer(bundled_fluency_path("en"), lang="en")
    cheap = F.cheap_filters()
    single = {
        "differs_from_source": [F.DiffersFromSource()],
        "contains_suggestion": [F.ContainsSuggestion()],
        "length_ratio": [F.LengthRatio()],
        "still_a_question": [F.StillAQuestion()],
        "keeps_names": [F.KeepsNames()],
        "known_words": [F.KnownWords(wordnet.knows)],
        "substitution": [F.Substitutes()],
        f"similarity sim >= {default_threshold('sim')}": [F.SimilarityFilter(sim, default_threshold("sim"))],
        f"similarity embedding >= {default_threshold('embedding')}": [
            F.SimilarityFilter(embedding, default_threshold("embedding"))
        ],
        f"fluency >= {default_threshold('fluency')}": [
            F.FluencyFilter(fluency, default_threshold("fluency"))
        ],
        "ppdb_agreement (the default source's check)": [PPDBAgrees()],
    }
    chains = {
        "old default: cheap + known_words + sim": [
            *cheap, F.KnownWords(wordnet.knows), F.SimilarityFilter(sim, default_threshold("sim"))
        ],
        "cheap + substitution + embedding": [
            *cheap, F.Substitutes(), F.SimilarityFilter(embedding, default_threshold("embedding"))
        ],
        "cheap + substitution + fluency + embedding": [
            *cheap, F.Substitutes(), F.FluencyFilter(fluency, default_threshold("fluency")),
            F.SimilarityFilter(embedding, default_threshold("embedding")),
        ],
        "ppdb_agreement + cheap + substitution + embedding (the default now)": [
            PPDBAgrees(), *cheap, F.Substitutes(), F.SimilarityFilter(embedding, default_threshold("embedding"))
        ],
    }  # fmt: skip
    out = {
        "method": __doc__.split("    python")[0].strip(),
        "items": len(items),
        "accepted_by_reader": sum(i["good"] for i in items),
        "readings": sorted({i["reading"] for i in items}),
        "none": evaluate(items, []),
        "filters": {name: evaluate(items, f) for name, f in single.items()},
        "chains": {name: evaluate(items, f) for name, f in chains.items()},
    }
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
