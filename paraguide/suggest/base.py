"""What every suggestion source returns, and the one interface they share (batch-first)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Protocol


@dataclass(frozen=True)
class Suggestion:
    text: str  # the suggested phrase (what the paraphraser is asked to use)
    matched: str  # the question's n-gram it replaces or paraphrases ("" for context chunks)
    span: tuple[int, int] | None  # token span of `matched` in the question, end exclusive
    score: float  # the source's own score; higher is better
    source: str  # "ppdb", "wordnet", "cilin", "context", ...
    relation: str = ""  # e.g. PPDB's entailment relation, WordNet's part of speech
    tier: int = 0  # in a Union (A|B), which source it came from: a ranker reorders within a tier only

    def as_dict(self) -> dict:
        return asdict(self)


class SuggestionSource(Protocol):
    name: str

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        """Ranked suggestions for each question, best first."""
        ...
