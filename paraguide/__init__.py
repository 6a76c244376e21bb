"""paraguide: suggestion-guided question paraphrasing for QA and QM robustness data.

    from paraguide import QuestionParaphraser, BuildConfig, build_testset

    QuestionParaphraser.for_testset("en").paraphrase_many(["What year did the Normans reach Italy?"])
    build_testset(BuildConfig(squad="dev-v1.1.json", out="runs/testset"))

Imports flow one way: ``cli -> pipeline -> model / suggest / score -> data / text``. The names below load
their module on first use, so ``import paraguide`` (and the CLI's ``--help``) stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from paraguide.errors import DataError, ParaguideError

__version__ = "0.1.0.dev0"

_EXPORTS = {
    "Paraphraser": "paraguide.model.paraphraser",
    "default_model_path": "paraguide.model.paraphraser",
    "TrainConfig": "paraguide.model.train",
    "train": "paraguide.model.train",
    "QuestionParaphraser": "paraguide.pipeline.generate",
    "GeneratorConfig": "paraguide.pipeline.config",
    "BuildConfig": "paraguide.pipeline.config",
    "Item": "paraguide.pipeline.records",
    "Outcome": "paraguide.pipeline.records",
    "Choice": "paraguide.pipeline.records",
    "build_testset": "paraguide.pipeline.testset",
    "augment": "paraguide.pipeline.augment",
    "PrepareConfig": "paraguide.pipeline.prepare",
    "prepare": "paraguide.pipeline.prepare",
    "load_source": "paraguide.suggest",
    "Suggestion": "paraguide.suggest",
    "load_scorer": "paraguide.score",
    "Candidate": "paraguide.score.filters",
    "FilterChain": "paraguide.score.filters",
}

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load lazily
    from paraguide.model.paraphraser import Paraphraser, default_model_path
    from paraguide.model.train import TrainConfig, train
    from paraguide.pipeline.augment import augment
    from paraguide.pipeline.config import BuildConfig, GeneratorConfig
    from paraguide.pipeline.generate import QuestionParaphraser
    from paraguide.pipeline.prepare import PrepareConfig, prepare
    from paraguide.pipeline.records import Choice, Item, Outcome
    from paraguide.pipeline.testset import build_testset
    from paraguide.score import load_scorer
    from paraguide.score.filters import Candidate, FilterChain
    from paraguide.suggest import Suggestion, load_source


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'paraguide' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = [
    "DataError",
    "ParaguideError",
    "__version__",
    "Paraphraser",
    "default_model_path",
    "TrainConfig",
    "train",
    "QuestionParaphraser",
    "GeneratorConfig",
    "BuildConfig",
    "Item",
    "Outcome",
    "Choice",
    "build_testset",
    "augment",
    "PrepareConfig",
    "prepare",
    "load_source",
    "Suggestion",
    "load_scorer",
    "Candidate",
    "FilterChain",
]
