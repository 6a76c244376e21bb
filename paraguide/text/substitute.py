"""Put a phrase in place of a span of a question, inflected like the words it replaces, and compare two
questions word by word up to inflection. English inflection comes from LemmInflect (its tables ship with
the package): a WordNet synonym arrives as a lemma ("plan" for "designed"), and the question needs
"planned". Chinese has no inflection: the phrase goes in as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from paraguide.text.tokenize import tokenize_spans

# Penn tags LemmInflect can produce; others (base forms, proper nouns, function words) stay as given.
_INFLECTED = {"NNS", "VBD", "VBG", "VBN", "VBZ", "JJR", "JJS", "RBR", "RBS"}


def inflect(phrase: str, tag: str) -> str:
    """``phrase`` inflected to the Penn ``tag`` of the word it replaces (English): a verb phrase inflects
    its first word ("set up" -> "sets up"), any other phrase its last ("religious beliefs"); unchanged when
    the tag asks for no inflection or LemmInflect knows no form. A suggestion that arrives inflected (PPDB's
    "clients") goes back to its lemma first, so "customer" becomes "client", not "clients"."""
    words = phrase.split()
    if not words or tag not in ("NN", "NNS", "VB", "VBP") and tag not in _INFLECTED:
        return phrase
    from lemminflect import getInflection, getLemma

    head = 0 if tag.startswith("V") else len(words) - 1
    word = words[head]
    if tag in ("NN", "NNS") and word.endswith("s") or tag.startswith("VB"):
        # Nouns only from a plural ("data" is no form of "datum" here); verbs from any form.
        lemma = getLemma(word, upos="NOUN" if tag.startswith("NN") else "VERB")
        word = lemma[0] if lemma else word
    if tag in _INFLECTED:
        forms = getInflection(word, tag=tag)
        word = forms[0] if forms else word
    words[head] = word
    return " ".join(words)


@lru_cache(maxsize=65536)
def forms(phrase: str) -> tuple[str, ...]:
    """``phrase`` and its inflected forms (English): its first word inflected, for verb phrases ("set up"
    -> "sets up", "set up" ...), and its last, for noun phrases ("religious beliefs"); from the word's
    lemmas, so an inflected suggestion ("clients") also has its base form ("client")."""
    from lemminflect import getAllInflections

    words = phrase.split()
    found = [phrase]
    for head in sorted({0, len(words) - 1}) if words else ():
        bases = sorted(lemmas(words[head]))
        for inflected in [bases, *(i for b in bases for i in getAllInflections(b).values())]:
            for form in inflected:
                variant = " ".join([*words[:head], form, *words[head + 1 :]])
                if variant not in found:
                    found.append(variant)
    return tuple(found)


@lru_cache(maxsize=65536)
def lemmas(word: str) -> frozenset[str]:
    """The word itself and every lemma LemmInflect gives it, lower-cased ("planned" -> {planned, plan})."""
    from lemminflect import getAllLemmas, getAllLemmasOOV

    word = word.lower()
    found = {word}
    for forms in getAllLemmas(word).values():
        found.update(f.lower() for f in forms)
    if len(found) == 1 and word.isalpha():
        for upos in ("NOUN", "VERB"):
            found.update(f.lower() for f in getAllLemmasOOV(word, upos).get(upos, ()))
    return frozenset(found)


def substitute(question: str, span: tuple[int, int], phrase: str, lang: str, tag: str = "") -> str:
    """``question`` with its tokens ``span`` (token indices of :func:`~paraguide.text.tokenize.tokenize`,
    end exclusive) replaced by ``phrase``, inflected to ``tag`` (English; the Penn tag of the span's head);
    the rest of the question is cut from the original text unchanged."""
    tokens = tokenize_spans(question, lang)
    start, end = span
    if not 0 <= start < end <= len(tokens):
        raise ValueError(f"span {span} outside the question's {len(tokens)} tokens: {question!r}")
    head = question[: tokens[start].start]
    if lang == "en":
        phrase = inflect(phrase, tag)
        if start == 0 and question[:1].isupper():
            phrase = phrase[:1].upper() + phrase[1:]
        if start > 0 and tokens[start - 1].text.lower() in ("a", "an"):
            # "an important center" -> "a significant center": the article agrees with the new word (by
            # its first letter; "an hour", "a university" are rare enough in questions)
            before = tokens[start - 1]
            article = "an" if phrase[:1].lower() in "aeiou" else "a"
            if before.text[:1].isupper():
                article = article.capitalize()
            head = question[: before.start] + article + question[before.end : tokens[start].start]
    return head + phrase + question[tokens[end - 1].end :]


@dataclass(frozen=True)
class Placed:
    """A phrase put in place of a span: ``text`` the question with it, ``phrase`` the phrase as it stands
    there (inflected like the words it replaced: "situate" for "located" stands as "situated")."""

    text: str
    phrase: str


def place(question: str, spans: Sequence[tuple[tuple[int, int], str]], lang: str) -> list[Placed | None]:
    """Each ``(span, phrase)`` of ``spans`` put in place in ``question`` (:func:`substitute`; English tags
    the question once, with the do-auxiliary fix, for each phrase's inflection), or None where the phrase
    cannot stand there: a noun in a verb's slot, a verb in a noun's, "did ... be" (:func:`fits`), or a span
    from another tokenisation. Without an English tagger the phrases go in uninflected."""
    from paraguide.text.pos import has_tagger, pos_tag

    words, tags = [], []
    if lang == "en" and spans and has_tagger("en"):
        tagged = pos_tag(question, "en")
        words = [t.text for t in tagged]
        tags = fix_do_support(words, [t.tag for t in tagged])
    out: list[Placed | None] = []
    for span, phrase in spans:
        tag = head_tag(tags, span) if tags else ""
        if tags and span[1] <= len(tags) and not fits(phrase, tag, after_do(words, tags, span[0])):
            out.append(None)
            continue
        try:
            out.append(Placed(substitute(question, span, phrase, lang, tag), inflect(phrase, tag)))
        except ValueError:
            out.append(None)
    return out


_DO = {"do", "does", "did"}


_SUBJECT_END = {"NN", "NNS", "NNP", "NNPS", "PRP"}
_OBJECT_START = {"DT", "PRP$", "TO", "PDT", "."}


def fix_do_support(words: list[str], tags: list[str]) -> list[str]:
    """Penn tags with the verb after a do-auxiliary set to its base form: the tagger reads "found" in
    "When did Germany found the colony?" as a past tense, and "established" would follow. A word the
    tagger took for a noun between the subject and an object or the end ("did the newspaper change its
    definition", "did California start to grow", "did the war end?") is that verb too: a noun synonym there reads "the newspaper
    modification its definition"."""
    fixed = list(tags)
    aux = False
    for i, (word, tag) in enumerate(zip(words, tags, strict=True)):
        if word.lower() in _DO and tag.startswith("VB"):
            aux = True
        elif tag.startswith("VB") and aux:
            if tag in ("VBD", "VBZ", "VBP", "VBN"):
                fixed[i] = "VB"
            aux = False
        elif (
            aux
            and tag in ("NN", "NNS")
            and tags[i - 1] in _SUBJECT_END
            and i + 1 < len(tags)
            and tags[i + 1] in _OBJECT_START
        ):
            fixed[i] = "VB"
            aux = False
    return fixed


_BE = {"be", "is", "are", "was", "were", "been", "being", "am"}


def after_do(words: list[str], tags: list[str], start: int) -> bool:
    """Whether the word at ``start`` is the main verb of a do-auxiliary ("did" ... *get*): a do form
    before it, and no other verb between."""
    for i in range(start - 1, -1, -1):
        if words[i].lower() in _DO and tags[i].startswith("VB"):
            return True
        if tags[i].startswith("VB") or tags[i] == "MD":
            return False
    return False


def fits(phrase: str, tag: str, after_do: bool = False) -> bool:
    """Whether ``phrase`` can stand where a word tagged ``tag`` stood (English): a verb's slot needs a
    phrase whose head can be a verb, a noun's one whose head can be a noun (by LemmInflect's lemma
    tables; a word they do not know fits anywhere). Other tags are not checked. After a do-auxiliary
    (``after_do``) no "be ..." phrase fits: "did the Silk Road *get its name*" -> "did ... be named"."""
    words = phrase.split()
    if not words or not (tag.startswith("VB") or tag in ("NN", "NNS")):
        return True
    if after_do and words[0].lower() in _BE:
        return False
    from lemminflect import getAllLemmas

    verb = tag.startswith("VB")
    known = getAllLemmas(words[0] if verb else words[-1])
    return not known or ("VERB" if verb else "NOUN") in known


def head_tag(tags: list[str], span: tuple[int, int]) -> str:
    """The Penn tag that decides a replaced span's inflection: its first verb, else its last word."""
    inside = tags[span[0] : span[1]]
    verbs = [t for t in inside if t.startswith("VB")]
    return verbs[0] if verbs else (inside[-1] if inside else "")


__all__ = [
    "Placed",
    "after_do",
    "fits",
    "fix_do_support",
    "forms",
    "head_tag",
    "inflect",
    "lemmas",
    "place",
    "substitute",
]
