"""One typo per question: the exact outputs, the refusals, and on real-looking questions that every
English typo is no word and every Chinese one a same-sound character of the same group."""

from __future__ import annotations

import pytest

from paraguide.perturb.base import SAME, Perturbation, Skip, edit, parse
from paraguide.perturb.misspelling import ZH_MIN_CHAR_FREQ, Misspell, _typos


@pytest.fixture(scope="module")
def en(en_resources):
    return Misspell("en", en_resources, seed=13)


@pytest.fixture(scope="module")
def zh(zh_resources):
    return Misspell("zh", zh_resources, seed=13)


def run(op, text: str):
    [result] = op.perturb(parse([text], op.lang))
    if isinstance(result, Perturbation):
        assert edit(result.original, result.changes) == result.perturbed
        assert (result.label, result.category, result.subcategory) == (SAME, "pragmatic", "misspelling")
        return result.perturbed
    return result


def test_typos_keep_the_first_letter():
    # keyboard neighbours (e -> w / r, t -> r / y), adjacent swaps, the doubled t written once
    assert _typos("better") == [
        "bwtter", "brtter", "bteter", "berter", "beyter", "betrer", "betyer", "betetr", "beter", "bettwr",
        "bettrr", "bettre", "bettee", "bettet",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "question, expected",
    [
        ("What did Newton discover?", "What did Newton discovrr?"),
        ("How do I become an attractive girl?", "How do I become an attractivr girl?"),
        (
            "Where can I get fantastic value for floor tiles?",
            "Where can I get fsntastic value for floor tiles?",
        ),
        ("Who is Obama?", Skip("no content word of five letters")),  # a name, and short words
        ("Is it good?", Skip("no content word of five letters")),
    ],
)
def test_misspell_english(en, question, expected):
    assert run(en, question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("什么纹身适合我", "什么纹身室合我"),
        ("男朋友生日送什么", "难朋友生日送什么"),
        ("手机", "首机"),
        ("谁是周杰伦", Skip("no content word of two characters")),  # a name, function words
        ("小米", Skip("every typo makes another word")),
    ],
)
def test_misspell_chinese(zh, question, expected):
    assert run(zh, question) == expected


def test_english_typos_are_no_words(en):
    questions = ["How does a long distance relationship work?", "What are the conditions in refugee camps?"]
    for result in en.perturb(parse(questions, "en")):
        [change] = result.changes
        assert change.new[0] == change.old[0] and not en._known(change.new)


def test_chinese_typos_sound_the_same_and_are_common(zh):
    freq, same = zh.res.jieba_freq, zh.res.same_pinyin
    questions = ["石家庄哪个旅行社好一些呢？", "高锰酸钾的作用是什么", "在淘宝网买手机可靠吗？"]
    for result in zh.perturb(parse(questions, "zh")):
        [change] = result.changes
        [(old, new)] = [(a, b) for a, b in zip(change.old, change.new, strict=True) if a != b]
        assert new in same[old] and freq[new] >= ZH_MIN_CHAR_FREQ and not freq.get(change.new, 0)
