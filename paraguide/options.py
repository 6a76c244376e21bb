"""Options documented once: ``option(help, default)`` is a dataclass field whose help text the CLI shows
(``paraguide.cli`` builds each command's options from its configuration dataclass)."""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import field


def option(help: str, default=None, **metadata):
    """A dataclass field with ``metadata["help"]``; ``cli=False`` keeps it off the command line,
    ``augment=True`` marks an option of ``augment`` only, ``minimum=N`` the lowest value a number may take
    (on the command line and in a ``--config`` file)."""
    return field(default=default, metadata={"help": help, **metadata})


def at_least(kind: type, low: int | float):
    """An argparse type: ``kind`` (int or float) no lower than ``low`` (``option(..., minimum=low)``)."""

    def convert(text: str):
        value = kind(text)  # a ValueError: argparse's "invalid int value"
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {text}")
        return value

    convert.__name__ = kind.__name__
    convert.kind, convert.minimum = kind, low
    return convert


def config_problem(action: argparse.Action, value) -> str | None:
    """What is wrong with ``value``, given in a ``--config`` JSON file for the option ``action``: its type
    (a JSON true/false for a switch, a number of the right kind, a string, a list of strings for a repeatable
    option), its range and its choices; None when it is right. JSON null is only for options whose default
    is unset."""
    if value is None:
        return None if action.default is None and not action.required else "null is not allowed here"
    if action.nargs == 0:  # a switch: --x / --no-x
        return None if isinstance(value, bool) else f"expected true or false, got {json.dumps(value)}"
    if isinstance(action, argparse._AppendAction):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"expected a list of strings (the option is repeatable), got {json.dumps(value)}"
        return None
    kind = getattr(action.type, "kind", action.type) or str
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        return f"expected an integer, got {json.dumps(value)}"
    if kind is float and (
        isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
    ):
        return f"expected a number, got {json.dumps(value)}"
    if kind not in (int, float) and not isinstance(value, str):
        return f"expected a string, got {json.dumps(value)}"
    low = getattr(action.type, "minimum", None)
    if low is not None and value < low:
        return f"must be at least {low}, got {json.dumps(value)}"
    if action.choices is not None and value not in action.choices:
        return f"expected one of {', '.join(map(str, action.choices))}, got {json.dumps(value)}"
    return None
