"""Antonyms (DuQM's lexical "antonym", label N): an adjective or a verb replaced by its opposite
("什么水果脂肪低" -> "什么水果脂肪高", "Which river is the longest?" -> "Which river is the shortest?")."""

from __future__ import annotations

import random
import re

from paraguide.perturb.base import (
    DIFFERENT,
    NEGATIVE_PREFIXES,
    Change,
    Operation,
    Parsed,
    Perturbation,
    Skip,
    register,
    replace,
)
from paraguide.perturb.resources import UPOS
from paraguide.perturb.synonym import (
    _count,
    _en_inflect,
    _in_title,
    about_words,
    word_swap,
)

# The antonym must be at least this common (SQuAD train's counts over its forms): WordNet pairs rare
# words ("hypertonic").
EN_MIN_FREQ = 20
# jieba's dictionary frequency under which a listed Chinese antonym is too rare to read naturally.
ZH_MIN_FREQ = 300
# English adjectives whose first-sense antonym misreads in questions (read on Quora and SQuAD): "common
# misconceptions" -> "individual", "little son" -> "big son", "all of a sudden" -> "of a gradual", "a
# different mission" -> "a same mission", "oldest known example" -> "unknown", "native inhabitants" (and
# "Newcastle native"), "general" (the rank), "early" / "late" -> "middle"; and antonyms that rarely fit.
EN_ADJ_UNSAFE = frozenset(
    [
        "common",
        "individual",
        "little",
        "sudden",
        "different",
        "same",
        "known",
        "native",
        "general",
        "early",
        "late",
        "middle",
        "main",
        "certain",
        "particular",
        "whole",
        "real",
        "light",
        "right",
        "left",
        "western",
        "eastern",
        "present",
        "past",
        "future",
        "popular",
        "old",
        "black",
        "white",
        "open",
        "deep",
        "primary",
        "secondary",
        "conservative",
        "liberal",
        "potential",
        "local",
    ]
)
# Adjectives of measure after "how": "how old was he" -> "how young", "how long" -> "how short" are no
# questions a person asks.
EN_MEASURES = frozenset(
    [
        "old",
        "long",
        "far",
        "big",
        "tall",
        "high",
        "large",
        "deep",
        "wide",
        "fast",
        "old",
        "young",
        "much",
        "many",
    ]
)
# English verb pairs whose swap reads as the opposite action in questions; a pair is used only when
# WordNet also gives it as the antonym of the verb's first sense. Verb antonyms at large are mostly of
# another sense or take other objects ("lose weight" -> "keep weight", "stop Trump" -> "start Trump",
# "divide itself" -> "unite itself").
EN_VERB_PAIRS = frozenset(
    tuple(p.split())
    for p in [
        "win lose",
        "buy sell",
        "sell buy",
        "increase decrease",
        "decrease increase",
        "open close",
        "close open",
        "begin end",
        "end begin",
        "include exclude",
        "exclude include",
        "accept reject",
        "reject accept",
        "remember forget",
        "forget remember",
        "forbid permit",
        "permit forbid",
        "enable disable",
        "disable enable",
        "download upload",
        "upload download",
        "dislike like",
        "love hate",
        "hate love",
        "rise fall",
        "import export",
        "export import",
        "weaken strengthen",
        "strengthen weaken",
        "succeed fail",
        "borrow lend",
        "disappear appear",
        "agree disagree",
        "disagree agree",
        "approve disapprove",
        "push pull",
        "pull push",
        "attack defend",
        "enter exit",
        "exit enter",
        "ascend descend",
        "descend ascend",
        "connect disconnect",
        "unlock lock",
        "lock unlock",
        "hire fire",
    ]
)
# Chinese pairs of the antonym list kept after reading its candidates in place on LCQMC questions: the
# list is loose (好 @ 恶, 求 @ 应, 有 @ 没 is a negation, 一般 @ 特殊, 删除 @ 记载, 辛苦 @ 轻松 in 辛苦您了).
# 买 / 卖 is out: one character and a tone apart, a blind reading took the swap for a typo or for the
# same transaction ("淘宝卖的手机" / "淘宝买的手机").
_ZH_PAIRS = {
    "a": "小 大|大 小|新 旧|旧 新|长 短|短 长|便宜 昂贵|昂贵 便宜|快 慢|慢 快|高 低|低 高|瘦 胖|胖 瘦|"
    "最大 最小|最小 最大|最高 最低|最低 最高|黑 白|白 黑|简单 复杂|复杂 简单|有效 无效|聪明 愚蠢|强 弱|弱 强|"
    "重 轻|轻 重|粗 细|细 粗|深 浅|浅 深|近 远|远 近|软 硬|硬 软|干燥 潮湿|成熟 幼稚|热 冷|冷 热|浓 淡|苦 甜|"
    "暖和 寒冷|空 满|香 臭|厚 薄|稀 稠|稠 稀|清楚 模糊|清晰 模糊|模糊 清晰|漂亮 丑陋|幸运 倒霉|勇敢 胆小|"
    "吝啬 慷慨|持久 短暂|充足 不足|轻松 紧张|繁华 荒凉|宽 窄|窄 宽",
    "v": "喜欢 讨厌|讨厌 喜欢|爱 恨|结婚 离婚|离婚 结婚|提高 降低|"
    "开始 结束|上班 下班|赚 赔|关闭 打开|打开 关闭|参加 退出|退出 加入|"
    "进入 离开|赢 输|笑 哭|哭 笑|拉 推|推 拉|增加 减少|减少 增加|获得 失去|娶 嫁|上升 下降|下降 上升|"
    "上涨 下跌|提升 降低|同意 反对|出现 消失|记得 忘记",
}
ZH_PAIRS = {pos: frozenset(tuple(p.split()) for p in text.split("|")) for pos, text in _ZH_PAIRS.items()}
# After a one-character Chinese adjective: the end of the clause or a particle, where it is the
# predicate (脂肪低, 开机慢怎么办); before a noun it is often part of a word or an intensifier (大夏天,
# 老电视剧, 长出来).
_ZH_AFTER_ONE_CHAR = frozenset(
    [
        "吗",
        "呢",
        "的",
        "了",
        "啊",
        "吧",
        "么",
        "呀",
        "啦",
        "怎么办",
        "怎么",
        "为什么",
        "是",
        "还是",
        "一点",
        "点",
        "些",
        "一些",
        "多少",
    ]
)


class _Antonym(Operation):
    """A word of one part of speech (``pos``: WordNet's a or v) replaced by its antonym."""

    subcategory = "antonym"
    label = DIFFERENT
    pos: str
    en_tags: tuple[str, ...]
    zh_flags: tuple[str, ...]

    def __init__(self, lang: str, resources=None, seed: int = 13):
        super().__init__(lang, resources, seed)
        self._antonyms: dict[tuple[str, str], tuple[str, ...]] = {}  # lexicon look-ups per word and tag

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        if about_words(q):
            return Skip("asks about a word itself")
        find = self._en_candidates if self.lang == "en" else self._zh_candidates
        reasons: list[str] = []  # why a word with an antonym was refused (the rules from a blind reading)
        candidates = [c for i in range(len(q.tokens)) for c in find(q, i, reasons)]
        what = UPOS[self.pos].lower().replace("adj", "adjective")
        return self.pick(q, rng, candidates, reasons, f"no {what} with an antonym in the lexicons")

    # English
    def _en_candidates(self, q: Parsed, i: int, reasons: list[str]) -> list[list[Change]]:
        from lemminflect import getInflection

        token = q.tokens[i]
        word = token.text
        if token.tag not in self.en_tags or not word.isalpha() or len(word) < 3:
            return []
        if word.lower() in self.res.stopwords or not word[1:].islower() or (i > 0 and not word.islower()):
            return []  # "first", "last"; names ("Old Trafford") and acronyms
        after = q.tokens[i + 1] if i + 1 < len(q.tokens) else None
        if after is not None and (after.tag == "RP" or (self.pos == "v" and after.tag == "TO")):
            return []  # "give up", "agreed to terminate": the particle or the clause goes with the verb
        before = q.tokens[i - 1].text.lower() if i else ""
        if self.pos == "a":
            lowered = word.lower()
            if lowered in EN_ADJ_UNSAFE or (before == "how" and lowered in EN_MEASURES):
                return []
            if lowered in EN_COMPLEMENTARY and q.tokens[0].text.lower() in EN_YES_NO:
                reasons.append(_YES_NO_COMPLEMENTARY)  # "Is it possible ...?" / "impossible ...?"
                return []
            if after is not None and after.tag in ("VB", "VBP", "VBZ", "VBD"):
                return []  # a noun the tagger read as an adjective ("what purpose does a light serve")
            if (
                token.tag == "JJ"
                and i
                and q.tokens[i - 1].tag == "DT"
                and (after is None or after.tag[:2] != "NN")
            ):
                return []  # a noun again: "get rid of the fat above" -> "the thin above"
        if self.pos == "v" and not _en_verb_fits(q, i):
            if _en_contest(q, i):
                reasons.append(_CONTEST)
            return []
        lemma = self.res.en_lemma(word.lower(), self.pos)
        if lemma and sum(self.res.en_lemma(t.text.lower(), self.pos) == lemma for t in q.tokens) > 1:
            return []  # the word twice ("dangerous cities? Why are they dangerous?"): one swap contradicts
        wn = self.res.wordnet
        words = [(t.text, _WN_POS.get(t.tag[:2])) for t in q.tokens]
        if wn._in_multiword(words, i):
            return []  # "high school", "take place": the expression has no antonym
        present = {t.text.lower() for t in q.tokens}
        attributive = after is not None and after.tag in ("NN", "NNS", "NNP", "NNPS", "JJ")
        out = []
        for antonym in self._en_antonyms(word.lower())[
            :1
        ]:  # the commonest antonym: "positive", not "neutral"
            if self.pos == "a" and attributive and antonym.startswith(NEGATIVE_PREFIXES):
                continue  # "a possible merger" -> "an impossible merger": the negated noun phrase misleads
            if before in ("more", "most", "less", "least") and getInflection(antonym, tag="JJS"):
                continue  # "most evil" -> "most good": the antonym has its own comparison ("best")
            new = _en_inflect(antonym, token.tag)
            if new is None:
                continue
            if new in present or self.res.en_word_freq.get(new, 0) < EN_MIN_FREQ:
                continue  # "fewer" -> "manier", "biggest" -> "littlest": no such word in use
            out.append(word_swap(q, i, new))
        return out

    def _en_antonyms(self, word: str) -> tuple[str, ...]:
        """WordNet's antonyms of the word's first sense: one common word each."""
        if (word, "") not in self._antonyms:
            lemma = self.res.en_lemma(word, self.pos)
            found = self.res.wordnet_first_antonyms.get((lemma, self.pos), []) if lemma else []
            freq = self.res.en_word_freq
            kept = [
                a
                for a in found
                if a.isalpha()
                and a.islower()
                and a not in EN_ADJ_UNSAFE
                and (self.pos != "v" or (lemma, a) in EN_VERB_PAIRS)
                and _count(freq, a) >= EN_MIN_FREQ
            ]
            kept.sort(key=lambda a: -_count(freq, a))
            self._antonyms[word, ""] = tuple(kept)
        return self._antonyms[word, ""]

    # Chinese
    def _zh_candidates(self, q: Parsed, i: int, reasons: list[str]) -> list[list[Change]]:
        token = q.tokens[i]
        if token.tag not in self.zh_flags or _in_title(q.text, token.start):
            return []
        if self.pos == "a" and len(token.text) == 1:
            after = q.tokens[i + 1] if i + 1 < len(q.tokens) else None
            if after is not None and after.text not in _ZH_AFTER_ONE_CHAR and after.tag not in ("x", "w"):
                return []
            if i and q.tokens[i - 1].tag == "m":
                return []  # 四强 (the last four), 一小: a word with the number
        if self.pos == "v" and i + 1 < len(q.tokens):
            after = q.tokens[i + 1]
            if after.tag.startswith("v") or token.text in ("哭", "笑") and after.tag.startswith("n"):
                return []  # 开始举办 -> 结束举办, 哭长城 -> 笑长城: the verb goes with what follows
        if sum(t.text == token.text for t in q.tokens) > 1:
            return []  # 很爱很爱你 -> 很恨很爱你: one swap of a repeated word contradicts the other
        if token.text in _ZH_CONTEST and any(w in q.text for w in _ZH_WHO):
            reasons.append(_CONTEST)  # 巴西和德国谁赢了 / 谁输了: one answer names the winner and the loser
            return []
        if token.text in ZH_COMPLEMENTARY and _zh_yes_no(q.text):
            reasons.append(_YES_NO_COMPLEMENTARY)  # 这样做有效吗 / 无效吗: one question, the answer flipped
            return []
        antonyms = [a for a in self._zh_antonyms(token.text, token.tag) if a not in q.text]
        # The commonest antonym: 高 -> 低 rather than 矮, which fits fewer nouns.
        return [[replace(token, antonyms[0])]] if antonyms else []

    def _zh_antonyms(self, word: str, flag: str) -> tuple[str, ...]:
        """The antonym list's pairs of the word that read as a swap in place: the same length and jieba
        flag (the list pairs words loosely: 高 @ 洼, 好 @ 歹), no four-character idioms, common, and not
        in one Cilin synonym group with the word (the list has synonyms too: 重要 @ 紧要), commonest
        first."""
        if (word, flag) not in self._antonyms:
            res, tags = self.res, self.res.jieba_flags
            codes = {c for c in res.cilin_codes.get(word, []) if c.endswith("=")}
            found = [
                a
                for a in res.zh_antonyms.get(word, ())
                if (word, a) in ZH_PAIRS[self.pos]
                and len(a) == len(word) != 4
                and tags.get(a) == flag
                and res.jieba_freq.get(a, 0) >= ZH_MIN_FREQ
                and not codes & set(res.cilin_codes.get(a, []))
            ]
            found.sort(key=lambda a: (-res.jieba_freq.get(a, 0), a))
            self._antonyms[word, flag] = tuple(found)
        return self._antonyms[word, flag]


_BE_HAVE = frozenset(
    [
        "be",
        "is",
        "are",
        "was",
        "were",
        "been",
        "being",
        "am",
        "'s",
        "have",
        "has",
        "had",
        "having",
        "get",
        "got",
        "gets",
    ]
)


def _en_verb_fits(q: Parsed, i: int) -> bool:
    """Whether the verb at ``i`` can take its antonym in place: a past participle after be / have (else
    the tagger may have misread a past tense: "drives ended in punts" -> "begun"); "begin" / "end" used
    without an object ("ended its model" -> "began its model" reads as starting it); "sell ... to" and
    "buy ... from", which the other verb would turn around."""
    token = q.tokens[i]
    words = [t.text.lower() for t in q.tokens]
    if token.tag == "VBN" and not _BE_HAVE & set(words[max(0, i - 3) : i]):
        return False
    from lemminflect import getLemma

    lemma = (getLemma(token.text.lower(), upos="VERB") or ("",))[0]
    after = q.tokens[i + 1].tag if i + 1 < len(q.tokens) else "."
    if lemma in ("begin", "end") and after in (
        "DT",
        "PRP$",
        "PRP",
        "JJ",
        "NN",
        "NNS",
        "NNP",
        "CD",
        "IN",
        "RP",
    ):
        return False  # "ended its model", "end in a conflict": a transitive or another sense
    if _en_contest(q, i):
        return False  # "Who will win the election?" / "lose": in a two-sided contest one answer gives both
    return not (lemma == "sell" and "to" in words[i:] or lemma == "buy" and "from" in words[i:])


_WN_POS = {"NN": "n", "VB": "v", "JJ": "a", "RB": "r"}
# Complementary adjectives (one of the two holds): in a yes/no question the antonym asks the same question
# with the answer flipped ("Is it possible to travel to the future?" / "impossible"; a blind reading judged
# them the same). Gradable pairs (hot / cold) still make another question.
EN_COMPLEMENTARY = frozenset(
    ["possible", "impossible", "legal", "illegal", "true", "false", "alive", "dead", "correct", "incorrect",
     "right", "wrong", "visible", "invisible", "safe", "unsafe", "same", "different", "open", "closed"]
)  # fmt: skip
EN_YES_NO = frozenset(
    ["is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "will", "would", "should", "has",
     "have", "had", "may", "might", "must", "shall"]
)  # fmt: skip
ZH_COMPLEMENTARY = frozenset(
    ["有效", "无效", "对", "错", "真", "假", "合法", "违法", "死", "活", "可能", "不可能", "正确", "错误"]
)
_YES_NO_COMPLEMENTARY = "a yes/no question with a complementary antonym"
_CONTEST = "winning or losing asked of the sides"
# A Chinese yes/no question: ends in 吗 / 么, or asks 是否 or A不A (能不能, 有没有 are A不A / A没A).
_ZH_A_NOT_A = re.compile(r"(.{1,2})[不没]\1")


def _zh_yes_no(text: str) -> bool:
    end = text.rstrip("?？ ")
    # 么 as 吗 ("有效么"), not the 么 of 什么 / 怎么 / 这么 (去黑头最有效的办法是什么 asks which)
    particle = (
        end.endswith("吗")
        or end.endswith("么")
        and not end.endswith(("什么", "怎么", "这么", "那么", "多么"))
    )
    return particle or "是否" in text or bool(_ZH_A_NOT_A.search(text))


def _en_contest(q: Parsed, i: int) -> bool:
    """Whether token ``i`` is win / lose in a question about who or which side."""
    from lemminflect import getLemma

    lemma = (getLemma(q.tokens[i].text.lower(), upos="VERB") or ("",))[0]
    return lemma in ("win", "lose") and q.tokens[0].text.lower() in ("who", "which", "whom", "whose")


# Winning and losing asked of the sides (谁赢了, 哪个队输了): the winner's question and the loser's have one
# answer in a two-sided contest (a blind reading judged them the same question).
_ZH_CONTEST = frozenset(["赢", "输", "胜", "负"])
_ZH_WHO = ("谁", "哪个", "哪队", "哪方", "哪一方", "哪支")


@register
class AntonymAdjective(_Antonym):
    """An adjective replaced by its antonym (低 -> 高, "largest" -> "smallest"): the question asks about
    the opposite property, so it is another question (label 0)."""

    name = "antonym_adjective"
    pos = "a"
    en_tags = ("JJ", "JJR", "JJS")
    zh_flags = ("a",)


@register
class AntonymVerb(_Antonym):
    """A verb replaced by its antonym (增加 -> 减少, "won" -> "lost"): the opposite event or action, so
    another question (label 0)."""

    name = "antonym_verb"
    pos = "v"
    en_tags = ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ")
    zh_flags = ("v",)
