"""Shared test helpers: the checkout's root, the shared datasets' folder, and shared(...) to find one.

Tests import it as `from helpers import ...` (pytest puts tests/ on sys.path, as for tiny_checkpoints and
toy_corpus); conftest.py imports it too, for the NLTK data path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PARAGUIDE_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared(relative: str) -> Path:
    """Path of a shared dataset file, or skip the test with the reason."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"shared dataset not available: {path} (set PARAGUIDE_SHARED_DATA to its folder)")
    return path


class _Planted:
    """What a tampered checkpoint holds: unpickling it runs a shell command that creates ``target``."""

    def __init__(self, target: Path):
        self.target = target

    def __reduce__(self):
        return os.system, (f"touch '{self.target}'",)


def malicious_pickle(target: Path) -> bytes:
    """A pickle that, if anything ever loads it, creates the file ``target`` (the test then fails)."""
    import pickle

    return pickle.dumps(_Planted(target))
