#!/usr/bin/env python
"""LCQMC's unsupervised table (Liu et al. 2018, Table 3 lines 2-5) reproduced with paraguide's lexical
measures: for each measure the threshold with the best accuracy on LCQMC dev, then precision, recall, F1
and accuracy on LCQMC test; also the paper's own thresholds (0.65, 0.2, 0.2, 0.7) on test, and ROC-AUC.

    python benchmarks/lcqmc_unsupervised.py [--data ../shared/data/lcqmc]

jieba words, as in the paper; the tf.idf of `cosine` is fitted on the LCQMC train sentences. Writes
benchmarks/results/lcqmc_unsupervised.json.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from paraguide.data.pairs import read_pairs
from paraguide.score.lexical import MEASURES, LexicalScorer
from paraguide.score.metrics import accuracy_at, best_threshold_accuracy, roc_auc

PAPER = {  # Table 3: P, R, F1, Acc; and the thresholds of §4.2.1
    "word_overlap": {"precision": 61.1, "recall": 83.6, "f1": 70.6, "accuracy": 70.7, "threshold": 0.65},
    "ngram_overlap": {"precision": 52.3, "recall": 89.3, "f1": 66.0, "accuracy": 61.2, "threshold": 0.2},
    "edit_similarity": {"precision": 46.5, "recall": 86.4, "f1": 60.5, "accuracy": 52.3, "threshold": 0.2},
    "cosine": {"precision": 60.1, "recall": 88.7, "f1": 71.6, "accuracy": 70.3, "threshold": 0.7},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data" / "lcqmc"))
    args = ap.parse_args()
    data = Path(args.data)
    dev = list(read_pairs(data / "dev.tsv", "tsv"))
    test = list(read_pairs(data / "test.tsv", "tsv"))
    result = {}
    for measure in MEASURES:
        scorer = LexicalScorer(measure, lang="zh")
        if measure == "cosine":
            scorer.fit(t for p in read_pairs(data / "train.tsv.gz", "tsv") for t in (p.a, p.b))
        dev_scores = scorer.score([(p.a, p.b) for p in dev])
        test_scores = scorer.score([(p.a, p.b) for p in test])
        dev_labels, test_labels = [p.label for p in dev], [p.label for p in test]
        _, threshold = best_threshold_accuracy(dev_scores, dev_labels)
        ours = accuracy_at(test_scores, test_labels, threshold)
        paper_threshold = accuracy_at(test_scores, test_labels, PAPER[measure]["threshold"])
        result[measure] = {
            "dev_threshold": round(threshold, 4),
            "test": {k: round(100 * v, 1) for k, v in ours.items()},
            "test_at_paper_threshold": {k: round(100 * v, 1) for k, v in paper_threshold.items()},
            "test_roc_auc": round(roc_auc(test_scores, test_labels), 4),
            "paper": PAPER[measure],
        }
        print(measure, json.dumps(result[measure]), flush=True)
    record = {
        "data": f"LCQMC dev ({len(dev)} pairs) for thresholds, test ({len(test)} pairs)",
        "command": "python benchmarks/lcqmc_unsupervised.py",
        "words": "jieba (paraguide.text.tokenize, lang zh), lower-cased; cosine idf fitted on LCQMC train",
        **result,
    }
    out = Path(__file__).parent / "results" / "lcqmc_unsupervised.json"
    out.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
