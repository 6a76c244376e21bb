#!/usr/bin/env python
"""Calibrate each scorer's default thresholds for the three uses, and write paraguide/score/thresholds.json.

Gan & Ng keep a paraphrase when their scorer gives at least 0.95 (test sets), 0.9 (augmentation) or 0.83
(adversarial augmentation): three strictness levels on that scorer's own scale. Here a level is a
precision target on human-labelled paraphrase judgements -- test set 0.90, augmentation 0.85, adversarial
0.80 -- and a scorer's threshold for it is the lowest score at which the pairs scoring at least that much
are paraphrases with that precision (so the most candidates are kept at that precision). English: MRPC
test; Chinese: LCQMC dev. When a scorer never reaches a target, its threshold is the one with the highest
precision among cuts that keep at least 5 % of the positives, and the file says so.

    python data_prep/calibrate_thresholds.py [--shared ../shared/data]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from paraguide.data.pairs import read_pairs
from paraguide.score import SCORER_SPECS, load_scorer

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"testset": 0.90, "augment": 0.85, "adversarial": 0.80}


def threshold_for(scores, labels, target: float) -> tuple[float, float, float, bool]:
    """(threshold, precision, recall, reached)."""
    s, y = np.asarray(scores), np.asarray(labels)
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    tp = np.cumsum(y)
    precision = tp / np.arange(1, len(y) + 1)
    recall = tp / y.sum()
    last = np.r_[s[:-1] != s[1:], True]  # cut only between distinct scores
    ok = np.where(last & (precision >= target))[0]
    if len(ok):
        k = ok[-1]
        return float(s[k]), float(precision[k]), float(recall[k]), True
    candidates = np.where(last & (recall >= 0.05))[0]
    k = candidates[np.argmax(precision[candidates])]
    return float(s[k]), float(precision[k]), float(recall[k]), False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    shared = Path(args.shared)
    data = {
        "en": ("MRPC test", list(read_pairs(shared / "mrpc" / "msr_paraphrase_test.txt", "mrpc"))),
        "zh": ("LCQMC dev", list(read_pairs(shared / "lcqmc" / "dev.tsv", "tsv"))),
    }
    out: dict = {"method": __doc__.split("    python")[0].strip(), "targets": TARGETS, "thresholds": {}}
    for lang, (name, pairs) in data.items():
        labels = [p.label for p in pairs]
        for spec in SCORER_SPECS:
            scores = load_scorer(spec, lang=lang).score([(p.a, p.b) for p in pairs])
            entry = {"calibrated_on": name}
            for use, target in TARGETS.items():
                t, precision, recall, reached = threshold_for(scores, labels, target)
                entry[use] = round(t, 4)
                entry[f"{use}_precision_recall"] = [round(precision, 3), round(recall, 3)]
                if not reached:
                    entry[f"{use}_note"] = f"precision {target} not reached; best precision kept"
            out["thresholds"].setdefault(spec, {})[lang] = entry
            print(lang, spec, {k: v for k, v in entry.items() if not k.endswith("recall")}, flush=True)
    path = ROOT / "paraguide" / "score" / "thresholds.json"
    # The fluency LMs' thresholds are calibrated by data_prep/train_fluency.py (real vs corrupted
    # paraphrases, not similarity judgements): kept as they are.
    if path.exists():
        old = json.loads(path.read_text(encoding="utf-8"))["thresholds"]
        out["thresholds"].update({k: v for k, v in old.items() if k == "fluency"})
    path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    print(f"written {path}")


if __name__ == "__main__":
    main()
