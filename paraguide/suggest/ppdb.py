"""PPDB suggestions (Gan & Ng §3.1.1): paraphrases of the question's n-grams from a paraphrase database.

Three file formats, plain or gzip, detected from the first line:

* ``ppdb`` -- PPDB 2.0 rules, ``LHS ||| PHRASE ||| PARAPHRASE ||| FEATURES ||| ALIGNMENT ||| ENTAILMENT``;
  the score is the ``PPDB2.0Score`` feature, the relation the entailment column.
* ``human`` -- the PPDB 2.0 human-labelled TSV, ``avg_score<TAB>[LHS]<TAB>phrase<TAB>paraphrase<TAB>scores``;
  the 1-5 average is mapped to 0-1 (``(avg - 1) / 4``).
* ``pairs`` -- word-pair lists, ``word1 word2`` per line (e.g. PPDB-derived synonym lists); score 1, both
  directions.

The file is read once into an on-disk SQLite index (one table, one B-tree index on the phrase), built in
a temporary file and renamed into place, and reused while the source file's size and modification time are
unchanged. Queries stay on disk: memory does not grow with the database. For a question: every n-gram up
to 6 tokens (lower-cased; unigrams that are stop words skipped, and n-grams with a capitalised word after
the first, taken for a name) is looked up in one batched query per
batch of questions; paraphrases with a score at or above the threshold (default 0.25, the paper's), of
the allowed entailment relations if any, not already in the question and not stop words alone, ranked by
score, then longer match, then text.
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from tqdm.auto import tqdm

from paraguide.data.io import iter_lines
from paraguide.errors import DataError
from paraguide.suggest.base import Suggestion
from paraguide.text.stopwords import is_stop_phrase, load_stopwords
from paraguide.text.tokenize import tokenize

FORMATS = ("ppdb", "human", "pairs")
INDEX_VERSION = 2
_SCORE = re.compile(r"(?:^|\s)PPDB2\.0Score=(-?[\d.eE+-]+)")


def detect_format(path: str | os.PathLike) -> str:
    for line_no, text in iter_lines(path):
        if not text.strip():
            continue
        if "|||" in text:
            return "ppdb"
        cells = text.split("\t")
        if len(cells) >= 4:
            try:
                float(cells[0])
                return "human"
            except ValueError:
                pass
        if len(text.split()) == 2:
            return "pairs"
        raise DataError(
            str(path),
            "not a PPDB file: expected 'LHS ||| PHRASE ||| PARAPHRASE ||| FEATURES ...', the human-labelled "
            "TSV 'score<TAB>[LHS]<TAB>phrase<TAB>paraphrase<TAB>scores' or 'word1 word2' pairs",
            line=line_no,
        )
    raise DataError(str(path), "empty PPDB file")


def read_rules(path: str | os.PathLike, fmt: str | None = None) -> Iterator[tuple[str, str, float, str]]:
    """``(phrase, paraphrase, score, relation)`` for every rule of a PPDB-like file."""
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise ValueError(f"unknown PPDB format {fmt!r}; choose one of {', '.join(FORMATS)}")
    for line_no, text in iter_lines(path):
        if not text.strip():
            continue
        if fmt == "ppdb":
            cells = [c.strip() for c in text.split("|||")]
            if len(cells) < 4:
                raise DataError(str(path), "expected at least 4 '|||' fields", line=line_no)
            m = _SCORE.search(cells[3])
            if m is None:
                raise DataError(str(path), "no PPDB2.0Score in FEATURES", line=line_no, field="FEATURES")
            yield cells[1].lower(), cells[2].lower(), float(m.group(1)), cells[5] if len(cells) > 5 else ""
        elif fmt == "human":
            cells = text.split("\t")
            try:
                score = (float(cells[0]) - 1) / 4
            except (ValueError, IndexError):
                raise DataError(
                    str(path), "expected a 1-5 score first", line=line_no, field="score"
                ) from None
            if len(cells) < 4:
                raise DataError(str(path), "expected score, [LHS], phrase, paraphrase", line=line_no)
            yield cells[2].strip().lower(), cells[3].strip().lower(), score, ""
        else:
            words = text.split()
            if len(words) != 2:
                raise DataError(str(path), "expected 'word1 word2'", line=line_no)
            a, b = words[0].lower(), words[1].lower()
            yield a, b, 1.0, ""
            yield b, a, 1.0, ""


def default_index_path(source: str | os.PathLike) -> Path:
    """Where the index of ``source`` is kept: ``$PARAGUIDE_CACHE`` or ``~/.cache/paraguide``, under ``ppdb/``,
    named after the source's absolute path (its folder may be read-only)."""
    source = Path(source).resolve()
    cache = Path(os.environ.get("PARAGUIDE_CACHE", Path.home() / ".cache" / "paraguide"))
    digest = hashlib.sha1(str(source).encode()).hexdigest()[:12]
    return cache / "ppdb" / f"{source.name}.{digest}.sqlite"


def _fingerprint(source: Path, fmt: str) -> str:
    st = source.stat()
    return f"v{INDEX_VERSION}:{fmt}:{st.st_size}:{st.st_mtime_ns}"


def build_index(
    source: str | os.PathLike,
    index: str | os.PathLike | None = None,
    fmt: str | None = None,
    progress: bool = True,
) -> Path:
    """Build (or reuse) the SQLite index of a PPDB-like file; returns its path."""
    source = Path(source)
    if not source.exists():
        raise FileNotFoundError(f"no PPDB file at {source}")
    fmt = fmt or detect_format(source)
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
    try:
        db = sqlite3.connect(tmp)
        db.executescript(
            """
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE rules(phrase TEXT, paraphrase TEXT, score REAL, relation TEXT);
            """
        )
        size = source.stat().st_size
        opener = gzip.open if source.suffix == ".gz" else open
        with (
            opener(source, "rb") as raw,
            tqdm(
                total=size, unit="B", unit_scale=True, desc=f"index {source.name}", disable=not progress
            ) as bar,
        ):
            raw_pos = (lambda: raw.fileobj.tell()) if source.suffix == ".gz" else raw.tell
            batch: list[tuple[str, str, float, str]] = []
            for n, rule in enumerate(read_rules(source, fmt), 1):
                batch.append(rule)
                if len(batch) == 100_000:
                    db.executemany("INSERT INTO rules VALUES (?, ?, ?, ?)", batch)
                    batch.clear()
                    if n % 1_000_000 < 2:
                        bar.update(raw_pos() - bar.n)
            db.executemany("INSERT INTO rules VALUES (?, ?, ?, ?)", batch)
            bar.update(size - bar.n)
        # One sort at the end (SQLite's external merge sort) is much faster than a B-tree kept in order
        # while inserting tens of millions of rows.
        db.execute("CREATE INDEX rules_phrase ON rules(phrase, score DESC)")
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("fingerprint", fingerprint), ("source", str(source.resolve())), ("format", fmt)],
        )
        db.commit()
        db.close()
        os.replace(tmp, index)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return index


# PPDB's English side is Penn-Treebank tokenised and lower-cased: "what's" -> what 's, "don't" -> do n't.
# This regex gives NLTK's tokens on questions at a fraction of the cost (the index is queried per n-gram).
_PTB = re.compile(r"(?:[A-Za-z]\.){2,}|\w+(?=n't\b)|n't\b|'(?:s|re|ve|ll|d|m)\b|\w+(?:[-.]\w+)*|[^\w\s]")


_WORD = re.compile(r"\w")


def ptb_tokens(text: str) -> list[str]:
    return _PTB.findall(text)


class PPDB:
    """Suggestions from a PPDB-like file: ``PPDB("ppdb-2.0-xl-lexical.gz").suggest(questions)``."""

    name = "ppdb"

    def __init__(
        self,
        path: str | os.PathLike,
        lang: str = "en",
        threshold: float = 0.25,
        relations: Iterable[str] | None = None,
        max_n: int = 6,
        per_phrase: int = 50,
        index: str | os.PathLike | None = None,
        fmt: str | None = None,
        stopwords: frozenset[str] | None = None,
        progress: bool = True,
        skip_names: bool = True,
    ):
        self.path, self.lang, self.threshold, self.max_n = Path(path), lang, threshold, max_n
        self.skip_names, self.per_phrase = skip_names, per_phrase
        self.relations = frozenset(relations) if relations else None
        self.index = build_index(path, index, fmt, progress)
        self.db = sqlite3.connect(f"file:{self.index}?mode=ro", uri=True, check_same_thread=False)
        self.stopwords = stopwords if stopwords is not None else load_stopwords(lang)
        self.memo_size = 1_000_000
        self._memo: dict[str, tuple[tuple[str, float, str], ...]] = {}
        self._stop_memo: dict[str, bool] = {}
        self._memo_limit = per_phrase

    def lookup(
        self, phrases: Iterable[str], limit: int | None = None
    ) -> dict[str, list[tuple[str, float, str]]]:
        """``{phrase: [(paraphrase, score, relation), ...]}``: at most ``limit`` (≤ ``per_phrase``) rules per phrase, the best
        at or above the threshold (a repeated rule may come twice; the best copy wins later). Answers are
        remembered (up to ``memo_size`` phrases): questions share many n-grams ("what is the")."""
        limit = min(limit or self.per_phrase, self.per_phrase)
        if limit != self._memo_limit:  # remembered answers hold at most that many rules per phrase
            self._memo.clear()
            self._memo_limit = limit
        wanted = set(phrases)
        found = {p: self._memo[p] for p in wanted if p in self._memo}
        phrases = sorted(wanted - found.keys())
        relations = sorted(self.relations or ())
        for i in range(0, len(phrases), 900):  # within SQLite's bound-variable limit
            chunk = phrases[i : i + 900]
            # The best `limit` rules of each phrase, ranked inside SQLite: a frequent word can have
            # thousands of paraphrases in a large PPDB, and only the best ones can win anyway.
            rows = self.db.execute(
                "SELECT phrase, paraphrase, score, relation FROM ("
                " SELECT phrase, paraphrase, score, relation, ROW_NUMBER() OVER ("
                "  PARTITION BY phrase ORDER BY score DESC, paraphrase) AS rank FROM rules"
                f" WHERE phrase IN ({','.join('?' * len(chunk))}) AND score >= ?"
                + (f" AND relation IN ({','.join('?' * len(relations))})" if relations else "")
                + ") WHERE rank <= ?",
                (*chunk, self.threshold, *relations, limit),
            )
            for phrase, paraphrase, score, relation in rows:
                found.setdefault(phrase, []).append((paraphrase, score, relation))
        if len(self._memo) + len(phrases) > self.memo_size:
            self._memo.clear()
        # Tuples, not lists: a large memo of lists would make every garbage collection walk it.
        self._memo.update((p, tuple(found.get(p, ()))) for p in phrases)
        return found

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        surface = [ptb_tokens(q) if self.lang == "en" else tokenize(q, self.lang) for q in questions]
        tokenized = [[t.lower() for t in tokens] for tokens in surface]
        grams = []
        for tokens, original in zip(tokenized, surface, strict=True):
            # Where an n-gram may start and end: capitalised words after the first are taken for names
            # (Super Bowl) and never paraphrased; stop words and punctuation are no unigram on their own.
            blocked = [self.skip_names and i > 0 and t[:1].isupper() for i, t in enumerate(original)]
            before = [0]
            for b in blocked:
                before.append(before[-1] + b)
            single = [t not in self.stopwords and _WORD.search(t) is not None for t in tokens]
            n = len(tokens)
            spans = [
                (s, e)
                for s in range(n)
                for e in range(s + 1, min(n, s + self.max_n) + 1)
                if before[e] == before[s] and (e - s > 1 or single[s])
            ]
            grams.append([(" ".join(tokens[s:e]), (s, e)) for s, e in spans])
        # A question's best top_k suggestions hold at most top_k rules of any one phrase: fetch no more.
        table = self.lookup((g for per_question in grams for g, _ in per_question), limit=top_k)
        results = []
        for tokens, per_question in zip(tokenized, grams, strict=True):
            text = " " + " ".join(tokens) + " "
            # Best rank key per paraphrase: (-score, -match length, paraphrase, matched, span, relation).
            best: dict[str, tuple] = {}
            for gram, span in per_question:
                length = span[1] - span[0]
                for paraphrase, score, relation in table.get(gram, ()):
                    key = (-score, -length, paraphrase, gram, span, relation)
                    if paraphrase in best and best[paraphrase] <= key:
                        continue
                    if paraphrase == gram or f" {paraphrase} " in text or self._stop_only(paraphrase):
                        continue  # already in the question (token-wise), or stop words alone
                    best[paraphrase] = key
            keys = heapq.nsmallest(top_k, best.values()) if top_k else sorted(best.values())
            results.append([Suggestion(k[2], k[3], k[4], round(-k[0], 4), self.name, k[5]) for k in keys])
        return results

    def _stop_only(self, phrase: str) -> bool:
        found = self._stop_memo.get(phrase)
        if found is None:
            found = self._stop_memo[phrase] = is_stop_phrase(phrase.split(), self.stopwords)
            if len(self._stop_memo) > self.memo_size:
                self._stop_memo.clear()
        return found
