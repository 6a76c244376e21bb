"""Lexicon suggestions: WordNet synonyms by part of speech (Open English WordNet YAML, or NLTK's wordnet
when installed: ``WordNet("nltk")``) and Chinese synonyms from HIT Tongyici Cilin (``=`` groups). Antonyms
stay loadable for the perturbation work.

WordNet: each content word of the question is tagged (NLTK's tagger when its data is there, else every
part of speech is tried; proper nouns are left alone), reduced to its WordNet lemma (WordNet's morphy detachment rules, checked against
the lemma list), and its synonyms are the other members of its synsets, scored 1 / rank of the sense
(the first, most frequent sense scores 1). The YAML is parsed once into a compact cached index.

Cilin: each jieba word of the question (stop words and non-words skipped) suggests the other words of its
``=`` (synonym) groups, scored 1 / number of groups the word belongs to (an unambiguous word's synonyms are
safer). ``#`` groups (related, not synonyms) and ``@`` (words alone) give none. Antonym lines with an
empty side are skipped and listed in ``skipped_antonym_lines``; lines without ``@`` are an error.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from functools import cached_property
from pathlib import Path

from paraguide.arguments import texts
from paraguide.data.fingerprint import file_sha256
from paraguide.data.io import atomic_write, iter_lines, open_text
from paraguide.data.shared import cache_dir, find_shared
from paraguide.errors import DataError
from paraguide.suggest.base import Suggestion
from paraguide.text.stopwords import is_word, load_stopwords
from paraguide.text.substitute import fix_do_support
from paraguide.text.tokenize import tokenize

WORDNET_POS = ("n", "v", "a", "r")
_PENN = {"N": "n", "V": "v", "J": "a", "R": "r"}
# WordNet's morphy: suffix detachments per part of speech.
_DETACH = {
    "n": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
    "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
    "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    "r": [],
}  # fmt: skip
INDEX_VERSION = 3  # 2: hypernyms and instance hypernyms; 3: first senses' antonyms


def _cache_file(kind: str, source: Path) -> Path:
    stamp = "".join(f"{p.name}:{file_sha256(p)};" for p in sorted(source.glob("*.yaml*")))
    digest = hashlib.sha1(f"v{INDEX_VERSION}:{source.resolve()}:{stamp}".encode()).hexdigest()[:12]
    return cache_dir(kind) / f"{digest}.json.gz"


def build_wordnet_index(folder: str | os.PathLike) -> dict:
    """``{"lemmas": {lemma: {pos: [synset, ...]}}, "synsets": {synset: [member, ...]},
    "antonyms": {lemma: {pos: [lemma, ...]}}, "first_antonyms": (the same, of each entry's first sense
    only), "hypernyms": {synset: [synset, ...]},
    "instance_hypernyms": {synset: [synset, ...]}}`` from Open English WordNet's YAML folder (cached).
    Instance hypernyms (Paris -> national capital) come from a synset's ``instance_hypernym`` list; the 2025
    edition has no named instances, so the map is empty there."""
    import yaml

    folder = Path(folder)
    files = sorted(folder.glob("entries-*.yaml*"))
    if not files:
        raise FileNotFoundError(f"{folder}: no Open English WordNet entries-*.yaml(.gz) files")
    cache = _cache_file("wordnet", folder)
    if cache.exists():
        with gzip.open(cache, "rt", encoding="utf-8") as f:
            return json.load(f)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def load(path: Path):
        with open_text(path) as f:  # gzip or not; corrupt gzip data is a DataError naming the file
            try:
                return yaml.load(f, Loader=loader)
            except UnicodeDecodeError:
                raise DataError(str(path), "invalid UTF-8") from None
            except yaml.YAMLError as e:
                mark = getattr(e, "problem_mark", None)
                problem = f"invalid YAML: {getattr(e, 'problem', None) or e}"
                raise DataError(str(path), problem, line=mark.line + 1 if mark else None) from None

    lemmas: dict[str, dict[str, list[str]]] = {}
    sense_lemma: dict[str, str] = {}
    sense_antonyms: list[tuple[str, str, list[str], bool]] = []  # lemma, pos, sense ids, of a first sense
    for path in files:
        for lemma, by_pos in (load(path) or {}).items():
            lemma = str(lemma)
            for pos, entry in by_pos.items():
                pos = "a" if pos == "s" else pos
                for number, sense in enumerate(entry.get("sense", [])):
                    lemmas.setdefault(lemma.lower(), {}).setdefault(pos, []).append(sense["synset"])
                    sense_lemma[sense["id"]] = lemma
                    if sense.get("antonym"):
                        sense_antonyms.append((lemma.lower(), pos, sense["antonym"], number == 0))
    synsets: dict[str, list[str]] = {}
    hypernyms: dict[str, list[str]] = {}
    instance_hypernyms: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.*.yaml*")):
        if path.name.startswith(("entries-", "frames")):
            continue
        for synset_id, synset in (load(path) or {}).items():
            synsets[str(synset_id)] = [str(m) for m in synset.get("members", [])]
            for key, found in (("hypernym", hypernyms), ("instance_hypernym", instance_hypernyms)):
                if synset.get(key):
                    found[str(synset_id)] = [str(h) for h in synset[key]]
    antonyms: dict[str, dict[str, list[str]]] = {}
    first_antonyms: dict[str, dict[str, list[str]]] = {}
    for lemma, pos, ids, first in sense_antonyms:
        for table in (antonyms, first_antonyms) if first else (antonyms,):
            found = table.setdefault(lemma, {}).setdefault(pos, [])
            found += [sense_lemma[i] for i in ids if i in sense_lemma and sense_lemma[i] not in found]
    index = {
        "lemmas": lemmas,
        "synsets": synsets,
        "antonyms": antonyms,
        "first_antonyms": first_antonyms,
        "hypernyms": hypernyms,
        "instance_hypernyms": instance_hypernyms,
    }
    with atomic_write(cache) as f:  # gzip-compressed: the path ends in .gz
        json.dump(index, f)
    return index


def index_from_nltk(wn) -> dict:
    """The same index from NLTK's WordNet reader (``nltk.corpus.wordnet``, when its data is installed):
    senses in NLTK's order (most frequent first), satellite adjectives counted as adjectives."""
    lemmas: dict[str, dict[str, list[str]]] = {}
    synsets: dict[str, list[str]] = {}
    antonyms: dict[str, dict[str, list[str]]] = {}
    first_antonyms: dict[str, dict[str, list[str]]] = {}
    hypernyms: dict[str, list[str]] = {}
    instance_hypernyms: dict[str, list[str]] = {}
    for pos in WORDNET_POS:
        for name in wn.all_lemma_names(pos):
            word = name.replace("_", " ").lower()
            for number, synset in enumerate(wn.synsets(name, pos)):
                sid = synset.name()
                lemmas.setdefault(word, {}).setdefault(pos, []).append(sid)
                if sid not in synsets:
                    synsets[sid] = [lemma.name().replace("_", " ") for lemma in synset.lemmas()]
                    for found, related in (
                        (hypernyms, synset.hypernyms()),
                        (instance_hypernyms, synset.instance_hypernyms()),
                    ):
                        if related:
                            found[sid] = [h.name() for h in related]
                for lemma in synset.lemmas():
                    if lemma.name().replace("_", " ").lower() != word:
                        continue
                    for table in (antonyms, first_antonyms) if number == 0 else (antonyms,):
                        found = table.setdefault(word, {}).setdefault(pos, [])
                        found += [
                            a.name().replace("_", " ") for a in lemma.antonyms() if a.name() not in found
                        ]
    return {
        "lemmas": lemmas,
        "synsets": synsets,
        "antonyms": antonyms,
        "first_antonyms": first_antonyms,
        "hypernyms": hypernyms,
        "instance_hypernyms": instance_hypernyms,
    }


def _nltk_wordnet():
    """NLTK's wordnet corpus reader when its data is installed, else None."""
    from nltk.corpus import wordnet

    from paraguide.data.shared import nltk_data_path

    nltk_data_path()
    try:
        wordnet.ensure_loaded()
    except LookupError:
        return None
    return wordnet


class WordNet:
    """WordNet synonyms: ``WordNet().suggest(questions)``; ``synonyms("car", "n")``, ``antonyms("good")``.
    Arguments: see :meth:`__init__`."""

    name = "wordnet"

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        stopwords: frozenset[str] | None = None,
        max_sense: int | None = 2,
    ):
        """``path``: Open English WordNet's YAML folder (default: the shared data's; where there is none,
        NLTK's wordnet corpus when it is installed), or ``"nltk"`` for NLTK's wordnet corpus. ``stopwords``: the English list unless given.
        ``max_sense``: :meth:`suggest` takes synonyms from a word's first ``max_sense`` senses only (None:
        all; why two: docs/suggest.md)."""
        self.stopwords = stopwords if stopwords is not None else load_stopwords("en")
        self.max_sense = max_sense
        self.files: tuple[Path, ...] = ()  # NLTK's corpus is identified by the installed nltk_data alone
        if path is None and find_shared("open_english_wordnet/yaml") is None and _nltk_wordnet() is not None:
            path = "nltk"  # no Open English WordNet: NLTK's corpus, when installed (commands warn first)
        if path is not None and os.fspath(path) == "nltk":
            wordnet = _nltk_wordnet()
            if wordnet is None:
                raise FileNotFoundError(
                    "NLTK's wordnet corpus is not installed: python -m nltk.downloader wordnet"
                )
            self._load(index_from_nltk(wordnet))
            return
        path = Path(path) if path else find_shared("open_english_wordnet/yaml")
        if path is None:
            raise FileNotFoundError(
                "no WordNet: pass the Open English WordNet YAML folder (open_english_wordnet/yaml in the "
                "shared data; set PARAGUIDE_SHARED_DATA), or python -m nltk.downloader wordnet "
                "(paraguide doctor lists what is found)"
            )
        self._load(build_wordnet_index(path))
        self.files = (path,)

    def _load(self, index: dict) -> None:
        self.lemmas, self.synsets, self._antonyms = index["lemmas"], index["synsets"], index["antonyms"]
        # antonyms of each lemma's first sense per part of speech: the antonyms above keep every sense's
        # together ("right": left, wrong)
        self.first_antonyms: dict[str, dict[str, list[str]]] = index.get("first_antonyms", {})
        self.hypernyms: dict[str, list[str]] = index.get("hypernyms", {})
        self.instance_hypernyms: dict[str, list[str]] = index.get("instance_hypernyms", {})

    def lemmatize(self, word: str, pos: str) -> list[str]:
        """WordNet lemmas of ``word`` as ``pos``: itself if listed, else morphy's detachments that are."""
        word = word.lower()
        found = [word] if pos in self.lemmas.get(word, {}) else []
        for suffix, ending in _DETACH[pos]:
            if word.endswith(suffix) and len(word) > len(suffix):
                base = word[: len(word) - len(suffix)] + ending
                if pos in self.lemmas.get(base, {}) and base not in found:
                    found.append(base)
        return found

    def knows(self, word: str) -> bool:
        """A stop word, or a form of a WordNet lemma (any part of speech): a morphy detachment, or a form
        LemmInflect's dictionary lemmatizes to one (irregular and consonant-doubling forms that detachment
        misses -- "bought", "biggest", "permitted" -- and the forms paraguide's own substitution writes, as
        text.substitute inflects with LemmInflect)."""
        word = word.lower()
        if word in self.stopwords or any(self.lemmatize(word, p) for p in WORDNET_POS):
            return True
        from lemminflect import getAllLemmas

        return any(lemma.lower() in self.lemmas for found in getAllLemmas(word).values() for lemma in found)

    def synonyms(self, word: str, pos: str | None = None) -> list[tuple[str, float, str]]:
        """``(synonym, score, pos)`` ranked: 1 / rank of the sense it comes from."""
        best: dict[str, tuple[str, float, str]] = {}
        for p in [pos] if pos else WORDNET_POS:
            for lemma in self.lemmatize(word, p):
                for rank, synset in enumerate(self.lemmas[lemma][p], 1):
                    for member in self.synsets.get(synset, []):
                        text = member.lower()
                        if text != lemma and (text not in best or best[text][1] < 1 / rank):
                            best[text] = (text, 1 / rank, p)
        return sorted(best.values(), key=lambda x: (-x[1], x[0]))

    @cached_property
    def hyponyms(self) -> dict[str, list[str]]:
        """Each synset's hyponyms (:attr:`hypernyms` inverted), in synset order."""
        return _invert(self.hypernyms)

    @cached_property
    def instances(self) -> dict[str, list[str]]:
        """Each class's named instances (:attr:`instance_hypernyms` inverted): national capital -> Paris."""
        return _invert(self.instance_hypernyms)

    def first_sense(self, lemma: str, pos: str) -> str | None:
        """The first synset of ``lemma`` as ``pos`` that has it as spelt: "doctor" is the physician, though
        "Doctor" (of the Church) is listed first under the same lower-cased key."""
        senses = self.lemmas.get(lemma.lower(), {}).get(pos, [])
        return next((s for s in senses if lemma in self.synsets.get(s, [])), senses[0] if senses else None)

    def common_hypernym(
        self, a: str, b: str, pos: str, depth: int = 2, max_family: int | None = None, min_height: int = 0
    ) -> str | None:
        """The nearest hypernym of the first senses of lemmas ``a`` and ``b`` (:meth:`first_sense`) within
        ``depth`` levels of each: "dog" and "cat" meet at carnivore, "coffee" and "tea" at beverage. None
        when there is none that close, when one is a kind of the other, and when the nearest is too broad a
        class to relate anything: more than ``max_family`` hyponyms ("person": "engineer", "consumer"), or
        fewer than ``min_height`` hypernyms above it ("abstraction": "people", "event")."""

        mine, theirs = self.ancestors(a, pos, depth), self.ancestors(b, pos, depth)
        shared = [s for s in mine if s in theirs]
        if not shared or any(not mine[s] or not theirs[s] for s in shared):
            return None  # nothing close, or one is a kind of the other ("canine" for "dog"): no sisters
        nearest = min(shared, key=lambda s: (max(mine[s], theirs[s]), s))
        if max_family is not None and len(self.hyponyms.get(nearest, [])) > max_family:
            return None
        return nearest if self.height(nearest) >= min_height else None

    def ancestors(self, lemma: str, pos: str, depth: int) -> dict[str, int]:
        """The first sense of ``lemma`` (level 0) and its hypernyms up to ``depth`` levels, with their level."""
        first = self.first_sense(lemma, pos)
        found, frontier = ({first: 0}, [first]) if first else ({}, [])
        for level in range(1, depth + 1):
            frontier = [h for s in frontier for h in self.hypernyms.get(s, []) if h not in found]
            found.update((h, level) for h in frontier)
        return found

    def kind_of(self, a: str, b: str, pos: str, depth: int = 2) -> bool:
        """Whether the first sense of lemma ``a`` or ``b`` is a kind of the other's, within ``depth``
        levels ("emotion" of "feeling", "dog" of "canine")."""
        first_a, first_b = self.first_sense(a, pos), self.first_sense(b, pos)
        return bool(first_a and first_b) and (
            first_b in self.ancestors(a, pos, depth) or first_a in self.ancestors(b, pos, depth)
        )

    def height(self, synset: str) -> int:
        """How many hypernyms lie above ``synset`` on its shortest way up (entity: 0, abstraction: 1)."""
        level, frontier, seen = 0, [synset], {synset}
        while frontier:
            parents = [h for s in frontier for h in self.hypernyms.get(s, []) if h not in seen]
            if not parents:
                return level
            level, frontier = level + 1, parents
            seen.update(parents)
        return level

    def antonyms(self, word: str, pos: str | None = None) -> list[str]:
        """WordNet antonyms of ``word`` as ``pos`` (None: any part of speech)."""
        out: list[str] = []
        for p in [pos] if pos else WORDNET_POS:
            for lemma in self.lemmatize(word, p):
                out += [a for a in self._antonyms.get(lemma, {}).get(p, []) if a not in out]
        return out

    def _in_multiword(self, words: list[tuple[str, str | None]], i: int) -> bool:
        """Whether word ``i`` and a neighbour form a WordNet lemma of two words ("took place" -> "take
        place", "set up", "carbon dioxide"), either word in any of its lemma forms."""

        from paraguide.text.substitute import lemmas  # irregular forms too ("took" -> "take")

        def forms(j: int) -> set[str]:
            word = words[j][0].lower()
            return {*lemmas(word), *(lemma for p in WORDNET_POS for lemma in self.lemmatize(word, p))}

        for j, k in ((i - 1, i), (i, i + 1)):
            if (
                j >= 0
                and k < len(words)
                and any(f"{a} {b}" in self.lemmas for a in forms(j) for b in forms(k))
            ):
                return True
        return False

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        """Ranked suggestions for each of ``questions``, best first (at most ``top_k``)."""
        questions = texts(questions, "questions")
        from paraguide.text.pos import has_tagger, pos_tag

        tagged = has_tagger("en")
        results = []
        for question in questions:
            if tagged:
                tokens = pos_tag(question, "en")
                tags = fix_do_support([t.text for t in tokens], [t.tag for t in tokens])
                words = [(t.text, _PENN.get(tag[:1])) for t, tag in zip(tokens, tags, strict=True)]
            else:
                words = [(w, None) for w in tokenize(question, "en")]
            present = {w.lower() for w, _ in words}
            best: dict[str, Suggestion] = {}
            for i, (word, pos) in enumerate(words):
                if (tagged and pos is None) or word.lower() in self.stopwords or not is_word(word):
                    continue
                if (tagged and tags[i].startswith("NNP")) or (i > 0 and word[:1].isupper()):
                    continue  # names (Super Bowl, Eldon Square, Beyoncé) are not paraphrased
                if self._in_multiword(words, i):
                    continue  # "place" of "took place": a synonym of the word alone breaks the phrase
                lemmas = {word.lower(), *self.lemmatize(word.lower(), pos)} if pos else {word.lower()}
                for text, score, p in self.synonyms(word, pos):
                    if text in present or text in best and best[text].score >= score:
                        continue
                    if self.max_sense and score < 1 / self.max_sense:
                        continue
                    if _unfit(text, lemmas, p):
                        continue
                    if text in self.stopwords or lemmas & set(text.split()):
                        continue  # a function word ("do" for "called"), or an expansion ("danish language")
                    best[text] = Suggestion(text, word.lower(), (i, i + 1), round(score, 4), self.name, p)
            ranked = sorted(best.values(), key=lambda s: (-s.score, s.span[0], s.text))
            results.append(ranked[:top_k] if top_k else ranked)
        return results


def _invert(relation: dict[str, list[str]]) -> dict[str, list[str]]:
    inverted: dict[str, list[str]] = {}
    for child, parents in relation.items():
        for parent in parents:
            inverted.setdefault(parent, []).append(child)
    return inverted


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (short words: the quadratic table is fine)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _unfit(synonym: str, lemmas: set[str], pos: str) -> bool:
    """WordNet synonyms that a blind reading rejected in place, by shape:

    - a derived form of the word itself ("activation" -> "activating", "design" -> "designing", "center"
      -> "centerfield", "agent" -> "agentive role", "end" -> "ending"): same stem, another part of speech
      or another thing;
      a spelling variant ("organization" -> "organisation": distance <= 2, same last letter) stays;
    - a several-word noun for a one-word noun: WordNet's glosses of a sense ("mother" -> "female
      parent", "book" -> "christian bible", "price" -> "monetary value");
    - a "be ..." verb phrase ("called" -> "be known as"), which doubles the question's own auxiliary;
    - an abbreviation's sense: a one-letter word or a number ("one c" for century, "atomic number 31")."""
    words = synonym.split()
    if any(len(w) == 1 or not w.isalpha() for w in synonym.replace("-", "").split()):
        return True
    related = [
        lemma
        for lemma in lemmas
        if len(lemma) >= 4 and words[0][:4] == lemma[:4] or len(lemma) == 3 and words[0].startswith(lemma)
    ]
    if related and not any(
        _distance(words[0], lemma) <= 2 and words[0][-1] == lemma[-1] for lemma in related
    ):  # shares the stem and is no spelling variant ("colour", "descendent") of any form
        return True
    if pos == "n" and len(words) > 1 and all(" " not in lemma for lemma in lemmas):
        return True
    return pos == "v" and words[0] == "be"


def read_cilin(path: str | os.PathLike) -> Iterator[tuple[str, str, list[str]]]:
    """``(code, flag, words)`` per line of HIT Cilin (extended): ``Aa01A01= 人 士 人物``."""
    for line_no, text in iter_lines(path):
        if not text.strip():
            continue
        code, _, rest = text.strip().partition(" ")
        if len(code) != 8 or code[-1] not in "=#@":
            raise DataError(
                str(path), "expected an 8-character code ending in =, # or @", line=line_no, field="code"
            )
        yield code, code[-1], rest.split()


class Cilin:
    """Chinese synonyms from HIT Cilin: ``Cilin().suggest(questions)``; ``synonyms("电脑")``.

    ``path``: the Cilin file and ``antonyms`` its antonym list (default: the shared data's); ``stopwords``:
    the Chinese list unless given; ``min_chars``: the shortest word replaced or suggested."""

    name = "cilin"

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        antonyms: str | os.PathLike | None = None,
        stopwords: frozenset[str] | None = None,
        min_chars: int = 2,
    ):
        self.min_chars = min_chars
        path = Path(path) if path else find_shared("zh_cilin/hit_cilin_extended.utf8.txt")
        if path is None:
            raise FileNotFoundError(
                "no Cilin: pass the HIT Cilin file (zh_cilin/hit_cilin_extended.utf8.txt in the shared data), "
                "or set PARAGUIDE_SHARED_DATA"
            )
        self.groups: dict[str, list[list[str]]] = {}
        for _, flag, words in read_cilin(path):
            if flag == "=" and len(words) > 1:
                for w in words:
                    self.groups.setdefault(w, []).append(words)
        antonyms = Path(antonyms) if antonyms else find_shared("zh_cilin/antonym.txt")
        self.files = (path, antonyms) if antonyms is not None else (path,)
        self._antonyms: dict[str, list[str]] = {}
        self.skipped_antonym_lines: list[int] = []  # one side empty (two such lines in the public list)
        if antonyms is not None:
            for line_no, text in iter_lines(antonyms):
                if not text.strip():
                    continue
                a, sep, b = text.strip().partition("@")
                if not sep:
                    raise DataError(str(antonyms), "expected 'word1@word2'", line=line_no)
                if not a or not b:
                    self.skipped_antonym_lines.append(line_no)
                    continue
                for x, y in ((a, b), (b, a)):
                    if y not in self._antonyms.setdefault(x, []):
                        self._antonyms[x].append(y)
        self.stopwords = stopwords if stopwords is not None else load_stopwords("zh")

    def synonyms(self, word: str) -> list[tuple[str, float]]:
        """Members of the word's ``=`` groups, scored 1 / (number of groups the word is in): a word in one
        group has one sense here. Most specific first: members sharing a character with the word (热量 ->
        热能), then members of smaller groups."""
        return [(w, score) for w, score, _ in self._synonyms(word)]

    def _synonyms(self, word: str) -> list[tuple[str, float, tuple]]:
        groups = self.groups.get(word, [])
        seen: dict[str, tuple] = {}
        for words in groups:
            for w in words:
                if w != word and w not in seen:
                    seen[w] = (not set(w) & set(word), len(words))
        ranked = sorted(seen.items(), key=lambda x: (x[1], x[0]))
        return [(w, 1 / len(groups), rank) for w, rank in ranked]

    def antonyms(self, word: str) -> list[str]:
        """Antonyms of ``word`` from the antonym list."""
        return list(self._antonyms.get(word, []))

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        """Ranked suggestions for each of ``questions``, best first (at most ``top_k``)."""
        questions = texts(questions, "questions")
        results = []
        for question in questions:
            words = tokenize(question, "zh")
            present = set(words)
            best: dict[str, Suggestion] = {}
            rank: dict[str, tuple] = {}
            for i, word in enumerate(words):
                # Single characters are left alone, both ways: in Cilin they sit in many loose groups
                # (学习 = 上 = 修), and jieba splits names into them (阿凡达 -> 阿凡 + 达).
                if word in self.stopwords or not is_word(word) or len(word) < self.min_chars:
                    continue
                for text, score, specific in self._synonyms(word):
                    if len(text) < self.min_chars or text in present or text in question:
                        continue
                    if word in text or text in word:
                        continue  # the word grown or cut (世界 -> 全世界 breaks 我的世界): no synonym in place
                    key = (-score, specific, i, text)
                    if text in rank and rank[text] <= key:
                        continue
                    rank[text] = key
                    best[text] = Suggestion(text, word, (i, i + 1), round(score, 4), self.name)
            ranked = sorted(best.values(), key=lambda s: rank[s.text])
            results.append(ranked[:top_k] if top_k else ranked)
        return results
