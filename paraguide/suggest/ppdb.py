"""PPDB suggestions (Gan & Ng §3.1.1): paraphrases of the question's n-grams from a paraphrase database.

The source reads PPDB 2.0 rules, its human-labelled TSV or word-pair lists
(:mod:`paraguide.suggest.ppdb_formats`) through an on-disk SQLite index built once
(:mod:`paraguide.suggest.ppdb_index`) and a Bloom filter over its phrases (:mod:`paraguide.suggest.ppdb_bloom`),
so that most n-grams of a question -- which are no phrase of the database -- never reach SQLite at all.

For a question: every n-gram up to 6 tokens (lower-cased; unigrams that are stop words skipped, and n-grams
with a capitalised word after the first, taken for a name) is looked up in one batched query per batch of
questions; paraphrases with a score at or above the threshold (default 0.25, the paper's), of the allowed
entailment relations if any, not already in the question and not stop words alone, ranked by score, then
longer match, then text.
"""

from __future__ import annotations

import os
import re
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from paraguide.arguments import texts
from paraguide.data.shared import find_shared
from paraguide.suggest.base import Suggestion
from paraguide.suggest.ppdb_bloom import FOLD, PhraseFilter, mix_keys, phrase_keys
from paraguide.suggest.ppdb_formats import FORMATS, detect_rule_format, read_rules
from paraguide.suggest.ppdb_index import FIELD_SEP, INDEX_VERSION, RULE_SEP, build_index, default_index_path
from paraguide.text.stopwords import is_stop_phrase, load_stopwords
from paraguide.text.tokenize import tokenize

# The formats, the index and the filter live in ppdb_formats, ppdb_index and ppdb_bloom; their names stay
# importable from here.
__all__ = [
    "FORMATS",
    "INDEX_VERSION",
    "PPDB",
    "PPDB_SYNONYMS",
    "PhraseFilter",
    "build_index",
    "default_index_path",
    "default_ppdb_path",
    "detect_rule_format",
    "phrase_keys",
    "ptb_tokens",
    "read_rules",
]

# PPDB's English side is Penn-Treebank tokenised and lower-cased: "what's" -> what 's, "don't" -> do n't.
# This regex gives NLTK's tokens on questions at a fraction of the cost (the index is queried per n-gram).
_PTB = re.compile(r"(?:[A-Za-z]\.){2,}|\w+(?=n't\b)|n't\b|'(?:s|re|ve|ll|d|m)\b|\w+(?:[-.]\w+)*|[^\w\s]")


_WORD = re.compile(r"\w")


def ptb_tokens(text: str) -> list[str]:
    """The Penn-Treebank-style tokens of ``text``, as PPDB's English side has them (case kept)."""
    return _PTB.findall(text)


# PPDB 2.0's single-word synonym pairs (the counter-fitting constraints, Mrkšić et al. 2016) in the shared
# data: the English ``ppdb`` source when no file is given.
PPDB_SYNONYMS = "en_lexical_constraints/ppdb_synonyms.txt"


def default_ppdb_path(lang: str = "en") -> Path:
    """The shared data's PPDB synonym pairs, the default file of the ``ppdb`` source for ``lang`` (English
    only); a ValueError naming what to pass where there are none."""
    found = find_shared(PPDB_SYNONYMS) if lang == "en" else None
    if found is None:
        where = f"{PPDB_SYNONYMS} in the shared data (set PARAGUIDE_SHARED_DATA)" if lang == "en" else "none"
        raise ValueError(f"ppdb needs its file: --source ppdb:PATH (default for {lang}: {where})")
    return found


class PPDB:
    """Suggestions from a PPDB-like file: ``PPDB("ppdb-2.0-xl-lexical.gz").suggest(questions)``.

    ``path``: the file (any of :data:`FORMATS`; ``fmt`` names it, else it is detected); ``lang``: the
    questions' language; ``threshold``: the lowest score suggested; ``relations``: the entailment relations
    allowed (None: all); ``max_n``: the longest n-gram looked up; ``per_phrase``: the most rules used per
    phrase; ``index``: where its index is kept (default: :func:`default_index_path`); ``stopwords``: the
    language's list unless given; ``progress``: progress bars while indexing; ``skip_names``: leave
    capitalised words after the first alone."""

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
        self.files = (self.path,)
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
        for rule in packed.split(RULE_SEP):
            paraphrase, score, relation = rule.split(FIELD_SEP)
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
        """Ranked suggestions for each of ``questions``, best first (at most ``top_k``)."""
        questions = texts(questions, "questions")
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
            keys = keys[: n - length + 1] * np.uint64(FOLD) + hashes[length - 1 :]
            s = starts[: n - length + 1]
            ok = (s + length <= ends[s]) & (before[s + length] == before[s])
            if length == 1:
                ok &= single
            s = s[ok][self.filter.may_contain(mix_keys(keys[ok]))]
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
