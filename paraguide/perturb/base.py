"""What every perturbation operation takes and returns, and the one interface they share (batch-first).

A question is parsed once (:class:`Parsed`: POS-tagged tokens with character spans, typed entities) and
every operation reads the parsed batch. An operation returns, per question, either one
:class:`Perturbation` (the original, the perturbed question, its label, DuQM's category, subcategory and
operation, and the changed words) or a :class:`Skip` with the reason it does not apply, which the suite
counts as build-testset counts its drop reasons.

Labels follow LCQMC and DuQM: 1 = the two questions ask the same thing (DuQM's "Y"), 0 = they do not ("N").
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import ClassVar

from paraguide.text.entities import Entity
from paraguide.text.pos import TaggedToken

CATEGORIES = ("lexical", "syntactic", "pragmatic")
# DuQM's subcategories (Table 1), in its order, under their category. Complex discourse particles are not
# generated: DuQM took them from an FAQ log and had people label them (docs/perturb.md).
SUBCATEGORIES = {
    "part_of_speech": "lexical",
    "named_entity": "lexical",
    "synonym": "lexical",
    "antonym": "lexical",
    "negation": "lexical",
    "temporal": "lexical",
    "symmetry": "syntactic",
    "asymmetry": "syntactic",
    "negative_asymmetry": "syntactic",
    "voice": "syntactic",
    "misspelling": "pragmatic",
    "discourse_particle": "pragmatic",
}
SAME, DIFFERENT = 1, 0  # the labels: DuQM's Y and N
# jieba's noun flags (names included) and the personal pronouns that stand where a noun does.
# English Penn tags and words several operations read.
EN_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
EN_SUBJECT_TAGS = EN_NOUN_TAGS | {"PRP"}  # what ends a simple subject
EN_BE = frozenset({"is", "are", "was", "were"})
EN_DO = frozenset({"do", "does", "did"})
NEGATIVE_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")  # of an adjective's negated form
ZH_NOUN_FLAGS = frozenset({"n", "nr", "ns", "nt", "nz", "nrt", "nrfg", "nw"})
# Flags of words that modify the word after them (a noun, an adjective, a number ...): a phrase that starts
# after one of them is part of a longer one.
ZH_MODIFIER_FLAGS = ZH_NOUN_FLAGS | {"a", "m", "q", "mq", "b", "vn", "ng", "j", "eng", "an", "f", "s"}
ZH_PERSONAL_PRONOUNS = frozenset(
    {"我", "你", "您", "他", "她", "它", "我们", "你们", "他们", "她们", "它们", "自己", "别人", "人家"}
)


@dataclass(frozen=True)
class Change:
    """One edit of the original: ``old`` (empty for an insertion) at character ``start`` becomes ``new``
    (empty for a deletion)."""

    start: int
    old: str
    new: str


@dataclass(frozen=True)
class Perturbation:
    """A generated pair: ``original`` and ``perturbed``, ``label`` (1 same question, 0 not), where it sits
    in DuQM's table (``category``, ``subcategory``, ``operation``) and the ``changes`` that made it."""

    original: str
    perturbed: str
    label: int
    category: str
    subcategory: str
    operation: str
    changes: tuple[Change, ...]

    def as_dict(self) -> dict:
        """The pair's fields as a plain dict (for JSON)."""
        return asdict(self)


@dataclass(frozen=True)
class Skip:
    """Why an operation did not apply to a question (counted per operation and reason)."""

    reason: str


@dataclass
class Parsed:
    """A question parsed once for every operation: ``tokens`` with POS tags (Penn tags for English, with
    do-support fixed; jieba's ICTCLAS flags for Chinese) and character spans, and typed ``entities``."""

    text: str
    lang: str
    tokens: list[TaggedToken]
    entities: list[Entity] = field(default_factory=list)


def parse(
    questions: Sequence[str], lang: str, ner: str | None = None, finder=None, entities: bool = True
) -> list[Parsed]:
    """Tag and find the entities of every question once (``ner``: a local spaCy pipeline's name for the
    entities; default: paraguide's rules; ``finder``: an :class:`EntityFinder` already built, which a caller
    that parses batch after batch passes so that a spaCy pipeline loads once; ``entities=False``: tags
    only, for an operation that reads no entities)."""
    from paraguide.text.entities import EntityFinder
    from paraguide.text.pos import pos_tag
    from paraguide.text.substitute import fix_do_support

    if entities:
        finder = finder or EntityFinder(lang, ner=ner)
    out = []
    for text in questions:
        tokens = pos_tag(text, lang)
        if lang == "en":  # "does" tagged as a main verb in "how does it work": the tagger's commonest slip
            tags = fix_do_support([t.text for t in tokens], [t.tag for t in tokens])
            tokens = [t._replace(tag=tag) for t, tag in zip(tokens, tags, strict=True)]
        out.append(Parsed(text, lang, tokens, finder.entities(text) if entities else []))
    return out


def cased(new: str, old: str) -> str:
    """``new`` with ``old``'s capital (the question's first word, a proper adjective)."""
    return new[:1].upper() + new[1:] if old[:1].isupper() else new


def edit(text: str, changes: Sequence[Change]) -> str:
    """``text`` with ``changes`` applied (non-overlapping, any order). English insertions and deletions keep
    one space between words: an inserted word gets a space on the side that needs one."""
    out, pos = [], 0
    for c in sorted(changes, key=lambda c: c.start):
        if c.start < pos or text[c.start : c.start + len(c.old)] != c.old:
            raise ValueError(f"change {c} does not match {text!r}")
        out.append(text[pos : c.start])
        out.append(c.new)
        pos = c.start + len(c.old)
    out.append(text[pos:])
    return "".join(out)


def rng_for(seed: int, operation: str, text: str) -> random.Random:
    """A random generator for one operation on one question: the same choice whatever else is in the batch
    and in whichever order (a resumed or sharded run makes the same pairs)."""
    return random.Random(zlib.crc32(f"{seed}\x00{operation}\x00{text}".encode()))


OPERATIONS: dict[str, type[Operation]] = {}  # name -> class, in registration order (DuQM's table order)


def register(cls: type[Operation]) -> type[Operation]:
    """Class decorator: makes an operation known to the suite by its ``name``."""
    if cls.name in OPERATIONS:
        raise ValueError(f"two perturbation operations named {cls.name!r}")
    if cls.subcategory not in SUBCATEGORIES:
        raise ValueError(f"{cls.name}: unknown subcategory {cls.subcategory!r}")
    OPERATIONS[cls.name] = cls
    return cls


class Operation:
    """A perturbation operation: one row of DuQM's table.

    Subclasses set ``name`` (unique, e.g. "replace_noun"), ``subcategory`` (a key of :data:`SUBCATEGORIES`),
    ``label``, ``langs`` (the languages it applies to; ``not_applicable`` says why not elsewhere), implement
    :meth:`perturb_one`, and are decorated with :func:`register`; :meth:`perturb` is the batch interface
    the suite calls."""

    name: ClassVar[str]
    subcategory: ClassVar[str]
    label: ClassVar[int]
    langs: ClassVar[tuple[str, ...]] = ("en", "zh")
    # lang -> why the operation does not apply there (English has no classifiers ...): listed, not an error
    not_applicable: ClassVar[dict[str, str]] = {}

    def __init__(self, lang: str, resources=None, seed: int = 13):
        self.lang, self.seed = lang, seed
        if resources is None:
            from paraguide.perturb.resources import Resources

            resources = Resources(lang)
        self.res = resources

    @property
    def category(self) -> str:
        return SUBCATEGORIES[self.subcategory]

    def perturb(self, batch: Sequence[Parsed]) -> list[Perturbation | Skip]:
        """One result per question of ``batch``: a pair, or why there is none."""
        return [self.perturb_one(q, rng_for(self.seed, self.name, q.text)) for q in batch]

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        raise NotImplementedError

    def make(self, q: Parsed, changes: Sequence[Change]) -> Perturbation | Skip:
        """The pair from ``changes`` to ``q`` (a Skip when they change nothing)."""
        perturbed = edit(q.text, changes)
        if perturbed == q.text:
            return Skip("no change")
        return Perturbation(
            q.text, perturbed, self.label, self.category, self.subcategory, self.name, tuple(changes)
        )

    def pick(
        self, q: Parsed, rng: random.Random, candidates: list, reasons: list[str], default: str
    ) -> Perturbation | Skip:
        """One of the ``candidates`` (each a list of changes), chosen by ``rng``, made into the pair; with
        none, a Skip with the first reason a candidate was refused for, else ``default``."""
        if candidates:
            return self.make(q, rng.choice(candidates))
        return Skip(reasons[0] if reasons else default)


def replace(token: TaggedToken, new: str) -> Change:
    """A change that puts ``new`` in place of ``token``."""
    return Change(token.start, token.text, new)


def insert_before(q: Parsed, index: int, words: str) -> Change:
    """A change inserting ``words`` before token ``index`` (``len(tokens)``: at the end). English keeps one
    space between words: "burp" -> "always burp", "rain?" -> "rain tomorrow?"."""
    at = q.tokens[index].start if index < len(q.tokens) else len(q.text)
    if q.lang != "en":
        return Change(at, "", words)
    if at == 0 or q.text[at - 1].isspace():
        return Change(at, "", words + " ")
    return Change(at, "", " " + words)
