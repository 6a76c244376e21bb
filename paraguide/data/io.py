"""File helpers: gzip-transparent reading, exact line numbers, atomic writing.

Lines are split on ``\\n`` only (a stray ``\\r`` inside a question stays part of that question, as in some
Quora dumps) and decoded one by one, so that bad UTF-8 is reported with its line number.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from paraguide.errors import BadRecords, DataError

GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: str | os.PathLike) -> bool:
    """Whether the file starts with gzip's magic bytes (whatever its name)."""
    with open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC


def open_binary(path: str | os.PathLike) -> IO[bytes]:
    """Open for reading, decompressing gzip whatever the file is called."""
    if not os.path.exists(path):
        raise DataError(str(path), "file not found")
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")


def open_text(path: str | os.PathLike, encoding: str = "utf-8-sig", errors: str = "strict") -> IO[str]:
    """Text stream over a plain or gzip file (a UTF-8 BOM is dropped)."""
    return io.TextIOWrapper(open_binary(path), encoding=encoding, errors=errors, newline="")


def iter_lines(path: str | os.PathLike, bad: BadRecords | None = None) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` with the line ending removed; line numbers start at 1.

    Bad UTF-8 raises :class:`DataError` naming the line (or is skipped and counted by ``bad``).
    """
    bad = bad or BadRecords()
    with open_binary(path) as f:
        for number, raw in enumerate(f, start=1):
            if raw.endswith(b"\n"):
                raw = raw[:-1]
                if raw.endswith(b"\r"):
                    raw = raw[:-1]
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError as e:
                bad.handle(DataError(str(path), f"invalid UTF-8 at byte {e.start}", line=number))


def read_jsonl(path: str | os.PathLike, bad: BadRecords | None = None) -> Iterator[tuple[int, dict]]:
    """Yield ``(line_number, object)`` for each non-blank line; every line must hold a JSON object."""
    bad = bad or BadRecords()
    for number, text in iter_lines(path, bad):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            bad.handle(DataError(str(path), f"invalid JSON: {e.msg} (column {e.colno})", line=number))
            continue
        if not isinstance(obj, dict):
            bad.handle(DataError(str(path), f"expected a JSON object, got {type(obj).__name__}", line=number))
            continue
        yield number, obj


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w") -> Iterator[IO]:
    """Write to a temporary file next to ``path`` and move it into place only on success.

    A crash never leaves a half-written file under the final name. ``.gz`` paths are gzip-compressed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        if path.suffix == ".gz":
            # mtime=0 keeps gzip output byte-identical across runs (reproducibility).
            raw = gzip.GzipFile(tmp, "wb", mtime=0)
            f = io.TextIOWrapper(raw, encoding="utf-8", newline="\n") if "b" not in mode else raw
        else:
            text = "b" not in mode
            f = open(tmp, mode, encoding="utf-8" if text else None, newline="\n" if text else None)  # noqa: SIM115 (closed by the with below)
        with f:
            yield f
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_jsonl(path: str | os.PathLike, records: Iterable[dict]) -> int:
    """Write one JSON object per line (UTF-8, not ASCII-escaped), atomically; returns the count."""
    n = 0
    with atomic_write(path) as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
            n += 1
    return n


def write_json(path: str | os.PathLike, obj, indent: int | None = 2) -> None:
    """Write one JSON document (UTF-8, not ASCII-escaped, newline-terminated), atomically."""
    with atomic_write(path) as f:
        json.dump(obj, f, ensure_ascii=False, indent=indent)
        f.write("\n")


def output_paths(out: str | os.PathLike) -> dict[str, Path]:
    """``train.jsonl`` -> train.jsonl, train.heldout.jsonl, train.stats.json (same folder)."""
    out = Path(out)
    stem = out.name
    for suffix in (".gz", ".jsonl", ".json"):
        stem = stem.removesuffix(suffix)
    ext = out.name[len(stem) :] or ".jsonl"
    return {
        "train": out,
        "heldout": out.with_name(f"{stem}.heldout{ext}"),
        "stats": out.with_name(f"{stem}.stats.json"),
    }
