"""Tokenisation with character spans, for English (NLTK's Treebank-style tokenizer, no downloaded data) and
Chinese (jieba, its dictionary shipped with the package). Every token carries its ``(start, end)`` span in
the input, so a phrase is always cut from the original text rather than re-joined from tokens.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import NamedTuple

LANGS = ("en", "zh")


ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "jr",
        "sr",
        "vs",
        "etc",
        "inc",
        "ltd",
        "co",
        "corp",
        "no",
        "nos",
        "rs",
        "approx",
        "dept",
        "est",
        "fig",
        "gen",
        "gov",
        "hon",
        "lt",
        "mt",
        "sgt",
        "capt",
        "col",
        "rev",
        "vol",
        "ed",
        "eds",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
_INITIALISM = re.compile(r"^(?:[^\W\d_]\.)+[^\W\d_]$")
_PERIOD_BREAK = re.compile(
    "(?<=\\.)(?=[\\s?!,;:)\\]\"'\u201d\u2019\u00bb])"
)  # then space or closing punctuation


class Token(NamedTuple):
    """A token and its ``[start, end)`` character span in the input."""

    text: str
    start: int
    end: int


def check_lang(lang: str) -> str:
    """``lang`` itself if paraguide supports it (:data:`LANGS`), else ValueError."""
    if lang not in LANGS:
        raise ValueError(f"unsupported language {lang!r}; paraguide supports {', '.join(LANGS)}")
    return lang


@lru_cache(maxsize=1)
def _nltk_tokenizer():
    from nltk.tokenize.destructive import NLTKWordTokenizer

    return NLTKWordTokenizer()


@lru_cache(maxsize=1)
def jieba_module():
    """jieba, initialised once and quiet (its dictionary loads on first use and logs to stderr)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


def tokenize_spans(text: str, lang: str) -> list[Token]:
    """Tokens of ``text`` with their spans. English: NLTK's Treebank-style tokenizer. ``word_tokenize``
    would first split sentences with Punkt (downloaded data), and NLTK applies its end-of-sentence rules
    (final period, contractions) only at the end of the string it is given, so without that step "i don't.
    how" keeps "don't." whole. Here the text is cut after every period followed by white space or closing
    punctuation ("cats.?"), each piece is tokenised on its own, and the period of a known abbreviation or
    initialism ("Mr.", "rs.", "u.s.") goes back on its word: a phrase tokenises the same alone as in its
    sentence. Chinese: jieba (Latin words in mixed text stay whole)."""
    check_lang(lang)
    if lang == "zh":
        return [Token(w, s, e) for w, s, e in jieba_module().tokenize(text) if w.strip()]
    out: list[Token] = []
    tokenizer = _nltk_tokenizer()
    piece = 0
    for end in [m.start() for m in _PERIOD_BREAK.finditer(text)] + [len(text)]:
        for s, e in tokenizer.span_tokenize(text[piece:end]):
            s, e = s + piece, e + piece
            if text[s:e] == "." and out and out[-1].end == s and _is_abbreviation(out[-1].text):
                out[-1] = Token(out[-1].text + ".", out[-1].start, e)  # "rs" + "." -> "rs."
            else:
                out.append(Token(text[s:e], s, e))
        piece = end
    return out


def _is_abbreviation(word: str) -> bool:
    return bool(_INITIALISM.match(word)) or word.lower() in ABBREVIATIONS


def tokenize(text: str, lang: str) -> list[str]:
    """Surface tokens of ``text`` (no whitespace tokens)."""
    return [t.text for t in tokenize_spans(text, lang)]
