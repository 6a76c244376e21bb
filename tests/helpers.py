"""Shared test helpers: the checkout's root, the shared datasets' folder, shared(...) to find one, and
en_tagger() for tests that need NLTK's English POS tagger.

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


TAGGER_MISSING = (
    "NLTK's English POS tagger (averaged_perceptron_tagger_eng) is in no NLTK data folder nor the shared data: "
    "python -m nltk.downloader averaged_perceptron_tagger_eng"
)


def en_tagger() -> None:
    """Skip the test, with the reason, when NLTK's English POS tagger is not found (paraguide bundles one,
    so only a damaged install lacks it; outputs asserted here were made with it)."""
    from paraguide.text.pos import has_tagger

    if not has_tagger("en"):
        pytest.skip(TAGGER_MISSING)


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
