"""One typo (DuQM's pragmatic misspelling, label Y, as its 纹身 -> 文身): a slip of the finger in English
("relationship" -> "relationhsip"), a character replaced by another of the same sound in Chinese (手机 ->
首机). The reader still sees the intended word, so the question is the same."""

from __future__ import annotations

import random
import re

from paraguide.perturb.base import SAME, Change, Operation, Parsed, Perturbation, Skip, register

# Horizontal neighbours on a QWERTY keyboard: the commonest slip of a finger (a diagonal neighbour is
# rarer and more often makes another word).
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_NEIGHBOURS = {
    row[i]: (row[i - 1] if i else "") + (row[i + 1] if i + 1 < len(row) else "")
    for row in _ROWS
    for i in range(len(row))
}
_CONTENT = ("NN", "NNS", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "JJ", "JJR", "JJS", "RB")
_MIN_LETTERS = 5
_WORD = re.compile(r"[a-z]+")

# A same-sound character is a believable typo only if people type it often: jieba's dictionary counts each
# character as a word, and 1000 is about its 2000th most frequent character (秘; 2500th 祐, 3000th 撩),
# close to the 2500 characters of the first-level common-character list. Rarer characters look like
# deliberate oddities, not slips of a pinyin input method.
ZH_MIN_CHAR_FREQ = 1000
# Left alone: names (a changed name may be another person or place), numbers, and function words (什么 ->
# 蛇么 is no slip anyone makes: the input method offers 什么 first).
_ZH_SKIP = {"nr", "ns", "nt", "nz", "nrt", "nrfg", "nw", "eng", "m", "x", "mq", "q", "r", "c", "p", "u", "uj", "ul",
            "uz", "ug", "uv", "ud", "y", "e", "o"}  # fmt: skip


def _typos(word: str) -> list[str]:
    """Every one-slip variant of ``word`` (lower case) that keeps its first letter: a letter replaced by a
    keyboard neighbour, two adjacent letters swapped, a doubled letter written once."""
    out = []
    for i in range(1, len(word)):
        out += [word[:i] + c + word[i + 1 :] for c in _NEIGHBOURS.get(word[i], "")]
        if i + 1 < len(word) and word[i] != word[i + 1]:
            out.append(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
        if word[i] == word[i - 1]:
            out.append(word[:i] + word[i + 1 :])
    return list(dict.fromkeys(out))


def _zh_group(same: dict[str, str], ch: str) -> frozenset[str]:
    """``ch`` and its same-sound characters. Two characters are swapped only if their groups are the same:
    a polyphone's group mixes its readings (数 lists 率 for shuò / shuài, 什 lists 蛇), and a typo must sound
    like the word it replaces."""
    return frozenset(same.get(ch, "")) | {ch}


def _is_cjk(text: str) -> bool:
    return all("\u4e00" <= ch <= "\u9fff" for ch in text)


@register
class Misspell(Operation):
    """One typo in one content word. The word is still recognisable and no other word was written, so
    the question asks the same thing (label 1).

    English: a content word (noun, verb, adjective, adverb) of five or more letters, lower case (not a
    name), outside any entity; one slip that keeps the first letter (a keyboard neighbour, two adjacent
    letters swapped, a doubled letter written once), and the result must be no word: not in WordNet (nor
    a stop word), not in the PPDB vocabulary, NLTK's word list or LemmInflect's tables ("form" -> "from"
    would be another word). Chinese: one character of a jieba word of two or more characters (not a name
    or a number) replaced by a same-pinyin, same-tone character (pycorrector's confusion set) that is
    common (:data:`ZH_MIN_CHAR_FREQ`), such that the new word is not in jieba's dictionary (权利 -> 权力 is
    another word, 权利 -> 权立 a typo), and the two characters have the same same-sound group (a polyphone's
    group mixes its readings: 什 lists 蛇)."""

    name = "misspell"
    subcategory = "misspelling"
    label = SAME

    def __init__(self, lang: str, resources=None, seed: int = 13):
        super().__init__(lang, resources, seed)
        self._typos_of: dict[str, tuple[str, ...]] = {}  # per word: its typos (:meth:`_variants`)

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        words, options = self._zh(q) if self.lang == "zh" else self._en(q)
        if not words:
            return Skip(
                "no content word of two characters"
                if self.lang == "zh"
                else "no content word of five letters"
            )
        if not options:
            return Skip("every typo makes another word")
        index, variants = rng.choice(options)  # a word first, then its typo: long words do not dominate
        token = q.tokens[index]
        return self.make(q, [Change(token.start, token.text, rng.choice(variants))])

    def _en(self, q: Parsed) -> tuple[int, list[tuple[int, list[str]]]]:
        """How many words could take a typo, and the typos of each (token index, variants)."""
        taken = [(e.start, e.end) for e in q.entities]
        words, options = 0, []
        for i, t in enumerate(q.tokens):
            word = t.text
            if t.tag not in _CONTENT or len(word) < _MIN_LETTERS or not _WORD.fullmatch(word):
                continue  # names and sentence-initial words are capitalised: left alone
            if word in self.res.stopwords or any(s < t.end and t.start < e for s, e in taken):
                continue
            words += 1
            if variants := self._variants(word):
                options.append((i, list(variants)))
        return words, options

    def _variants(self, word: str) -> tuple[str, ...]:
        """The word's typos that are no word (``_en``), or its same-sound characters' (``_zh``): the same
        for every question the word is in, so worked out once."""
        if word not in self._typos_of:
            self._typos_of[word] = (
                tuple(v for v in _typos(word) if not self._known(v))
                if self.lang == "en"
                else self._zh_typos(word)
            )
        return self._typos_of[word]

    def _known(self, word: str) -> bool:
        """Whether ``word`` is a word of any of the English lexicons."""
        from lemminflect import getAllLemmas

        res = self.res
        return (
            res.wordnet.knows(word)
            or word in res.ppdb_synonyms
            or word in res.en_words
            or bool(getAllLemmas(word))
        )

    def _zh(self, q: Parsed) -> tuple[int, list[tuple[int, list[str]]]]:
        words, options = 0, []
        for i, t in enumerate(q.tokens):
            word = t.text
            if len(word) < 2 or t.tag in _ZH_SKIP or not _is_cjk(word):
                continue
            words += 1
            if variants := self._variants(word):
                options.append((i, list(variants)))
        return words, options

    def _zh_typos(self, word: str) -> tuple[str, ...]:
        freq, same = self.res.jieba_freq, self.res.same_pinyin
        variants = []
        for k, ch in enumerate(word):
            group = _zh_group(same, ch)
            for other in same.get(ch, ""):
                new = word[:k] + other + word[k + 1 :]
                if (
                    other != ch
                    and freq.get(other, 0) >= ZH_MIN_CHAR_FREQ
                    and not freq.get(new, 0)
                    and _zh_group(same, other) == group
                ):
                    variants.append(new)
        return tuple(variants)
