"""Word mover's distance (Kusner et al. 2015) as a similarity, ``1 − WMD``, over the word vectors of a sim
scorer; the transport problem is solved exactly as a linear programme (scipy's HiGHS).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from paraguide.arguments import pairs as checked_pairs
from paraguide.score.sim import SimModel, bundled_sim_path
from paraguide.text.stopwords import is_word, load_stopwords
from paraguide.text.tokenize import tokenize


def transport_cost(weights_a: np.ndarray, weights_b: np.ndarray, cost: np.ndarray) -> float:
    """The earth mover's distance between two histograms (each summing to 1) under a cost matrix."""
    from scipy.optimize import linprog

    n, m = cost.shape
    # Flow f_ij >= 0; rows sum to weights_a, columns to weights_b.
    a_eq = np.zeros((n + m, n * m))
    for i in range(n):
        a_eq[i, i * m : (i + 1) * m] = 1
    for j in range(m):
        a_eq[n + j, j::m] = 1
    result = linprog(
        cost.ravel(), A_eq=a_eq, b_eq=np.concatenate([weights_a, weights_b]), bounds=(0, None), method="highs"
    )
    if not result.success:
        raise RuntimeError(f"word mover's distance: {result.message}")
    return float(result.fun)


class WMDScorer:
    """``WMDScorer(lang="en").score(pairs)``: 1 − word mover's distance. ``sim_path``: the sim scorer whose
    sub-word embeddings give the word vectors (a word is the mean of its pieces; default the bundled one of
    ``lang``) -- trained on paraphrase pairs, and there for every language without a download."""

    def __init__(self, sim_path: str | os.PathLike | None = None, lang: str = "en"):
        self.files = (Path(sim_path or bundled_sim_path(lang)),)
        self.model = SimModel.from_pretrained(self.files[0])
        self.lang, self.name = lang, "wmd"
        self.stopwords = load_stopwords(lang)
        self._vectors: dict[str, np.ndarray] = {}

    def bag(self, text: str) -> tuple[list[str], np.ndarray]:
        """The words of ``text`` and their normalised weights: stop words removed, as Kusner et al. do (all
        words if nothing else is left)."""
        words = [w.lower() for w in tokenize(text, self.lang) if is_word(w)]
        content = [w for w in words if w not in self.stopwords] or words
        counts = Counter(content)
        keys = sorted(counts)
        weights = np.array([counts[k] for k in keys], dtype=float)
        return keys, weights / max(weights.sum(), 1.0)

    def vectors(self, words: list[str]) -> np.ndarray:
        """Unit vectors of ``words``, one row each (cached per word)."""
        import torch

        missing = [w for w in words if w not in self._vectors]
        if missing:
            with torch.no_grad():
                for w, v in zip(missing, self.model.encode(missing).numpy(), strict=True):
                    self._vectors[w] = v
        return np.stack([self._vectors[w] for w in words])

    def distance(self, a: str, b: str) -> float:
        """WMD of two texts: the cheapest transport of one bag onto the other, moving word i to word j at
        the cosine distance of their vectors (in [0, 2]). Identical bags give 0."""
        wa, ha = self.bag(a)
        wb, hb = self.bag(b)
        if not wa or not wb:
            return 0.0 if wa == wb else 2.0
        cost = np.clip(1.0 - self.vectors(wa) @ self.vectors(wb).T, 0.0, 2.0)
        return transport_cost(ha, hb, cost)

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """``1 − distance`` per pair, in order."""
        pairs = checked_pairs(pairs)
        return [1.0 - self.distance(a, b) for a, b in pairs]
