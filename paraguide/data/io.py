"""File helpers: gzip-transparent reading, exact line numbers, atomic writing.

Lines are split on ``\\n`` only (a stray ``\\r`` inside a question stays part of that question, as in some
Quora dumps) and decoded one by one, so that bad UTF-8 is reported with its line number.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import io
import json
import os
import shutil
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from paraguide.errors import BadRecords, DataError

GZIP_MAGIC = b"\x1f\x8b"
NUL_PROBLEM = "NUL byte in the text (a binary file?)"
# Errors of a write that name no file (a full disk, a quota, a file too large, a read-only file system)
WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO})


def is_gzip(path: str | os.PathLike) -> bool:
    """Whether the file starts with gzip's magic bytes (whatever its name)."""
    with open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC


class _CheckedGzip(io.RawIOBase):
    """A gzip file's decompressed bytes, whose corrupt or truncated data is a :class:`DataError` naming the
    file (rather than ``EOFError``, ``zlib.error`` or ``gzip.BadGzipFile`` from deep inside a reader)."""

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        self._gz = gzip.GzipFile(self.path, "rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        try:
            return self._gz.readinto(buffer)
        except EOFError:
            problem = "the compressed data ends before its end marker"
        except (zlib.error, gzip.BadGzipFile) as e:
            problem = str(e)
        raise DataError(self.path, f"corrupt or truncated gzip file ({problem})")

    def close(self) -> None:
        if not self.closed:
            self._gz.close()
        super().close()


# Byte-order marks of the encodings paraguide does not read (UTF-32's first: it starts like UTF-16's).
_FOREIGN_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def open_binary(path: str | os.PathLike) -> IO[bytes]:
    """Open for reading, decompressing gzip whatever the file is called. A missing file, a folder, a
    UTF-16 or UTF-32 text (by its byte-order mark) and corrupt or truncated gzip data (when read) are each a
    :class:`DataError` naming the file."""
    if not os.path.exists(path):
        raise DataError(str(path), "file not found")
    if os.path.isdir(path):
        raise DataError(str(path), "a folder, not a file")
    stream = io.BufferedReader(_CheckedGzip(path)) if is_gzip(path) else open(path, "rb")  # noqa: SIM115
    try:
        head = stream.peek(4)[:4]
        for bom, encoding in _FOREIGN_BOMS:
            if head.startswith(bom):
                raise DataError(
                    str(path),
                    f"{encoding} text (it starts with a {encoding} byte-order mark); paraguide reads UTF-8: "
                    f"convert it first, e.g. iconv -f {encoding} -t UTF-8",
                )
    except BaseException:
        stream.close()
        raise
    return stream


def blank(path: str | os.PathLike) -> str | None:
    """``"empty"`` for a file of no bytes (after gzip decompression; a UTF-8 byte-order mark alone counts as
    none), ``"blank"`` for one of white space alone, else None."""
    with open_binary(path) as f:
        seen = False
        while chunk := f.read(1 << 16):
            if not seen and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
            seen = seen or bool(chunk)
            if chunk.strip():
                return None
    return "blank" if seen else "empty"


def no_records(path: str | os.PathLike, what: str, skipped: int = 0) -> DataError:
    """The error for an input that holds none of its records (``what``: "question pairs", "questions" ...):
    it says whether the file is empty, blank, or holds none for another reason (bad lines skipped)."""
    kind = blank(path)
    if kind == "empty":
        problem = f"the file is empty: no {what}"
    elif kind == "blank":
        problem = f"the file holds only blank lines: no {what}"
    else:
        problem = f"no {what} in the file"
        if skipped:
            problem += f" ({skipped} bad {'record' if skipped == 1 else 'records'} skipped)"
    return DataError(os.fspath(path), problem)


def open_text(path: str | os.PathLike, encoding: str = "utf-8-sig", errors: str = "strict") -> IO[str]:
    """Text stream over a plain or gzip file (a UTF-8 BOM is dropped)."""
    return io.TextIOWrapper(open_binary(path), encoding=encoding, errors=errors, newline="")


def iter_lines(path: str | os.PathLike, bad: BadRecords | None = None) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` with the line ending removed; line numbers start at 1.

    Bad UTF-8 and NUL bytes raise :class:`DataError` naming the line (or are skipped and counted by ``bad``).
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
            if b"\x00" in raw:
                bad.handle(DataError(str(path), NUL_PROBLEM, line=number))
                continue
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
    except BaseException as e:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(e, OSError) and e.filename is None and e.errno in WRITE_ERRORS:
            raise OSError(e.errno, f"cannot write {path}: {e.strerror or e}") from e  # say which file
        raise


def check_output_file(path: str | os.PathLike, inputs: Iterable[str | os.PathLike | None] = ()) -> None:
    """Before any work, and without creating anything: ``path`` can be written (its folder, or the nearest
    existing folder above, is a writable folder) and is none of the job's ``inputs`` (which writing it
    would destroy). Raises ValueError / OSError naming it."""
    path = Path(path)
    for source in inputs:
        if source and path.exists() and os.path.exists(source) and os.path.samefile(path, source):
            raise ValueError(f"the output {path} is an input of the job: write the results to another file")
    if path.is_dir():
        raise IsADirectoryError(f"the output {path} is a folder: give a file name")
    existing = path.parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise NotADirectoryError(f"cannot write {path}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write {path}: no permission to write in {existing}")


@contextlib.contextmanager
def atomic_folder(folder: str | os.PathLike) -> Iterator[Path]:
    """Write files into a temporary folder inside ``folder``; on success each is moved into ``folder``
    (replacing one of the same name), so that no file there is ever half written under its final name."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".saving.", dir=folder))
    try:
        yield tmp
        for f in sorted(tmp.iterdir()):
            target = folder / f.name
            if f.is_dir() and target.is_dir():
                shutil.rmtree(target)
            os.replace(f, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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
