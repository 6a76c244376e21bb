"""Suggestions from phrase alignments (Gan & Ng §2.2.2, fig. 2).

A word alignment between source and target comes from the corpus (paralex ``i-j`` links over whitespace
tokens) or, where the corpus has none, from a monolingual alignment computed here:

- tokens are compared by a key (English: lower-cased Porter stem, so "peppers" meets "pepper"; Chinese:
  the jieba word), and the longest matching blocks (difflib, Ratcliff-Obershelp) link token to token;
- a replaced block of equal length on both sides links diagonally ("movies seen" / "films watched");
  an unequal one ("how can i" / "what is the fastest way to") stays unlinked: it is new material;
- left-over tokens with equal keys link greedily, left to right (reordered words).

Candidates are (1) the target sides of the phrase pairs consistent with the alignment, as in
phrase-based MT (Och & Ney; Koehn 2010 §5.2.3: a target span with at least one link whose linked source
span links back only inside it), and (2) the n-grams inside runs of unlinked target tokens that begin and
end with a non-stop word ("fastest way"). A candidate must not occur in the source, must not be stop
words alone and must neither start nor end with punctuation. Ranked: no stop word at an edge first, then
shorter, then left to right (fig. 2: "pepper", "contain", …, "a green").
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import NamedTuple

from paraguide.data.pairs import Alignment
from paraguide.text.ngrams import contains_sequence
from paraguide.text.stopwords import is_stop_phrase, is_stop_text, is_word, load_stopwords
from paraguide.text.tokenize import Token, check_lang, tokenize_spans

_NONSPACE = re.compile(r"\S+")


class Phrase(NamedTuple):
    """A candidate phrase of the target: its ``text``, lower-cased ``words`` and token span."""

    text: str
    words: tuple[str, ...]  # lower-cased tokens
    start: int  # token span in the target
    end: int


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


def whitespace_spans(text: str) -> list[Token]:
    """The whitespace-separated tokens of ``text`` with their character spans (what corpus alignments index)."""
    return [Token(m.group(), m.start(), m.end()) for m in _NONSPACE.finditer(text)]


def monolingual_alignment(source: list[str], target: list[str], lang: str) -> Alignment:
    """Word alignment of the token lists ``source`` and ``target``, both in ``lang`` (see module docstring):
    sorted ``(source index, target index)`` links."""
    if lang == "en":
        stem = _stemmer().stem
        src_keys, tgt_keys = [stem(t.lower()) for t in source], [stem(t.lower()) for t in target]
    else:
        src_keys, tgt_keys = [t.lower() for t in source], [t.lower() for t in target]
    links: set[tuple[int, int]] = set()
    matcher = difflib.SequenceMatcher(None, src_keys, tgt_keys, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            links.update((i1 + k, j1 + k) for k in range(i2 - i1))
    free_src = [i for i in range(len(source)) if all(i != a for a, _ in links)]
    for j in range(len(target)):
        if any(j == b for _, b in links):
            continue
        match = next((i for i in free_src if src_keys[i] == tgt_keys[j]), None)
        if match is not None:
            links.add((match, j))
            free_src.remove(match)
    return tuple(sorted(links))


def target_phrases(n_target: int, links: Alignment, max_len: int) -> list[tuple[int, int]]:
    """Target spans ``[j1, j2)`` of the phrase pairs consistent with the alignment, up to ``max_len``
    tokens on each side."""
    spans = []
    for j1 in range(n_target):
        for j2 in range(j1 + 1, min(n_target, j1 + max_len) + 1):
            src = [i for i, j in links if j1 <= j < j2]
            if not src:
                continue
            i1, i2 = min(src), max(src) + 1
            if i2 - i1 > max_len:
                continue
            if all(j1 <= j < j2 for i, j in links if i1 <= i < i2):
                spans.append((j1, j2))
    return spans


def unaligned_spans(n_target: int, links: Alignment, max_len: int) -> list[tuple[int, int]]:
    """Spans ``[j1, j2)`` of up to ``max_len`` tokens lying wholly inside runs of unlinked target tokens."""
    linked = {j for _, j in links}
    return [
        (j1, j2)
        for j1 in range(n_target)
        for j2 in range(j1 + 1, min(n_target, j1 + max_len) + 1)
        if not linked.intersection(range(j1, j2))
    ]


class AlignmentSuggester:
    """Training suggestions from a paraphrase pair: the phrases of the target that rewrite the source (see
    module docstring). ``lang``: "en" or "zh"; ``max_len``: the longest phrase, in tokens; ``stopwords``:
    the language's list unless given."""

    def __init__(self, lang: str = "en", max_len: int = 4, stopwords: frozenset[str] | None = None):
        self.lang = check_lang(lang)
        self.max_len = max_len
        self.stopwords = stopwords if stopwords is not None else load_stopwords(lang)

    def spans(self, text: str, alignment: Alignment | None = None) -> list[Token]:
        """The tokens candidates are built from: whitespace tokens when a corpus alignment indexes them,
        else the language's tokenizer."""
        return whitespace_spans(text) if alignment is not None else tokenize_spans(text, self.lang)

    def candidates(
        self,
        source: str,
        target: str,
        alignment: Alignment | None = None,
        spans: tuple[list[Token], list[Token]] | None = None,
    ) -> list[Phrase]:
        """Ranked suggestions for rewriting ``source`` into ``target``. With a corpus ``alignment`` the
        links index the whitespace tokens of both questions. ``spans``: the two texts' :meth:`spans`,
        when the caller has them already."""
        src, tgt = spans or (self.spans(source, alignment), self.spans(target, alignment))
        if alignment is None:
            alignment = monolingual_alignment([t.text for t in src], [t.text for t in tgt], self.lang)
        src_words = [t.text.lower() for t in src]
        source_lower = source.lower()
        out, seen = [], set()
        unlinked = [
            (j1, j2)
            for j1, j2 in unaligned_spans(len(tgt), alignment, self.max_len)
            if tgt[j1].text.lower() not in self.stopwords and tgt[j2 - 1].text.lower() not in self.stopwords
        ]
        for j1, j2 in target_phrases(len(tgt), alignment, self.max_len) + unlinked:
            words = tuple(t.text.lower() for t in tgt[j1:j2])
            if words in seen or not is_word(words[0]) or not is_word(words[-1]):
                continue
            seen.add(words)
            if is_stop_phrase(words, self.stopwords):
                continue
            text = target[tgt[j1].start : tgt[j2 - 1].end]
            if self.lang == "zh" and is_stop_text(text, self.lang, self.stopwords):  # see TextRank.rank
                continue
            if occurs_in(text, words, source_lower, src_words, self.lang):
                continue
            out.append(Phrase(text, words, j1, j2))
        stop = self.stopwords
        return sorted(
            out, key=lambda p: (p.words[0] in stop or p.words[-1] in stop, p.end - p.start, p.start)
        )


def occurs_in(
    text: str, words: tuple[str, ...], source_lower: str, source_words: list[str], lang: str
) -> bool:
    """Does a phrase (``text``, its lower-cased ``words``) occur in the source (``source_lower``, its
    lower-cased ``source_words``)? English: as a token sequence. Chinese: as a substring, since jieba may
    cut the same characters differently in another sentence."""
    if lang == "zh":
        return text.lower().replace(" ", "") in source_lower.replace(" ", "")
    return contains_sequence(source_words, words)


def replaced_phrase(source: str, target: str, phrase: str, lang: str = "en", max_len: int = 4) -> str:
    """The source phrase that ``phrase`` (a phrase of ``target``) replaces when ``source`` is rewritten into
    ``target``, or "" when it replaces nothing (new material, or a span the alignment cannot pin down).

    From the monolingual alignment (see module docstring): a target span with links takes the source span
    its links cover, if that span links back only inside it (a consistent phrase pair; "erected" <-
    "built"); a span with no links takes the unlinked source tokens between the source tokens its linked
    neighbours point to ("fastest way to learn" <- "learn ... quickly" gives ""; "movies" <- "films").
    At use time a PPDB, WordNet or Cilin suggestion replaces a known n-gram of the question; training on
    such (matched, suggestion) pairs teaches the paraphraser to *substitute*, not to insert."""
    src, tgt = tokenize_spans(source, lang), tokenize_spans(target, lang)
    words = [t.text.lower() for t in tokenize_spans(phrase, lang)]
    tgt_words = [t.text.lower() for t in tgt]
    j1 = next((j for j in range(len(tgt) - len(words) + 1) if tgt_words[j : j + len(words)] == words), None)
    if not words or j1 is None:
        return ""
    j2 = j1 + len(words)
    links = monolingual_alignment([t.text for t in src], [t.text for t in tgt], lang)
    linked = [i for i, j in links if j1 <= j < j2]
    if linked:
        i1, i2 = min(linked), max(linked) + 1
        if any(i1 <= i < i2 and not j1 <= j < j2 for i, j in links):
            return ""
    else:
        left = [i for i, j in links if j == j1 - 1]
        right = [i for i, j in links if j == j2]
        i1 = left[0] + 1 if left else 0
        i2 = right[0] if right else len(src)
        if (not left and not right) or i2 <= i1 or any(i1 <= i < i2 for i, _ in links):
            return ""
    if i2 - i1 > max_len:
        return ""
    return source[src[i1].start : src[i2 - 1].end]
