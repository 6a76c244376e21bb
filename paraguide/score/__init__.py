"""Similarity scorers for question pairs (one batch-first interface, ``scorer.score(pairs)``) and the
metrics that judge them: the trainable sim scorer (averaged sub-word embeddings, Wieting & Gimpel 2018),
sentence embeddings (sentence-transformers; the bundled all-MiniLM-L6-v2 by default) and LCQMC's lexical
measures."""

import functools
import json
from pathlib import Path

from paraguide.score.base import Scorer
from paraguide.score.embedding import EmbeddingScorer
from paraguide.score.fluency import (
    FluencyConfig,
    FluencyScorer,
    QuestionLM,
    bundled_fluency_path,
    train_fluency_lm,
)
from paraguide.score.lexical import MEASURES, LexicalScorer
from paraguide.score.likelihood import ParaphraserLikelihood
from paraguide.score.metrics import best_threshold_accuracy, roc_auc
from paraguide.score.sim import SimConfig, SimScorer, bundled_sim_path, train_sim
from paraguide.score.wmd import WMDScorer

SCORERS = ("sim", "embedding", "lexical", "wmd", "fluency", "paraphraser")
# Every bundled scorer and lexical measure, as load_scorer names them: what the quality table and the
# threshold calibration cover.
SCORER_SPECS = (
    "sim",
    "embedding",
    "wmd",
    "lexical:word_overlap",
    "lexical:ngram_overlap",
    "lexical:edit_similarity",
    "lexical:cosine",
)
USES = ("testset", "augment", "adversarial")


@functools.lru_cache(maxsize=1)
def _thresholds() -> dict:
    return json.loads((Path(__file__).parent / "thresholds.json").read_text(encoding="utf-8"))["thresholds"]


def default_threshold(scorer: str, use: str = "testset", lang: str = "en") -> float:
    """The calibrated threshold of a scorer (``sim``, ``embedding``, ``lexical:word_overlap`` ...) for a
    use (``testset``, ``augment``, ``adversarial``) and language; see docs/score.md for the calibration
    (``data_prep/calibrate_thresholds.py``). A scorer loaded from another folder than the bundled one has
    its own scale: calibrate it the same way."""
    if use not in USES:
        raise ValueError(f"unknown use {use!r}; choose one of {', '.join(USES)}")
    table = _thresholds()
    key = "lexical:word_overlap" if scorer == "lexical" else scorer
    if key not in table or lang not in table[key]:
        raise ValueError(
            f"no calibrated threshold for {scorer!r} in {lang!r} (a scorer from another folder has its own "
            "scale: calibrate it with data_prep/calibrate_thresholds.py's method)"
        )
    return float(table[key][lang][use])


def load_scorer(spec: str, lang: str = "en") -> Scorer:
    """``sim[:FOLDER]`` (default: the bundled sim scorer of ``lang``), ``embedding[:MODEL_FOLDER]``
    (default: the bundled all-MiniLM-L6-v2) or ``lexical[:MEASURE]`` (word_overlap default; ngram_overlap,
    edit_similarity, cosine) or ``wmd[:SIM_FOLDER]`` (1 − word mover's distance over a sim scorer's
    word vectors) or ``fluency[:LM_FOLDER]`` (how much worse the second text reads than the first: SLOR
    under a question LM; default: the bundled LM of ``lang``) or ``paraphraser[:ADAPTER]`` (how readily the
    pretrained paraphraser writes the second text for the first, against copying it; default:
    ``gemma-<lang>``)."""
    name, _, arg = spec.partition(":")
    if name == "sim":
        return SimScorer(arg or bundled_sim_path(lang))
    if name == "wmd":
        return WMDScorer(arg or None, lang=lang)
    if name == "lexical":
        return LexicalScorer(arg or "word_overlap", lang=lang)
    if name == "embedding":
        return EmbeddingScorer(arg or None)
    if name == "fluency":
        return FluencyScorer(arg or None, lang=lang)
    if name == "paraphraser":
        return ParaphraserLikelihood(arg or None, lang=lang)
    raise ValueError(f"unknown scorer {name!r}; choose one of {', '.join(SCORERS)} (NAME[:ARG])")


__all__ = [
    "MEASURES",
    "SCORERS",
    "SCORER_SPECS",
    "EmbeddingScorer",
    "FluencyConfig",
    "FluencyScorer",
    "LexicalScorer",
    "ParaphraserLikelihood",
    "QuestionLM",
    "Scorer",
    "SimConfig",
    "SimScorer",
    "WMDScorer",
    "USES",
    "best_threshold_accuracy",
    "bundled_fluency_path",
    "default_threshold",
    "load_scorer",
    "roc_auc",
    "train_fluency_lm",
    "train_sim",
]
