"""How far a rewrite is from its original, in tokens: what "still changes the question" is measured by."""

from __future__ import annotations

from paraguide.text.tokenize import tokenize


def edit_rate(original: str, rewrite: str, lang: str = "en") -> float:
    """Token-level Levenshtein distance over the original's length (lower-cased tokens; Chinese: jieba
    words). 0 for the same question; a one-word substitution in a ten-word question gives 0.1."""
    a = [t.lower() for t in tokenize(original, lang)]
    b = [t.lower() for t in tokenize(rewrite, lang)]
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
        previous = current
    return previous[-1] / max(1, len(a))


def one_word_added_or_removed(original: str, rewrite: str, lang: str = "en") -> bool:
    """Does the rewrite differ from the original only by one inserted or deleted token?"""
    a = [t.lower() for t in tokenize(original, lang)]
    b = [t.lower() for t in tokenize(rewrite, lang)]
    if abs(len(a) - len(b)) != 1:
        return False
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
