"""Normalisation shared by every language: Unicode NFKC (full-width forms become half-width, which
unifies Chinese and English punctuation and digits), one space for any run of whitespace or control
characters, optional lower-casing (Gan & Ng lower-case all data)."""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"[\s\u0000-\u001f\u007f\u200b\ufeff]+")


def normalize(text: str, lowercase: bool = False) -> str:
    """``text`` in NFKC, its whitespace and control characters collapsed to single spaces and stripped;
    lower-cased with ``lowercase``."""
    text = unicodedata.normalize("NFKC", text)
    text = _SPACE.sub(" ", text).strip()
    return text.lower() if lowercase else text


def pair_key(a: str, b: str) -> tuple[str, str]:
    """Order-free key of a question pair, so that (A, B) and (B, A) are the same pair."""
    a, b = normalize(a, lowercase=True), normalize(b, lowercase=True)
    return (a, b) if a <= b else (b, a)
