"""Pipelines that compose readers, suggestion sources, models and scorers into whole jobs: the paraphraser's
training corpus (``prepare``), and the main job -- paraphrased test sets (``build_testset``) and augmented
training data (``augment``) -- built on one batch-first composition (``QuestionParaphraser``)."""

from paraguide.pipeline.build import BuildConfig, augment, build_testset, format_summary
from paraguide.pipeline.generate import Item, QuestionParaphraser
from paraguide.pipeline.prepare import PrepareConfig, format_report, prepare

__all__ = [
    "BuildConfig",
    "Item",
    "PrepareConfig",
    "QuestionParaphraser",
    "augment",
    "build_testset",
    "format_report",
    "format_summary",
    "prepare",
]
