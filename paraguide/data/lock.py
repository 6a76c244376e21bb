"""One run per output folder: an exclusive lock held for the whole run.

The lock is ``fcntl.flock`` on ``.paraguide.lock`` in the folder, which records the holder (pid, host,
command, start time) for the message another run gets. The operating system releases a ``flock`` when its
process ends, however it ends (kill -9 included), so a crash never leaves a live lock: a later run takes the
lock and notes the record the dead run left behind (a stale lock). A run that ends normally removes the file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from paraguide.errors import ParaguideError

LOCK_FILE = ".paraguide.lock"

_held: dict[Path, FolderLock] = {}  # folder (resolved) -> the lock this process holds on it


class FolderBusy(ParaguideError):
    """Another live process holds the output folder's lock."""


@dataclass
class FolderLock:
    """The lock of one folder, held by this process (:func:`acquire`; :meth:`release`)."""

    folder: Path
    fd: int
    stale: str | None = None  # what a crashed run left in the lock file, as a message

    @property
    def path(self) -> Path:
        return self.folder / LOCK_FILE

    def release(self) -> None:
        """Remove the lock file and let go of the lock (idempotent)."""
        if self.fd < 0:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self.fd)
        self.fd = -1
        _held.pop(self.folder.resolve(), None)


def acquire(folder: Path) -> FolderLock:
    """Lock ``folder`` (which must exist) for this process, or raise :class:`FolderBusy` naming the folder
    and the process holding it. A lock this process already holds there (an earlier run in the same
    process that stopped on an error) is released and taken again."""
    key = folder.resolve()
    if key in _held:
        _held.pop(key).release()
    path = folder / LOCK_FILE
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError as e:
            raise FolderBusy(f"cannot create the lock file {path}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            record = _read(fd)
            os.close(fd)
            raise FolderBusy(_busy(folder, record)) from None
        # The holder before us may have removed the file between our open and our lock: lock the file
        # that is there now.
        try:
            same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    previous = _read(fd)
    lock = FolderLock(folder, fd)
    if previous:
        lock.stale = (
            f"{path} was left by a run that did not end normally ({_describe(previous)}, "
            f"{'no longer running' if not _alive(previous) else 'no longer holding it'}): stale lock taken over"
        )
    record = {"pid": os.getpid(), "host": socket.gethostname(), "command": " ".join(sys.argv),
              "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}  # fmt: skip
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(record).encode(), 0)
    _held[key] = lock
    return lock


def check_free(folder: Path) -> None:
    """Raise :class:`FolderBusy` when a live process holds ``folder``'s lock (a look only: the lock is not
    taken), so that a run says the folder is in use before it says what the folder holds. A lock this
    process holds (an earlier run in it that stopped on an error) is not in the way: :func:`acquire` takes
    it over."""
    if folder.resolve() in _held:
        return
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return  # no lock file (or not one paraguide wrote): nobody holds it
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FolderBusy(_busy(folder, _read(fd))) from None
    finally:
        os.close(fd)  # also lets go of the shared lock just taken


def _busy(folder: Path, record: dict | None) -> str:
    return (
        f"{folder} is in use by another paraguide run ({_describe(record)}); wait for it to finish, or "
        "choose another output folder"
    )


def release_all() -> None:
    """Release every lock this process still holds (the CLI calls it when a command ends)."""
    for lock in list(_held.values()):
        lock.release()


def _read(fd: int) -> dict | None:
    try:
        data = os.pread(fd, 65536, 0)
        record = json.loads(data.decode("utf-8")) if data.strip() else None
    except (OSError, ValueError):
        return {"pid": None, "command": "unreadable lock record"}
    return record if isinstance(record, dict) else None


def _describe(record: dict | None) -> str:
    if not record:
        return "holder unknown"
    host = record.get("host")
    where = f" on {host}" if host and host != socket.gethostname() else ""
    started = f", started {record['started']}" if record.get("started") else ""
    return f"pid {record.get('pid')}{where}{started}: {record.get('command') or 'command unknown'}"


def _alive(record: dict) -> bool:
    """Whether the recorded process still runs (on another host: unknown, taken as alive)."""
    if record.get("host") not in (None, socket.gethostname()):
        return True
    pid = record.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
