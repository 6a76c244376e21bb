#!/usr/bin/env python
"""Chunk F1 of the context-chunk grammar (paraguide.suggest.context.GRAMMAR) on the CoNLL-2000 test set.

    NLTK_DATA=../shared/data/nltk_data python benchmarks/chunk_conll2000.py

NP and VP chunks (the ones the adversarial source uses) are scored with NLTK's ChunkScore against the
gold chunks, twice: on the gold POS tags (the grammar alone) and on NLTK's perceptron tags (what the
pipeline really sees). Writes benchmarks/results/chunk_conll2000.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import nltk
from nltk.chunk import ChunkScore
from nltk.corpus import conll2000
from nltk.tag.perceptron import PerceptronTagger

from paraguide.suggest.context import GRAMMAR


def keep(tree: nltk.Tree, labels: set[str]) -> nltk.Tree:
    """The tree with chunks of other labels flattened into words."""
    out = []
    for node in tree:
        if isinstance(node, nltk.Tree) and node.label() not in labels:
            out.extend(node.leaves())
        else:
            out.append(node)
    return nltk.Tree("S", out)


def main() -> None:
    parser = nltk.RegexpParser(GRAMMAR)
    tagger = PerceptronTagger(lang="eng")
    gold_trees = conll2000.chunked_sents("test.txt", chunk_types=["NP", "VP"])
    result = {}
    for tags in ("gold", "nltk_perceptron"):
        scores = {label: ChunkScore() for label in ("NP", "VP", "NP+VP")}
        for gold in gold_trees:
            words = [w for w, _ in gold.leaves()]
            tagged = gold.leaves() if tags == "gold" else tagger.tag(words)
            guess = parser.parse(tagged)
            for label, labels in (("NP", {"NP"}), ("VP", {"VP"}), ("NP+VP", {"NP", "VP"})):
                scores[label].score(keep(gold, labels), keep(guess, labels))
        result[tags] = {
            label: {
                "precision": round(s.precision(), 4),
                "recall": round(s.recall(), 4),
                "f1": round(s.f_measure(), 4),
            }
            for label, s in scores.items()
        }
    record = {
        "data": "CoNLL-2000 test set (nltk_data conll2000, 2,012 sentences)",
        "command": "NLTK_DATA=../shared/data/nltk_data python benchmarks/chunk_conll2000.py",
        "grammar": GRAMMAR.strip(),
        **result,
    }
    out = Path(__file__).parent / "results" / "chunk_conll2000.json"
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
