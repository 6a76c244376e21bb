"""Active to passive (DuQM's syntactic voice, label Y): "What did the Romans build?" -> "What was built by
the Romans?", "Who wrote Hamlet?" -> "By whom was Hamlet written?", 狗咬人 -> 人被狗咬, 梦见狗咬左腿 ->
梦见被狗咬左腿 (and a Chinese 被 taken out). Agent and patient keep their roles: the same question."""

from __future__ import annotations

import random
from dataclasses import dataclass

from paraguide.perturb.base import (
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
_DO = {"did": "past", "does": "present", "do": "present"}
_BE = {("past", False): "was", ("past", True): "were", ("present", False): "is", ("present", True): "are"}
# Determiners of a subject ("the Romans", "his father"); not "this" / "that": "What did this help
# accomplish?" has the pronoun "this" for its subject.
_DET = {"the", "a", "an", "his", "her", "its", "their", "my", "our", "your"}
# Subject pronouns that can become the agent; "they" is often nobody in particular ("What language do they
# speak in Quebec?" -> "... spoken by them"), and "I", "you", "we", "it" read oddly after "by".
_OBJECT_CASE = {"he": "him", "she": "her"}
# Verbs whose passive is not said or says something else: states of mind and possession ("What is wanted by
# him"), light and linking verbs (do, have, take, get, make of), verbs of saying and naming whose object
# is a clause or a name ("What did he say"), measures ("cost", "weigh"), and "play" ("What position is
# played by him"), "marry" ("was married by him" reads as the priest).
_REFUSED_VERBS = {
    "be", "do", "have", "become", "mean", "say", "call", "cost", "take", "get", "go", "come", "let", "want",
    "need", "like", "love", "hate", "prefer", "enjoy", "think", "believe", "know", "feel", "seem", "appear",
    "look", "weigh", "measure", "contain", "lack", "include", "involve", "remain", "stay", "tell", "ask",
    "name", "try", "play", "marry", "date", "meet", "attend", "mind", "hope", "wish", "expect", "intend",
    "plan", "decide", "stand", "suffer", "face", "fit", "suit", "resemble", "equal", "hold", "keep", "put",
    "set", "run", "live", "die", "happen", "occur", "start", "begin", "end", "finish", "stop", "continue",
    "see", "hear", "watch", "understand", "remember", "forget",
    # intransitive verbs: "Which direction did the Rhine flow?" has no object to promote
    "flow", "struggle", "travel", "move", "work", "fight", "vote", "grow", "rise", "fall", "sit", "lie",
    "belong", "sail", "migrate", "retire", "compete", "participate", "arrive", "sleep", "agree", "act",
    "last", "turn", "walk", "fly", "swim", "return", "result", "exist", "rank", "score", "sing", "dress",
    "rely", "depend", "focus", "refer", "respond", "react", "listen", "wait", "talk",
}  # fmt: skip
# With a particle the verb is another ("give up", "set up", "take over" have a passive); these do not.
_REFUSED_PHRASAL = {
    "be", "do", "have", "go", "come", "get", "look", "stand", "turn", "run", "end", "grow", "sit", "lie",
    "wake", "stay", "fall", "show", "break", "make", "sum", "find", "figure", "work", "carry", "hang",
}  # fmt: skip
# "By whom was the Super Bowl won?" is said by no one: winning and losing keep the active voice here.
_NO_BY_WHOM = {"win", "lose", "beat", "lead"}
# The wh-phrase is the object only if it names a thing, not a time or a count of times ("What year did the
# Panthers form?" is no "What year was formed by ..."), nor a way or an amount of something measured.
_ADJUNCT_NOUNS = {
    "year", "years", "time", "times", "day", "days", "date", "month", "months", "century", "centuries",
    "decade", "decades", "era", "age", "period", "season", "seasons", "week", "weeks", "hour", "hours",
    "night", "morning", "way", "ways", "extent", "point", "percentage", "percent", "place", "places",
    "direction", "side", "role", "part", "position", "kind", "type", "sort", "distance", "speed", "amount",
    "city", "country", "state", "town", "location", "minutes", "seconds",
}  # fmt: skip
_CLAUSE = {"while", "when", "after", "before", "because", "if", "since", "until", "as", "though"}
_PREPOSITION_OBJECT = {"DT", "NN", "NNS", "NNP", "NNPS", "PRP$", "PRP", "CD", "JJ", "JJS", "JJR", "POS"}


@dataclass(frozen=True)
class Span:
    """Tokens ``[start, end)`` of the question, and whether the phrase is plural."""

    start: int
    end: int
    plural: bool
    adjunct: bool = False  # a wh-phrase that asks for a time, a place, a way: no object


def _base_verb(word: str) -> bool:
    """Whether ``word`` is a verb's base form (the word after "did"; the tagger often calls it a noun:
    "did the Panthers beat/NN")."""
    from lemminflect import getLemma

    lemmas = getLemma(word.lower(), upos="VERB")
    return bool(lemmas) and lemmas[0] == word.lower()


def _lemma(word: str) -> str:
    from lemminflect import getLemma

    lemmas = getLemma(word.lower(), upos="VERB")
    return lemmas[0] if lemmas else word.lower()


def _participle(lemma: str) -> str | None:
    from lemminflect import getInflection

    forms = getInflection(lemma, tag="VBN", inflect_oov=False)
    return forms[0] if forms else None


def _subject(toks: list[TaggedToken], i: int) -> Span | None:
    """The subject after "did" (token ``i``): a third-person pronoun, a name of one to four words
    ("the Carolina Panthers"), or a determiner with one noun, possibly after one adjective ("the
    Romans", "the ancient Romans") -- short, so that the word after it is the verb."""
    if i >= len(toks):
        return None
    if toks[i].text.lower() in _OBJECT_CASE:
        return Span(i, i + 1, False)
    j = i + (toks[i].text.lower() in _DET)
    names = j
    while names < len(toks) and toks[names].tag.startswith("NNP") and names - j < 4:
        names += 1
    if names > j:  # "the Broncos/NNP" is plural, "Cyprus" is not
        last = toks[names - 1]
        return Span(
            i,
            names,
            last.tag == "NNPS" or j > i and last.text.endswith("s") and not last.text.endswith(("ss", "us")),
        )
    if j == i:
        return None  # a common noun needs its determiner ("the Romans"), or the verb cannot be told
    if (
        j + 1 < len(toks)
        and toks[j].tag == "JJ"
        and toks[j].text[:1].isupper()
        and _base_verb(toks[j + 1].text)
    ):
        return Span(i, j + 1, True)  # "the French", "the British": a people
    j += j < len(toks) and toks[j].tag == "JJ"
    if j < len(toks) and toks[j].tag in ("NN", "NNS"):
        return Span(i, j + 1, _plural(toks[j]))
    return None


def _wh_phrase(toks: list[TaggedToken]) -> Span | None:
    """The question's wh-phrase before "did" / "does" / "do": "What", "Who(m)", "What / Which [adjective]
    noun", "How many / much noun" (marked ``adjunct`` when it asks for a time, a place, a way: "What year");
    None for "How much" alone and anything else."""
    first = toks[0].text.lower()
    if first in ("what", "who", "whom") and len(toks) > 1 and toks[1].text.lower() in _DO:
        return Span(0, 1, False)
    i = 2 if first == "how" and len(toks) > 1 and toks[1].text.lower() in ("many", "much") else 1
    if first not in ("what", "which", "how") or (first == "how" and i == 1):
        return None
    j = i
    while j < len(toks) and toks[j].tag in ("JJ", "CD"):
        j += 1
    k = j
    while k < len(toks) and toks[k].tag in ("NN", "NNS", "NNP") and k - j < 2:
        k += 1
    if k == j or k >= len(toks) or toks[k].text.lower() not in _DO:
        return None
    if toks[k - 1].text.lower() in _ADJUNCT_NOUNS:
        return Span(0, k, False, adjunct=True)
    return Span(0, k, _plural(toks[k - 1]) or first == "how" and toks[1].text.lower() == "many")


def _plural(t: TaggedToken) -> bool:
    """A plural noun, by its tag or its form ("operas/NN": the tagger's slip)."""
    from lemminflect import getLemma

    if t.tag in ("NNS", "NNPS"):
        return True
    word = t.text.lower()
    lemmas = getLemma(word, upos="NOUN")
    return word.endswith("s") and bool(lemmas) and lemmas[0] != word


def _rest_ok(toks: list[TaggedToken], i: int) -> bool:
    """Whether tokens from ``i`` are only prepositional phrases and adverbs up to the question mark: no
    object (the wh-phrase would not be the object), no verb (a second clause) and no stranded
    preposition ("Who did he play for?": the wh-phrase is the preposition's object)."""
    if i >= len(toks) or toks[-1].text != "?":
        return False
    rest = toks[i:-1]
    if rest and rest[0].tag not in ("IN", "RB"):
        return False
    for k, t in enumerate(rest):
        if t.tag.startswith(("VB", "W", "MD")) or t.tag in ("TO", "CC", ",", ":", "(", ")"):
            return False
        if t.tag == "IN" and (
            k + 1 == len(rest)
            or rest[k + 1].tag not in _PREPOSITION_OBJECT
            or rest[k + 1].text.lower() in _CLAUSE
        ):
            return False
    return True


# ---------------------------------------------------------------------------------------------- Chinese
# Transitive action verbs that take 被 naturally: something done to the patient (biting, chasing, cheating
# ...). Verbs of being, having, wanting, thinking, likeness do not (是, 有, 在, 叫, 像, 要, 想, 会, 能); nor do
# verbs with many senses (打 果汁 / 报告 / 电话, 吃 a habit: 孕妇吃菠萝 is no 菠萝被孕妇吃, 杀 in game names:
# 三国杀); verbs outside the list are refused rather than guessed.
_ZH_ACTIONS = {
    "咬", "抓", "追", "骗", "偷", "抢", "踢", "撞", "推", "骂", "欺负", "抛弃", "甩", "打败", "击败", "咬伤",
    "抓伤", "杀死", "打死", "咬死", "撞死", "追杀", "绑架", "伤害", "批评", "开除", "辞退", "踩", "砍", "蛰",
    "叮", "啄", "吓", "吓到", "捅", "逮捕", "跟踪", "出卖", "背叛", "嘲笑", "冤枉", "误会", "感染", "传染",
    "追赶", "偷走", "抢走", "拐卖", "打伤", "撞伤", "咬破", "抓破", "踢伤", "烫伤", "吃掉", "抓走", "叼",
}  # fmt: skip
_ZH_NOUN = ZH_NOUN_FLAGS
_ZH_PRONOUN = ZH_PERSONAL_PRONOUNS
_ZH_MODIFIER = ZH_MODIFIER_FLAGS | {"uj"}  # and 的: 我的 ... 被
# Verbs of dreaming and fearing take an event whose patient is their own subject: 梦见狗咬 = dream of being
# bitten (DuQM's E29), 怕蚊子叮 = fear being bitten.
_ZH_DREAM = {"梦见", "梦到", "梦", "怕", "害怕", "担心", "防止", "避免"}
_ZH_WH = {"什么", "哪", "哪个", "哪些", "哪种", "这", "那", "这个", "那个", "这种", "那种", "什么样"}
_ZH_GENERIC = {"人", "别人", "人家", "有人"}  # 被人欺负 -> 人欺负: the generic agent needs 有, not kept
# What may follow the clause: the end, or a short comment on the whole event ("狗咬人怎么办", "梦见蛇咬我是什么
# 意思"); a clause that goes on with its own subject ("女生追男生，该怎么追") keeps the active voice.
_ZH_TAIL = {
    "怎么办", "怎么回事", "是", "意味着", "预示着", "会", "有", "了", "吗", "呢", "啊", "吧", "怎么样", "好不好",
    "是不是", "有毒", "有没有", "要不要", "正常", "代表", "说明", "什么", "好", "？", "?", "。", "！", "!",
}  # fmt: skip


def _zh_argument(t: TaggedToken) -> bool:
    return t.tag in _ZH_NOUN or t.text in _ZH_PRONOUN


def _zh_animate(res, t: TaggedToken) -> bool:
    """Whether the word can act: a pronoun, a person's name, or a person or animal in Cilin (A, Bi)."""
    if t.text in _ZH_PRONOUN or t.tag in ("nr", "nrfg", "nrt"):
        return True
    return any(c.startswith(("A", "Bi")) for c in res.cilin_codes.get(t.text, ()))


def _zh_body_part(res, word: str) -> bool:
    """Whether Cilin files ``word`` under body parts (Bk): 左腿, 手, 头."""
    return any(c.startswith("Bk") for c in res.cilin_codes.get(word, ()))


@register
class ChangeVoice(Operation):
    """An active question made passive.

    English: an object wh-question with do-support ("What did the Romans build in Britain?" -> "What was
    built by the Romans in Britain?", "Who did Obama defeat in 2008?" -> "Who was defeated by Obama in
    2008?"): "did" -> was / were, "does" / "do" -> is / are by the wh-phrase's number, the verb to its past
    participle (LemmInflect), a particle kept ("give up" -> "given up"), a subject pronoun in the object
    case ("by him"); and a subject wh-question "Who <past verb> <object>?" -> "By whom was <object>
    <participle>?". Only the simple pattern: a short subject, after the verb nothing but prepositional
    phrases (no object, no second clause, no stranded preposition), a wh-phrase that can be the object
    (not "What year"), and a verb whose passive is said (not do, have, take, say, want, play ...).

    Chinese: "N1 V [了] N2" with V an action verb of a fixed list (咬, 抓, 骗, 追 ...), N1 a person or an
    animal (Cilin A / Bi, a pronoun, a name) and N2 a noun or pronoun becomes "N2被N1V" (狗咬人怎么办 ->
    人被狗咬怎么办, 梦见蛇咬我 -> 梦见我被蛇咬) when nothing but a comment on the event follows (怎么办, 是什么
    意思); DuQM's own form, after dreaming or fearing, whose subject is the patient: 梦见N V [body part] ->
    梦见被N V [body part] (梦见狗咬左腿 -> 梦见被狗咬左腿, 怕蚊子叮 -> 怕被蚊子叮); and the other way, 被 taken
    out (我被群主踢了怎么办 -> 群主踢了我怎么办, 梦见被狗咬 -> 梦见狗咬) unless the agent is anyone (被人欺负).
    The agent stays the agent, so the question is the same (label 1)."""

    name = "change_voice"
    subcategory = "voice"
    label = SAME

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        if len(q.tokens) < 3:
            return Skip("too short")
        if self.lang == "zh":
            return self.pick(q, rng, *self._zh(q), "no agent-action-patient clause")
        first = q.tokens[0].text.lower()
        if first in ("who", "whom") and q.tokens[1].text.lower() not in _DO:
            return self._en_subject(q)
        return self._en_object(q)

    def _en_object(self, q: Parsed) -> Perturbation | Skip:
        toks = q.tokens
        wh = _wh_phrase(toks)
        if wh is None:
            return Skip("no object wh-question with do-support")
        if wh.adjunct:
            return Skip("a wh-phrase that is no object")  # "What year did the Panthers form?"
        aux = toks[wh.end]
        subject = _subject(toks, wh.end + 1)
        if subject is None:
            return Skip("no short subject after the auxiliary")
        v = subject.end
        if v >= len(toks) or not _base_verb(toks[v].text) or toks[v].tag in ("IN", "DT", "RB"):
            return Skip("no short subject after the auxiliary")
        if not toks[v].tag.startswith("VB") and not toks[
            subject.start + (toks[subject.start].tag == "DT")
        ].tag.startswith("NNP"):
            # "did the sign language/NN": after a common noun a noun is a compound's; after a name
            # ("did the Panthers beat/NN") it is the tagger's slip for the verb
            return Skip("no short subject after the auxiliary")
        lemma = _lemma(toks[v].text)
        end = v + 1 + (v + 1 < len(toks) and toks[v + 1].tag == "RP")  # "give up": the particle stays
        if lemma in (_REFUSED_VERBS if end == v + 1 else _REFUSED_PHRASAL):
            return Skip("a verb whose passive is not said")
        if not _rest_ok(toks, end):
            return Skip("more than prepositional phrases after the verb")
        participle = _participle(lemma)
        if participle is None:
            return Skip("no past participle")
        first = toks[subject.start]
        agent = q.text[first.start : toks[subject.end - 1].end]
        if first.text.lower() in _OBJECT_CASE:
            agent = _OBJECT_CASE[first.text.lower()]
        be = _BE[(_DO[aux.text.lower()], wh.plural)]
        particle = f" {toks[end - 1].text}" if end == v + 2 else ""
        old = q.text[aux.start : toks[end - 1].end]
        return self.make(q, [Change(aux.start, old, f"{be} {participle}{particle} by {agent}")])

    def _en_subject(self, q: Parsed) -> Perturbation | Skip:
        toks = q.tokens
        verb = toks[1]
        if verb.tag not in ("VBD", "VBZ") or verb.text.lower() in ("is", "was", "has", "does", "did"):
            return Skip("no object wh-question with do-support")
        lemma = _lemma(verb.text)
        if lemma in _REFUSED_VERBS or lemma in _NO_BY_WHOM:
            return Skip("a verb whose passive is not said")
        obj = _subject(toks, 2)
        if obj is None or toks[obj.start].text.lower() in _OBJECT_CASE:
            return Skip("no simple object after the verb")
        # nothing after the object: a phrase after it may belong to it ("the construction of the new
        # center") or to the verb ("designed the garden for the library"), and "By whom was" moves it
        if obj.end + 1 != len(toks) or toks[-1].text != "?":
            return Skip("more than an object after the verb")
        participle = _participle(lemma)
        if participle is None:
            return Skip("no past participle")
        tense = "past" if verb.tag == "VBD" else "present"
        be = _BE[(tense, obj.plural)]
        start, end = toks[0].start, toks[obj.end - 1].end
        thing = q.text[toks[obj.start].start : end]
        return self.make(q, [Change(start, q.text[start:end], f"By whom {be} {thing} {participle}")])

    def _zh(self, q: Parsed) -> tuple[list[list[Change]], list[str]]:
        toks = q.tokens
        found, reasons = [], []
        for v in range(1, len(toks)):
            if toks[v].text not in _ZH_ACTIONS or not toks[v].tag.startswith(("v", "zg")):
                continue  # (叮/zg: jieba's tag for the verb alone)
            agent = toks[v - 1]
            if not _zh_argument(agent):
                continue
            le = v + 1 < len(toks) and toks[v + 1].text == "了"
            p = v + 1 + le  # the patient, if any
            tail_ok = p + 1 >= len(toks) or toks[p + 1].text in _ZH_TAIL
            before = toks[v - 2] if v >= 2 else None
            if before is not None and before.text == "被":  # 被 marks the agent: no need to know it can act
                found += self._zh_active(q, v, le, reasons)
                continue
            if not _zh_animate(self.res, agent):
                reasons.append("an agent that may not act")  # 三国杀: a game, not a killer
                continue
            if before is not None and (
                before.tag in _ZH_MODIFIER or before.text in _ZH_WH | {"让", "把", "给"}
            ):
                reasons.append("a modifier before the agent")  # 什么狗抓兔子: 什么 would stay behind
                continue
            dream = before is not None and before.text in _ZH_DREAM
            if (
                p >= len(toks)
                or toks[p].text in _ZH_TAIL
                or (dream and _zh_body_part(self.res, toks[p].text))
            ):
                if dream and (p >= len(toks) or toks[p].text in _ZH_TAIL or tail_ok):
                    # 梦见狗咬(左腿) -> 梦见被狗咬(左腿): the dreamer is bitten either way
                    found.append([Change(agent.start, "", "被")])
                continue
            patient = toks[p]
            if not (_zh_argument(patient) and patient.text != agent.text):
                continue
            if not tail_ok:
                reasons.append("the clause goes on after the patient")  # 女生追男生，该怎么追
                continue
            # N1 V [了] N2 -> N2 被 N1 V [了]
            new = f"{patient.text}被{agent.text}{toks[v].text}{'了' if le else ''}"
            found.append([Change(agent.start, q.text[agent.start : patient.end], new)])
        return found, reasons

    def _zh_active(self, q: Parsed, v: int, le: bool, reasons: list[str]) -> list[list[Change]]:
        """被 taken out: "N2 被 N1 V [了]" -> "N1 V [了] N2" (我被群主踢了怎么办 -> 群主踢了我怎么办), and
        梦见被狗咬 -> 梦见狗咬."""
        toks = q.tokens
        bei, agent = toks[v - 2], toks[v - 1]
        end = v + le  # the last token of the clause
        if agent.text in _ZH_GENERIC:
            reasons.append("a generic agent")  # 被人欺负 -> 人欺负: needs 有人, not a swap
            return []
        if v < 3 or end + 1 < len(toks) and toks[end + 1].text not in _ZH_TAIL:
            reasons.append("the clause goes on after the patient")
            return []
        if agent.text in self.res.cilin_codes and not _zh_animate(self.res, agent):
            # 梦见自己被枪打死 -> 梦见枪打死自己: an instrument or object (枪, 车, 刀) as the subject of the active
            # reads as another event (blind reading a); only a person or an animal acts either way. A word
            # Cilin does not file (群主) is let through: after 被 it is an agent, mostly a role of a person.
            reasons.append("an agent that may not act")
            return []
        patient = toks[v - 3]
        if patient.text in _ZH_DREAM:
            return [[Change(bei.start, "被", "")]]
        if v >= 4 and toks[v - 4].tag.startswith("v") and toks[v - 4].text not in _ZH_DREAM:
            # 梦到捉鱼被鱼咬 -> 梦到捉鱼咬鱼: a verb before the patient takes it along (捉鱼), the swap garbles it
            # (blind reading a); only the dream and fear verbs may stand there
            reasons.append("a verb before the patient")
            return []
        if (
            not _zh_argument(patient)
            or v >= 4
            and (toks[v - 4].tag in _ZH_MODIFIER or toks[v - 4].text in _ZH_WH)
        ):
            reasons.append("a modifier before the agent")
            return []
        old = q.text[patient.start : toks[end].end]
        return [[Change(patient.start, old, f"{agent.text}{toks[v].text}{'了' if le else ''}{patient.text}")]]
