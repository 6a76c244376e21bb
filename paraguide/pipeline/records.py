"""The typed records that cross the builders' seams: an :class:`Item` goes in, an :class:`Outcome` comes out
(selected with the :class:`Choice` of each step, or dropped with the stage and reason). ``Outcome.to_json`` is
the shard format of a run (``OUTCOME_FORMAT``): what ``--resume`` reads back with ``Outcome.from_json``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# Bumped whenever Outcome.to_json changes: a run's configuration records it, so --resume refuses shards
# written in another format instead of misreading them.
OUTCOME_FORMAT = 1


@dataclass
class Item:
    """One question to paraphrase. QA items carry their answer and context (the answer-leak filter and
    the adversarial context source need them); pair items carry the side of the pair they come from."""

    key: str  # unique within a run: the SQuAD id, or "<pair>:<side>" for question pairs
    question: str
    answer: str | None = None
    context: str | None = None
    answer_start: int | None = None
    side: str | None = None  # pairs: "a" or "b"


@dataclass
class Choice:
    """One accepted paraphrase at one step, and how it was made."""

    paraphrase: str
    suggestion: str
    matched: str  # the question's phrase the suggestion replaces ("" when unknown)
    suggestion_source: str
    relation: str
    scores: dict[str, float]
    origin: str  # "in_place" (the suggestion put in place), "paraphraser" (a beam) or "reorder:RULE"
    step: int
    candidates: int  # candidates generated at this step
    accepted: int  # of which the filters accepted

    def to_json(self) -> dict:
        """A JSON-ready dict of the fields."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Choice:
        """The inverse of :meth:`to_json`."""
        return cls(**{k: data[k] for k in cls.__dataclass_fields__})


@dataclass
class Outcome:
    """What became of one question: ``steps`` holds the chosen paraphrase of every step (the last one is
    the paraphrase) and is empty when the question was dropped, at ``stage`` for ``reason``."""

    key: str
    steps: list[Choice] = field(default_factory=list)
    # other accepted paraphrases of the last step (augment --per-question); None: none were asked for
    alternatives: list[Choice] | None = None
    stage: str | None = None  # dropped: the furthest stage any candidate reached
    reason: str | None = None
    candidates: int = 0  # dropped: candidates generated
    candidate_drops: dict[str, int] = field(default_factory=dict)  # candidates dropped, per stage

    @property
    def selected(self) -> bool:
        """Whether a paraphrase was accepted."""
        return bool(self.steps)

    @property
    def status(self) -> str:
        """Either "selected" or "dropped"."""
        return "selected" if self.steps else "dropped"

    @property
    def chosen(self) -> Choice:
        """The last step's choice (selected outcomes only; a dropped one is a ValueError saying why)."""
        if not self.steps:
            raise ValueError(
                f"question {self.key} has no paraphrase: it was dropped at {self.stage} ({self.reason}); "
                "check .selected first"
            )
        return self.steps[-1]

    @property
    def paraphrase(self) -> str:
        """The accepted paraphrase (selected outcomes only)."""
        return self.chosen.paraphrase

    def paths(self) -> list[list[Choice]]:
        """The chosen paraphrase's steps, then each alternative's (the same earlier steps, its own last)."""
        if not self.steps:
            return []
        return [self.steps] + [[*self.steps[:-1], a] for a in self.alternatives or ()]

    def to_json(self) -> dict:
        """A flat, JSON-ready dict: a selected outcome carries its last choice's fields at the top."""
        if not self.steps:
            return {
                "key": self.key,
                "status": "dropped",
                "stage": self.stage,
                "reason": self.reason,
                "candidates": self.candidates,
                "candidate_drops": dict(self.candidate_drops),
            }
        data = {"key": self.key, "status": "selected", **self.chosen.to_json()}
        if self.alternatives is not None:
            data["alternatives"] = [a.to_json() for a in self.alternatives]
        data["steps"] = [s.to_json() for s in self.steps]
        data["step"] = len(self.steps)
        data["candidate_drops"] = dict(self.candidate_drops)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Outcome:
        """The inverse of :meth:`to_json` (a shard line's result)."""
        drops = dict(data.get("candidate_drops", {}))
        if data["status"] == "dropped":
            return cls(data["key"], stage=data["stage"], reason=data["reason"],
                       candidates=data["candidates"], candidate_drops=drops)  # fmt: skip
        alternatives = data.get("alternatives")
        return cls(
            data["key"],
            steps=[Choice.from_json(s) for s in data["steps"]],
            alternatives=None if alternatives is None else [Choice.from_json(a) for a in alternatives],
            candidate_drops=drops,
        )
