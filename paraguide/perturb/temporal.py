"""Temporal words (DuQM's lexical "temporal word", label N): a time word inserted ("北京会下雨吗" ->
"北京明天会下雨吗", "Who won the match?" -> "Who won the match yesterday?") or replaced by another of the
same tense ("昨天下雪了吗" -> "前天下雪了吗"): the question is then about another time."""

from __future__ import annotations

import random
import re

from paraguide.perturb.base import (
    DIFFERENT,
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

# English time words by tense: the one inserted must agree with the verb ("will ... tomorrow", "did ...
# last year", "is it raining today?"); "yesterday" is left out, the past questions people ask ("How did
# you learn graphic design?") are about things that take longer than a day.
# No "today" for the present progressive: a blind reading took "Are we heading towards World War III
# today?" as "nowadays", the same question.
EN_INSERT = {"future": ("tomorrow", "next year"), "past": ("last year",)}
EN_CLASSES = {
    "past": ("yesterday", "last night", "last week", "last month", "last year"),
    "future": ("tomorrow", "next week", "next month", "next year"),
    "present": ("today", "tonight", "this week", "this month", "this year"),
}
# Words that already place the question in time (or ask for a time), so none is inserted.
EN_TIME_WORDS = frozenset(
    [
        "today",
        "tomorrow",
        "yesterday",
        "tonight",
        "now",
        "currently",
        "recently",
        "ago",
        "ever",
        "still",
        "already",
        "year",
        "years",
        "month",
        "months",
        "week",
        "weeks",
        "day",
        "days",
        "century",
        "centuries",
        "decade",
        "decades",
        "when",
        "before",
        "after",
        "during",
        "since",
        "until",
        "age",
        "era",
        "period",
        "season",
        "morning",
        "evening",
        "night",
        "time",
        "times",
        "future",
        "past",
        "present",
        "soon",
        "later",
        "nowadays",
        "annually",
        "always",
        "never",
        "often",
        "usually",
        "sometimes",
        "daily",
        "weekly",
        "monthly",
        "yearly",
        "once",
        "first",
        "last",
        "next",
        "then",
        "old",
        "new",
        "long",
        "date",
        "summer",
        "winter",
        "spring",
        "autumn",
        "fall",
        "forever",
        "anymore",
        "again",
        "yet",
    ]
)
EN_PAST_AUX = frozenset(["did", "was", "were", "had"])
EN_FUTURE_AUX = frozenset(["will", "'ll", "shall"])
# Chinese time words by unit, earliest first: a replacement stays in its unit (明天 -> 后天, 今年 -> 去年).
ZH_UNITS = (
    ("前天", "昨天", "今天", "明天", "后天"),
    ("前年", "去年", "今年", "明年", "后年"),
    ("上周", "这周", "下周"),
    ("上个月", "这个月", "下个月"),
)
ZH_PAST, ZH_NOW, ZH_FUTURE = "past", "present", "future"
# Each word's tense: the unit's middle word is now, those before it past, after it future.
ZH_TENSE = {w: (ZH_PAST if i < len(u) // 2 else ZH_NOW if i == len(u) // 2 else ZH_FUTURE) for u in ZH_UNITS for i, w in enumerate(u)}  # fmt: skip
ZH_INSERT = {ZH_FUTURE: ("明天", "明年"), ZH_PAST: ("昨天", "去年")}
ZH_FUTURE_MARKS = frozenset(["会", "要", "将", "将要", "打算", "准备", "快要"])
ZH_PAST_MARKS = frozenset(["了", "过", "已经", "刚", "刚刚", "曾经"])
ZH_MODALS = frozenset(["会", "能", "要", "可以", "将", "想", "打算", "准备"])
# What makes a question future for an inserted 明天: 要 is left out, it is "want" or "need" as often.
ZH_FUTURE_INSERT = frozenset(["会", "将", "将要", "快要"])
ZH_TIME_WORDS = (
    "现在", "时候", "时间", "最近", "以前", "以后", "之前", "之后", "刚才", "已经", "曾经", "将来", "未来",
    "马上", "过去", "当时", "期间", "多久", "多长", "几点", "年", "月", "日", "号", "天", "周", "星期", "早上",
    "晚上", "上午", "下午", "中午", "凌晨", "春", "夏", "秋", "冬", "节", "小时", "分钟", "一直", "永远",
)  # fmt: skip
_TIME_ENTITIES = frozenset({"date", "time", "year"})


def _en_tense(q: Parsed) -> str | None:
    """The tense a time word can be inserted in: future ("will", "is going to"), past with a personal
    subject ("did you", "I bought": a past event of a document's subject, "Who was the MVP yesterday?",
    asks nothing a person asks), present progressive ("is it raining"); None otherwise: a time word on a
    present or a "can" question ("How can I learn Hindi today?") barely changes what it asks."""
    tokens = q.tokens
    words = [t.text.lower() for t in tokens]
    for i, t in enumerate(tokens):
        word = words[i]
        if word in EN_FUTURE_AUX or word in ("is", "are", "am") and words[i + 1 : i + 3] == ["going", "to"]:
            return None if "be" in words[i + 1 : i + 2] else "future"  # "Which will be the best ...?"
        if word in EN_PAST_AUX or t.tag == "VBD" and _past_form(word):
            personal = set(words[max(0, i - 1) : i + 2]) & {"i", "you", "we"}
            copula = word in ("was", "were") and not any(x.tag == "VBG" for x in tokens[i + 1 : i + 5])
            return "past" if personal and not copula else None
        if word in ("is", "are", "am"):
            # a progressive: the participle right after the copula, or after a one-word subject ("Is it
            # raining", "What is happening"), not a gerund of a noun phrase ("writing tips")
            nxt = tokens[i + 1 : i + 4]
            if i == 0:  # "Is it raining", "Is Pakistan helping": a gerund right after is its subject
                progressive = len(nxt) > 1 and nxt[0].tag in ("PRP", "NNP") and nxt[1].tag == "VBG"
            else:  # "What is happening": not "How helpful is doing", "are existing teachers"
                progressive = (
                    bool(nxt)
                    and nxt[0].tag == "VBG"
                    and tokens[i - 1].tag not in ("JJ", "JJR", "RB")
                    and (len(nxt) < 2 or nxt[1].tag[:2] != "NN")
                )
            return "present" if progressive else None
        if t.tag in ("VBZ", "VBP", "MD") or word in ("do", "does"):
            return None
    return None


def _past_form(word: str) -> bool:
    """Whether LemmInflect knows ``word`` as a verb's past tense (the tagger reads "buy" as one)."""
    from lemminflect import getInflection, getLemma

    return any(word in getInflection(lemma, tag="VBD") for lemma in getLemma(word, upos="VERB"))


@register
class InsertTemporal(Operation):
    """A time word inserted, in the tense of the verb ("Will it rain in Beijing?" -> "Will it rain in
    Beijing tomorrow?", 北京会下雨吗 -> 北京明天会下雨吗): the question now asks about one time only, so it
    is another question (label 0). Refused when the question already has a time expression."""

    name = "insert_temporal"
    subcategory = "temporal"
    label = DIFFERENT

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        if not q.tokens:
            return Skip("empty question")
        if any(e.type in _TIME_ENTITIES for e in q.entities):
            return Skip("already has a time expression")
        return self._en(q, rng) if self.lang == "en" else self._zh(q, rng)

    def _en(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        tokens = q.tokens
        if any(t.text.lower() in EN_TIME_WORDS or re.fullmatch(r"\d{4}s?", t.text) for t in tokens):
            return Skip("already has a time expression")
        if sum(t.text in "?.!;,:" for t in tokens) > 1 or tokens[-1].text != "?":
            return Skip("not one clause ending in '?'")
        if any(t.text.lower() in ("if", "when", "whether", "unless") for t in tokens):
            return Skip("a conditional clause (where the time word goes is unclear)")
        tense = _en_tense(q)
        if tense is None:
            return Skip("no future, past or progressive verb")
        if (
            tokens[-2].tag in ("IN", "TO", "RP", "DT", "CC", "WP", "WRB")
            or not tokens[-2].text[-1:].isalnum()
        ):
            return Skip("the clause ends in a word that a time word cannot follow")  # "made of?", quotes
        if tense not in EN_INSERT:
            return Skip("a present progressive: today reads as nowadays")
        # before the final token, the question's own spacing kept ("yourself ?")
        return self.make(q, [insert_before(q, len(tokens) - 1, rng.choice(EN_INSERT[tense]))])

    def _zh(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        tokens = q.tokens
        if any(t.tag.startswith("t") for t in tokens) or any(w in q.text for w in ZH_TIME_WORDS):
            return Skip("already has a time expression")
        if any(t.tag in ("x", "w") for t in tokens[:-1]) or "的" in q.text:
            return Skip("not one simple clause")  # a relative clause: 我喜欢的女孩要走了
        # after the subject the question opens with (nouns, pronouns), before its verb or modal
        i = 0
        while i < len(tokens) and (tokens[i].tag.startswith("n") or tokens[i].text in _ZH_PRONOUNS):
            i += 1
        if i == 0 or i == len(tokens) or not (tokens[i].tag.startswith("v") or tokens[i].text in ZH_MODALS):
            return Skip("no subject before a verb")
        # the tense: 会 / 将 right after the subject (北京会下雨吗), or a verb's 了 / 过 ending the question
        # (张柏芝死了吗); 了 inside a condition (木瓜吃了能丰胸吗) is no past event
        future = tokens[i].text in ZH_FUTURE_INSERT
        past = any(
            t.text in ("了", "过") and tokens[k - 1].tag.startswith("v") and _zh_ends(tokens, k + 1)
            for k, t in enumerate(tokens)
            if k
        )
        if future == past:
            return Skip("no tense (会 / 将 after the subject, or a final 了 / 过)")
        word = rng.choice(ZH_INSERT[ZH_FUTURE if future else ZH_PAST])
        return self.make(q, [insert_before(q, i, word)])


_ZH_PRONOUNS = frozenset(["我", "你", "他", "她", "它", "我们", "你们", "他们", "她们", "它们", "大家", "您"])


def _zh_ends(tokens, k: int) -> bool:
    """Whether the question ends at token ``k``, but for a final particle and punctuation."""
    return all(t.text in ("吗", "没有", "么", "没", "呢", "啊") or t.tag in ("x", "w") for t in tokens[k:])


@register
class ReplaceTemporal(Operation):
    """A time word replaced by another that the verb's tense allows ("Who won yesterday?" -> "Who won
    last week?", 明天会下雨吗 -> 后天会下雨吗, 今年 -> 去年 with 了): another time, another question (label
    0). Refused when the question has no time word of the lists."""

    name = "replace_temporal"
    subcategory = "temporal"
    label = DIFFERENT

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        return self._en(q, rng) if self.lang == "en" else self._zh(q, rng)

    def _en(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        text = q.text
        candidates = []
        for words in EN_CLASSES.values():
            for word in words:
                if word == "today":
                    continue  # mostly "nowadays" ("still practiced today", "today's world"): no day to change
                for m in re.finditer(rf"\b{word}\b", text, flags=re.IGNORECASE):
                    if m.start() > 0 and text[m.start() - 1] in "-'’":
                        continue  # "last-minute"
                    rest = text[m.end() :].lstrip()
                    if (
                        rest[:1] in "'’"
                        or rest[:1].isalnum()
                        and not re.match(r"(in|at|on|and|or|for|when|if|because)\b", rest)
                    ):
                        continue  # "last year students", "this year's": part of a noun phrase
                    for other in words:
                        if other != word:
                            candidates.append(Change(m.start(), m.group(), cased(other, m.group())))
        if not candidates:
            return Skip("no time word to replace")
        return self.make(q, [rng.choice(candidates)])

    def _zh(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        tense = None
        words = {t.text for t in q.tokens}
        if words & ZH_PAST_MARKS:
            tense = ZH_PAST
        elif words & ZH_FUTURE_MARKS:
            tense = ZH_FUTURE
        candidates = []
        for t in q.tokens:
            unit = next((u for u in ZH_UNITS if t.text in u), None)
            if unit is None:
                continue
            at = unit.index(t.text)
            for other in unit[max(0, at - 1) : at + 2]:
                # the next time of the unit either way (今天 -> 昨天 / 明天), that the aspect or the modal
                # allows: 了 the past and now, 会 the future and now, nothing marked either
                if other != t.text and (tense is None or ZH_TENSE[other] in (tense, ZH_NOW)):
                    candidates.append(replace(t, other))
        if not candidates:
            return Skip("no time word to replace")
        return self.make(q, [rng.choice(candidates)])
