"""A perturbation suite: the operations chosen by name, subcategory, category or preset, run over a batch
of questions parsed once. ``Perturber("en").perturb(questions)`` gives every (question, operation) outcome:
a pair, or the reason the operation did not apply, which the job counts."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from paraguide.arguments import texts
from paraguide.perturb.base import (
    CATEGORIES,
    OPERATIONS,
    SUBCATEGORIES,
    Operation,
    Perturbation,
    Skip,
    parse,
)
from paraguide.perturb.resources import Resources
from paraguide.text.entities import EntityFinder
from paraguide.text.language import NO_WORD, has_word, not_in_language

# The modules whose operations register themselves, in DuQM's table order.
MODULES = (
    "words",
    "entities",
    "synonym",
    "antonym",
    "negation",
    "temporal",
    "coordination",
    "voice",
    "misspelling",
    "particles",
)
for _module in MODULES:
    importlib.import_module(f"paraguide.perturb.{_module}")

PRESETS = {"duqm": "every operation of DuQM's table that applies to the language"}


def table_order(name: str) -> tuple[int, int]:
    """An operation's place in DuQM's table: by subcategory, then as registered."""
    return list(SUBCATEGORIES).index(OPERATIONS[name].subcategory), list(OPERATIONS).index(name)


@dataclass(frozen=True)
class Outcome:
    """What one operation did to question ``index`` of the batch: a pair, or why none."""

    index: int
    operation: str
    result: Perturbation | Skip


def select(names: Sequence[str] | None, lang: str) -> tuple[list[str], dict[str, str]]:
    """The operations named by ``names`` (operation names, subcategories, categories or "duqm"; None: all)
    that apply to ``lang``, in table order, and those left out with the reason. An operation named
    explicitly that does not apply to the language is a ValueError saying why; an unknown name one listing
    what exists."""
    names = list(names) if names else ["duqm"]
    chosen: list[str] = []
    for name in names:
        if name in OPERATIONS:
            cls = OPERATIONS[name]
            if lang not in cls.langs:
                raise ValueError(
                    f"operation {name!r} does not apply to {lang}: {cls.not_applicable.get(lang)}"
                )
            matched = [name]
        elif name in SUBCATEGORIES:
            matched = [n for n, c in OPERATIONS.items() if c.subcategory == name]
        elif name in CATEGORIES:
            matched = [n for n, c in OPERATIONS.items() if SUBCATEGORIES[c.subcategory] == name]
        elif name in PRESETS:
            matched = list(OPERATIONS)
        else:
            raise ValueError(
                f"unknown perturbation {name!r}: give an operation ({', '.join(OPERATIONS)}), a subcategory "
                f"({', '.join(SUBCATEGORIES)}), a category ({', '.join(CATEGORIES)}) or a preset "
                f"({', '.join(PRESETS)})"
            )
        chosen += [n for n in matched if n not in chosen]
    chosen.sort(key=table_order)
    left_out = {
        n: OPERATIONS[n].not_applicable.get(lang, "") for n in chosen if lang not in OPERATIONS[n].langs
    }
    return [n for n in chosen if n not in left_out], left_out


class Perturber:
    """The suite: ``Perturber(lang, ops=None, seed=13).perturb(questions)``.

    ``ops``: operation names, subcategories, categories or "duqm" (default: every operation that applies to
    ``lang``; :attr:`left_out` lists the others with the reason); ``seed``: the choice among an operation's
    candidates (per question: the same pair whatever else is in the batch); ``ner``: a local spaCy pipeline
    for entities; ``paths``: lexicon paths overriding the shared data's (:class:`Resources`)."""

    def __init__(
        self,
        lang: str,
        ops: Sequence[str] | None = None,
        seed: int = 13,
        ner: str | None = None,
        paths: dict[str, str] | None = None,
    ):
        if isinstance(ops, str):
            raise TypeError(
                f"ops: expected a list of names, got one string {ops!r} (give [{ops!r}], or split a "
                "comma-separated list)"
            )
        self.lang, self.seed, self.ner = lang, seed, ner
        self.names, self.left_out = select(ops, lang)
        self.resources = Resources(lang, paths)
        self.operations: list[Operation] = [OPERATIONS[n](lang, self.resources, seed) for n in self.names]
        self.finder = EntityFinder(lang, ner=ner)  # one for every batch: a spaCy pipeline loads once

    def perturb(self, questions: Sequence[str]) -> list[Outcome]:
        """Every operation on every question, question by question in input order, operations in table
        order. A question without a word (emoji, symbols or punctuation alone) or not in the language (a
        question of the other language in a mixed file) gets no pair: each operation skips it, saying why."""
        questions = texts(questions, "questions")
        unusable = [None if has_word(q) else NO_WORD for q in questions]
        unusable = [why or not_in_language(q, self.lang) for q, why in zip(questions, unusable, strict=True)]
        usable = [i for i, why in enumerate(unusable) if why is None]
        parsed = parse([questions[i] for i in usable], self.lang, self.ner, self.finder)
        by_op = [op.perturb(parsed) for op in self.operations]
        results = {i: [per_op[k] for per_op in by_op] for k, i in enumerate(usable)}
        return [
            Outcome(i, op.name, Skip(unusable[i]) if unusable[i] else results[i][j])
            for i in range(len(questions))
            for j, op in enumerate(self.operations)
        ]
