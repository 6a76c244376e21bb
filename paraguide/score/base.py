"""The scorer interface: similarity of (a, b) pairs, higher = closer in meaning, batch-first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Scorer(Protocol):
    name: str

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """One similarity per pair, in order."""
        ...
