"""Synonyms (DuQM's lexical "synonym", label Y): one content word replaced by a synonym that keeps the
question's meaning ("猕猴桃的功效是什么" -> "奇异果的功效是什么"), one operation per part of speech.
English synonyms come from WordNet and PPDB together, Chinese ones from HIT Cilin; both words are held to
one sense, since a synonym of another sense asks another question."""

from __future__ import annotations

import random

from paraguide.perturb.base import (
    EN_NOUN_TAGS,
    SAME,
    Change,
    Operation,
    Parsed,
    Perturbation,
    Skip,
    register,
    replace,
)
from paraguide.text.substitute import forms

# Penn tags (English) and jieba flags (Chinese) of each WordNet part of speech. Comparatives and
# superlatives are left out: "more X" forms have no one-word synonym to inflect.
EN_TAGS = {"n": ("NN", "NNS"), "v": ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ"), "a": ("JJ",), "r": ("RB",)}
# jieba flags by prefix; its dictionary tags some adverbs oddly (总是 c, 突然 ad, 为什么 r).
ZH_FLAGS = {"n": ("n",), "v": ("v",), "a": ("a",), "r": ("d", "ad", "c", "r")}
# Words whose first WordNet sense is not the one questions mean, or whose synonym misleads there (read on
# Quora and SQuAD questions): "aliens" -> "foreigners", "theme" (of a song) -> "topic", "idea" ->
# "thought", "consumption" -> "intake", "phone" -> "telephone", "teens" -> "adolescents", "confirmed" ->
# "affirmed", "discontinue" -> "cease", "lengthy" -> "prolonged", "understandable" -> "intelligible".
EN_UNSAFE = frozenset(
    [
        "alien",
        "aliens",
        "theme",
        "themes",
        "topic",
        "topics",
        "idea",
        "ideas",
        "thought",
        "thoughts",
        "consumption",
        "phone",
        "phones",
        "teens",
        "teenager",
        "teenagers",
        "merchandise",
        "hallmark",
        "confirm",
        "confirmed",
        "discontinue",
        "discontinued",
        "lengthy",
        "understandable",
        "duty",
        "victorious",
    ]
)
POS_NAMES = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}
# A word (or synonym) with more WordNet senses than this, all parts of speech together, has no first
# sense to trust ("chance" -> "opportunity" in "chances of war").
EN_MAX_SENSES = 6
# The synonym must be this common (SQuAD train's counts over its forms), and at least this share of the
# word's own count: rare or archaic members of a synset read wrong ("forthwith", "populace", "vino").
EN_MIN_FREQ = 20
EN_MIN_RATIO = 0.25

# Chinese synonym pairs, each in one Cilin "=" group, kept after reading Cilin's candidates in place on
# LCQMC questions: Cilin's groups are loose (电影 = 影视, 推荐 = 引进, 孕妇 = 产妇, 专业 = 正统), and
# no filter by sense count, frequency or group size kept more than half of its pairs right, so only pairs
# read as the same in any question are used (either way round).
_ZH_PAIRS = {
    "n": "电脑 计算机|老婆 妻子|老公 丈夫|爸爸 父亲|妈妈 母亲|礼物 礼品|价格 价钱|土豆 马铃薯|西红柿 番茄|"
    "省会 省城|皮肤 肌肤|老师 教师|火车 列车|手指 指头|农村 乡村|男友 男朋友|女友 女朋友|早餐 早饭|午餐 午饭|"
    "晚餐 晚饭|房子 房屋|荷花 莲花|全世界 全球|方法 办法|种类 类型|医生 大夫|手臂 胳膊|特色 特点|户口 户籍|"
    "衣服 衣裳|肚子 腹部|房间 屋子|自行车 单车",
    "v": "取消 撤销|发烧 发热|名叫 叫做|忘记 忘掉|收到 接到|觉得 认为|选择 挑选|害怕 惧怕|寻找 找寻|知道 晓得|"
    "赚钱 挣钱",
    "a": "有趣 幽默|漂亮 美丽|高兴 开心|著名 知名|有名 出名",
    "r": "总是 老是|经常 常常|马上 立刻|立刻 立即|马上 立即|突然 忽然|快速 迅速|为什么 为何|怎样 如何|"
    "赶快 赶紧|稍微 略微|大约 大概|渐渐 逐渐|仍然 依然|到底 究竟|其实 实际上",
}
ZH_PAIRS: dict[str, dict[str, tuple[str, ...]]] = {}
for _pos, _text in _ZH_PAIRS.items():
    for _a, _b in (p.split() for p in _text.split("|")):
        ZH_PAIRS.setdefault(_pos, {}).setdefault(_a, ())
        ZH_PAIRS[_pos].setdefault(_b, ())
        ZH_PAIRS[_pos][_a] += (_b,)
        ZH_PAIRS[_pos][_b] += (_a,)


class _Synonym(Operation):
    """A word of one part of speech (``pos``: WordNet's n, v, a, r) replaced by a synonym."""

    subcategory = "synonym"
    label = SAME
    pos: str

    def __init__(self, lang: str, resources=None, seed: int = 13):
        super().__init__(lang, resources, seed)
        self._synonyms: dict[tuple[str, str], tuple[str, ...]] = {}  # per lemma and tag: lexicon look-ups

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        if about_words(q):
            return Skip("asks about a word itself")
        find = self._en_candidates if self.lang == "en" else self._zh_candidates
        candidates = [c for i in range(len(q.tokens)) for c in find(q, i)]
        if not candidates:
            if self.lang == "zh":
                return Skip(f"no {POS_NAMES[self.pos]} with a reviewed Cilin synonym")
            return Skip(f"no one-sense {POS_NAMES[self.pos]} with a synonym in the lexicons")
        return self.make(q, rng.choice(candidates))

    # English
    def _en_candidates(self, q: Parsed, i: int) -> list[list[Change]]:
        token = q.tokens[i]
        word = token.text
        if token.tag not in EN_TAGS[self.pos] or not word.isalpha() or len(word) < 3:
            return []
        if word.lower() in self.res.stopwords or not word[1:].islower() or (i > 0 and not word.islower()):
            return []  # function words; names and acronyms (capitals inside the question)
        before = q.tokens[i - 1].tag if i else ""
        after = q.tokens[i + 1].tag if i + 1 < len(q.tokens) else ""
        if word.lower() in EN_UNSAFE:
            return []
        if after == "RP":
            return []  # a phrasal verb ("give up"): the particle belongs to the meaning
        if self.pos == "n" and _en_noun_unsafe(q, i):
            return []
        if self.pos == "v" and after == "TO":
            return []  # "choose to buy" -> "select to buy": verbs differ in what they take
        if self.pos == "r" and (before in ("RBR", "RBS") or after in ("JJ", "VBN")):
            # "most commonly" -> "most usually", "commonly used" -> "usually used": adverbs of degree and
            # frequency collocate, and the synonym rarely does
            return []
        wn = self.res.wordnet
        words = [(t.text, next((p for p, tags in EN_TAGS.items() if t.tag in tags), None)) for t in q.tokens]
        if wn._in_multiword(words, i):
            return []  # "place" of "take place": a synonym of the word alone breaks the expression
        present = {t.text.lower() for t in q.tokens}
        out = []
        for synonym in self._en_synonyms(word.lower()):
            new = _en_inflect(synonym, token.tag)
            if new is None or new in present:
                continue
            out.append(word_swap(q, i, new))
        return out

    def _en_synonyms(self, word: str) -> tuple[str, ...]:
        """Members of the word's first WordNet sense that PPDB also lists as its paraphrases: one word
        each, no derived form of the word, common, and meaning that sense first themselves (both words'
        first sense is the shared one)."""
        if (word, "") in self._synonyms:
            return self._synonyms[word, ""]
        from paraguide.suggest.lexicon import _unfit

        res, wn, out = self.res, self.res.wordnet, []
        lemma = self.res.en_lemma(word, self.pos)
        senses = wn.lemmas[lemma][self.pos] if lemma else []
        if senses and _n_senses(wn, lemma) <= EN_MAX_SENSES:
            ppdb = res.ppdb_synonyms.get(lemma, set()) | res.ppdb_synonyms.get(word, set())
            freq = res.en_word_freq
            for member in wn.synsets.get(senses[0], []):
                if member == lemma or not member.isalpha() or not member.islower():
                    continue  # the word itself; phrases, names ("Kiwi") and abbreviations
                if member in res.stopwords or _unfit(member, {lemma, word}, self.pos):
                    continue
                if _same_stem(member, lemma):
                    continue  # a derived form or a spelling variant ("voting", "favourite"), no synonym
                if member not in ppdb and ppdb.isdisjoint(forms(member)):
                    continue  # WordNet alone: PPDB must agree that the two are paraphrases
                own = wn.lemmas.get(member, {}).get(self.pos, [])
                if not own or own[0] != senses[0] or _n_senses(wn, member) > EN_MAX_SENSES:
                    continue  # the synonym means something else first ("picture" for "film")
                count = _count(freq, member)
                if count < EN_MIN_FREQ or count < EN_MIN_RATIO * _count(freq, lemma):
                    continue  # rare or archaic ("forthwith" for "immediately", "vino" for "wine")
                out.append(member)
        self._synonyms[word, ""] = tuple(out)
        return self._synonyms[word, ""]

    # Chinese
    def _zh_candidates(self, q: Parsed, i: int) -> list[list[Change]]:
        token = q.tokens[i]
        if not token.tag.startswith(ZH_FLAGS[self.pos]):
            return []
        if i and q.tokens[i - 1].tag.startswith("nr") or _in_title(q.text, token.start):
            return []  # a title after a name (桃子老师), a word of a book's or a song's title (《...》)
        before = q.tokens[i - 1] if i else None
        if (
            before is not None
            and len(before.text) == 1
            and before.tag in ("a", "n")
            and self.res.jieba_freq.get(before.text + token.text[0], 0) >= ZH_SPLIT_WORD_FREQ
        ):
            return []  # 你的大名叫什么 cut 大/名叫: the word is 大名, and 名叫 -> 叫做 garbles it (reading d)
        return [[replace(token, s)] for s in self._zh_synonyms(token.text) if s not in q.text]

    def _zh_synonyms(self, word: str) -> tuple[str, ...]:
        """The word's reviewed synonyms of this part of speech that share one of its Cilin ``=`` groups."""
        if (word, "") not in self._synonyms:
            codes = {c for c in self.res.cilin_codes.get(word, []) if c.endswith("=")}
            found = ZH_PAIRS[self.pos].get(word, ())
            self._synonyms[word, ""] = tuple(s for s in found if codes & set(self.res.cilin_codes.get(s, [])))
        return self._synonyms[word, ""]


# A one-character adjective or noun and the next word's first character that jieba knows this often as a word
# (大名) may be the real word, cut wrongly: the next word is then no word to replace.
ZH_SPLIT_WORD_FREQ = 500

# Questions about words themselves ("what does X mean", "X的反义词是什么"): another word is another
# question whatever it means.
_EN_ABOUT_WORDS = frozenset(
    [
        "mean",
        "means",
        "meaning",
        "meanings",
        "meant",
        "synonym",
        "synonyms",
        "antonym",
        "antonyms",
        "opposite",
        "definition",
        "define",
        "spell",
        "spelling",
        "spelled",
        "pronounce",
        "pronunciation",
        "word",
        "words",
        "translate",
        "translation",
    ]
)
_ZH_ABOUT_WORDS = (
    "意思", "意义", "反义词", "近义词", "同义词", "组词", "造句", "拼音", "怎么读", "怎么写", "英文", "英语",
    "翻译", "形近字", "什么字", "词语", "成语", "解释",
)  # fmt: skip


def about_words(q: Parsed) -> bool:
    """Whether the question asks about words (their meaning, spelling, opposites, translation)."""
    if q.lang == "en":
        return any(t.text.lower() in _EN_ABOUT_WORDS for t in q.tokens)
    return any(marker in q.text for marker in _ZH_ABOUT_WORDS)


def _in_title(text: str, at: int) -> bool:
    """Whether position ``at`` lies inside 《...》 or quotation marks."""
    for left, right in ("《》", "“”", '""', "「」"):
        opened = text.rfind(left, 0, at)
        if opened >= 0 and text.find(right, opened + 1) >= at:
            return True
    return False


def _en_noun_unsafe(q: Parsed, i: int) -> bool:
    """Nouns whose one-word synonym reads badly in place: a gerund ("the banning of"), a noun of a
    compound ("store room", "muscle gain", "kids Shows"), a verb the tagger took for a noun ("no one answer
    my question"), a bare noun after a preposition, often an idiom ("in tune", "on purpose"), and a word
    of a name ("battle of Somme")."""
    tokens = q.tokens
    before = tokens[i - 1] if i else None
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    after2 = tokens[i + 2] if i + 2 < len(tokens) else None
    if tokens[i].text.endswith("ing"):
        return True
    for t in (before, after):
        if t is not None and (t.tag in EN_NOUN_TAGS or (t.text[:1].isupper() and t is not tokens[0])):
            return True
    if after is not None and after.tag in ("DT", "PRP$"):
        return True
    if before is not None and before.tag == "IN" and tokens[i].tag == "NN":
        return True
    return after is not None and after.text == "of" and after2 is not None and after2.text[:1].isupper()


def _n_senses(wn, lemma: str) -> int:
    """The lemma's WordNet senses, all parts of speech together."""
    return sum(len(v) for v in wn.lemmas.get(lemma, {}).values())


def _same_stem(a: str, b: str) -> bool:
    """Whether two words begin alike: four letters, or all but one letter of the shorter."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n >= min(4, min(len(a), len(b)) - 1)


def _count(freq: dict[str, int], lemma: str) -> int:
    """How often the lemma occurs in any of its forms."""
    return sum(freq.get(f, 0) for f in forms(lemma) if " " not in f)


def _en_inflect(synonym: str, tag: str) -> str | None:
    """The synonym inflected like the word it replaces, or None when LemmInflect has no such form."""
    from lemminflect import getInflection

    if tag in ("NN", "VB", "VBP", "JJ", "RB"):
        return synonym
    forms = getInflection(synonym, tag=tag)
    return forms[0] if forms else None


def _vowel_sound(word: str) -> bool:
    """Whether ``word`` begins with a vowel sound, by spelling: "an apple", "an hour", "a user"."""
    word = word.lower()
    if word.startswith(("hour", "honest", "honor", "honour", "heir")):
        return True
    if word.startswith(("uni", "use", "usu", "uti", "ure", "eu", "one", "once")):
        return False
    return word[:1] in "aeiou"


def word_swap(q: Parsed, i: int, new: str) -> list[Change]:
    """Token ``i`` replaced by ``new`` (capitalised when it opens the question), with a preceding "a" /
    "an" made to agree."""
    if i == 0:
        new = new[:1].upper() + new[1:]
    article = _article_fix(q, i, new)
    return [replace(q.tokens[i], new)] + ([article] if article is not None else [])


def _article_fix(q: Parsed, i: int, new: str) -> Change | None:
    """ "a" / "an" before the replaced word, agreeing with the new word's first letter."""
    if i == 0 or q.tokens[i - 1].text.lower() not in ("a", "an"):
        return None
    before = q.tokens[i - 1]
    article = "an" if _vowel_sound(new) else "a"
    if before.text[:1].isupper():
        article = article.capitalize()
    return None if article == before.text else replace(before, article)


@register
class SynonymNoun(_Synonym):
    """A noun replaced by a synonym: the same thing named otherwise, so the same question (label 1)."""

    name = "synonym_noun"
    pos = "n"


@register
class SynonymVerb(_Synonym):
    """A verb replaced by a synonym, inflected like it (label 1)."""

    name = "synonym_verb"
    pos = "v"


@register
class SynonymAdjective(_Synonym):
    """An adjective replaced by a synonym (label 1)."""

    name = "synonym_adjective"
    pos = "a"


@register
class SynonymAdverb(_Synonym):
    """An adverb replaced by a synonym (label 1)."""

    name = "synonym_adverb"
    pos = "r"
