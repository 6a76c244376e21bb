"""Shared test setup: offline, and the shared datasets when they are beside the checkout.

Helpers that tests import (ROOT, SHARED, shared) live in helpers.py; this file keeps fixtures and setup."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import SHARED

os.environ.setdefault("HF_HUB_OFFLINE", "1")

# NLTK's tagger data lives in shared data; point NLTK at it unless the user already did.
if (SHARED / "nltk_data").is_dir():
    os.environ.setdefault("NLTK_DATA", str(SHARED / "nltk_data"))


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
