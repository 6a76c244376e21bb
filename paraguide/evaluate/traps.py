"""Over-stability: how often a QA system's answers on a trap set (``paraguide perturb --trap``) are the
trap's distractor."""

from __future__ import annotations

from collections.abc import Iterable

from paraguide.evaluate.metrics import normalize_answer


def trap_hits(predictions: dict[str, str], traps: str | Iterable[dict], lang: str = "en") -> dict:
    """How often predictions on the trap set land on the trap: the normalised prediction equals, contains or
    is contained in the trap's distractor (SQuAD normalisation; English by whole words, Chinese by
    characters with at least 2 of them in common). ``traps``: traps.jsonl's path or its records.

    Returns ``traps`` (in the file), ``predicted`` (of them with a prediction), ``hits``, ``rate`` (hits per
    predicted trap, a percentage like the other scores), ``by_type`` (the same per distractor type) and
    ``hit_ids``."""
    if isinstance(traps, str) or hasattr(traps, "__fspath__"):
        from paraguide.data.io import read_jsonl

        traps = [record for _, record in read_jsonl(traps)]
    total, predicted, hits, hit_ids = 0, 0, 0, []
    by_type: dict[str, dict[str, int]] = {}
    for record in traps:
        total += 1
        qid = str(record["id"])
        if qid not in predictions:
            continue
        predicted += 1
        row = by_type.setdefault(record.get("type", "unknown"), {"predicted": 0, "hits": 0})
        row["predicted"] += 1
        pred = normalize_answer(predictions[qid] or "", lang)
        dist = normalize_answer(record["distractor"], lang)
        if _hit(pred, dist, lang):
            hits += 1
            row["hits"] += 1
            hit_ids.append(qid)
    for row in by_type.values():
        row["rate"] = round(100 * row["hits"] / row["predicted"], 2) if row["predicted"] else 0.0
    return {
        "traps": total,
        "predicted": predicted,
        "hits": hits,
        "rate": round(100 * hits / predicted, 2) if predicted else 0.0,
        "by_type": dict(sorted(by_type.items())),
        "hit_ids": hit_ids,
    }


def _hit(pred: str, dist: str, lang: str) -> bool:
    if not pred or not dist:
        return False
    if pred == dist:
        return True
    if lang == "zh":
        short, long = sorted((pred, dist), key=len)
        return len(short) >= 2 and short in long
    return f" {dist} " in f" {pred} " or f" {pred} " in f" {dist} "
