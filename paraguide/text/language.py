"""Is an input in the language it is read as? A check on a file's first questions, so that Chinese read as
English (or the reverse) stops with a message that names the file and the ``--lang`` to give, rather than
running through every stage to an empty result.

    check_language("questions.txt", questions, "en")  # DataError if most hold CJK characters
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from paraguide.errors import DataError

SAMPLE = 1000  # questions looked at: the first ones of the file
# Han (with extensions A and the compatibility block), kana and Hangul: text --lang en cannot tokenise
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


NO_WORD = "no word to paraphrase (only emoji, symbols or punctuation)"
_WORD = re.compile(r"[^\W_]")  # a letter or digit of any script (CJK included); not emoji or symbols


def has_word(text: str) -> bool:
    """Whether ``text`` holds a letter or digit (of any script): a question of emoji, symbols or
    punctuation alone has nothing to paraphrase."""
    return _WORD.search(text) is not None


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (Han, kana or Hangul)."""
    return CJK.search(text) is not None


_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")


def not_in_language(text: str, lang: str) -> str | None:
    """Why one question is not in ``lang`` (a question of the other language below a file's
    :class:`LanguageCheck`), or None: ``en``, more CJK characters than Latin letters; ``zh``, no CJK
    character. Other languages: None."""
    if lang == "en" and len(CJK.findall(text)) > len(_LATIN.findall(text)):
        return "not English (mostly CJK characters; --lang is en)"
    if lang == "zh" and not has_cjk(text):
        return "not Chinese (no CJK character; --lang is zh)"
    return None


class LanguageCheck:
    """Fed a file's questions one by one, raises :class:`DataError` naming the file once it has seen
    ``sample`` of them (or at :meth:`done`) if most are not in ``lang``: with ``en``, most hold CJK
    characters; with ``zh``, most hold none. Other languages are not checked."""

    def __init__(self, path: str | os.PathLike, lang: str, sample: int = SAMPLE):
        self.path, self.lang, self.sample = os.fspath(path), lang, sample
        self.seen = self.cjk = 0
        self.checked = lang not in ("en", "zh")

    def feed(self, text: str) -> None:
        """One question (checked when it is the ``sample``-th)."""
        if self.checked:
            return
        self.seen += 1
        self.cjk += has_cjk(text)
        if self.seen >= self.sample:
            self.done()

    def done(self) -> None:
        """Check what was fed (the input ended before ``sample`` questions)."""
        if self.checked:
            return
        self.checked = True
        n = self.seen
        if not n:
            return
        if self.lang == "en" and self.cjk * 2 > n:
            problem = f"most questions hold CJK characters ({self.cjk} of the {n} checked), but --lang is en"
            raise DataError(self.path, problem + ": give --lang zh")
        if self.lang == "zh" and (n - self.cjk) * 2 > n:
            problem = (
                f"most questions hold no CJK characters ({n - self.cjk} of the {n} checked), but --lang is zh"
            )
            raise DataError(self.path, problem + ": give --lang en")


def check_language(path: str | os.PathLike, texts: Iterable[str], lang: str, sample: int = SAMPLE) -> None:
    """:class:`LanguageCheck` over ``texts`` (only the first ``sample`` are looked at)."""
    check = LanguageCheck(path, lang, sample)
    for text in texts:
        if check.checked:
            break
        check.feed(text)
    check.done()
