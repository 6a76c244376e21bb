"""A system's predictions, from any system: QA answers as the official SQuAD evaluator takes them (one JSON
object ``{question id: answer text}``), QM labels one per pair in the pair file's order (a text or TSV file
whose lines start with an integer label, or JSONL ``{"label": 1}`` or ``{"prediction": 1}`` lines, optionally
with ``"line": N``)."""

from __future__ import annotations

import json
import os
from collections.abc import Collection

from paraguide.data.io import iter_lines, open_binary, read_jsonl
from paraguide.errors import DataError

SHOWN = 3  # ids named in an error message
# JSONL: "prediction" as recipes/qm/run_qm.py writes it; a line with both is scored from "prediction" (its
# "label" is the gold label that run_qm.py copies next to it)
LABEL_KEYS = ("prediction", "label")
LABELS = (0, 1)  # what a QM system predicts (and any other label the gold data holds)


def _first(ids: list[str]) -> str:
    return ", ".join(ids[:SHOWN]) + (", ..." if len(ids) > SHOWN else "")


def read_answers(path: str | os.PathLike) -> dict[str, str]:
    """``{id: answer}`` from a JSON object; anything else (not JSON, not an object, a non-string answer) is
    a :class:`DataError` naming the file (and the id)."""
    path = os.fspath(path)
    with open_binary(path) as f:
        data = f.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DataError(path, f"not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start}); save the "
                              "predictions as UTF-8 JSON") from None  # fmt: skip
    try:
        obj = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise DataError(path, f"not JSON: {e.msg} (column {e.colno})", line=e.lineno) from None
    except _DuplicateKey as e:
        raise DataError(path, "the id is given twice (which answer counts?)", record=e.key) from None
    if not isinstance(obj, dict):
        raise DataError(path, f"predictions must be a JSON object {{question id: answer text}}, got a "
                              f"{type(obj).__name__}")  # fmt: skip
    for qid, answer in obj.items():
        if not isinstance(answer, str):
            raise DataError(path, f"expected an answer string, got {type(answer).__name__}", record=qid)
    return obj


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        self.key = key


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


def check_ids(
    path: str,
    predicted: Collection[str],
    questions: Collection[str],
    test_path: str,
    lenient: bool = False,
    other_set: Collection[str] = (),
) -> list[str]:
    """The questions without a prediction. Ids that are not questions of the test set, and (unless
    ``lenient``) questions without a prediction, are a :class:`DataError` naming how many and the first
    few; ``other_set``: the ids of the other set of the pair, to say when the files were swapped."""
    known = set(questions)
    extra = [i for i in predicted if i not in known]
    missing = [i for i in questions if i not in predicted]
    if extra and not lenient:
        hint = ""
        if other_set and all(i in other_set for i in extra):
            hint = " (they are ids of the other set: predictions given for the wrong set?)"
        raise DataError(path, f"{len(extra)} of {len(predicted)} prediction ids are not questions of "
                              f"{test_path}{hint} (first: {_first(extra)})")  # fmt: skip
    if missing and not lenient:
        raise DataError(path, f"no prediction for {len(missing)} of {len(known)} questions of {test_path} "
                              f"(first: {_first(missing)}); --lenient-ids scores them as empty answers")  # fmt: skip
    return missing


def _int_label(path: str, text, line: int, allowed: set[int], field: str | None = None) -> int:
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise DataError(path, f"expected an integer label, got {json.dumps(text)}", line=line, field=field)
    try:
        label = int(text)
    except ValueError:
        raise DataError(path, f"expected an integer label, got {text!r}", line=line, field=field) from None
    if label not in allowed:
        shown = ", ".join(map(str, sorted(allowed)))
        raise DataError(path, f"predicted label {label} is not one of {shown}", line=line, field=field)
    return label


def _is_jsonl(path: str) -> bool:
    if path.lower().endswith((".jsonl", ".jsonl.gz", ".ndjson")):
        return True
    for _, text in iter_lines(path):
        if text.strip():
            return text.lstrip().startswith("{")
    return False


def read_labels(path: str | os.PathLike, pairs: int, pair_path: str, gold: Collection[int] = ()) -> list[int]:
    """One integer label per pair, in order. Text/TSV: the first tab-separated cell of each line (blank lines
    at the end ignored, elsewhere an error). JSONL: ``prediction`` (or, without it, ``label``) of each line,
    and ``line`` (1-based), when given, must be the line's position. A count other than ``pairs``, or a label
    other than 0, 1 and the ``gold`` labels, is a :class:`DataError`."""
    path = os.fspath(path)
    allowed = {*LABELS, *gold}
    labels: list[int] = []
    if _is_jsonl(path):
        for number, obj in read_jsonl(path):
            key = next((k for k in LABEL_KEYS if k in obj), None)
            if key is None:
                raise DataError(path, "missing field", line=number, field="label")
            if "line" in obj and obj["line"] != len(labels) + 1:
                raise DataError(path, f"line {obj['line']} given as prediction {len(labels) + 1}: labels must "
                                      "follow the pair file's order", line=number, field="line")  # fmt: skip
            labels.append(_int_label(path, obj[key], number, allowed, key))
    else:
        lines = list(iter_lines(path))
        while lines and not lines[-1][1].strip():
            lines.pop()
        for number, text in lines:
            cell = text.split("\t")[0].strip()
            if not cell:
                raise DataError(path, "empty line: one label per pair", line=number)
            labels.append(_int_label(path, cell, number, allowed))
    if len(labels) != pairs:
        raise DataError(path, f"{len(labels)} labels for the {pairs} pairs of {pair_path}")
    return labels
