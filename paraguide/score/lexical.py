"""LCQMC's unsupervised matching measures (Liu et al. 2018, §4.1.1) over words (jieba for Chinese):
word overlap, n-gram overlap, edit similarity (defined on their functions) and tf.idf cosine
(:class:`LexicalScorer`).
Reproduced results against the paper's table: docs/score.md.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

from paraguide.arguments import pairs as checked_pairs
from paraguide.text.ngrams import ngrams
from paraguide.text.tokenize import tokenize

MEASURES = ("word_overlap", "ngram_overlap", "edit_similarity", "cosine")


def word_overlap(a: Sequence[str], b: Sequence[str]) -> float:
    """C_wo = |S1 ∩ S2| / avg(|S1|, |S2|) over the two sets of words (Dolan et al. 2004)."""
    sa, sb = set(a), set(b)
    mean = (len(sa) + len(sb)) / 2
    return len(sa & sb) / mean if mean else 0.0


def ngram_overlap(a: Sequence[str], b: Sequence[str], n_max: int = 4) -> float:
    """C_ngram = 1/N Σ_{n=1..N} |G_n(S1) ∩ G_n(S2)| / avg(|G_n(S1)|, |G_n(S2)|), N = ``n_max``, over the
    sets of n-grams (a sentence shorter than n contributes an empty set; 0/0 counts as 0)."""
    total = 0.0
    for n in range(1, n_max + 1):
        ga, gb = set(ngrams(a, n)), set(ngrams(b, n))
        mean = (len(ga) + len(gb)) / 2
        total += len(ga & gb) / mean if mean else 0.0
    return total / n_max


def edit_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance between two word sequences (substitutions, insertions, deletions)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def edit_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """1 − D / max(|S1|, |S2|), D the word edit distance (Bernhard & Gurevych 2008). Normalised because
    LCQMC thresholds "edit distance" at 0.2 with "over the threshold means matching", which only makes
    sense for a similarity in [0, 1]."""
    longest = max(len(a), len(b))
    return 1 - edit_distance(a, b) / longest if longest else 1.0


class LexicalScorer:
    """``LexicalScorer("word_overlap", lang="zh").score([(a, b), ...])``: one of :data:`MEASURES` over
    lower-cased words. ``cosine`` is the cosine of tf.idf vectors (sklearn's default weighting: raw counts ×
    smoothed idf ln((1 + n) / (1 + df)) + 1, L2-normalised), the idf fitted by :meth:`fit`, else on the
    sentences being scored."""

    def __init__(self, measure: str = "word_overlap", lang: str = "en"):
        if measure not in MEASURES:
            raise ValueError(f"unknown lexical measure {measure!r}; choose one of {', '.join(MEASURES)}")
        self.measure, self.lang = measure, lang
        self.name = f"lexical:{measure}"
        self.files: tuple = ()
        self.idf: dict[str, float] | None = None
        self._default_idf = 1.0

    def words(self, text: str) -> list[str]:
        """Lower-cased tokens of ``text`` (jieba for Chinese; punctuation kept, as the tokenizer gives it)."""
        return [w.lower() for w in tokenize(text, self.lang) if w.strip()]

    def fit(self, corpus: Iterable[str]) -> LexicalScorer:
        """Fit the tf.idf weights of ``cosine`` on a corpus of sentences."""
        return self._fit_words(self.words(text) for text in corpus)

    def _fit_words(self, sentences: Iterable[list[str]]) -> LexicalScorer:
        df: Counter[str] = Counter()
        n = 0
        for words in sentences:
            df.update(set(words))
            n += 1
        self.idf = {w: math.log((1 + n) / (1 + c)) + 1 for w, c in df.items()}
        self._default_idf = math.log(1 + n) + 1  # a word never seen: df = 0
        return self

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """The measure of each pair, in order."""
        pairs = checked_pairs(pairs)
        tokenized = [(self.words(a), self.words(b)) for a, b in pairs]
        if self.measure == "word_overlap":
            return [word_overlap(a, b) for a, b in tokenized]
        if self.measure == "ngram_overlap":
            return [ngram_overlap(a, b) for a, b in tokenized]
        if self.measure == "edit_similarity":
            return [edit_similarity(a, b) for a, b in tokenized]
        if self.idf is None:  # fit on what is scored
            self._fit_words(words for pair in tokenized for words in pair)
            scores = [self._cosine(a, b) for a, b in tokenized]
            self.idf = None
            return scores
        return [self._cosine(a, b) for a, b in tokenized]

    def _cosine(self, a: list[str], b: list[str]) -> float:
        va, vb = self._vector(a), self._vector(b)
        dot = sum(v * vb.get(w, 0.0) for w, v in va.items())
        return dot  # both L2-normalised

    def _vector(self, words: list[str]) -> dict[str, float]:
        idf = self.idf or {}
        vector = {w: c * idf.get(w, self._default_idf) for w, c in Counter(words).items()}
        norm = math.sqrt(sum(v * v for v in vector.values()))
        return {w: v / norm for w, v in vector.items()} if norm else {}
