"""Reorderings of a question that keep every content word and what it asks: the rewrites people make when
they say the same question in another order (Gan & Ng's human paraphrases move whole phrases: "... would be
an example of what?" -> "what would be an example of ..."), and a few fixed rephrasings people use as often
(a question word said as a phrase, a verb said by its doer's noun).

The rules of each language live in :mod:`paraguide.text.reorder_en` (NLTK's POS tags) and
:mod:`paraguide.text.reorder_zh` (jieba's words), each with its examples and the rules readers turned down.

Each rule refuses what it cannot read safely (a second clause, a comma it does not own, a verb it cannot
inflect): fewer rewrites, each one a question a person would ask. Batch-first: :func:`reorder` takes a list.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from paraguide.text import reorder_en, reorder_zh
from paraguide.text.pos import has_tagger, pos_tag

__all__ = ["Reordering", "RULES", "embedded_question", "reorder"]


@dataclass(frozen=True)
class Reordering:
    """A reordered question and the rule that wrote it."""

    text: str
    rule: str


def reorder(questions: Sequence[str], lang: str, skip: Collection[str] = ()) -> list[list[Reordering]]:
    """Every reordering each rule of ``lang`` makes of each question (none where no rule applies; none for
    English where NLTK's tagger is not installed: the rules read POS tags); the rules named in ``skip``
    are not run."""
    if lang == "en" and not has_tagger("en"):
        return [[] for _ in questions]
    rules = [(name, rule) for name, rule in (reorder_en.RULES if lang == "en" else reorder_zh.RULES)
             if name not in skip]  # fmt: skip
    out = []
    for question in questions:
        toks = pos_tag(question, lang)
        found, seen = [], {question}
        for name, rule in rules:
            text = rule(question, toks) if toks else None
            if text and text not in seen:
                seen.add(text)
                found.append(Reordering(text, name))
        out.append(found)
    return out


RULES = {"en": tuple(name for name, _ in reorder_en.RULES), "zh": tuple(name for name, _ in reorder_zh.RULES)}


def embedded_question(text: str, lang: str) -> str | None:
    """The question an indirect question asks, where ``text`` opens with a frame the ``indirect`` rule
    writes: "Can you tell me when the Warsaw Uprising began?" -> "when the Warsaw Uprising began?",
    你知道这是什么意思吗 -> 这是什么意思; else None. The frame adds a person, a modal and a yes/no of its own,
    and asks nothing else: the checks of meaning compare what it embeds (score.filters)."""
    if lang == "en":
        for frame in reorder_en._INDIRECT_FRAMES:
            if text[: len(frame) + 1].lower() == frame.lower() + " ":
                return text[len(frame) + 1 :]
        return None
    body = text.rstrip("？?")
    for before, after, _ in reorder_zh._INDIRECT_FRAMES:
        if body.startswith(before) and body.endswith(after) and len(body) > len(before) + len(after):
            return body[len(before) : len(body) - len(after)]
    return None
