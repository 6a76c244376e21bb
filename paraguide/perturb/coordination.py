"""Two phrases swapped (DuQM's syntactic symmetry, asymmetry and negative asymmetry): "A and B" (same
question), "from A to B" / "A is bigger than B" (a different one), and a comparison swapped with its
adjective's antonym (the same again). Each pattern is narrow: a phrase moves only when the tags show where
it begins and ends, so nothing outside it can modify across the swap."""

from __future__ import annotations

import random
from dataclasses import dataclass

from paraguide.perturb.base import (
    DIFFERENT,
    EN_BE,
    EN_DO,
    EN_NOUN_TAGS,
    NEGATIVE_PREFIXES,
    SAME,
    ZH_MODIFIER_FLAGS,
    ZH_NOUN_FLAGS,
    ZH_PERSONAL_PRONOUNS,
    Change,
    Operation,
    Parsed,
    Perturbation,
    Skip,
    register,
)
from paraguide.text.pos import TaggedToken

# ---------------------------------------------------------------------------------------------- English
_PLURAL = {"NNS", "NNPS"}
_DET = {"the", "a", "an", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their"}
# Indefinite pronouns the tagger calls nouns: "anything faster than light" compares no particular thing.
_INDEFINITE = {
    "anything", "something", "nothing", "everything", "anyone", "someone", "everyone", "nobody", "anybody",
    "somebody", "everybody", "one", "another", "others", "other", "none", "thing", "things", "stuff",
}  # fmt: skip
# Words that put an order on two things (a range, a sequence): "between birth and death" does not swap.
_ORDERED = {
    "birth", "death", "start", "end", "beginning", "middle", "past", "present", "future", "morning",
    "afternoon", "evening", "night", "yesterday", "today", "tomorrow", "input", "output", "cause", "effect",
    "question", "answer", "problem", "solution", "top", "bottom", "first", "last", "before", "after",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february",
    "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    "spring", "summer", "autumn", "fall", "winter", "childhood", "adulthood", "school", "college",
    "beginner", "beginners", "scratch", "zero", "rags", "riches", "basics", "basic", "level", "expert",
    "advanced", "novice", "intermediate", "pro", "professional", "amateur", "inception", "completion",
    "design", "construction", "concept", "idea", "prototype", "launch", "production", "draft",
}  # fmt: skip
# Fixed binomials: their order is part of the expression ("cons and pros" is not said).
_BINOMIALS = {
    ("pros", "cons"), ("ups", "downs"), ("salt", "pepper"), ("bread", "butter"), ("black", "white"),
    ("rock", "roll"), ("trial", "error"), ("law", "order"), ("peace", "quiet"), ("life", "death"),
    ("wear", "tear"), ("research", "development"), ("arts", "crafts"), ("fish", "chips"), ("bed", "breakfast"),
    ("odds", "ends"), ("nuts", "bolts"), ("dos", "don'ts"), ("cause", "effect"), ("supply", "demand"),
    ("checks", "balances"), ("lock", "key"), ("hide", "seek"), ("cat", "mouse"), ("war", "peace"),
    ("pride", "prejudice"), ("crime", "punishment"), ("ladies", "gentlemen"), ("rules", "regulations"),
    ("terms", "conditions"), ("strengths", "weaknesses"), ("advantages", "disadvantages"), ("q", "a"),
    ("romeo", "juliet"), ("tom", "jerry"), ("adam", "eve"), ("procter", "gamble"), ("johnson", "johnson"),
    ("marks", "spencer"), ("barnes", "noble"), ("trinidad", "tobago"), ("bosnia", "herzegovina"),
    ("antigua", "barbuda"), ("jekyll", "hyde"), ("sodom", "gomorrah"), ("simon", "garfunkel"),
    ("lewis", "clark"), ("batman", "robin"), ("cain", "abel"), ("sense", "sensibility"), ("mr", "mrs"),
    ("yin", "yang"), ("beauty", "beast"), ("bonnie", "clyde"), ("thunder", "lightning"),
}  # fmt: skip
# Words that make the order of "A and B" part of the meaning ("the ratio of A and B", "A and then B").
_ASYMMETRIC_HEADS = {"ratio", "respectively", "then", "minus", "subtract", "subtracted", "divide", "divided"}
# Questions about the distance or travel time between two places ask the same thing either way round.
_SYMMETRIC_MEASURES = {
    "far",
    "distance",
    "distances",
    "miles",
    "mile",
    "km",
    "kilometers",
    "kilometres",
    "long",
    # the road between two places is one road (a blind reading judged "how can the drive from Edmonton
    # to Auckland be described" and the reverse the same question)
    "drive",
    "driving",
    "route",
    "road",
}
# Units a conversion can be between ("convert grams into milliliters" and back is one relation) that
# WordNet does not file under "unit of measurement" as nouns.
_EN_UNITS = {"celsius", "fahrenheit", "kelvin", "feet", "ft", "lbs", "kg", "cm", "mm", "ml", "km", "oz"}
# Tags before a conjunct that make it part of a longer phrase ("red [apples] and pears", "Tom's [car]").
_MODIFYING_TAGS = EN_NOUN_TAGS | {"JJ", "JJR", "JJS", "CD", "POS", "VBG", "VBN", "PRP", "MD", "CC"}
# Entities with an order or a value: "between 1950 and 1960", "from 55 kg to 50 kg".
_NUMERIC = {"date", "year", "time", "percent", "money", "quantity", "ordinal", "number"}
# Comparatives whose antonym the two lexicons do not agree on; colours have no antonym to compare by.
_EN_PREFERRED = {
    "big": "small", "little": "big", "good": "bad", "bad": "good", "hard": None, "old": None, "light": None,
    "white": None, "black": None, "dark": None, "much": None, "many": None, "few": None,
}  # fmt: skip


@dataclass(frozen=True)
class Phrase:
    """Tokens ``[start, end)`` of a question: a simple noun phrase (determiner? adjective? noun), with
    whether it has its own determiner and adjective and whether its head is a name or plural."""

    start: int
    end: int
    det: bool
    adj: bool
    name: bool
    plural: bool


def _is_noun(t: TaggedToken) -> bool:
    return t.tag in EN_NOUN_TAGS and t.text.replace("-", "").isalpha() and t.text.lower() not in _INDEFINITE


def _np_after(q: Parsed, i: int, max_nouns: int = 1, max_names: int = 3) -> Phrase | None:
    """The simple noun phrase starting at token ``i``: determiner? adjective? then 1..``max_nouns``
    common nouns or 1..``max_names`` names (a name has no adjective: "the Cursed Child" is a title); None
    when there is none or the phrase goes on past them ("banking training institute", "dog's")."""
    toks, j = q.tokens, i
    det = j < len(toks) and toks[j].text.lower() in _DET and toks[j].tag in ("DT", "PRP$")
    j += det
    adj = j < len(toks) and toks[j].tag == "JJ" and toks[j].text.isalpha()
    j += adj
    start_noun = j
    while (
        j < len(toks)
        and _is_noun(toks[j])
        and toks[j].tag.startswith("NNP") == toks[start_noun].tag.startswith("NNP")
    ):
        j += 1
    if j == start_noun or (j < len(toks) and toks[j].tag in EN_NOUN_TAGS | {"POS", "CD"}):
        return None
    name = toks[start_noun].tag.startswith("NNP")
    if j - start_noun > (max_names if name else max_nouns) or (name and adj):
        return None
    head = toks[j - 1]
    # a name is plural by its form as often as by its tag ("the Broncos/NNP"; not "Paris", "Cyprus")
    plural = (
        head.tag in _PLURAL or name and head.text.endswith("s") and not head.text.endswith(("ss", "us", "is"))
    )
    return Phrase(i, j, det, adj, name, plural)


def _np_before(q: Parsed, k: int) -> Phrase | None:
    """The longest simple noun phrase (:func:`_np_after`) that ends just before token ``k``."""
    for start in range(max(0, k - 5), k):
        phrase = _np_after(q, start)
        if phrase is not None and phrase.end == k:
            return phrase
    return None


def _span(q: Parsed, p: Phrase) -> tuple[int, str]:
    start, end = q.tokens[p.start].start, q.tokens[p.end - 1].end
    return start, q.text[start:end]


def _case(text: str, at_start: bool, was_start: bool, keep: bool) -> str:
    """A phrase's text for its new place: capitalised at the question's start; lower-cased when it leaves
    the start, unless it is a name (``keep``) and so capitalised anyway."""
    if at_start:
        return text[:1].upper() + text[1:]
    if was_start and not keep and not text[1:2].isupper():
        return text[:1].lower() + text[1:]
    return text


def _swap_changes(q: Parsed, a: Phrase, b: Phrase) -> list[Change]:
    """The two changes that put phrase ``a``'s text where ``b`` is and ``b``'s where ``a`` is."""
    (sa, ta), (sb, tb) = _span(q, a), _span(q, b)
    keep_a = a.name or ta.split()[0] == "I"
    keep_b = b.name or tb.split()[0] == "I"
    return [
        Change(sa, ta, _case(tb, sa == 0, sb == 0, keep_b)),
        Change(sb, tb, _case(ta, sb == 0, sa == 0, keep_a)),
    ]


def _words(q: Parsed, p: Phrase) -> list[str]:
    return [t.text.lower() for t in q.tokens[p.start : p.end]]


def _numeric(q: Parsed, p: Phrase) -> bool:
    """Whether a numeric entity (a date, a number ...) overlaps the phrase."""
    start, end = q.tokens[p.start].start, q.tokens[p.end - 1].end
    return any(e.type in _NUMERIC and e.start < end and start < e.end for e in q.entities)


# ---------------------------------------------------------------------------------------------- Chinese
_ZH_NOUN = ZH_NOUN_FLAGS
_ZH_PRONOUN = ZH_PERSONAL_PRONOUNS
# Tags that cannot stand just before a conjunct without modifying it (a noun, an adjective, a number ...).
_ZH_MODIFIER = ZH_MODIFIER_FLAGS
# What may follow "A和B" when 和 joins two subjects: the predicate must hold of both together or of each
# alike (区别, 结婚, 一起, 谁 ...); a directed verb makes 和 / 跟 a preposition ("A跟B说": A says to B).
_ZH_RECIPROCAL = {
    "有", "是", "结婚", "离婚", "吵架", "分手", "见面", "约会", "聊天", "相处", "合作", "绑定", "配", "相配",
    "相比", "比较", "比", "区别", "相同", "一样", "相似", "像", "搭配", "混合", "同时", "一起", "都", "谁",
    "哪个", "哪", "哪些", "什么", "的", "之间", "在一起", "相爱", "交往", "对比", "相克", "不同", "差别",
}  # fmt: skip
# Nouns a route names ("北京到上海高铁"): after the second place they are not part of its name.
_ZH_ROUTE = {
    "高铁", "动车", "火车", "飞机", "机票", "航班", "汽车", "大巴", "船票", "火车票", "车票", "高速", "段", "路线",
    "票", "旅游团", "班车", "长途", "客车", "动车票", "高铁票", "地铁", "公交", "公交车", "快递", "物流",
}  # fmt: skip
# The building or opening of a line (梧州到广州高铁什么时候开通): one line, whichever end is named first (a
# blind reading judged the swap the same question). Tickets, flights, prices and ways stay directional.
_ZH_OPENING = (
    "开通",
    "通车",
    "建成",
    "修好",
    "开工",
    "动工",
    "竣工",
    "修建",
    "开建",
    "建设",
    "通高铁",
    "通火车",
)
_ZH_MODAL = {"能", "可以", "可", "会", "能够", "应该", "要", "不能", "不可以", "不会"}
_ZH_CONJ = {"和", "与", "跟", "及", "或", "或者", "还是"}
_ZH_END = {
    "吗",
    "呢",
    "啊",
    "吧",
    "么",
    "呀",
    "了",
    "一点",
    "一些",
    "点",
    "些",
    "多少",
    "得多",
    "很多",
    "？",
    "?",
    "！",
    "!",
    "。",
}
_ZH_DEGREE = {"更", "还", "要", "更加", "还要", "稍微", "略", "都"}
# Comparative adjectives and the antonym that states the same comparison from the other side. Checked
# against the antonym list (Resources.zh_antonyms) in the tests; 贵/便宜, 难/容易 and 好/差 are not there
# (it gives 贱, 易 and 坏, which do not compare prices, effort or quality).
_ZH_COMPARATIVES = {
    "大": "小", "长": "短", "快": "慢", "多": "少", "新": "旧", "强": "弱", "远": "近", "早": "晚", "重": "轻",
    "深": "浅", "厚": "薄", "硬": "软", "胖": "瘦", "冷": "热", "宽": "窄", "粗": "细", "贵": "便宜", "难": "容易",
    "好": "差", "高": "低", "复杂": "简单",
}  # fmt: skip
_ZH_COMPARATIVES.update({v: k for k, v in list(_ZH_COMPARATIVES.items())})
_ZH_COMPARATIVES["矮"] = "高"
_ZH_TALL_PEOPLE = "矮"  # 高 of people is 矮, not 低 (Cilin class A: people)


def _zh_person(res, word: str) -> bool:
    """Whether Cilin files ``word`` (or a pronoun) under people (class A)."""
    if word in _ZH_PRONOUN:
        return True
    codes = res.cilin_codes.get(word, [])
    return bool(codes) and all(c.startswith("A") for c in codes)


def _zh_swap(q: Parsed, i: int, j: int) -> list[Change]:
    a, b = q.tokens[i], q.tokens[j]
    return [Change(a.start, a.text, b.text), Change(b.start, b.text, a.text)]


def _zh_boundary_before(q: Parsed, i: int) -> bool:
    """Whether token ``i`` starts a phrase: nothing before it that could modify it."""
    return i == 0 or q.tokens[i - 1].tag not in _ZH_MODIFIER and q.tokens[i - 1].text not in "《“\"'"


def _zh_arg(q: Parsed, i: int, pronouns: bool = False) -> bool:
    t = q.tokens[i]
    return (t.tag in _ZH_NOUN and len(t.text) >= 1) or (pronouns and t.text in _ZH_PRONOUN)


def _in_title(q: Parsed, i: int) -> bool:
    before = q.text[: q.tokens[i].start]
    return before.count("《") > before.count("》") or before.count("“") > before.count("”")


# ----------------------------------------------------------------------------------------- operations
@register
class SwapSymmetric(Operation):
    """The two conjuncts of a symmetric coordination swapped ("the difference between love and pity" ->
    "between pity and love", 鱼和鸡蛋能一起吃吗 -> 鸡蛋和鱼能一起吃吗). "A and B" says the same of both
    whichever comes first, so the question is the same (label 1).

    Only two single nouns of one kind (common nouns, or two plain names), each with its own determiner and
    adjective or neither: a modifier before the first ("red apples and pears") or a noun after the second
    ("SSC and banking training") may cover both, and a list of three is not touched. Refused: fixed
    binomials and names ("pros and cons", "Procter and Gamble"), capitalised common words (titles: "War
    and Peace"), dates and numbers, ordered pairs ("birth and death"), and words that make the order count
    ("ratio", "then"), phrases that go on after the second ("a wave or a stream of particles", "a surface
    and an object that is pushed"). Chinese: A和B / 与 / 跟 / 及 / 或 / 或者 / 还是 with two nouns, nothing
    modifying across (手机和电脑游戏: 手机游戏 too), not inside a title, and followed by a predicate that
    holds of both alike (区别, 一起, 结婚, 谁 ...), not by a directed verb that would make 和 / 跟 a
    preposition ("A跟B说": A tells B); 与 only before such a predicate (地下城与勇士 is a game), 还是 only
    in a choice (是A还是B, no 吗)."""

    name = "swap_symmetric"
    subcategory = "symmetry"
    label = SAME

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        found = self._zh(q) if self.lang == "zh" else self._en(q)
        return self.pick(q, rng, *found, "no coordination of two nouns")

    def _en(self, q: Parsed) -> tuple[list[list[Change]], list[str]]:
        toks = q.tokens
        candidates, reasons = [], []
        for k, t in enumerate(toks):
            if t.text.lower() not in ("and", "or") or t.tag != "CC" or k == 0:
                continue
            b = _np_after(q, k + 1)
            a = _np_before(q, k)
            if a is None or b is None:
                continue
            # "the Broncos and Steelers": the determiner is shared, not A's own; a name's "the" is its own
            # unless both are plural ("the US and Britain" is no "the Britain and US")
            shared = a.det != b.det
            if shared:
                if b.det or toks[a.start].tag not in ("DT", "PRP$") or a.name and not (a.plural and b.plural):
                    continue
                a = Phrase(a.start + 1, a.end, False, a.adj, a.name, a.plural)
                if toks[a.start - 1].text.lower() in ("a", "an"):
                    reasons.append("article shared by both conjuncts")
                    continue
            reason = self._en_refusal(q, a, b, shared)
            if reason:
                reasons.append(reason)
                continue
            candidates.append(_swap_changes(q, a, b))
        return candidates, reasons

    def _en_refusal(self, q: Parsed, a: Phrase, b: Phrase, shared: bool) -> str | None:
        """Why the conjuncts ``a`` and ``b`` must not be swapped, or None."""
        toks = q.tokens
        wa, wb = _words(q, a), _words(q, b)
        if (wa[-1], wb[-1]) in _BINOMIALS or (wb[-1], wa[-1]) in _BINOMIALS:
            return "fixed expression"
        if a.adj != b.adj:
            return "a modifier that may cover both conjuncts"  # "red apples and pears"
        before = toks[a.start - 1 - shared] if a.start - shared > 0 else None
        if before is not None and not a.det:
            k = a.start - 1 - shared
            if before.tag in _MODIFYING_TAGS or (
                before.tag == "VB" and k > 0 and toks[k - 1].text.lower() in EN_DO
            ):  # "did sideline/VB jackets and hats start": the first word after "did" is the subject's
                return "part of a longer phrase or list"
        k = a.start - 2 - shared  # "depression, anxiety and stress": a noun before the comma
        if (
            before is not None
            and before.text in (",", ":")
            and k >= 0
            and toks[k].tag in EN_NOUN_TAGS | {"CD", ")"}
        ):
            return "part of a longer phrase or list"
        after = toks[b.end] if b.end < len(toks) else None
        if after is not None and (
            # "confirmation and profession of faith", "a surface and an object that is pushed"
            after.text.lower() in ("and", "or", ",", "(", "of", "that", "which", "who", "whose")
            or after.tag in ("DT", "PRP$", "PRP", "JJ", "JJR", "JJS", "VBG")  # "triggers/NNS immune response"
        ):
            return "part of a longer phrase or list"
        if wa == wb:
            return "the same word twice"
        if a.name != b.name:
            return "a name coordinated with a common noun"
        if a.name and (a.end - a.start - a.det != b.end - b.start - b.det or a.plural != b.plural):
            return "part of a longer phrase or list"  # "Mahayana and Theravada Buddhism", "... Counties"
        if not a.name and not shared and not b.det and a.plural != b.plural:
            return "a conjunct that may not be a noun"  # "remain friends and talk/NN"
        if before is not None and not a.det and before.text.lower() in ("not", "to", "never"):
            return "a conjunct that may not be a noun"  # "and not age/NN and travel/NN to another planet"
        if _numeric(q, a) or _numeric(q, b) or {wa[-1], wb[-1]} & _ORDERED:
            return "ordered or numeric conjuncts"
        if {t.text.lower() for t in toks} & _ASYMMETRIC_HEADS:
            return "order matters in the question"
        if a.name and not (self._plain_name(q, a) and self._plain_name(q, b)):
            return "names that may be one title or firm"
        if _in_quotes(q, a.start):
            return "inside a quotation"
        if any("-" in t.text or "–" in t.text for t in toks[max(0, a.start - 1) : b.end + 1]):
            return "a hyphen joined to a conjunct"  # "India-Donald Trump or Hillary Clinton"
        return None

    def _plain_name(self, q: Parsed, p: Phrase) -> bool:
        """A name that is only a name: capitalised, not sentence-initial, and not a capitalised common
        word ("War and Peace", "Pride and Prejudice" are titles), unless the word list knows it as a name
        ("India", "Japan"); a name of several capitalised words is a name."""
        t = q.tokens[p.end - 1]
        word = t.text
        if p.end - p.start - p.det > 1:
            return all(x.text[:1].isupper() for x in q.tokens[p.start + p.det : p.end])
        if not word[:1].isupper() or t.start == 0:
            return False
        if word.isupper() or t.tag == "NNPS":  # "HDD", "Broncos": acronyms and team names
            return True
        if word.endswith("s") and word.lower()[:-1] in self.res.wordnet.lemmatize(word, "n"):
            return True  # "the Panthers": a plural common noun as a name is a team, not a title
        return not self.res.wordnet.knows(word) or word in self.res.en_words

    def _zh(self, q: Parsed) -> tuple[list[list[Change]], list[str]]:
        toks = q.tokens
        candidates, reasons = [], []
        for k in range(1, len(toks) - 1):
            t = toks[k]
            if t.text not in _ZH_CONJ or t.tag not in ("c", "p"):
                continue
            if not (_zh_arg(q, k - 1) and _zh_arg(q, k + 1)) or toks[k - 1].text == toks[k + 1].text:
                continue
            if _in_title(q, k):
                reasons.append("inside a title")
                continue
            if not _zh_boundary_before(q, k - 1) or (k + 2 < len(toks) and toks[k + 2].tag in _ZH_MODIFIER):
                reasons.append("part of a longer phrase or list")
                continue
            if self._zh_shared_head(toks[k - 1].text, toks[k + 1].text):
                reasons.append("part of a longer phrase or list")  # 手机和电脑游戏: 手机游戏 too
                continue
            if (
                k + 2 < len(toks)
                and toks[k + 2].text in _ZH_CONJ | {"、", "，", ","}
                or k >= 2
                and (
                    toks[k - 2].text in _ZH_CONJ | {"、"}
                    or toks[k - 2].text in "，,"
                    and k >= 3
                    and toks[k - 3].tag in _ZH_NOUN
                )
            ):
                reasons.append("part of a longer phrase or list")  # 乌贼，章鱼和鱿鱼
                continue
            if t.text == "还是" and (
                q.text.rstrip("？?！! ").endswith("吗") or not toks[k - 2].tag.startswith("v")
            ):
                reasons.append("还是 that is not a choice")  # 有的美女还是单身吗: "still"
                continue
            if t.text == "与" and not self._zh_predicate_ok(q, k + 2, strict=True):
                reasons.append("与 in a title")  # 地下城与勇士, 骑马与砍杀: games, not a pair
                continue
            if not self._zh_predicate_ok(q, k + 2):
                reasons.append("和 / 跟 before a directed verb")
                continue
            candidates.append(_zh_swap(q, k - 1, k + 1))
        return candidates, reasons

    def _zh_shared_head(self, a: str, b: str) -> bool:
        """Whether jieba's one word ``b`` is a compound whose head may also be ``a``'s (手机和电脑游戏: 电脑 +
        游戏, and 手机游戏 is a word too): swapped, the head would cover the other conjunct."""
        freq = self.res.jieba_freq
        return any(
            freq.get(b[:i], 0) and freq.get(b[i:], 0) and freq.get(a + b[i:], 0) for i in range(1, len(b) - 1)
        )

    @staticmethod
    def _zh_predicate_ok(q: Parsed, i: int, strict: bool = False) -> bool:
        """Whether what follows the coordination (from token ``i``) holds of both alike; ``strict``: says
        so in words (区别, 一起, 哪个, 谁 ...), as a title's "A与B" never does."""
        toks = q.tokens
        while i < len(toks) and (
            toks[i].text in _ZH_MODAL or toks[i].tag == "d" and toks[i].text not in _ZH_RECIPROCAL
        ):
            i += 1  # 能 / 可以 / 不 / 总是 ...: the verb that decides comes after
        if i >= len(toks):
            return not strict
        t = toks[i]
        if t.text in _ZH_RECIPROCAL:
            return True
        if strict:
            return t.text in ("有", "是") or t.tag == "uj"  # 有什么区别, 是什么关系, 的区别
        return t.tag in ("x", "y", "a", "uj", "r") or not t.tag.startswith(("v", "p"))


def _in_quotes(q: Parsed, i: int) -> bool:
    before = q.text[: q.tokens[i].start]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”") or before.count("'") % 2 == 1


@dataclass(frozen=True)
class Comparison:
    """ "A <comparative> than B": the two phrases, the comparative's tokens ``[comp, than)`` and whether
    the verb is a form of "be" (only then is the antonym swap safe: "live shorter" is not said)."""

    a: Phrase
    b: Phrase
    comp: int
    than: int
    copula: bool


def _comparative(q: Parsed, k: int) -> int | None:
    """Where the comparative before "than" (token ``k``) starts: "taller" (k-1), "more expensive" (k-2);
    None if the word before "than" is not a comparative."""
    from lemminflect import getAllLemmas

    toks = q.tokens
    if k < 1:
        return None
    word = toks[k - 1]
    if k >= 2 and toks[k - 2].text.lower() in ("more", "less") and word.tag in ("JJ", "RB", "NN"):
        lemmas = getAllLemmas(word.text.lower())
        return k - 2 if "ADJ" in lemmas or "ADV" in lemmas else None
    if word.text.lower() in ("more", "less"):
        return None  # "more than one": a quantity, not a quality
    if word.tag in ("JJR", "RBR"):
        return k - 1
    lemmas = getAllLemmas(word.text.lower())  # "taller/NN": the tagger's slip
    return k - 1 if word.text.lower().endswith("er") and "ADJ" in lemmas else None


# Adverbs that may stand between the subject and the comparative ("Is Russia really larger than Pluto?").
_DEGREE = {
    "really",
    "so",
    "much",
    "even",
    "still",
    "actually",
    "generally",
    "any",
    "always",
    "usually",
    "far",
    "way",
}
# What opens a clause whose subject is compared ("when the wife is older than the husband").
_CLAUSE_START = {"when", "if", "that", "whether", "because", "why", "how", ",", "and", "but"}


def _slot_np(q: Parsed, i: int, j: int) -> Phrase | None:
    """Tokens ``[i, j)`` read as a simple noun phrase by the words rather than the tags (the tagger often
    misses a subject: "Is brown sugar/RB ...", "Is ice/JJ lighter"): a determiner? then one to three
    words, the last a noun (LemmInflect's, or capitalised: a name), the others nouns or adjectives."""
    from lemminflect import getAllLemmas, getLemma

    toks = q.tokens
    det = i < j and toks[i].text.lower() in _DET and toks[i].tag in ("DT", "PRP$")
    words = toks[i + det : j]
    if not 1 <= len(words) <= 3 or any(not w.text.replace("-", "").isalpha() for w in words):
        return None
    if any(
        w.text.lower() in _INDEFINITE | _DET
        or w.tag in ("PRP", "CD", "IN", "CC", "MD", "WP", "WDT", "WRB", "EX")
        for w in words
    ):
        return None
    # a name: capitalised ("Amazon") or with a capital inside ("eBay", "iOS"), not the question's first word
    capitalised = [w.start > 0 and any(c.isupper() for c in w.text) for w in words]
    name = all(capitalised)
    if not name:
        if any(capitalised[-1:]) or any(w.tag.startswith("VB") for w in words):
            return None
        kinds = [set(getAllLemmas(w.text.lower())) for w in words]
        # the head a noun (a word LemmInflect does not know counts when tagged one: "phenol", "tv")
        if not ("NOUN" in kinds[-1] or not kinds[-1] and words[-1].tag in EN_NOUN_TAGS):
            return None
        if any(k and not k & {"NOUN", "ADJ"} for k in kinds[:-1]):
            return None
    head = words[-1]
    plural = head.tag in _PLURAL or (
        not name
        and head.text.lower().endswith("s")
        and getLemma(head.text.lower(), upos="NOUN")[0] != head.text.lower()
    )
    return Phrase(i, j, det, False, name, plural)


def _en_comparisons(q: Parsed) -> tuple[list[Comparison], list[str]]:
    """Every "A <comparative> than B" of the question where A is the subject of "be" (or of "do" and a
    verb): "[why|how] is A [really] taller than B [in C]?", "... when A is older than B?"."""
    toks = q.tokens
    found, reasons = [], []
    for k, t in enumerate(toks):
        if t.text.lower() != "than":
            continue
        comp = _comparative(q, k)
        if comp is None:
            continue
        end = next(
            (j for j in range(k + 1, len(toks)) if toks[j].tag in (".", "IN", ",") or toks[j].text in "?!"),
            len(toks),
        )
        b = _slot_np(q, k + 1, end)
        if b is None:
            reasons.append("no simple noun phrase after than")
            continue
        if end < len(toks) and toks[end].text not in ("?", ".", "!", "in", "for", "on", "at"):
            reasons.append("the comparison goes on after than")
            continue
        x = comp
        while x > 0 and toks[x - 1].text.lower() in _DEGREE:
            x -= 1
        verb = None
        if x > 0 and toks[x - 1].tag == "VB" and toks[x - 1].text.lower() not in EN_BE:
            verb, x = x - 1, x - 1  # "do women live longer than men"
        a = None
        if x > 0 and toks[x - 1].text.lower() in EN_BE and verb is None:  # "... when A is taller than B"
            v = x - 1
            s = v
            while s > 0 and toks[s - 1].text.lower() not in _CLAUSE_START and v - s < 4:
                s -= 1
            if s == 0 or toks[s - 1].text.lower() in _CLAUSE_START:
                a = _slot_np(q, s, v)
            copula = True
        if a is None:  # "[why|how] is A taller than B", "why do A live longer than B"
            s = 1 if toks[0].text.lower() in ("why", "how", "so") else 0
            if s >= len(toks) or toks[s].text.lower() not in (EN_BE if verb is None else EN_DO):
                reasons.append("not a question about a comparison")
                continue
            a = _slot_np(q, s + 1, x)
            copula = verb is None
        if a is None:
            reasons.append("no simple noun phrase before the comparative")
            continue
        if a.plural != b.plural:
            reasons.append("phrases of different number")
            continue
        if _numeric(q, a) or _numeric(q, b) or _words(q, a) == _words(q, b):
            reasons.append("numeric or equal phrases")
            continue
        if _anaphoric(q, a) or _anaphoric(q, b):
            reasons.append("a pronoun that refers across the swap")
            continue
        found.append(Comparison(a, b, comp, k, copula))
    return found, reasons


def _en_from_to(q: Parsed, res) -> tuple[list[tuple[Phrase, Phrase]], list[str]]:
    """Every "from A to B" (and "convert / translate A to / into B") of the question with A and B simple
    noun phrases, not two units of measure (``res``: the operation's Resources)."""
    toks = q.tokens
    found, reasons = [], []
    for i, t in enumerate(toks):
        if t.text.lower() != "from" and not (
            t.tag.startswith("VB") and _lemma(t) in ("convert", "translate")
        ):
            continue
        a = _np_after(q, i + 1, max_nouns=3)
        if a is None or a.end >= len(toks) or toks[a.end].text.lower() not in ("to", "into"):
            continue
        b = _np_after(q, a.end + 1, max_nouns=3)
        if b is None:
            continue
        wa, wb = _words(q, a), _words(q, b)
        if _numeric(q, a) or _numeric(q, b) or {wa[-1], wb[-1]} & _ORDERED or wa == wb:
            reasons.append("ordered or numeric ends")
            continue
        if _anaphoric(q, a) or _anaphoric(q, b):
            reasons.append("a pronoun that refers across the swap")
            continue
        if _en_unit(res, wa[-1]) and _en_unit(res, wb[-1]):
            reasons.append("a conversion between units: one relation either way")
            continue
        found.append((a, b))
    return found, reasons


def _en_unit(res, word: str) -> bool:
    """Whether ``word`` names a unit of measure or a currency (WordNet: a kind of "unit of measurement")."""
    if word in _EN_UNITS:
        return True
    wn = res.wordnet
    unit = wn.lemmas.get("unit of measurement", {}).get("n", [None])[0]
    return any(unit in wn.ancestors(lemma, "n", 8) for lemma in wn.lemmatize(word, "n")[:1])


# Verbs whose two arguments can trade places without changing the fact ("Did Trump meet Putin?").
_SYMMETRIC_VERBS = {
    "marry", "meet", "date", "fight", "play", "face", "resemble", "equal", "match", "join", "merge", "battle",
    "know", "kiss", "hug", "divorce", "partner", "collaborate", "compete", "tie", "contact", "befriend",
    "be", "have", "do", "become", "get", "make", "look", "seem",
}  # fmt: skip


def _en_agent_patient(q: Parsed) -> tuple[list[tuple[Phrase, Phrase]], list[str]]:
    """The names of "[Why] did|does|will|can A <verb> B?": "Will Google buy Twitter?", "Why did India
    attack Pakistan?"."""
    toks = q.tokens
    s = 1 if toks[0].text.lower() == "why" else 0
    if len(toks) < 5 + s or toks[s].text.lower() not in EN_DO | {"can", "will", "would", "could", "should"}:
        return [], []
    a = _np_after(q, s + 1, max_nouns=0)
    if a is None or a.end + 2 >= len(toks) or not toks[a.end].tag.startswith("VB"):
        return [], []
    b = _np_after(q, a.end + 1, max_nouns=0)
    if b is None or b.end != len(toks) - 1 or toks[-1].text != "?":
        return [], []
    if a.det or b.det:
        return [], ["a name with an article"]  # "win the Presidency": a thing, no agent
    if _lemma(toks[a.end]) in _SYMMETRIC_VERBS:
        return [], ["a symmetric verb"]
    if a.end - a.start - a.det != b.end - b.start - b.det or _numeric(q, a) or _numeric(q, b):
        return [], ["names of different length"]
    return [(a, b)], []


def _lemma(t: TaggedToken) -> str:
    from lemminflect import getLemma

    lemmas = getLemma(t.text.lower(), upos="VERB")
    return lemmas[0] if lemmas else t.text.lower()


def _anaphoric(q: Parsed, p: Phrase) -> bool:
    """Whether the phrase's determiner points back to something ("kids smarter than their parents": moved
    before "kids", "their" would point forward)."""
    return p.det and q.tokens[p.start].text.lower() in ("his", "her", "its", "their")


# Question words that modify the noun before 比 or 到: swapping that noun leaves the question word on the
# other ("现在什么手机比苹果好" -> "现在什么苹果比手机好" is nonsense; blind reading a).
_ZH_WH_MODIFIERS = frozenset(["什么", "哪个", "哪些", "哪种", "哪款", "哪家", "哪", "啥", "什么样"])
_ZH_WH_CHARS = ("什么", "哪", "谁", "几", "多少", "啥")
_ZH_WH_SIDE = "a question word on one side"


def _zh_wh_side(q: Parsed, a: int, b: int) -> bool:
    """Whether the noun ``a`` (just before 比 / 到) has a question word before it, or either noun holds one."""
    toks = q.tokens
    return (
        a >= 1
        and toks[a - 1].text in _ZH_WH_MODIFIERS
        or any(w in toks[i].text for i in (a, b) for w in _ZH_WH_CHARS)
    )


def _zh_comparisons(q: Parsed, reasons: list[str] | None = None) -> list[tuple[int, int, int]]:
    """Every "A比B ..." as (A, 比, B) token indices, A and B nouns or personal pronouns; why one was
    refused goes to ``reasons``."""
    toks = q.tokens
    found = []
    reasons = [] if reasons is None else reasons
    for k in range(1, len(toks) - 2):
        if toks[k].text != "比" or toks[k].tag != "p":
            continue
        if not (_zh_arg(q, k - 1, pronouns=True) and _zh_arg(q, k + 1, pronouns=True)):
            continue
        if not _zh_boundary_before(q, k - 1) or toks[k + 2].tag in _ZH_MODIFIER - {"a"} | {"uj"}:
            continue
        if _zh_wh_side(q, k - 1, k + 1):
            reasons.append(
                _ZH_WH_SIDE
            )  # 什么手机比苹果好 -> 什么苹果比手机好: the question word stays behind
            continue
        if toks[k - 1].text != toks[k + 1].text:
            found.append((k - 1, k, k + 1))
    return found


@register
class SwapAsymmetric(Operation):
    """The two ends of an asymmetric relation swapped: "from A to B" ("translate from Arabic to English"
    -> "from English to Arabic"; also "convert / translate A to B"), "A <comparative> than B" ("Is Amazon
    better than eBay?" -> "Is eBay better than Amazon?"), the agent and patient of "[Why] did|will A
    <verb> B?" when both are plain names ("Will Google buy Twitter?"), Chinese 从A到B, A到B between two
    places (北京到上海 -> 上海到北京), A比B (男人比女人高 -> 女人比男人高). The relation now points the other way,
    so the question asks something else (label 0).

    A and B are simple noun phrases, of the same number in a comparison (the verb agrees with the new
    subject); refused: numbers, dates and ordered ends ("from birth to death", "from beginner to
    advanced" reversed are no questions anyone asks), a determiner pointing back ("kids smarter than their
    parents"), symmetric verbs ("meet", "marry"), and distances or travel times ("how far from A to B"
    is the same either way). Chinese 到 without 从 needs two place names (上传视频到土豆 is no route), and
    the second must end there (北京农业职业学院 is no 北京)."""

    name = "swap_asymmetric"
    subcategory = "asymmetry"
    label = DIFFERENT

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        found = self._zh(q) if self.lang == "zh" else self._en(q)
        return self.pick(q, rng, *found, "no from-to or comparison of two nouns")

    def _en(self, q: Parsed) -> tuple[list[list[Change]], list[str]]:
        lowered = {t.text.lower() for t in q.tokens}
        comparisons, reasons = _en_comparisons(q)
        candidates = [_swap_changes(q, c.a, c.b) for c in comparisons]
        pairs, more = _en_from_to(q, self.res)
        reasons += more
        if pairs and lowered & _SYMMETRIC_MEASURES:
            reasons.append("distance or travel time: the same either way")
        else:
            candidates += [_swap_changes(q, a, b) for a, b in pairs]
        pairs, more = _en_agent_patient(q)
        candidates += [_swap_changes(q, a, b) for a, b in pairs]
        return candidates, reasons + more

    def _zh(self, q: Parsed) -> tuple[list[list[Change]], list[str]]:
        toks = q.tokens
        candidates, reasons = [], []
        for k in range(1, len(toks) - 1):
            if toks[k].text != "到" or not _zh_arg(q, k - 1) or not _zh_arg(q, k + 1):
                continue
            a, b = toks[k - 1], toks[k + 1]
            from_ = k >= 2 and toks[k - 2].text == "从"
            if not from_ and not (a.tag == "ns" and b.tag == "ns" and _zh_boundary_before(q, k - 1)):
                reasons.append("到 between words that are not two places")
                continue
            if k + 2 < len(toks) and toks[k + 2].tag in _ZH_MODIFIER and toks[k + 2].text not in _ZH_ROUTE:
                reasons.append("part of a longer name")  # 从怀柔到北京农业职业学院, 郑州到西安北
                continue
            if any(w in q.text for w in ("多远", "距离", "公里", "多少公里", "多久", "多长时间")):
                reasons.append("distance or travel time: the same either way")
                continue
            if any(w in q.text[b.end :] for w in _ZH_OPENING):
                reasons.append("the opening of a route: the same either way")
                continue
            if _zh_wh_side(q, k - 1, k + 1):
                reasons.append(_ZH_WH_SIDE)
                continue
            if a.text != b.text:
                candidates.append(_zh_swap(q, k - 1, k + 1))
        candidates += [_zh_swap(q, a, b) for a, _, b in _zh_comparisons(q, reasons)]
        return candidates, reasons


@register
class SwapNegativeAsymmetric(Operation):
    """A comparison swapped and its adjective turned into its antonym: "Are men taller than women?" ->
    "Are women shorter than men?", 男人比女人更高吗 -> 女人比男人更矮吗. Both the order and the adjective
    point the other way, so the comparison states the same fact (label 1).

    English: "be A <comparative> than B" only (with "do", "live shorter" is not said); the antonym is the one
    WordNet and the PPDB / WordNet antonym list agree on, without a negative prefix ("more unhealthy"
    reads badly), a few ambiguous ones settled by hand (big -> small; old, hard refused); its comparative
    from LemmInflect's tables ("cheaper", "more expensive"). Chinese: A比B [更 / 还 / 要] <adjective> at the
    end of the question (吗, 呢, 多少 may follow) with an adjective of a fixed list of same-length antonym
    pairs (高 / 低, with 矮 when both sides are people, 大 / 小, 贵 / 便宜 ...)."""

    name = "swap_negative_asymmetric"
    subcategory = "negative_asymmetry"
    label = SAME

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        found = self._zh(q) if self.lang == "zh" else self._en(q)
        return self.pick(q, rng, *found, "no comparison of two nouns")

    def _en(self, q: Parsed) -> tuple[list[list[Change]], list[str]]:
        comparisons, reasons = _en_comparisons(q)
        candidates = []
        for c in comparisons:
            if not c.copula:
                reasons.append("comparison with a verb other than be")
                continue
            toks = q.tokens
            first, last = toks[c.comp], toks[c.than - 1]
            more = c.than - c.comp == 2
            adjective = last.text.lower() if more else _lemma_adj(last.text.lower())
            if adjective is None:
                reasons.append("no antonym in the lexicons")
                continue
            opposite = self._antonym(adjective)
            if opposite is None:
                reasons.append("no antonym in the lexicons")
                continue
            if more and first.text.lower() == "less":
                reasons.append("less ... than")
                continue
            start = first.start
            old = q.text[start : last.end]
            changes = _swap_changes(q, c.a, c.b) + [Change(start, old, _comparative_of(opposite))]
            candidates.append(changes)
        return candidates, reasons

    def _antonym(self, adjective: str) -> str | None:
        """The one antonym of ``adjective`` both lexicons give (see the class docstring), or None."""
        if adjective in _EN_PREFERRED:
            return _EN_PREFERRED[adjective]
        listed = self.res.en_antonyms.get(adjective, set())
        found = [
            a
            for a in self.res.wordnet.antonyms(adjective, "a")
            if " " not in a
            and a in listed
            and not any(a == p + adjective or adjective == p + a for p in NEGATIVE_PREFIXES)
        ]
        return found[0] if len(found) == 1 else None

    def _zh(self, q: Parsed) -> tuple[list[list[Change]], list[str]]:
        toks = q.tokens
        candidates, reasons = [], []
        for a, _, b in _zh_comparisons(q, reasons):
            i = b + 1
            while i < len(toks) and toks[i].text in _ZH_DEGREE:
                i += 1
            if i >= len(toks) or toks[i].text not in _ZH_COMPARATIVES:
                reasons.append("no adjective with an antonym after the comparison")
                continue
            if i + 1 < len(toks) and toks[i + 1].text not in _ZH_END:
                reasons.append("the comparison goes on after the adjective")
                continue
            adjective = toks[i].text
            opposite = _ZH_COMPARATIVES[adjective]
            if (
                adjective == "高"
                and _zh_person(self.res, toks[a].text)
                and _zh_person(self.res, toks[b].text)
            ):
                opposite = _ZH_TALL_PEOPLE
            candidates.append(_zh_swap(q, a, b) + [Change(toks[i].start, adjective, opposite)])
        return candidates, reasons


def _lemma_adj(word: str) -> str | None:
    from lemminflect import getLemma

    lemmas = getLemma(word, upos="ADJ")
    return lemmas[0] if lemmas and lemmas[0] != word else None


def _comparative_of(adjective: str) -> str:
    """ "cheap" -> "cheaper", "expensive" -> "more expensive": LemmInflect's table, else "more"."""
    from lemminflect import getInflection

    forms = getInflection(adjective, tag="JJR", inflect_oov=False)
    return forms[0] if forms else f"more {adjective}"
