"""Put a phrase in place of a span of a question, inflected like the words it replaces, and compare two
questions word by word up to inflection.

English inflection comes from LemmInflect (its lemma and inflection tables ship with the package): a
WordNet synonym arrives as a lemma ("plan" for "designed"), and the question needs "planned". A verb
phrase inflects its first word ("set up" -> "set up" / "sets up"), any other phrase its last
("religious belief" -> "religious beliefs"). Chinese has no inflection: the phrase goes in as it is.
"""

from __future__ import annotations

from functools import lru_cache

from paraguide.text.tokenize import tokenize_spans

# Penn tags LemmInflect can produce; others (base forms, proper nouns, function words) stay as given.
_INFLECTED = {"NNS", "VBD", "VBG", "VBN", "VBZ", "JJR", "JJS", "RBR", "RBS"}


def inflect(phrase: str, tag: str) -> str:
    """``phrase`` inflected to the Penn ``tag`` of the word it replaces (English); unchanged when the tag
    asks for no inflection or LemmInflect knows no form."""
    if tag not in _INFLECTED:
        return phrase
    from lemminflect import getInflection

    words = phrase.split()
    if not words:
        return phrase
    head = 0 if tag.startswith("V") else len(words) - 1
    forms = getInflection(words[head], tag=tag)
    if forms:
        words[head] = forms[0]
    return " ".join(words)


@lru_cache(maxsize=65536)
def forms(phrase: str) -> tuple[str, ...]:
    """``phrase`` and its inflected forms (English): its first word inflected, for verb phrases ("set up"
    -> "sets up", "set up" ...), and its last, for noun phrases ("religious beliefs")."""
    from lemminflect import getAllInflections

    words = phrase.split()
    found = [phrase]
    for head in sorted({0, len(words) - 1}) if words else ():
        for inflected in getAllInflections(words[head]).values():
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


_DO = {"do", "does", "did"}


def fix_do_support(words: list[str], tags: list[str]) -> list[str]:
    """Penn tags with the verb after a do-auxiliary set to its base form: the tagger reads "found" in
    "When did Germany found the colony?" as a past tense, and "established" would follow."""
    fixed = list(tags)
    aux = False
    for i, (word, tag) in enumerate(zip(words, tags, strict=True)):
        if word.lower() in _DO and tag.startswith("VB"):
            aux = True
        elif tag.startswith("VB") and aux:
            if tag in ("VBD", "VBZ", "VBP", "VBN"):
                fixed[i] = "VB"
            aux = False
    return fixed


def head_tag(tags: list[str], span: tuple[int, int]) -> str:
    """The Penn tag that decides a replaced span's inflection: its first verb, else its last word."""
    inside = tags[span[0] : span[1]]
    verbs = [t for t in inside if t.startswith("VB")]
    return verbs[0] if verbs else (inside[-1] if inside else "")


__all__ = ["fix_do_support", "forms", "head_tag", "inflect", "lemmas", "substitute"]
