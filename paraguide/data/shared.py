"""Where the shared datasets and lexicons are (WordNet, Cilin, NLTK's tagger data ...): used as defaults when
a user passes no path, never required; and where paraguide caches what it builds from them."""

from __future__ import annotations

import os
from pathlib import Path


def find_shared(relative: str) -> Path | None:
    """A shared resource: under ``$PARAGUIDE_SHARED_DATA``, or ``shared/data`` beside the checkout or the
    working folder; None when it is nowhere."""
    roots = [os.environ.get("PARAGUIDE_SHARED_DATA")]
    here = Path(__file__).resolve().parents[2]
    roots += [
        here.parent / "shared" / "data",
        Path.cwd().parent / "shared" / "data",
        Path.cwd() / "shared" / "data",
    ]
    for root in roots:
        if root and (Path(root) / relative).exists():
            return Path(root) / relative
    return None


def cache_dir(kind: str) -> Path:
    """Where paraguide keeps what it builds from a file (PPDB indexes, parsed WordNet, mined word pairs):
    ``$PARAGUIDE_CACHE`` or ``~/.cache/paraguide``, under ``kind``."""
    return Path(os.environ.get("PARAGUIDE_CACHE", Path.home() / ".cache" / "paraguide")) / kind
