"""How a distractor compares with the answer: numbers shifted, amounts and times read with their scale and
shape, names by their shape."""

from __future__ import annotations

import random
import re

from paraguide.perturb.trap.chinese import _ZH_DIGITS, _ZH_MEASURES, _ZH_SURNAMES, _ZH_TITLES
from paraguide.perturb.trap.english import _NUMBER_WORDS, _ORDINAL_WORDS
from paraguide.perturb.trap.records import Mutation
from paraguide.text.entities import Entity

# A year of four digits, 1000 to 2099, not inside a longer number.
YEAR = re.compile(r"(?<!\d)(?:1\d|20)\d\d(?!\d)")


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
    shape = YEAR.sub("Y", text)
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
    ya = YEAR.search(a)
    yb = YEAR.search(b)
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
