"""Question words swapped for their equivalents. Chinese: "手机号**怎么**注销" -> "手机号**如何**注销", "开花后**多久**
结果" -> "开花后**多长时间**结果"; English: "**What** year did ..." -> "**Which** year did ...".

A hand-written table, because the lexicons get question words wrong: Cilin puts 什么 (what), 怎么 (how) and
为什么 (why) in one group, and paraphrase corpora swap them whenever two questions happen to be answered
alike. Only swaps that keep the question are listed, and the manner words only where they mean "how to":
before a verb, not before a negation or a modal ("怎么不能登录" asks why) nor a negated result ("怎么打不开"),
and never in the set phrases jieba keeps whole (怎么办, 怎么回事, 怎么样).

English has one pair, "what" / "which" used as a determiner -- before a noun, or an adjective and a noun
("What year", "Which other team", "Which two religions", "In what country") -- where the two ask the same. Not before a noun of
quantity or measure ("what percentage", "what time", "to what extent": "which" would pick one of a set),
not where the tagger's "noun" is a verb ("What causes the ...", seen by the determiner after it), and only
where the question word opens the question or a prepositional phrase at its start ("In what year"), never
a relative "which" inside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from paraguide.arguments import texts
from paraguide.suggest.base import Suggestion
from paraguide.text.tokenize import tokenize_spans

# Each group's words ask the same thing; a word's suggestions are the others of its group, in this order.
GROUPS = (
    ("怎么", "如何", "怎样"),  # how (manner), before a verb
    ("为什么", "为何", "为啥"),  # why
    ("哪里", "哪儿"),  # where
    ("多久", "多长时间"),  # how long
    ("几个", "多少个"),  # how many
    ("哪个", "哪一个"),  # which
    ("什么", "啥"),  # what (啥 is colloquial; LCQMC's paraphrase pairs swap the two 263 times)
)
EN_GROUPS = (("what", "which"),)
# "which" before these picks one of a set where "what" asks for an amount: not swapped.
_MEASURE = frozenset(
    "percentage percent proportion amount number fraction share ratio rate time age speed height depth size "  # noqa: SIM905
    "length width weight price cost value temperature distance volume degree quantity extent level sum "
    "population frequency".split()
)
_NOUN = ("NN", "NNS", "NNP", "NNPS")
_MANNER = set(GROUPS[0])
# What may not follow a manner word for it to mean "how to": negations and modals make it "why" or "how
# come" (怎么不能, 怎么会).
_NOT_AFTER_MANNER = ("不", "没", "别", "会", "能", "可能", "可以", "敢")


class Interrogatives:
    """Suggestions that swap a question word for an equivalent one, Chinese or English (see module
    docstring). ``groups``: groups of interchangeable words (default: the language's table); ``lang``: "zh"
    or "en"."""

    name = "interrogative"
    files: tuple = ()  # its tables are part of paraguide

    def __init__(self, groups: Sequence[Sequence[str]] | None = None, lang: str = "zh"):
        if lang not in ("zh", "en"):
            raise ValueError(f"interrogative: no question-word table for {lang!r} (en, zh)")
        self.lang = lang
        groups = groups if groups is not None else (GROUPS if lang == "zh" else EN_GROUPS)
        self.others = {w: [o for o in group if o != w] for group in groups for w in group}

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        """Ranked suggestions for each of ``questions``, best first (at most ``top_k``)."""
        questions = texts(questions, "questions")
        from paraguide.text.pos import pos_tag

        asks_the_same = _zh_asks_the_same if self.lang == "zh" else _en_determiner
        results = []
        for question in questions:
            tokens = tokenize_spans(question, self.lang)
            index = {(t.start, t.end): i for i, t in enumerate(tokens)}
            tagged = pos_tag(question, self.lang)
            found = []
            for k, t in enumerate(tagged):
                word = t.text.lower()
                if word not in self.others or (t.start, t.end) not in index:
                    continue  # not a question word, or segmented otherwise than the question's tokens
                if not asks_the_same(tagged, k):
                    continue
                i = index[t.start, t.end]
                for rank, other in enumerate(self.others[word], 1):
                    found.append(Suggestion(other, t.text, (i, i + 1), round(1 / rank, 4), self.name))
            results.append(found[:top_k] if top_k else found)
        return results


def _zh_asks_the_same(tagged, k: int) -> bool:
    """A manner word (怎么 ...) only where it means "how to": before a verb, not before a negation or a
    modal, not before a negated result ("怎么打不开", "怎么安装不起" ask why it fails). 什么 where it stands
    for a blank to fill ("一什么花", "什么的鸟叫声", "什么讹什么讹": readers found 啥 odd there, readings
    2026-11-27u/v). The others always."""
    if tagged[k].text == "什么":
        before = tagged[k - 1].text if k else ""
        after = tagged[k + 1].text if k + 1 < len(tagged) else ""
        blank = before.endswith("一") or (k == 0 and after == "的")
        return not blank and sum(t.text == "什么" for t in tagged) < 2
    if tagged[k].text not in _MANNER:
        return True
    after = tagged[k + 1] if k + 1 < len(tagged) else None
    if after is None or not after.tag.startswith("v") or after.text.startswith(_NOT_AFTER_MANNER):
        return False
    following = "".join(x.text for x in tagged[k + 1 : k + 3])
    return "不" not in following and "没" not in following


def _en_determiner(tagged, k: int) -> bool:
    """ "what" / "which" as a determiner: the question's first word or after the prepositions that open it
    ("In what year"), before adjectives and a noun that is no measure, and not a verb the tagger took for a
    noun ("What causes the ...": a determiner follows it)."""
    if any(x.tag not in ("IN", "TO") for x in tagged[:k]):
        return False
    rest = tagged[k + 1 :]
    j = 0
    while j < len(rest) and rest[j].tag in ("JJ", "CD"):  # "which other team", "what two religions"
        j += 1
    if j >= len(rest) or rest[j].text.lower() in _MEASURE:
        return False
    if rest[j].tag not in _NOUN and not _plural_noun_before_auxiliary(rest, j):
        return False
    return not (j + 1 < len(rest) and rest[j + 1].tag in ("DT", "PDT", "PRP", "PRP$"))


# Auxiliaries that open the clause after a fronted object: "What animals did Tesla care for?"
_AUX = frozenset(
    ["do", "does", "did", "is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would"]
)


def _plural_noun_before_auxiliary(rest, j: int) -> bool:
    """The tagger's slip after "what": a plural noun tagged as a verb ("What animals/VBZ did ..."). A verb
    there cannot be followed by an auxiliary; and the word must be a plural noun (LemmInflect's
    dictionary), not a verb ("What happens is ...")."""
    if rest[j].tag != "VBZ" or j + 1 >= len(rest) or rest[j + 1].text.lower() not in _AUX:
        return False
    from lemminflect import getAllLemmas

    return "NOUN" in getAllLemmas(rest[j].text.lower())
