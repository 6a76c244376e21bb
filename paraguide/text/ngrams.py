"""N-grams and token-sequence containment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def ngrams(tokens: Sequence[T], n: int) -> list[tuple[T, ...]]:
    """All contiguous n-grams of ``tokens``, in order."""
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)] if n > 0 else []


def ngram_spans(tokens: Sequence[T], max_n: int, min_n: int = 1) -> list[tuple[int, int]]:
    """``(start, end)`` token spans of every n-gram with ``min_n <= n <= max_n``, shortest first."""
    return [(i, i + n) for n in range(min_n, max_n + 1) for i in range(len(tokens) - n + 1)]


def contains_sequence(haystack: Sequence[T], needle: Sequence[T]) -> bool:
    """True if ``needle`` occurs in ``haystack`` as a contiguous subsequence."""
    n = len(needle)
    if n == 0:
        return True
    first = needle[0]
    return any(
        haystack[i] == first and tuple(haystack[i : i + n]) == tuple(needle)
        for i in range(len(haystack) - n + 1)
    )
