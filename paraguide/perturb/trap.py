"""Over-stability traps for QA (DuReader-robust §2.2, Algorithm 1; Jia & Liang 2017's AddSent): a sentence
that shares the question's words and holds an entity of the answer's type is put into the passage, but it
talks about something else, so it does not answer the question; a model that matches words and answer
types falls into it. Also the selection variant (passages that already hold 2 to k entities of the answer's
type) and :func:`trap_hits`, how often predictions land on the trap's entity.

The job that reads and writes SQuAD files is :mod:`paraguide.pipeline.trap`.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from paraguide.perturb.base import Parsed, Skip, parse
from paraguide.suggest.context import ContextChunks
from paraguide.text.entities import NAME_TYPES, Entity, EntityFinder
from paraguide.text.pos import TaggedToken

POSITIONS = ("end", "before_answer")
NUMERIC_TYPES = ("date", "year", "time", "percent", "money", "quantity", "ordinal", "number")
TIME_TYPES = ("date", "year", "time")
AMOUNT_TYPES = ("number", "quantity", "money", "percent")


class _Slot:
    """Where the distractor goes in a statement's parts."""

    def __repr__(self) -> str:
        return "SLOT"


SLOT = _Slot()
TIME_PREP = "<time>"  # "in 1856", "on May 5", "at noon": chosen by the distractor


@dataclass(frozen=True)
class Frame:
    """A question turned into a statement with a slot for the distractor: ``parts`` in order, each a span
    ``(start, end)`` of the question copied as it is, a word put in, or :data:`SLOT`; ``prep`` goes before
    the distractor ("in", or :data:`TIME_PREP`), ``unit`` after it ("how many *touchdowns*"); ``types``:
    the answer types the question word allows; ``pattern``: the rule that built it."""

    parts: tuple
    pattern: str
    types: tuple[str, ...]
    prep: str = ""
    unit: str = ""
    noun: str = ""  # the head noun of the wh-phrase ("which *team*"), what kind of thing is asked for
    wh: str = ""  # the question word (English: who, what, how many ...)


@dataclass(frozen=True)
class Mutation:
    """What was changed in the question's own words so that the trap talks about something else: ``old``
    at character ``start`` of the question became ``new``; ``kind``: entity, number or antonym."""

    start: int
    old: str
    new: str
    kind: str


@dataclass(frozen=True)
class Trap:
    """A trap sentence for one question: the ``sentence``, its ``distractor`` entity and ``type``, where the
    distractor came from (``source``: passage or file), the question ``mutation`` and the ``pattern``."""

    sentence: str
    distractor: str
    type: str
    source: str
    mutation: Mutation
    pattern: str


@dataclass(frozen=True)
class Inserted:
    """A passage with its trap: the new ``context``, the trap's character ``offset`` in it, and the
    ``answers`` (and ``plausible_answers``) with their offsets shifted."""

    context: str
    offset: int
    answers: list[dict]
    plausible_answers: list[dict] | None = None


# English ------------------------------------------------------------------------------------------------

_WH = {"who", "whom", "what", "which", "when", "where", "how", "whose", "why"}
_DO = {"do", "does", "did"}
_BE = {"is", "are", "was", "were"}
_HAVE = {"has", "have", "had"}
_NOUNISH = {"NN", "NNS", "NNP", "NNPS", "JJ", "JJR", "JJS", "CD"}
_TEMPORAL_NOUNS = {"year", "years", "day", "date", "month", "century", "decade", "time", "era", "season"}
# "how many times did X win the title": the count goes after the object, not after the verb
_ADVERBIAL_UNITS = {"times", "years", "days", "weeks", "months", "hours", "minutes", "seconds", "decades",
                    "centuries", "seasons"}  # fmt: skip
_NOT_IN_SUBJECT = {"VB", "VBD", "VBZ", "VBP", "MD", "WDT", "WP", "WRB", ",", ":", "``", "''", "."}
_CLAUSE = {"VBD", "VBZ", "VBP", "MD", "WDT", "WP", "WP$", "WRB"}
# two words that are one preposition: no stranded preposition before another ("as of 2015")
_COMPLEX_PREPOSITIONS = {"as of", "out of", "because of", "instead of", "ahead of", "prior to", "up to",
                         "according to", "due to", "next to", "close to", "apart from", "away from",
                         "up until", "as to", "along with", "in between"}  # fmt: skip
# first words of places' names that NLTK's word list also holds as given names
_PLACE_PREFIXES = {"San", "Santa", "Saint", "St.", "Los", "Las", "New", "Fort", "Port", "Mount", "Lake",
                   "Cape", "El", "La", "Le", "Glen", "Bay"}  # fmt: skip
# adjectives whose antonym reads badly: quantifiers ("a few plays" -> "a many plays"), times ("present
# for the ceremony" -> "future"), colours in fixed names ("the black death")
_NO_ANTONYM = {"present", "past", "future", "current", "black", "white", "few", "fewer", "fewest", "little",
               "less", "least", "many", "much", "more", "most", "several", "enough", "other",
               "own"}  # fmt: skip
_NAME_PARTICLES = {"of", "the", "de", "du", "la", "von", "van", "der", "for"}
_DO_TENSE = {"did": "VBD", "does": "VBZ", "do": "VBP"}
_NUMBER_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_ORDINAL_WORDS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
]


def _lemmas(word: str) -> dict:
    from lemminflect import getAllLemmas

    return getAllLemmas(word.lower())


def _can_be_verb(word: str) -> bool:
    lemmas = _lemmas(word)
    return "VERB" in lemmas or "AUX" in lemmas


def _only_verb(word: str) -> bool:
    """A word the lexicon knows only as a verb form ("annexed", tagged JJ in "What kingdom annexed
    Warsaw")."""
    lemmas = _lemmas(word)
    return bool(lemmas) and set(lemmas) <= {"VERB", "AUX"}


def _is_participle(t: TaggedToken) -> bool:
    """A past or present participle, also when the tagger read it as a past tense ("was X
    established/VBD")."""
    if not t.text.islower():
        return False  # "has Manning/VBG won": a name is no participle
    if t.tag in ("VBN", "VBG"):
        return True
    if t.tag in ("VBD", "JJ") and _can_be_verb(t.text):
        from lemminflect import getInflection

        return any(t.text.lower() in getInflection(lemma, "VBN") for lemma in _lemmas(t.text).get("VERB", ()))
    return False


def _is_verb(toks: Sequence[TaggedToken], j: int) -> bool:
    """Token ``j`` is a finite verb: tagged so and known as a verb, or known only as a verb form."""
    t = toks[j]
    if j > 0 and not t.text.islower():
        return False
    if t.tag in ("VBD", "VBZ", "VBP", "MD"):
        return _can_be_verb(t.text) or t.tag == "MD"
    return t.tag in ("JJ", "NN") and t.text.islower() and _only_verb(t.text) and not t.text.endswith("ing")


def _nounish(toks: Sequence[TaggedToken], j: int) -> bool:
    """Token ``j`` can continue a wh-phrase's noun ("which NFL *team*", "what video *gaming* company")."""
    t = toks[j]
    nxt = toks[j + 1].tag if j + 1 < len(toks) else ""
    if t.tag == "VBG" and nxt.startswith("NN"):
        return True
    if t.tag.startswith("VB") and not _can_be_verb(t.text):
        return True  # "What kingdom/VBD annexed ...": the tagger's verb is a noun
    return t.tag in _NOUNISH and not _is_verb(toks, j)


def _subject_ok(toks: Sequence[TaggedToken]) -> str | None:
    """Why tokens cannot be a subject (None when they can): a verb or clause inside, or two noun phrases
    side by side ("the field goal Gano [made]": a relative clause the tagger hides)."""
    if not toks:
        return "no subject after the auxiliary"
    if toks[0].text.lower() in ("not", "n't"):
        return "a negated question"
    if toks[-1].tag not in ("NN", "NNS", "NNP", "NNPS", "PRP", "CD"):
        return "the subject does not end in a noun"
    if any(
        t.text.lower() in ("that", "which", "who", "whom", "whose") or t.tag.startswith("RB") for t in toks
    ):
        return "a verb or clause inside the subject"
    if _two_noun_phrases(toks):
        return "two noun phrases where the subject should be"
    if any(t.tag in _NOT_IN_SUBJECT for t in toks):
        return "a verb or clause inside the subject"
    return None


def _two_noun_phrases(toks: Sequence[TaggedToken]) -> bool:
    """A noun followed by a determiner or a name ("the field goal Gano [made]", "Newton the first
    selection"): a hidden clause or an apposition, no single noun phrase."""
    for a, b in zip(toks, toks[1:], strict=False):
        if a.tag in ("NN", "NNS", "NNP", "NNPS") and b.tag in ("DT", "PRP", "PRP$"):
            return True
        if a.tag in ("NN", "NNS") and b.tag == "NNP":
            return True
        if a.tag in ("NNP", "NNPS") and b.tag in ("JJ", "JJS", "RB", "RBS"):
            return True  # "Newcastle ninth in retail expenditures": a predicate, no noun phrase
    return False


def _span(toks: Sequence[TaggedToken]) -> tuple[int, int]:
    return (toks[0].start, toks[-1].end)


def _rest_parts(rest: Sequence[TaggedToken]) -> list:
    return [_span(rest)] if rest else []


def _clause_in(rest: Sequence[TaggedToken]) -> bool:
    """A finite verb, a relative / subordinate clause, a comma, or a second verb ("invade Poland and ...
    start"): the slot's place and the statement's scope would be guesses."""
    for i, t in enumerate(rest):
        if t.tag in _CLAUSE or t.text in (",", ";", ":"):
            return True
        if t.tag == "VB" and (i == 0 or rest[i - 1].tag != "TO"):
            return True
        if t.tag == "CC" and i + 1 < len(rest) and rest[i + 1].tag[:2] in ("IN", "RB", "VB", "TO"):
            return True  # "invade Poland and in doing so start ..."
        if t.tag == "VBN" and i > 0 and rest[i - 1].tag.startswith("NN"):
            return True  # "ref disagreed/VBN with": a second verb the tagger read as a participle
    return False


def _place_object(
    head: list, verb_part: list, rest: Sequence[TaggedToken], wh: str, noun: Sequence[TaggedToken]
) -> list | str:
    """Parts of "S V ... <slot> ..." for a wh-phrase that is the verb's object, or why its place is
    unclear."""
    if not rest:
        return [*head, *verb_part, SLOT]
    if rest[-1].tag in ("IN", "TO") and not any(t.tag in ("IN", "TO") for t in rest[:-1]):
        return [*head, *verb_part, _span(rest), SLOT]  # "who was it designed by": the stranded preposition
    for i in range(len(rest) - 1):
        pair = f"{rest[i].text} {rest[i + 1].text}".lower()
        if (
            rest[i].tag in ("IN", "TO")
            and rest[i + 1].tag in ("IN", "TO")
            and pair not in _COMPLEX_PREPOSITIONS
        ):
            return [
                *head,
                *verb_part,
                _span(rest[: i + 1]),
                SLOT,
                _span(rest[i + 1 :]),
            ]  # "the seat for [X] in"
    if rest[-1].tag in ("IN", "TO"):
        return "a stranded preposition after other prepositions"
    if rest[0].tag == "TO" and len(rest) > 1 and rest[1].tag == "VB":
        return "the object's place is unclear"  # "need [X] to use": an infinitive, not a place
    if rest[0].tag in ("IN", "TO", "RB"):
        return [*head, *verb_part, SLOT, _span(rest)]
    if wh == "how many" and noun and noun[-1].text.lower() in _ADVERBIAL_UNITS:
        return [*head, *verb_part, _span(rest), SLOT]  # "won the title [3 times]"
    if rest[0].tag == "RP":  # "gave up [X] in 1763": after the particle
        after = rest[1:]
        if not after or after[0].tag in ("IN", "TO", "RB"):
            return [*head, *verb_part, _span(rest[:1]), SLOT, *_rest_parts(after)]
        return "the object's place is unclear"
    return "the object's place is unclear"


def _wh_types(wh: str, noun: Sequence[TaggedToken]) -> tuple[str, ...]:
    if wh == "when" or noun and noun[-1].text.lower() in _TEMPORAL_NOUNS and wh in ("what", "which"):
        return TIME_TYPES
    if wh in ("who", "whom"):
        return ("person", "organization", "other_name")
    if wh == "where":
        return ("location", "organization", "other_name")
    if wh == "how many":
        return ("number", "quantity")
    if wh == "how much":
        return ("money", "number", "quantity", "percent")
    if noun and noun[-1].text.lower() in ("percentage", "percent"):
        return ("percent",)
    # not ordinals: "what ranking does X have" -> "X has 3rd"
    return (*(t for t in NUMERIC_TYPES if t != "ordinal"), *NAME_TYPES)


def en_frame(q: Parsed) -> Frame | Skip:
    """:func:`_en_frame` with the wh-phrase's head noun ("which NFL *team*") recorded."""
    frame = _en_frame(q)
    if isinstance(frame, Frame):
        toks = q.tokens
        w = next(i for i, t in enumerate(toks) if t.text.lower() in _WH)
        j = w + 1 + (toks[w].text.lower() == "how")
        while j < len(toks) and _nounish(toks, j):
            j += 1
        if j > w + 1 + (toks[w].text.lower() == "how") and toks[j - 1].tag.startswith("NN"):
            frame = replace(frame, noun=toks[j - 1].text.lower())
        elif frame.pattern == "copula":
            frame = replace(frame, noun=_copula_head(toks[j + 1 :]))  # "Who was the *coach* of X?"
        frame = replace(frame, wh=toks[w].text.lower())
    return frame


def _en_frame(q: Parsed) -> Frame | Skip:
    """The statement an English question becomes, with a slot for the distractor, or why there is none.

    - subject questions: "Who/Which N/How many N V-ed O?" -> "<slot> V-ed O.";
    - do-support: "When/What year did S V O?" -> "S V-ed O in <slot>.", "Where did S V?" -> "S V-ed in
      <slot>.", "How many N did S V?" -> "S V-ed <slot> N.", "Who did S V?" -> "S V-ed <slot>.";
    - be / have / modal inversion: "When was S V-ed?" -> "S was V-ed in <slot>.", "Who was S V-ed by?" ->
      "S was V-ed by <slot>.", "How many N has S won?" -> "S has won <slot> N.";
    - copula: "What is the N of X?" -> "The N of X is <slot>.", "Where is X?" -> "X is in <slot>.",
      "How many N are there in X?" -> "There are <slot> N in X.";
    - the wh-phrase at the end ("Tesla was born in what city?") -> "Tesla was born in <slot>.";
    - an opening phrase before a comma ("In 1990, who ...") is kept in front.
    """
    toks = list(q.tokens)
    while toks and toks[-1].tag == "." or toks and toks[-1].text in ("?", "!", "."):
        toks.pop()
    if not toks:
        return Skip("empty question")
    if sum(q.text.count(c) for c in '"“”') % 2:
        return Skip("unbalanced quotation marks")
    w = next((i for i, t in enumerate(toks) if t.text.lower() in _WH), None)
    if w is None:
        return Skip("no wh-word")
    head: list = []
    prep = ""
    if w > 0:
        if toks[w - 1].text == "," and w >= 2:
            head = [(toks[0].start, toks[w - 1].end)]  # "In 1990, who ..."
        elif w == 1 and toks[0].tag in ("IN", "TO"):
            prep = toks[0].text.lower()
        elif w == 2 and toks[0].tag in ("IN", "TO") and toks[1].tag in ("DT", "PDT", "JJ"):
            return Skip("no rule for this question form")
        else:
            return _in_situ(toks, w)
    wh = toks[w].text.lower()
    j = w + 1
    if wh == "whose":
        return Skip("a whose-question")
    if wh == "why":
        return Skip("a why-question")
    if wh == "how":
        if j < len(toks) and toks[j].text.lower() in ("many", "much"):
            wh, j = f"how {toks[j].text.lower()}", j + 1
        else:
            return Skip("a how-question other than how many / how much")
    noun_start = j
    if wh in ("what", "which", "how many", "how much"):
        while j < len(toks) and _nounish(toks, j):
            j += 1
    noun = toks[noun_start:j]
    if wh == "how many" and not noun:
        return Skip("how many without a noun")
    if wh == "how many" and not noun[-1].tag.startswith("NN"):
        return Skip("how many without a noun")  # "how many square miles large"
    if j >= len(toks):
        return Skip("no verb after the wh-phrase")
    types = _wh_types(wh, noun)
    if prep and noun and types != TIME_TYPES:
        types = NAME_TYPES  # "on what yard line": "on 10" would drop the noun; "in what city": "in Paris"
    unit = " ".join(t.text for t in noun) if wh in ("how many", "how much") else ""
    t = toks[j]
    word = t.text.lower()
    subject_wh = wh in ("who", "whom", "what", "which", "how many", "how much") and not prep

    def frame(parts, pattern, p="") -> Frame:
        return Frame((*head, *parts), pattern, types, p, unit)

    def tail_prep() -> str | None:
        # "When/In what year/Where ... ?": the distractor goes at the end after a preposition
        if prep:
            return prep
        if types == TIME_TYPES:
            return TIME_PREP
        if wh == "where":
            return "in"
        return None

    if word in _DO and t.tag.startswith("VB") or word in _BE | _HAVE or t.tag == "MD":
        if word in _BE and j + 1 < len(toks) and _is_participle(toks[j + 1]) and subject_wh:
            if _clause_in(toks[j + 2 :]):
                return Skip("a clause after the verb")
            return frame([SLOT, _span(toks[j:])], "subject")  # "Who was born in Warsaw?"
        if word in _BE and j + 1 < len(toks) and toks[j + 1].tag == "JJ" and subject_wh:
            if _clause_in(toks[j + 2 :]):
                return Skip("a clause after the verb")
            return frame([SLOT, _span(toks[j:])], "subject")  # "Who was responsible for X?"
        if (word in _HAVE or t.tag == "MD") and j + 1 < len(toks) and subject_wh:
            nxt = toks[j + 1]
            if nxt.tag in ("VBN", "VB") or _is_participle(nxt):
                return frame([SLOT, _span(toks[j:])], "subject")  # "Who has won the most titles?"
        k = _main_verb(toks, j, word)
        if isinstance(k, Skip):
            return k
        if k is None:
            if word in _BE:
                return _copula(toks, j, wh, noun, prep, types, unit, head)
            return Skip("no main verb after the auxiliary")
        subject = toks[j + 1 : k]
        why = _subject_ok(subject)
        if not why and word in _DO and any(t.tag == "IN" and t.text.lower() != "of" for t in subject):
            why = "a preposition inside the subject"  # "did ABC's viewership end/NN in 4th place/VB"
        if why:
            return Skip(why)
        if word in _DO:
            from lemminflect import getInflection

            base = toks[k].text.lower()
            if not _base_form(base):
                return Skip("no base form after do")  # "did X began", a misread "broadcasts"
            forms = getInflection(base, _DO_TENSE[word])
            if not forms:
                return Skip("no inflection for the verb")
            verb_part = [forms[0]]
            rest = toks[k + 1 :]
            if rest and rest[0].tag in ("VB", "VBP", "VBZ") and rest[0].text.lower() != "place":
                return Skip("two verbs in a row")  # "did San Francisco last/VB host": a misread adverb
            if base == "take" and rest and rest[0].text.lower() == "place":
                verb_part, rest = [forms[0], (rest[0].start, rest[0].end)], rest[1:]
            pattern = "do-support"
        else:
            verb_part = [word, _span(toks[k : k + 1])]
            rest = toks[k + 1 :]
            pattern = "passive" if word in _BE else "auxiliary"
        if _clause_in(rest):
            return Skip("a clause after the verb")
        if word in _BE and any(
            t.tag == "JJS" or t.text.lower() in ("first", "last", "only") for t in subject
        ):
            return Skip("a superlative subject")  # "What was the first X branded with Y?": a reduced relative
        if word in _BE and subject[0].text.lower() in ("a", "an") and wh in ("what", "which", "who"):
            # "What is an event held in X?": "an event held in X" is the noun phrase
            return Skip("an indefinite subject")
        if pattern == "passive" and tail_prep() is None and rest and rest[-1].tag not in ("IN", "TO"):
            # "What is the name of the colony established in 1564?": the participle may belong to the subject
            return Skip("a participle that may modify the subject")
        body = [_span(subject)]
        p = tail_prep()
        if p is not None:
            if rest and rest[-1].tag in ("IN", "TO"):
                return frame([*body, *verb_part, _span(rest), SLOT], pattern)  # "Where did X come from?"
            return frame([*body, *verb_part, *_rest_parts(rest), SLOT], pattern, p)
        if wh in ("when", "where"):
            return Skip("no rule for this question form")
        parts = _place_object(body, verb_part, rest, wh, noun)
        if isinstance(parts, str):
            return Skip(parts)
        return frame(parts, pattern)
    if _is_verb(toks, j):
        if not subject_wh:
            return Skip("a when / where question without an auxiliary")
        if _clause_in(toks[j + 1 :]):
            return Skip("a clause after the verb")
        return frame([SLOT, _span(toks[j:])], "subject")
    return Skip("no verb after the wh-phrase")


def _main_verb(toks: Sequence[TaggedToken], j: int, aux: str) -> int | None | Skip:
    """Index of the main verb after the auxiliary at ``j`` (do: a base form; be: a participle; have: a past
    participle; a modal: a base form), None when there is none (be: a copula)."""
    for k in range(j + 1, len(toks)):
        t = toks[k]
        if aux in _DO:
            if t.tag == "VB":
                return k
            if t.text.lower() == "take" and k + 1 < len(toks) and toks[k + 1].text.lower() == "place":
                return k  # "did Super Bowl 50 take/NN place/VB"
            if (
                t.tag in ("NN", "JJ")
                and t.text.islower()
                and toks[k - 1].tag in ("NNP", "NNPS", "CD", "PRP")
                and k > j + 1
                and _can_be_verb(t.text)
                and (k + 1 == len(toks) or not toks[k + 1].tag.startswith("VB"))
                and _base_form(t.text)
            ):
                return k  # "did the Panthers beat/NN in ...": a verb the tagger read as a noun
        elif aux in _BE:
            if _is_participle(t) and k > j + 1:
                return k
        elif aux in _HAVE:
            if _is_participle(t) and t.tag != "VBG":
                return k
        elif t.tag == "VB" and t.text.islower():  # a modal's verb
            return k
        if t.tag.startswith("VB") or t.tag in ("MD", "WDT", "WP", "WRB"):
            return Skip("no main verb after the auxiliary") if aux not in _BE else None
    return None


def _base_form(word: str) -> bool:
    from lemminflect import getLemma

    return word.lower() in getLemma(word.lower(), "VERB")


def _copula_head(toks: Sequence[TaggedToken]) -> str:
    """The head noun of the noun phrase after a copula ("the Denver head *coach* for ...", "one of the
    largest music *schools*"): what kind of thing the answer is."""
    found = ""
    for t in toks:
        if t.tag in ("IN", "TO", "WDT", ",", ".") and not (found == "one" and t.text.lower() == "of"):
            break
        if t.tag.startswith("NN") or t.text.lower() == "one":
            found = t.text.lower()
    return "" if found == "one" else found


def _copula(toks, j, wh, noun, prep, types, unit, head) -> Frame | Skip:
    """ "What is the N of X?" -> "The N of X is <slot>."; "Where is X?" -> "X is in <slot>."."""
    be = toks[j].text.lower()
    rest = toks[j + 1 :]
    if not rest:
        return Skip("nothing after the copula")
    if rest[0].text.lower() == "there":  # the tagger's RB in "are there"
        rest[0] = rest[0]._replace(tag="EX")
    if rest[0].tag not in ("DT", "PDT", "PRP$", "NNP", "NNPS", "NN", "NNS", "CD", "EX", "PRP"):
        return Skip("no noun phrase after the copula")  # "How many N were present ...": a predicate
    for i, a in enumerate(rest):
        if a.tag in _CLAUSE or a.tag.startswith("VB") and not (a.tag == "VB" and rest[i - 1].tag == "TO"):
            return Skip("a clause after the copula")
        if (
            a.tag == "TO"
            and i + 1 < len(rest)
            and rest[i + 1].tag == "VB"
            and not rest[i - 1].tag.startswith("NN")
        ):
            return Skip(
                "a clause after the copula"
            )  # "customers able to watch"; "the quarterback to play" is fine
    if _two_noun_phrases(rest):
        return Skip("two noun phrases after the copula")
    if rest[0].tag == "EX" and wh != "how many":
        return Skip("no rule for this question form")
    if rest[0].tag == "EX":  # "How many people are there in X?" -> "There are <slot> people in X."
        return Frame((*head, _span(rest[:1]), be, SLOT, *_rest_parts(rest[1:])), "copula", types, "", unit)
    if rest[-1].tag in ("IN", "TO"):  # "What county is X in?" -> "X is in <slot>."
        if len(rest) < 2:
            return Skip("nothing after the copula")
        return Frame((*head, _span(rest[:-1]), be, _span(rest[-1:]), SLOT), "copula", types, "", unit)
    if rest[-1].tag not in ("NN", "NNS", "NNP", "NNPS", "CD"):
        return Skip("the copula's subject does not end in a noun")
    if prep:
        return Frame((*head, _span(rest), be, SLOT), "copula", types, prep, unit)
    if types == TIME_TYPES:
        return Frame((*head, _span(rest), be, SLOT), "copula", types, TIME_PREP, unit)
    if wh == "where":
        return Frame((*head, _span(rest), be, SLOT), "copula", types, "in", unit)
    if not any(t.tag in ("NN", "NNS") for t in rest):
        return Skip("who or what a name is")  # "Who was Frédéric Chopin?" asks for a description
    return Frame((*head, _span(rest), be, SLOT), "copula", types, "", unit)


def _in_situ(toks: Sequence[TaggedToken], w: int) -> Frame | Skip:
    """ "Tesla was born in what city?" -> "Tesla was born in <slot>.": a wh-phrase that ends the question."""
    wh = toks[w].text.lower()
    j = w + 1
    if wh == "how":
        if j < len(toks) and toks[j].text.lower() in ("many", "much"):
            wh, j = f"how {toks[j].text.lower()}", j + 1
        else:
            return Skip("a how-question other than how many / how much")
    if wh in ("when", "where", "whose"):
        return Skip("the wh-word is not at the start")
    noun_start = j
    while j < len(toks) and _nounish(toks, j):
        j += 1
    if j != len(toks):
        return Skip("the wh-word is not at the start")
    noun = toks[noun_start:j]
    if not any(t.tag.startswith("VB") for t in toks[:w]):
        return Skip("no verb before the wh-phrase")
    unit = " ".join(t.text for t in noun) if wh in ("how many", "how much") else ""
    if wh == "how many" and not noun:
        return Skip("how many without a noun")
    types = _wh_types(wh, noun)
    if noun and wh in ("what", "which") and types != TIME_TYPES:
        types = NAME_TYPES  # "for what season" -> "for 1993" drops the noun; "in what city" -> "in Paris"
    elif noun and types == TIME_TYPES and noun[-1].text.lower() not in ("year", "date", "day"):
        return Skip("a wh-noun the distractor would drop")
    return Frame(((toks[0].start, toks[w].start), SLOT), "in-situ", types, "", unit)


def _time_prep(entity: str, kind: str) -> str:
    """The preposition before a time: on a day, in a year or month, at a clock time."""
    if kind == "time":
        return "at"
    if (
        kind == "date"
        and re.search(r"\d{1,2}(?:st|nd|rd|th)?\b(?!\d)", entity)
        and not re.fullmatch(r"\w+\s\d{4}", entity)
    ):
        return "on"
    return "in"


def _en_fill(frame: Frame, entity: str, kind: str) -> str | None:
    """The distractor as the slot holds it ("in 1856", "45 touchdowns"), or None when it does not fit."""
    text = entity
    if frame.unit:
        unit_words = frame.unit.lower().split()
        if kind in ("quantity", "money", "percent"):
            last = entity.lower().split()[-1]
            if frame.unit.lower() in ("money",) or kind != "quantity":
                text = entity if frame.unit.lower() in ("money", "") or kind == "percent" else None
            elif _lemma_noun(last) == _lemma_noun(unit_words[-1]):
                text = entity
            else:
                return None
            if text is None:
                return None
        elif entity.lower() in ("one", "1", "a", "an", "zero", "0") or "." in entity:
            return None  # "1 touchdowns", "56.6 first downs"
        else:
            text = f"{entity} {frame.unit}"
    if re.fullmatch(r"\d{3,4}s", entity):
        text = f"the {entity}"  # "in the 1980s"
    if re.match(
        r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|hundred)\b",
        text,
        re.I,
    ):
        text = text[0].lower() + text[1:]  # "Four thousand" from a sentence start; render capitalises again
    if frame.prep == TIME_PREP:
        return f"{_time_prep(entity, kind)} {text}"
    return f"{frame.prep} {text}" if frame.prep else text


def _lemma_noun(word: str) -> str:
    from lemminflect import getLemma

    found = getLemma(word, "NOUN")
    return found[0] if found else word


def _render_en(q: Parsed, frame: Frame, fill: str, mutation: Mutation | None) -> str:
    pieces = []
    for part in frame.parts:
        if part is SLOT:
            pieces.append(fill)
        elif isinstance(part, tuple):
            pieces.append(_copy(q.text, part, mutation))
        else:
            pieces.append(part)
    out = ""
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        if out and not re.match(r"[,;:.!?)]|'s\b|’s\b|n't\b", piece):
            out += " "
        out += piece
    out = out.strip().rstrip(",;:")
    for new in (fill, mutation.new if mutation else ""):
        if new:  # "a irregular season" -> "an irregular season"
            out = re.sub(
                rf"\b([Aa])n? (?={re.escape(new)})", lambda m, w=new: _article(w, m.group(1)) + " ", out
            )
    return out[:1].upper() + out[1:] + "."


def _article(word: str, a: str) -> str:
    """ "a" or "an" before ``word`` (``a``: the article's first letter, to keep its case)."""
    low = word.lower()
    vowel = (
        re.match(r"[aeiou]", low)
        and not re.match(r"u[nks]?[aeiou]|use|one|eu", low)
        or re.match(r"(?:8|11|18)(?:\d{2})?\b|8\d*", low)
    )
    return a + ("n" if vowel else "")


def _copy(text: str, span: tuple[int, int], mutation: Mutation | None) -> str:
    start, end = span
    piece = text[start:end]
    if mutation and start <= mutation.start and mutation.start + len(mutation.old) <= end:
        at = mutation.start - start
        piece = piece[:at] + mutation.new + piece[at + len(mutation.old) :]
    return piece


# Chinese ------------------------------------------------------------------------------------------------

# Question words, longest first (one regex alternation tries them in this order).
_ZH_TIME_WH = ("什么时候", "什么时间", "何时", "哪一年", "哪年", "哪一天", "哪天", "几月几号", "几月几日", "几月份",
               "几月", "几号", "几点")  # fmt: skip
_ZH_AMOUNT_WH = (
    "多少钱",
    "多少岁",
    "多长时间",
    "多大",
    "多高",
    "多长",
    "多远",
    "多久",
    "多重",
    "多少",
    "第几",
    "几",
)
_ZH_PLACE_WH = ("哪里", "哪儿")
_ZH_WHICH_WH = (
    "哪一个",
    "哪个",
    "哪些",
    "哪位",
    "哪家",
    "哪所",
    "哪种",
    "哪部",
    "哪款",
    "哪国",
    "哪一",
    "哪",
)
_ZH_ALL_WH = sorted((*_ZH_TIME_WH, *_ZH_AMOUNT_WH, *_ZH_PLACE_WH, *_ZH_WHICH_WH, "什么", "啥", "谁"), key=len,
                    reverse=True)  # fmt: skip
_ZH_WH_RE = re.compile("|".join(map(re.escape, _ZH_ALL_WH)))
_ZH_UNITS = re.compile(
    r"(?:个月|个|次|集|天|年|岁|元|块|人|名|位|只|件|条|张|本|辆|台|部|种|层|级|期|章|页|号|届|周年|周|小时|分钟|秒|米|公里|"
    r"千米|厘米|公斤|千克|克|吨|斤|平方米|平方|亩|升|度|倍|分|点|码|英寸|寸|卡|毫升|毫克|万|亿)"
)
_ZH_NOT_WH = re.compile(
    r"为什么|为何|为啥|怎么|怎样|如何|是否|能否|是不是|有没有|还是|几乎|几何|多少有|多大的"
)
_ZH_OPENERS = ("请问一下", "请问", "问一下", "问下")
_ZH_FINAL = "呢吗啊呀嘛哦"
_ZH_END = "。！？!?；;…\n"


def _zh_types(wh: str) -> tuple[str, ...]:
    if wh in _ZH_TIME_WH:
        return TIME_TYPES
    if wh == "谁":
        return NAME_TYPES
    if wh in _ZH_PLACE_WH:
        return ("location", "organization", "other_name")
    if wh == "多少钱":
        return ("money",)
    if wh == "第几":
        return ("ordinal",)
    if wh in ("多大", "多高", "多长", "多远", "多久", "多重", "多少岁", "多长时间"):
        return ("quantity",)
    if wh in _ZH_AMOUNT_WH:
        return ("number", "quantity", "money", "percent")
    return (*NUMERIC_TYPES, *NAME_TYPES)


def zh_frame(q: Parsed) -> Frame | Skip:
    """The statement a Chinese question becomes: the question word (with the noun or the classifier that
    belongs to it: "哪个国家", "几个", "哪一期") is replaced in place by the distractor (Chinese keeps question
    words where the answer goes), an opening 请问 and a final particle or question mark are dropped, and "。"
    ends it; a question without a question word that ends in a noun ("亚马逊市值") becomes "亚马逊市值是<slot>。".
    An amount or a time right after a noun takes 是 / 在 before it ("雅思多少钱" -> "雅思是3000元",
    "X什么时候上市" -> "X在2019年上市")."""
    text = q.text
    start, end = 0, len(text)
    for opener in _ZH_OPENERS:
        if text.startswith(opener):
            start = len(opener)
            break
    while end > start and (text[end - 1] in "？?。!！ \t" or text[end - 1] in _ZH_FINAL):
        end -= 1
    if end <= start:
        return Skip("empty question")
    body = text[start:end]
    starts = {t.start for t in q.tokens}
    # jieba reads "华为什么时候" as 华 / 为什么 / 时候: "为什么" before 时候 is the name's end and 什么时候
    for m in re.finditer("为什么(?=时候|时间)", text):
        starts.add(m.start() + 1)
    not_wh = [m for m in _ZH_NOT_WH.finditer(text, start, end) if m.start() in starts]
    if any(not (m.group(0) == "为什么" and m.start() + 1 in starts) for m in not_wh):
        return Skip("a why / how / yes-no / alternative question")
    if re.search(r"(?:最好|好|合适|划算|好看|好用)$", body):
        return Skip("an evaluative question")  # "北戴河什么时候去最好": a judgement, no fact to state
    found = list(_ZH_WH_RE.finditer(text, start, end))
    toks = [t for t in q.tokens if start <= t.start and t.end <= end]
    if not found:
        if toks and (toks[-1].tag.startswith("n") or toks[-1].tag in ("vn", "eng")):
            return Frame(((start, end), "是", SLOT), "noun-phrase", (*NUMERIC_TYPES, *NAME_TYPES))
        return Skip("no question word")
    if len(found) > 1:
        return Skip("more than one question word")
    m = found[0]
    wh = m.group(0)
    if m.start() not in starts:
        return Skip("question word inside a word")
    wh_end = m.end()
    unit = ""
    types = _zh_types(wh)
    nxt = next((t for t in q.tokens if t.start == wh_end), None)
    if nxt is not None and (nxt.tag.startswith("a") or nxt.text.startswith("最")) and wh not in _ZH_AMOUNT_WH:
        return Skip("an evaluative question")  # "哪个好", "什么最好": a judgement, no fact to state
    if wh in ("哪", "哪一", "第几") or wh in ("多少", "几"):
        u = _ZH_UNITS.match(text, wh_end, end)
        if u:  # "几个", "哪一期": the classifier goes with the question word
            unit, wh_end = u.group(0), u.end()
        elif wh == "哪一":
            return Skip("question word inside a word")
        if wh in ("哪", "哪一") and u:
            types = ("ordinal",)  # "哪一期" -> "第三期"
    if not unit and (wh in ("什么", "啥") or wh in _ZH_WHICH_WH):
        if nxt is not None and nxt.end <= end and nxt.tag.startswith("n"):
            wh_end = nxt.end  # "哪个国家", "什么品牌": the noun goes with the question word ...
            types = NAME_TYPES  # ... and a number would leave it out ("配什么主板" -> "配100")
            after = next((t for t in q.tokens if t.start == wh_end), None)
            if after is not None and (after.tag.startswith("a") or after.text.startswith("最")):
                return Skip("an evaluative question")  # "哪个版本好看"
        elif wh in ("哪", "哪一"):
            before = text[m.start() - 1 : m.start()]
            if before not in ("在", "去", "到", "从", "来"):
                return Skip("no rule for this question form")  # "哪来的"
            types = ("location", "organization", "other_name")
    elif wh == "多少岁":
        unit = "岁"
    parts: list = []
    if m.start() > start:
        parts.append((start, m.start()))
    before = text[m.start() - 1 : m.start()] if m.start() > start else ""
    verb_before = any(t.tag[:1] in ("v", "p") or t.text == "是" for t in toks if t.end <= m.start())
    if wh in ("什么时候", "什么时间", "何时") and before and before not in "是在于从到自":
        # "X什么时候上市" -> "X在2019年上市"; "X什么时候成立的" -> "X是1987年成立的"
        parts.append("是" if body.endswith("的") else "在")
    elif (
        wh in ("多少钱", "多少", "几", "多大", "多高", "多长", "多远", "多重") and before and not verb_before
    ):
        # "雅思多少钱" -> "雅思是3000元", "长春市几个区" -> "长春市有14个区"; "能贷款多少" stays "能贷款11万"
        parts.append("有" if unit and wh_end < end and not text[wh_end:end].startswith("钱") else "是")
    parts.append(SLOT)
    if wh_end < end:
        parts.append((wh_end, end))
    return Frame(tuple(parts), "wh-in-situ", types, "", unit)


def _zh_fill(frame: Frame, entity: str, kind: str) -> str | None:
    if frame.unit:
        if entity.endswith(frame.unit):
            return entity
        if kind == "number" and re.fullmatch(r"[\d０-９一二三四五六七八九十百千万亿两.]+", entity):
            return entity + frame.unit
        return None
    if re.fullmatch(r"\d{4}", entity) and frame.types == TIME_TYPES:
        return entity + "年"
    return entity


def _render_zh(q: Parsed, frame: Frame, fill: str, mutation: Mutation | None) -> str:
    out = "".join(
        fill if p is SLOT else _copy(q.text, p, mutation) if isinstance(p, tuple) else p for p in frame.parts
    )
    # no spaces between Chinese characters ("十九大 时间"); Latin words keep theirs
    out = re.sub(r"(?<=[\u3400-\u9fff])\s+|\s+(?=[\u3400-\u9fff])", "", out.strip())
    return out + "。"


# Mutations --------------------------------------------------------------------------------------------

_ZH_DIGITS = "一二三四五六七八九"
_ZH_MEASURES = set("个种次位名家本条只件张台辆天岁周层块份所项届部")
# Cilin's lists of proper places: cities, places, countries, capitals and provinces, rivers
_ZH_PLACE_LISTS = ("Cb25A11", "Cb08A", "Di02A23", "Di03B", "Be05B")
# the commonest surnames: a person's name in a passage starts with one ("傲娇", "春迎夏" do not)
_ZH_SURNAMES = set(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟"
    "谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安"
    "齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛"
    "靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧"
    "闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
# a person's name does not end in a title, a kinship word or a place's ending ("朱先生", "吴姓", "白鹿原")
_ZH_TITLES = ("先生", "女士", "小姐", "老师", "师傅", "总", "哥", "姐", "传", "记", "儿", "姓", "氏", "家", "原", "山",
              "河", "湖", "江", "城", "村", "镇", "州", "县", "区", "省", "路", "街", "园", "寺", "门", "岛")  # fmt: skip
# what may follow a name in a question: the name ends there ("赵启平和谁": "赵启" is no whole name)
_ZH_AFTER_NAME = set("的是和与跟在说演为被把将对给了吗呢有做去到从，,？?。 ")
_ZH_OPPOSITES = {}
for _a, _b in (
    ("大", "小"),
    ("高", "低"),
    ("多", "少"),
    ("长", "短"),
    ("早", "晚"),
    ("快", "慢"),
    ("贵", "便宜"),
    ("远", "近"),
    ("重", "轻"),
    ("强", "弱"),
    ("厚", "薄"),
    ("宽", "窄"),
    ("热", "冷"),
):
    for _x, _y in ((_a, _b), (_b, _a), ("最" + _a, "最" + _b), ("最" + _b, "最" + _a)):
        _ZH_OPPOSITES[_x] = _y


def _ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def shift_number(text: str, rng: random.Random) -> str | None:
    """``text`` with its last number changed a little: a year by 1 to 9, a small number by 1 to 3 (staying
    above 1), a larger one in its second digit, an English number word or ordinal to another, a Chinese
    digit to another; None when it holds no number."""
    if re.search(r"\d{4}\s?[-–]\s?\d{2,4}\b", text):
        return None  # a span of years ("2012-13"): shifting one end reads as a slip
    runs = list(re.finditer(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+", text))
    if runs:
        m = runs[-1]
        n = int(m.group(0).replace(",", ""))
        width = len(str(n))
        year = "," not in m.group(0) and width == 4 and 1000 <= n <= 2099
        if year and re.match(r"['’]?s\b", text[m.end() :]) and n % 10 == 0:
            new = n + rng.choice([-30, -20, -10, 10, 20, 30])  # a decade stays a decade: "1630s" -> "1660s"
        elif year:
            new = n + rng.choice([d for d in range(-9, 10) if d])
        elif n < 100:
            choices = [n + d for d in (-3, -2, -1, 1, 2, 3) if n + d >= 2 and len(str(n + d)) == width]
            if not choices:
                return None
            new = rng.choice(choices)
        else:
            step = 10 ** (width - 2)
            choices = [n + d * step for d in (-3, -2, -1, 1, 2, 3) if len(str(n + d * step)) == width]
            new = rng.choice(choices)
        after = text[m.end() :]
        if re.match(r"(?:st|nd|rd|th)\b", after):  # "32nd" -> "35th"
            after = _ordinal_suffix(new) + after[2:]
        return text[: m.start()] + (f"{new:,}" if "," in m.group(0) else str(new)) + after
    low = text.lower()
    for words in (_NUMBER_WORDS, _ORDINAL_WORDS):
        for w in words:
            if re.search(rf"\b{w}\b", low):
                i = words.index(w)
                # a neighbour: "first half" -> "second half" (a "fourth half" there is none)
                other = rng.choice([words[k] for k in (i - 1, i + 1) if 0 <= k < len(words)])
                found = re.search(rf"\b{w}\b", low)
                original = text[found.start() : found.end()]
                other = other.capitalize() if original[:1].isupper() else other
                return text[: found.start()] + other + text[found.end() :]
    for i in range(len(text) - 1, -1, -1):
        if text[i] in _ZH_DIGITS:
            if text[i] == "一" and (i + 1 == len(text) or text[i + 1] not in "年月日号个次"):
                return None  # 一 in a word ("一般") is no number
            other = rng.choice([c for c in _ZH_DIGITS[1:6] if c != text[i]])
            if other == "二" and text[i + 1 : i + 2] in _ZH_MEASURES:
                other = "两"  # 两个人, not 二个人
            return text[:i] + other + text[i + 1 :]
    return None


# What a name's last word says about it ("Denver Broncos": a bronco is an animal, so no person; "Moscone
# Center": a place), from WordNet's classes of nouns. Open English WordNet puts workers under "causal agent"
# beside "person", not under it.
_WN_ROOTS = (("person", "person"), ("causal agent", "person"), ("animal", "animal"),
             ("organization", "organization"),
             ("location", "location"), ("region", "location"), ("body of water", "location"),
             ("geological formation", "location"), ("event", "event"), ("artifact", "artifact"),
             ("group", "group"))  # fmt: skip


class NameClasses:
    """WordNet's class (person, animal, organization, location, event, artifact, group, other) of a name's
    last word, or None when WordNet does not know it as a noun ("Manning"): its proper-noun sense when it
    has one spelt so ("Gray": a person), else its first sense ("Bowl": an artifact)."""

    def __init__(self, wordnet):
        self.wn = wordnet
        self.roots = {}
        for lemma, kind in _WN_ROOTS:
            first = wordnet.lemmas.get(lemma, {}).get("n", [])
            if first:
                self.roots.setdefault(first[0], kind)
        self._classes: dict[str, str] = {}
        self._words: dict[str, str | None] = {}

    def synset_class(self, synset: str) -> str:
        if synset not in self._classes:
            seen, frontier, found = {synset}, [synset], "other"
            while frontier and found == "other":
                hits = [self.roots[s] for s in frontier if s in self.roots]
                if hits:
                    found = min(hits, key=[k for _, k in _WN_ROOTS].index)
                    break
                parents = []
                for s in frontier:
                    for p in self.wn.hypernyms.get(s, []) + self.wn.instance_hypernyms.get(s, []):
                        if p not in seen:
                            seen.add(p)
                            parents.append(p)
                frontier = parents
            self._classes[synset] = found
        return self._classes[synset]

    def word_class(self, word: str) -> str | None:
        """The class of a name's word (its proper-noun sense first), None for a word WordNet does not know."""
        if word not in self._words:
            found = None
            for lemma in [word.lower(), *self.wn.lemmatize(word, "n")]:
                senses = self.wn.lemmas.get(lemma, {}).get("n", [])
                if not senses:
                    continue
                proper = [s for s in senses if word in self.wn.synsets.get(s, [])]
                found = self.synset_class(proper[0] if proper else senses[0])
                break
            self._words[word] = found
        return self._words[word]

    def name_class(self, name: str) -> str | None:
        words = re.findall(r"[A-Za-z]+", name)
        return self.word_class(words[-1]) if words else None


# The trap maker ---------------------------------------------------------------------------------------


class _CachedFinder(EntityFinder):
    """An entity finder that keeps each passage's entities: a passage is asked once per question and once
    for the file's pool."""

    def __init__(self, lang: str, ner: str | None = None):
        super().__init__(lang, ner)
        self._cache: dict[str, list[Entity]] = {}

    def entities(self, text: str) -> list[Entity]:
        if text not in self._cache:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[text] = super().entities(text)
        return self._cache[text]


def rng_for_question(seed: int, qid: str) -> random.Random:
    """The random choices for one question: the same whatever else the file holds."""
    return random.Random(zlib.crc32(f"{seed}\x00trap\x00{qid}".encode()))


class EntityPool:
    """The file's entities by type (each text once, in file order, with the number of passages it is found
    in): distractors for a passage that holds no other entity of the answer's type."""

    def __init__(self):
        self.by_type: dict[str, list[str]] = {}
        self.passages: dict[tuple[str, str], int] = {}

    def add(self, entities: Iterable[Entity]) -> None:
        """The entities of one passage."""
        for key in dict.fromkeys((e.type, e.text) for e in entities):
            if key not in self.passages:
                self.passages[key] = 0
                self.by_type.setdefault(key[0], []).append(key[1])
            self.passages[key] += 1


class TrapMaker:
    """Trap sentences for questions on their passages, and the passage with the trap put in.

    ``lang``: en or zh; ``seed``: the choice of the distractor and the mutation (per question id);
    ``ner``: a locally installed spaCy pipeline for entities (default: paraguide's rules);
    ``resources``: a :class:`paraguide.perturb.resources.Resources` for the antonym lexicons."""

    def __init__(self, lang: str, seed: int = 13, ner: str | None = None, resources=None):
        self.lang, self.seed = lang, seed
        self.finder = _CachedFinder(lang, ner)
        self.chunks = ContextChunks(lang, ner)
        self.chunks.finder = self.finder  # its distractors() reads the cached entities
        self.ner = ner
        self._word_cache: dict[str, frozenset[str]] = {}
        if resources is None:
            from paraguide.perturb.resources import Resources

            resources = Resources(lang)
        self.res = resources
        self._classes: NameClasses | None = None

    def name_class(self, name: str) -> str:
        """What kind of thing a name is by its last word (English, WordNet's classes: "Denver Broncos" an
        animal, "Moscone Center" a location), "unknown" for a word WordNet does not know ("Manning");
        Chinese: always "unknown"."""
        if self.lang != "en":
            return "unknown"
        if self._classes is None:
            self._classes = NameClasses(self.res.wordnet)
        return self._classes.name_class(name) or "unknown"

    def name_group(self, name: str) -> str:
        """:meth:`name_class`, with the classes a person's name may show taken together as "person":
        unknown to WordNet ("Edison"), a person's word ("Miller"), or a word of no class that is rarely
        written in lower case ("Tesla": a unit to WordNet)."""
        found = self.name_class(name)
        words = name.split()
        if (
            found in ("unknown", "person")
            or found == "other"
            and words
            and words[-1].lower() not in self.res.en_lowercase_words
        ):
            return "person"
        return found

    def wanted_class(self, frame: Frame, answer: str) -> str:
        """The kind of name the question asks for: its wh-noun's class ("which *team*": an organization;
        "what *song*": "other", a class too broad to check), a person for who, a location for where, else
        the answer's own ("unknown" when its last word says nothing)."""
        if self.lang != "en":
            return "unknown"
        if frame.noun and self.res.wordnet.lemmatize(frame.noun, "n"):
            return self.name_class(frame.noun)
        if frame.wh in ("who", "whom"):  # a person, unless the answer says otherwise ("Denver Broncos")
            found = self.name_class(answer)
            return found if found not in ("unknown", "person", "other") else "person"
        if frame.wh == "where":
            return "location"
        found = self.name_class(answer)
        return "unknown" if found == "other" else found

    def class_fits(self, wanted: str, name: str, kind: str = "") -> bool:
        """Whether ``name`` is of the kind ``wanted``. A person: a name WordNet does not know or whose last
        word is a person's ("Miller"), of two to four capitalised words ("Jim Gray", not "CBS" or "Pro
        Bowl"); unknown: a name whose last word is unknown or a person's as well; else the same class."""
        found = self.name_class(name)
        if wanted == "person":
            words = name.split()
            return (
                self.name_group(name) == "person"  # WordNet here holds no proper names ("Tesla": a unit)
                and not self._adjectival(name)  # "Roman Catholic"
                and 2 <= len(words) <= 4
                and not any(w.isupper() and len(w) > 1 for w in words)  # "Denver QB"
                and not any(w in _NAME_PARTICLES for w in words)  # "Normans of Edessa"
                # a plural common noun last is a team's name ("Arizona Cardinals"), not a person's
                and not any(
                    lemma != words[-1].lower() for lemma in self.res.wordnet.lemmatize(words[-1], "n")
                )
            )
        if wanted == "unknown":
            return found in ("unknown", "person")
        if wanted in ("location", "organization") and kind == wanted:
            # most places' names are unknown to WordNet ("Milan"): the finder's type, from the passage, decides
            if wanted == "location" and (name.isupper() or " " in name and self._given_name(name)):
                return False  # "AFC", "John Lawrence Daly": no place
            return found in (wanted, "unknown")
        return found == wanted

    def zh_kind(self, word: str) -> tuple[str, frozenset[str]]:
        """Chinese: what HIT Cilin says a name is. "proper" with its lists of places ('#' groups of cities,
        countries, capitals, rivers: "上海" and "广州" share one), "common" for any other word Cilin holds
        (a common word jieba tagged as a name: "顾客", "上市", "老公"; a generic place: "首都", "王国"),
        "unknown" for a word Cilin does not hold (most persons' and brands' names)."""
        codes = self.res.cilin_codes.get(word, [])
        if not codes:
            return "unknown", frozenset()
        lists = frozenset(c for c in codes if c.endswith("#") and c.startswith(_ZH_PLACE_LISTS))
        if lists and not any(c.endswith("=") for c in codes):  # "县城" also has synonyms: a generic word
            return "proper", lists
        return "common", frozenset()

    def zh_names_alike(self, a: str, b: str, kind: str) -> bool:
        """Chinese: whether name ``b`` can stand for name ``a`` (of finder type ``kind``): two places of one
        of Cilin's lists; two persons' names Cilin does not hold, each a common surname and one to three
        characters ("李亚鹏", not "傲娇" or "朱先生"); two other names Cilin does not hold that end alike
        ("双鱼座" / "天蝎座", "华山医院" / "协和医院"). Never two that share two characters ("亚马逊河",
        "亚马孙河": one river)."""
        if len(set(a) & set(b)) >= 2 or len(b) < 2:
            return False
        (ka, la), (kb, lb) = self.zh_kind(a), self.zh_kind(b)
        if ka != kb or kb == "common":
            return False
        if ka == "proper":
            specific_a, specific_b = la - {"Cb25A11#"}, lb - {"Cb25A11#"}  # Cilin's long list of any places
            if specific_a and specific_b:
                return bool(specific_a & specific_b)  # a provincial capital for one, not a province
            return bool(la & lb)
        if kind == "person":
            return all(_zh_person(n) and self._zh_name_word(n) for n in (a, b))
        return len(a) >= 3 and len(b) >= 3 and a[-1] == b[-1]

    def _zh_name_word(self, name: str) -> bool:
        """A name jieba's dictionary does not hold as a common word, whole or by its first two characters
        ("许配给" is "许配" + 给, no person)."""
        flags = self.res.jieba_flags
        return all(flags.get(part, "nr").startswith("n") and flags.get(part, "nr") not in ("n", "ng", "nx")
                   for part in {name, name[:2]})  # fmt: skip

    def _given_name(self, name: str) -> bool:
        """English: a name whose first word is a given name of NLTK's word list ("Walter Reed", not "Nieuwe
        Maas" or "San Diego"); Chinese: always."""
        first = name.split()[0]
        return self.lang != "en" or first in self.res.en_words and first not in _PLACE_PREFIXES

    def _adjectival(self, name: str) -> bool:
        """A name with a word WordNet knows as an adjective ("Han Chinese", "Roman Catholic"): a people,
        a faith or a language more often than a person or a place (English only)."""
        return self.lang == "en" and any(
            "a" in self.res.wordnet.lemmas.get(w.lower(), {}) for w in name.split()
        )

    def kind_known(self, kind: str, wanted: str) -> bool:
        """Whether the question or the answer says what kind of name is asked for: a name typed only as
        "other name" by its capitals ("Frontex") takes a distractor of any kind ("Frankfurt") otherwise, and
        WordNet's classes below "other" (songs, languages, names) are too many to tell apart."""
        if self.lang != "en":
            return True
        return wanted != "other" and (kind != "other_name" or wanted != "unknown")

    # what the question becomes
    def frame(self, q: Parsed) -> Frame | Skip:
        return en_frame(q) if self.lang == "en" else zh_frame(q)

    def _fill(self, frame: Frame, entity: str, kind: str) -> str | None:
        return _en_fill(frame, entity, kind) if self.lang == "en" else _zh_fill(frame, entity, kind)

    def statement(
        self, q: Parsed, frame: Frame, distractor: str, kind: str, mutation: Mutation | None = None
    ) -> str | None:
        """The trap sentence: ``frame`` with ``distractor`` (of type ``kind``) in its slot, as the slot holds
        it ("in 1856", "45 touchdowns"), and ``mutation`` applied; None when the distractor does not fit."""
        fill = self._fill(frame, distractor, kind)
        if fill is None:
            return None
        return (
            _render_en(q, frame, fill, mutation)
            if self.lang == "en"
            else _render_zh(q, frame, fill, mutation)
        )

    def _words(self, text: str) -> frozenset[str]:
        """Content words (ContextChunks': no stop words, no single Chinese characters), kept per text: the
        file's pool is compared with every question."""
        if text not in self._word_cache:
            self._word_cache[text] = frozenset(self.chunks._content(text))
        return self._word_cache[text]

    def _name_ok(self, text: str) -> bool:
        """A name fit to put in a sentence. English: every word capitalised but a name's own particles (of,
        the, de), no contraction or coordination ("We've", "Chromecast and Roku"), and a first word that is
        no dictionary word (LemmInflect's lexicon holds no proper nouns): a capitalised common word is most
        often a sentence's first word or an adjective taken for a name ("Polish", "Future", "Like the
        Lombardi Trophy", "Linebacker Luke Kuechly"). Chinese: at least two characters."""
        if self.lang == "zh":
            return len(text) >= 2
        words = text.split()
        if not words or re.search(r"['’&]", text) or "and" in words or len(text) < 3 or text.endswith("."):
            return False  # "St", "Mr."
        if any(not p[:1].isupper() and w not in _NAME_PARTICLES for w in words for p in w.split("-")):
            return False  # "French-styled"
        first = words[0].strip(".,").lower()
        if _lemmas(first) or first in self.finder.stopwords or first in self.res.en_lowercase_words:
            return False  # "Despite Denver", "Pro Bowl", "New Orleans"
        # a lone word WordNet knows as an adjective is a people's or language's name ("British", "Arabic")
        return not (len(words) == 1 and "a" in self.res.wordnet.lemmas.get(first, {}))

    def make(
        self,
        qid: str,
        question: str,
        context: str,
        answers: Sequence[dict],
        pool: EntityPool | None = None,
        parsed: Parsed | None = None,
    ) -> Trap | Skip:
        """The trap for one question (``answers``: SQuAD answers with valid offsets; the first one types the
        answer), or why there is none."""
        if not answers:
            return Skip("no answer")
        answer = answers[0]["text"]
        kind = self.finder.answer_type(answer)
        if kind == "other":
            return Skip("answer of no known entity type")
        q = parsed or parse([question], self.lang, self.ner)[0]
        frame = self.frame(q)
        if isinstance(frame, Skip):
            return frame
        if kind not in frame.types:
            return Skip("question word and answer type disagree")
        if frame.pattern == "subject" and kind in TIME_TYPES:
            return Skip("a time as the subject")  # "2018 resulted in the suspension of ..." (trap reading b)
        if kind == "person" and re.fullmatch(r"\s*\S+\s*是谁[？?]?\s*", question):
            return Skip("who someone is")  # 项昊是谁 -> "吴锦源是陈乔恩": two people said to be one
        rng = rng_for_question(self.seed, qid)
        answer_texts = [a["text"] for a in answers]
        answer_words = frozenset().union(*(self._words(a) for a in answer_texts))
        question_words = self._words(question)
        question_years = re.findall(r"(?<!\d)(?:1\d|20)\d\d(?!\d)", question)
        question_months = set(re.findall(r"(?<!\d)(\d{1,2})月", question))

        wanted = self.wanted_class(frame, answer) if kind in NAME_TYPES else ""
        if kind in NAME_TYPES and not self.kind_known(kind, wanted):
            return Skip("a name of no known kind")
        if kind in NAME_TYPES and self.lang == "zh" and self.zh_kind(answer)[0] == "common":
            return Skip("an answer jieba took for a name")

        def fits(text: str) -> bool:
            words = self._words(text)
            if not words or words & (answer_words | question_words):
                return False  # the answer itself, or a thing the question names
            if re.match(r"0\d", text):
                return False  # "000" of "100 000" cut in two
            if kind in TIME_TYPES and not _near_year(text, answer):
                return False  # "1017" for "1912"
            if kind in NAME_TYPES and (not self._name_ok(text) or not self.class_fits(wanted, text, kind)):
                return False  # a team for a team, a person for a person
            if kind in NAME_TYPES and self.lang == "zh" and not self.zh_names_alike(answer, text, kind):
                return False
            if kind in TIME_TYPES and re.search(r"(?<!\d)(?:1\d|20)\d\d(?!\d)", text) and question_years:
                return False  # "2016年端午节是2003年6月27日": a date of another year contradicts the question
            if (
                kind in TIME_TYPES
                and question_months
                and set(re.findall(r"(?<!\d)(\d{1,2})月", text)) - question_months
            ):
                return False  # "2017年6月六级考试时间是8月10日": a date in another month than the question's
            if kind in TIME_TYPES and _time_shape(text) != _time_shape(answer):
                return False  # "479号" for "4月5日", "716年7月13日" for "2017年6月23日"
            if kind in ("number", "quantity", "money") and not _near(_value(text), _value(answer)):
                return False  # "2013" for a height of 180
            if kind == "number" and self.lang == "zh" and not _zh_number_like(text, answer):
                return False  # "105" for a phone number, "16两", "07"
            if any(_overlaps_text(text, a, self.lang) for a in answer_texts):
                return False
            if kind in NUMERIC_TYPES and _number_form(text) != _number_form(answer):
                return False  # "355" for "4.7", "two million" for "six"
            if kind in ("quantity", "money", "percent") and _unit(text) != _unit(answer):
                return False  # "21.3 ft" for "30.5 °C"
            return self._fill(frame, text, kind) is not None

        # 1. the distractor: an entity of the answer's type in the passage (else in the file), the ones that
        #    look most like the answer first (a year for a year, a two-word name for a two-word name)
        found = self.chunks.distractors(context, answer, answers[0]["answer_start"])
        found = [e for e in found if _whole(context, e)]
        if kind == "person":  # "the Pittsburgh Steelers": a team the entity finder took for a person
            found = [
                e for e in found if not re.search(r"\bthe\s+$", context[max(0, e.start - 4) : e.start], re.I)
            ]
        in_passage = list(dict.fromkeys(_strip_possessive(e.text, self.lang) for e in found))
        in_passage = [t for t in in_passage if fits(t)]
        source = "passage"
        if not in_passage:
            if kind in NAME_TYPES and (kind != "person" or wanted != "person"):
                return Skip("no other name of the answer's kind in the passage")  # only a person is safe
            source = "file"
            in_passage = [
                t
                for t in (pool.by_type.get(kind, []) if pool else [])
                if t not in context
                and (
                    kind not in NAME_TYPES
                    or pool.passages[kind, t] >= 2
                    and _plain_name(t)
                    and self._given_name(t)
                    and not question_years  # "Saul Bellow explored Ohio territory in 1747" (trap reading b)
                )
                and fits(t)
            ]  # a name from another article: one found in two passages at least, plain words, in no year
            if not in_passage:
                return Skip("no distractor of the answer's type")
        best = max(_affinity(answer, t, self.lang) for t in in_passage)
        distractor = rng.choice([t for t in in_passage if _affinity(answer, t, self.lang) == best])
        # 2. the mutation: the trap must not be about what the question asks
        mutation = self._mutation(q, frame, context, answer_texts, distractor, rng, kind)
        if mutation is None:
            return Skip("nothing in the question to change")
        if (kind in TIME_TYPES or kind in NUMERIC_TYPES and mutation.kind == "antonym") and _against(
            mutation, distractor, answer
        ):
            # "the second market opened in 1834" when the first opened in 1835, "Season 3 aired in 2014"
            # after Season 2's 2017 (a blind reading found these absurd): a time on the number's side
            ordered = [t for t in in_passage if not _against(mutation, t, answer)]
            if not ordered:
                return Skip("no time or amount on the change's side of the answer")
            best = max(_affinity(answer, t, self.lang) for t in ordered)
            distractor = rng.choice([t for t in ordered if _affinity(answer, t, self.lang) == best])
        sentence = self.statement(q, frame, distractor, kind, mutation)
        return Trap(sentence, distractor, kind, source, mutation, frame.pattern)

    def _mutation(
        self,
        q: Parsed,
        frame: Frame,
        context: str,
        answers: Sequence[str],
        distractor: str,
        rng: random.Random,
        kind_of_answer: str = "",
    ) -> Mutation | None:
        """One change of the question's words the statement keeps: a number shifted, else an adjective
        replaced by its antonym, else a name by another of its type, shape and kind from the passage (in
        that order of safety: a changed number cannot leave the statement true of what the question asks, a
        name of the wrong kind reads badly)."""
        spans = [p for p in frame.parts if isinstance(p, tuple)]

        def copied(start: int, end: int) -> bool:
            return any(a <= start and end <= b for a, b in spans)

        entities = [e for e in q.entities if copied(e.start, e.end)]
        numbers = []
        for e in entities:
            after = next((t for t in q.tokens if t.start >= e.end), None)
            if e.type == "ordinal" and after is not None and after.tag in ("VBN", "VBD"):
                continue  # "first published" -> "second published" is no English
            if re.search(r"[A-Za-z]", q.text[max(0, e.start - 1) : e.start] + q.text[e.end : e.end + 1]):
                continue  # a model or a product's number ("苹果7128g", "max2017"): another name, not a number
            if e.type != "ordinal" and _rank(e.text) == 1 and kind_of_answer in AMOUNT_TYPES:
                continue  # a rate per one ("一个身份证可以认证几个", "1千焦等于多少大卡"): the answer scales with it
            if e.type in NUMERIC_TYPES and _whole(q.text, e):  # not one end of "2012-13"
                decade = re.fullmatch(r"\d{3}0", e.text) and re.match(r"['’]s\b", q.text[e.end :])
                new = (
                    shift_number(e.text + "s", rng)[:-1] if decade else shift_number(e.text, rng)
                )  # "1950's"
                if new and new != e.text and distractor not in new:
                    numbers.append(Mutation(e.start, e.text, new, "number"))
        if numbers:
            return rng.choice(numbers)
        antonyms = [m for m in self._antonyms(q) if copied(m.start, m.start + len(m.old))]
        if antonyms:
            return rng.choice(antonyms)
        if self.lang == "zh":
            return self._zh_name_mutation(q, entities, context, answers, distractor, rng)
        taken = (
            self._words(q.text)
            | self._words(distractor)
            | frozenset().union(*(self._words(a) for a in answers))
        )
        # Names by their types in the passage, where more context types them ("in San Francisco": a place)
        typed: dict[str, set[str]] = {}
        for p in self.finder.entities(context):
            if p.type in NAME_TYPES:
                typed.setdefault(_strip_possessive(p.text, self.lang), set()).add(p.type)
        names = []
        for e in entities:
            old = _strip_possessive(e.text, self.lang)
            kinds = typed.get(old)
            if e.type not in NAME_TYPES or not kinds or not self._name_ok(old):
                continue
            if self.lang == "en" and (" " not in old or self._adjectival(old)):
                continue  # a lone capitalised word ("MVP", "Warsaw" -> "Russian"): too often of another kind
            options = sorted(
                t
                for t, ks in typed.items()
                if ks == kinds
                and t != old
                and self._name_ok(t)
                and not self._words(t) & taken
                and _name_shape(t) == _name_shape(old)
                and self.name_group(t) == self.name_group(old)
                and not self._adjectival(t)  # "Li Tan" -> "Han Chinese"
            )
            if options:
                names.append(Mutation(e.start, old, rng.choice(options), "entity"))
        return rng.choice(names) if names else None

    def _zh_name_mutation(self, q, entities, context, answers, distractor, rng) -> Mutation | None:
        """Chinese: a name of the question replaced by one of its kind (:meth:`zh_names_alike`) from the
        passage, else, for a place, a common one from its Cilin list ("重庆" -> "广州")."""
        typed: dict[str, set[str]] = {}
        for p in self.finder.entities(context):
            if p.type in NAME_TYPES:
                typed.setdefault(p.text, set()).add(p.type)
        used = [q.text, distractor, *answers]

        def free(t: str) -> bool:
            return not any(t in u or len(set(t) & set(u)) >= 2 for u in used)

        names = []
        for e in entities:
            if e.type not in NAME_TYPES or self.zh_kind(e.text)[0] == "common" or e.type == "other_name":
                continue  # a brand or a title jieba calls nz is too often no name of a kind
            after = q.text[e.end : e.end + 1]
            known = self.res.jieba_flags.get(e.text, "").startswith("nr")  # a name of jieba's dictionary
            if (
                e.type == "person"
                and not known
                and after
                and after not in _ZH_AFTER_NAME
                and not after.isascii()
            ):
                continue  # "赵启|平和谁": a name jieba guessed may be cut short
            options = sorted(
                t
                for t, ks in typed.items()
                if e.type in ks and free(t) and self.zh_names_alike(e.text, t, e.type)
            )
            kind, lists = self.zh_kind(e.text)
            if not options and kind == "proper":
                freq = self.res.jieba_freq
                siblings = {w for code in lists for w in self.res.cilin_groups.get(code, [])}
                options = sorted(
                    w
                    for w in siblings
                    if freq.get(w, 0) >= 1000 and free(w) and self.zh_names_alike(e.text, w, e.type)
                )
            if options:
                names.append(Mutation(e.start, e.text, rng.choice(options), "entity"))
        return rng.choice(names) if names else None

    def _antonyms(self, q: Parsed) -> list[Mutation]:
        out = []
        if self.lang == "en":
            from lemminflect import getInflection, getLemma

            for t in q.tokens:
                if t.tag not in ("JJ", "JJR", "JJS") or not t.text.isalpha() or not t.text.islower():
                    continue
                if t.text.lower() in _NO_ANTONYM:
                    continue
                lemma = (getLemma(t.text, "ADJ") or (t.text,))[0]
                for other in self.res.wordnet_first_antonyms.get((lemma, "a"), []):
                    if " " in other or self.res.en_word_freq.get(other, 0) < 200:
                        continue  # "unbroken", "unfavourable": rare words read as made up
                    new = other if t.tag == "JJ" else (getInflection(other, t.tag) or (None,))[0]
                    if new and self.res.en_word_freq.get(new, 0) >= 5:  # "earliest" -> "middlest" is none
                        out.append(Mutation(t.start, t.text, new, "antonym"))
                        break
        else:
            # the antonym list is loose ("一般" / "专科") and a one-character adjective is often part of a name
            # ("志高空调"): only common opposites, as a superlative (最高) or before 的
            for i, t in enumerate(q.tokens):
                word = t.text
                before = q.tokens[i - 1].text if i else ""
                after = q.tokens[i + 1].text if i + 1 < len(q.tokens) else ""
                if word in _ZH_OPPOSITES and (
                    word.startswith("最") or before in ("最", "更", "很", "比较") or after == "的"
                ):
                    out.append(Mutation(t.start, word, _ZH_OPPOSITES[word], "antonym"))
        return out

    # where the trap goes
    def insert(self, context: str, answers: Sequence[dict], sentence: str, position: str,
               plausible: Sequence[dict] | None = None) -> Inserted | Skip:  # fmt: skip
        """``context`` with ``sentence`` put in at ``position`` ("end": after the passage, as AddSent;
        "before_answer": right before the sentence holding the first answer), answer offsets shifted."""
        from paraguide.text.chunks import sentences

        if position == "end":
            if self.lang == "en":
                sep = "" if not context or context[-1].isspace() else " "
            else:
                sep = "" if not context or context[-1] in _ZH_END or context[-1].isspace() else "。"
            at, text = len(context), sep + sentence
            offset = at + len(sep)
        elif position == "before_answer":
            first = answers[0]["answer_start"]
            at = next((s for s, e in sentences(context, self.lang) if s <= first < e), None)
            if at is None:
                return Skip("the answer's sentence was not found")
            text = sentence + (" " if self.lang == "en" else "")
            offset = at
        else:
            raise ValueError(f"position must be one of {', '.join(POSITIONS)}, not {position!r}")
        new_context = context[:at] + text + context[at:]

        def shift(items: Sequence[dict]) -> list[dict] | Skip:
            out = []
            for a in items:
                start, length = a["answer_start"], len(a["text"])
                if start < at < start + length:
                    return Skip("an answer spans the trap's place")
                moved = {**a, "answer_start": start + len(text) if start >= at else start}
                if new_context[moved["answer_start"] : moved["answer_start"] + length] != a["text"]:
                    raise RuntimeError(f"answer {a['text']!r} lost its offset after the trap was put in")
                out.append(moved)
            return out

        shifted = shift(answers)
        if isinstance(shifted, Skip):
            return shifted
        other = None
        if plausible is not None:
            other = shift(plausible)
            if isinstance(other, Skip):
                return other
        return Inserted(new_context, offset, shifted, other)

    # Algorithm 1, selection only
    def same_type_count(self, context: str, answers: Sequence[dict]) -> tuple[str, int]:
        """The answer's type and m, the number of distinct entities of that type in the passage, the answer
        counted once ("1 < m < k" keeps the question)."""
        answer = answers[0]["text"]
        kind = self.finder.answer_type(answer)
        if kind == "other":
            return kind, 0
        others = {e.text for e in self.chunks.distractors(context, answer, answers[0]["answer_start"])}
        return kind, 1 + len(others)


def _zh_person(name: str) -> bool:
    """A Chinese person's name: a common surname and one to three characters more, no title or title word
    at the end ("朱先生", "杨凌传")."""
    return 2 <= len(name) <= 4 and name[0] in _ZH_SURNAMES and not name.endswith(_ZH_TITLES)


def _strip_possessive(text: str, lang: str) -> str:
    """A name without its possessive ("Manning's" -> "Manning", "Panthers'" -> "Panthers")."""
    return re.sub(r"(?:['’]s|(?<=s)['’])$", "", text) if lang == "en" else text


def _name_shape(text: str) -> tuple:
    """Words and their kind (acronym, capitalised, other): a name replaces one of the same shape."""
    return tuple("A" if w.isupper() and len(w) > 1 else "C" if w[:1].isupper() else "o" for w in text.split())


def _affinity(answer: str, candidate: str, lang: str) -> int:
    """How much a distractor looks like the answer: the same pattern of digits ("1856" for "1848", not
    "56.6" for "45") and the same other words ("30 yards" for "45 yards"), the same number of words and
    capitalisation for names."""

    def digits(t: str) -> str:
        return re.sub(r"\d", "9", re.sub(r"[^\d.,]", "", t))

    score = 0
    scale = re.compile(r"\b(?:hundred|thousand|million|billion|trillion)\b", re.IGNORECASE)
    if bool(re.search(r"\d", answer)) != bool(re.search(r"\d", candidate)):
        score -= 3  # "two million" for "6": words for digits
    if bool(scale.search(answer)) != bool(scale.search(candidate)):
        score -= 3
    if re.search(r"\d", answer) or re.search(r"\d", candidate) or _value(answer) is not None:
        score += 2 * (digits(answer) == digits(candidate))
        score += len(digits(answer)) == len(digits(candidate))
        letters = lambda t: re.sub(r"[\d.,\s]+", " ", t).strip().lower()  # noqa: E731
        score += letters(answer) == letters(candidate)
        a, c = _value(answer), _value(candidate)
        if a is not None and c is not None:  # near in value: 1862 for 1856, not 1806; 30 for 45, not 3,000
            score += (
                abs(a - c) <= 30 if 1000 <= a <= 2100 and 1000 <= c <= 2100 else 0.2 <= c / max(a, 1e-9) <= 5
            )
    if lang == "en":
        score += len(answer.split()) == len(candidate.split())
        score += _name_shape(answer) == _name_shape(candidate)
    else:
        score += abs(len(answer) - len(candidate)) <= 1
    return score


_SCALE = re.compile(r"\b(?:hundred|thousand|million|billion|trillion)\b|[万亿]", re.IGNORECASE)


def _rank(text: str) -> float | None:
    """A number's rank for ordering: its digits, or an English number word or ordinal, or a Chinese
    digit."""
    if m := re.search(r"\d[\d,]*", text):
        return float(m.group(0).replace(",", ""))
    low = text.lower()
    for words in (["one", *_NUMBER_WORDS], _ORDINAL_WORDS):
        for i, w in enumerate(words):
            if re.search(rf"\b{w}\b", low):
                return float(i + 1)
    zh = [_ZH_NUMERALS[c] for c in text if c in _ZH_NUMERALS]
    return float(zh[-1]) if zh else None


# Antonyms that say which way in time the changed question points ("the last addition" -> "the earliest").
_EARLIER = frozenset({"earliest", "earlier", "first", "oldest", "older", "previous", "former", "initial"})
_LATER = frozenset({"latest", "later", "last", "newest", "newer", "next", "recent", "final", "most recent"})
# ... and which way in amount ("最多能发200元" -> "最少能发390元", "the largest note" -> "the smallest": less)
_LESS = frozenset({"least", "fewest", "smallest", "lowest", "shortest", "minimum", "cheapest", "最少", "最小",
                   "最低", "最短", "最便宜", "下限", "至少"})  # fmt: skip
_MORE = frozenset({"most", "largest", "biggest", "highest", "longest", "maximum", "dearest", "最多", "最大",
                   "最高", "最长", "最贵", "上限", "最多能"})  # fmt: skip


def _against(mutation: Mutation, distractor: str, answer: str) -> bool:
    """Whether the time or amount ``distractor`` lies on the other side of ``answer`` from where the change
    points (season 2 -> 3 but 2017 -> 2014; "last" -> "earliest" but 1726 -> 1728; 最多 -> 最少 but 200元 ->
    390元): later numbers, later times; "most" more, "least" less."""
    a, d = _value(answer), _value(distractor)
    if mutation.kind == "number":
        old, new = _rank(mutation.old), _rank(mutation.new)
        later = None if old is None or new is None or old == new else new > old
    else:
        old_word, new_word = mutation.old.lower(), mutation.new.lower()
        later = (
            True if old_word in _EARLIER | _LESS and new_word in _LATER | _MORE
            else False if old_word in _LATER | _MORE and new_word in _EARLIER | _LESS
            else None
        )  # fmt: skip
    if later is None or a is None or d is None or a == d:
        return False
    return later != (d > a)


def _time_shape(text: str) -> str:
    """A time by its parts ("2017年4月5日" -> "Y年9月9日", "1856" -> "Y"): a year of four digits (1000 to
    2099) reads Y, other numbers 9."""
    shape = re.sub(r"(?<!\d)(?:1\d|20)\d\d(?!\d)", "Y", text)
    return re.sub(r"\d+", "9", shape)


def _zh_number_like(text: str, answer: str) -> bool:
    """A Chinese number distractor: digits (no leading zero) with at most 万 / 亿 after them, or Chinese
    numerals; as many digits as the answer's number, give or take one."""
    if re.fullmatch(r"[一二三四五六七八九十两百千万亿]+", text):
        return not re.search(r"[一二三四五六七八九两]{2}", text)  # "五五", "两三": no number
    if not re.fullmatch(r"[1-9][\d.]*[万亿]?", text):
        return False
    digits = lambda t: len(re.sub(r"\D", "", t.split(".")[0]))  # noqa: E731
    return abs(digits(text) - digits(answer)) <= 1


def _near_year(a: str, b: str) -> bool:
    """Two times whose years (when both hold one) are at most 10 years apart ("欢乐颂3" aired in 1996?)."""
    ya = re.search(r"(?<!\d)(?:1\d|20)\d\d(?!\d)", a)
    yb = re.search(r"(?<!\d)(?:1\d|20)\d\d(?!\d)", b)
    return not (ya and yb) or abs(int(ya.group(0)) - int(yb.group(0))) <= 10


def _near(a: float | None, b: float | None) -> bool:
    """Two amounts within a factor of ten of each other (or one of them unknown)."""
    if a is None or b is None or a <= 0 or b <= 0:
        return True
    return 0.1 <= a / b <= 10


def _unit(text: str) -> str:
    """The words and signs of an amount other than its number ("$ million", "yards", "%")."""
    return " ".join(re.sub(r"[\d.,]+", " ", _SCALE.sub(" ", text)).lower().split())


def _number_form(text: str) -> tuple[bool, bool, bool]:
    """Digits or words, a decimal point, a scale word: numbers of one form read alike ("45" and "30",
    "$1.2 million" and "$3.5 million")."""
    return (bool(re.search(r"\d", text)), bool(re.search(r"\d\.\d", text)), bool(_SCALE.search(text)))


_ZH_NUMERALS = {"零": 0, "〇": 0, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
                "九": 9}  # fmt: skip
_ZH_SCALES = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}


def _zh_numeral_value(text: str) -> float | None:
    """The value of a Chinese numeral at the start of ``text`` ("三个" 3, "五千" 5000, "十五次" 15)."""
    m = re.match(r"[零〇一两二三四五六七八九十百千万亿]+", text)
    if not m:
        return None
    total, section, digit = 0, 0, 0
    for ch in m.group(0):
        if ch in _ZH_NUMERALS:
            digit = _ZH_NUMERALS[ch]
        elif ch in ("万", "亿"):
            total = (total + section + digit) * _ZH_SCALES[ch]
            section = digit = 0
        else:
            section += (digit or 1) * _ZH_SCALES[ch]
            digit = 0
    return float(total + section + digit)


_SCALES = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "万": 1e4,
           "亿": 1e8}  # fmt: skip


def _value(text: str) -> float | None:
    """The amount ``text`` states, with its scale word ("$230 million": 2.3e8, "10089亿元": 1.0089e12); a
    date by its year."""
    year = re.search(r"(?<![\d.,])(?:1\d{3}|20\d{2})(?![\d.,])", text)
    if year and not re.fullmatch(r"\s*\d{4}s?\s*", text) and not re.search(r"[万亿]|illion", text):
        return float(year.group(0))
    m = re.search(r"\d[\d,]*(?:\.\d+)?\s*(hundred|thousand|[mbtr]illion|万|亿)?", text, re.IGNORECASE)
    if m:
        number = float(re.match(r"[\d,.]+", m.group(0)).group(0).replace(",", "").rstrip("."))
        return number * _SCALES.get((m.group(1) or "").lower(), 1.0)
    words = ["one", *_NUMBER_WORDS]
    first = text.lower().split()[0] if text.split() else ""
    return float(words.index(first) + 1) if first in words else _zh_numeral_value(text)


def _plain_name(name: str) -> bool:
    """Capitalised words of letters ("Jim Gray", "Jean-Pierre Rampal", "J. Smith"), not "Köppen BSh" or
    "Ralph Nelson-directed Charly"."""
    for word in name.split():
        for part in word.split("-"):
            if not (part[:1].isupper() and (part[1:].isalpha() and part[1:].islower() or part[1:] == ".")):
                return False
    return True


def _whole(text: str, e: Entity) -> bool:
    """Whether an entity is a whole name, not the end of "Polish–Lithuanian Commonwealth" or the start of
    "Kraków-born"."""
    before = text[e.start - 1 : e.start]
    after = text[e.end : e.end + 1]
    return before not in ("-", "–", "—", "/") and after not in ("-", "–", "—", "/")


def _overlaps_text(a: str, b: str, lang: str) -> bool:
    from paraguide.text.match import contains

    return contains(a, b, lang) or contains(b, a, lang)


# Evaluation ---------------------------------------------------------------------------------------------


def trap_hits(predictions: dict[str, str], traps: str | Iterable[dict], lang: str = "en") -> dict:
    """How often predictions on the trap set land on the trap: the normalised prediction equals, contains or
    is contained in the trap's distractor (SQuAD normalisation; English by whole words, Chinese by
    characters with at least 2 of them in common). ``traps``: traps.jsonl's path or its records.

    Returns ``traps`` (in the file), ``predicted`` (of them with a prediction), ``hits``, ``rate`` (hits per
    predicted trap, a percentage like the other scores), ``by_type`` (the same per distractor type) and
    ``hit_ids``."""
    from paraguide.evaluate.metrics import normalize_answer

    if isinstance(traps, str) or hasattr(traps, "__fspath__"):
        from paraguide.data.io import read_jsonl

        traps = [record for _, record in read_jsonl(traps)]
    total, predicted, hits, hit_ids = 0, 0, 0, []
    by_type: dict[str, dict[str, int]] = {}
    for record in traps:
        total += 1
        qid = str(record["id"])
        if qid not in predictions:
            continue
        predicted += 1
        row = by_type.setdefault(record.get("type", "unknown"), {"predicted": 0, "hits": 0})
        row["predicted"] += 1
        pred = normalize_answer(predictions[qid] or "", lang)
        dist = normalize_answer(record["distractor"], lang)
        if _hit(pred, dist, lang):
            hits += 1
            row["hits"] += 1
            hit_ids.append(qid)
    for row in by_type.values():
        row["rate"] = round(100 * row["hits"] / row["predicted"], 2) if row["predicted"] else 0.0
    return {
        "traps": total,
        "predicted": predicted,
        "hits": hits,
        "rate": round(100 * hits / predicted, 2) if predicted else 0.0,
        "by_type": dict(sorted(by_type.items())),
        "hit_ids": hit_ids,
    }


def _hit(pred: str, dist: str, lang: str) -> bool:
    if not pred or not dist:
        return False
    if pred == dist:
        return True
    if lang == "zh":
        short, long = sorted((pred, dist), key=len)
        return len(short) >= 2 and short in long
    return f" {dist} " in f" {pred} " or f" {pred} " in f" {dist} "
