"""Chinese question words swapped for their equivalents: "手机号**怎么**注销" -> "手机号**如何**注销", "开花后**多久**
结果" -> "开花后**多长时间**结果".

A hand-written table, because the lexicons get question words wrong: Cilin puts 什么 (what), 怎么 (how) and
为什么 (why) in one group, and paraphrase corpora swap them whenever two questions happen to be answered
alike. Only swaps that keep the question are listed, and the manner words only where they mean "how to":
before a verb, not before a negation or a modal ("怎么不能登录" asks why) nor a negated result ("怎么打不开"),
and never in the set phrases jieba keeps whole (怎么办, 怎么回事, 怎么样).
"""

from __future__ import annotations

from collections.abc import Sequence

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
_MANNER = set(GROUPS[0])
# What may not follow a manner word for it to mean "how to": negations and modals make it "why" or "how
# come" (怎么不能, 怎么会).
_NOT_AFTER_MANNER = ("不", "没", "别", "会", "能", "可能", "可以", "敢")


class Interrogatives:
    """Suggestions that swap a Chinese question word for an equivalent one (see module docstring)."""

    name = "interrogative"

    def __init__(self, groups: Sequence[Sequence[str]] = GROUPS):
        self.others = {w: [o for o in group if o != w] for group in groups for w in group}

    def suggest(self, questions: Sequence[str], top_k: int | None = None) -> list[list[Suggestion]]:
        from paraguide.text.pos import pos_tag

        results = []
        for question in questions:
            tokens = tokenize_spans(question, "zh")
            index = {(t.start, t.end): i for i, t in enumerate(tokens)}
            tagged = pos_tag(question, "zh")
            found = []
            for k, t in enumerate(tagged):
                if t.text not in self.others or (t.start, t.end) not in index:
                    continue  # not a question word, or segmented otherwise than the question's tokens
                if t.text in _MANNER:
                    after = tagged[k + 1] if k + 1 < len(tagged) else None
                    if after is None or not after.tag.startswith("v"):
                        continue
                    if after.text.startswith(_NOT_AFTER_MANNER):
                        continue
                    # a negated result ("怎么打不开", "怎么安装不起") asks why it fails, not how to do it
                    following = "".join(x.text for x in tagged[k + 1 : k + 3])
                    if "不" in following or "没" in following:
                        continue
                i = index[t.start, t.end]
                for rank, other in enumerate(self.others[t.text], 1):
                    found.append(Suggestion(other, t.text, (i, i + 1), round(1 / rank, 4), self.name))
            results.append(found[:top_k] if top_k else found)
        return results
