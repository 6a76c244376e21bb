"""Negation (DuQM's lexical "negation"): the predicate negated ("为什么宝宝哭" -> "为什么宝宝不哭",
"Why is the sky blue?" -> "Why isn't the sky blue?", label N), or negated with its antonym so that the
question stays the same ("Is the cat alive?" -> "Is the cat not dead?", 密码忘记了 -> 密码不记得了, label Y).

Negation changes what a question asks only where the question asks about its predicate's content: why
questions and questions whose wh-word is the subject ("Who wrote it?" -> "Who didn't write it?"). A
negated yes/no question ("Is it safe?" -> "Isn't it safe?", 会下雨吗 -> 不会下雨吗) asks the same thing
with an expectation, so those are refused by the plain negations."""

from __future__ import annotations

import random

from paraguide.perturb.base import (
    DIFFERENT,
    EN_BE,
    EN_SUBJECT_TAGS,
    SAME,
    Change,
    Operation,
    Parsed,
    Perturbation,
    Skip,
    cased,
    register,
    replace,
)

# English auxiliaries and their negative contractions; "must not" (a prohibition), "may not" and "am not"
# have none that keeps the question's form, so questions with them are refused.
EN_CONTRACTIONS = {
    "is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "do": "don't", "does": "doesn't",
    "did": "didn't", "can": "can't", "could": "couldn't", "will": "won't", "would": "wouldn't",
    "should": "shouldn't", "has": "hasn't", "have": "haven't", "had": "hadn't",
}  # fmt: skip
EN_NEGATIONS = frozenset(
    ["not", "n't", "n’t", "never", "no", "nobody", "nothing", "none", "neither", "nor", "cannot", "without"]
)
EN_WH_SUBJECT = frozenset(["who", "what", "which"])
# Chinese: what already negates (不, 没, 别, 未, 无, 非 ...), words that go with 不 as they are (modal
# verbs), what follows a verb and makes 不 before it read badly (aspect 了 / 过 / 着, a complement after
# 得), degree adverbs that 不 cannot follow (这么不红), and prepositions, before which 不 belongs.
ZH_NEGATIVES = ("不", "没", "别", "未", "无", "非", "莫", "勿", "甭")
ZH_MODALS = frozenset(
    ["能", "会", "可以", "应该", "应当", "想", "敢", "愿意", "肯", "可能", "需要", "能够", "该", "得以"]
)
ZH_AFTER_BAD = frozenset(["了", "过", "着", "得", "起来", "下去", "出来", "上来"])
ZH_DEGREE = frozenset(
    [
        "很",
        "这么",
        "那么",
        "太",
        "非常",
        "特别",
        "越来越",
        "比较",
        "更",
        "最",
        "挺",
        "十分",
        "多么",
        "好",
        "如此",
        "这样",
        "那样",
    ]
)
ZH_WHY = frozenset(["为什么", "为何", "为啥", "干嘛", "干吗"])
# Subject wh-words: 谁 is left out, its questions are mostly requests (谁有X的下载, 谁知道), whose negation
# reads as a rhetorical question; 哪里 is a place, not the subject.
ZH_WH_SUBJECT = frozenset(["什么", "哪些", "哪个", "哪种", "什么样", "哪家", "哪款"])
# Verbs of naming, saying and thinking: 什么是X, 什么叫X, 为什么说X are not negated naturally.
ZH_VERBS_ODD = frozenset(
    ["是", "叫", "叫做", "算", "算是", "指", "说", "觉得", "认为", "感觉", "知道", "代表", "意味着", "要"]
)
# What 什么 asks about when it is no subject: 什么时候, 什么意思, 什么地方.
ZH_WH_NOT_SUBJECT = frozenset(["时候", "意思", "地方", "时间", "原因"])
# Adverbs 不 may follow (都不喜欢, 总是不哭): anything else between subject and predicate is refused.
ZH_ADVERBS_OK = frozenset(
    ["都", "也", "还", "总是", "经常", "一直", "老是", "常", "常常", "又", "就", "总", "老"]
)


def _en_negated(q: Parsed) -> bool:
    return any(t.text.lower() in EN_NEGATIONS for t in q.tokens)


def _zh_negated(q: Parsed) -> bool:
    # 不 / 没 inside a word count too: 打不开, 睡不着 already negate
    return any(t.text.startswith(ZH_NEGATIVES) for t in q.tokens) or "不" in q.text or "没" in q.text


def _zh_yes_no(q: Parsed) -> bool:
    body = q.text.rstrip("?？!！.。 ~")
    return body.endswith(("吗", "么", "嘛")) or any(
        f"{a}不{a}" in q.text or f"{a}没{a}" in q.text for a in "是能会有要可对好"
    )


class _Negate(Operation):
    subcategory = "negation"
    label = DIFFERENT
    adjective: bool  # negate_adjective: a copula (or nothing, in Chinese) with an adjective predicate

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        found = _en_predicate(q) if self.lang == "en" else _zh_predicate(q)
        if isinstance(found, Skip):
            return found
        changes, adjective = found
        if adjective != self.adjective:
            return Skip("the predicate is an adjective" if adjective else "the predicate is no adjective")
        return self.make(q, changes)


def _en_predicate(q: Parsed) -> tuple[list[Change], bool] | Skip:
    """The change negating an English why or wh-subject question, and whether its predicate is an
    adjective after a copula."""
    from lemminflect import getLemma

    tokens = q.tokens
    if not tokens:
        return Skip("empty question")
    if _en_negated(q):
        return Skip("already negated")
    first = tokens[0].text.lower()
    if first in EN_CONTRACTIONS or first in ("am", "may", "might", "must", "shall"):
        return Skip("yes/no question (negated, it asks the same)")
    if sum(t.text == "?" for t in tokens) > 1:
        return Skip("several questions")
    if first == "why":
        verb = 1
    elif first in EN_WH_SUBJECT:
        verb = 1
        # "Which NFL team", "What countries": the wh-word's noun phrase, then the verb
        while verb < len(tokens) and tokens[verb].tag in ("JJ", "JJS", "NN", "NNS", "NNP", "NNPS", "CD"):
            verb += 1
        if first != "who" and verb == 1 and tokens[verb : verb + 1] and tokens[verb].text.lower() in EN_BE:
            return Skip("a what / which is question (negated, it reads oddly)")
    elif first == "how" and len(tokens) > 2 and tokens[1].text.lower() in ("many", "much"):
        verb = 2
        while verb < len(tokens) and tokens[verb].tag in ("JJ", "NN", "NNS", "NNP", "NNPS"):
            verb += 1
        if verb == 2:
            return Skip("not a wh-subject question")
    else:
        return Skip("neither a why nor a wh-subject question")
    if verb >= len(tokens):
        return Skip("no verb")
    token = tokens[verb]
    word = token.text.lower()
    wh_subject = first != "why"
    if word.startswith(("'", "’")):
        return Skip("a contracted auxiliary")
    if wh_subject and _object_question(tokens, verb):
        return Skip("the wh-word is the object (negated, it reads oddly)")
    if word in EN_CONTRACTIONS and (word not in ("has", "have", "had") or _perfect(tokens, verb)):
        if word in ("do", "does", "did") and not _followed_by_verb(tokens, verb):
            return Skip("'do' as the main verb")
        nxt = tokens[verb + 1] if verb + 1 < len(tokens) else None
        if wh_subject and word not in EN_BE and (nxt is None or nxt.tag not in ("VB", "VBN", "VBG", "RB")):
            return Skip("the wh-word is the object (negated, it reads oddly)")  # "What should I do?"
        if wh_subject and nxt is not None and nxt.text.lower() in EN_VERBS_ODD - {"be"}:
            return Skip("no verb that reads well negated")  # "What will happen if ..."
        if wh_subject and word in ("has", "have", "had") and not _is(nxt, "VERB"):
            return Skip("no verb that reads well negated")
        if (
            wh_subject
            and nxt is not None
            and nxt.text.lower() in ("be", "have")
            and not _be_predicate_ok(tokens, verb + 1)
        ):
            return Skip("a copula with a noun predicate (negated, it reads oddly)")
        if word in EN_BE and wh_subject and not _be_predicate_ok(tokens, verb):
            return Skip("a copula with a noun predicate (negated, it reads oddly)")
        new = cased(EN_CONTRACTIONS[word], token.text)
        adjective = word in EN_BE and _adjective_predicate(tokens, verb)
        return [replace(token, new)], adjective
    if not wh_subject or token.tag not in ("VBD", "VBZ", "VBP"):
        return Skip("no auxiliary or finite verb to negate")
    from lemminflect import getAllLemmas

    lemma = getLemma(word, upos="VERB")
    if not lemma or lemma[0] in EN_VERBS_ODD:
        return Skip("no verb that reads well negated")
    known = getAllLemmas(word)
    if (
        "VERB" not in known
        or verb == 1
        and first != "who"
        and "NOUN" in known
        or token.tag == "VBP"
        and first == "who"
    ):
        return Skip("the verb may be a noun (What plans ...)")
    if _coordinated(tokens, verb):
        return Skip("coordinated verbs")
    aux = {"VBD": "didn't", "VBZ": "doesn't", "VBP": "don't"}[token.tag]
    return [replace(token, f"{aux} {lemma[0]}")], False


# Main verbs whose negation in a wh-subject question reads oddly ("What doesn't happen to the money?").
EN_VERBS_ODD = frozenset(["happen", "come", "go", "be"])
_CLAUSE_OPENERS = frozenset(
    [
        "that",
        "which",
        "who",
        "whom",
        "whose",
        "to",
        "and",
        "or",
        ",",
        "when",
        "where",
        "if",
        "because",
        "while",
        "as",
    ]
)


def _object_question(tokens, verb: int) -> bool:
    """Whether a wh-question has its own subject after the verb ("What did X do?", "What have the
    chloroplasts lost?", "Who had Toghtogha tried to defeat?"): a do-auxiliary, or a later finite verb
    right after a noun, outside a relative or subordinate clause."""
    if tokens[verb].text.lower() in ("do", "does", "did"):
        return True
    opened = False
    for j in range(verb + 1, len(tokens)):
        t = tokens[j]
        if t.text.lower() in _CLAUSE_OPENERS or t.tag in ("WDT", "WP", "IN"):
            opened = True
        if not opened and t.tag in ("VBD", "VBN", "VBZ", "VBP") and tokens[j - 1].tag in EN_SUBJECT_TAGS:
            return True
    return False


def _coordinated(tokens, verb: int) -> bool:
    """Whether the verb is one of coordinated verbs ("invaded, occupied and committed"): a second negation
    would be needed."""
    for j in range(verb + 1, len(tokens) - 1):
        if tokens[j].text in (",", "and", "or") and tokens[j + 1].tag == tokens[verb].tag:
            return True
    return False


def _perfect(tokens, i: int) -> bool:
    """Whether "have" at ``i`` is the perfect's auxiliary (a participle follows, maybe after a subject)."""
    for t in tokens[i + 1 : i + 6]:
        if t.tag == "VBN":
            return True
        if t.tag.startswith("VB") or t.text in "?,.":
            return False
    return False


def _followed_by_verb(tokens, i: int) -> bool:
    for t in tokens[i + 1 :]:
        if t.tag in ("VB", "VBP"):
            return True
        if t.text in "?,." or t.tag in ("VBD", "VBZ", "MD"):
            return False
    return False


def _clause_end(tokens, i: int) -> int:
    """Index of the first boundary after ``i``: "?", ",", a preposition, "to", "that", "if", "when"."""
    j = i + 1
    while (
        j < len(tokens) and tokens[j].text not in "?,.;" and tokens[j].tag not in ("IN", "TO", "WDT", "WRB")
    ):
        j += 1
    return j


def _adjective_predicate(tokens, be: int) -> bool:
    """Whether the copula at ``be`` takes an adjective: the last word before the clause's boundary
    ("Why is the sky blue?", "Why is water important for life?")."""
    end = _clause_end(tokens, be)
    last = tokens[end - 1]
    # the tagger reads colours as nouns ("the sky blue/NN"): a word that can be an adjective, not after a
    # determiner, counts
    return (
        end - 1 > be
        and (last.tag in ("JJ", "JJR") or last.tag == "NN" and tokens[end - 2].tag[:2] in ("NN", "RB"))
        and tokens[end - 2].tag not in ("DT", "PRP$")
        and _is(last, "ADJ")
    )


def _be_predicate_ok(tokens, be: int) -> bool:
    """A wh-subject copula negates naturally before an adjective or a participle ("Which planets aren't
    habitable?", "Who wasn't elected?"), not before a noun ("Who isn't the president?")."""
    nxt = tokens[be + 1] if be + 1 < len(tokens) else None
    if nxt is not None and nxt.tag == "RB" and be + 2 < len(tokens):
        nxt = tokens[be + 2]
    return (
        nxt is not None
        and nxt.tag in ("JJ", "JJR", "VBN", "VBG")
        and _is(nxt, "ADJ" if nxt.tag[0] == "J" else "VERB")
    )


def _is(token, upos: str) -> bool:
    """Whether LemmInflect knows the word as ``upos`` (the tagger reads "father" as a comparative)."""
    from lemminflect import getAllLemmas

    return upos in getAllLemmas(token.text.lower())


def _zh_predicate(q: Parsed) -> tuple[list[Change], bool] | Skip:
    """The change negating a Chinese why or wh-subject question, and whether the predicate is an
    adjective (or 是 + adjective + 的)."""
    tokens = q.tokens
    if not tokens:
        return Skip("empty question")
    if _zh_negated(q):
        return Skip("already negated")
    if _zh_yes_no(q):
        return Skip("yes/no question (negated, it asks the same)")
    words = [t.text for t in tokens]
    why = next((i for i, w in enumerate(words) if w in ZH_WHY), None)
    if why is not None:
        start = why + 1
    else:
        start = 1 if words[0] == "请问" else 0
        if start >= len(words) or words[start] not in ZH_WH_SUBJECT:
            return Skip("neither a why nor a wh-subject question")
        start += 1
        if (
            start >= len(words)
            or words[start] in ZH_WH_NOT_SUBJECT
            or not tokens[start].tag.startswith(("n", "uj"))
        ):
            return Skip("neither a why nor a wh-subject question")  # 什么时候, 什么花(v) 一年四季都开
    # the predicate: the first verb or adjective after the wh-word, across a subject and plain adverbs;
    # a verb before a noun and another predicate is an attribute (什么减肥产品效果好, 添加联系人失败)
    later = lambda k: any(x.tag.startswith(("v", "a")) for x in tokens[k + 1 :])  # noqa: E731
    for i in range(start, len(tokens)):
        t = tokens[i]
        if t.text in ZH_ADVERBS_OK:
            continue
        if t.text in ZH_MODALS or t.text in ("有", "是"):
            break
        if t.tag.startswith(("v", "a")) and t.tag != "vn":
            if t.text in ZH_VERBS_ODD:
                break
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            prev = tokens[i - 1]
            attribute = prev.text in ZH_WHY or prev.tag.startswith("v")
            if attribute and nxt is not None and nxt.tag.startswith("n") and later(i + 1):
                continue
            if any(x.text == "的" for x in tokens[i + 1 : i + 4]) and later(i + 1):
                continue  # a relative clause: 为什么喜欢我的人都是
            if prev.text == "的":
                continue  # the head of a noun phrase the tagger read as a verb (充电宝)
            if (
                nxt is not None
                and nxt.tag.startswith("n")
                and any(x.tag.startswith("a") for x in tokens[i + 2 :])
            ):
                return Skip("a verb phrase as the subject")  # 哪个网站买机票便宜, 哪个软件看电影最好
            break
        if t.text in ZH_DEGREE:
            return Skip("a degree adverb before the predicate")
        if t.tag.startswith("p") or t.tag in ("c", "x", "w", "uj") and t.text != "的":
            return Skip("a preposition or a clause before the predicate")
        if t.tag.startswith("d") and t.text not in ZH_ADVERBS_OK:
            return Skip("an adverb before the predicate")
    else:
        return Skip("no verb or adjective after the question word")
    after = tokens[i + 1].text if i + 1 < len(tokens) else ""
    if t.text in ZH_VERBS_ODD and not (t.text == "是" and why is not None):
        return Skip(f"{t.text} (negated, it reads oddly)")  # 什么不是X, 为什么不说, 不要 (an order)
    if t.text.startswith(("最", "更")):
        return Skip("a degree adverb before the predicate")
    if after in ZH_AFTER_BAD:
        return Skip(f"the verb takes {after} (negated, it reads badly)")
    if t.text == "有":
        return [Change(t.start, "", "没")], False
    if t.text == "是":
        if tokens[i - 1].text in ("老", "总"):
            return Skip("老是 / 总是 (always), no copula")
        rest = tokens[i + 1 : i + 3]
        adjective = bool(rest) and rest[0].tag.startswith("a") and (len(rest) < 2 or rest[1].text == "的")
        return [Change(t.start, "", "不")], adjective
    if t.text.startswith(("有", "是")) and len(t.text) > 1 and t.tag.startswith("v"):
        return Skip("a verb of 有 / 是 (没有意思, 不是非)")
    # 好吃, 好看, 难听: adjectives that jieba's dictionary tags as verbs
    return [Change(t.start, "", "不")], t.tag.startswith("a") or len(t.text) == 2 and t.text[0] in "好难"


@register
class NegateVerb(_Negate):
    """The verb negated (为什么宝宝哭 -> 为什么宝宝不哭, "Who wrote Hamlet?" -> "Who didn't write Hamlet?"):
    the question asks about the opposite event, so it is another question (label 0). Only why and
    wh-subject questions: a negated yes/no question asks the same."""

    name = "negate_verb"
    adjective = False


@register
class NegateAdjective(_Negate):
    """The adjective predicate negated (为什么苹果是红的 -> 为什么苹果不是红的, "Why is the sky blue?" ->
    "Why isn't the sky blue?"): the opposite property, another question (label 0)."""

    name = "negate_adjective"
    adjective = True


# Complementary pairs only: "not X" means the antonym Y, so the question stays the same. Gradable pairs
# (hot / cold, rich / poor, easy / hard) are left out: "not hot" is not "cold", and "is the water not hot?"
# asks another question than "is the water cold?".
# A negative-prefixed antonym is only used the other way ("illegal" -> "not legal"): "not illegal", "not
# impossible" are litotes, which say less than the plain word.
EN_COMPLEMENTS = {
    "alive": "dead", "dead": "alive", "illegal": "legal", "incorrect": "correct", "male": "female",
    "female": "male", "invisible": "visible", "invalid": "valid", "awake": "asleep", "asleep": "awake",
    "incomplete": "complete", "infinite": "finite", "immortal": "mortal", "guilty": "innocent",
    "innocent": "guilty", "open": "closed", "closed": "open", "unavailable": "available",
    "unnecessary": "necessary", "permanent": "temporary", "temporary": "permanent", "public": "private",
    "private": "public", "real": "fake", "fake": "real", "unmarried": "married", "even": "odd",
    "odd": "even", "impossible": "possible", "unsafe": "safe", "unhealthy": "healthy",
}  # fmt: skip
# Chinese: a predicate and its negated complement, as people say it: 合法 -> 不违法, 忘记 -> 不记得,
# 活着 -> 没死. 对 -> 不错 is left out: 不错 means "quite good".
ZH_COMPLEMENTS = {
    "合法": "不违法", "违法": "不合法", "错": "不对", "错误": "不正确", "活着": "没死", "危险": "不安全",
    "异常": "不正常", "忘记": "不记得", "忘": "不记得", "记得": "没忘", "违规": "不合规", "非法": "不合法",
    "失败": "没成功", "输": "没赢",
}  # fmt: skip


ZH_PREDICATE_END = frozenset(
    ["吗", "呢", "了", "啊", "吧", "呀", "怎么办", "怎么回事", "是", "的话", "了吗", "么"]
)


@register
class NegateAntonym(Operation):
    """A predicate replaced by the negation of its complementary antonym ("Is the cat alive?" -> "Is the
    cat not dead?", 这样做违法吗 -> 这样做不合法吗; DuQM's "neg+antonym", 激动 -> 无法平静): "not dead" is
    "alive", so it is the same question (label 1). Only complementary pairs are used, never gradable
    ones: "Is the water cold?" and "Is the water not hot?" ask different things (lukewarm water is
    neither)."""

    name = "negate_antonym"
    subcategory = "negation"
    label = SAME

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        if self.lang == "en":
            return self._en(q, rng)
        return self._zh(q, rng)

    def _en(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        tokens = q.tokens
        if _en_negated(q):
            return Skip("already negated")
        candidates = []
        for i, t in enumerate(tokens):
            word = t.text.lower()
            if word not in EN_COMPLEMENTS or t.tag not in ("JJ", "VBN") or i == 0:
                continue
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            if after is not None and (
                after.text.lower() in ("that", "to", "and", "or") or after.tag[:2] in ("NN", "JJ", "VB")
            ):
                continue  # "is it possible to" -> "not impossible to", "open source": extraposed or attributive
            # a predicate: a form of "be" before it, with only its subject (or nothing) in between
            for j in range(i - 1, -1, -1):
                w = tokens[j].text.lower()
                if w in EN_BE or w in ("be", "been", "am", "'s", "'re"):
                    break
                if tokens[j].tag.startswith(("VB", "MD", "W", "IN")) or tokens[j].tag == "," or j < i - 5:
                    j = -1
                    break
            if j < 0 or tokens[i - 1].tag in ("DT", "RB", "RBR", "RBS"):
                continue  # no copula, or "the closed one", "very dead"
            candidates.append(replace(t, f"not {EN_COMPLEMENTS[word]}"))
        if not candidates:
            return Skip("no complementary adjective after a copula")
        return self.make(q, [rng.choice(candidates)])

    def _zh(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        if _zh_negated(q):
            return Skip("already negated")
        candidates = []
        for i, t in enumerate(q.tokens):
            if t.text not in ZH_COMPLEMENTS:
                continue
            before = q.tokens[i - 1].text if i else ""
            after = q.tokens[i + 1].text if i + 1 < len(q.tokens) else ""
            if before in ZH_DEGREE or after in ("的", "得") and t.text not in ("合法", "违法"):
                continue  # 很错 / 错的 / 错得: no predicate 不 goes before
            if after == "了" and (
                ZH_COMPLEMENTS[t.text].startswith("没")
                or i + 2 < len(q.tokens)
                and q.tokens[i + 2].tag.startswith(("n", "r"))
            ):
                continue  # 失败了 -> 没成功了, 忘了密码 -> 不记得了密码
            if after and after not in ZH_PREDICATE_END and q.tokens[i + 1].tag not in ("x", "w"):
                continue  # a predicate only: 异常操作 -> 不正常操作, 忘记一个人 -> 不记得一个人
            candidates.append(replace(t, ZH_COMPLEMENTS[t.text]))
        if not candidates:
            return Skip("no predicate with a complementary antonym")
        return self.make(q, [rng.choice(candidates)])
