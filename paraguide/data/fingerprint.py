"""Content identity of input files and model folders, for ``--resume``: a run records the SHA-256 of every
file it reads, and a resumed run refuses to go on if any of them changed.

Hashing is streamed and fast enough to do at every start (about 1 GB/s: under a second for a 20-million-rule
PPDB file; measured in benchmarks/results/content_hash.json), so nothing is cached across processes: a
changed file can never pass because a size or a timestamp happened to stay the same. Within one process a
file's hash is kept while its size, times and inode are unchanged, so that a run reading a file twice hashes
it once.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_CHUNK = 1 << 20
_memo: dict[tuple, str] = {}


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes (hex), streamed."""
    st = os.stat(path)
    key = (os.fspath(Path(path).resolve()), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if key not in _memo:
        with open(path, "rb") as f:
            _memo[key] = hashlib.file_digest(f, "sha256").hexdigest()
    return _memo[key]


def folder_files(path: Path) -> list[Path]:
    """The regular files of a folder, recursively, in a fixed order (caches of Python and git left out)."""
    skip = {"__pycache__", ".git"}
    return sorted(
        p for p in path.rglob("*") if p.is_file() and not skip.intersection(p.relative_to(path).parts)
    )


def fingerprint(path: str | os.PathLike) -> dict:
    """What identifies a file or folder: its absolute path, size in bytes and SHA-256. A folder's hash
    covers the relative name and content of each of its files, so a file added, removed, renamed or
    changed changes it."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: not found")
    if path.is_dir():
        digest, size = hashlib.sha256(), 0
        for f in folder_files(path):
            digest.update(f"{f.relative_to(path).as_posix()}\0{file_sha256(f)}\n".encode())
            size += f.stat().st_size
        return {"path": str(path.resolve()), "bytes": size, "sha256": digest.hexdigest()}
    return {"path": str(path.resolve()), "bytes": path.stat().st_size, "sha256": file_sha256(path)}


def fingerprints(paths: dict[str, str | os.PathLike | None]) -> dict[str, dict]:
    """``{role: fingerprint}`` for every named path that is set (``{"input": "dev.json", "model": ...}``)."""
    return {role: fingerprint(p) for role, p in sorted(paths.items()) if p is not None}


def changed_files(saved: dict[str, dict], now: dict[str, dict]) -> list[str]:
    """What differs between two ``fingerprints`` results, one line per role, as a user should read it. A
    file is the same when its content is (a moved input with the same bytes is still the same input)."""
    lines = []
    for role in sorted(set(saved) | set(now)):
        before, after = saved.get(role), now.get(role)
        if before is None or after is None:
            lines.append(f"{role}: {'added' if before is None else 'no longer given'}")
        elif before["sha256"] != after["sha256"]:
            moved = "" if before["path"] == after["path"] else f" (was {before['path']})"
            lines.append(
                f"{role}: {after['path']}{moved} has changed since the run started (its content differs)"
            )
    return lines
