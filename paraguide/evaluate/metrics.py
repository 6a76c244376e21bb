"""Scores of a QA or QM system's predictions: SQuAD EM/F1 (English as the official v1.1 evaluator, Chinese at
the character level as DuReader-robust §3.1), classification and per-category accuracy (DuQM), and the
different-prediction ratio (DPR, DuReader-robust App. F).

Every score that is a share is a percentage (0-100), as the SQuAD evaluator prints them; per-question
:func:`exact_match` and :func:`f1` are 0-1.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Sequence

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_ASCII_PUNCT = frozenset(string.punctuation)


def _is_punct(char: str) -> bool:
    # ASCII punctuation (string.punctuation also holds symbols such as $ + < = > ^ ` | ~) and every Unicode
    # punctuation character (full-width ，。？！、《》“” ...).
    return char in _ASCII_PUNCT or unicodedata.category(char).startswith("P")


def normalize_answer(text: str, lang: str = "en") -> str:
    """The text an answer is compared by.

    ``en``: the SQuAD v1.1 evaluator's steps, in its order: lower case, drop ASCII punctuation, drop the
    articles a/an/the (whole words), collapse whitespace. ``zh``: lower case, drop whitespace and punctuation
    (Chinese and ASCII), so that answers compare character by character.
    """
    text = text.lower()
    if lang == "zh":
        return "".join(c for c in text if not c.isspace() and not _is_punct(c))
    text = "".join(c for c in text if c not in _ASCII_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def _tokens(text: str, lang: str) -> list[str]:
    normalized = normalize_answer(text, lang)
    return list(normalized) if lang == "zh" else normalized.split()


def _f1_one(prediction: str, truth: str, lang: str) -> float:
    pred, gold = _tokens(prediction, lang), _tokens(truth, lang)
    common = sum((Counter(pred) & Counter(gold)).values())
    if common == 0:
        # Also when both are empty: the v1.1 evaluator scores that 0 (no-answer is handled by squad_scores).
        return 0.0
    precision, recall = common / len(pred), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction: str, ground_truths: list[str], lang: str = "en") -> float:
    """1.0 when the normalised prediction equals one normalised ground truth, else 0.0."""
    pred = normalize_answer(prediction, lang)
    return float(any(pred == normalize_answer(t, lang) for t in ground_truths))


def f1(prediction: str, ground_truths: list[str], lang: str = "en") -> float:
    """Token F1 of the bags of tokens (English: whitespace tokens of the normalised text; Chinese:
    characters), the best over the ground truths; 0.0 without ground truths."""
    return max((_f1_one(prediction, t, lang) for t in ground_truths), default=0.0)


def squad_scores(predictions: dict[str, str], references: dict[str, list[str]], lang: str = "en") -> dict:
    """EM and F1 (percent) over every question of ``references``.

    ``references[id] == []`` is a SQuAD 2.0 no-answer question: only an empty (normalised) prediction is
    right, for EM and F1 alike. A question without a prediction counts as answered ``""`` and is counted in
    ``missing``; predictions for ids not in ``references`` are ignored (callers check ids first).
    """
    em_sum = f1_sum = 0.0
    missing = 0
    for qid, truths in references.items():
        if qid not in predictions:
            missing += 1
        prediction = predictions.get(qid, "")
        if not truths:
            right = float(normalize_answer(prediction, lang) == "")
            em_sum += right
            f1_sum += right
            continue
        em_sum += exact_match(prediction, truths, lang)
        f1_sum += f1(prediction, truths, lang)
    total = len(references)
    return {
        "exact_match": 100.0 * em_sum / total if total else 0.0,
        "f1": 100.0 * f1_sum / total if total else 0.0,
        "total": total,
        "missing": missing,
    }


def classification_scores(predictions: Sequence[int], labels: Sequence[int]) -> dict:
    """Accuracy, and precision, recall and F1 of the positive class 1, in percent (0 where undefined)."""
    if len(predictions) != len(labels):
        raise ValueError(f"{len(predictions)} predictions for {len(labels)} labels")
    pairs = [(int(p), int(y)) for p, y in zip(predictions, labels, strict=True)]
    tp = sum(p == 1 and y == 1 for p, y in pairs)
    fp = sum(p == 1 and y != 1 for p, y in pairs)
    fn = sum(p != 1 and y == 1 for p, y in pairs)
    correct = sum(p == y for p, y in pairs)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "accuracy": 100.0 * correct / len(pairs) if pairs else 0.0,
        "precision": 100.0 * precision,
        "recall": 100.0 * recall,
        "f1": 100.0 * f,
        "total": len(pairs),
    }


def category_accuracy(predictions: Sequence[int], labels: Sequence[int], categories: Sequence[str]) -> dict:
    """Accuracy (percent) per category, ``micro`` (over all pairs) and ``macro`` (mean of the categories'
    accuracies, each category weighing the same), as DuQM reports them."""
    if not len(predictions) == len(labels) == len(categories):
        raise ValueError(
            f"{len(predictions)} predictions, {len(labels)} labels, {len(categories)} categories"
        )
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for p, y, c in zip(predictions, labels, categories, strict=True):
        total[c] += 1
        right[c] += int(p) == int(y)
    per = {c: {"accuracy": 100.0 * right[c] / total[c], "total": total[c]} for c in sorted(total)}
    n = sum(total.values())
    return {
        "per_category": per,
        "micro": 100.0 * sum(right.values()) / n if n else 0.0,
        "macro": sum(v["accuracy"] for v in per.values()) / len(per) if per else 0.0,
    }


def different_prediction_ratio(
    original: dict[str, str], paraphrased: dict[str, str], id_map: dict[str, str], lang: str = "en"
) -> float:
    """DPR in percent: the share of paraphrased questions (the keys of ``id_map``, paraphrased id -> original
    id) whose normalised prediction differs from the normalised prediction on their original question. A
    missing prediction counts as ``""``."""
    if not id_map:
        return 0.0
    differ = sum(
        normalize_answer(paraphrased.get(new, ""), lang) != normalize_answer(original.get(old, ""), lang)
        for new, old in id_map.items()
    )
    return 100.0 * differ / len(id_map)
