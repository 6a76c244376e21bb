#!/usr/bin/env python
"""Calibrate the swap check (``--swap-check``: how readily the pretrained paraphraser writes a synonym swap,
against copying the question) on the project's own blind readings, and write its thresholds into
paraguide/score/thresholds.json.

Every in-place synonym swap a blind reader judged (``benchmarks/results/reading_*``: one system per item, a
suggestion put in place, not a question-word swap) is a labelled pair: good when the reader judged it the
same question and fluent, or not fluent only for an error the original already had ("inherited",
"original" in the note). The script scores each pair with the adapter, reports the score's ROC-AUC (all
readings and each), the precision of the swaps kept at each cut, and sets a threshold per use: the lowest
score at which the swaps scoring at least that much are good with the target precision, by
calibrate_thresholds.py's method (test sets 0.75,
augmentation and adversarial 0.70 -- the rest of a test set, question-word swaps and reorderings, reads at
95-98 %, docs/build.md).

    python data_prep/calibrate_swap_check.py --lang en --out benchmarks/results/swap_check_calibration_en.json
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calibrate_thresholds import threshold_for  # noqa: E402  (data_prep/, beside this script: one method)

ROOT = Path(__file__).resolve().parents[1]
READINGS = ROOT / "benchmarks" / "results"
TARGETS = {"testset": 0.75, "augment": 0.70, "adversarial": 0.70}


def judged_swaps(lang: str) -> list[dict]:
    """The in-place synonym swaps of every blind reading in ``lang``, each once (its first judgement)."""
    from paraguide.text.edits import question_word_only

    items: dict[tuple[str, str], dict] = {}
    for key_file in sorted(READINGS.glob("reading_*_key.json")):
        prefix = str(key_file)[: -len("_key.json")]
        judgements = Path(f"{prefix}_judgements.tsv")
        key = json.loads(key_file.read_text(encoding="utf-8"))
        if not judgements.exists() or key.get("lang", "en") != lang or "items" not in key:
            continue
        with judgements.open(encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                item = key["items"].get(row.get("item") or "")
                if item is None or len(item["systems"]) != 1:
                    continue
                system = item["systems"][0]
                original, paraphrase = item["original"], item["paraphrase"]
                if system.get("origin") != "in_place" or not system.get("suggestion"):
                    continue
                if question_word_only(original, paraphrase, lang):
                    continue
                note = (row.get("note") or "").lower()
                copied = "inherited" in note or "original" in note
                good = row["same"] == "y" and (row["fluent"] == "y" or copied)
                items.setdefault(
                    (original, paraphrase),
                    {"original": original, "paraphrase": paraphrase, "good": good,
                     "swap": f"{system.get('matched', '')} -> {system['suggestion']}",
                     "reading": Path(prefix).name},
                )  # fmt: skip
    return list(items.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="en", choices=("en", "zh"))
    ap.add_argument("--adapter", help="the pretrained paraphraser's adapter (default: gemma-<lang>)")
    ap.add_argument("--out", type=Path, help="the report (JSON), with every scored swap")
    ap.add_argument("--no-write", action="store_true", help="report only; leave thresholds.json as it is")
    args = ap.parse_args()

    from paraguide.score import roc_auc
    from paraguide.score.likelihood import ParaphraserLikelihood

    items = judged_swaps(args.lang)
    if not items:
        raise SystemExit(f"no judged {args.lang} synonym swaps under {READINGS}")
    scorer = ParaphraserLikelihood(args.adapter, lang=args.lang)
    scores = scorer.score([(x["original"], x["paraphrase"]) for x in items])
    good = [x["good"] for x in items]
    for x, s in zip(items, scores, strict=True):
        x["score"] = round(s, 4)
    by_reading = {}
    for name in sorted({x["reading"] for x in items}):
        sub = [x for x in items if x["reading"] == name]
        if 0 < sum(x["good"] for x in sub) < len(sub):
            by_reading[name] = {"swaps": len(sub), "good": round(sum(x["good"] for x in sub) / len(sub), 3),
                                "roc_auc": round(roc_auc([x["score"] for x in sub], [x["good"] for x in sub]), 3)}  # fmt: skip
    ranked = sorted(scores)
    cuts = []
    for share in (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        cut = ranked[int(share * len(ranked))]
        kept = [g for s, g in zip(scores, good, strict=True) if s >= cut]
        cuts.append({"dropped_share": share, "threshold": round(cut, 4), "kept": len(kept),
                     "precision": round(sum(kept) / len(kept), 3)})  # fmt: skip
    thresholds = {
        "calibrated_on": f"{len(items)} blind-judged in-place synonym swaps (benchmarks/results/reading_*)"
    }
    for use, target in TARGETS.items():
        t, precision, _, _ = threshold_for(scores, good, target)
        thresholds[use] = round(t, 4)
        thresholds[f"{use}_precision_kept"] = [round(precision, 3), sum(s >= t for s in scores)]
    report = {
        "adapter": str(scorer.files[0]),
        "lang": args.lang,
        "swaps": len(items),
        "good": round(sum(good) / len(good), 3),
        "roc_auc": round(roc_auc(scores, good), 3),
        "by_reading": by_reading,
        "cuts": cuts,
        "thresholds": thresholds,
        "items": items,
    }
    write(report, args, "paraphraser", thresholds)


def write(report: dict, args, scorer: str, thresholds: dict) -> None:
    """Print the report (without its item lists), write it to ``args.out`` and, unless ``args.no_write``,
    put ``thresholds`` into paraguide/score/thresholds.json under ``scorer`` and ``args.lang``."""
    print(json.dumps({k: v for k, v in report.items() if not k.endswith("items")}, indent=1))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if not args.no_write:
        path = ROOT / "paraguide" / "score" / "thresholds.json"
        table = json.loads(path.read_text(encoding="utf-8"))
        table["thresholds"].setdefault(scorer, {})[args.lang] = thresholds
        path.write_text(json.dumps(table, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"thresholds -> {path}")


if __name__ == "__main__":
    main()
