"""What every suggestion source returns, and the one interface they share (batch-first)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Protocol


@dataclass(frozen=True)
class Suggestion:
    """One suggestion for a question: a phrase for the paraphraser to use, and where it comes from."""

    text: str  # the suggested phrase (what the paraphraser is asked to use)
    matched: str  # the question's n-gram it replaces or paraphrases ("" for context chunks)
    span: tuple[int, int] | None  # token span of `matched` in the question, end exclusive
    score: float  # the source's own score; higher is better
    source: str  # "ppdb", "wordnet", "cilin", "context", ...
    relation: str = ""  # e.g. PPDB's entailment relation, WordNet's part of speech
    tier: int = 0  # in a Union (A|B), which source it came from: a ranker reorders within a tier only

    def as_dict(self) -> dict:
        """The suggestion's fields as a plain dict (for JSON)."""
        return asdict(self)


class SuggestionSource(Protocol):
    """What every suggestion source has: a ``name``, a batch-first :meth:`suggest`, and ``needs_context``:
    True for a source that also takes each question's passage and answer (``contexts=``, ``answers=``,
    ``answer_starts=``), as the adversarial one does; ``files``: the data files it read."""

    name: str
    needs_context: bool = False
    files: tuple = ()  # the files it reads (a run records their content hashes, for --resume)

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        """Ranked suggestions for each of ``questions``, best first (at most ``top_k``; None: all)."""
        ...
