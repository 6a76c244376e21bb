"""Each filter's precision on a blind-read set of the project's own rewrites (issue "Test sets that rewrite"):
which of the filters a rewrite can meet pay, judged by a reader who saw only the sheet.

    python benchmarks/rewrite_filter_precision.py --tag 2026-11-26a [--tag ...] --out benchmarks/results/rewrite_filter_precision_2026-11-26a.json

For every judged rewrite of ``causal_reading_<tag>`` (key + judgements): each filter's verdict on its own
(rules; the bundled sim scorer and all-MiniLM-L6-v2 at their calibrated test-set thresholds; the bundled
question LM's SLOR difference and the pretrained LM's (Gemma 3 270M, lm-gemma-LANG) mean log-probability and
SLOR differences at their calibrated thresholds), then chains; and each fluency score's ROC-AUC against the
judged "good" and "fluent". "good" = judged fluent and the same
question. Per filter and language: how many pass, the precision among those that pass (the share good),
the recall of the good ones, and the precision of what it drops (low is right: it drops bad ones).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from reading import read_judgements  # noqa: E402

RESULTS = HERE / "results"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--tag",
        required=True,
        action="append",
        help="a causal_reading tag with judgements, or a quality_reading one (reading_TAG: the accepted output "
        "of a build; its paraphraser rewrites are read, in-place swaps left out) (repeat to pool)",
    )
    ap.add_argument("--out", required=True)
    ap.add_argument(
        "--rules-only",
        action="store_true",
        help="only the rules on the text (no scorer, no language model): seconds instead of minutes",
    )
    args = ap.parse_args(argv)

    from paraguide.score import FluencyScorer, bundled_fluency_path, default_threshold, load_scorer
    from paraguide.score import filters as F
    from paraguide.score.fluency import BUNDLED

    key, judged = {}, {}
    for tag in args.tag:
        k, j = _judged(tag)
        key.update({f"{tag}:{i}": v for i, v in k.items()})
        judged.update({f"{tag}:{i}": v for i, v in j.items()})
    result = {}
    for lang in ("en", "zh"):
        items = [i for i in key if key[i]["lang"] == lang]
        if not items:
            continue
        cands = [
            F.Candidate(
                key[i]["original"],
                key[i]["rewrite"],
                key[i]["suggestion"] or "",
                None,
                lang,
                matched=key[i].get("matched", ""),
            )  # a build's record says what a suggestion replaced
            for i in items
        ]
        good = [judged[i]["fluent"] and judged[i]["same"] for i in items]
        verdicts = {}  # filter name -> [passes?]
        rules = [
            *F.cheap_filters(),
            F.KeepsQuestionType(),
            F.KeepsContent(0, frame=frozenset()),
            F.KeepsContent(0),  # the default: a rephrasing frame's words may come in
            F.KeepsContent(1, frame=frozenset()),
            F.KeepsContent(1),
            F.KeepsContent(2, frame=frozenset()),
            F.KeepsScope(),
            F.WellFormed(),
        ]
        for f in rules:
            name = f.name
            if isinstance(f, F.KeepsContent):
                name += f"(max_added={f.max_added}{', frame words free' if f.frame else ''})"
            verdicts[name] = [r is None for r in f.reasons(cands)]
        keeps = "keeps_content(max_added=0, frame words free)"
        base = [
            n for n in verdicts if not any(x in n for x in ("keeps_content", "keeps_scope", "well_formed"))
        ]
        if args.rules_only:
            chains = {"rules": base, "rules+keeps_content(1)": base + ["keeps_content(max_added=1)"]}
            chains["rules+keeps_content"] = base + [keeps]
            chains["rules+keeps_content+keeps_scope"] = chains["rules+keeps_content"] + ["keeps_scope"]
            chains["rules+keeps_content(1)+keeps_scope+well_formed"] = chains["rules+keeps_content(1)"] + [
                "keeps_scope",
                "well_formed",
            ]
            chains["meaning_filters"] = chains["rules+keeps_content+keeps_scope"] + ["well_formed"]
            result[lang] = _rows(verdicts, chains, good, items)
            continue
        pairs = [(c.source, c.text) for c in cands]
        scorers = [("sim", load_scorer("sim", lang=lang))]
        if lang == "en":
            scorers.append(("embedding", load_scorer("embedding", lang=lang)))
        for name, scorer in scorers:
            scores = scorer.score(pairs)
            for use in ("testset", "augment"):
                t = default_threshold(name, use, lang)
                verdicts[f"{name}>={t} ({use})"] = [s >= t for s in scores]
        fluency = FluencyScorer(bundled_fluency_path(lang), lang=lang)
        slor = fluency.score(pairs)
        t = default_threshold("fluency", "testset", lang)
        verdicts[f"fluency>={t} (testset)"] = [s >= t for s in slor]
        # the pretrained LM (Gemma 3 270M, paraguide/models/lm-gemma-LANG): its folder's measure and
        # calibrated test-set threshold, and SLOR at its own
        fluent = [judged[i]["fluent"] for i in items]
        aucs = {"fluency (bundled question LM)": _aucs(slor, good, fluent)}
        gemma = FluencyScorer(BUNDLED / f"lm-gemma-{lang}", lang=lang)
        texts = sorted({t for pair in pairs for t in pair})
        scored = gemma.lm.log_probs(texts)  # one pass for both measures: (log P_LM, log P_unigram, tokens)
        per_text = {"logprob": {t: lm / n for t, (lm, _, n) in zip(texts, scored, strict=True)},
                    "slor": {t: (lm - uni) / n for t, (lm, uni, n) in zip(texts, scored, strict=True)}}  # fmt: skip
        for measure, of in per_text.items():
            gemma.measure = measure  # whose calibrated threshold
            scores = [of[b] - of[a] for a, b in pairs]
            t = round(gemma.threshold("testset"), 4)
            verdicts[f"pretrained_fluency:{measure}>={t} (testset)"] = [s >= t for s in scores]
            aucs[f"pretrained_fluency:{measure}"] = _aucs(scores, good, fluent)
        chains = {"rules": [n for n in base if ">=" not in n]}
        chains["rules+keeps_content(1)"] = chains["rules"] + ["keeps_content(max_added=1)"]
        chains["rules+keeps_content(1)+keeps_scope"] = chains["rules+keeps_content(1)"] + ["keeps_scope"]
        sim_t = [n for n in verdicts if n.startswith("sim>=") and "testset" in n][0]
        chains["rules+keeps_content(1)+sim"] = chains["rules+keeps_content(1)"] + [sim_t]
        chains["rules+keeps_content(1)+keeps_scope+sim"] = chains["rules+keeps_content(1)+keeps_scope"] + [
            sim_t
        ]
        chains["rules+sim"] = chains["rules"] + [sim_t]
        if lang == "en":
            emb_t = [n for n in verdicts if n.startswith("embedding>=") and "testset" in n][0]
            chains["rules+keeps_content(1)+embedding"] = chains["rules+keeps_content(1)"] + [emb_t]
            chains["rules+keeps_content(1)+keeps_scope+embedding"] = chains[
                "rules+keeps_content(1)+keeps_scope"
            ] + [emb_t]
            chains["rules+embedding"] = chains["rules"] + [emb_t]
        flu = [n for n in verdicts if n.startswith("fluency")][0]
        for name in list(chains):
            if "keeps_content" in name and "+" in name[-10:] or name.endswith(("sim", "embedding")):
                chains[name + "+fluency"] = chains[name] + [flu]
        gemma_t = [n for n in verdicts if n.startswith("pretrained_fluency:logprob")][0]
        for name in [n for n in chains if n.endswith(("keeps_scope+sim", "keeps_scope+embedding"))]:
            chains[name + "+pretrained_fluency"] = chains[name] + [gemma_t]
        result[lang] = _rows(verdicts, chains, good, items)
        result[lang]["roc_auc"] = aucs
    Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


def _rows(verdicts: dict, chains: dict, good: list[bool], items: list) -> dict:
    """Each filter's and chain's passes, precision, recall of the good ones and share good among the dropped."""
    for name, parts in chains.items():
        verdicts["chain: " + name] = [all(verdicts[p][k] for p in parts) for k in range(len(items))]
    rows = {}
    for name, passes in verdicts.items():
        kept = [g for g, p in zip(good, passes, strict=True) if p]
        dropped = [g for g, p in zip(good, passes, strict=True) if not p]
        rows[name] = {
            "passes": len(kept),
            "precision": round(sum(kept) / len(kept), 3) if kept else None,
            "recall_of_good": round(sum(kept) / max(1, sum(good)), 3),
            "good_among_dropped": round(sum(dropped) / len(dropped), 3) if dropped else None,
        }
    print(json.dumps(rows, indent=0), file=sys.stderr)
    return {"items": len(items), "good": sum(good), "base_rate": round(sum(good) / len(items), 3),
            "filters": rows, "chains": chains}  # fmt: skip


def _judged(tag: str) -> tuple[dict, dict]:
    """A reading's key (item -> lang, original, rewrite, suggestion) and judgements: causal_reading_TAG
    (the paraphraser's rewrites before any filter), else reading_TAG (a build's accepted output, whose
    paraphraser rewrites are kept: an in-place swap is no rewrite)."""
    stem = RESULTS / f"causal_reading_{tag}"
    if Path(f"{stem}_key.json").exists():
        key = json.loads(Path(f"{stem}_key.json").read_text(encoding="utf-8"))
        cols = ["fluent", "same", "rephrased"]
        return key, read_judgements(f"{stem}_judgements.tsv", key, cols, set(cols))
    stem = RESULTS / f"reading_{tag}"
    sheet = json.loads(Path(f"{stem}_key.json").read_text(encoding="utf-8"))
    judged = read_judgements(f"{stem}_judgements.tsv", sheet["items"], ["fluent", "same"], {"fluent", "same"})
    key = {
        i: {"lang": sheet["lang"], "original": it["original"], "rewrite": it["paraphrase"],
            "suggestion": it["systems"][0]["suggestion"], "matched": it["systems"][0]["matched"]}
        for i, it in sheet["items"].items()
        if any(s["origin"] == "paraphraser" for s in it["systems"])
    }  # fmt: skip
    return key, {i: judged[i] for i in key}


def _aucs(scores: list[float], good: list[bool], fluent: list[bool]) -> dict:
    """ROC-AUC of a score against the judged "good" (fluent and the same question) and "fluent"."""
    from paraguide.score.metrics import roc_auc

    return {label: round(roc_auc(scores, [int(x) for x in truth]), 3) if 0 < sum(truth) < len(truth) else None
            for label, truth in (("good", good), ("fluent", fluent))}  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
