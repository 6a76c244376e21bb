"""Question files for the small jobs: questions with optional suggestions (``paraphrase``, ``suggest``) and
QA records with passage and answer (the adversarial ``suggest --source context``)."""

from __future__ import annotations

from dataclasses import dataclass

from paraguide.data.io import NUL_PROBLEM, iter_lines, no_records, read_jsonl
from paraguide.data.squad import SquadReader
from paraguide.errors import DataError
from paraguide.text.language import check_language


@dataclass
class QuestionInput:
    """A question, optionally with a suggestion and the question's phrase it replaces."""

    question: str
    suggestion: str | None = None
    replaces: str | None = None


@dataclass
class QARecord:
    """A question with its passage and first answer."""

    question: str
    context: str
    answer: str
    answer_start: int | None = None


def read_questions(
    path: str, allow_empty: bool = False, lang: str | None = None, whole_lines: bool = False
) -> list[QuestionInput]:
    """Text (one question per line), TSV (``question<TAB>suggestion[<TAB>replaces]``) or JSONL (``question``,
    ``suggestion``, ``replaces``); a bad line is a :class:`DataError` naming it, and so is a file without a
    question (unless ``allow_empty``) or, given ``lang``, one whose questions are mostly in the other
    language (:func:`~paraguide.text.language.check_language`). ``whole_lines``: a text line is one
    question, tabs included (no suggestion columns)."""
    items = []
    if path.endswith((".jsonl", ".jsonl.gz")):
        for line, obj in read_jsonl(path):
            if not isinstance(obj.get("question"), str) or not obj["question"].strip():
                raise DataError(path, "missing or empty question", line=line, field="question")
            for key in ("question", "suggestion", "replaces"):
                value = obj.get(key)
                if value is not None and not isinstance(value, str):
                    raise DataError(
                        path, f"expected a string, got {type(value).__name__}", line=line, field=key
                    )
                if value and "\x00" in value:
                    raise DataError(path, NUL_PROBLEM, line=line, field=key)
            items.append(
                QuestionInput(obj["question"], obj.get("suggestion") or None, obj.get("replaces") or None)
            )
    else:
        for line, text in iter_lines(path):
            if not text.strip():
                continue
            if whole_lines:
                items.append(QuestionInput(text))
                continue
            cells = text.split("\t")
            if len(cells) > 3 or not cells[0].strip():
                raise DataError(
                    path,
                    "expected 'question', 'question<TAB>suggestion' or 'question<TAB>suggestion<TAB>replaces'",
                    line=line,
                )
            cells += [""] * (3 - len(cells))
            items.append(QuestionInput(cells[0], cells[1].strip() or None, cells[2].strip() or None))
    _check(path, [it.question for it in items], allow_empty, lang)
    return items


def _check(path: str, questions: list[str], allow_empty: bool, lang: str | None) -> None:
    if not questions and not allow_empty:
        raise no_records(path, "questions")
    if lang:
        check_language(path, questions, lang)


def read_qa(path: str, allow_empty: bool = False, lang: str | None = None) -> list[QARecord]:
    """SQuAD-format JSON (each question with its first answer) or JSONL with ``question``, ``context``,
    ``answer`` and optionally ``answer_start``; checked as :func:`read_questions` checks its files."""
    rows = []
    if path.endswith((".json", ".json.gz")):
        for r in SquadReader(path):
            answer = (r.get("answers") or [{}])[0]
            rows.append(
                QARecord(r["question"], r["context"], answer.get("text", ""), answer.get("answer_start"))
            )
    else:
        for line, obj in read_jsonl(path):
            for key in ("question", "context", "answer"):
                if not isinstance(obj.get(key), str):
                    raise DataError(path, f"missing or non-string field {key!r}", line=line, field=key)
                if "\x00" in obj[key]:
                    raise DataError(path, NUL_PROBLEM, line=line, field=key)
            rows.append(QARecord(obj["question"], obj["context"], obj["answer"], obj.get("answer_start")))
    _check(path, [r.question for r in rows], allow_empty, lang)
    return rows
