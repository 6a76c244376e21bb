"""Where the shared datasets and lexicons are (WordNet, Cilin, NLTK's tagger data ...): used as defaults when
a user passes no path, never required; and where paraguide caches what it builds from them."""

from __future__ import annotations

import os
from pathlib import Path


def shared_roots() -> list[Path]:
    """The folders searched for the shared datasets: ``$PARAGUIDE_SHARED_DATA`` alone when it is set (a
    folder that does not exist hides them all), else ``shared/data`` beside the checkout or the working
    folder."""
    given = os.environ.get("PARAGUIDE_SHARED_DATA")
    if given:
        return [Path(given)]
    here = Path(__file__).resolve().parents[2]
    return [
        here.parent / "shared" / "data",
        Path.cwd().parent / "shared" / "data",
        Path.cwd() / "shared" / "data",
    ]


def find_shared(relative: str) -> Path | None:
    """A shared resource: ``relative`` under the first of :func:`shared_roots` that holds it; None when it
    is nowhere."""
    for root in shared_roots():
        if (root / relative).exists():
            return root / relative
    return None


def nltk_data_path() -> list[str]:
    """NLTK's search path as paraguide uses it, set once in ``nltk.data.path``: NLTK's own (``NLTK_DATA``,
    ``~/nltk_data``, ``/usr/share/nltk_data`` ...), then the shared data's ``nltk_data``."""
    import nltk

    folder = find_shared("nltk_data")
    if folder is not None and str(folder) not in nltk.data.path:
        nltk.data.path.append(str(folder))
    return nltk.data.path


def cache_dir(kind: str) -> Path:
    """Where paraguide keeps what it builds from a file (PPDB indexes, parsed WordNet, mined word pairs):
    ``$PARAGUIDE_CACHE`` or ``~/.cache/paraguide``, under ``kind``."""
    return Path(os.environ.get("PARAGUIDE_CACHE", Path.home() / ".cache" / "paraguide")) / kind
