"""Suggestions two sources agree on: ``Agreement(WordNet(), PPDB(pairs))`` keeps a WordNet synonym only when
PPDB also offers it for the same words of the question; and ``Union``, the suggestions of several sources
one after the other.

Why: each lexicon alone proposes substitutes of senses the question does not use, or that do not fit its
phrase ("cases of malaria" -> "instances"), and no offline model here tells them apart in context. Two
lexicons built in different ways (WordNet from lexicographers' synsets, PPDB from bilingual pivoting over
parallel text) rarely make the same wrong proposal (the blind readings: docs/suggest.md, docs/build.md).

Agreement is judged on lemmas (LemmInflect for English), so "planned" for "designed" agrees with
"plan" for "design"; the first source's suggestion, its span, score and order are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from paraguide.arguments import texts
from paraguide.suggest.base import Suggestion, SuggestionSource
from paraguide.text.substitute import lemmas


def _key(phrase: str, lang: str) -> frozenset[str]:
    # A phrase's lemma set: each word's lemmas for a single English word, the phrase itself otherwise.
    phrase = phrase.lower().strip()
    if lang == "en" and " " not in phrase:
        return lemmas(phrase)
    return frozenset([phrase])


class Agreement:
    """The suggestions of ``first`` that each of ``others`` also makes for the same matched words, compared
    by lemma in ``lang``."""

    def __init__(self, first: SuggestionSource, *others: SuggestionSource, lang: str = "en"):
        if not others:
            raise ValueError("Agreement needs at least two sources")
        self.first, self.others, self.lang = first, others, lang
        self.name = "&".join(s.name for s in (first, *others))
        self.files = tuple(f for s in (first, *others) for f in getattr(s, "files", ()))

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        """Ranked suggestions for each of ``questions``, best first (at most ``top_k``)."""
        questions = texts(questions, "questions")
        # All of each source's suggestions: the agreed ones are fewer, and top_k applies to them.
        ranked = self.first.suggest(questions)
        votes = [other.suggest(questions) for other in self.others]
        results = []
        for n, suggestions in enumerate(ranked):
            offered = [self._offered(per_source[n]) for per_source in votes]
            kept = [s for s in suggestions if all(self._agrees(s, o) for o in offered)]
            results.append(kept[:top_k] if top_k else kept)
        return results

    def _offered(self, suggestions: list[Suggestion]) -> list[tuple[frozenset[str], frozenset[str]]]:
        return [(_key(s.matched, self.lang), _key(s.text, self.lang)) for s in suggestions]

    def _agrees(self, s: Suggestion, offered: list[tuple[frozenset[str], frozenset[str]]]) -> bool:
        matched, text = _key(s.matched, self.lang), _key(s.text, self.lang)
        return any(matched & m and text & t for m, t in offered)


class Union:
    """Each question's suggestions of every one of ``sources`` (two or more), the first source's first; a
    phrase suggested for the same words twice is kept once. Each suggestion's ``tier`` is its source's place (after the tiers of
    a nested union), so a ranker that reorders suggestions keeps the first source's ahead: ``A|B`` prefers
    A."""

    def __init__(self, *sources: SuggestionSource):
        if len(sources) < 2:
            raise ValueError("Union needs at least two sources")
        self.sources = sources
        self.name = "|".join(s.name for s in sources)
        self.files = tuple(f for s in sources for f in getattr(s, "files", ()))

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        """Ranked suggestions for each of ``questions``, best first (at most ``top_k``)."""
        questions = texts(questions, "questions")
        per_source = [source.suggest(questions) for source in self.sources]
        # tiers: a nested union's own tiers come first, the next source starts after them
        offsets, start = [], 0
        for found in per_source:
            offsets.append(start)
            start += 1 + max((s.tier for f in found for s in f), default=0)
        results = []
        for n in range(len(questions)):
            seen, kept = set(), []
            for found, offset in zip(per_source, offsets, strict=True):
                for s in found[n]:
                    if (s.text, s.span) not in seen:
                        seen.add((s.text, s.span))
                        kept.append(replace(s, tier=s.tier + offset) if offset else s)
            results.append(kept[:top_k] if top_k else kept)
        return results
