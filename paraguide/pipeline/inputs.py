"""What the builders read and write: SQuAD records and question pairs as :class:`Item` streams, and the
output records built from them.

SQuAD: every question becomes one item (its first answer guards the answer-leak filter and types the
adversarial distractors). Answers are checked against their context: an answer whose text is not in the
context is an error naming the question and field (with ``--skip-bad``, the question is left out of every
file and listed in summary.json); an ``answer_start`` that is wrong or -1 (DuReader-robust dev) is located
in the context and repaired -- in the items and in every written file -- and each repair is listed in
summary.json; an empty answer text is counted, kept as it is and not used. A record with nothing to repair
is written exactly as it was read. The whole file is checked before any work starts
(:func:`count_questions`), so a bad record stops a run before it costs anything; so does an input without
a question (unless ``--allow-empty``) and one whose first questions are mostly in the other language.

Pairs (LCQMC, BQ, Quora-style TSV, MRPC, JSONL): pair ``n`` gives the items ``"n:a"`` and/or ``"n:b"``;
labels must be in the label set (``--label-set``), and bad lines stop the run (or, with ``--skip-bad``, are
left out and listed in summary.json).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from paraguide.data.io import no_records
from paraguide.data.pairs import LABELS, Pair, read_pairs
from paraguide.data.squad import SquadReader, answer_matches, locate
from paraguide.errors import BadRecords, DataError
from paraguide.pipeline.records import Item
from paraguide.text.language import LanguageCheck

SIDES = ("a", "b", "both")


@dataclass
class InputReport:
    """What reading the input found: questions, answers checked, empty answers, and -- each of them -- the
    answer offsets repaired and the records skipped (``--skip-bad``)."""

    questions: int = 0
    answers_checked: int = 0
    empty_answers: int = 0  # answers with an empty text (kept as they are, not used)
    # every answer whose answer_start was wrong or -1 and whose text was found in the context: its id, index
    # in the answers, and the old and the new (written) answer_start
    repaired: list[dict] = field(default_factory=list)
    # every record left out with --skip-bad: the error's parts (file, line, record, field, problem), and
    # the question's id for SQuAD
    skipped: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        """JSON-ready: the counts, every repaired answer and every skipped record."""
        return {
            "questions": self.questions,
            "answers_checked": self.answers_checked,
            "answer_offsets_repaired": len(self.repaired),
            "empty_answers": self.empty_answers,
            "skipped_records": len(self.skipped),
            "repaired_answers": self.repaired,
            "skipped": self.skipped,
        }


def squad_items(
    source: str | os.PathLike | SquadReader,
    report: InputReport | None = None,
    skip_bad: bool = False,
    lang: str | None = None,
    allow_empty: bool = False,
) -> Iterator[tuple[dict, Item]]:
    """``(flat record, item)`` for every question of a SQuAD-format file (a path, or a :class:`SquadReader`
    whose ``header`` is read after), in file order (streamed). The record's answers are checked: a wrong
    or -1 ``answer_start`` whose text is in the context is repaired in the record (and listed in
    ``report``); an answer whose text is not is a :class:`DataError` naming the question and field, or with
    ``skip_bad`` the question is left out and listed. A file without a question is a DataError unless
    ``allow_empty``; given ``lang``, so is one whose first questions are mostly in the other language."""
    report = report if report is not None else InputReport()
    reader = source if isinstance(source, SquadReader) else SquadReader(source)
    path = reader.path
    language = LanguageCheck(path, lang) if lang else None
    found = skipped = 0
    for record in reader:
        try:
            answers, first, repaired, empty = _checked_answers(path, record)
        except DataError as e:
            if not skip_bad:
                raise
            skipped += 1
            report.skipped.append({"id": record["id"], **e.as_dict()})
            continue
        if repaired:
            record = {**record, "answers": answers}
        report.answers_checked += len(answers)
        report.empty_answers += empty
        report.repaired += repaired
        report.questions += 1
        found += 1
        if language is not None:
            language.feed(record["question"])
        answer, start = first if first else (None, None)
        yield record, Item(str(record["id"]), record["question"], answer, record["context"], start)
    if language is not None:
        language.done()
    if not found and not allow_empty:
        raise no_records(path, "questions", skipped)


def _checked_answers(path: str, record: dict) -> tuple[list[dict], tuple | None, list[dict], int]:
    """A record's answers with wrong or -1 offsets repaired, its first non-empty answer (text, start), the
    repairs made and the number of empty answers; DataError for an answer not in the context."""
    context, first, answers, repaired, empty = record["context"], None, [], [], 0
    for k, answer in enumerate(record["answers"]):
        if not answer["text"].strip():  # DuReader-robust dev has a few: nothing to check or locate
            empty += 1
            answers.append(answer)
            continue
        if not answer_matches(context, answer):
            start = locate(context, answer["text"], answer["answer_start"])
            if start < 0:
                raise DataError(
                    path,
                    f"answer {answer['text']!r} is not in the context",
                    record=f"id {record['id']}",
                    field=f"answers[{k}].text",
                )
            old = answer["answer_start"]
            repaired.append(
                {"id": record["id"], "answer": k, "old_answer_start": old, "new_answer_start": start}
            )
            answer = {**answer, "answer_start": start}
        answers.append(answer)
        if first is None:
            first = (answer["text"], answer["answer_start"])
    return answers, first, repaired, empty


def count_questions(config) -> int:
    """Read the whole input of a :class:`~paraguide.pipeline.config.BuildConfig` once, checking every
    record (:func:`read_items`' checks): the number of questions to paraphrase."""
    return sum(1 for _ in read_items(config, InputReport()))


def pair_items(
    path: str | os.PathLike,
    side: str,
    fmt: str = "auto",
    labels=LABELS,
    bad: BadRecords | None = None,
    lang: str | None = None,
    allow_empty: bool = False,
) -> Iterator[tuple[Pair, list[Item]]]:
    """``(pair, items)`` for every pair of a file: one item per side to paraphrase. Read as
    :func:`~paraguide.data.pairs.read_pairs` reads (``labels``: the label set; ``bad``: stop at a bad line,
    or skip and list it), and given ``lang``, a file whose first questions are mostly in the other
    language is a :class:`DataError`."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; choose one of {', '.join(SIDES)}")
    language = LanguageCheck(path, lang) if lang else None
    pairs = read_pairs(path, fmt, bad or BadRecords(skip=False), labels=labels, allow_empty=allow_empty)
    for n, pair in enumerate(pairs):
        if language is not None:
            language.feed(pair.a)
            language.feed(pair.b)
        items = []
        if side in ("a", "both"):
            items.append(Item(f"{n}:a", pair.a, side="a"))
        if side in ("b", "both"):
            items.append(Item(f"{n}:b", pair.b, side="b"))
        yield pair, items
    if language is not None:
        language.done()


def squad_records(config, reader: SquadReader) -> Iterator[dict]:
    """The records a builder writes: those of ``reader`` (the input) that :func:`squad_items` keeps, their
    answer offsets repaired."""
    for record, _ in squad_items(reader, skip_bad=config.skip_bad, allow_empty=config.allow_empty):
        yield record


def config_pair_items(config, bad: BadRecords | None = None) -> Iterator[tuple[Pair, list[Item]]]:
    """:func:`pair_items` of a builder's input, read with its options (label set, --skip-bad, language,
    --allow-empty)."""
    bad = bad or BadRecords(skip=config.skip_bad)
    return pair_items(
        config.pairs,
        config.side,
        config.pairs_format,
        labels=config.label_set,
        bad=bad,
        lang=config.lang,
        allow_empty=config.allow_empty,
    )


def unique_id(original: str, suffix: str, taken: set[str]) -> str:
    """``<original>_<suffix>``, or with a counter if some input question already has that id."""
    new, k = f"{original}_{suffix}", 1
    while new in taken:
        k += 1
        new = f"{original}_{suffix}{k}"
    taken.add(new)
    return new


def read_items(config, inputs: InputReport) -> Iterator[Item]:
    """The input's questions, in file order (checked; ``inputs`` counts what the check found, and lists
    the answers repaired and the records skipped)."""
    if config.squad:
        options = dict(skip_bad=config.skip_bad, lang=config.lang, allow_empty=config.allow_empty)
        for _, item in squad_items(config.squad, inputs, **options):
            yield item
    else:
        bad = BadRecords(skip=config.skip_bad, keep=math.inf)  # every skipped line is listed
        for _, items in config_pair_items(config, bad):
            inputs.questions += len(items)
            yield from items
        inputs.skipped += [e.as_dict() for e in bad.errors]
