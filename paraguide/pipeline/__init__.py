"""Pipelines that compose readers, suggestion sources, models and scorers into whole jobs: the paraphraser's
training corpus (``prepare``), and the main job -- paraphrased test sets (``build_testset``) and augmented
training data (``augment``) -- built on one batch-first composition (``QuestionParaphraser``)."""

from paraguide.pipeline.augment import augment
from paraguide.pipeline.config import BuildConfig, GeneratorConfig
from paraguide.pipeline.generate import QuestionParaphraser
from paraguide.pipeline.prepare import PrepareConfig, format_report, prepare
from paraguide.pipeline.records import Choice, Item, Outcome
from paraguide.pipeline.report import format_summary
from paraguide.pipeline.testset import build_testset

__all__ = [
    "BuildConfig",
    "Choice",
    "GeneratorConfig",
    "Item",
    "Outcome",
    "PrepareConfig",
    "QuestionParaphraser",
    "augment",
    "build_testset",
    "format_report",
    "format_summary",
    "prepare",
]
