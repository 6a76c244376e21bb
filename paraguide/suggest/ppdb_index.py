"""The on-disk SQLite index of a PPDB-like file, which a PPDB source queries.

The file is read once into the index, built in a temporary file and renamed into place, and reused while the
source file's size and modification time are unchanged. The index holds one row per phrase with all its
rules packed best first (one sort at build time), so that a lookup is one B-tree probe and one row, and a
Bloom filter over the phrases (:mod:`paraguide.suggest.ppdb_bloom`). Queries stay on disk: memory does not
grow with the database.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import os
import sqlite3
import tempfile
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from paraguide.data.fingerprint import file_sha256
from paraguide.data.shared import cache_dir
from paraguide.suggest.ppdb_bloom import PhraseFilter, phrase_keys
from paraguide.suggest.ppdb_formats import detect_rule_format, read_rules

INDEX_VERSION = 4
# Separators of the packed rules of a phrase (ASCII record/unit separators): rules are joined by RULE_SEP,
# each rule's paraphrase, score and relation by FIELD_SEP.
RULE_SEP, FIELD_SEP = "\x1e", "\x1f"


def default_index_path(source: str | os.PathLike) -> Path:
    """Where the index of ``source`` is kept: ``$PARAGUIDE_CACHE`` or ``~/.cache/paraguide``, under ``ppdb/``,
    named after the source's absolute path (its folder may be read-only)."""
    source = Path(source).resolve()
    digest = hashlib.sha1(str(source).encode()).hexdigest()[:12]
    return cache_dir("ppdb") / f"{source.name}.{digest}.sqlite"


def _fingerprint(source: Path, fmt: str) -> str:
    # The content, not the size and time: an edited file never reuses a stale index (under a second for
    # a 20-million-rule file: benchmarks/results/content_hash.json).
    return f"v{INDEX_VERSION}:{fmt}:sha256:{file_sha256(source)}"


def build_index(
    source: str | os.PathLike,
    index: str | os.PathLike | None = None,
    fmt: str | None = None,
    progress: bool = True,
) -> Path:
    """Build (or reuse) the SQLite index of the PPDB-like file ``source``; returns its path. ``index``:
    where to keep it (default: :func:`default_index_path`); ``fmt``: the file's format (None: detected);
    ``progress``: show progress bars."""
    source = Path(source)
    if not source.exists():
        raise FileNotFoundError(f"no PPDB file at {source}")
    fmt = fmt or detect_rule_format(source)
    index = Path(index) if index else default_index_path(source)
    fingerprint = _fingerprint(source, fmt)
    if index.exists():
        try:
            with sqlite3.connect(f"file:{index}?mode=ro", uri=True) as db:
                if db.execute("SELECT value FROM meta WHERE key='fingerprint'").fetchone() == (fingerprint,):
                    return index
        except sqlite3.DatabaseError:
            pass  # unreadable or old: rebuilt below
    index.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=index.name + ".", suffix=".tmp", dir=index.parent)
    os.close(fd)
    raw = tmp + ".rules"
    try:
        db = sqlite3.connect(tmp)
        # Phase 1: every rule, unsorted, into a scratch database beside the index (deleted at the end).
        db.execute("ATTACH DATABASE ? AS raw", (raw,))
        db.executescript(
            """
            PRAGMA main.journal_mode=OFF; PRAGMA main.synchronous=OFF;
            PRAGMA raw.journal_mode=OFF; PRAGMA raw.synchronous=OFF; PRAGMA cache_size=-65536;
            CREATE TABLE main.meta(key TEXT PRIMARY KEY, value);
            CREATE TABLE main.phrases(phrase TEXT PRIMARY KEY, rules TEXT) WITHOUT ROWID;
            CREATE TABLE raw.rules(phrase TEXT, paraphrase TEXT, score REAL, relation TEXT);
            """
        )
        size = source.stat().st_size
        opener = gzip.open if source.suffix == ".gz" else open
        n_rules = 0
        with (
            opener(source, "rb") as f,
            tqdm(
                total=size, unit="B", unit_scale=True, desc=f"index {source.name}", disable=not progress
            ) as bar,
        ):
            raw_pos = (lambda: f.fileobj.tell()) if source.suffix == ".gz" else f.tell
            batch: list[tuple[str, str, float, str]] = []
            for n_rules, rule in enumerate(read_rules(source, fmt), 1):
                batch.append(rule)
                if len(batch) == 100_000:
                    db.executemany("INSERT INTO raw.rules VALUES (?, ?, ?, ?)", batch)
                    batch.clear()
                    if n_rules % 1_000_000 < 2:
                        bar.update(raw_pos() - bar.n)
            db.executemany("INSERT INTO raw.rules VALUES (?, ?, ?, ?)", batch)
            bar.update(size - bar.n)
        # Phase 2: one sort (SQLite's external merge sort), then one row per phrase holding its rules best
        # first. A lookup is then one B-tree probe returning one row, whatever the phrase's rule count.
        # The filter is sized by the phrase count, known once grouped: their keys are kept until then.
        rows = db.execute(
            "SELECT phrase, paraphrase, score, relation FROM raw.rules ORDER BY phrase, score DESC, paraphrase"
        )
        out = db.cursor()
        grouped: list[tuple[str, str]] = []
        keys: list[np.ndarray] = []
        with tqdm(unit="phrase", desc="group", disable=not progress) as bar:
            for phrase, rules in itertools.groupby(rows, key=lambda r: r[0]):
                seen: set[tuple[str, str]] = set()
                packed = []
                for _, paraphrase, score, relation in rules:
                    # A repeated rule (PPDB repeats pairs under other LHS labels): its best copy comes first.
                    # Copies with another relation stay, for queries that filter by relation.
                    if (paraphrase, relation) not in seen:
                        seen.add((paraphrase, relation))
                        packed.append(f"{paraphrase}{FIELD_SEP}{score!r}{FIELD_SEP}{relation}")
                grouped.append((phrase, RULE_SEP.join(packed)))
                if len(grouped) == 100_000:
                    bar.update(_flush(out, grouped, keys))
            bar.update(_flush(out, grouped, keys))
        n_phrases = sum(len(k) for k in keys)
        bloom = PhraseFilter.empty(n_phrases)
        for k in keys:
            bloom.add(k)
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("fingerprint", fingerprint),
                ("source", str(source.resolve())),
                ("format", fmt),
                ("rules", n_rules),
                ("phrases", n_phrases),
                ("filter", bloom.bits.tobytes()),
            ],
        )
        db.commit()
        db.execute("DETACH DATABASE raw")
        db.close()
        os.replace(tmp, index)
    finally:
        for path in (tmp, raw):
            if os.path.exists(path):
                os.unlink(path)
    return index


def _flush(cursor: sqlite3.Cursor, grouped: list[tuple[str, str]], keys: list[np.ndarray]) -> int:
    """Write the grouped phrases and keep their keys; returns how many there were."""
    cursor.executemany("INSERT INTO phrases VALUES (?, ?)", grouped)
    keys.append(phrase_keys([phrase for phrase, _ in grouped]))
    written = len(grouped)
    grouped.clear()
    return written
