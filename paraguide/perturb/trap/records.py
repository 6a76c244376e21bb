"""The records a trap is made of: the question's frame (its words with a slot for the distractor), the
change made to the question, and the trap itself."""

from __future__ import annotations

from dataclasses import dataclass

POSITIONS = ("end", "before_answer")
NUMERIC_TYPES = ("date", "year", "time", "percent", "money", "quantity", "ordinal", "number")
TIME_TYPES = ("date", "year", "time")
AMOUNT_TYPES = ("number", "quantity", "money", "percent")


class _Slot:
    """Where the distractor goes in a statement's parts."""

    def __repr__(self) -> str:
        return "SLOT"


SLOT = _Slot()
TIME_PREP = "<time>"  # "in 1856", "on May 5", "at noon": chosen by the distractor


@dataclass(frozen=True)
class Frame:
    """A question turned into a statement with a slot for the distractor: ``parts`` in order, each a span
    ``(start, end)`` of the question copied as it is, a word put in, or :data:`SLOT`; ``prep`` goes before
    the distractor ("in", or :data:`TIME_PREP`), ``unit`` after it ("how many *touchdowns*"); ``types``:
    the answer types the question word allows; ``pattern``: the rule that built it."""

    parts: tuple
    pattern: str
    types: tuple[str, ...]
    prep: str = ""
    unit: str = ""
    noun: str = ""  # the head noun of the wh-phrase ("which *team*"), what kind of thing is asked for
    wh: str = ""  # the question word (English: who, what, how many ...)


@dataclass(frozen=True)
class Mutation:
    """What was changed in the question's own words so that the trap talks about something else: ``old``
    at character ``start`` of the question became ``new``; ``kind``: entity, number or antonym."""

    start: int
    old: str
    new: str
    kind: str


@dataclass(frozen=True)
class Trap:
    """A trap sentence for one question: the ``sentence``, its ``distractor`` entity and ``type``, where the
    distractor came from (``source``: passage or file), the question ``mutation`` and the ``pattern``."""

    sentence: str
    distractor: str
    type: str
    source: str
    mutation: Mutation
    pattern: str


@dataclass(frozen=True)
class Inserted:
    """A passage with its trap: the new ``context``, the trap's character ``offset`` in it, and the
    ``answers`` (and ``plausible_answers``) with their offsets shifted."""

    context: str
    offset: int
    answers: list[dict]
    plausible_answers: list[dict] | None = None
