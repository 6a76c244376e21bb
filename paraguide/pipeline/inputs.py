"""What the builders read and write: SQuAD records and question pairs as :class:`Item` streams, and the
output records built from them.

SQuAD: every question becomes one item (its first answer guards the answer-leak filter and types the
adversarial distractors). Answers are checked against their context: an answer whose text is not in the
context is an error naming the question and field; an ``answer_start`` that is wrong or -1 (DuReader-robust
dev) is located in the context for the suggestion sources and counted, and an empty answer text is counted
and not used -- the written files keep every answer exactly as it was. The whole file is checked before
any work starts (:func:`count_questions`), so a bad record stops a run before it costs anything.

Pairs (LCQMC, BQ, Quora-style TSV, MRPC, JSONL): pair ``n`` gives the items ``"n:a"`` and/or ``"n:b"``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from paraguide.data.pairs import Pair, read_pairs
from paraguide.data.squad import SquadReader, answer_matches, locate
from paraguide.errors import BadRecords, DataError
from paraguide.pipeline.records import Item

SIDES = ("a", "b", "both")


@dataclass
class InputReport:
    """What reading the input found: questions, answers checked, offsets located, empty answers."""

    questions: int = 0
    answers_checked: int = 0
    answer_offsets_located: int = 0  # wrong or -1 answer_start, text found in the context
    empty_answers: int = 0  # answers with an empty text (kept as they are, not used)
    located_examples: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        """JSON-ready, with at most 20 example ids."""
        return {
            "questions": self.questions,
            "answers_checked": self.answers_checked,
            "answer_offsets_located": self.answer_offsets_located,
            "empty_answers": self.empty_answers,
            "located_examples": self.located_examples[:20],
        }


def squad_items(path: str | os.PathLike, report: InputReport | None = None) -> Iterator[tuple[dict, Item]]:
    """``(flat record, item)`` for every question of a SQuAD-format file, in file order (streamed)."""
    report = report if report is not None else InputReport()
    reader = SquadReader(path)
    for record in reader:
        context, first = record["context"], None
        for k, answer in enumerate(record["answers"]):
            report.answers_checked += 1
            start = answer["answer_start"]
            if not answer["text"].strip():  # DuReader-robust dev has a few: nothing to check or locate
                report.empty_answers += 1
                continue
            if not answer_matches(context, answer):
                start = locate(context, answer["text"], start)
                if start < 0:
                    raise DataError(
                        os.fspath(path),
                        f"answer {answer['text']!r} is not in the context",
                        record=f"id {record['id']}",
                        field=f"answers[{k}].text",
                    )
                report.answer_offsets_located += 1
                if len(report.located_examples) < 20:
                    report.located_examples.append(str(record["id"]))
            if first is None:
                first = (answer["text"], start)
        report.questions += 1
        answer, start = first if first else (None, None)
        yield record, Item(str(record["id"]), record["question"], answer, context, start)


def count_questions(squad: str | None, pairs: str | None, side: str, fmt: str) -> int:
    """Read the whole input once, checking every record: the number of questions to paraphrase."""
    if squad:
        return sum(1 for _ in squad_items(squad))
    return sum(len(items) for _, items in pair_items(pairs, side, fmt))


def pair_items(path: str | os.PathLike, side: str, fmt: str = "auto") -> Iterator[tuple[Pair, list[Item]]]:
    """``(pair, items)`` for every pair of a file: one item per side to paraphrase."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; choose one of {', '.join(SIDES)}")
    for n, pair in enumerate(read_pairs(path, fmt, BadRecords(skip=False))):
        items = []
        if side in ("a", "both"):
            items.append(Item(f"{n}:a", pair.a, side="a"))
        if side in ("b", "both"):
            items.append(Item(f"{n}:b", pair.b, side="b"))
        yield pair, items


def unique_id(original: str, suffix: str, taken: set[str]) -> str:
    """``<original>_<suffix>``, or with a counter if some input question already has that id."""
    new, k = f"{original}_{suffix}", 1
    while new in taken:
        k += 1
        new = f"{original}_{suffix}{k}"
    taken.add(new)
    return new


def read_items(config, inputs: InputReport) -> Iterator[Item]:
    """The input's questions, in file order (checked; ``inputs`` counts what the check found)."""
    if config.squad:
        for _, item in squad_items(config.squad, inputs):
            yield item
    else:
        for _, items in pair_items(config.pairs, config.side, config.pairs_format):
            inputs.questions += len(items)
            yield from items
