"""Options documented once: ``option(help, default)`` is a dataclass field whose help text the CLI shows
(``paraguide.cli`` builds each command's options from its configuration dataclass)."""

from __future__ import annotations

from dataclasses import field


def option(help: str, default=None, **metadata):
    """A dataclass field with ``metadata["help"]``; ``cli=False`` keeps it off the command line,
    ``augment=True`` marks an option of ``augment`` only."""
    return field(default=default, metadata={"help": help, **metadata})
