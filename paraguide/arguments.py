"""Checks of the Python API's arguments, so that a wrong type is a clear TypeError at the call, not a wrong
result: a string where a list of strings is expected would otherwise be taken character by character, and
a triple where a pair is expected would shift every later score."""

from __future__ import annotations

from collections.abc import Iterable


def texts(value: Iterable[str], name: str) -> list[str]:
    """``value`` as a list of strings, or a TypeError naming the argument ``name`` (a lone string included:
    ``suggest("text")`` means ``suggest(["text"])``, which the message says)."""
    if isinstance(value, (str, bytes)):
        shown = value if len(value) <= 40 else value[:37] + "..."
        raise TypeError(f"{name}: expected a list of strings, got one string {shown!r} (give [{shown!r}])")
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{name}: expected a list of strings, got {type(value).__name__}") from None
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"{name}[{i}]: expected a string, got {type(item).__name__}")
    return items


def pairs(value: Iterable[tuple[str, str]], name: str = "pairs") -> list[tuple[str, str]]:
    """``value`` as a list of (a, b) string pairs, or a TypeError naming the first item that is not one."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name}: expected a list of (a, b) pairs, got a string")
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{name}: expected a list of (a, b) pairs, got {type(value).__name__}") from None
    out = []
    for i, item in enumerate(items):
        if isinstance(item, (str, bytes)) or not isinstance(item, (tuple, list)) or len(item) != 2:
            got = f"{len(item)} items" if isinstance(item, (tuple, list)) else type(item).__name__
            raise TypeError(f"{name}[{i}]: expected a pair (a, b) of two strings, got {got}")
        if not all(isinstance(t, str) for t in item):
            raise TypeError(f"{name}[{i}]: expected a pair (a, b) of two strings")
        out.append((item[0], item[1]))
    return out
