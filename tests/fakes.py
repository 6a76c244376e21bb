"""Fake pipeline components for tests: a scripted paraphraser, suggestion sources from a table, and a
scorer from a table. Tests import them as `from fakes import ...` (pytest puts tests/ on sys.path)."""

from __future__ import annotations

from paraguide.model.paraphraser import Paraphrase
from paraguide.suggest.base import Suggestion


class ScriptedParaphraser:
    """Replaces the first word the suggestion's rule names; records what it was asked."""

    def __init__(self, outputs: dict[tuple[str, str | None], str]):
        self.outputs, self.calls = outputs, []

    def paraphrase(
        self, questions, suggestions, num_beams=4, batch_size=32, matched=None, num_return_sequences=1
    ):
        self.calls.append(list(zip(questions, suggestions, strict=True)))
        return [[Paraphrase(self.outputs.get((q, s), q), 0.0, s or "", True)] for q, s in zip(questions, suggestions, strict=True)]  # fmt: skip


class RoundTripParaphraser(ScriptedParaphraser):
    """A scripted pretrained paraphraser: ranks its (one) beam as asked (``select``) and scores pairs by a
    table, ``{(from, to): mean log-probability}`` (-2.0 where not listed)."""

    def __init__(self, outputs, likelihoods: dict[tuple[str, str], float]):
        super().__init__(outputs)
        self.likelihoods, self.selects = likelihoods, []

    def paraphrase(self, questions, suggestions, select="beam", **kwargs):
        self.selects.append(select)
        return super().paraphrase(questions, suggestions, **kwargs)

    def log_likelihood(self, questions, paraphrases, batch_size=32):
        return [self.likelihoods.get((q, p), -2.0) for q, p in zip(questions, paraphrases, strict=True)]


def music_hall():
    """One question with a question-word swap and a synonym to put in place (a :class:`SpanSource` table),
    and a scripted paraphraser's free and guided rewrites of it -- the round-trip choice's scenario (its
    tests give their own likelihoods): ``(question, table, free rewrite, guided rewrite, outputs)``."""
    q = "What year was the music hall designed?"
    table = {q: [("which", "What", (0, 1)), ("planned", "designed", (6, 7))]}
    free, planned = "The music hall was designed in what year?", "In what year was the music hall planned?"
    outputs = {
        (q, None): free,
        (q, "which"): "Which year was the music hall designed?",
        (q, "planned"): planned,
    }
    return q, table, free, planned, outputs


class DictSource:
    name = "dict"

    def __init__(self, table: dict[str, list[str]]):
        self.table = table

    def suggest(self, questions, top_k=None):
        return [
            [Suggestion(s, "", None, 1.0, self.name) for s in self.table.get(q, [])][:top_k]
            for q in questions
        ]


class SpanSource:
    """Suggestions that know the span they replace, like WordNet's: {question: [(text, matched, span)]}."""

    name = "spans"

    def __init__(self, table):
        self.table = table

    def suggest(self, questions, top_k=None):
        return [
            [Suggestion(t, m, span, 1.0, self.name) for t, m, span in self.table.get(q, [])][:top_k]
            for q in questions
        ]


class TableScorer:
    name = "table"

    def __init__(self, scores):
        self.scores, self.calls = scores, 0

    def score(self, pairs):
        self.calls += 1
        return [self.scores.get(b, 0.0) for _, b in pairs]
