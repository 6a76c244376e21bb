"""Antonym operations (label 0): exact outputs on hand-written English and Chinese questions, and the
refusals with their reasons."""

from __future__ import annotations

import pytest

from paraguide.perturb.antonym import AntonymAdjective, AntonymVerb
from paraguide.perturb.base import DIFFERENT, Perturbation, Skip, edit, parse


def run(cls, res, text: str):
    [result] = cls(res.lang, res, seed=13).perturb(parse([text], res.lang))
    if isinstance(result, Perturbation):
        assert edit(result.original, result.changes) == result.perturbed
        assert (result.label, result.category, result.subcategory) == (DIFFERENT, "lexical", "antonym")
        return result.perturbed
    return result


NO_ADJ = Skip("no adjective with an antonym in the lexicons")
NO_VERB = Skip("no verb with an antonym in the lexicons")
CONTEST = Skip("winning or losing asked of the sides")
YES_NO = Skip("a yes/no question with a complementary antonym")


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (AntonymAdjective, "Which is the largest city in the world?", "Which is the smallest city in the world?"),
        (AntonymAdjective, "What are the best places to visit in Goa?", "What are the worst places to visit in Goa?"),
        (AntonymAdjective, "Is it possible to travel in time?", YES_NO),  # yes/no + complementary: the same
        (AntonymAdjective, "Why is it possible to travel in time?", "Why is it impossible to travel in time?"),
        (AntonymAdjective, "How old was Tesla when he died?", NO_ADJ),  # how + a measure
        (AntonymAdjective, "What is another possible reason?", NO_ADJ),  # an impossible reason
        (AntonymAdjective, "What is the future of deep learning?", NO_ADJ),  # a term
        (AntonymVerb, "Who won the Super Bowl in 2016?", CONTEST),  # the sides of a contest: one answer
        (AntonymVerb, "How can I increase my height?", "How can I decrease my height?"),
        (AntonymVerb, "How can I lose weight fast?", NO_VERB),  # lose -> keep: no pair read as opposite
        (AntonymAdjective, "What does the opposite of hot mean?", Skip("asks about a word itself")),
    ],
)  # fmt: skip
def test_antonyms_english(en_resources, cls, question, expected):
    assert run(cls, en_resources, question) == expected


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (AntonymAdjective, "什么水果脂肪低", "什么水果脂肪高"),  # DuQM's E20
        (AntonymAdjective, "我国最大的淡水湖是什么", "我国最小的淡水湖是什么"),
        (AntonymAdjective, "电脑开机慢怎么办", "电脑开机快怎么办"),
        (AntonymAdjective, "求一部老电视剧", NO_ADJ),  # 老 -> 少: the list's pair of another sense
        (AntonymAdjective, "大夏天穿棉袄是什么感觉", NO_ADJ),  # 大 before a noun: an intensifier
        (AntonymAdjective, "什么牌子的发膜好", NO_ADJ),  # 好 -> 恶 / 坏: not what a person asks
        (AntonymAdjective, "中国好声音谁是四强", NO_ADJ),  # 四强: a word with the number
        (AntonymVerb, "王菲为什么和李亚鹏离婚", "王菲为什么和李亚鹏结婚"),
        (AntonymVerb, "哪里卖本溪地图", NO_VERB),  # 买 / 卖 out of the pairs
        (AntonymAdjective, "高的反义词是什么", Skip("asks about a word itself")),
    ],
)  # fmt: skip
def test_antonyms_chinese(zh_resources, cls, question, expected):
    assert run(cls, zh_resources, question) == expected


@pytest.mark.parametrize(
    "lang, text, expected",
    [
        # a two-sided contest asked of its sides: the winner's and the loser's question have one answer
        ("en", "Who do you think will win the 2016 Presidential Election?", CONTEST),
        ("en", "Which team lost the match?", CONTEST),
        ("en", "How can I win her heart?", "How can I lose her heart?"),
        ("zh", "巴西和德国谁赢了", CONTEST),
        ("zh", "怎么才能赢", "怎么才能输"),
        # 买 / 卖: read as a typo or the same transaction (out of the pairs); English buy / sell reads fine
        ("zh", "淘宝卖的手机是正品吗", NO_VERB),
        ("zh", "买化妆品去哪个网站能买到正品", NO_VERB),
        ("en", "Where can I buy a used car?", "Where can I sell a used car?"),
    ],
)
def test_refusals_from_blind_reading_a(en_resources, zh_resources, lang, text, expected):
    assert run(AntonymVerb, en_resources if lang == "en" else zh_resources, text) == expected


def test_complementary_antonym_in_a_yes_no_question_is_refused(en_resources, zh_resources):
    # 有效吗 / 无效吗 ask one question with the answer flipped; a why-question is another question
    assert run(AntonymAdjective, zh_resources, "这种方法有效吗") == YES_NO
    assert (
        run(AntonymAdjective, zh_resources, "这种方法是否有效") == YES_NO
    )  # 是否 and A不A ask yes or no too
    assert run(AntonymAdjective, zh_resources, "这个减肥方法是不是有效") == YES_NO
    assert run(AntonymAdjective, zh_resources, "为什么这种方法有效") == "为什么这种方法无效"
    # English: the reader's example refused, a why-question kept, a gradable pair kept in a yes/no question
    assert run(AntonymAdjective, en_resources, "Is it possible to travel to the future?") == YES_NO
    assert (
        run(AntonymAdjective, en_resources, "Is it hot in Dubai in March?") == "Is it cold in Dubai in March?"
    )


def test_a_question_ending_in_shenme_is_no_yes_no_question(zh_resources):
    # the 么 of 什么 is no question particle: which method works best is asked, and its antonym differs
    assert run(AntonymAdjective, zh_resources, "这个方法有效的原因是什么") == "这个方法无效的原因是什么"
