"""How far a rewrite is from its original, in tokens: what "still changes the question" is measured by."""

from __future__ import annotations

import re

from paraguide.text.tokenize import tokenize


def words(text: str, lang: str = "en") -> list[str]:
    """The lower-cased tokens edits are counted in. Chinese: jieba's words, each question word one token
    of its own (jieba cuts 这是啥意思 as 这是 / 啥意思 and 哪一个 as 哪 / 一个, which would make 什么 -> 啥 two
    edits)."""
    if lang != "zh":
        return [t.lower() for t in tokenize(text, lang)]
    out = []
    for i, part in enumerate(_ZH_QUESTION_SPLIT.split(text)):
        if i % 2:
            out.append(part)
        elif part:
            out.extend(t.lower() for t in tokenize(part, lang))
    return out


def token_edits(original: str, rewrite: str, lang: str = "en") -> int:
    """Token-level Levenshtein distance (:func:`words`): how many words a rewrite changes ("two or more
    words changed" is ``token_edits(...) >= 2``)."""
    return _edits(words(original, lang), words(rewrite, lang))


def edit_rate(original: str, rewrite: str, lang: str = "en") -> float:
    """:func:`token_edits` over the original's length. 0 for the same question; a one-word substitution in
    a ten-word question gives 0.1."""
    a = words(original, lang)
    return _edits(a, words(rewrite, lang)) / max(1, len(a))


def _edits(a: list[str], b: list[str]) -> int:
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
        previous = current
    return previous[-1]


def one_word_added_or_removed(original: str, rewrite: str, lang: str = "en") -> bool:
    """Does the rewrite differ from the original only by one inserted or deleted token?"""
    a, b = words(original, lang), words(rewrite, lang)
    if abs(len(a) - len(b)) != 1:
        return False
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


# The question words of each language (suggest.interrogative's groups, and English's own): a rewrite that
# changes these alone asks the same thing in the same words.
_QUESTION_WORDS = {
    "en": frozenset(["what", "which", "who", "whom", "whose", "when", "where", "why", "how"]),
    "zh": frozenset(
        [
            "怎么",
            "如何",
            "怎样",
            "为什么",
            "为何",
            "为啥",
            "哪里",
            "哪儿",
            "多久",
            "多长时间",
            "几个",
            "多少个",
            "哪个",
            "哪一个",
            "什么",
            "啥",
            "多少",
            "几",
            "哪",
            "哪些",
            "哪种",
            "哪一种",
            "哪家",
            "哪款",
            "哪位",
            "谁",
            "多久",
        ]
    ),
}
# Chinese question words longest first, removed from the characters: jieba cuts a swap differently from its
# original (这是啥意思 -> 这是 / 啥意思, 哪一个 -> 哪 / 一个), so tokens would count 什么 -> 啥 as a rephrasing.
# Longest first, then by text: a fixed order (a set's order changes from run to run with string hashing).
_ZH_QUESTION_CHARS = sorted(
    _QUESTION_WORDS["zh"] | {"哪一个", "多少个", "多长时间", "哪儿", "哪里"}, key=lambda w: (-len(w), w)
)
_ZH_QUESTION_SPLIT = re.compile("(" + "|".join(map(re.escape, _ZH_QUESTION_CHARS)) + ")")


def question_word_only(original: str, rewrite: str, lang: str = "en") -> bool:
    """Does the rewrite change nothing but question words ("What year" -> "Which year", 什么 -> 啥, 哪个 ->
    哪一个), once case and punctuation are set aside? Moving one counts too (X哪家好 -> 哪家X好). Chinese is
    compared by characters with its question words taken out, whatever jieba makes of them. An identical
    rewrite is not a question-word swap."""
    from paraguide.text.stopwords import is_word

    if lang == "zh":
        a, b = (_zh_without_question_words(t) for t in (original, rewrite))
        same = "".join(ch for ch in original if ch.isalnum()) == "".join(ch for ch in rewrite if ch.isalnum())
        return a == b and not same
    words = _QUESTION_WORDS.get(lang, frozenset())
    a = [t.lower() for t in tokenize(original, lang) if is_word(t)]
    b = [t.lower() for t in tokenize(rewrite, lang) if is_word(t)]
    if a == b:
        return False
    rest_a = [t for t in a if t not in words]
    rest_b = [t for t in b if t not in words]
    return rest_a == rest_b


def _zh_without_question_words(text: str) -> str:
    """The characters of a Chinese question without its question words and punctuation (lower-cased)."""
    return "".join(ch for ch in _ZH_QUESTION_SPLIT.sub("", text).lower() if ch.isalnum())


def function_words_only(original: str, rewrite: str, lang: str = "en") -> bool:
    """Does the rewrite keep the original's content words, in the same order, and change only function words
    and punctuation ("上海补充公积金比例" -> "上海补充公积金的比例", "... to the hive?" -> "... to hive?")? Such an
    edit is not a rephrasing; an identical rewrite is not one either."""
    from paraguide.text.stopwords import is_word, load_stopwords

    stop = load_stopwords(lang)
    a = [t.lower() for t in tokenize(original, lang) if is_word(t)]
    b = [t.lower() for t in tokenize(rewrite, lang) if is_word(t)]
    if a == b:
        return False
    return [t for t in a if t not in stop] == [t for t in b if t not in stop]


# The letters in which British and American spellings of one word differ ("colour" / "color", "organise" /
# "organize", "analyse" / "analyze", "centre" / "center", "licence" / "license", "travelled" / "traveled",
# "catalogue" / "catalog", "anaemia" / "anemia"), each side written the American way.
_RESPELL = [
    (re.compile(p), r)
    for p, r in (
        (r"our", "or"),
        (r"([iy])s(e|es|ed|ing|ation|ations|er|ers)$", r"\1z\2"),
        (r"tre(s|d)?$", r"ter\1"),
        (r"nce(s|d)?$", r"nse\1"),
        (r"ll", "l"),
        (r"ogue$", "og"),
        (r"ae", "e"),
        (r"oe", "e"),
    )
]


def _american(word: str) -> str:
    for pattern, repl in _RESPELL:
        word = pattern.sub(repl, word)
    return word


def respelling(a: str, b: str) -> bool:
    """Whether the phrase ``b`` is ``a`` spelled another way (British and American: "colour" for "color",
    "licenced" for "licensed", "organising" for "organizing"), word for word: no other word, so no paraphrase
    of it."""
    x, y = a.lower().split(), b.lower().split()
    return (
        x != y and len(x) == len(y) and all(_american(v) == _american(w) for v, w in zip(x, y, strict=True))
    )
