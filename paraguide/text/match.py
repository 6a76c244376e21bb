"""Does a text contain a phrase? Case-free, whole words for English, any substring for Chinese."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def includes(text: str, suggestion: str) -> bool:
    """Does ``text`` contain ``suggestion`` (case-free; whole words unless it is Chinese; spaces ignored in
    Chinese)? An empty suggestion is never contained."""
    if not suggestion:
        return False
    text, suggestion = " ".join(text.lower().split()), " ".join(suggestion.lower().split())
    if _CJK.search(suggestion):
        return suggestion.replace(" ", "") in text.replace(" ", "")
    return re.search(r"(?<!\w)" + re.escape(suggestion) + r"(?!\w)", text) is not None


def contains(text: str, phrase: str, lang: str) -> bool:
    """:func:`includes` for a text of a known language: in Chinese any substring (spaces ignored), even of
    digits inside a longer run ("1998" in "1998年"), which :func:`includes` would take for part of a word."""
    if lang == "zh":
        phrase = phrase.replace(" ", "").lower()
        return bool(phrase) and phrase in text.replace(" ", "").lower()
    return includes(text, phrase)
