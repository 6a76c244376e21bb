"""The scorer interface: similarity of (a, b) pairs, higher = closer in meaning, batch-first."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from paraguide.arguments import pairs as checked_pairs


class Scorer(Protocol):
    """What every scorer offers: a ``name`` (the key its scores are kept under) and batch-first
    :meth:`score`, so that a model can encode a whole batch at once; ``files``: the model files it read (a
    run records their content hashes, for --resume)."""

    name: str
    files: tuple = ()

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """One similarity per pair, in order."""
        ...


class CachedVectorScorer(ABC):
    """Cosine of L2-normalised sentence vectors, batch-first and cached: every distinct sentence of a call is
    encoded once, and vectors are kept across calls (least recently used dropped past ``cache_size``): a
    test set compares one original with many candidates. Subclasses say how to encode."""

    name = "vectors"
    files: tuple = ()

    def __init__(self, cache_size: int = 100_000):
        self.cache_size = cache_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    @abstractmethod
    def encode(self, sentences: list[str]) -> np.ndarray:
        """L2-normalised vectors of distinct sentences, one row each."""

    def embed(self, sentences: Sequence[str]) -> np.ndarray:
        """One vector per sentence, in order; only sentences not in the cache are encoded."""
        missing = list(dict.fromkeys(s for s in sentences if s not in self._cache))
        if missing:
            self._cache.update(zip(missing, self.encode(missing), strict=True))
        out = np.stack([self._cache[s] for s in sentences]) if sentences else np.zeros((0, 0))
        for s in sentences:
            self._cache.move_to_end(s)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return out

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """The cosine of each pair's two vectors, in order."""
        pairs = checked_pairs(pairs)
        if not pairs:
            return []
        vectors = self.embed([t for pair in pairs for t in pair])
        return [float(x) for x in (vectors[0::2] * vectors[1::2]).sum(-1)]
