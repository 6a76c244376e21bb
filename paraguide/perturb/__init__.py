"""Linguistic perturbation suites for question matching (DuQM's categories, subcategories and operations),
English and Chinese: ``Perturber("zh").perturb(questions)`` makes, for each question, one pair per
operation that applies -- the original, the perturbed question, a label (1 same question, 0 not) and where
the pair sits in DuQM's table. Each operation is a small class in a module named for what it does (words,
entities, synonym, negation, temporal, coordination, voice, misspelling, particles)."""

from paraguide.perturb.base import (
    CATEGORIES,
    DIFFERENT,
    OPERATIONS,
    SAME,
    SUBCATEGORIES,
    Change,
    Operation,
    Parsed,
    Perturbation,
    Skip,
    parse,
)
from paraguide.perturb.suite import PRESETS, Outcome, Perturber, select

__all__ = [
    "CATEGORIES",
    "DIFFERENT",
    "OPERATIONS",
    "PRESETS",
    "SAME",
    "SUBCATEGORIES",
    "Change",
    "Operation",
    "Outcome",
    "Parsed",
    "Perturbation",
    "Perturber",
    "Skip",
    "parse",
    "select",
]
