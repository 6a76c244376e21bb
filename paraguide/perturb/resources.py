"""The lexicons the operations read, loaded once and only when an operation asks: WordNet (Open English
WordNet), the PPDB synonym and antonym pairs and WordNet's antonym list (counter-fitting constraints),
HIT Cilin with its codes, the Chinese antonym list, pycorrector's same-pinyin confusion sets, jieba's word
frequencies, the stop words. Paths default to the shared data's (``find_shared``); a missing lexicon is a
``FileNotFoundError`` naming what to pass, raised by the operation that needs it (the suite counts it)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from paraguide.data.io import iter_lines
from paraguide.data.shared import find_shared
from paraguide.errors import DataError
from paraguide.text.stopwords import load_stopwords


def _shared(relative: str, what: str) -> Path:
    path = find_shared(relative)
    if path is None:
        raise FileNotFoundError(
            f"no {what}: {relative} of the shared data was not found (set PARAGUIDE_SHARED_DATA)"
        )
    return path


def read_word_pairs(path: Path, separator: str | None = None) -> dict[str, set[str]]:
    """Symmetric word pairs, one per line (``a b`` or, with ``separator``, ``a@b``): ``{a: {b}, b: {a}}``.
    A line without two words is a :class:`DataError` naming it."""
    pairs: dict[str, set[str]] = {}
    for line_no, text in iter_lines(path):
        if not text.strip():
            continue
        parts = text.strip().split(separator) if separator else text.split()
        if len(parts) != 2 or not all(p.strip() for p in parts):
            if separator:  # the Chinese list has a few lines with one side empty: skipped
                continue
            raise DataError(str(path), "expected two words", line=line_no)
        a, b = (p.strip() for p in parts)
        pairs.setdefault(a, set()).add(b)
        pairs.setdefault(b, set()).add(a)
    return pairs


class Resources:
    """Lazy lexicons for one language, shared by the operations of a suite. ``paths`` overrides a default:
    ``{"wordnet": folder, "cilin": file, "zh_antonyms": file, "same_pinyin": file, ...}``."""

    def __init__(self, lang: str, paths: dict[str, str] | None = None):
        self.lang = lang
        self.paths = dict(paths or {})

    def _path(self, key: str, relative: str, what: str) -> Path:
        return Path(self.paths[key]) if key in self.paths else _shared(relative, what)

    @cached_property
    def stopwords(self) -> frozenset[str]:
        return load_stopwords(self.lang)

    # English
    @cached_property
    def wordnet(self):
        from paraguide.suggest.lexicon import WordNet

        return WordNet(self.paths.get("wordnet"), max_sense=None)

    @cached_property
    def ppdb_synonyms(self) -> dict[str, set[str]]:
        return read_word_pairs(
            self._path("ppdb_synonyms", "en_lexical_constraints/ppdb_synonyms.txt", "PPDB synonym pairs")
        )

    @cached_property
    def en_antonyms(self) -> dict[str, set[str]]:
        """Antonym pairs of WordNet's list and PPDB's (inflected forms included: "slowing")."""
        out: dict[str, set[str]] = {}
        for key, relative in (
            ("wordnet_antonyms", "en_lexical_constraints/wordnet_antonyms.txt"),
            ("ppdb_antonyms", "en_lexical_constraints/ppdb_antonyms.txt"),
        ):
            for a, bs in read_word_pairs(self._path(key, relative, "antonym pairs")).items():
                out.setdefault(a, set()).update(bs)
        return out

    # Chinese
    @cached_property
    def cilin_lines(self) -> list[tuple[str, str, list[str]]]:
        """HIT Cilin's ``(code, flag, words)`` lines (``=`` synonyms, ``#`` related, ``@`` alone)."""
        from paraguide.suggest.lexicon import read_cilin

        return list(read_cilin(self._path("cilin", "zh_cilin/hit_cilin_extended.utf8.txt", "HIT Cilin")))

    @cached_property
    def cilin_codes(self) -> dict[str, list[str]]:
        """Each Cilin word's codes (a word of several senses has several)."""
        codes: dict[str, list[str]] = {}
        for code, _, words in self.cilin_lines:
            for w in words:
                codes.setdefault(w, []).append(code)
        return codes

    @cached_property
    def cilin_groups(self) -> dict[str, list[str]]:
        """Cilin's words by code (8 characters: the level-5 group and its flag)."""
        return {code: words for code, _, words in self.cilin_lines}

    @cached_property
    def zh_antonyms(self) -> dict[str, set[str]]:
        return read_word_pairs(self._path("zh_antonyms", "zh_cilin/antonym.txt", "Chinese antonyms"), "@")

    @cached_property
    def same_pinyin(self) -> dict[str, str]:
        """Each character's same-pinyin, same-tone characters (pycorrector's confusion set)."""
        path = self._path("same_pinyin", "pycorrector_confusion/same_pinyin.txt", "same-pinyin sets")
        out = {}
        for _, text in iter_lines(path):
            if text.startswith("#") or not text.strip():
                continue
            cells = text.rstrip("\n").split("\t")
            if len(cells) >= 2 and len(cells[0]) == 1:
                out[cells[0]] = cells[1].strip()
        return out

    @cached_property
    def jieba_freq(self) -> dict[str, int]:
        """jieba's dictionary frequencies (its own word list: which words and characters are common)."""
        from paraguide.text.tokenize import jieba_module

        jieba = jieba_module()
        jieba.dt.check_initialized()
        return dict(jieba.dt.FREQ)
