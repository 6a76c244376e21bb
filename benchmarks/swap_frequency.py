#!/usr/bin/env python
"""Do readers reject the synonym swaps that put a rarer word in place? The English default's in-place
synonym swaps (not question-word swaps), judged blind in the listed readings, by how much rarer the
suggestion is than the words it replaces (wordfreq's Zipf frequency, the rarest word of each side), and what
keeping only the swaps above a margin would do to the default run's selection.

Needs ``pip install wordfreq`` (not a paraguide dependency: this is an analysis, not a filter yet).

    python benchmarks/swap_frequency.py --run runs/final8/squad-dev \\
        --reading benchmarks/results/reading_2026-11-27l_en --reading benchmarks/results/reading_2026-11-27y_en \\
        --out benchmarks/results/swap_frequency_2026-11-27.json

A judged item is good when it is the same question and fluent, or not fluent only for an error the original
already had (the reader's note says "inherited" or "original"). ``--lm paraguide/models/lm-gemma-en`` also
ranks the judged swaps by the pretrained LM's fluency difference (paraguide's fluency scorer): its ROC-AUC and
the precision left after dropping the lowest-scored shares.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

from paraguide.data.io import read_jsonl
from paraguide.text.edits import question_word_only

MARGINS = (-2.0, -1.5, -1.0, -0.5, 0.0)


def rarity(suggestion: str, matched: str) -> float:
    """Zipf frequency of the suggestion's rarest word minus that of the replaced words' rarest."""
    from wordfreq import zipf_frequency

    def rarest(text: str) -> float:
        return min(zipf_frequency(w, "en") for w in text.split())

    return round(rarest(suggestion) - rarest(matched), 2)


def synonym_swap(p: dict) -> bool:
    return p.get("origin") == "in_place" and not question_word_only(p["original"], p["paraphrase"], "en")


def judged(run: dict[str, dict], reading: Path) -> list[dict]:
    key = json.loads(Path(f"{reading}_key.json").read_text(encoding="utf-8"))
    out = []
    with open(f"{reading}_judgements.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            item = key["items"][row["item"]]
            p = run.get(item["systems"][0]["id"])
            if p is None or not synonym_swap(p):
                continue
            note = (row.get("note") or "").lower()
            copied = "inherited" in note or "original" in note
            good = row["same"] == "y" and (row["fluent"] == "y" or copied)
            out.append({"reading": reading.name, "good": good, "rarity": rarity(p["suggestion"], p["matched"]),
                        "swap": f"{p['matched']} -> {p['suggestion']}", "pair": (p["original"], p["paraphrase"])})  # fmt: skip
    return out


def lm_table(items: list[dict], folder: str) -> dict:
    """ROC-AUC of the LM's fluency difference for telling good swaps from bad, and precision after dropping
    the lowest-scored 20-60 %."""
    from scipy.stats import mannwhitneyu

    from paraguide.score.fluency import FluencyScorer

    scorer = FluencyScorer(folder)
    scores = scorer.score([x["pair"] for x in items])
    good = [s for s, x in zip(scores, items, strict=True) if x["good"]]
    bad = [s for s, x in zip(scores, items, strict=True) if not x["good"]]
    auc = mannwhitneyu(good, bad).statistic / (len(good) * len(bad))
    ranked = sorted(scores)
    drops = []
    for share in (0.2, 0.4, 0.6):
        cut = ranked[int(share * len(ranked))]
        kept = [x["good"] for s, x in zip(scores, items, strict=True) if s >= cut]
        drops.append(
            {"dropped_share": share, "kept": len(kept), "precision": round(sum(kept) / len(kept), 3)}
        )
    return {"lm": folder, "measure": scorer.measure, "roc_auc": round(float(auc), 3), "drop_lowest": drops}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", type=Path, required=True, help="the build-testset folder the readings read")
    ap.add_argument(
        "--reading", type=Path, action="append", required=True, help="reading prefix (…_key.json)"
    )
    ap.add_argument(
        "--lm", help="an LM folder for paraguide's fluency scorer (e.g. paraguide/models/lm-gemma-en)"
    )
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rows = [p for _, p in read_jsonl(args.run / "provenance.jsonl")]
    run = {p["id"]: p for p in rows} | {p["original_id"]: p for p in rows}
    items = [x for reading in args.reading for x in judged(run, reading)]
    swaps = [rarity(p["suggestion"], p["matched"]) for p in rows if synonym_swap(p)]
    questions = json.loads((args.run / "summary.json").read_text(encoding="utf-8"))["input_questions"]
    table = []
    for margin in (None, *MARGINS):
        kept = [x for x in items if margin is None or x["rarity"] >= margin]
        lost = 0 if margin is None else sum(r < margin for r in swaps)
        table.append({
            "keep_suggestions_no_rarer_than": margin,
            "judged_kept": len(kept),
            "precision": round(sum(x["good"] for x in kept) / max(1, len(kept)), 3),
            "selected_at_most": len(rows) - lost,
            "selected_share_at_most": round((len(rows) - lost) / questions, 4),
        })  # fmt: skip
    result = {"run": str(args.run), "readings": [str(r) for r in args.reading], "judged_swaps": len(items),
              "synonym_swaps_selected": len(swaps), "table": table}  # fmt: skip
    if args.lm:
        result["lm"] = lm_table(items, args.lm)
        print(json.dumps(result["lm"], indent=1))
    for x in items:
        del x["pair"]
    result["items"] = items
    text = json.dumps(result, indent=1, ensure_ascii=False)
    print(json.dumps(table, indent=1))
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
