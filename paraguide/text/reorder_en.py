"""The English rules of :mod:`paraguide.text.reorder` (NLTK's POS tags): ``RULES``, in the order they run.

- ``adjunct_to_end``: a fronted phrase goes after the question: "At the time of its formation, how many
  congregations did the UMC have?" -> "How many congregations did the UMC have at the time of its formation?"
- ``time_to_front``: a closing time phrase goes first: "What did Tesla develop in 1887?" -> "In 1887, what
  did Tesla develop?" (only times -- years, decades, centuries --, since a place or another phrase at the end
  may belong to the noun before it: "an interest in Tesla").
- ``when_to_front``: "What did Edison offer Tesla after completing the project?" -> "After completing the
  project, what did Edison offer Tesla?" (after, before, during ... following the verb or its object).
- ``strand_preposition``: "Of what material were the pellets made?" -> "What material were the pellets made
  of?"; "In what year was it built?" -> "What year was it built?" (a year, a month, a day need no "in").
- ``wh_to_front``: a question word left in place goes first: "The Normans conquered which country?" ->
  "Which country did the Normans conquer?", "Most schools are members of what group?" -> "What group are
  most schools members of?"
- ``name_called``: "What was the name of the first Huguenot outpost?" -> "What was the first Huguenot outpost
  called?"
- ``why_reason``: "Why did the Normans invade England?" -> "For what reason did the Normans invade England?"
- ``how_way``: "How did the Mongols acquire printing?" -> "In what way did the Mongols acquire printing?"
  (a manner: before "do" or a modal and a verb, or "be" and a passive participle).
- ``of_possessive``: "What was the population of Kenya in 2014?" -> "What was Kenya's population in 2014?"
  (a listed noun a name has -- population, leader, founder --, the name closing the phrase).
- ``who_agent``: "Who won Super Bowl 50?" -> "Who was the winner of Super Bowl 50?" (a listed verb with a
  noun for its doer, a definite object and nothing after it but a year).
- ``where_located``: "Where is the Kuiper Belt located?" -> "What is the location of the Kuiper Belt?".
- ``year_when``: "In what year did Tesla die?" -> "When did Tesla die?" (the year stays a right answer).
- ``wh_relative``: "Which NFL team won Super Bowl 50?" -> "What was the NFL team that won Super Bowl 50?",
  "What company did he work for?" -> "What was the company that he worked for?" ("Who" for people; not a
  time, a place or an of-phrase: "the year that", "the type of engine that").
- ``prep_relative``: "In what city did Tesla live?" -> "What was the city in which Tesla lived?" (not a time:
  "the year in which" reads stilted).
- ``indirect``: "When did the Warsaw Uprising begin?" -> "Can you tell me when the Warsaw Uprising began?",
  "What was the theme of Super Bowl 50?" -> "Do you know what the theme of Super Bowl 50 was?" (the frame by
  the question's checksum). It fits nearly every question, so the generator takes it only where no other
  candidate passes but a question-word swap: a fallback, not a first choice.

Not the other way round for possessives: "the first president of Kenya" reads well, but "the job of Brown"
and "the motor of Tesla" do not, and no tag tells them apart (readers: 67-77 %, readings 2026-11-26,
2026-11-27c and d).
"""

from __future__ import annotations

import itertools
import re
import zlib

from paraguide.text.pos import TaggedToken

_WH = {"what", "which", "who", "whom", "whose", "when", "where", "why", "how"}
_BE = {"is", "are", "was", "were"}
_DO = {"do", "does", "did"}
_MODAL = {"can", "could", "will", "would", "shall", "should", "may", "might", "must"}
_HAVE = {"has", "have", "had"}
_AUX = _BE | _DO | _MODAL | _HAVE
_NOUN = {"NN", "NNS", "NNP", "NNPS"}
_CLOSED_TAGS = {"DT", "PDT", "PRP", "PRP$", "WP", "WDT", "WRB", "IN", "EX", "CC", "TO", "MD"}
# Prepositions whose object a question word can leave behind at the end ("What were they made of?").
# "During", "since", "despite" ... are not stranded in speech.
_STRANDABLE = {"in", "on", "at", "from", "to", "for", "with", "by", "of", "into", "about", "through", "under"}
# Nouns of time that take no preposition as a question phrase: "In what year" = "What year".
_TIME_NOUNS = {"year", "years", "century", "decade", "month", "day", "date", "season", "era", "period"}
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
}  # fmt: skip
_TIME_PREPOSITIONS = {"in", "during", "after", "before", "since", "by", "until", "around"}
# Words that open a clause inside the question: a phrase after one may belong to it, so nothing moves.
_CLAUSE_WORDS = {
    "that", "which", "who", "whom", "whose", "where", "when", "while", "because", "if", "as", "although",
    "though", "whether",
}  # fmt: skip


def _text(q: str, toks: list[TaggedToken], i: int, j: int) -> str:
    """The question's own characters from token ``i`` to token ``j`` (exclusive)."""
    return q[toks[i].start : toks[j - 1].end] if j > i else ""


def _lower_first(text: str, toks: list[TaggedToken]) -> str:
    """``text`` (which starts with ``toks[0]``) without the capital of its first word, unless that word may be
    a name: tagged one ("Tesla", "UMC"), unknown to lemminflect's dictionary ("Huguenots"), or the first of
    a capitalised or numbered run ("Apollo 17", "Civil Disobedience")."""
    from lemminflect import getAllLemmas

    word = toks[0].text
    after = toks[1] if len(toks) > 1 else None
    if word != "I" and (word.lower() in _WH or toks[0].tag in _CLOSED_TAGS):
        return text[:1].lower() + text[1:]  # "What", "The", "Some", "It"
    if (
        toks[0].tag in ("NNP", "NNPS")
        or word == "I"
        or word[1:2].isupper()
        or not getAllLemmas(word.lower())
        or after is not None
        and (after.text[:1].isupper() or after.tag == "CD")
    ):
        return text
    return text[:1].lower() + text[1:]


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _question(toks: list[TaggedToken]) -> bool:
    """One sentence that ends in a single question mark."""
    return len(toks) >= 4 and toks[-1].text == "?" and all(t.text not in '?!;:"' for t in toks[:-1])


_KIND_NOUNS = {"kind", "kinds", "type", "types", "sort", "sorts", "form", "forms"}


def _wh_phrase_end(toks: list[TaggedToken], i: int) -> int:
    """End of the question phrase at ``i``: "what", "which (big) country", "how many (old) ships", "what
    kind of tree"."""
    word = toks[i].text.lower()
    j = i + 1
    if word == "how":
        if j < len(toks) and toks[j].text.lower() in ("many", "much"):
            j += 1
        elif j < len(toks) and toks[j].tag.startswith(("JJ", "RB")):
            return j + 1  # "how long", "how far"
        else:
            return j
    if word in ("what", "which", "whose", "how"):
        while (
            j < len(toks)
            and j - i < 4
            and (toks[j].tag in ("JJ", "JJS", "JJR", "CD", "VBN") or _participle_before_noun(toks, j))
        ):
            j += 1
        # "types" is a noun here whatever the tagger says ("What types/VBZ of diseases are ...": read as a
        # verb, the question phrase would be "what" and its clause kept inverted, reading 2026-12-06h)
        while j < len(toks) and (toks[j].tag in _NOUN or toks[j].text.lower() in _KIND_NOUNS):
            j += 1
        if j + 1 < len(toks) and toks[j].text.lower() == "of" and toks[j - 1].text.lower() in _KIND_NOUNS:
            j = _nominal_end(toks, j + 1)
    return j


def _participle_before_noun(toks: list[TaggedToken], j: int) -> bool:
    """A word tagged a past-tense verb that modifies the noun after it: "how many extended/VBD metropolitan
    areas are there" (a subject question's verb has no noun and then a verb after it: "how many died in")."""
    word = toks[j].text.lower()
    if toks[j].tag != "VBD" or word in _AUX or j + 1 >= len(toks) or toks[j + 1].tag not in {"JJ"} | _NOUN:
        return False  # "what did/VBD Luther consider": the auxiliary
    k = _nominal_end(toks, j + 1)
    return k < len(toks) and toks[k].tag.startswith(("VB", "MD"))


def _nominal_end(toks: list[TaggedToken], k: int) -> int:
    """The end of the adjectives and nouns from ``k`` on."""
    while k < len(toks) and (toks[k].tag == "JJ" or toks[k].tag in _NOUN):
        k += 1
    return k


_PRONOUNS = frozenset(("he", "him", "she", "her", "it", "they", "them"))
_POSSESSIVES = frozenset(("his", "its", "their"))


def _adjunct_to_end(q: str, toks: list[TaggedToken]) -> str | None:
    """A phrase before the question's one comma goes after it ("Besides X, what ...?" -> "What ... besides
    X?"), when what follows the comma is a question of its own."""
    if not _question(toks):
        return None
    commas = [k for k, t in enumerate(toks) if t.text == ","]
    if len(commas) != 1 or not 2 <= commas[0] <= 12:
        return None
    c = commas[0]
    first = toks[0]
    if first.text.lower() in _WH or first.tag not in ("IN", "RB", "VBG", "TO"):
        return None  # "What, if anything, ..." / a name and an apposition
    if first.text.lower() in ("of", "although", "though", "along"):
        # "Of Warsaw's inhabitants, what percentage ...": the phrase belongs to the question word; "... along
        # with Germany and Switzerland?" at the end reads awkward (reading 2026-11-27zh)
        return None
    rest = toks[c + 1]
    if rest.text.lower() not in _WH | _AUX:
        return None  # "In 1990, the team won what?": the rest is no question of its own
    if any(t.text.lower() in _CLAUSE_WORDS | {"before", "after", "until"} for t in toks[c + 2 :]):
        return None  # "... before the final stadium was chosen in 2012?": the phrase would join that clause
    if any(t.tag.startswith("NN") for t in toks[:c]) and _pronoun_before_a_noun(toks[c + 1 :]):
        # "Because word order is flexible in Czech, what does it tend to be used for?": moved after the
        # pronoun, the noun it refers to comes too late (reading 2026-12-07b)
        return None
    head = _text(q, toks, c + 1, len(toks) - 1)
    adjunct = _lower_first(_text(q, toks, 0, c), toks)
    return f"{_upper_first(head)} {adjunct}?"


def _pronoun_before_a_noun(toks: list[TaggedToken]) -> bool:
    """Whether a pronoun in ``toks`` may stand for a noun that comes only after it: a personal pronoun ("what
    direction does it flow"), or a possessive with no noun before it ("how do boarding schools cover their
    costs" has one)."""
    for k, t in enumerate(toks):
        word = t.text.lower()
        if word in _PRONOUNS:
            return True
        if word in _POSSESSIVES and not any(u.tag.startswith("NN") for u in toks[:k]):
            return True
    return False


def _time_phrase_start(toks: list[TaggedToken]) -> int | None:
    """Start of a closing time phrase ("in 1887", "during the 1990s", "in the 19th century", "in May
    1990"), or None."""
    end = len(toks) - 1
    for start in range(end - 1, max(0, end - 6), -1):
        if toks[start].text.lower() not in _TIME_PREPOSITIONS:
            continue
        words = [t.text.lower() for t in toks[start + 1 : end]]
        if not words:
            return None
        year = lambda w: w.isdigit() and len(w) == 4 and 1000 <= int(w) <= 2099  # noqa: E731
        decade = lambda w: w.endswith("s") and w[:-1].isdigit() and len(w) == 5  # noqa: E731
        if len(words) == 1 and year(words[0]):
            return start
        if words[0] == "the" and len(words) == 2 and decade(words[1]):
            return start
        if words[0] == "the" and words[-1] in ("century", "centuries") and 3 <= len(words) <= 4:
            return start
        if len(words) in (2, 3) and words[0] in _MONTHS and year(words[-1]):
            return start
        return None
    return None


def _time_to_front(q: str, toks: list[TaggedToken]) -> str | None:
    """A closing year, decade or century goes first, in a question with no clause it could belong to."""
    if not _question(toks) or toks[0].text.lower() not in _WH:
        return None
    if any(t.text == "," for t in toks) or any(t.text.lower() in _CLAUSE_WORDS for t in toks[1:]):
        return None  # the time may belong to a clause inside: "the company that was founded in 1990"
    if sum(t.tag.startswith("VB") or t.tag == "MD" for t in toks) > 3:
        return None
    start = _time_phrase_start(toks)
    if start is None or start < 3:
        return None
    if any(t.text.lower() in _MONTHS | {"of"} for t in toks[start - 3 : start]):
        return None  # "on the 20th of October in 1880": one date, not two phrases
    if any(toks[k].tag == "VBN" and toks[k - 1].tag in _NOUN for k in range(2, start)):
        return None  # "the song released in 1988", "the program debuted by ABC in 1966": the participle's
    time = _upper_first(_text(q, toks, start, len(toks) - 1))
    head = _lower_first(_text(q, toks, 0, start), toks)
    return f"{time}, {head}?"


# Prepositions and subordinators of time whose phrase or clause can open a question as well as close it.
_WHEN_WORDS = {"after", "before", "during", "following", "upon", "throughout"}
_DEGREE = {"shortly", "immediately", "soon", "just", "right", "long", "well", "directly", "even", "only"}
# Verbs with which "after" / "before" is no time: order ("came after", "followed"), place ("appeared before
# the court", "went before"), naming ("named after"), wanting or resembling ("sought after", "took after").
_NOT_TIME_VERBS = {
    "come", "go", "follow", "precede", "succeed", "appear", "stand", "bring", "testify", "present", "name",
    "call", "rank", "place", "put", "list", "argue", "plead", "kneel", "bow", "seek", "look", "take",
}  # fmt: skip


def _verb_lemma(word: str) -> str:
    from lemminflect import getLemma

    lemmas = getLemma(word.lower(), upos="VERB")
    return lemmas[0] if lemmas else word.lower()


def _when_to_front(q: str, toks: list[TaggedToken]) -> str | None:
    """ "What did Edison offer Tesla after completing the project?" -> "After completing the project, what did
    Edison offer Tesla?": a closing phrase of time goes first, when it follows the verb (or its object) and
    so belongs to the whole question, not to a noun ("Luther's view of the soul after death" stays)."""
    if not _question(toks) or toks[0].text.lower() not in _WH or any(t.text == "," for t in toks):
        return None
    if toks[0].text.lower() == "when":
        return None  # "When did Luther appear before the Diet of Worms?": a time asked of a time
    starts = [k for k, t in enumerate(toks) if t.text.lower() in _WHEN_WORDS and k >= 3]
    if len(starts) != 1 or not 2 <= len(toks) - 1 - starts[0] <= 8:
        return None
    start = starts[0]
    if toks[start - 1].text.lower() in _DEGREE and start > 3:
        start -= 1  # "shortly after Lenin's death" moves whole, or "shortly" is left at the end
    verbs = [t for t in toks[:start] if t.tag.startswith("VB")]
    if verbs and _verb_lemma(verbs[-1].text) in _NOT_TIME_VERBS:
        return None  # "came after the Yuan", "appeared before the Diet", "named after": not a time
    head, tail = toks[:start], toks[start + 1 : -1]
    if tail[0].text.lower() in _CLAUSE_WORDS or toks[starts[0] + 1].tag == "IN":
        return None  # "sought after as they were ...", "agree upon at Sirmium": no phrase of time
    if any(t.text.lower() in _CLAUSE_WORDS | {"to"} for t in head[1:]) or any(
        t.text.lower() in _WH for t in tail
    ):
        return None  # "... to have their ad shown during Super Bowl 50": the phrase may be the inner clause's
    before = toks[start - 1]
    object_after_verb = before.tag in ("NNP", "NNPS", "PRP") and toks[start - 2].tag.startswith("VB")
    if not (before.tag.startswith("VB") or before.tag in ("RP", "RB") or object_after_verb):
        return None  # a noun before it may own the phrase
    if before.tag in ("VBN", "VBG") and (toks[start - 2].tag in _NOUN or toks[start - 2].tag == "CC"):
        return None  # "the ad shown during the game", "a commercial lasting 30 seconds and airing during ..."
    when = _upper_first(_text(q, toks, start, len(toks) - 1))
    return f"{when}, {_lower_first(_text(q, toks, 0, start), toks)}?"


def _strand_preposition(q: str, toks: list[TaggedToken]) -> str | None:
    """ "Of what material were they made?" -> "What material were they made of?" ("In what year" -> "What
    year": a time needs no preposition)."""
    if not _question(toks) or len(toks) < 5:
        return None
    prep = toks[0].text.lower()
    if (
        toks[0].tag != "IN"
        or prep not in _STRANDABLE - {"about"}
        or toks[1].text.lower() not in ("what", "which", "whom")
    ):
        return None
    end = _wh_phrase_end(toks, 1) if toks[1].text.lower() != "whom" else 2
    if end >= len(toks) - 1 or toks[end].text.lower() not in _AUX:
        return None  # "In what way the ..." : no question clause after the phrase
    if toks[-2].tag in ("IN", "TO", "RP") or any(t.text == "," for t in toks):
        return None  # a preposition at the end already, or a comma this rule does not own
    if any(t.text.lower() in _CLAUSE_WORDS | {"to"} for t in toks[end:]):
        return None  # "... avoid crimes while protesting for?": the preposition would close another clause
    if any(t.tag == "IN" or t.text.lower() == prep for t in toks[max(end, len(toks) - 5) : -1]):
        return None  # "... read from during this stream of images from?": a closing phrase already
    if prep == "of" and toks[-2].tag != "VBN":
        return None  # "made of", "composed of"; not "Of what form do they take?"
    wh = "Who" if toks[1].text.lower() == "whom" else _upper_first(_text(q, toks, 1, end))
    rest = _text(q, toks, end, len(toks) - 1)
    if prep in ("in", "on") and toks[end - 1].text.lower() in _TIME_NOUNS and toks[1].text.lower() != "whom":
        return f"{wh} {rest}?"  # "In what year was it built?" -> "What year was it built?"
    return f"{wh} {rest} {prep}?"


def _wh_to_front(q: str, toks: list[TaggedToken]) -> str | None:
    """A question word at the end of a statement ("X did Y to what?") goes first, the verb inverted."""
    if not _question(toks) or toks[0].text.lower() in _WH or toks[0].tag in ("IN", "RB", "CC"):
        return None
    if any(t.text == "," for t in toks):
        return None
    whs = [k for k, t in enumerate(toks) if t.text.lower() in ("what", "which", "who", "whom")]
    if len(whs) != 1:
        return None
    w = whs[0]
    if _wh_phrase_end(toks, w) != len(toks) - 1:
        return None  # the question phrase must close the question
    before = toks[w - 1]
    if before.tag == "POS" or before.text.endswith("'"):
        return None  # "one of committees' what?"
    if before.tag == "IN" and before.text.lower() not in _STRANDABLE:
        return None  # "produced during which period?" -> "... produced during?" is not said
    if before.tag == "IN" and toks[w - 2].tag == "VBN" and toks[w - 3].tag in _NOUN:
        return None  # "a play made by whom?" -> "Who was Antigone a play made by?"
    # The finite verb: the first be / modal / do / have by its form, else the first tagged finite verb.
    verb = next(
        (k for k in range(1, w) if toks[k].text.lower() in _BE | _MODAL | _DO | _HAVE),
        next((k for k in range(1, w) if toks[k].tag in ("VBD", "VBZ", "VBP")), None),
    )
    if verb is None:
        return None
    subject = toks[:verb]
    if any(
        t.tag.startswith("VB")
        and t.tag not in ("VBN", "VBG")
        or t.tag == "MD"
        or t.text.lower() in _CLAUSE_WORDS
        for t in subject
    ):
        return None
    if toks[w - 1].tag == "CC":
        return None  # "... run into niceties and what other problem?": one of two objects
    middle = toks[verb + 1 : w]
    if any(t.tag in ("MD", "VBZ", "VBD", "VBP") or t.text.lower() in _CLAUSE_WORDS | {"to"} for t in middle):
        return None  # a second clause between the verb and the question word
    word = toks[verb].text.lower()
    wh_text = _text(q, toks, w, len(toks) - 1)
    if toks[w].text.lower() == "whom":
        wh_text = "who"
    subj = _lower_first(_text(q, toks, 0, verb), toks)
    mid = _text(q, toks, verb + 1, w)
    if word in _BE | _MODAL | _DO or (word in _HAVE and any(t.tag == "VBN" for t in middle)):
        if len(middle) > 6:
            return None
        parts = [_upper_first(wh_text), toks[verb].text, subj, mid]
    else:
        from lemminflect import getLemma

        # A lexical verb needs "do": only for a direct object or a preposition's object right after it.
        if len(middle) > 1 or (middle and middle[0].tag not in ("IN", "RP")):
            return None
        if middle and middle[0].text.lower() not in _STRANDABLE | {"up", "out", "off", "down"}:
            return None
        lemmas = getLemma(word, upos="VERB")
        if not lemmas or lemmas[0] == word and toks[verb].tag == "VBD":
            return None
        do = {"VBD": "did", "VBZ": "does", "VBP": "do"}[toks[verb].tag]
        parts = [_upper_first(wh_text), do, subj, lemmas[0], mid]
    return " ".join(p for p in parts if p) + "?"


def _name_called(q: str, toks: list[TaggedToken]) -> str | None:
    """ "What is the name of X?" -> "What is X called?" (X a noun phrase with no clause of its own)."""
    if not _question(toks) or len(toks) < 7:
        return None
    words = [t.text.lower() for t in toks]
    if words[0] != "what" or words[1] not in _BE or words[2] != "the" or words[4] != "of":
        return None
    if words[3] not in ("name", "names"):
        return None
    x = toks[5:-1]
    # The head noun: the last of the phrase before its first preposition ("the laws" of "Temüjin's laws",
    # "outpost" of "the first Huguenot outpost in South Carolina").
    before_in = x[: next((k for k, t in enumerate(x) if t.tag == "IN"), len(x))]
    head = next((t for t in reversed(before_in) if t.tag in _NOUN), None)
    if head is None or (head.tag in ("NNS", "NNPS")) != (words[1] in ("are", "were")):
        return None  # "What is the name of matters ..." -> "What is matters ... called?"
    if not x or any(
        t.tag.startswith(("VB", "W", "MD")) or t.text.lower() in _CLAUSE_WORDS | {","} for t in x
    ):
        return None
    return f"{toks[0].text} {toks[1].text} {_text(q, toks, 5, len(toks) - 1)} called?"


def _why_reason(q: str, toks: list[TaggedToken]) -> str | None:
    """ "Why did the Normans invade England?" -> "For what reason did the Normans invade England?"."""
    if not _question(toks) or toks[0].text.lower() != "why" or toks[1].text.lower() not in _AUX:
        return None
    if any(t.text.lower() in ("not", "n't") for t in toks[1:3]):
        return None  # "Why not ...?"
    if any(t.text.lower() in ("reason", "reasons") for t in toks):
        return None  # "For what reason did samurai avoid divorcing for reasons of dislike?" (reading 2026-11-27d)
    return f"For what reason {q[toks[1].start :]}"


# Verbs with which "how" asks for a name, a form or a spelling, not a manner.
_HOW_NOT_MANNER = {
    "know", "call", "name", "spell", "pronounce", "write", "say", "shape", "feel", "do", "go", "look", "sound",
    "translate", "abbreviate", "title", "term", "refer", "describe", "define", "rank", "rate",
}  # fmt: skip


def _how_way(q: str, toks: list[TaggedToken]) -> str | None:
    """ "How did Tesla demonstrate his theory?" -> "In what way did Tesla demonstrate his theory?": "how"
    asking for a manner -- before "do" or a modal and a verb, or before "be" and a passive participle; not
    "How is the climate?" (a description), "How many", "How long"."""
    if not _question(toks) or toks[0].text.lower() != "how":
        return None
    aux = toks[1].text.lower()
    rest = toks[2:-1]
    if aux in _DO | _MODAL:
        # the bare verb after "did the Romans" may be tagged as a present form ("build/VBP"): the first
        verbs = [t for t in rest if t.tag in ("VB", "VBP")][:1]
    elif aux in _BE:
        verbs = [t for t in rest if t.tag == "VBN"]
    else:
        return None
    if not verbs or any(t.text == "," or t.text.lower() in _CLAUSE_WORDS | {"way", "ways"} for t in rest):
        return None  # "... in an individual way?" would say "way" twice (reading 2026-11-27c)
    if any(
        t.tag in ("VBD", "VBZ", "VBP", "MD") and t not in verbs or t.text.lower() in _BE | _DO for t in rest
    ):
        return None  # a second clause ("How did their lawyer suggest they would plea?"), "How may yards did"
    if _verb_lemma(verbs[0].text) in _HOW_NOT_MANNER:
        return None  # "How is it known?" asks for a name, "How is it written?" for a spelling
    return f"In what way {q[toks[1].start :]}"


# Nouns whose of-phrase is their owner or bearer, so that "the population of Warsaw" = "Warsaw's
# population". A list, not a rule: "the city of Paris" (apposition), "the invasion of Poland" (Poland is
# the one invaded), "the rest of Europe" (a part) and "the University of Chicago" (a name) do not turn.
_OWNED = {
    "population", "capital", "president", "mayor", "leader", "leaders", "founder", "government", "economy",
    "history", "climate", "culture", "currency", "size", "gdp", "headquarters", "owner", "father",
    "mother", "wife", "husband", "son", "daughter", "brother", "sister", "children", "parents", "family",
    "nickname", "motto", "flag", "anthem", "mascot", "coach", "quarterback", "stadium", "team", "army",
    "navy", "troops", "forces", "religion", "constitution", "budget", "revenue", "income", "debt", "exports",
    "goal", "goals", "aim", "purpose", "mission", "job", "career", "writings", "music", "theory", "views",
    "opinion", "response", "reaction", "plan", "plans", "strategy", "policy", "policies", "reputation",
    "influence", "legacy", "death", "birthplace", "wealth", "salary", "age", "record", "status", "opponent",
    "opponents", "rival", "rivals", "allies", "successor", "predecessor", "teacher", "students", "followers",
    "supporters", "enemies", "citizens", "residents", "inhabitants", "governor", "ruler", "head", "director",
    "chairman", "ceo", "owners", "members", "membership", "headquarter", "defense", "offense", "players",
    "roster", "colors", "logo", "website", "slogan", "founders", "parent", "grandfather", "uncle", "nephew",
    "cousin", "son-in-law", "niece", "heir", "tomb", "grave", "palace", "residence", "home",
}  # fmt: skip


def _of_possessive(q: str, toks: list[TaggedToken]) -> str | None:
    """ "What is the population of Warsaw?" -> "What is Warsaw's population?": a noun of a name's (its
    population, its leader) with the name after "of" becomes the name's possessive; only nouns that say
    what the name has or is, and only a name that ends the phrase."""
    if not _question(toks):
        return None
    words = [t.text.lower() for t in toks]
    if "'s" in words or any(t.tag == "POS" for t in toks) or words.count("of") != 1:
        return None  # one possessive and one "of" at most after the move
    o = words.index("of")
    if o < 2 or words[o - 1] not in _OWNED or toks[o - 1].tag not in ("NN", "NNS"):
        return None
    d = o - 1
    while d > 0 and toks[d - 1].tag in ("JJ", "JJS", "JJR", "CD", "NN", "NNS") and toks[d - 1].text.islower():
        d -= 1
    if words[d - 1] != "the":
        return None  # "a leader of ...", "which leader of ..."
    start = o + 1
    name = start + (words[start] == "the")
    end = name
    while end < len(toks) and toks[end].tag in ("NNP", "NNPS"):
        end += 1
    if end == name or toks[end].tag in ("CD", "POS", "NN", "NNS", "CC") or toks[end].text in ("&", "-"):
        return None  # no name, or one that goes on ("Super Bowl 50", "Kenya and Uganda")
    if words[start] == "the" and end - name > 3:
        return None
    after = toks[end]
    if not (after.text == "?" or after.tag.startswith(("VB", "MD")) or words[end] in _OWNER_ENDS):
        return None  # "the House Committee on Energy and Commerce": the name may go on
    owner = _text(q, toks, start, end)
    if words[start] != "the" and owner[-1:] in ("s", "S"):
        return None  # "FARMS's head", "the IBM DBMS's purpose", "Los Angeles's" (reading 2026-11-27d)
    mark = "'" if words[start] == "the" and owner.endswith("s") else "'s"  # "the Broncos'", "Kenya's"
    before = _text(q, toks, 0, d - 1)
    owned = _text(q, toks, d, o)
    return _upper_first(f"{before} {owner}{mark} {owned}{q[toks[end - 1].end :]}".lstrip())


# What may follow the name of "the population of Kenya" for it to be the whole name: a time or a place
# phrase of the question's own ("... of Kenya in 2014?"); not "on", "for", "and" ("the House Committee on
# Energy and Commerce").
_OWNER_ENDS = {"in", "during", "before", "after", "around", "since", "until", "at", "by"}


# Verbs whose subject has a noun of its own: "Who designed X?" = "Who was the designer of X?".
_AGENTS = {
    "design": "designer", "write": "author", "win": "winner", "create": "creator", "develop": "developer",
    "found": "founder", "discover": "discoverer", "produce": "producer", "invent": "inventor",
    "direct": "director", "edit": "editor", "publish": "publisher", "translate": "translator",
    "rule": "ruler", "compose": "composer", "paint": "painter", "own": "owner", "host": "host",
    "coach": "coach", "command": "commander", "narrate": "narrator", "organize": "organizer",
    "organise": "organiser", "sponsor": "sponsor", "manage": "manager", "build": "builder",
    "illustrate": "illustrator", "govern": "governor", "architect": "architect", "choreograph":
    "choreographer", "conceive": "originator", "originate": "originator", "finance": "financier",
}  # fmt: skip
# The doers those nouns name: words a rephrasing brings in without adding to the question (score.filters).
AGENT_NOUNS = frozenset(_AGENTS.values())


def _who_agent(q: str, toks: list[TaggedToken]) -> str | None:
    """ "Who designed the Warsaw Uprising Monument?" -> "Who was the designer of the Warsaw Uprising
    Monument?": a verb with a noun for its doer, and a definite object (a name, "the", "his") that is all
    that follows but a closing year."""
    if not _question(toks) or toks[0].text.lower() != "who" or toks[1].tag not in ("VBD", "VBZ"):
        return None
    lemma = _verb_lemma(toks[1].text)
    if lemma not in _AGENTS or (toks[1].tag == "VBZ") != (
        lemma in ("own", "rule", "govern", "manage", "host")
    ):
        return None  # "Who writes ...?" asks for a habit; "Who owned ...?" is kept for its time
    rest = toks[2:-1]
    if not rest or rest[0].text.lower() not in ("the", "his", "her", "its", "their") and rest[0].tag != "NNP":
        return None  # "Who won a Grammy?": "the winner of a Grammy" is not one person
    time = _time_phrase_start(toks)
    body = toks[2:time] if time is not None and time > 2 else rest
    if len(body) > 9 or any(
        t.tag.startswith(("VB", "MD", "W", "PRP"))
        and t.tag != "PRP$"
        or t.text.lower() in _CLAUSE_WORDS | {",", "to", "and", "or"}
        or t.tag == "IN"
        and t.text.lower() != "of"
        or t.tag == "RB"
        for t in body
    ):
        return None  # "Who led the league in sacks?": a second phrase the noun would not own
    be = "is" if toks[1].tag == "VBZ" else "was"
    return f"Who {be} the {_AGENTS[lemma]} of {q[toks[2].start :]}"


def _where_located(q: str, toks: list[TaggedToken]) -> str | None:
    """ "Where is the Kuiper Belt located?" -> "What is the location of the Kuiper Belt?"."""
    words = [t.text.lower() for t in toks]
    if not _question(toks) or words[0] != "where" or words[1] not in _BE or words[-2] != "located":
        return None
    x = toks[2:-2]
    if not x or any(
        t.tag.startswith(("VB", "MD", "W", "RB")) or t.text.lower() in _CLAUSE_WORDS | {","} for t in x
    ):
        return None  # "Where is the gallery now located?": "the location of the gallery now"
    if x[0].tag == "CD" or x[0].text.lower() in ("many", "some", "most", "few", "all", "several", "much"):
        return None  # "Where is 97% of the population located?" asks where, not for one location
    be = "is" if words[1] in ("is", "are") else "was"
    return f"What {be} the location of {_lower_first(_text(q, toks, 2, len(toks) - 2), x)}?"


def _year_when(q: str, toks: list[TaggedToken]) -> str | None:
    """ "In what year did Tesla die?" -> "When did Tesla die?", "What year was the V&A founded?" -> "When was
    the V&A founded?": a year asked as a time (the year stays a right answer). Not "What year is it" (a
    copula with no verb after it: "the year" may be what is asked about), nor a year of something ("In what
    year of his reign ...")."""
    words = [t.text.lower() for t in toks]
    if not _question(toks):
        return None
    k = 1 if words[0] in ("in", "during") else 0
    if words[k : k + 2] not in (["what", "year"], ["which", "year"]) or len(words) < k + 5:
        return None
    aux = words[k + 2]
    if aux not in _AUX:
        return None  # "What year of his reign", "What year Tesla died"
    rest = toks[k + 3 : -1]
    if aux in _BE and not any(t.tag in ("VBN", "VBG") for t in rest):
        return None  # "What year is the anniversary?": no event to date
    if aux in _BE and rest and rest[0].tag in ("VBN", "VBG"):
        return None  # "What year is considered the last ...": the year is the subject (reading 2026-11-27zh)
    if rest and rest[-1].tag in ("IN", "RP", "TO"):
        return None  # "What year was Contrasts written in?" -> "When was Contrasts written in?" (reading 2026-11-27k)
    return f"When {q[toks[k + 2].start :]}"


# ---------------------------------------------------------------------------------------- relative clauses
# A question phrase said as a noun with a relative clause ("Which team won?" -> "What was the team that
# won?", "In what city did Tesla live?" -> "What was the city in which Tesla lived?"): the rewrite people
# make when they ask the same thing at more length (Gan & Ng: "what is the name of the organization that
# ..."). It needs the clause after the question phrase as a statement: the subject, the verb (inflected
# where "did" / "does" goes) and the rest, read by :func:`_statement`. Turned down by a strict reader
# (reading 2026-11-27zc, SQuAD train): "How many X did Y V?" -> "What was the number of X that Y V-ed?"
# (0 of 25: stilted), "When did X V?" -> "When was it that X V-ed?" (0 of 25), an of-phrase ("the type of
# emitter that") and a time ("the year in which").

# Nouns that ask for a time, a place, a way or an extent: "What year did X die?" is no "the year that X
# died" (it needs "in which", which reads stilted), so both forms refuse them.
_ADVERBIAL_NOUNS = _TIME_NOUNS | {
    "time", "times", "way", "ways", "extent", "degree", "place", "places", "point", "age", "hour", "hours",
    "moment", "distance", "speed", "direction", "manner", "reason", "reasons", "months", "days", "weeks",
    "date", "dates",
}  # fmt: skip
# Nouns for people, asked with "Who": "Which Everton manager won ...?" -> "Who was the Everton manager that won
# ...?", not "What was". A list (and the suffixes -ist, -ian), since no tag says what is a person.
_PEOPLE = {
    "person", "people", "man", "men", "woman", "women", "leader", "manager", "president", "king", "queen",
    "emperor", "empress", "ruler", "player", "contestant", "artist", "politician", "tycoon", "writer",
    "author", "scientist", "composer", "singer", "actor", "actress", "general", "commander", "officer",
    "governor", "mayor", "senator", "minister", "chancellor", "pope", "bishop", "archbishop", "priest",
    "saint", "poet", "painter", "architect", "engineer", "inventor", "explorer", "doctor", "professor",
    "teacher", "student", "scholar", "coach", "quarterback", "founder", "owner", "judge", "lawyer", "prince",
    "princess", "duke", "monarch", "pharaoh", "sultan", "caliph", "khan", "chief", "official", "soldier",
    "admiral", "astronaut", "candidate", "winner", "champion", "athlete", "driver", "pilot", "director",
    "producer", "editor", "journalist", "reporter", "critic", "ambassador", "diplomat", "spokesman",
    "spokeswoman", "ceo", "chairman", "secretary", "monk", "nun", "prophet", "apostle", "disciple", "hero",
    "heroine", "individual", "rapper", "dancer", "host", "presenter", "father", "mother", "son", "daughter",
    "brother", "sister", "wife", "husband", "child", "children", "boy", "girl", "member",
    "successor", "predecessor", "designer", "creator", "developer", "discoverer", "publisher", "translator",
    "teammate", "captain", "lieutenant", "colonel", "sergeant", "warrior", "knight", "lord",
    "lady", "noble", "nobleman", "merchant", "farmer", "worker", "immigrant", "settler", "missionary",
    "philosopher", "theologian", "astronomer", "mathematician", "chemist", "physicist", "biologist",
    "economist", "historian", "musician", "physician", "comedian", "guitarist", "novelist",
    "investor", "entrepreneur", "businessman", "businesswoman", "banker", "sculptor",
}  # fmt: skip
_SUBJECT_TAGS = {"DT", "PRP", "PRP$", "JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", "CD", "POS"}
_PAST = {"did", "was", "were", "had"}


def _inflect(lemma: str, tag: str) -> str | None:
    from lemminflect import getInflection

    forms = getInflection(lemma, tag=tag, inflect_oov=False)
    return forms[0] if forms else None


def _verb_form(word: str, tag: str) -> bool:
    """Whether ``word`` (lower case) is its verb's form for ``tag`` -- not a word the tagger guessed a verb
    ("spinoff/VBD", "huihui/VBN"); a VBP is the lemma itself."""
    lemma = _verb_lemma(word)
    return (lemma if tag == "VBP" else _inflect(lemma, tag)) == word


def _base_form(word: str) -> bool:
    """Whether ``word`` is a verb's base form (what follows "did X"; the tagger often calls it a noun:
    "did the Normans conquer/NN England")."""
    return _verb_lemma(word) == word.lower() and _inflect(word.lower(), "VBD") is not None


def _noun_phrase(toks: list[TaggedToken], i: int) -> tuple[int, bool] | None:
    """The noun phrase of a question word at ``i - 1`` ("which [two] [NFL] team"): its end and whether it is
    plural; None where there is no noun, or a word that would not read after "the" ("other", "else"), a
    time, a place or a way, or an of-phrase: "the type of emitter that", "the part of Europe that" read
    stilted (reading 2026-11-27zc: all five of those were turned down)."""
    j = i
    while j < len(toks) and toks[j].tag in ("JJ", "JJS", "JJR", "CD", "VBN") and j - i < 3:
        if toks[j].text.lower() in ("other", "else", "another", "one", "many", "much", "few", "several"):
            return None
        j += 1
    k = j
    while k < len(toks) and toks[k].tag in _NOUN and k - j < 3:
        k += 1
    if k == j or k >= len(toks) or toks[k].text.lower() == "of" or toks[k].tag == "POS":
        return None
    if toks[k - 1].text.lower() in _ADVERBIAL_NOUNS:
        return None  # "the year that", "the year in which": stilted (reading 2026-11-27zc)
    plural = _plural(toks[k - 1]) or any(
        t.tag == "CD" and t.text.lower() != "one" and not _YEAR.fullmatch(t.text) for t in toks[i:j]
    )  # "What 1971 film": a year, not a number of films
    return k, plural


_YEAR = re.compile(r"1[0-9]{3}|20[0-9]{2}")


def _plural(tok: TaggedToken) -> bool:
    """A noun's number by its form where it is lower case ("diagrams" is plural though the tagger may call
    it NN: "What diagrams are used ..." wrote "What is the diagrams that ...", reading 2026-12-06t)."""
    from paraguide.text.agreement import plural_form

    if tok.tag in ("NNS", "NNPS"):
        return True
    word = tok.text
    return tok.tag == "NN" and word.islower() and word.endswith("s") and plural_form(word)


def _statement(q: str, toks: list[TaggedToken], a: int) -> tuple[str, bool] | None:
    """The question's clause from the auxiliary at ``a`` as a statement ("did the Romans build in Britain" ->
    "the Romans built in Britain", "was the V&A founded" -> "the V&A was founded", "can a bird fly" -> "a
    bird can fly"), and whether it is past; None where the subject or the verb cannot be told apart, or a
    second clause follows."""
    aux = toks[a].text.lower()
    if aux not in _AUX or a + 2 >= len(toks) or toks[a + 1].text.lower() in ("not", "n't"):
        return None
    s = a + 1
    # the verb: the first tagged as such; else (the tagger's slip: "did the car use/NN") a lower-case
    # noun after the subject's first noun that is a verb's base form
    want = {"VBN", "VBG", "VBD"} if aux in _BE else {"VBN", "VBD"} if aux in _HAVE else {"VB", "VBP"}
    v = next(
        (k for k in range(s + 1, min(len(toks), s + 8)) if toks[k].tag in want and toks[k].text.islower()),
        None,
    )
    if v is None and aux in _DO | _MODAL:
        found = [
            k
            for k in range(s + 1, min(len(toks) - 1, s + 8))
            if toks[k].tag in ("NN", "NNP")
            and toks[k].text.islower()
            and toks[k - 1].tag in _NOUN | {"PRP"}
            and _base_form(toks[k].text)
        ]
        if len(found) != 1:
            return None  # "did Britain outlaw slave trade": "outlaw", "slave" and "trade" could each be it
        v = found[0]
        if any(t.tag in ("NN", "JJ") and t.text.islower() and _base_form(t.text) for t in toks[s + 1 : v]):
            return None  # "did Super Bowl 50 take/NN place/NN in", "can the SP alter/JJ income tax/NN"
            # (readings 2026-11-27ze, zm): either may be the verb
        if toks[v + 1].text.islower() and toks[v + 1].tag.startswith(("NN", "VB")):
            return None  # "did the 2015 AFL season begin/NN": a noun of the subject before the verb
    if v is None:
        return None
    e = v - (toks[v - 1].tag == "RB")  # "did Tesla first arrive": the adverb stays before the verb
    subject = toks[s:e]
    if not subject or len(subject) > 7 or any(t.tag not in _SUBJECT_TAGS and t.text != "&" for t in subject):
        return None
    if not any(t.tag in _NOUN or t.tag == "PRP" for t in subject) or subject[-1].tag in ("DT", "PRP$", "JJ"):
        return None
    if any(t.tag in ("DT", "PRP$", "PRP") and p.tag in _NOUN for p, t in itertools.pairwise(subject)):
        return None  # "were the leaders the extremists attacked guilty of": a clause inside (reading zf)
    if any(
        p.tag in ("NN", "NNS") and p.text.islower() and t.tag in ("NNP", "NNPS")
        for p, t in itertools.pairwise(subject)
    ):
        return None  # "was the first cup Barcelona won": "the first cup Barcelona was won" (reading zi)
    rest = toks[v + 1 : -1]
    if any(
        t.text == "," or t.text.lower() in _CLAUSE_WORDS | _WH or t.tag in ("VBD", "VBZ", "VBP", "MD")
        for t in rest
    ):
        return None  # a second clause, or one the relative would swallow
    verb = toks[v].text
    if aux in _DO:
        if verb[:1].isupper():
            return None
        if aux != "do" and any(p.tag == "CC" and t.tag in ("VB", "VBP") for p, t in itertools.pairwise(rest)):
            return None  # "did the colonies come together and form Kenya": one verb inflected, not both
            # (reading 2026-12-06k); after "do" both keep their form ("when chloroplasts arrange ... or turn")
        lemma = verb.lower()
        if not _base_form(lemma):
            return None
        verb = _inflect(lemma, {"did": "VBD", "does": "VBZ", "do": "VBP"}[aux]) or ""
        if not verb:
            return None
        head = _text(q, toks, s, v)
    else:
        if aux in _BE and toks[v].tag == "VBD" and _inflect(_verb_lemma(verb), "VBN") != verb.lower():
            return None  # "was the king went": no participle
        head = f"{_text(q, toks, s, e)} {toks[a].text.lower()} {_text(q, toks, e, v)}".rstrip()
    tail = q[toks[v].end : toks[-2].end] if v < len(toks) - 1 else ""
    return f"{head} {verb}{tail}".replace("  ", " "), aux in _PAST


def _be(past: bool, plural: bool) -> str:
    return ("were" if plural else "was") if past else ("are" if plural else "is")


def _subject_clause(q: str, toks: list[TaggedToken], k: int) -> tuple[str, bool] | None:
    """The rest of a subject question from token ``k`` ("won Super Bowl 50", "was defeated by X"), and
    whether it is past; None where it is no finite verb phrase of one clause."""
    if k >= len(toks) - 2:
        return None
    first = toks[k]
    word = first.text.lower()
    if word in _DO:
        return None
    if word in _BE | _HAVE | _MODAL:
        nxt = toks[k + 1]
        want = {"VBN", "VBG"} if word in _BE else {"VBN"} if word in _HAVE else {"VB"}
        if nxt.tag not in want or not nxt.text.islower():
            return None  # "What team is Tesla on?": an object question, or a copula; "is XML/VBN"
        past = word in _PAST
    elif first.tag in ("VBD", "VBZ", "VBP") and not first.text[:1].isupper():
        past = first.tag == "VBD"
        if not _verb_form(word, first.tag):
            return None  # "Which Doctor Who spinoff/VBD did ...": no form of a verb (reading 2026-11-27zh)
    else:
        return None
    rest = toks[k + 1 : -1]
    if any(
        t.text == "," or t.text.lower() in _CLAUSE_WORDS | _WH | _AUX or t.tag in ("VBZ", "VBP", "MD")
        for t in rest
    ):
        return None
    return q[first.start : toks[-2].end], past


def _wh_relative(q: str, toks: list[TaggedToken]) -> str | None:
    """ "Which NFL team won Super Bowl 50?" -> "What was the NFL team that won Super Bowl 50?", "What company
    did he work for?" -> "What was the company that he worked for?": the question phrase as a noun and a
    relative clause (a thing asked for, not a time or a place)."""
    if (
        not _question(toks)
        or toks[0].text.lower() not in ("what", "which")
        or any(t.text == "," for t in toks)
    ):
        return None
    found = _noun_phrase(toks, 1)
    if found is None:
        return None
    k, plural = found
    clause = _subject_clause(q, toks, k) or _statement(q, toks, k)
    if clause is None:
        return None
    text, past = clause
    return f"{_asker(toks, k)} {_be(past, plural)} the {_text(q, toks, 1, k)} that {text}?"


def names_people(word: str) -> bool:
    """Whether a noun names people ("president", "chemists", "historian"), asked for with "who"."""
    from lemminflect import getLemma

    word = word.lower()
    lemma = (getLemma(word, upos="NOUN") or (word,))[0]
    return lemma in _PEOPLE or word in _PEOPLE or len(lemma) > 5 and lemma.endswith(("ist", "ian"))


def _asker(toks: list[TaggedToken], k: int) -> str:
    """ "Who" for a noun phrase ending at ``k`` that names people, else "What"."""
    word = toks[k - 1].text.lower()
    people = names_people(word)
    # a capitalised title names a person too ("What Columbia President went to Harvard?" -> "Who was the
    # Columbia President that ...", reading 2026-11-27zj), but not "Doctor": a show's name (Doctor Who)
    title = toks[k - 1].tag in ("NNP", "NNPS") and word in _PEOPLE and word != "doctor"
    # a people named by a plural proper noun in -ans ("What two Germans were known for ...?" -> "Who were the
    # two Germans that ...", reading 2026-12-06x): Romans, Normans, Puritans, Americans
    nation = toks[k - 1].tag == "NNPS" and len(word) > 5 and word.endswith("ans")
    return "Who" if nation or people and (toks[k - 1].tag in ("NN", "NNS") or title) else "What"


def _prep_relative(q: str, toks: list[TaggedToken]) -> str | None:
    """ "In what city did Tesla live?" -> "What was the city in which Tesla lived?", "By what name was the
    V&A known?" -> "What was the name by which the V&A was known?"."""
    if not _question(toks) or any(t.text == "," for t in toks):
        return None
    prep = toks[0].text.lower()
    if (
        toks[0].tag != "IN"
        or prep not in _STRANDABLE - {"of"}
        or toks[1].text.lower() not in ("what", "which")
    ):
        return None
    found = _noun_phrase(toks, 2)
    if found is None:
        return None
    k, plural = found
    clause = _statement(q, toks, k)
    if clause is None:
        return None
    text, past = clause
    if text.rsplit(" ", 1)[-1].lower() in _STRANDABLE:
        return None  # a preposition at the end already
    return f"What {_be(past, plural)} the {_text(q, toks, 2, k)} {prep} which {text}?"


# The frames an indirect question opens with, chosen by the question's own checksum (seeded by nothing but
# the text, so a build is reproducible): one frame for a whole test set would probe one template.
_INDIRECT_FRAMES = ("Can you tell me", "Do you know")
# After "what is": the words a copula question's subject may hold ("the population of Los Angeles").
_COPULA_SUBJECT_PREPOSITIONS = {"of", "in", "on", "at", "for", "from", "to", "with", "by", "during"}


def _indirect(q: str, toks: list[TaggedToken]) -> str | None:
    """ "When did the Warsaw Uprising begin?" -> "Can you tell me when the Warsaw Uprising began?",
    "What was the theme of Super Bowl 50?" -> "Do you know what the theme of Super Bowl 50 was?": the
    question asked as an indirect one, its clause a statement. A fallback: the generator takes it only where
    no other candidate passes but a question-word swap (``pipeline.generate.FALLBACK_ORIGINS``), so that a
    set is not one template."""
    if not _question(toks) or any(t.text == "," for t in toks):
        return None
    w = 1 if toks[0].tag == "IN" and toks[0].text.lower() in _STRANDABLE else 0
    if toks[w].text.lower() not in _WH - {"whom"}:
        return None
    e = _wh_phrase_end(toks, w)
    if e >= len(toks) - 1:
        return None
    wh = _text(q, toks, 0, e)
    wh = wh[:1].lower() + wh[1:]
    aux = toks[e].text.lower()
    clause = None
    if _asks_subject(toks, w, e):  # "which NFL team won Super Bowl 50": the order stays
        clause = q[toks[e].start : toks[-2].end]
    elif aux in _BE and _how_property(toks, w, e):
        return None  # "How old were the fossils found in China?": "how old the fossils were found" (zk)
    elif (
        aux in _BE and e == w + 1 and toks[w].text.lower() in ("what", "who") and _participle_goes_on(toks, e)
    ):
        return None  # "What is the name given to Victoria?": "what the name is given to Victoria" (zl)
    elif aux in _AUX:
        found = _statement(q, toks, e)
        clause = found[0] if found else None
        # A copula's subject goes before it where the question phrase is what it asks for ("what the theme
        # of X was"); after "when" or "how many" the subject and what is said of it cannot be told apart:
        # "when Newton the first selection was", "how many Victorians Buddhist are" (reading 2026-11-27zj).
        # Not "Of what was the Diet an assembly?" either.
        asks_thing = toks[w].text.lower() in ("what", "which", "who", "whose")
        if clause is None and aux in _BE and w == 0 and (asks_thing or _existential(toks, e)):
            clause = _copula_statement(q, toks, e)
            if clause is not None and _asks_copula_subject(toks, w, e):
                clause = q[toks[e].start : toks[-2].end]  # "what scholars are faculty members at Harvard"
    if clause is None:
        return None
    frame = _INDIRECT_FRAMES[zlib.crc32(q.encode("utf-8")) % len(_INDIRECT_FRAMES)]
    return f"{frame} {wh} {clause}?"


def _asks_subject(toks: list[TaggedToken], w: int, e: int) -> bool:
    """Whether the question phrase from ``w`` to ``e`` is the subject, a finite verb of its clause at ``e``
    ("which linebacker had the most sacks", "what was diverted", "who can vote") -- so that an indirect
    question keeps the order; not "did", nor a copula before its subject ("what is the capital")."""
    wh = toks[w].text.lower()
    if w or wh not in ("what", "which", "who", "whose", "how"):
        return False
    if wh == "how" and toks[w + 1].text.lower() not in ("many", "much") or wh == "whose" and e == w + 1:
        return False  # "how did ...", "how long is ...", "whose is ...": never the subject
    verb, nxt = toks[e], toks[e + 1]
    word = verb.text.lower()
    if not verb.text.islower() or word in _DO:
        return False
    if word in _BE:  # "what was diverted"; not "What is Psalm/VBG 31:5?", "What was huihui/VBN?" (zj, zm)
        if nxt.tag in ("JJ", "JJR") and nxt.text.islower():
            # "what groups are active in Warsaw", "who is responsible for": the question phrase is the subject
            # of an adjective (not "what groups active in Warsaw are", readings 2026-12-06i, i2); a bare one
            # only with a preposition after it ("what is important?" may ask for the subject)
            last = e + 2 >= len(toks) - 1
            return toks[e + 2].tag in ("IN", "TO") or last and e > w + 1
        a = e + 2 if nxt.tag == "RB" else e + 1
        after = toks[a]
        form = after.text.lower()
        if after.tag not in ("VBN", "VBG") or not after.text.islower():
            return False
        if after.tag == "VBG" and toks[a + 1].tag in _NOUN and any(t.tag == "VBN" for t in toks[a + 1 : -1]):
            return False  # "what is justifying grace also known as": a noun's modifier, not "is justifying"
        return _verb_form(form, after.tag)  # a verb's form, not a word the tagger guessed
    if word in _MODAL:  # "who can vote"; not "what kind of affairs can shoots/VB be" (reading zl)
        return nxt.text.lower() in ("be", "have") or nxt.tag == "VB" and _base_form(nxt.text)
    if word in _HAVE:
        # "which linebacker had the most sacks", "what has been found"; not "what has the law done"
        # a participle after the noun phrase, tagged VBN or (as often) VBD: "what type of sanctions has the
        # US directed/VBD at Iran" (reading 2026-12-06x) -- "has" the auxiliary, not the verb
        later = any(t.tag in ("VBN", "VBD") for t in toks[e + 1 : -1])
        return nxt.tag == "VBN" or nxt.tag in ("DT", "PRP$", "CD", "JJ", "JJS", "NN", "NNS") and not later
    return verb.tag in ("VBD", "VBZ", "VBP") and _verb_form(word, verb.tag)  # "spinoff/VBD" is no verb


# Question nouns that ask what class a thing belongs to: "what type of algorithm is trial division" asks
# for the copula's complement, so its subject goes before the copula.
_CLASS_NOUNS = {"type", "types", "kind", "kinds", "sort", "sorts", "species", "shape", "color", "colour",
                "form", "category", "class", "genre", "breed", "style", "size"}  # fmt: skip


def _asks_copula_subject(toks: list[TaggedToken], w: int, e: int) -> bool:
    """ "What prestigious legal scholars are faculty members at Harvard?": a question phrase with its own
    noun, and after the copula a bare common noun (no determiner) -- the copula's complement, the question
    phrase its subject, so the order stays ("what scholars are faculty members", not "what scholars faculty
    members are": reading 2026-12-06n). Not where the question noun asks for a class ("what type of
    algorithm trial division is")."""
    n = next((k for k in range(e + 1, len(toks)) if not toks[k].tag.startswith("JJ")), len(toks) - 1)
    bare = all(t.text.islower() for t in toks[e + 1 : n + 1]) and toks[n].tag in ("NN", "NNS")
    if e <= w + 1 or not bare:  # ("faculty/JJ members": adjectives first, then the noun)
        return False
    return not any(t.text.lower() in _CLASS_NOUNS for t in toks[w + 1 : e])


def _how_property(toks: list[TaggedToken], w: int, e: int) -> bool:
    """ "how old were the fossils found": an adjective said of the subject, with a participle after it that
    may belong to the subject ("the fossils found in China") -- "how old the fossils were found" would
    read it as the verb. Not "how long", "how far", "how often" (how long it was occupied)."""
    adjective = toks[w + 1]
    if toks[w].text.lower() != "how" or not adjective.tag.startswith("JJ"):
        return False
    if adjective.text.lower() in ("many", "much", "long", "far", "often", "soon"):
        return False
    return any(t.tag in ("VBN", "VBD") for t in toks[e + 1 : -1])


def _participle_goes_on(toks: list[TaggedToken], a: int) -> bool:
    """After a bare question word and "is" at ``a``: a participle with more after it that does not end in a
    preposition -- "is the name given to Victoria" may be a noun with its own participle (the question word
    its complement), not a passive ("is the V&A known as", "is the book called")."""
    v = next((k for k in range(a + 2, len(toks) - 1) if toks[k].tag == "VBN"), None)
    if v is None:
        return False
    tail = toks[v + 1 : -1]
    return bool(tail) and tail[-1].tag not in ("IN", "RP", "TO")


def _existential(toks: list[TaggedToken], a: int) -> bool:
    """ "are there" at ``a``: "How many lakes are there in Warsaw?"."""
    return toks[a + 1].tag == "EX" or toks[a + 1].text.lower() == "there"


def _copula_statement(q: str, toks: list[TaggedToken], a: int) -> str | None:
    """ "is the population of Los Angeles" -> "the population of Los Angeles is", "are there in Warsaw" ->
    "there are in Warsaw": a copula whose subject is all that follows (a noun phrase, of-phrases in it)."""
    rest = toks[a + 1 : -1]
    be = toks[a].text.lower()
    if not rest or len(rest) > 12:
        return None
    if _existential(toks, a):  # "how many lakes are there in Warsaw"
        tail = rest[1:]
        if any(t.tag.startswith(("VB", "MD", "W", "RB")) or t.text.lower() in _CLAUSE_WORDS for t in tail):
            return None
        return f"there {be}{q[rest[0].end : toks[-2].end]}"
    first, last = rest[0], rest[-1]
    if first.tag not in ("DT", "PRP$", "NNP", "NNPS", "NN", "NNS", "CD", "JJ", "JJS"):
        return None
    # adjectives first: a noun must follow them at once, within three words ("What is unique about X?", "are
    # active in Warsaw": the question phrase is the subject and the adjective said of it)
    n = next((k for k, t in enumerate(rest) if not t.tag.startswith("JJ")), len(rest))
    if last.tag not in _NOUN | {"CD", "PRP"} or n and (n >= min(3, len(rest)) or rest[n].tag not in _NOUN):
        return None
    if any(p.tag in _NOUN and t.tag in ("DT", "PRP$") for p, t in itertools.pairwise(rest)):
        return None  # "is Twilight Princess the best-selling entry": subject and predicate (reading zl)
    for t in rest:
        word = t.text.lower()
        if t.text.islower() and _verb_lemma(word) != word and _verb_form(word, "VBN"):
            return None  # "was the Battle of Wabash fought/NN": a participle the tagger missed (reading zi)
        ok = (
            t.tag in _SUBJECT_TAGS
            or t.tag == "CC"
            or t.tag == "IN"
            and t.text.lower() in _COPULA_SUBJECT_PREPOSITIONS
        )
        if not ok or t.text.lower() in _CLAUSE_WORDS:
            return None  # a verb, an adverb, a clause: "What is the name of the serial where ... appears?"
    return f"{_text(q, toks, a + 1, len(toks) - 1)} {be}"


RULES = (
    ("adjunct_to_end", _adjunct_to_end),
    ("time_to_front", _time_to_front),
    ("when_to_front", _when_to_front),
    ("strand_preposition", _strand_preposition),
    ("wh_to_front", _wh_to_front),
    ("name_called", _name_called),
    ("why_reason", _why_reason),
    ("how_way", _how_way),
    ("of_possessive", _of_possessive),
    ("who_agent", _who_agent),
    ("where_located", _where_located),
    ("year_when", _year_when),
    ("wh_relative", _wh_relative),
    ("prep_relative", _prep_relative),
    ("indirect", _indirect),
)
