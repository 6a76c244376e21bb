"""TextRank key phrases (Mihalcea & Tarau 2004), for English and Chinese.

1. Tag the text; candidate words are those whose POS passes the filter and that are not stop words.
2. Graph: one vertex per distinct candidate (lower-cased); an undirected edge joins candidates that
   co-occur within ``window`` positions of the candidate sequence (M&T's best setting is window 2).
3. PageRank (damping 0.85) scores the vertices: the exact stationary vector of networkx's Google matrix,
   one small linear solve, since a question's graph has a handful of vertices (faster than power
   iteration for the same numbers: docs/prepare.md).
4. Runs of candidates adjacent in the text merge into multi-word key phrases, scored by the sum of their
   words' scores; single keywords stay key phrases too (Gan & Ng fig. 3 lists both "wifi network" and
   "network"). Questions are short, so every candidate is kept as a keyword (M&T keep the top third of
   longer abstracts); ``top`` limits that.

POS filter: M&T's best was nouns + adjectives; Gan & Ng's keywords also hold verbs ("know", "connected"),
which is where question paraphrases differ most, so nouns, adjectives and verbs are the default. Without
the English tagger data (NLTK_DATA) every non-stop word is a candidate; :attr:`TextRank.tagged` says which.
"""

from __future__ import annotations

from typing import NamedTuple

import networkx as nx
import numpy as np

from paraguide.text.pos import TaggedToken, has_tagger, pos_tag
from paraguide.text.stopwords import is_stop_text, is_word, load_stopwords
from paraguide.text.tokenize import check_lang, tokenize_spans

# Penn tag prefixes (NN*, JJ*, VB*) and jieba tag prefixes (n*, v*, a*, Latin words, idioms, set phrases,
# abbreviations).
DEFAULT_POS = {"en": ("NN", "JJ", "VB"), "zh": ("n", "v", "a", "eng", "i", "l", "j")}


class KeyPhrase(NamedTuple):
    """A key phrase of a text: its surface ``text``, lower-cased ``words``, ``score`` and character span."""

    text: str  # surface text, cut from the input
    words: tuple[str, ...]  # lower-cased tokens
    score: float
    start: int  # character span in the input
    end: int


class TextRank:
    """TextRank key phrases: ``TextRank("en").keyphrases(text)``.

    ``lang``: "en" or "zh"; ``window``: the co-occurrence window in the candidate sequence (at least 2);
    ``pos``: the POS tag prefixes of candidates (default: :data:`DEFAULT_POS`); ``stopwords``: the
    language's list unless given; ``damping``: PageRank's; ``top``: the most keywords kept (None: all)."""

    def __init__(
        self,
        lang: str = "en",
        window: int = 2,
        pos: tuple[str, ...] | None = None,
        stopwords: frozenset[str] | None = None,
        damping: float = 0.85,
        top: int | None = None,
    ):
        self.lang = check_lang(lang)
        if window < 2:
            raise ValueError("window must be at least 2 (two adjacent candidates)")
        self.window = window
        self.pos = tuple(pos) if pos is not None else DEFAULT_POS[lang]
        self.stopwords = stopwords if stopwords is not None else load_stopwords(lang)
        self.damping = damping
        self.top = top
        self.tagged = has_tagger(lang)

    def tag(self, text: str) -> list[TaggedToken]:
        """The tokens TextRank ranks: POS-tagged when the tagger is there, else untagged."""
        if self.tagged:
            return pos_tag(text, self.lang)
        return [TaggedToken(t.text, "", t.start, t.end) for t in tokenize_spans(text, self.lang)]

    def is_candidate(self, token: TaggedToken) -> bool:
        """Whether ``token`` may be a keyword: a word, no stop word or number, of a POS in the filter."""
        word = token.text.lower()
        if not is_word(word) or word in self.stopwords or word.isdigit():
            return False
        return not self.tagged or token.tag.startswith(self.pos)

    def keyphrases(self, text: str) -> list[KeyPhrase]:
        """Key phrases of ``text``, best first (ties: earlier in the text first)."""
        return self.rank(self.tag(text), text)

    def rank(self, tokens: list[TaggedToken], text: str) -> list[KeyPhrase]:
        """TextRank over already tagged tokens (their spans index into ``text``)."""
        positions = [i for i, t in enumerate(tokens) if self.is_candidate(t)]
        if not positions:
            return []
        words = [tokens[i].text.lower() for i in positions]
        graph = nx.Graph()
        graph.add_nodes_from(dict.fromkeys(words))  # insertion order: first occurrence
        for i, w in enumerate(words):
            for v in words[i + 1 : i + self.window]:
                if v != w:
                    graph.add_edge(w, v)
        scores = pagerank(graph, self.damping)
        keywords = set(sorted(scores, key=lambda w: -scores[w])[: self.top]) if self.top else set(scores)

        phrases: dict[tuple[str, ...], KeyPhrase] = {}

        def add(first: int, last: int) -> None:
            key = tuple(tokens[k].text.lower() for k in range(first, last + 1))
            score = sum(scores[w] for w in key)
            start, end = tokens[first].start, tokens[last].end
            if key in phrases and score <= phrases[key].score:
                return
            # jieba may segment a phrase differently alone than in its sentence (NLTK does not), and a
            # suggestion is read alone: it must not be stop words alone either way.
            if self.lang == "zh" and is_stop_text(text[start:end], self.lang, self.stopwords):
                return
            phrases[key] = KeyPhrase(text[start:end], key, score, start, end)

        run: list[int] = []
        for i in positions + [None]:
            if i is not None and tokens[i].text.lower() in keywords and (not run or i == run[-1] + 1):
                run.append(i)
                continue
            if len(run) > 1:
                add(run[0], run[-1])
            for k in run:
                add(k, k)
            run = [i] if i is not None and tokens[i].text.lower() in keywords else []
        return sorted(phrases.values(), key=lambda p: (-p.score, p.start))


def pagerank(graph: nx.Graph, damping: float = 0.85) -> dict[str, float]:
    """Exact PageRank: solve x = x·G, sum(x) = 1, with G networkx's Google matrix (dangling vertices
    jump uniformly, as in ``nx.pagerank``). Scores are rounded to 12 decimals so that equal scores are
    equal and ties break by position, not by floating-point noise."""
    g = nx.google_matrix(graph, alpha=damping)
    n = len(g)
    a = g.T - np.eye(n)
    a[-1, :] = 1.0
    b = np.zeros(n)
    b[-1] = 1.0
    x = np.linalg.solve(a, b)
    return {node: round(float(v), 12) for node, v in zip(graph, x, strict=True)}
