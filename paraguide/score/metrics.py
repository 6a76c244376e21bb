"""How well a similarity separates paraphrases from non-paraphrases: ROC-AUC and the accuracy at the best
threshold (and that threshold), computed exactly from the sorted scores."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def roc_auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """Probability that a random positive scores above a random negative (ties count one half)."""
    from scipy.stats import rankdata

    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    pos, neg = int(y.sum()), int(len(y) - y.sum())
    if not pos or not neg:
        raise ValueError("ROC-AUC needs both positive and negative pairs")
    ranks = rankdata(s)
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def best_threshold_accuracy(scores: Sequence[float], labels: Sequence[int]) -> tuple[float, float]:
    """``(accuracy, threshold)``: the threshold t maximising the accuracy of "score >= t means paraphrase"
    (t halfway between two consecutive distinct scores)."""
    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    # Predict positive for the first k (k = 0..n): correct = positives among them + negatives after.
    tp = np.concatenate([[0], np.cumsum(y)])
    fp = np.concatenate([[0], np.cumsum(1 - y)])
    correct = tp + ((1 - y).sum() - fp)
    # Only cut between distinct scores.
    valid = np.concatenate([[True], s[:-1] != s[1:], [True]])
    k = int(np.argmax(np.where(valid, correct, -1)))
    if k == 0:
        threshold = float(s[0]) + 1e-9
    elif k == len(s):
        threshold = float(s[-1])
    else:
        threshold = float((s[k - 1] + s[k]) / 2)
    return float(correct[k] / len(s)), threshold


def accuracy_at(scores: Sequence[float], labels: Sequence[int], threshold: float) -> dict[str, float]:
    """Accuracy, precision, recall and F1 of "score >= threshold means paraphrase"."""
    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    pred = s >= threshold
    tp, fp, fn = int((pred & (y == 1)).sum()), int((pred & (y == 0)).sum()), int((~pred & (y == 1)).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"accuracy": float((pred == (y == 1)).mean()), "precision": precision, "recall": recall, "f1": f1}
