"""Part-of-speech tagging with character spans: NLTK's averaged perceptron tagger for English (Penn tags;
its data, ``averaged_perceptron_tagger_eng``, is found in NLTK's data folders, the shared datasets or the
copy bundled with paraguide, and may be absent: :func:`has_tagger` tells, and callers decide), jieba's ``posseg`` for Chinese (ICTCLAS-style
tags; it segments the text itself, so the tagged tokens are posseg's words).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from paraguide.data.shared import nltk_data_path
from paraguide.text.tokenize import check_lang, jieba_module, tokenize_spans


class TaggedToken(NamedTuple):
    """A token with its POS tag and its ``[start, end)`` character span in the tagged text."""

    text: str
    tag: str
    start: int
    end: int


class TaggerUnavailable(LookupError):
    """The English tagger's data is not installed (see :func:`has_tagger`)."""


@lru_cache(maxsize=1)
def _perceptron():
    from nltk.tag.perceptron import PerceptronTagger

    nltk_data_path()  # NLTK's own folders, then the shared data's, then the copy bundled with paraguide
    try:
        return PerceptronTagger(lang="eng")
    except (LookupError, OSError, ValueError):
        raise TaggerUnavailable(
            "NLTK's English POS tagger (averaged_perceptron_tagger_eng) was not found: "
            "python -m nltk.downloader averaged_perceptron_tagger_eng (or set NLTK_DATA to a folder holding "
            "taggers/averaged_perceptron_tagger_eng.zip); paraguide doctor lists what is found"
        ) from None


def has_tagger(lang: str) -> bool:
    """Whether :func:`pos_tag` works for ``lang``: always for Chinese; for English when NLTK's tagger data is
    found."""
    check_lang(lang)
    if lang == "zh":
        return True
    try:
        _perceptron()
    except TaggerUnavailable:
        return False
    return True


def pos_tag(text: str, lang: str) -> list[TaggedToken]:
    """Tokens of ``text`` with their POS tags and character spans."""
    check_lang(lang)
    if lang == "zh":
        import jieba.posseg

        jieba_module()
        out, pos = [], 0
        for word, flag in jieba.posseg.lcut(text):
            start = text.find(word, pos)
            pos = start + len(word)
            if word.strip():
                out.append(TaggedToken(word, flag, start, pos))
        return out
    tokens = tokenize_spans(text, lang)
    tags = _perceptron().tag([t.text for t in tokens])
    return [TaggedToken(t.text, tag, t.start, t.end) for t, (_, tag) in zip(tokens, tags, strict=True)]
