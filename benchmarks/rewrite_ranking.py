"""How well each score ranks the blind-judged rewrites of the pretrained paraphraser, and a ranking learnt
from the judgements themselves, scored on readings it did not see (leave one reading out).

    python benchmarks/rewrite_ranking.py --tag 2026-11-29a --tag 2026-11-29b ... \\
        --out benchmarks/results/rewrite_ranking_2026-11-29.json [--features runs/ranking_features.json]

For every judged English rewrite of ``causal_reading_<tag>`` ("good" = fluent and the same question): the
bundled adapter's teacher-forced mean log-probability of the rewrite given the question (``fwd``) and of
the question given the rewrite (``bwd``, the round trip's back half), Gemma's fluency (mean log-probability
per token of the rewrite, and its difference to the question's), the token edit rate, whether it is guided,
and each meaning check's verdict (``paraguide.score.filters.meaning_filters``). Reported per score: ROC-AUC
over all rewrites, its mean over readings, and "pick-best": over the questions with two or more judged
rewrites of one kind (free or guided) in one reading, the share good of the one the score ranks first. The
learnt ranking is a logistic regression over all the features (standardised), fitted on the other readings
for each reading's rewrites. ``--features`` caches the model scores as JSON (the first run takes about 20
minutes on 2 CPU cores).
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def judged(tags: list[str]) -> list[dict]:
    """The judged English rewrites of the readings: tag, question, rewrite, suggestion, matched, good."""
    import csv

    items = []
    for tag in tags:
        key = json.loads((RESULTS / f"causal_reading_{tag}_key.json").read_text(encoding="utf-8"))
        path = RESULTS / f"causal_reading_{tag}_judgements.tsv"
        for r in csv.DictReader(path.open(encoding="utf-8"), delimiter="\t"):
            if r.get("item") not in key:
                continue
            k = key[r["item"]][0] if isinstance(key[r["item"]], list) else key[r["item"]]
            if k.get("lang", "en") != "en":
                continue
            good = r["fluent"].strip().lower().startswith("y") and r["same"].strip().lower().startswith("y")
            items.append({"tag": tag, "q": k["original"], "p": k["rewrite"], "s": k.get("suggestion") or "",
                          "m": k.get("matched") or "", "good": good})  # fmt: skip
    return items


@functools.lru_cache(maxsize=1)
def _scorers(adapter: str = "gemma-en"):
    """An English adapter (the round trip's halves; the bundled gemma-en unless ``--adapter``) and Gemma's
    fluency, loaded once."""
    from paraguide.model.paraphraser import Paraphraser
    from paraguide.score.fluency import BUNDLED, FluencyScorer

    return Paraphraser.from_pretrained(adapter), FluencyScorer(
        BUNDLED / "lm-gemma-en", lang="en", measure="logprob"
    )


def features(items: list[dict], adapter: str = "gemma-en") -> dict[str, list[float]]:
    """The scores the module docstring lists, one list per feature (``paraguide.score.acceptance.features``
    with the English adapter -- the bundled gemma-en unless named -- and Gemma's fluency)."""
    from paraguide.score.acceptance import features as acceptance_features

    para, fluency = _scorers(adapter)
    return acceptance_features(para, fluency, [i["q"] for i in items], [i["p"] for i in items],
                               [i["s"] for i in items], [i["m"] for i in items], lang="en")  # fmt: skip


def cached_features(items: list[dict], path: str | None, adapter: str = "gemma-en") -> dict[str, list[float]]:
    """:func:`features`, read from the JSON cache ``path`` where it exists (checked to hold a row per item),
    else computed and written there (``path`` None: computed only)."""
    cache = Path(path) if path else None
    if cache is not None and cache.exists():
        feats = json.loads(cache.read_text(encoding="utf-8"))
        if len(feats["edit"]) != len(items):
            raise SystemExit(f"{cache}: {len(feats['edit'])} rows, but the readings hold {len(items)}")
        return feats
    feats = features(items, adapter)
    if cache is not None:
        cache.write_text(json.dumps(feats) + "\n", encoding="utf-8")
    return feats


def learnt_probability(model: dict, feats: dict[str, list[float]]) -> list[float]:
    """P(good) of each rewrite under a ``learnt_model`` this script wrote."""
    from paraguide.score.acceptance import AcceptanceModel

    return AcceptanceModel(**model).probability(feats)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--tag", required=True, action="append", help="a causal_reading tag with judgements (repeat)"
    )
    ap.add_argument("--out", required=True)
    ap.add_argument("--features", help="JSON cache of the features (read if it exists, else written)")
    ap.add_argument(
        "--model-out",
        help="also write the model fitted on every reading as an acceptance model "
        "(paraguide.score.acceptance; the bundled one: paraguide/models/gemma-en/acceptance.json)",
    )
    ap.add_argument("--adapter", default="gemma-en",
                    help="the adapter whose likelihoods are the round trip's features (bundled name or folder)")  # fmt: skip
    args = ap.parse_args(argv)

    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    items = judged(args.tag)
    feats = cached_features(items, args.features, args.adapter)
    names = sorted(feats)
    x = np.array([feats[n] for n in names], dtype=float).T
    y = np.array([i["good"] for i in items], dtype=int)
    tags = np.array([i["tag"] for i in items])
    f = {n: x[:, k] for k, n in enumerate(names)}
    checks = np.prod([f[n] for n in names if n.startswith("pass_")], axis=0)
    scores = {
        "fwd": f["fwd"],
        "bwd": f["bwd"],
        "fluency": f["fluency"],
        "round trip (fwd + bwd)": f["fwd"] + f["bwd"],
        "round trip + fluency": f["fwd"] + f["bwd"] + f["fluency"],
        "checks first, then round trip + fluency (rtkf)": 100 * checks + f["fwd"] + f["bwd"] + f["fluency"],
    }

    def fit(rows):
        mu, sd = x[rows].mean(0), x[rows].std(0) + 1e-9
        return LogisticRegression(max_iter=2000).fit((x[rows] - mu) / sd, y[rows]), mu, sd

    learnt = np.zeros(len(y))
    for tag in sorted(set(tags)):
        model, mu, sd = fit(tags != tag)
        learnt[tags == tag] = model.predict_proba((x[tags == tag] - mu) / sd)[:, 1]
    scores["learnt (leave one reading out)"] = learnt
    groups = collections.defaultdict(list)
    for k, it in enumerate(items):
        groups[(it["tag"], it["q"], bool(it["s"]))].append(k)
    multi = [g for g in groups.values() if len(g) >= 2]
    rows = {}
    for name, s in scores.items():
        rows[name] = {
            "roc_auc": round(float(roc_auc_score(y, s)), 3),
            "mean_roc_auc_per_reading": round(
                float(np.mean([roc_auc_score(y[tags == t], s[tags == t]) for t in sorted(set(tags))])), 3
            ),
            "pick_best_good": round(float(np.mean([y[max(g, key=lambda k: s[k])] for g in multi])), 3),
        }
        print(f"{name:48s} {rows[name]}", file=sys.stderr)
    model, mu, sd = fit(np.ones(len(y), dtype=bool))
    result = {
        "tags": args.tag,
        "items": len(y),
        "good": int(y.sum()),
        "questions_with_two_or_more": len(multi),
        "good_share_among_them": round(float(np.mean([y[g].mean() for g in multi])), 3),
        "scores": rows,
        "learnt_coefficients_all_readings": {
            n: round(float(c), 3) for n, c in zip(names, model.coef_[0], strict=True)
        },
        # the ranking fitted on every reading, as causal_reading.py --rerank NAME=learnt:THIS_FILE applies it
        "learnt_model": {
            "features": names,
            "mean": mu.tolist(),
            "scale": sd.tolist(),
            "coef": model.coef_[0].tolist(),
            "intercept": float(model.intercept_[0]),
        },  # fmt: skip
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.model_out:
        from paraguide.score.acceptance import AcceptanceModel

        fitted = {"by": "benchmarks/rewrite_ranking.py", "readings": args.tag, "items": len(y), "good": int(y.sum()),
                  "adapter": args.adapter, "fluency": "lm-gemma-en, mean log-probability per token"}  # fmt: skip
        AcceptanceModel(**result["learnt_model"], fitted=fitted).save(args.model_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
