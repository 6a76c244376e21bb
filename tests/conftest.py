"""Shared test setup: offline, and the shared datasets when they are beside the checkout."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PARAGUIDE_SHARED_DATA", ROOT.parent / "shared" / "data"))

# NLTK's tagger data lives in shared data; point NLTK at it unless the user already did.
if (SHARED / "nltk_data").is_dir():
    os.environ.setdefault("NLTK_DATA", str(SHARED / "nltk_data"))


def shared(relative: str) -> Path:
    """Path of a shared dataset file, or skip the test with the reason."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"shared dataset not available: {path} (set PARAGUIDE_SHARED_DATA to its folder)")
    return path


@pytest.fixture
def write(tmp_path):
    """write(name, text or bytes) -> path of a file in the test's temporary folder."""

    def _write(name: str, content) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write
