"""Robustness evaluation: QA and QM metrics (SQuAD EM/F1, character-level Chinese EM/F1, accuracy per
category, the different-prediction ratio) and ``paraguide evaluate``, which compares a system's predictions
on an original test set and on its paraphrased counterpart."""

from paraguide.evaluate.metrics import (
    category_accuracy,
    classification_scores,
    different_prediction_ratio,
    exact_match,
    f1,
    normalize_answer,
    squad_scores,
)

__all__ = [
    "category_accuracy",
    "classification_scores",
    "different_prediction_ratio",
    "exact_match",
    "f1",
    "normalize_answer",
    "squad_scores",
]
