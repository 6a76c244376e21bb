"""The learnt ranking as an acceptance test: how precise is "P(good) >= t" on the paraphraser rewrites that
a build accepted and a reader judged, rewrites the ranking was not fitted on?

    python benchmarks/rewrite_acceptance.py --model benchmarks/results/rewrite_ranking_2026-11-29.json \\
        --tag 2026-11-26b_en --tag 2026-11-26c_en ... --out benchmarks/results/rewrite_acceptance_2026-12-06.json \\
        [--features runs/acceptance_features.json]

``rewrite_ranking.py`` fits a logistic regression on the judged raw rewrites of the ``causal_reading_*``
sheets (the paraphraser's beams before any filter). The builders' readings (``reading_TAG``: a build's
accepted output read blind) are another sample: what ``--preset paraphrase`` kept after its filters. For
every English paraphraser rewrite of those readings (each (question, rewrite) once, the first judgement;
in-place swaps and the rules' reorderings are no paraphraser output and are counted apart), this script
computes the ranking's features (``rewrite_ranking.features``: the bundled adapter's forward and backward
log-likelihoods, Gemma's fluency, the edit rate, each meaning check), its P(good), and reports for each
threshold: how many rewrites pass, the share of them judged fluent and the same question, and the share
of the good ones kept -- over all of them and over those that pass today's meaning checks. "Set" rows put
the rewrites that pass beside the same readings' swaps and reorderings: the precision of a build that
dropped the others (those questions then fall back to a swap or go unselected; not simulated).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from rewrite_ranking import cached_features, learnt_probability  # noqa: E402

RESULTS = HERE / "results"
THRESHOLDS = (0.0, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)


def accepted(tags: list[str]) -> list[dict]:
    """The judged English items of the builders' readings: question, rewrite, suggestion, matched, origin,
    good; each (question, rewrite) once. Judgement files with or without the header line are read."""
    items, seen = [], set()
    for tag in tags:
        sheet = json.loads((RESULTS / f"reading_{tag}_key.json").read_text(encoding="utf-8"))
        if sheet.get("lang", "en") != "en":
            raise SystemExit(f"reading_{tag}: not an English reading")
        path = RESULTS / f"reading_{tag}_judgements.tsv"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            cells = line.split("\t")
            if not line.strip() or cells[0] == "item":
                continue
            if cells[0] not in sheet["items"] or len(cells) < 3:
                raise SystemExit(f"{path}, line {number}: {cells[0]!r} is not an item of the key")
            it = sheet["items"][cells[0]]
            pair = (it["original"], it["paraphrase"])
            if pair in seen:
                continue
            seen.add(pair)
            first = it["systems"][0]
            good = cells[1].strip().lower() == "y" and cells[2].strip().lower() == "y"
            items.append({"tag": tag, "q": pair[0], "p": pair[1], "s": first.get("suggestion") or "",
                          "m": first.get("matched") or "", "origin": first["origin"], "good": good})  # fmt: skip
    return items


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="a rewrite_ranking.py result (its learnt_model)")
    ap.add_argument("--tag", required=True, action="append", help="a builder reading (reading_TAG; repeat)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--features", help="JSON cache of the paraphraser rewrites' features")
    args = ap.parse_args(argv)

    from sklearn.metrics import roc_auc_score

    from paraguide.text.edits import edit_rate

    model = json.loads(Path(args.model).read_text(encoding="utf-8"))["learnt_model"]
    items = accepted(args.tag)
    para = [i for i in items if i["origin"] == "paraphraser"]
    other = [i for i in items if i["origin"] != "paraphraser"]
    feats = cached_features(para, args.features)
    prob = learnt_probability(model, feats)
    checks = [all(feats[n][k] for n in feats if n.startswith("pass_")) for k in range(len(para))]
    good = [i["good"] for i in para]
    passing = [k for k in range(len(para)) if checks[k]]

    def rows(keep: list[bool]) -> list[dict]:
        at = [k for k in range(len(para)) if keep[k]]
        n_good = sum(good[k] for k in at)
        out = []
        for t in THRESHOLDS:
            kept = [k for k in at if prob[k] >= t]
            g = sum(good[k] for k in kept)
            pool = [good[k] for k in kept] + [i["good"] for i in other]
            out.append({
                "threshold": t, "pass": len(kept), "precision": round(g / len(kept), 3) if kept else None,
                "good_kept": round(g / n_good, 3) if n_good else None,
                "median_edit": round(statistics.median(feats["edit"][k] for k in kept), 3) if kept else None,
                "set_items": len(pool), "set_precision": round(sum(pool) / len(pool), 3) if pool else None,
            })  # fmt: skip
        return out

    result = {
        "model": args.model,
        "tags": args.tag,
        "paraphraser_rewrites": len(para),
        "good": sum(good),
        "roc_auc": round(float(roc_auc_score(good, prob)), 3),
        "roc_auc_passing_checks": round(float(roc_auc_score([good[k] for k in passing], [prob[k] for k in passing])), 3),
        "other_items": len(other),
        "other_good": sum(i["good"] for i in other),
        "other_median_edit": round(statistics.median(edit_rate(i["q"], i["p"], "en") for i in other), 3)
        if other else None,
        "all": rows([True] * len(para)),
        "passing_checks": rows(checks),
    }  # fmt: skip
    for part in ("all", "passing_checks"):
        print(part, file=sys.stderr)
        for r in result[part]:
            print("  ", r, file=sys.stderr)
    print({k: v for k, v in result.items() if k not in ("all", "passing_checks")}, file=sys.stderr)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
