"""Stop lists that work with nothing downloaded. The default source is fixed (spaCy's lists, not "whatever
is installed"), so that the same command gives the same output on every machine.
"""

from __future__ import annotations

import os
from functools import lru_cache

from paraguide.data.io import iter_lines
from paraguide.text.tokenize import check_lang

DEFAULT_SOURCES = ("spacy",)
_NLTK_NAMES = {"en": "english", "zh": "chinese"}


@lru_cache(maxsize=32)
def load_stopwords(lang: str, sources: tuple[str, ...] = DEFAULT_SOURCES) -> frozenset[str]:
    """Lower-cased stop words for ``lang``, the union of the given sources: ``"spacy"`` (the default:
    spaCy's built-in ``en`` / ``zh`` lists, shipped inside the package), ``"nltk"`` (NLTK's stopwords corpus,
    English 179 words, needs ``NLTK_DATA``) or a file path (one word per line, UTF-8, e.g. the Baidu / HIT
    Chinese lists)."""
    check_lang(lang)
    words: set[str] = set()
    for source in sources:
        if source == "spacy":
            words |= _spacy(lang)
        elif source == "nltk":
            words |= _nltk(lang)
        elif os.path.exists(source):
            words |= {line.strip().lower() for _, line in iter_lines(source) if line.strip()}
        else:
            raise ValueError(f"unknown stop-word source {source!r}: use 'spacy', 'nltk' or a file path")
    return frozenset(words)


def _spacy(lang: str) -> set[str]:
    if lang == "en":
        from spacy.lang.en.stop_words import STOP_WORDS
    else:
        from spacy.lang.zh.stop_words import STOP_WORDS
    return {w.lower() for w in STOP_WORDS}


def _nltk(lang: str) -> set[str]:
    from nltk.corpus import stopwords

    try:
        return {w.lower() for w in stopwords.words(_NLTK_NAMES[lang])}
    except (LookupError, OSError) as e:
        raise ValueError(
            f"NLTK stopwords for {lang!r} are not installed; set NLTK_DATA to a folder holding "
            "corpora/stopwords.zip, or use the 'spacy' source"
        ) from e


def is_stop_phrase(tokens: list[str] | tuple[str, ...], stopwords: frozenset[str]) -> bool:
    """True if every word-like token of the phrase is a stop word (punctuation is ignored)."""
    words = [t.lower() for t in tokens if is_word(t)]
    return all(w in stopwords for w in words)


@lru_cache(maxsize=1 << 16)
def is_stop_text(text: str, lang: str, stopwords: frozenset[str]) -> bool:
    """:func:`is_stop_phrase` of ``text`` tokenised on its own. A phrase cut from a sentence can segment
    differently alone (jieba: "看下" is one word in context, "看" + "下" alone), and a suggestion is
    seen alone, so both views must pass. Cached: the same phrases recur across a corpus."""
    from paraguide.text.tokenize import tokenize

    return is_stop_phrase(tokenize(text, lang), stopwords)


def is_word(token: str) -> bool:
    """A token holding at least one letter, digit or CJK character (not punctuation alone)."""
    return any(ch.isalnum() for ch in token)
