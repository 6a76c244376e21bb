"""Readers and writers for question-pair files: Quora's release, headerless TSV (LCQMC, BQ), MRPC, JSONL
and paralex word alignments (formats and their detection: docs/data.md). Every pair carries ``origin =
"FILE:LINE"``, so that any later output can be traced back to its input line.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from paraguide.data.io import NUL_PROBLEM, atomic_write, iter_lines, no_records, open_text, read_jsonl
from paraguide.errors import BadRecords, DataError

FORMATS = ("auto", "quora", "tsv", "tsv-unlabelled", "mrpc", "jsonl", "paralex")
LABELS = (0, 1)  # the label set of a pair file unless told otherwise: 1 = paraphrase
QUORA_HEADER = ["id", "qid1", "qid2", "question1", "question2", "is_duplicate"]
MRPC_HEADER = ["Quality", "#1 ID", "#2 ID", "#1 String", "#2 String"]
JSONL_TEXT_KEYS = [
    ("question1", "question2"),
    ("text_a", "text_b"),
    ("sentence1", "sentence2"),
    ("source", "target"),
    ("q1", "q2"),
    ("a", "b"),
]
JSONL_LABEL_KEYS = ("label", "is_duplicate", "is_paraphrase")
_LINK = re.compile(r"^(\d+)-(\d+)$")
_SURROGATE = re.compile("[\udc80-\udcff]")

Alignment = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Pair:
    """Two questions, an optional integer label (1 = paraphrase), where it came from, optional alignment."""

    a: str
    b: str
    label: int | None = None
    origin: str = ""
    alignment: Alignment | None = None

    @property
    def is_positive(self) -> bool:
        """Unlabelled pairs count as positive (paraphrase corpora); labelled ones when ``label == 1``."""
        return self.label is None or self.label == 1


def detect_format(path: str | os.PathLike) -> str:
    """Guess a pair file's format from its name and first lines.

    Headerless TSV: a third column that is an integer on every one of the first 50 lines is a label
    (``tsv``); one that never is, is ignored (``tsv-unlabelled``); a mix reads as ``tsv``, so that the
    non-integer labels are reported as errors rather than silently ignored."""
    name = os.fspath(path).lower()
    if name.endswith((".jsonl", ".jsonl.gz", ".ndjson")):
        return "jsonl"
    with open_text(path, errors="replace") as f:
        lines = [f.readline().rstrip("\r\n") for _ in range(50)]
    lines = [line for line in lines if line.strip()]
    if not lines:
        return "tsv"
    first = lines[0]
    cells = [c.strip().strip('"') for c in first.split("\t")]
    if cells == QUORA_HEADER:
        return "quora"
    if cells == MRPC_HEADER:
        return "mrpc"
    if first.lstrip().startswith("{"):
        return "jsonl"
    thirds = [line.split("\t")[2] for line in lines if line.count("\t") >= 2]
    if thirds and all(_is_alignment(c) and not _is_int(c) for c in thirds):
        return "paralex"
    if thirds and not any(_is_int(c) for c in thirds):
        return "tsv-unlabelled"
    return "tsv"


def label_set(labels: str | Iterable[int | str]) -> frozenset[int]:
    """The labels a pair file may hold, from ``"0,1"`` or an iterable of integers (or their strings);
    ValueError if one is not an integer or none is given."""
    items = labels.split(",") if isinstance(labels, str) else list(labels)
    if not items or not all(isinstance(x, int) or (isinstance(x, str) and _is_int(x)) for x in items):
        raise ValueError(f"a label set is comma-separated integers (e.g. 0,1), got {labels!r}")
    return frozenset(int(x) for x in items)


def format_label_set(labels: frozenset[int]) -> str:
    """``{0, 1}``: a label set as error messages show it."""
    return "{" + ", ".join(map(str, sorted(labels))) + "}"


def read_pairs(
    path: str | os.PathLike,
    format: str = "auto",
    bad: BadRecords | None = None,
    labels: str | Iterable[int | str] | None = LABELS,
    allow_empty: bool = False,
) -> Iterator[Pair]:
    """Stream the pairs of a file (plain or gzip). Malformed lines -- a label outside ``labels`` (default
    0 and 1; None: any integer) included -- raise :class:`DataError` naming file, line and field, unless
    ``bad`` skips them (they are then counted and listed there). A file without a pair is a DataError too
    (once read through), unless ``allow_empty``."""
    if format not in FORMATS:
        raise ValueError(f"unknown pair format {format!r}; choose one of {', '.join(FORMATS)}")
    allowed = None if labels is None else label_set(labels)
    if format == "auto":
        format = detect_format(path)
    bad = bad or BadRecords()
    reader = {
        "quora": _read_quora,
        "tsv": _read_tsv,
        "tsv-unlabelled": lambda p, b, _: _read_tsv(p, b, None, labelled=False),
        "mrpc": _read_mrpc,
        "jsonl": _read_jsonl,
        "paralex": lambda p, b, _: _read_paralex(p, b),
    }[format]
    before, n = bad.count, 0
    for pair in reader(os.fspath(path), bad, allowed):
        n += 1
        yield pair
    if not n and not allow_empty:
        raise no_records(path, "question pairs", bad.count - before)


def _question(path: str, line: int, text: str, field: str) -> str:
    if not text.strip():
        raise DataError(path, "empty question", line=line, field=field)
    if "\x00" in text:
        raise DataError(path, NUL_PROBLEM, line=line, field=field)
    return text


def _label(path: str, line: int, text: str, field: str, labels: frozenset[int] | None) -> int:
    if not _is_int(text):
        raise DataError(path, f"label must be an integer, got {text!r}", line=line, field=field)
    if labels is not None and int(text) not in labels:
        raise DataError(
            path,
            f"label {int(text)} is not in the label set {format_label_set(labels)}",
            line=line,
            field=field,
        )
    return int(text)


def _is_int(text: str) -> bool:
    return bool(re.fullmatch(r"\s*-?\d+\s*", text))


def _is_alignment(text: str) -> bool:
    links = text.split()
    return bool(links) and all(_LINK.match(link) for link in links)


def _read_tsv(path: str, bad: BadRecords, labels, labelled: bool = True) -> Iterator[Pair]:
    for line, text in iter_lines(path, bad):
        if not text.strip():
            continue
        cells = text.split("\t")
        try:
            if len(cells) < 2 or (labelled and len(cells) > 3):
                expected = "2 or 3" if labelled else "at least 2"
                raise DataError(
                    path, f"expected {expected} tab-separated columns, got {len(cells)}", line=line
                )
            a = _question(path, line, cells[0], "column 1")
            b = _question(path, line, cells[1], "column 2")
            label = _label(path, line, cells[2], "column 3", labels) if labelled and len(cells) == 3 else None
        except DataError as e:
            bad.handle(e)
            continue
        yield Pair(a, b, label, f"{path}:{line}")


def _read_mrpc(path: str, bad: BadRecords, labels) -> Iterator[Pair]:
    lines = iter_lines(path, bad)
    for line, text in lines:
        if line == 1 and text.split("\t") == MRPC_HEADER:
            continue
        if not text.strip():
            continue
        cells = text.split("\t")
        try:
            if len(cells) != 5:
                raise DataError(path, f"expected 5 tab-separated columns (MRPC), got {len(cells)}", line=line)
            label = _label(path, line, cells[0], "Quality", labels)
            a = _question(path, line, cells[3], "#1 String")
            b = _question(path, line, cells[4], "#2 String")
        except DataError as e:
            bad.handle(e)
            continue
        yield Pair(a, b, label, f"{path}:{line}")


def _read_quora(path: str, bad: BadRecords, labels) -> Iterator[Pair]:
    # The release quotes fields that hold tabs or newlines, so the csv module reads it; csv's
    # ``line_num`` is the physical line on which a record ends.
    # Undecodable bytes become lone surrogates so that one bad record can be reported (or skipped)
    # without losing the rest of the stream.
    with open_text(path, errors="surrogateescape") as f:
        reader = csv.reader(f, delimiter="\t", quotechar='"')
        start = 1
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as e:
                bad.handle(DataError(path, f"malformed quoted field: {e}", line=reader.line_num))
                start = reader.line_num + 1
                continue
            line, start = start, reader.line_num + 1
            if line == 1 and [c.strip() for c in cells] == QUORA_HEADER:
                continue
            if not cells or cells == [""]:
                continue
            try:
                if any(_SURROGATE.search(c) for c in cells):
                    raise DataError(path, "invalid UTF-8", line=line)
                if len(cells) != 6:
                    raise DataError(
                        path, f"expected 6 tab-separated columns (Quora), got {len(cells)}", line=line
                    )
                a = _question(path, line, cells[3], "question1")
                b = _question(path, line, cells[4], "question2")
                label = _label(path, line, cells[5], "is_duplicate", labels)
            except DataError as e:
                bad.handle(e)
                continue
            yield Pair(a, b, label, f"{path}:{line}")


def _read_jsonl(path: str, bad: BadRecords, labels) -> Iterator[Pair]:
    for line, obj in read_jsonl(path, bad):
        try:
            keys = next((k for k in JSONL_TEXT_KEYS if k[0] in obj and k[1] in obj), None)
            if keys is None:
                names = ", ".join("/".join(k) for k in JSONL_TEXT_KEYS)
                raise DataError(path, f"no question fields; expected one of {names}", line=line)
            texts = []
            for key in keys:
                if not isinstance(obj[key], str):
                    raise DataError(
                        path, f"expected a string, got {type(obj[key]).__name__}", line=line, field=key
                    )
                texts.append(_question(path, line, obj[key], key))
            label = None
            label_key = next((k for k in JSONL_LABEL_KEYS if k in obj), None)
            if label_key is not None and obj[label_key] is not None:
                value = obj[label_key]
                if isinstance(value, bool) or not isinstance(value, (int, str)):
                    raise DataError(
                        path, f"label must be an integer, got {value!r}", line=line, field=label_key
                    )
                label = _label(path, line, str(value), label_key, labels)
        except DataError as e:
            bad.handle(e)
            continue
        yield Pair(texts[0], texts[1], label, f"{path}:{line}")


def parse_alignment(text: str, len_a: int, len_b: int) -> Alignment:
    """Parse ``"0-0 1-2 …"`` and check every index against the two token counts."""
    links = []
    for item in text.split():
        m = _LINK.match(item)
        if not m:
            raise ValueError(f"bad alignment link {item!r} (expected i-j)")
        i, j = int(m.group(1)), int(m.group(2))
        if i >= len_a or j >= len_b:
            raise ValueError(f"alignment link {item} out of range for {len_a} and {len_b} tokens")
        links.append((i, j))
    return tuple(sorted(set(links)))


def _read_paralex(path: str, bad: BadRecords) -> Iterator[Pair]:
    for line, text in iter_lines(path, bad):
        if not text.strip():
            continue
        cells = text.split("\t")
        try:
            if len(cells) not in (2, 3):
                raise DataError(
                    path, f"expected 2 or 3 tab-separated columns (paralex), got {len(cells)}", line=line
                )
            a = _question(path, line, cells[0], "question 1")
            b = _question(path, line, cells[1], "question 2")
            alignment = None
            if len(cells) == 3 and cells[2].strip():
                try:
                    alignment = parse_alignment(cells[2], len(a.split()), len(b.split()))
                except ValueError as e:
                    raise DataError(path, str(e), line=line, field="alignment") from None
        except DataError as e:
            bad.handle(e)
            continue
        yield Pair(a, b, None, f"{path}:{line}", alignment)


def write_pairs(path: str | os.PathLike, pairs: Iterable[Pair], format: str = "tsv") -> int:
    """Write pairs as headerless TSV (``a \\t b [\\t label]``) or JSONL; returns the count."""
    n = 0
    with atomic_write(path) as f:
        for p in pairs:
            if format == "tsv":
                for text in (p.a, p.b):
                    if "\t" in text or "\n" in text:
                        raise DataError(
                            os.fspath(path),
                            f"cannot write a tab or newline in TSV: {text!r}",
                            record=p.origin,
                        )
                cells = [p.a, p.b] + ([str(p.label)] if p.label is not None else [])
                f.write("\t".join(cells) + "\n")
            elif format == "jsonl":
                obj = {"question1": p.a, "question2": p.b}
                if p.label is not None:
                    obj["label"] = p.label
                if p.origin:
                    obj["origin"] = p.origin
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")
            else:
                raise ValueError(f"cannot write pairs as {format!r}; use tsv or jsonl")
            n += 1
    return n
