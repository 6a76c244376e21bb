"""PPDB suggestions (Gan & Ng §3.1.1): paraphrases of the question's n-grams from a paraphrase database.

Three file formats, plain or gzip, detected from the first line:

* ``ppdb`` -- PPDB 2.0 rules, ``LHS ||| PHRASE ||| PARAPHRASE ||| FEATURES ||| ALIGNMENT ||| ENTAILMENT``;
  the score is the ``PPDB2.0Score`` feature, the relation the entailment column.
* ``human`` -- the PPDB 2.0 human-labelled TSV, ``avg_score<TAB>[LHS]<TAB>phrase<TAB>paraphrase<TAB>scores``;
  the 1-5 average is mapped to 0-1 (``(avg - 1) / 4``).
* ``pairs`` -- word-pair lists, ``word1 word2`` per line (e.g. PPDB-derived synonym lists); score 1, both
  directions.

The file is read once into an on-disk SQLite index, built in a temporary file and renamed into place, and
reused while the source file's size and modification time are unchanged. The index holds one row per
phrase with all its rules packed best first (one sort at build time), so that a lookup is one B-tree probe
and one row, and a Bloom filter over the phrases, so that most n-grams of a question -- which are no
phrase of the database -- never reach SQLite at all. Queries stay on disk: memory does not grow with the
database. For a question: every n-gram up to 6 tokens (lower-cased; unigrams that are stop words skipped,
and n-grams with a capitalised word after the first, taken for a name) is looked up in one batched query
per batch of questions; paraphrases with a score at or above the threshold (default 0.25, the paper's), of
the allowed entailment relations if any, not already in the question and not stop words alone, ranked by
score, then longer match, then text.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import math
import os
import re
import sqlite3
import tempfile
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from paraguide.data.io import iter_lines
from paraguide.data.shared import cache_dir, find_shared
from paraguide.errors import DataError
from paraguide.suggest.base import Suggestion
from paraguide.text.stopwords import is_stop_phrase, load_stopwords
from paraguide.text.tokenize import tokenize

FORMATS = ("ppdb", "human", "pairs")
INDEX_VERSION = 4
_RULE, _FIELD = "\x1e", "\x1f"  # separators of the packed rules of a phrase (ASCII record/unit separators)
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
    digest = hashlib.sha1(str(source).encode()).hexdigest()[:12]
    return cache_dir("ppdb") / f"{source.name}.{digest}.sqlite"


def _fingerprint(source: Path, fmt: str) -> str:
    st = source.stat()
    return f"v{INDEX_VERSION}:{fmt}:{st.st_size}:{st.st_mtime_ns}"


# N-gram keys: a CRC-32 per token, folded left to right (mod 2**64) and mixed (splitmix64's finaliser).
# Folding token hashes lets a batch of questions key all its n-grams in numpy at once -- no n-gram
# string is built for the ~95 % that are no phrase of the database -- and the index's phrases get the
# same keys from their space-separated tokens. Stable across processes, unlike Python's salted hash.
_FOLD = 0x100000001B3  # the 64-bit FNV prime: odd, so the fold loses nothing mod 2**64


def _mix(keys: np.ndarray) -> np.ndarray:
    keys = keys ^ (keys >> np.uint64(30))
    keys = keys * np.uint64(0xBF58476D1CE4E5B9)
    keys = keys ^ (keys >> np.uint64(27))
    keys = keys * np.uint64(0x94D049BB133111EB)
    return keys ^ (keys >> np.uint64(31))


def phrase_keys(phrases: Sequence[str]) -> np.ndarray:
    """The key of each phrase (tokens separated by single spaces), as :class:`PPDB` computes it for a
    question's n-grams."""
    mask, keys = (1 << 64) - 1, []
    for phrase in phrases:
        key = 0
        for token in phrase.split(" "):
            key = (key * _FOLD + zlib.crc32(token.encode())) & mask
        keys.append(key)
    return _mix(np.array(keys, dtype=np.uint64))


class PhraseFilter:
    """A Bloom filter over the index's phrase keys, kept in memory (about 2 bytes per phrase: 16 MB at
    PPDB XL). Never a false negative; about 1 % false positives (10-20 bits per phrase, 7 probes), which
    the SQLite lookup then answers."""

    PROBES = 7

    def __init__(self, bits: np.ndarray):
        self.bits = bits
        self.mask = np.uint64(len(bits) * 8 - 1)

    @classmethod
    def empty(cls, phrases: int) -> PhraseFilter:
        return cls(np.zeros(1 << max(10, math.ceil(math.log2(max(phrases, 1) * 10)) - 3), dtype=np.uint8))

    def _positions(self, keys: np.ndarray) -> Iterator[np.ndarray]:
        h1, h2 = keys & np.uint64(0xFFFFFFFF), (keys >> np.uint64(32)) | np.uint64(1)  # double hashing
        for i in range(self.PROBES):
            yield (h1 + np.uint64(i) * h2) & self.mask

    def add(self, keys: np.ndarray) -> None:
        for pos in self._positions(keys):
            np.bitwise_or.at(
                self.bits, pos >> np.uint64(3), np.left_shift(1, pos & np.uint64(7)).astype(np.uint8)
            )

    def may_contain(self, keys: np.ndarray) -> np.ndarray:
        """A boolean per key: False means certainly not in the index."""
        keep = np.ones(len(keys), dtype=bool)
        for pos in self._positions(keys):
            keep &= (self.bits[pos >> np.uint64(3)] >> (pos & np.uint64(7)).astype(np.uint8)) & 1 == 1
        return keep


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
                        packed.append(f"{paraphrase}{_FIELD}{score!r}{_FIELD}{relation}")
                grouped.append((phrase, _RULE.join(packed)))
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


# PPDB's English side is Penn-Treebank tokenised and lower-cased: "what's" -> what 's, "don't" -> do n't.
# This regex gives NLTK's tokens on questions at a fraction of the cost (the index is queried per n-gram).
_PTB = re.compile(r"(?:[A-Za-z]\.){2,}|\w+(?=n't\b)|n't\b|'(?:s|re|ve|ll|d|m)\b|\w+(?:[-.]\w+)*|[^\w\s]")


_WORD = re.compile(r"\w")


def ptb_tokens(text: str) -> list[str]:
    return _PTB.findall(text)


# PPDB 2.0's single-word synonym pairs (the counter-fitting constraints, Mrkšić et al. 2016) in the shared
# data: the English ``ppdb`` source when no file is given.
PPDB_SYNONYMS = "en_lexical_constraints/ppdb_synonyms.txt"


def default_ppdb_path(lang: str = "en") -> Path:
    """The shared data's PPDB synonym pairs (English); an error naming what to pass where there are none."""
    found = find_shared(PPDB_SYNONYMS) if lang == "en" else None
    if found is None:
        where = f"{PPDB_SYNONYMS} in the shared data (set PARAGUIDE_SHARED_DATA)" if lang == "en" else "none"
        raise ValueError(f"ppdb needs its file: --source ppdb:PATH (default for {lang}: {where})")
    return found


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
        (bits,) = self.db.execute("SELECT value FROM meta WHERE key='filter'").fetchone()
        self.filter = PhraseFilter(np.frombuffer(bits, dtype=np.uint8))
        self.stopwords = stopwords if stopwords is not None else load_stopwords(lang)
        # Answers are remembered (up to memo_size phrases): questions share many n-grams ("what is the").
        self.memo_size = 1_000_000
        self._memo: dict[str, tuple[tuple[str, float, str], ...]] = {}
        self._memo_limit = per_phrase
        self._candidates: dict[str, tuple[tuple[str, float, str], ...]] = {}
        self._tokens: dict[str, tuple[int, bool]] = {}  # token -> (hash, may be a unigram on its own)

    def _lookup(
        self, phrases: Iterable[str], limit: int | None
    ) -> dict[str, tuple[tuple[str, float, str], ...]]:
        # The best `limit` (<= per_phrase) rules of each phrase (which has passed the filter) at or above the
        # threshold and of the allowed relations, best first. Answers are remembered: questions share many
        # n-grams.
        limit = min(limit or self.per_phrase, self.per_phrase)
        if limit != self._memo_limit:  # remembered answers hold at most that many rules per phrase
            self._forget()
            self._memo_limit = limit
        memo, wanted = self._memo, set(phrases)
        new = [p for p in wanted if p not in memo]
        if len(memo) + len(new) > self.memo_size:
            self._forget()
        memo.update(dict.fromkeys(new, ()))
        for i in range(0, len(new), 900):  # within SQLite's bound-variable limit
            chunk = new[i : i + 900]
            rows = self.db.execute(
                f"SELECT phrase, rules FROM phrases WHERE phrase IN ({','.join('?' * len(chunk))})", chunk
            )
            for phrase, rules in rows:
                memo[phrase] = self._unpack(rules, limit)
        return {p: memo[p] for p in wanted if memo.get(p)}

    def _unpack(self, packed: str, limit: int) -> tuple[tuple[str, float, str], ...]:
        # Rules are packed best first: the first copy of a paraphrase with an allowed relation is its best.
        kept: dict[str, tuple[str, float, str]] = {}
        for rule in packed.split(_RULE):
            paraphrase, score, relation = rule.split(_FIELD)
            score = float(score)
            if score < self.threshold or len(kept) == limit:
                break
            if paraphrase not in kept and (self.relations is None or relation in self.relations):
                kept[paraphrase] = (paraphrase, score, relation)
        return tuple(kept.values())

    def _forget(self) -> None:
        self._memo.clear()
        self._candidates.clear()

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        surface = [ptb_tokens(q) if self.lang == "en" else tokenize(q, self.lang) for q in questions]
        tokenized = [[t.lower() for t in tokens] for tokens in surface]
        grams = self._ngrams(surface, tokenized)
        # A question's best top_k suggestions hold at most top_k rules of any one phrase: fetch no more.
        table = self._lookup((g for per_question in grams for g, _ in per_question), limit=top_k)
        candidates = self._candidates
        for gram, rules in table.items():
            if gram not in candidates:  # the question-independent checks, once per phrase
                candidates[gram] = tuple(
                    r for r in rules if r[0] != gram and not is_stop_phrase(r[0].split(), self.stopwords)
                )
        results = []
        for tokens, per_question in zip(tokenized, grams, strict=True):
            text = " " + " ".join(tokens) + " "
            # Best rank key per paraphrase: (-score, -match length, paraphrase, matched, span, relation).
            best: dict[str, tuple] = {}
            for gram, span in per_question:
                length = span[1] - span[0]
                for paraphrase, score, relation in candidates.get(gram, ()):
                    key = (-score, -length, paraphrase, gram, span, relation)
                    old = best.get(paraphrase)
                    if (old is None or key < old) and f" {paraphrase} " not in text:
                        best[paraphrase] = key  # not already in the question (token-wise)
            keys = sorted(best.values())[:top_k]  # (a few dozen: faster than heapq.nsmallest)
            results.append([Suggestion(k[2], k[3], k[4], round(-k[0], 4), self.name, k[5]) for k in keys])
        return results

    def _ngrams(self, surface: list[list[str]], tokenized: list[list[str]]) -> list[list[tuple[str, tuple]]]:
        """Each question's n-grams (up to ``max_n`` tokens) that may be phrases of the index, with spans.

        Which n-grams count: capitalised words after the first are taken for names (Super Bowl) and are in
        none; stop words and punctuation are no unigram on their own. The whole batch is keyed in numpy,
        one n-gram length at a time, and only the n-grams that pass the filter become strings.
        """
        sizes = np.array([len(tokens) for tokens in tokenized], dtype=np.int64)
        flat = [t for tokens in tokenized for t in tokens]
        n = len(flat)
        ends = np.repeat(np.cumsum(sizes), sizes)  # where each token's question ends
        blocked = np.fromiter(
            (
                self.skip_names and i > 0 and t[:1].isupper()
                for tokens in surface
                for i, t in enumerate(tokens)
            ),
            dtype=bool,
            count=n,
        )
        known = self._tokens
        if len(known) > self.memo_size:
            known.clear()
        info = [known.get(t) or known.setdefault(t, self._token_info(t)) for t in flat]
        hashes = np.fromiter((i[0] for i in info), dtype=np.uint64, count=n)
        single = np.fromiter((i[1] for i in info), dtype=bool, count=n)
        before = np.concatenate([[0], np.cumsum(blocked)])  # names among the tokens before each position
        keys, starts = np.zeros(n, dtype=np.uint64), np.arange(n)
        kept = []
        for length in range(1, min(self.max_n, n) + 1):
            # keys[s] becomes the key of tokens[s : s + length], for every start s at once.
            keys = keys[: n - length + 1] * np.uint64(_FOLD) + hashes[length - 1 :]
            s = starts[: n - length + 1]
            ok = (s + length <= ends[s]) & (before[s + length] == before[s])
            if length == 1:
                ok &= single
            s = s[ok][self.filter.may_contain(_mix(keys[ok]))]
            kept.append((s.tolist(), length))
        question = np.repeat(np.arange(len(tokenized)), sizes).tolist()
        offset = np.repeat(np.cumsum(sizes) - sizes, sizes).tolist()  # where each token's question starts
        grams: list[list[tuple[str, tuple]]] = [[] for _ in tokenized]
        for found, length in kept:
            for s in found:
                start = s - offset[s]
                grams[question[s]].append((" ".join(flat[s : s + length]), (start, start + length)))
        return grams

    def _token_info(self, token: str) -> tuple[int, bool]:
        return zlib.crc32(token.encode()), token not in self.stopwords and _WORD.search(token) is not None
