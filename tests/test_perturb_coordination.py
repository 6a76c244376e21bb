"""Swapping two phrases: symmetric coordination (same question), asymmetric relations (a different one) and
comparisons swapped with their adjective's antonym (the same again), English and Chinese, with the
exact outputs and the refusals."""

from __future__ import annotations

import pytest
from helpers import shared

from paraguide.perturb.base import DIFFERENT, SAME, Perturbation, Skip, edit, parse
from paraguide.perturb.coordination import (
    _ZH_COMPARATIVES,
    SwapAsymmetric,
    SwapNegativeAsymmetric,
    SwapSymmetric,
)
from paraguide.perturb.resources import Resources


def run(op, text: str):
    """The operation's result on one question: the perturbed text, or the Skip."""
    [result] = op.perturb(parse([text], op.lang))
    if isinstance(result, Perturbation):
        assert edit(result.original, result.changes) == result.perturbed
        return result.perturbed
    return result


@pytest.mark.parametrize(
    "question, expected",
    [
        ("What is the difference between a comet and an asteroid?", "What is the difference between an asteroid and a comet?"),
        ("Why do cats and dogs fight?", "Why do dogs and cats fight?"),
        ("Will there be a war between India and Pakistan?", "Will there be a war between Pakistan and India?"),
        # a shared determiner stays in front; adjective + noun conjuncts move whole, capitals kept
        ("What was the final score of the game between the Broncos and Steelers?", "What was the final score of the game between the Steelers and Broncos?"),
        ("What is the difference between Chinese culture and western culture?", "What is the difference between western culture and Chinese culture?"),
        ("Why is Sion station called Sheev in Hindi and Marathi?", "Why is Sion station called Sheev in Marathi and Hindi?"),
        ("Where can I buy red apples and pears?", Skip("a modifier that may cover both conjuncts")),
        ("What are the pros and cons of nuclear power?", Skip("fixed expression")),
        ("Who wrote War and Peace?", Skip("fixed expression")),
        ("Who wrote Pride and Joy?", Skip("names that may be one title or firm")),
        ("How do I overcome depression, anxiety and stress?", Skip("part of a longer phrase or list")),
        ("What is the ratio of boys and girls in IITs?", Skip("order matters in the question")),
        ("Which is the best SSC and banking training institute?", Skip("no coordination of two nouns")),
        ("What is generated between a surface and an object that is pushed?", Skip("part of a longer phrase or list")),
        ("Other than the US and Britain, which country?", Skip("no coordination of two nouns")),  # not "the Britain"
        ("What happened between 1950 and 1960?", Skip("no coordination of two nouns")),
        ("What did the Romans build?", Skip("no coordination of two nouns")),
        # reading c: the conjunct's boundary inside a hyphenated word is unsure
        ("Whose win will be beneficial for India-Donald Trump or Hillary Clinton?", Skip("a hyphen joined to a conjunct")),
        # reading d: "age" and "travel" are verbs here
        ("Can we hibernate like in the movie Passengers and not age and travel to another planet?", Skip("a conjunct that may not be a noun")),
    ],
)  # fmt: skip
def test_swap_symmetric_english(en_resources, question, expected):
    assert run(SwapSymmetric("en", en_resources, seed=13), question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("鱼和鸡蛋能一起吃吗", "鸡蛋和鱼能一起吃吗"),
        ("男人和女人有什么区别", "女人和男人有什么区别"),
        ("章子怡和林志玲谁漂亮", "林志玲和章子怡谁漂亮"),
        ("怎么把淘宝和支付宝绑定", "怎么把支付宝和淘宝绑定"),
        ("老师跟学生说了什么", Skip("和 / 跟 before a directed verb")),  # 跟: to, not and
        ("大苹果和梨哪个好吃", Skip("part of a longer phrase or list")),  # 大: of both?
        ("乌贼，章鱼和鱿鱼有什么区别？", Skip("part of a longer phrase or list")),
        ("手机和电脑游戏哪个好玩", Skip("part of a longer phrase or list")),  # 手机游戏 too
        ("西红柿是水果还是蔬菜？", "西红柿是蔬菜还是水果？"),
        ("《雷横与朱仝》在哪看", Skip("inside a title")),
        ("地下城与勇士怎么可以转区", Skip("与 in a title")),  # a game
        ("有的美女还是单身吗", Skip("还是 that is not a choice")),  # 还是: still
        ("我和女朋友的问题", Skip("no coordination of two nouns")),
    ],
)
def test_swap_symmetric_chinese(zh_resources, question, expected):
    assert run(SwapSymmetric("zh", zh_resources, seed=13), question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("What is the best way to send money from India to the UK?", "What is the best way to send money from the UK to India?"),
        ("Is a cat bigger than a dog?", "Is a dog bigger than a cat?"),
        ("Is Amazon better than eBay?", "Is eBay better than Amazon?"),
        ("Why do women live longer than men?", "Why do men live longer than women?"),
        ("How do you convert English to Sanskrit?", "How do you convert Sanskrit to English?"),
        ("Will Google buy Twitter?", "Will Twitter buy Google?"),
        ("How far is it from Paris to London?", Skip("distance or travel time: the same either way")),
        ("How do I learn Python from beginner to advanced?", Skip("no from-to or comparison of two nouns")),
        ("Why are kids smarter than their parents?", Skip("a pronoun that refers across the swap")),
        ("Why are cats smarter than a dog?", Skip("phrases of different number")),
        ("Did Trump meet Putin?", Skip("a symmetric verb")),
        # reading c: a conversion between units, and a drive, are one relation either way round
        ("What is the equation to convert grams into milliliters?", Skip("a conversion between units: one relation either way")),
        ("How do I convert Celsius to Fahrenheit?", Skip("a conversion between units: one relation either way")),
        ("How do I convert PDF to Word?", "How do I convert Word to PDF?"),
        ("How can the drive from Edmonton to Auckland be described?", Skip("distance or travel time: the same either way")),
    ],
)  # fmt: skip
def test_swap_asymmetric_english(en_resources, question, expected):
    assert run(SwapAsymmetric("en", en_resources, seed=13), question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("北京到上海的航班有哪些", "上海到北京的航班有哪些"),
        ("从北京到上海的火车票多少钱", "从上海到北京的火车票多少钱"),
        ("男人比女人高吗", "女人比男人高吗"),
        ("上传视频到土豆", Skip("到 between words that are not two places")),
        ("北京到上海有多远", Skip("distance or travel time: the same either way")),
        ("从怀柔到北京农业职业学院怎么走", Skip("part of a longer name")),
        ("狗是什么", Skip("no from-to or comparison of two nouns")),
    ],
)
def test_swap_asymmetric_chinese(zh_resources, question, expected):
    assert run(SwapAsymmetric("zh", zh_resources, seed=13), question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("Are men taller than women?", "Are women shorter than men?"),
        ("Is a cat bigger than a dog?", "Is a dog smaller than a cat?"),  # big -> small, not WordNet's little
        ("Is gold more expensive than silver?", "Is silver cheaper than gold?"),
        ("Is silver cheaper than gold?", "Is gold more expensive than silver?"),
        ("What happens when the wife is taller than the husband?", "What happens when the husband is shorter than the wife?"),
        ("Is Kannada older than Telugu?", Skip("no antonym in the lexicons")),  # younger or newer?
        ("Is tea healthier than coffee?", Skip("no antonym in the lexicons")),  # not "more unhealthy"
        ("Why do women live longer than men?", Skip("comparison with a verb other than be")),
        ("What is the difference between a comet and an asteroid?", Skip("no comparison of two nouns")),
    ],
)  # fmt: skip
def test_swap_negative_asymmetric_english(en_resources, question, expected):
    assert run(SwapNegativeAsymmetric("en", en_resources, seed=13), question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("男人比女人更高吗", "女人比男人更矮吗"),  # people: 矮
        ("房价比房租高吗", "房租比房价低吗"),  # prices: 低
        ("苹果比香蕉贵吗", "香蕉比苹果便宜吗"),
        ("我比他胖吗", "他比我瘦吗"),
        ("飞机比火车快多少", "火车比飞机慢多少"),
        ("男人比女人高一倍吗", Skip("the comparison goes on after the adjective")),
        ("为什么女人比男人更好色", Skip("no adjective with an antonym after the comparison")),
        ("北京到上海的航班有哪些", Skip("no comparison of two nouns")),
    ],
)
def test_swap_negative_asymmetric_chinese(zh_resources, question, expected):
    assert run(SwapNegativeAsymmetric("zh", zh_resources, seed=13), question) == expected


@pytest.mark.parametrize(
    "cls, label, subcategory, question",
    [
        (SwapSymmetric, SAME, "symmetry", "鱼和鸡蛋能一起吃吗"),
        (SwapAsymmetric, DIFFERENT, "asymmetry", "北京到上海的航班有哪些"),
        (SwapNegativeAsymmetric, SAME, "negative_asymmetry", "男人比女人更高吗"),
    ],
)
def test_pairs_carry_labels_and_place_in_duqm_table(zh_resources, cls, label, subcategory, question):
    [pair] = cls("zh", zh_resources, seed=13).perturb(parse([question], "zh"))
    assert (pair.label, pair.category, pair.subcategory, pair.operation) == (
        label,
        "syntactic",
        subcategory,
        cls.name,
    )
    assert len(pair.changes) == (3 if cls is SwapNegativeAsymmetric else 2)  # two phrases (and the adjective)


def test_chinese_comparative_antonyms_come_from_the_antonym_list(zh_resources):
    """Each pair of the table is in the antonym list, except the three whose list entry does not compare
    (it gives 贵 / 贱, 难 / 易, 好 / 坏)."""
    shared("zh_cilin/antonym.txt")
    added = {("贵", "便宜"), ("难", "容易"), ("好", "差")}
    for a, b in _ZH_COMPARATIVES.items():
        if (a, b) in added or (b, a) in added:
            continue
        assert b in zh_resources.zh_antonyms.get(a, ()), (a, b)
        assert len(a) == len(b), (a, b)


def test_chinese_comparison_keeps_a_question_word_with_its_noun():
    # 什么手机比苹果好 -> 什么苹果比手机好 is nonsense (blind reading a): the question word would move nouns
    from helpers import shared

    from paraguide.perturb.base import parse
    from paraguide.perturb.coordination import SwapAsymmetric, SwapNegativeAsymmetric

    shared("zh_cilin/antonym.txt")
    res = Resources("zh")
    parsed = parse(["现在什么手机比苹果好？", "为什么男人比女人强壮"], "zh")
    out = [getattr(r, "perturbed", None) or r.reason for r in SwapAsymmetric("zh", res).perturb(parsed)]
    assert out == ["a question word on one side", "为什么女人比男人强壮"]
    [refused, kept] = SwapNegativeAsymmetric("zh", res).perturb(
        parse(["现在什么手机比苹果好？", "苹果比三星好吗"], "zh")
    )
    assert (refused.reason, kept.perturbed) == ("a question word on one side", "三星比苹果差吗")


def test_chinese_route_opening_is_the_same_either_way():
    # 梧州到广州高铁什么时候开通: one line, whichever end comes first (blind reading a); a ticket's price is directional
    from helpers import shared

    from paraguide.perturb.base import parse
    from paraguide.perturb.coordination import SwapAsymmetric

    shared("zh_cilin/antonym.txt")
    parsed = parse(["梧州到广州高铁什么时候开通", "梧州到广州高铁票多少钱"], "zh")
    out = [
        getattr(r, "perturbed", None) or r.reason
        for r in SwapAsymmetric("zh", Resources("zh")).perturb(parsed)
    ]
    assert out == ["the opening of a route: the same either way", "广州到梧州高铁票多少钱"]
