#!/usr/bin/env python
"""Calibrate the swap fluency check (``--swap-fluency``: how much less likely the pretrained LM finds the
question with a synonym put in place than the question itself, in whole log-probability) on the project's
blind readings, and write its thresholds into paraguide/score/thresholds.json.

The swap check (``--swap-check``, data_prep/calibrate_swap_check.py) keeps the synonym swaps the paraphraser
would write; what readers still reject among those is mostly a word that does not fit its phrase -- "refuse
to" -> "reject to", "condition" -> "stipulation", "merchandise" -> "product", "double membrane" -> "dual
membrane". The LM sees that as a drop in the sentence's log-probability. Calibration set: the swaps the swap
check was calibrated on (``benchmarks/results/swap_check_calibration_<lang>.json``, with their scores).
Threshold per use: among the swaps that pass the swap check at that use's threshold, the highest cut at
which the swaps scoring below it are judged good less than half the time (what a test set takes instead --
a reordering, the indirect question -- reads 90 % good and more, docs/build.md). Held out: every swap judged
in a reading since, scored with both checks, reported kept against dropped.

The adversarial use is calibrated on its own readings (:data:`ADVERSARIAL_READINGS`): an adversarial set has
nothing to take instead of a swap, and a synonym said near a distractor is more often another sense of the
word (readers judged about 45 % of them good at the augmentation's cut). Its cut is the lowest at which the
swaps kept are judged good at least two times in three (:func:`cut_for_precision`): the issue's bar is one in
two, and strict readers differ by 15 points on the same set. Held out: the last of those readings, with the
cut fitted on the others.

    python data_prep/calibrate_swap_fluency.py --lang en --out benchmarks/results/swap_fluency_calibration_en.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calibrate_swap_check import ROOT, judged_swaps, write  # noqa: E402  (data_prep/, beside this script)

LM = "lm-gemma-{lang}"
# The blind readings of adversarial sets (--adversarial: synonyms said near a distractor), oldest first.
# Reading 2026-12-07a read the set the cut fitted on these makes: it checks the cut, it is not one of them.
ADVERSARIAL_READINGS = {"en": ("reading_2026-11-27zo_adv", "reading_2026-12-06v", "reading_2026-12-06u")}
ADVERSARIAL_PRECISION = 2 / 3


def cut_for(totals: list[float], good: list[bool], below_at_most: float = 0.5) -> float:
    """The highest cut whose swaps below it are good less than ``below_at_most`` of the time (-inf when no
    cut qualifies; the report's summary says how many fall below it and how good they are)."""
    ranked = sorted(zip(totals, good, strict=True))
    best = float("-inf")
    n_good = 0
    for i, (t, g) in enumerate(ranked):
        # the cut just above ranked[i]: ranked[: i + 1] fall below it
        n_good += g
        below = i + 1
        nxt = ranked[i + 1][0] if i + 1 < len(ranked) else t + 1.0
        if nxt > t and n_good / below < below_at_most:
            best = (t + nxt) / 2
    return best


def cut_for_precision(totals: list[float], good: list[bool], at_least: float) -> float:
    """The lowest cut at which the swaps at or above it are good at least ``at_least`` of the time (+inf when
    none is)."""
    ranked = sorted(zip(totals, good, strict=True))
    n_good, n = sum(good), len(ranked)
    for i, (t, g) in enumerate(ranked):
        if (i == 0 or ranked[i - 1][0] < t) and n_good / (n - i) >= at_least:
            return (ranked[i - 1][0] + t) / 2 if i else t
        n_good -= g
    return float("inf")


def summary(items: list[dict], check: float, cut: float) -> dict:
    kept = [x for x in items if x["score"] >= check]
    stay = [x["good"] for x in kept if x["total"] >= cut]
    drop = [x["good"] for x in kept if x["total"] < cut]
    share = lambda xs: round(sum(xs) / len(xs), 3) if xs else None  # noqa: E731
    return {"swap_check_kept": len(kept), "swap_check_precision": share([x["good"] for x in kept]),
            "kept": len(stay), "precision_kept": share(stay), "dropped": len(drop),
            "precision_dropped": share(drop)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="en", choices=("en", "zh"))
    ap.add_argument("--out", type=Path, help="the report (JSON), with every scored swap")
    ap.add_argument("--no-write", action="store_true", help="report only; leave thresholds.json as it is")
    args = ap.parse_args()

    from paraguide.score import ParaphraserLikelihood, default_threshold, roc_auc
    from paraguide.score.fluency import BUNDLED, FluencyScorer

    calibration = json.loads(
        (ROOT / "benchmarks" / "results" / f"swap_check_calibration_{args.lang}.json").read_text(
            encoding="utf-8"
        )
    )
    items = calibration["items"]
    seen = {(x["original"], x["paraphrase"]) for x in items}
    heldout = [x for x in judged_swaps(args.lang) if (x["original"], x["paraphrase"]) not in seen]
    if heldout:  # the swap check's score, as the calibration's was computed (float32, the bundled adapter)
        likelihood = ParaphraserLikelihood(calibration["adapter"], lang=args.lang, dtype="float32")
        for x, s in zip(
            heldout, likelihood.score([(x["original"], x["paraphrase"]) for x in heldout]), strict=True
        ):
            x["score"] = round(s, 4)
    lm = FluencyScorer(BUNDLED / LM.format(lang=args.lang), lang=args.lang, measure="total")
    every = items + heldout
    for x, t in zip(every, lm.score([(x["original"], x["paraphrase"]) for x in every]), strict=True):
        x["total"] = round(t, 4)

    thresholds = {"calibrated_on": f"{len(items)} blind-judged in-place synonym swaps (the swap check's)",
                  "measure": "total"}  # fmt: skip
    report = {"lm": LM.format(lang=args.lang), "lang": args.lang, "swaps": len(items),
              "heldout_swaps": len(heldout),
              "roc_auc": round(roc_auc([x["total"] for x in items], [x["good"] for x in items]), 3),
              "heldout_roc_auc": round(roc_auc([x["total"] for x in heldout], [x["good"] for x in heldout]), 3)
              if heldout else None, "uses": {}}  # fmt: skip
    for use in ("testset", "augment", "adversarial"):
        check = default_threshold("paraphraser", use, args.lang)
        kept = [x for x in items if x["score"] >= check]
        cut = cut_for([x["total"] for x in kept], [x["good"] for x in kept])
        thresholds[use] = round(cut, 2)
        report["uses"][use] = {"swap_threshold": check, "threshold": round(cut, 2),
                               "calibration": summary(items, check, cut),
                               "heldout": summary(heldout, check, cut) if heldout else None}  # fmt: skip
    adversarial = [x for x in every if x["reading"] in ADVERSARIAL_READINGS.get(args.lang, ())]
    if adversarial:
        last = ADVERSARIAL_READINGS[args.lang][-1]
        fit = [x for x in adversarial if x["reading"] != last]
        held = [x for x in adversarial if x["reading"] == last]
        cut = cut_for_precision([x["total"] for x in adversarial], [x["good"] for x in adversarial],
                                ADVERSARIAL_PRECISION)  # fmt: skip
        fit_cut = cut_for_precision(
            [x["total"] for x in fit], [x["good"] for x in fit], ADVERSARIAL_PRECISION
        )
        thresholds["adversarial"] = round(cut, 2)
        report["uses"]["adversarial"] = {
            "calibrated_on": f"{len(adversarial)} judged swaps of the adversarial readings "
                             f"({', '.join(ADVERSARIAL_READINGS[args.lang])})",
            "rule": f"the lowest cut whose kept swaps are judged good at least {ADVERSARIAL_PRECISION:.3f}",
            "threshold": round(cut, 2),
            "calibration": summary(adversarial, float("-inf"), cut),  # every one passed the swap check
            "heldout": {"fitted_without": last, "threshold": round(fit_cut, 2),
                        **summary(held, float("-inf"), fit_cut)},
        }  # fmt: skip
    report["thresholds"] = thresholds
    report["items"] = items
    report["heldout_items"] = heldout
    write(report, args, "swap_fluency", thresholds)


if __name__ == "__main__":
    main()
