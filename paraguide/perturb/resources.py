"""The lexicons the operations read, loaded once and only when an operation asks: WordNet (Open English
WordNet), the PPDB synonym and antonym pairs and WordNet's antonym list (counter-fitting constraints),
HIT Cilin with its codes, the Chinese antonym list, pycorrector's same-pinyin confusion sets, jieba's word
frequencies, the stop words. Paths default to the shared data's (``find_shared``); a missing lexicon is a
``FileNotFoundError`` naming what to pass, raised by the operation that needs it (the suite counts it)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from paraguide.data.io import iter_lines
from paraguide.data.shared import find_shared
from paraguide.errors import DataError
from paraguide.text.stopwords import load_stopwords


class EnglishNgrams(NamedTuple):
    """Word pairs of an English corpus (:attr:`Resources.en_ngrams`): ``pairs`` seen in a row at least
    twice (whether a put-in word reads naturally beside its neighbours: "download movies" is there,
    "transmit movies" is not); ``coordinated``: each word's partners joined to it by "and" / "or" at least
    twice ("coffee or tea": two things of a kind, not the same thing)."""

    pairs: frozenset[tuple[str, str]]
    coordinated: dict[str, frozenset[str]]


# WordNet parts of speech as LemmInflect's universal tags.
UPOS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}


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
        self._zh_counts: dict[str, int] = {}
        self._en_lemmas: dict[tuple[str, str], str | None] = {}

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

    @cached_property
    def squad_train(self) -> list[tuple[str, list[str]]]:
        """SQuAD v1.1 train's paragraphs with their questions, read once for the English word statistics
        (:attr:`en_word_freq`, :attr:`en_lowercase_words`, :attr:`en_ngrams`)."""
        import json

        from paraguide.data.io import open_text

        path = self._path("en_word_freq", "squad_v1.1/train-v1.1.reconstructed.json.gz", "English corpus")
        with open_text(path) as f:
            data = json.load(f)
        return [
            (paragraph["context"], [qa["question"] for qa in paragraph["qas"]])
            for article in data["data"]
            for paragraph in article["paragraphs"]
        ]

    @cached_property
    def en_word_freq(self) -> dict[str, int]:
        """English word counts (lower-cased) over SQuAD v1.1 train's Wikipedia paragraphs (2.2M words):
        which words are common, so that a lexicon's rare or archaic word ("forthwith") is not put in."""
        import re
        from collections import Counter

        counts: Counter[str] = Counter()
        for context, _ in self.squad_train:
            counts.update(re.findall(r"[a-z]+", context.lower()))
        return dict(counts)

    @cached_property
    def en_lowercase_words(self) -> frozenset[str]:
        """Words written in lower case inside sentences of SQuAD v1.1 train's paragraphs at least 3 times
        and at least as often as capitalised there ("despite", "new", "pro"; not "peyton", "super"): a
        capitalised run that starts with one is no name ("Despite Denver")."""
        import re
        from collections import Counter

        lower: Counter[str] = Counter()
        upper: Counter[str] = Counter()
        for context, _ in self.squad_train:
            for word in re.findall(r"(?<=[a-z,;] )[A-Za-z][a-z]+", context):
                (upper if word[0].isupper() else lower)[word.lower()] += 1
        return frozenset(w for w, n in lower.items() if n >= 3 and n >= upper[w])

    @cached_property
    def wordnet_first_antonyms(self) -> dict[tuple[str, str], list[str]]:
        """WordNet antonyms of each lemma's first sense per part of speech (``("cold", "a")`` ->
        ``["hot"]``; WordNet.first_antonyms): the antonyms of every sense together are another question's
        ("right" -> left, wrong)."""
        return {
            (lemma, pos): [other.lower() for other in found]
            for lemma, by_pos in self.wordnet.first_antonyms.items()
            for pos, found in by_pos.items()
        }

    @cached_property
    def en_words(self) -> frozenset[str]:
        """NLTK's English word list (the ``words`` corpus: 236k words as a dictionary spells them, common
        words lower-cased and names capitalised: "recieve" is not there, "Japan" is)."""
        import zipfile

        path = self._path("en_words", "nltk_data/corpora/words.zip", "English word list")
        with zipfile.ZipFile(path) as z:
            return frozenset(z.read("words/en").decode("utf-8").split())

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

    @cached_property
    def jieba_flags(self) -> dict[str, str]:
        """jieba's dictionary POS flag of each of its words (ICTCLAS: n, v, a, d, ns, nr, nt ...)."""
        from paraguide.text.tokenize import jieba_module

        jieba_module()
        import jieba.posseg

        return dict(jieba.posseg.dt.word_tag_tab)

    @cached_property
    def cilin_classes(self) -> dict[str, list[str]]:
        """Cilin's level-4 classes (a code's first 5 characters, "Bh07A") and their groups' codes."""
        classes: dict[str, list[str]] = {}
        for code in self.cilin_groups:
            classes.setdefault(code[:5], []).append(code)
        return classes

    @cached_property
    def en_ngrams(self) -> EnglishNgrams:
        """Word pairs of an English corpus, lower-cased: SQuAD train's paragraphs and questions and the
        Quora question pairs (5.7M words). See :class:`EnglishNgrams`."""
        import re
        from collections import Counter

        quora = self._path("quora", "quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz", "Quora questions")
        texts = [text for context, questions in self.squad_train for text in (context, *questions)]
        texts += [q for _, line in iter_lines(quora) for q in line.split("\t")[:2]]
        word = re.compile(r"[a-z]+(?:'[a-z]+)?|[^a-z\s]")
        pairs: Counter[tuple[str, str]] = Counter()
        joined: Counter[tuple[str, str]] = Counter()
        for text in texts:
            words = word.findall(text.lower())
            pairs.update(zip(words, words[1:], strict=False))
            for i in range(1, len(words) - 1):
                if words[i] in ("and", "or") and words[i - 1].isalpha() and words[i + 1].isalpha():
                    joined[words[i - 1], words[i + 1]] += 1
                    joined[words[i + 1], words[i - 1]] += 1
        partners: dict[str, set[str]] = {}
        for (a, b), n in joined.items():
            if n >= 2:  # once may be chance ("country and agency")
                partners.setdefault(a, set()).add(b)
        return EnglishNgrams(
            frozenset(p for p, n in pairs.items() if n >= 2),
            {w: frozenset(found) for w, found in partners.items()},
        )

    def en_lemma(self, word: str, pos: str) -> str | None:
        """The word's WordNet lemma as ``pos`` (WordNet ``n``, ``v``, ``a``, ``r``): LemmInflect's lemma when
        WordNet lists it, else WordNet's own detachment when it gives exactly one; remembered, since every
        operation asks it of every word of every question."""
        key = (word, pos)
        if key not in self._en_lemmas:
            from lemminflect import getLemma

            wn = self.wordnet
            lemmas = (x.lower() for x in getLemma(word, upos=UPOS[pos]))
            found = next((x for x in lemmas if pos in wn.lemmas.get(x, {})), None)
            if found is None:
                options = wn.lemmatize(word, pos)
                found = options[0] if len(options) == 1 else None
            self._en_lemmas[key] = found
        return self._en_lemmas[key]

    def zh_count(self, text: str) -> int:
        """How often ``text`` occurs in LCQMC train's questions (:attr:`zh_questions`), remembered: the same
        names and words are asked about for question after question, and each count scans 2.9M
        characters."""
        if text not in self._zh_counts:
            self._zh_counts[text] = self.zh_questions.count(text)
        return self._zh_counts[text]

    def zh_seen(self, text: str) -> bool:
        """Whether ``text`` occurs in LCQMC train's questions (remembered, as :meth:`zh_count`)."""
        return self.zh_count(text) > 0

    @cached_property
    def zh_questions(self) -> str:
        """LCQMC train's distinct questions, one a line (246k, 2.9M characters): whether a put-in Chinese
        word is seen beside a neighbour of the question ("男朋友的" is there, "玩电视机" is not)."""
        path = self._path("lcqmc", "lcqmc/train.tsv.gz", "LCQMC questions")
        questions = {q for _, line in iter_lines(path) for q in line.rstrip("\n").split("\t")[:2]}
        return "\n".join(sorted(questions))
