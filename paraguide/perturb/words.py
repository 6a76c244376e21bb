"""Part-of-speech perturbations (DuQM's lexical "part of speech", E4-E10; label N): a content word replaced
by a related but different word of its part of speech, a number or a measure changed, a frequency adverb
inserted. The question then asks about something else: "我和女朋友的问题" -> "我和男朋友的问题", "where can I
rent a car?" -> "where can I rent a bike?"."""

from __future__ import annotations

import random
import re
from typing import ClassVar

from paraguide.perturb.base import (
    DIFFERENT,
    EN_NOUN_TAGS,
    EN_SUBJECT_TAGS,
    Change,
    Operation,
    Parsed,
    Perturbation,
    Skip,
    cased,
    insert_before,
    register,
    replace,
)
from paraguide.text.stopwords import is_word

# English replacements: two words are kin when their first senses meet at a hypernym with at most this many
# hyponyms (a wide class, "person" or "activity", relates nothing), within ReplaceNoun.depth levels; a
# replacement must be common: in PPDB's vocabulary and seen this often in SQuAD's Wikipedia paragraphs
# (Resources.en_word_freq).
MAX_FAMILY = 60
MIN_EN_FREQ = 20
MIN_ZH_FREQ = 100  # jieba's dictionary count: a Cilin word below it is rare or archaic (比比, 素常)
MAX_SENSES = 6  # a word of more senses is too often meant in another than WordNet's first
TOP = 3  # the choice is among the commonest few candidates: the rarer ones read worse

# Words whose sisters are no contentful swap: light and grammatical verbs, words of many senses.
EN_LIGHT = frozenset(
    {"be", "have", "do", "get", "make", "take", "give", "go", "come", "put", "set", "let", "keep", "use", "want",
     "need", "like", "know", "think", "mean", "say", "tell", "see", "look", "seem", "become", "call", "help",
     "try", "start", "begin", "end", "find", "work", "play", "run", "turn", "show", "hold", "bring", "include",
     "consider", "allow", "happen", "occur", "exist", "refer", "involve", "lead", "cause", "feel", "live"}
)  # fmt: skip
# Sisters WordNet offers that no one wants in a generated question.
EN_UNFIT = frozenset(
    {"bitch", "wench", "whore", "slut", "bastard", "nigger", "fag", "faggot", "cunt", "dick"}
)

# People named by sex or by youth: within a group the words differ only by age or register ("girl" /
# "woman" / "lady", "kid" / "child" / "teenager"), and a question about one is read as the same question
# about the other (blind reading a: "Do girls love ...?" / "Do women love ...?"). Across groups (girl ->
# boy) the swap stays.
EN_PERSON_KIN = (
    frozenset({"girl", "woman", "lady", "gal", "female", "girlfriend"}),
    frozenset({"boy", "man", "guy", "gentleman", "lad", "male", "dude", "fellow"}),
    frozenset({"kid", "child", "teenager", "teen", "adolescent", "youngster", "youth", "toddler", "baby",
               "girl", "boy"}),
)  # fmt: skip

# Hand groups of words that contrast (each inner tuple: one meaning; a word is replaced by one of another
# tuple of its group). WordNet has no hypernyms for adjectives and adverbs, and its similar-to clusters are
# near-synonyms; these are related and plainly not the same.
EN_ADJECTIVES = (
    (("red",), ("blue",), ("green",), ("yellow",), ("black",), ("white",), ("orange",), ("purple",),
     ("pink",), ("brown",), ("gray", "grey")),
    (("sweet",), ("sour",), ("bitter",), ("salty",), ("spicy",)),
    (("daily",), ("weekly",), ("monthly",), ("yearly", "annual")),
    (("wooden",), ("plastic",), ("metal",), ("glass",)),
    (("round",), ("square",), ("triangular",), ("rectangular",)),
    (("political",), ("economic",), ("cultural",), ("religious",), ("military",)),
    # languages (and peoples): "learn Japanese" -> "learn French", never "learn British"
    (("english",), ("french",), ("german",), ("italian",), ("spanish",), ("chinese",), ("japanese",),
     ("russian",), ("korean",), ("portuguese",), ("arabic",)),
    # peoples and places only
    (("american",), ("british",), ("indian",), ("canadian",), ("australian",), ("mexican",), ("brazilian",),
     ("african",), ("european",), ("asian",)),
)  # fmt: skip
EN_ADVERBS = (
    (("always",), ("often", "frequently"), ("usually",), ("sometimes", "occasionally"), ("rarely", "seldom")),
    (("very", "extremely", "highly"), ("slightly", "somewhat")),
)
ZH_ADJECTIVES = (
    (("红色",), ("黄色",), ("蓝色",), ("绿色",), ("黑色",), ("白色",), ("紫色",), ("粉色", "粉红色"), ("灰色",),
     ("橙色",), ("棕色", "咖啡色")),
)  # fmt: skip
ZH_ADVERBS = (
    (("总是", "老是"), ("经常", "常常", "时常"), ("有时", "有时候", "偶尔")),
    (("非常", "特别", "十分", "极其"), ("有点", "稍微")),  # not 有些: "有些什么" is "which ... are there"
)
# Proper adjectives keep their capital: "English" -> "French".
_PROPER = frozenset(w for group in EN_ADJECTIVES[-2:] for words in group for w in words)

_NOUN = frozenset({"NN", "NNS"})
_OBJECT = frozenset({"NN", "NNS", "NNP", "NNPS", "DT", "PDT", "PRP", "PRP$", "CD", "JJ", "JJS", "JJR"})
_VERB = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
# Function words (and stop words, and "best", "larger") go with any noun or verb: a replacement's pair with
# them is not looked up (the corpus is too small to hold "my bicycle" twice).
_FREE = frozenset(
    {"DT", "PDT", "PRP$", "IN", "CC", "TO", "POS", "WDT", "WP", "WP$", "WRB", "CD", "EX", "MD", "JJS", "JJR"}
)


def _article(q: Parsed, i: int, new: str) -> list[Change]:
    """The change that makes the "a" / "an" before token ``i`` agree with ``new`` (by its first letter:
    "an hour" and "a university" are rare in questions)."""
    if i == 0 or q.tokens[i - 1].text.lower() not in ("a", "an"):
        return []
    before = q.tokens[i - 1]
    article = cased("an" if new[:1].lower() in "aeiou" else "a", before.text)
    return [replace(before, article)] if article != before.text else []


def _in_groups(groups, word: str) -> list[str]:
    """The words of ``word``'s hand group that mean something else (other tuples of the group)."""
    for group in groups:
        for words in group:
            if word in words:
                return [w for other in group if other is not words for w in other[:1]]
    return []


class _ReplaceWord(Operation):
    """A content word of one part of speech replaced by a related, different word, one of the commonest
    :data:`TOP` that read well in place (see the subclasses)."""

    subcategory = "part_of_speech"
    label = DIFFERENT
    what: ClassVar[str]  # "noun": the reasons name it
    wordnet_pos: ClassVar[str] = ""  # WordNet's part of speech, where its kin are used
    depth: ClassVar[int] = 2  # how far up the two words' hypernyms may meet
    zh_head: ClassVar[int] = -1  # the character a Chinese replacement shares: a noun's head is its last
    min_height: ClassVar[int] = 4  # ... at a class this far below the top, not "abstraction", "group"
    penn: ClassVar[frozenset[str]]
    zh_flag: ClassVar[str] = ""  # jieba's flag, where Cilin's neighbours are used
    en_groups: ClassVar[tuple] = ()
    zh_groups: ClassVar[tuple] = ()

    def __init__(self, lang: str, resources=None, seed: int = 13):
        super().__init__(lang, resources, seed)
        self._related: dict[tuple[str, str], list[str]] = {}  # per word: the lexicon is read once

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        found, targets, reasons = [], 0, []
        for i in range(len(q.tokens)):
            if self._target(q, i):
                targets += 1
                words = [w for w in self._candidates(q, i) if w.lower() not in q.text.lower()]
                if self.lang == "en" and self.wordnet_pos == "n":
                    words = self._en_noun_refusals(q, i, words, reasons)
                found += [(i, w) for w in [w for w in words if self._reads(q, i, w)][:TOP]]
        if not found:
            if reasons:
                return Skip(reasons[0])
            if not targets:
                return Skip(f"no {self.what} to replace")
            source = "WordNet" if self.lang == "en" else "Cilin"
            return Skip(f"no related {self.what} in {'the word groups' if self._grouped else source}")
        i, new = rng.choice(found)
        token = q.tokens[i]
        if self.lang == "en":
            from paraguide.text.substitute import inflect

            new = cased(inflect(new, token.tag), token.text) if new.lower() not in _PROPER else new.title()
            return self.make(q, [*_article(q, i, new), replace(token, new)])
        return self.make(q, [replace(token, new)])

    def _reads(self, q: Parsed, i: int, new: str) -> bool:
        """Whether ``new`` (inflected) reads naturally in place of token ``i``. English: with each
        neighbour that is no function word it makes a pair seen in the English corpus (Resources.en_ngrams:
        "download movies", not "transmit movies"). Chinese: it is seen beside each neighbour somewhere in
        LCQMC's questions ("男朋友的", not "玩电视机"). Words of a hand group go where their group's do."""
        if self.lang == "zh":
            if self.zh_groups:
                return True
            seen = self.res.zh_seen
            left = q.tokens[i - 1].text if i > 0 else ""
            right = q.tokens[i + 1].text if i + 1 < len(q.tokens) else ""
            return (not is_word(left) or seen(left + new)) and (not is_word(right) or seen(new + right))
        if self.what == "adverb":  # English adverbs go in unchecked
            return True
        from paraguide.text.substitute import inflect

        new = inflect(new, q.tokens[i].tag).lower()
        pairs = self.res.en_ngrams.pairs
        for j, pair in ((i - 1, lambda w: (w, new)), (i + 1, lambda w: (new, w))):
            word = q.tokens[j].text.lower() if 0 <= j < len(q.tokens) else ""
            free = not word.isalpha() or word in self.res.stopwords or q.tokens[j].tag in _FREE
            if not free and pair(word) not in pairs:
                return False
        return True

    def _en_noun_refusals(self, q: Parsed, i: int, words: list[str], reasons: list[str]) -> list[str]:
        """``words`` less the English replacements a blind reading judged wrong: a person of the same sex
        or age named by another age or register ("Do girls ..." / "Do women ...": the same question), and
        any plural after "a" / "an" (the original's "a women" keeps its plural: "a girls")."""
        token = q.tokens[i]
        if token.tag == "NNS" and i and q.tokens[i - 1].text.lower() in ("a", "an"):
            reasons.append("a plural noun after a / an")
            return []
        lemma = self._lemma(token.text.lower()) or token.text.lower()
        kept = [w for w in words if not any(lemma in g and w in g for g in EN_PERSON_KIN)]
        if len(kept) < len(words) and not kept:
            reasons.append("a person of another age or register only")
        return kept

    @property
    def _grouped(self) -> bool:
        return bool(self.en_groups if self.lang == "en" else self.zh_groups)

    def _target(self, q: Parsed, i: int) -> bool:
        token = q.tokens[i]
        if self.lang == "en":
            word = token.text.lower()
            if self.en_groups:
                if i and q.tokens[i - 1].text.lower() == "how":
                    return False  # "how often" asks the frequency: "how sometimes" is no question
                return token.tag in self.penn and bool(_in_groups(self.en_groups, word))
            if token.tag not in self.penn or not token.text.isalpha() or len(word) < 3:
                return False
            if (i > 0 and not token.text.islower()) or word in self.res.stopwords or word in EN_LIGHT:
                return False
            nxt = q.tokens[i + 1].tag if i + 1 < len(q.tokens) else ""
            if self.wordnet_pos == "n" and nxt in EN_NOUN_TAGS:
                return False  # a noun modifying a noun ("shock collars"): its sister reads as a new compound
            if self.wordnet_pos == "v" and (nxt == "RP" or nxt in _OBJECT):
                # a phrasal verb ("give up"), or a verb with an object: "eat meals" -> "drink meals"
                return False
            # "place" of "take place", "carbon" of "carbon dioxide": a sister of the word alone breaks it
            words = [(t.text, self.wordnet_pos) for t in q.tokens]
            return not self.res.wordnet._in_multiword(words, i)
        if self.zh_groups:
            return bool(_in_groups(self.zh_groups, token.text))
        return (
            token.tag == self.zh_flag
            and len(token.text) >= 2
            and token.text not in self.res.stopwords
            and token.text in self.res.cilin_codes
        )

    def _candidates(self, q: Parsed, i: int) -> list[str]:
        token = q.tokens[i]
        if self.lang == "en" and self.en_groups:
            return _in_groups(self.en_groups, token.text.lower())
        if self.lang == "zh" and self.zh_groups:
            return _in_groups(self.zh_groups, token.text)
        key = (token.text.lower(), token.tag)
        if key not in self._related:
            self._related[key] = self._wordnet(*key) if self.lang == "en" else self._cilin(*key)
        return self._related[key]

    def _wordnet(self, word: str, tag: str) -> list[str]:
        """Words joined to this one by "and" / "or" in the English corpus ("coffee or tea",
        Resources.en_ngrams) whose commonest WordNet sense meets its own at a near, narrow hypernym
        (WordNet.common_hypernym: both kinds of beverage); not its synonyms (WordNet's or PPDB's) nor
        antonyms, common, of few senses (WordNet's first sense is then the one meant), usable as its part
        of speech; the commonest first. WordNet's sister terms alone are mostly rare or of another sense
        ("example" -> "grounds"); being coordinated in text says they are things of a kind."""
        from lemminflect import getAllInflections

        from paraguide.text.substitute import fits, lemmas

        wn, pos, res = self.res.wordnet, self.wordnet_pos, self.res
        lemma = self._lemma(word)
        if lemma is None:
            return []
        synonyms = res.ppdb_synonyms.get(lemma, set()) | res.ppdb_synonyms.get(word, set())
        antonyms = res.en_antonyms.get(lemma, set()) | res.en_antonyms.get(word, set())
        own = {m.lower() for p in wn.lemmas[lemma].values() for s in p for m in wn.synsets.get(s, [])}
        forms = {word, lemma, *(f for fs in getAllInflections(lemma).values() for f in fs)}
        partners = {p for f in forms for p in res.en_ngrams.coordinated.get(f, ())}
        found = set()
        for partner in partners:
            other = self._lemma(partner)
            if other is None or other in found or other in own or other in synonyms or other in antonyms:
                continue
            if other in res.stopwords or other in EN_UNFIT or other[:4] == lemma[:4]:
                continue  # a derived form ("kneel" -> "kneeling"), not another word
            count = res.en_word_freq.get(other, 0)
            if (
                other not in res.ppdb_synonyms
                or count < MIN_EN_FREQ
                or count < res.en_word_freq.get(lemma, 0) / 20
            ):
                continue  # a rare word, or one much rarer than the original ("city" -> "canton")
            if not fits(other, tag) or lemmas(other) & lemmas(word):
                continue
            # another reading of the partner that is a kind of the word ("feelings": also "feeling", of
            # which "emotion" is a kind) makes the swap a near-synonym, not another thing
            if any(wn.kind_of(lemma, alt, pos) for alt in wn.lemmatize(partner, pos)):
                continue
            if wn.common_hypernym(lemma, other, pos, self.depth, MAX_FAMILY, self.min_height):
                found.add(other)
        return sorted(found, key=lambda w: (-res.en_word_freq.get(w, 0), w))

    def _lemma(self, word: str) -> str | None:
        """The WordNet lemma of ``word`` as this part of speech, when its first sense is likely the one
        meant: a word of few senses (WordNet's first "bank" is a slope), alphabetic."""
        from paraguide.text.substitute import lemmas

        wn, pos = self.res.wordnet, self.wordnet_pos
        found = wn.lemmatize(word, pos) or [w for w in sorted(lemmas(word)) if pos in wn.lemmas.get(w, {})]
        if not found or not found[0].isalpha() or len(wn.lemmas[found[0]][pos]) > MAX_SENSES:
            return None
        return found[0]

    def _cilin(self, word: str, flag: str) -> list[str]:
        """Cilin words of the word's level-4 class in another level-5 group, with the same last character
        (the head of a Chinese compound: another kind of the same thing, 漫画 -> 油画, 长方形 -> 三角形,
        女朋友 -> 男朋友). Both words must have one Cilin code (one sense: 名字 is also a 种姓 there); the
        class's first group, which names the class (水果, 疾病), is left out (a hypernym asks nearly the
        same); not an antonym, two characters or more, of the word's jieba flag, neither containing the
        other, common (jieba's counts; in LCQMC's questions at least a twentieth as often as the word); the
        commonest in questions first. Without the shared head, a Cilin neighbour is as often another sense
        (网站 -> 遗址) or a synonym (词语 -> 词汇) as a related word."""
        res = self.res
        codes = res.cilin_codes.get(word, [])
        if len(codes) != 1 or codes[0][5:7] == "01":
            return []
        code = codes[0]
        antonyms = res.zh_antonyms.get(word, set())
        found: dict[str, int] = {}
        for other in res.cilin_classes[code[:5]]:
            if other[:7] == code[:7] or other[5:7] == "01":
                continue
            for w in res.cilin_groups[other]:
                if len(w) < 2 or w in antonyms or w in word or word in w or len(res.cilin_codes[w]) != 1:
                    continue
                if w[self.zh_head] != word[self.zh_head]:
                    continue  # another head: mostly another sense (网站 -> 遗址) or a synonym (词语 -> 词汇)
                if res.jieba_flags.get(w) == flag and res.jieba_freq.get(w, 0) >= MIN_ZH_FREQ:
                    found[w] = res.zh_count(w)
        # much rarer in questions than the original: an odd thing to ask about in its place (手机 -> 耳机)
        least = res.zh_count(word) / 20
        return sorted((w for w in found if found[w] >= least), key=lambda w: -found[w])


@register
class ReplaceNoun(_ReplaceWord):
    """A noun replaced by a related, different noun (DuQM E5: 申请美国绿卡流程 -> 申请美国签证流程): in
    English a word the corpus coordinates with it whose first WordNet sense meets its own at a near, narrow
    hypernym (another kind of the same thing: "car" -> "bike", "guitar" -> "drum", "summer" -> "spring"),
    inflected like the original; in Chinese a word of its HIT Cilin level-4 class, in another group, with
    the same head character ("女朋友" -> "男朋友", "黄瓜" -> "冬瓜"). Label N: the question is about another
    thing."""

    name = "replace_noun"
    what = "noun"
    wordnet_pos, penn, zh_flag = "n", _NOUN, "n"


@register
class ReplaceVerb(_ReplaceWord):
    """A verb replaced by a related, different verb (DuQM E6: 为什么下蹲膝盖疼 -> 为什么下跪膝盖疼): in
    English a verb without an object, by a true WordNet sister the corpus coordinates with it ("drink" ->
    "eat", "stand" -> "kneel"), inflected like the original; in Chinese a Cilin neighbour with the same
    first character ("喝茶" -> "喝酒"). Label N: another action."""

    name = "replace_verb"
    what = "verb"
    wordnet_pos, penn, zh_flag = "v", _VERB, "v"
    # WordNet's verb hierarchy is shallow: two levels up reach "do", "change", "get"; "rest" (stand, kneel)
    # is at the top
    depth, min_height = 1, 0
    zh_head = 0  # a Chinese verb's head is its first character (下蹲 -> 下跪, 吹奏 -> 伴奏)


@register
class ReplaceAdjective(_ReplaceWord):
    """An adjective replaced by a related, different one (DuQM E7: 耳朵出血严重吗 -> 耳朵出血正常吗),
    from small groups of contrasting adjectives: colours, tastes, languages, peoples ("green tea" -> "white
    tea", "learn Japanese" -> "learn English", 红色 -> 绿色). WordNet has no hypernyms for adjectives, and
    Cilin's neighbours of jieba's adjectives are near-synonyms; antonyms are the antonym subcategory's.
    Label N: another property is asked about."""

    name = "replace_adjective"
    what = "adjective"
    penn = frozenset({"JJ"})
    en_groups, zh_groups = EN_ADJECTIVES, ZH_ADJECTIVES


@register
class ReplaceAdverb(_ReplaceWord):
    """A frequency or degree adverb replaced by one of another frequency or degree (DuQM E8: 为什么会经常
    头晕 -> 为什么会有点头晕; "always" -> "sometimes", "very" -> "slightly"), from small hand groups. Label N:
    how often or how much is part of what is asked."""

    name = "replace_adverb"
    what = "adverb"
    penn = frozenset({"RB"})
    en_groups, zh_groups = EN_ADVERBS, ZH_ADVERBS


# Numbers. English number words from two on (one <-> two would break the noun's number: "one player");
# Chinese numerals before a measure word (三个, 两天), not in words (三星, 十分, 星期三, 第一).
EN_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
ZH_DIGITS = "一二三四五六七八九十"
ZH_MEASURES = "个天年月日号岁次斤件本只位名张条瓶杯碗周块米层届期集章节座台辆场首颗粒片家所门点分秒度倍克"
_ZH_NUMERAL = re.compile(rf"(?<![第周期礼拜星])([{ZH_DIGITS}两])(?=[{ZH_MEASURES}])")
_DIGITS = re.compile(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?")


def _nearby(value: int) -> list[int]:
    """The numbers next to ``value`` by a step of its own roundness, with as many digits (130 -> 120,
    140; 50 -> 40, 60; 7 -> 6, 8; 1,000 -> 2,000), none below 2."""
    digits, step = len(str(value)), 1
    while step < 10 ** (digits - 1) and value % (step * 10) == 0:
        step *= 10
    return [v for v in (value - step, value + step) if v >= 2 and len(str(v)) == digits]


@register
class ReplaceNumeral(Operation):
    """A number changed to a nearby other one (DuQM E9: 血压130/100高吗 -> 血压120/100高吗): digits keep
    their format (1,200 -> 1,300; 2.5 -> 3.5; 1990 -> 1991), English number words change ("two" ->
    "three"), Chinese numerals before a measure word (三个 -> 四个). Not a number inside a name (Super Bowl
    50, iphone6, 苹果6), an ordinal (第一, 50th), a "one" or 1 (the noun's number would disagree), nor a long
    code (a phone number). Label N: another quantity is asked about."""

    name = "replace_numeral"
    subcategory = "part_of_speech"
    label = DIFFERENT

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        candidates = self._english(q) if self.lang == "en" else self._chinese(q)
        if not candidates:
            return Skip("no number to change")
        start, old, choices = rng.choice(candidates)
        return self.make(q, [Change(start, old, rng.choice(choices))])

    def _english(self, q: Parsed) -> list[tuple[int, str, list[str]]]:
        out = []
        for i, token in enumerate(q.tokens):
            before = q.tokens[i - 1] if i else None
            if before is not None and before.tag in ("NNP", "NNPS"):
                continue  # a name's number: Super Bowl 50, World War 2, Windows 10
            word = token.text.lower()
            if word in EN_NUMBER_WORDS:
                k = EN_NUMBER_WORDS.index(word)
                near = [EN_NUMBER_WORDS[j] for j in (k - 1, k + 1) if 0 <= j < len(EN_NUMBER_WORDS)]
                out.append((token.start, token.text, [cased(w, token.text) for w in near]))
            elif token.tag == "CD" and _DIGITS.fullmatch(token.text):
                choices = _digits(token.text)
                if choices:
                    out.append((token.start, token.text, choices))
        return out

    def _chinese(self, q: Parsed) -> list[tuple[int, str, list[str]]]:
        out = []
        for token in q.tokens:
            if token.tag != "m":  # jieba's numeral flag: "6" of 苹果6 (a model) is x
                continue
            m = _DIGITS.match(token.text)
            if m:
                end = token.start + m.end()
                around = q.text[token.start - 1 : token.start] + q.text[end : end + 1]
                after = q.text[end : end + 1]
                if any(c.isascii() and c.isalpha() for c in around):
                    continue  # 3d, win10: names
                if "\u4e00" <= after <= "\u9fff" and after not in ZH_MEASURES and after not in "公千厘毫万亿":
                    continue  # a number in a name (天龙八部86神器, 被360标记): a measure word follows a count
                out += [(token.start, m.group(0), found) for found in [_digits(m.group(0))] if found]
                continue
            for n in _ZH_NUMERAL.finditer(token.text):
                value = 2 if n.group(1) == "两" else ZH_DIGITS.index(n.group(1)) + 1
                at = token.start + n.start(1)
                if n.group(1) in "一二":
                    continue  # 一 reads as "a" (一下, 一点), 二 as "second" (二次, 二手), as often as not
                if q.text[at - 1 : at] in "这那前" and q.text[at + 1 : at + 2] == "天":
                    continue  # 这两天: "these days", no count
                near = [v for v in (value - 1, value + 1) if 2 <= v <= 10]
                names = ["两" if v == 2 else ZH_DIGITS[v - 1] for v in near]
                out.append((at, n.group(1), names))
        return out


def _digits(text: str) -> list[str]:
    """Nearby numbers for ``text`` written as it is (thousands separators, decimals); none for 0 and 1,
    long codes (more than 6 digits) or a number with a leading zero."""
    whole, _, fraction = text.replace(",", "").partition(".")
    if len(whole) > 6 or whole.startswith("0") or whole == "1" and not fraction:
        return []
    near = _nearby(int(whole))
    if text.isdigit() and 1000 < int(text) <= 2100 and int(text) % 1000:  # a year: the next or the last
        near = [int(whole) - 1, int(whole) + 1]
    out = []
    for value in near:
        new = f"{value:,}" if "," in text else str(value)
        out.append(f"{new}.{fraction}" if fraction else new)
    return out


# Measures that are interchangeable in a sentence and mean different amounts; each inner tuple one measure
# (its spellings), the measures of a tuple group replace each other.
EN_UNITS = (
    (("mile", "miles"), ("kilometer", "kilometers", "kilometre", "kilometres")),
    (("pound", "pounds"), ("kilogram", "kilograms", "kilo", "kilos")),
    (("ounce", "ounces"), ("gram", "grams")),
    (("foot", "feet"), ("meter", "meters", "metre", "metres")),
    (("inch", "inches"), ("centimeter", "centimeters", "centimetre", "centimetres")),
    (("gallon", "gallons"), ("liter", "liters", "litre", "litres")),
)
# Units of time: a scale, each replaced by its neighbours only ("hours" -> "minutes", "days"; not "years").
EN_TIMES = (
    ("second", "seconds"), ("minute", "minutes"), ("hour", "hours"), ("day", "days"), ("week", "weeks"),
    ("month", "months"), ("year", "years"),
)  # fmt: skip
# Quantifier determiners before a plural subject ("why do some people" -> "why do most people"); elsewhere
# ("what are some tips" -> "what are few tips") the swap reads badly.
EN_QUANTIFIERS = {"all": ("most", "some"), "most": ("some", "few"), "many": ("few", "most"),
                  "some": ("most", "many"), "few": ("many", "most")}  # fmt: skip
ZH_UNITS = (
    (("束",), ("枝",), ("朵",)),  # of flowers: 一束花 -> 一枝花
    (("升",), ("毫升",)),
    (("瓶",), ("杯",), ("碗",), ("箱",)),
    (("平方米", "平米"), ("亩",)),
)
# Scales of units, each replaced by its neighbours only (公里 -> 米, not 厘米: "跑5厘米" is no question).
ZH_SCALES = (
    (("克",), ("斤",), ("公斤", "千克"), ("吨",)),
    (("毫米",), ("厘米",), ("米",), ("公里", "千米")),
    (("秒",), ("分钟",), ("小时", "个小时"), ("天",), ("周", "个星期", "星期"), ("个月",)),
)
ZH_FLOWERS = ("花", "玫瑰", "百合", "康乃馨", "郁金香")
# Every spelling of a Chinese unit or measure, longest first (the one a text starts with is the longest that fits).
_ZH_UNIT_SPELLINGS = sorted(
    (w for g in (*ZH_UNITS, *ZH_SCALES) for words in g for w in words), key=len, reverse=True
)
# A Chinese measure is one after a number (digits, numerals, 几, 多少, 每); a longer word it starts is no
# measure (米饭, 天气, 周末, 小时候).
_ZH_QUANTITY = re.compile(r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十百千万几半]+|多少|每)")
_ZH_AFTER_UNIT = frozenset("饭粒酒线气末候刊报")


def _measures(word: str, groups, scales) -> list[str]:
    """The measures that may replace ``word``: the others of its group, or its neighbours on its scale;
    each spelt as the first of its spellings."""
    for scale in scales:
        for k, spellings in enumerate(scale):
            if word in spellings:
                return [scale[j][0] for j in (k - 1, k + 1) if 0 <= j < len(scale)]
    return _in_groups(groups, word)


@register
class ReplaceQuantifier(Operation):
    """A measure word or unit replaced by another of its kind (DuQM E10: 一束花多少钱 -> 一枝花多少钱; 斤 ->
    公斤, 小时 -> 天; "miles" -> "kilometers", "hours" -> "minutes"), or an English quantifier determiner
    by another ("most people" -> "some people"), from small hand groups of measures that fit the same
    place and differ. Label N: another amount is asked about."""

    name = "replace_quantifier"
    subcategory = "part_of_speech"
    label = DIFFERENT

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        reasons: list[str] = []
        candidates = self._english(q, reasons) if self.lang == "en" else self._chinese(q, reasons)
        if not candidates:
            return Skip(reasons[0] if reasons else "no measure or quantifier to replace")
        start, old, choices = rng.choice(candidates)
        return self.make(q, [Change(start, old, rng.choice(choices))])

    def _english(self, q: Parsed, reasons: list[str]) -> list[tuple[int, str, list[str]]]:
        from paraguide.text.substitute import inflect

        out = []
        tokens = q.tokens
        for i, token in enumerate(tokens):
            word = token.text.lower()
            before = tokens[i - 1].text.lower() if i else ""
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            measures = _measures(word, EN_UNITS, (EN_TIMES,)) if token.tag in ("NN", "NNS") else []
            if measures:
                # A unit after "how many" / "how much" asks for the quantity, whatever the unit: "how many
                # hours of sleep" and "how many minutes of sleep" are one question (blind reading a).
                if before in ("many", "much") and i > 1 and tokens[i - 2].text.lower() == "how":
                    reasons.append(_ASKED_UNIT)
                    continue
                # otherwise a unit after a number or "per": "30 miles", "per hour"
                counted = i > 0 and tokens[i - 1].tag == "CD" or before == "per"
                if not counted:
                    continue
                if after is not None and after.text.lower() in ("old", "-"):
                    continue  # an age ("25 year old"): no other unit reads
                news = [inflect(w, token.tag) for w in measures]
                out.append((token.start, token.text, [cased(w, token.text) for w in news]))
            elif word in EN_QUANTIFIERS and after is not None and after.tag == "NNS":
                if i and before not in ("do", "does", "did", "why"):
                    continue  # "what are some tips" -> "what are few tips": only a subject's quantifier
                out.append((token.start, token.text, [cased(w, token.text) for w in EN_QUANTIFIERS[word]]))
        return out

    def _chinese(self, q: Parsed, reasons: list[str]) -> list[tuple[int, str, list[str]]]:
        out = []
        for m in _ZH_QUANTITY.finditer(q.text):
            rest = q.text[m.end() :]
            unit = next((u for u in _ZH_UNIT_SPELLINGS if rest.startswith(u)), None)
            if unit is None or rest[len(unit) : len(unit) + 1] in _ZH_AFTER_UNIT:
                continue
            if m.group(0) in ("几", "多少"):
                # an interrogative numeral asks for the quantity, whatever the unit: 几天能洗头 and 几周能洗头
                # ask the same (blind reading a)
                reasons.append(_ASKED_UNIT)
                continue
            if unit == "天" and q.text[m.start() - 1 : m.start()] in ("这", "那", "前", "后"):
                continue  # 这两天, 前几天: "these days", "the other day"
            if unit in ("束", "枝", "朵") and not rest[len(unit) :].startswith(ZH_FLOWERS):
                continue  # 九朵云: a name; the classifiers of flowers are for flowers
            measures = _measures(unit, ZH_UNITS, ZH_SCALES)
            if unit == "天" or "天" in measures:
                # 天 is the unit of daily habits and routines (一天只吃两顿饭, 每天跑步): swapped with its
                # neighbours 小时 / 周 the question reads implausible (一周只吃两顿饭, 每小时跑步; blind reading
                # a). So 天 is neither replaced nor a replacement: 小时 -> 分钟 and 周 -> 个月 only.
                measures = [w for w in measures if w != "天"] if unit != "天" else []
                if not measures:
                    reasons.append("天 swapped with 小时 or 周 reads implausible")
                    continue
            out.append((m.end(), unit, measures))
        return out


# Why a unit after an interrogative numeral is kept (see ReplaceQuantifier).
_ASKED_UNIT = "a unit after how many / 几 / 多少: the same quantity asked"


# Inserted adverbs of frequency: "why do I burp" -> "why do I always burp", 为什么打嗝 -> 为什么老是打嗝.
EN_INSERTED = ("always", "often", "sometimes")
ZH_INSERTED = ("总是", "经常", "老是")
ZH_WHY = ("为什么", "为啥", "为何")
ZH_STATES = frozenset(
    {"是", "有", "叫", "要", "喜欢", "爱", "知道", "认为", "觉得", "像", "属于", "在", "能", "想"}
)
_EN_SUBJECT = frozenset({"DT", "PRP", "PRP$", "NN", "NNS", "NNP", "NNPS", "JJ", "CD", "POS"})
# A Chinese subject between 为什么 and the verb: pronouns, nouns, names, 的.
_ZH_SUBJECT = frozenset({"r", "n", "nr", "ns", "nt", "nz", "uj", "nrt", "nrfg", "ng"})
ZH_DEGREE = frozenset({"那么", "这么", "很", "太", "非常", "特别", "好", "真", "最", "更"})
ZH_PRONOUNS = frozenset(
    {"我", "你", "他", "她", "它", "我们", "你们", "他们", "她们", "大家", "别人", "有人"}
)
_ZH_FREQUENCY = frozenset(
    {
        "总",
        "总是",
        "老",
        "老是",
        "经常",
        "常常",
        "常",
        "一直",
        "有时",
        "有时候",
        "偶尔",
        "很少",
        "从不",
        "每次",
        "天天",
    }
)
# Adjectives of a state that does not come and go: "is the Dodo always extinct" reads as nonsense.
EN_STATES = frozenset({"dead", "alive", "extinct", "real", "true", "false", "born", "married", "single"})
# ... and verbs of a state: "why do I often have 3 cats" asks nothing of a habit.
EN_STATIVE = frozenset(
    {"have", "know", "like", "want", "need", "own", "mean", "cost", "contain", "belong", "seem", "exist",
     "love", "hate", "prefer", "believe", "think", "understand", "remember", "weigh", "deserve", "matter"}
)  # fmt: skip
# A negated ability or possibility (不能水洗, 不会游泳) is a property, not a habit.
_ZH_CAN = frozenset({"能", "可以", "可", "会", "能够"})
_ZH_CANNOT = frozenset({"不能", "不会", "不可", "不可以", "无法", "没法", "不能够"})
# A habit in the verb, or a part of a group, already: "keep getting", "tend to", "some people".
_EN_PARTIAL = frozenset({"keep", "keeps", "tend", "tends", "some", "many", "most", "few", "several"})
_EN_FREQUENCY = frozenset(
    {"always", "often", "sometimes", "usually", "never", "rarely", "seldom", "ever", "frequently",
     "occasionally", "generally", "normally", "still"}
)  # fmt: skip


@register
class InsertAdverb(Operation):
    """An adverb of frequency inserted before the main verb or predicate adjective (DuQM E4: 为什么打嗝 ->
    为什么老是打嗝; "why do I burp?" -> "why do I always burp?", "is it safe to ...?" -> "is it always safe
    to ...?"). Only where a habit or a state is asked about: why-questions and yes/no questions in the
    present (English "do"/"does", "is"/"are"; Chinese 为什么 ..., ... 怎么办), not a finished event (did,
    了) nor a question with a negation or a frequency word already, nor one that allows for "not always"
    already ("some people", "keep getting") or asks about nobody or what cannot be (没人, 不能, 不会): readers
    took those insertions for the same question. Label N: how often is now part of the
    question ("always burp" is not "burp")."""

    name = "insert_adverb"
    subcategory = "part_of_speech"
    label = DIFFERENT

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        found = self._english(q) if self.lang == "en" else self._chinese(q)
        if isinstance(found, Skip):
            return found
        at, words = found
        return self.make(q, [insert_before(q, at, rng.choice(words))])

    def _english(self, q: Parsed) -> tuple[int, tuple[str, ...]] | Skip:
        """Where the adverb goes and which may: before the verb after "do" + subject, or before the
        predicate adjective after "is" + subject, "always" alone ("is it often possible" reads oddly)."""
        from lemminflect import getAllLemmas

        words, tags = [t.text.lower() for t in q.tokens], [t.tag for t in q.tokens]
        if _EN_FREQUENCY & set(words) or {"not", "n't", "never"} & set(words):
            return Skip("a negation or a frequency word already")
        # "why do some people [sometimes] use ...", "why does it [sometimes] keep ...": the question already
        # allows for not always; a blind reading judged the insertion the same question
        if _EN_PARTIAL & set(words):
            return Skip("a habit or a part of a group already (keep, tend, some)")
        aux = 1 if words[:1] == ["why"] else 0
        if len(words) < aux + 3 or words[aux] not in ("do", "does", "is", "are"):
            return Skip("no why- or yes/no question in the present")
        copula = words[aux] in ("is", "are")
        end = aux + 1
        while end < len(words) and tags[end] in _EN_SUBJECT:
            end += 1
        if not copula and aux + 1 < end < len(words) and tags[end] in ("VB", "VBP"):
            if words[end] in EN_STATIVE:
                return Skip("a verb of a state")
            if getAllLemmas(words[end]).get("NOUN", (words[end],))[0] != words[end]:
                return Skip("no verb or adjective after the subject")  # a plural noun: "land breezes"
            return end, EN_INSERTED  # "does green tea [help]", "do shock collars [work]"
        # The tagger reads a verb or adjective after a one-noun subject as a noun ("does my dog bark at
        # night", "is the sky blue"): the run's last word, if it can be one and no noun or verb follows.
        last, nxt = end - 1, tags[end] if end < len(tags) else "."
        if last < aux + 2 or tags[last - 1] not in EN_SUBJECT_TAGS or nxt not in (".", "TO", "IN", "CC", ","):
            return Skip("no verb or adjective after the subject")
        if any(t not in ("DT", "PRP$", "JJ", "CD", "POS") for t in tags[aux + 1 : last - 1]):
            return Skip("no verb or adjective after the subject")
        if copula and words[last] in EN_STATES:
            return Skip("an adjective of a lasting state")
        can = getAllLemmas(words[last])
        if copula and (tags[last] == "JJ" or "ADJ" in can):
            return last, ("always",)
        if not copula and tags[last] in ("NN", "NNS") and "VERB" in can and words[last] not in EN_STATIVE:
            return last, EN_INSERTED
        return Skip("no verb or adjective after the subject")

    def _chinese(self, q: Parsed) -> tuple[int, tuple[str, ...]] | Skip:
        text = q.text
        words = [t.text for t in q.tokens]
        if set(words) & _ZH_FREQUENCY or any(n in text for n in ("了", "过")):
            return Skip("a frequency word or a finished event already")
        why = next((i for i, w in enumerate(words) if w in ZH_WHY), None)
        if why is not None:
            start = why + 1
        elif words and words[-1].rstrip("？?呢啊") in ("怎么办",) or words[-2:-1] == ["怎么办"]:
            start = 0
        else:
            return Skip("no why-question nor 怎么办")
        for i in range(start, min(len(words), start + 5)):
            token = q.tokens[i]
            if token.text in ZH_STATES:
                break  # 为什么是, 为什么喜欢: a state, no habit to ask about
            # 为什么没人喜欢我, 为什么不能水洗: nobody, or what cannot be, has no habit to ask about (a
            # reader judged the insertions the same question)
            nxt = words[i + 1] if i + 1 < len(words) else ""
            cannot = token.text in _ZH_CANNOT or (token.text in ("不", "没") and nxt in _ZH_CAN)
            nobody = token.text in ("没人", "没有人") or (token.text in ("没", "没有") and nxt[:1] == "人")
            if cannot or nobody:
                return Skip("no one, or what cannot be: no habit to ask about")
            if token.text == "会":  # 为什么会上火 asks why it tends to happen: 经常会 adds little (reading d)
                return Skip("会 asks about a tendency already")
            if token.tag.startswith(("v", "a")) or token.text in ("不", "没", "没有"):
                # the tagger's "verb" after 的 (我的好朋友) or before a degree word (申通快递那么垃圾) is
                # the subject's noun
                if i and words[i - 1] == "的" or i + 1 < len(words) and words[i + 1] in ZH_DEGREE:
                    break
                return i, ZH_INSERTED
            if token.tag not in _ZH_SUBJECT or token.tag == "r" and token.text not in ZH_PRONOUNS:
                break  # 那么, 这么 ...: no subject
        return Skip("no verb or adjective after the subject")
