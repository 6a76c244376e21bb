"""English statements from questions: the frame of a question (which words stay, where the distractor goes,
which answer types fit) and the statement rendered from it, by rules for the common question shapes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from paraguide.perturb.base import Parsed, Skip
from paraguide.perturb.trap.records import NUMERIC_TYPES, SLOT, TIME_PREP, TIME_TYPES, Frame, Mutation
from paraguide.text.entities import NAME_TYPES
from paraguide.text.pos import TaggedToken

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
