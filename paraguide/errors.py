"""Exceptions shared by every layer.

A :class:`DataError` always names where the problem is (file, line or record, field) so that a user can
open the file and fix it; the CLI prints it and exits non-zero.
"""

from __future__ import annotations


class ParaguideError(Exception):
    """Base class of paraguide's own errors."""


class DataError(ParaguideError, ValueError):
    """Bad input data: names the file, the line (or record) and the field with the problem."""

    def __init__(
        self,
        path: str,
        problem: str,
        *,
        line: int | None = None,
        record: str | None = None,
        field: str | None = None,
    ):
        self.path = str(path)
        self.problem = problem
        self.line = line
        self.record = record
        self.field = field
        super().__init__(self.location() + ": " + problem)

    def location(self) -> str:
        """Where the problem is: ``FILE[:LINE] [(record R)] [[field F]]``."""
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
        if self.record is not None:
            where += f" (record {self.record})"
        if self.field is not None:
            where += f" [field {self.field}]"
        return where

    def as_dict(self) -> dict:
        """The error's parts, for a job's report."""
        return {
            "file": self.path,
            "line": self.line,
            "record": self.record,
            "field": self.field,
            "problem": self.problem,
        }


class BadRecords:
    """Policy for malformed input: raise at once (default) or skip, count and list (``--skip-bad``).

    Readers call :meth:`handle` with the error; nothing is ever dropped silently.
    """

    def __init__(self, skip: bool = False, keep: int = 1000):
        self.skip = skip
        self.keep = keep
        self.count = 0
        self.errors: list[DataError] = []

    def handle(self, error: DataError) -> None:
        """Raise ``error``, or with ``skip`` count it and list it (up to ``keep`` errors)."""
        if not self.skip:
            raise error
        self.count += 1
        if len(self.errors) < self.keep:
            self.errors.append(error)

    def as_dict(self) -> dict:
        """How many records were skipped, the listed errors, and whether the list was cut short."""
        return {
            "skipped": self.count,
            "listed": [e.as_dict() for e in self.errors],
            "truncated": self.count > len(self.errors),
        }
