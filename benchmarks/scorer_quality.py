#!/usr/bin/env python
"""How well each scorer separates paraphrases from non-paraphrases: ROC-AUC and the accuracy at the best
threshold (with that threshold) on MRPC test, LCQMC test, BQ test and the held-out Quora split (its
paraphrase pairs against mismatched pairs: each question with another pair's paraphrase, seeded).

    python benchmarks/scorer_quality.py [--shared ../shared/data] [--quora-heldout runs/quora/train.heldout.jsonl]

English sets use the English scorers (sim-en, MiniLM, lexical with NLTK words), Chinese sets the Chinese
ones (sim-zh, MiniLM — an English model, shown for reference — lexical with jieba words; the tf.idf of
`cosine` is fitted on the pairs scored). Writes benchmarks/results/scorer_quality.json.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from paraguide.data.pairs import read_pairs
from paraguide.score import SCORER_SPECS, load_scorer
from paraguide.score.metrics import best_threshold_accuracy, roc_auc
from paraguide.text.normalize import pair_key

ROOT = Path(__file__).resolve().parents[1]


def quora_heldout(path: Path, seed: int = 13) -> list[tuple[str, str, int]]:
    seen, pos = set(), []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        key = pair_key(r["source"], r["target"])
        if key not in seen:
            seen.add(key)
            pos.append((r["source"], r["target"]))
    others = [b for _, b in pos]
    random.Random(seed).shuffle(others)
    neg = [(a, b) for (a, _), b in zip(pos, others, strict=True) if pair_key(a, b) not in seen]
    return [(a, b, 1) for a, b in pos] + [(a, b, 0) for a, b in neg]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--quora-heldout", default=str(ROOT / "runs" / "quora" / "train.heldout.jsonl"))
    args = ap.parse_args()
    shared = Path(args.shared)
    sets = {
        "MRPC test": ("en", [(p.a, p.b, p.label) for p in read_pairs(shared / "mrpc" / "msr_paraphrase_test.txt", "mrpc")]),
        "Quora held-out": ("en", quora_heldout(Path(args.quora_heldout))),
        "LCQMC test": ("zh", [(p.a, p.b, p.label) for p in read_pairs(shared / "lcqmc" / "test.tsv", "tsv")]),
        "BQ test": ("zh", [(p.a, p.b, p.label) for p in read_pairs(shared / "bq_corpus" / "test.tsv", "tsv")]),
    }  # fmt: skip
    result: dict = {}
    for name, (lang, rows) in sets.items():
        result[name] = {"pairs": len(rows), "positives": sum(r[2] for r in rows)}
        for spec in SCORER_SPECS:
            scorer = load_scorer(spec, lang=lang)
            started = time.perf_counter()
            scores = scorer.score([(a, b) for a, b, _ in rows])
            seconds = time.perf_counter() - started
            labels = [y for _, _, y in rows]
            accuracy, threshold = best_threshold_accuracy(scores, labels)
            result[name][spec] = {
                "roc_auc": round(roc_auc(scores, labels), 4),
                "best_accuracy": round(accuracy, 4),
                "threshold": round(threshold, 4),
                "seconds": round(seconds, 2),
            }
            print(name, spec, result[name][spec], flush=True)
    record = {"command": "python benchmarks/scorer_quality.py", "scorers": SCORER_SPECS, "sets": result}
    (ROOT / "benchmarks" / "results" / "scorer_quality.json").write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
