"""How far a rewrite is from its original, in tokens: what "still changes the question" is measured by."""

from __future__ import annotations

from paraguide.text.tokenize import tokenize


def token_edits(original: str, rewrite: str, lang: str = "en") -> int:
    """Token-level Levenshtein distance (lower-cased tokens; Chinese: jieba words): how many words a rewrite
    changes ("two or more words changed" is ``token_edits(...) >= 2``)."""
    return _edits([t.lower() for t in tokenize(original, lang)], [t.lower() for t in tokenize(rewrite, lang)])


def edit_rate(original: str, rewrite: str, lang: str = "en") -> float:
    """:func:`token_edits` over the original's length. 0 for the same question; a one-word substitution in
    a ten-word question gives 0.1."""
    a = [t.lower() for t in tokenize(original, lang)]
    return _edits(a, [t.lower() for t in tokenize(rewrite, lang)]) / max(1, len(a))


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
    a = [t.lower() for t in tokenize(original, lang)]
    b = [t.lower() for t in tokenize(rewrite, lang)]
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
        ]
    ),
}


def question_word_only(original: str, rewrite: str, lang: str = "en") -> bool:
    """Does the rewrite change nothing but question words ("What year" -> "Which year", 什么 -> 啥), once
    case and punctuation are set aside? An identical rewrite is not a question-word swap."""
    from paraguide.text.stopwords import is_word

    words = _QUESTION_WORDS.get(lang, frozenset())
    a = [t.lower() for t in tokenize(original, lang) if is_word(t)]
    b = [t.lower() for t in tokenize(rewrite, lang) if is_word(t)]
    if a == b:
        return False
    rest_a = [t for t in a if t not in words]
    rest_b = [t for t in b if t not in words]
    return rest_a == rest_b


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
