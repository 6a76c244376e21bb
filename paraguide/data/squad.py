"""SQuAD v1.1 / v2.0 JSON (and SQuAD-like sets such as DuReader-robust): nested <-> flat records.

A *flat record* is one question with everything needed to write it back: the question's own fields, in
order, plus ``context``, ``title``, ``article_index``, ``paragraph_index`` (and ``article_extra`` /
``paragraph_extra`` when present; layout in docs/data.md). Reading and writing both stream, one article in
memory at a time, and reading then writing gives the same JSON content.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import ijson

from paraguide.data.io import NUL_PROBLEM, atomic_write, blank, open_binary
from paraguide.errors import DataError

FLAT_ONLY = ("context", "title", "article_index", "paragraph_index", "article_extra", "paragraph_extra")
ANSWER_FIELDS = ("answers", "plausible_answers")


class SquadReader:
    """Iterate the flat records of a SQuAD JSON file (plain or gzip).

    After iteration, :attr:`header` holds the top-level fields other than ``data`` (e.g. ``version``).
    Missing or mistyped fields and duplicate question ids raise :class:`DataError` naming the article,
    paragraph and question.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        self.header: dict = {}

    def __iter__(self) -> Iterator[dict]:
        seen: set = set()
        for article_index, article in enumerate(self._articles()):
            yield from _flatten_article(self.path, article, article_index, seen)

    def _articles(self) -> Iterator[dict]:
        self.header = {}
        found_data = False
        if blank(self.path):  # no bytes, or white space alone: no records (the callers say if that is wrong)
            return
        with open_binary(self.path) as raw:
            f = _CheckedBytes(raw, self.path)
            events = ijson.parse(f, use_float=True)
            try:
                prefix, event, value = next(events)
                if event != "start_map":
                    raise DataError(self.path, "top level must be a JSON object with a 'data' list")
                for prefix, event, value in events:
                    if prefix == "" and event == "map_key":
                        key = value
                        _, event, value = next(events)
                        if key == "data":
                            if event != "start_array":
                                raise DataError(self.path, "'data' must be a list of articles", field="data")
                            found_data = True
                            for _, event, value in events:
                                if event == "end_array":
                                    break
                                yield _build(events, event, value)
                        else:
                            self.header[key] = _build(events, event, value)
            except (ijson.JSONError, ijson.IncompleteJSONError) as e:
                raise DataError(self.path, f"invalid JSON: {e}") from None
        if not found_data:
            raise DataError(self.path, "no 'data' list at the top level", field="data")


class _CheckedBytes:
    """A JSON file's bytes as ijson reads them, checked on the way: a UTF-8 byte-order mark is dropped, and
    invalid UTF-8 or a NUL byte is a :class:`DataError` naming the line (ijson's own message would name
    neither)."""

    def __init__(self, f, path: str):
        self.f, self.path = f, path
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.offset = 0  # bytes read before this chunk
        self.line, self.line_start = 1, 0  # line number and offset where the current line starts

    def read(self, size: int = -1) -> bytes:
        chunk = self.f.read(size)
        start = 0
        if self.offset == 0 and chunk.startswith(b"\xef\xbb\xbf"):
            start = 3
        nul = chunk.find(b"\x00", start)
        pending = len(self.decoder.getstate()[0])  # bytes of a character the last chunk cut in two
        try:
            self.decoder.decode(chunk[start : nul if nul >= 0 else len(chunk)], final=not chunk)
        except UnicodeDecodeError as e:
            self._fail(chunk, max(start, start + e.start - pending), "invalid UTF-8 at byte {}")
        if nul >= 0:
            self._fail(chunk, nul, NUL_PROBLEM)
        self.line += chunk.count(b"\n")
        last = chunk.rfind(b"\n")
        if last >= 0:
            self.line_start = self.offset + last + 1
        self.offset += len(chunk)
        return chunk[start:]

    def _fail(self, chunk: bytes, at: int, problem: str):
        before = chunk[:at]
        line = self.line + before.count(b"\n")
        last = before.rfind(b"\n")
        line_start = self.offset + last + 1 if last >= 0 else self.line_start
        raise DataError(self.path, problem.format(self.offset + at - line_start), line=line)


def _build(events, event, value):
    """Build one JSON value from the event stream, starting at its first event."""
    builder = ijson.ObjectBuilder()
    builder.event(event, value)
    depth = 1 if event in ("start_map", "start_array") else 0
    while depth:
        _, event, value = next(events)
        builder.event(event, value)
        if event in ("start_map", "start_array"):
            depth += 1
        elif event in ("end_map", "end_array"):
            depth -= 1
    return builder.value


def _flatten_article(path: str, article, ai: int, seen: set) -> Iterator[dict]:
    where = f"article {ai}"
    if not isinstance(article, dict):
        raise DataError(path, "article must be an object", record=where)
    paragraphs = _need(path, article, "paragraphs", list, where)
    article_extra = {k: v for k, v in article.items() if k not in ("title", "paragraphs")}
    for pi, paragraph in enumerate(paragraphs):
        where = f"article {ai} paragraph {pi}"
        if not isinstance(paragraph, dict):
            raise DataError(path, "paragraph must be an object", record=where)
        context = _text(path, paragraph, "context", where)
        qas = _need(path, paragraph, "qas", list, where)
        paragraph_extra = {k: v for k, v in paragraph.items() if k not in ("context", "qas")}
        for qi, qa in enumerate(qas):
            where = f"article {ai} paragraph {pi} question {qi}"
            if not isinstance(qa, dict):
                raise DataError(path, "question entry must be an object", record=where)
            qid = _need(path, qa, "id", (str, int), where)
            where += f" (id {qid})"
            _text(path, qa, "question", where)
            answers = _need(path, qa, "answers", list, where)
            for key in ANSWER_FIELDS:
                for k, answer in enumerate(qa.get(key, []) if key != "answers" else answers):
                    if not isinstance(answer, dict):
                        raise DataError(path, "answer must be an object", record=where, field=f"{key}[{k}]")
                    _text(path, answer, "text", where, f"{key}[{k}].")
                    start = _need(path, answer, "answer_start", int, where, f"{key}[{k}].")
                    if isinstance(start, bool):
                        raise DataError(
                            path,
                            "answer_start must be an integer",
                            record=where,
                            field=f"{key}[{k}].answer_start",
                        )
            if qid in seen:
                raise DataError(path, "duplicate question id", record=where, field="id")
            seen.add(qid)
            record = dict(qa)
            record.update(context=context, title=article.get("title"), article_index=ai, paragraph_index=pi)
            if article_extra:
                record["article_extra"] = article_extra
            if paragraph_extra:
                record["paragraph_extra"] = paragraph_extra
            yield record


def _need(path, obj: dict, key: str, types, where: str, prefix: str = ""):
    if key not in obj:
        raise DataError(path, "missing field", record=where, field=prefix + key)
    value = obj[key]
    if not isinstance(value, types):
        names = "/".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
        raise DataError(
            path, f"expected {names}, got {type(value).__name__}", record=where, field=prefix + key
        )
    return value


def _text(path, obj: dict, key: str, where: str, prefix: str = "") -> str:
    """A string field that holds no NUL character (``\\u0000`` in the JSON)."""
    value = _need(path, obj, key, str, where, prefix)
    if "\x00" in value:
        raise DataError(path, NUL_PROBLEM, record=where, field=prefix + key)
    return value


def read_squad(path: str | os.PathLike) -> tuple[list[dict], dict]:
    """All flat records of a file and its header (top-level fields other than ``data``)."""
    reader = SquadReader(path)
    records = list(reader)
    return records, reader.header


def flatten_squad(nested: dict, path: str = "<memory>") -> Iterator[dict]:
    """Flat records of an in-memory SQuAD dict."""
    seen: set = set()
    for ai, article in enumerate(_need(path, nested, "data", list, "top level")):
        yield from _flatten_article(path, article, ai, seen)


def nest_squad(records: Iterable[dict], header: dict | None = None) -> dict:
    """Inverse of :func:`flatten_squad`: regroup consecutive records by article and paragraph."""
    data: list[dict] = []
    grouper = _Grouper()
    for article, paragraph, qa in map(grouper.feed, records):
        if article is not None:
            data.append(article)
        if paragraph is not None:
            data[-1]["paragraphs"].append(paragraph)
        data[-1]["paragraphs"][-1]["qas"].append(qa)
    out = {"data": data}
    out.update(header or {})
    return out


class _Grouper:
    """Turns consecutive flat records back into (new article or None, new paragraph or None, qa)."""

    def __init__(self):
        self._article_key = self._paragraph_key = None

    def feed(self, record: dict) -> tuple[dict | None, dict | None, dict]:
        article_key = (record.get("article_index"), record.get("title"))
        paragraph_key = (article_key, record.get("paragraph_index"), record["context"])
        new_article = new_paragraph = None
        if article_key != self._article_key:
            new_article = {}
            if record.get("title") is not None:
                new_article["title"] = record["title"]
            new_article.update(record.get("article_extra", {}))
            new_article["paragraphs"] = []
            self._article_key, self._paragraph_key = article_key, None
        if paragraph_key != self._paragraph_key:
            new_paragraph = {"context": record["context"], **record.get("paragraph_extra", {}), "qas": []}
            self._paragraph_key = paragraph_key
        qa = {k: v for k, v in record.items() if k not in FLAT_ONLY}
        return new_article, new_paragraph, qa


class SquadWriter:
    """Stream flat records into a SQuAD JSON file (atomically: the file appears complete or not at all).

    Use as a context manager; the header (e.g. ``{"version": "1.1"}``) is written after ``data``, so it
    may be given or updated until the writer closes.
    """

    def __init__(self, path: str | os.PathLike, header: dict | None = None, indent: int | None = None):
        self.path = path
        self.header = dict(header or {})
        self.count = 0
        self._ctx = atomic_write(path)
        self._f = None
        self._article: dict | None = None
        self._articles = 0

    def __enter__(self) -> SquadWriter:
        self._f = self._ctx.__enter__()
        self._f.write('{"data": [')
        self._grouper = _Grouper()
        return self

    def write(self, record: dict) -> None:
        """Add one flat record; an article is written out once a record of the next one arrives."""
        article, paragraph, qa = self._grouper.feed(record)
        if article is not None:
            self._flush()
            self._article = article
        if paragraph is not None:
            self._article["paragraphs"].append(paragraph)
        self._article["paragraphs"][-1]["qas"].append(qa)
        self.count += 1

    def write_all(self, records: Iterable[dict]) -> int:
        """Add every record; returns the number written so far."""
        for record in records:
            self.write(record)
        return self.count

    def _flush(self) -> None:
        if self._article is not None:
            self._f.write((", " if self._articles else "") + json.dumps(self._article, ensure_ascii=False))
            self._articles += 1
            self._article = None

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self._flush()
            self._f.write("]")
            for key, value in self.header.items():
                self._f.write(f", {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
            self._f.write("}\n")
        return self._ctx.__exit__(exc_type, exc, tb)


def write_squad(path: str | os.PathLike, records: Iterable[dict], header: dict | None = None) -> int:
    """Write flat records as SQuAD JSON; returns the number of questions written."""
    with SquadWriter(path, header) as writer:
        return writer.write_all(records)


@dataclass
class OffsetReport:
    """What :func:`repair_offsets` found: answers checked, already valid, repaired, not found in context."""

    checked: int = 0
    valid: int = 0
    repaired: int = 0
    unrepairable: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        """The counts for a job's report, with the first 50 unrepairable answers."""
        return {
            "answers_checked": self.checked,
            "valid": self.valid,
            "repaired": self.repaired,
            "unrepairable": len(self.unrepairable),
            "unrepairable_examples": self.unrepairable[:50],
        }


def answer_matches(context: str, answer: dict) -> bool:
    """Whether the answer's ``answer_start`` points at its text in ``context``."""
    start = answer["answer_start"]
    return start >= 0 and context[start : start + len(answer["text"])] == answer["text"]


def locate(context: str, text: str, near: int = -1) -> int:
    """Offset of ``text`` in ``context``: the occurrence nearest to ``near`` (first one if ``near < 0``),
    or -1 if the text does not occur."""
    if not text:
        return -1
    starts, i = [], context.find(text)
    while i >= 0:
        starts.append(i)
        i = context.find(text, i + 1)
    if not starts:
        return -1
    if near < 0:
        return starts[0]
    return min(starts, key=lambda s: (abs(s - near), s))


def repair_offsets(records: Iterable[dict], report: OffsetReport | None = None) -> Iterator[dict]:
    """Check every ``answer_start`` against its text; fix the ones that are -1 or wrong by locating the
    text in the context (nearest occurrence to the given offset). Answers whose text is not in the
    context are left as they are and listed in ``report.unrepairable``."""
    report = report if report is not None else OffsetReport()
    for record in records:
        context = record["context"]
        changed = False
        fixed_lists = {}
        for key in ANSWER_FIELDS:
            if key not in record:
                continue
            fixed = []
            for answer in record[key]:
                report.checked += 1
                if answer_matches(context, answer):
                    report.valid += 1
                    fixed.append(answer)
                    continue
                start = locate(context, answer["text"], answer["answer_start"])
                if start < 0:
                    report.unrepairable.append({"id": record["id"], "field": key, "text": answer["text"]})
                    fixed.append(answer)
                    continue
                report.repaired += 1
                fixed.append({**answer, "answer_start": start})
                changed = True
            fixed_lists[key] = fixed
        yield {**record, **fixed_lists} if changed else record
