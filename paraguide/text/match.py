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
