"""Discourse particles (DuQM's pragmatic "discourse particle (simple)", label Y): a word that carries the
speaker's attitude, not the question's content, inserted or replaced ("人为什么做梦" -> "那么人为什么做梦",
"why do people dream?" -> "so why do people dream?"). DuQM's complex discourse particles came from an FAQ
log and people's labels; they are not generated here."""

from __future__ import annotations

import random

from paraguide.perturb.base import SAME, Change, Operation, Parsed, Perturbation, Skip, register

# Openers that leave the question as it is (a question still follows).
EN_OPENERS = ("So", "Well,", "Anyway,")
ZH_OPENERS = ("请问", "那么", "那")
# What is put in: 那 with a comma, since 那 before a noun reads as "that" (人是怎样形成的 -> 那人是怎样形成的:
# "how was that person formed", reading d)
ZH_INSERTED_OPENERS = ("请问", "那么", "那，")
ZH_FINAL = "吗呢吧啊呀嘛么"  # sentence-final particles: one already there is replaced, not doubled
# A final particle after a question word: 呢 (what ... then?), 啊 / 呀 (softening).
ZH_WH = ("什么", "怎么", "为什么", "为何", "哪", "谁", "多少", "几", "啥", "如何", "怎样", "多久")
ZH_SWAPS = {"啊": "呀", "呀": "啊", "呢": "啊", "吧": "呢"}
_PUNCT = "?？!！.。"


def _body_end(text: str) -> int:
    """Where the question's words end (before closing punctuation and spaces)."""
    end = len(text)
    while end and (text[end - 1] in _PUNCT or text[end - 1].isspace()):
        end -= 1
    return end


@register
class InsertParticle(Operation):
    """A discourse particle added: an opener ("so", "那么", "请问") or, in Chinese, a final 呢 / 啊 after a
    question word."""

    name = "insert_particle"
    subcategory = "discourse_particle"
    label = SAME

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        if not q.tokens:
            return Skip("empty question")
        if self.lang == "en":
            first = q.tokens[0]
            if first.text.lower() in {"so", "well", "anyway", "then", "and", "but"}:
                return Skip("already opens with a particle")
            keep = first.tag.startswith("NNP") or first.text == "I" or first.text[1:2].isupper()
            word = first.text if keep else first.text[:1].lower() + first.text[1:]
            opener = rng.choice(EN_OPENERS)
            return self.make(q, [Change(first.start, first.text, f"{opener} {word}")])
        text = q.text
        candidates = []
        if not text.startswith(ZH_OPENERS):
            candidates += [Change(0, "", o) for o in ZH_INSERTED_OPENERS]
        end = _body_end(text)
        if end and text[end - 1] not in ZH_FINAL and any(w in text for w in ZH_WH):
            candidates += [Change(end, "", "呢"), Change(end, "", "啊")]
        if not candidates:
            return Skip("already has an opener and a final particle")
        return self.make(q, [rng.choice(candidates)])


@register
class ReplaceParticle(Operation):
    """A Chinese final particle replaced by one of the same force (啊 <-> 呀, 呢 -> 啊, 吧 -> 呢); 吗, which
    makes a yes/no question, is never touched."""

    name = "replace_particle"
    subcategory = "discourse_particle"
    label = SAME
    langs = ("zh",)
    not_applicable = {
        "en": "English questions have no sentence-final particles to replace; insert_particle covers the "
        "subcategory"
    }

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        end = _body_end(q.text)
        last = q.text[end - 1 : end]
        if last not in ZH_SWAPS:
            return Skip("no final particle to replace")
        return self.make(q, [Change(end - 1, last, ZH_SWAPS[last])])
