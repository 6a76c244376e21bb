"""Similarity scorers for question pairs (one batch-first interface, ``scorer.score(pairs)``) and the
metrics that judge them. Lexical measures (LCQMC's), and sentence embeddings (sentence-transformers; the
bundled all-MiniLM-L6-v2 by default)."""

from paraguide.score.base import Scorer
from paraguide.score.embedding import EmbeddingScorer
from paraguide.score.lexical import MEASURES, LexicalScorer
from paraguide.score.metrics import best_threshold_accuracy, roc_auc

SCORERS = ("lexical", "embedding")


def load_scorer(spec: str, lang: str = "en") -> Scorer:
    """``lexical[:MEASURE]`` (word_overlap default; ngram_overlap, edit_similarity, cosine) or
    ``embedding[:MODEL_FOLDER]`` (default: the bundled all-MiniLM-L6-v2)."""
    name, _, arg = spec.partition(":")
    if name == "lexical":
        return LexicalScorer(arg or "word_overlap", lang=lang)
    if name == "embedding":
        return EmbeddingScorer(arg or None)
    raise ValueError(f"unknown scorer {name!r}; choose one of {', '.join(SCORERS)} (NAME[:ARG])")


__all__ = [
    "MEASURES",
    "SCORERS",
    "EmbeddingScorer",
    "LexicalScorer",
    "Scorer",
    "best_threshold_accuracy",
    "load_scorer",
    "roc_auc",
]
