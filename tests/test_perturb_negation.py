"""Negation operations: the predicate negated (label 0) and negation plus a complementary antonym (label
1), exact outputs on hand-written English and Chinese questions, and the refusals with their reasons."""

from __future__ import annotations

import pytest

from paraguide.perturb.base import DIFFERENT, SAME, Perturbation, Skip, edit, parse
from paraguide.perturb.negation import NegateAdjective, NegateAntonym, NegateVerb


def run(cls, lang: str, text: str):
    [result] = cls(lang, resources=object(), seed=13).perturb(parse([text], lang))  # no lexicon needed
    if isinstance(result, Perturbation):
        assert edit(result.original, result.changes) == result.perturbed
        label = SAME if cls is NegateAntonym else DIFFERENT
        assert (result.label, result.category, result.subcategory) == (label, "lexical", "negation")
        return result.perturbed
    return result


YES_NO = Skip("yes/no question (negated, it asks the same)")


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (NegateVerb, "Why do cats purr?", "Why don't cats purr?"),
        (NegateVerb, "Who wrote Hamlet?", "Who didn't write Hamlet?"),  # do-support
        (NegateAdjective, "Why is the sky blue?", "Why isn't the sky blue?"),
        (NegateAdjective, "Which planets are habitable?", "Which planets aren't habitable?"),
        (NegateAdjective, "Why is gambling illegal in India?", "Why isn't gambling illegal in India?"),
        (NegateVerb, "Which planets are habitable?", Skip("the predicate is an adjective")),
        (NegateAdjective, "Why do cats purr?", Skip("the predicate is no adjective")),
        (NegateVerb, "Is it safe to eat eggs every day?", YES_NO),
        (NegateVerb, "What did Tesla invent?", Skip("the wh-word is the object (negated, it reads oddly)")),
        (NegateVerb, "Why don't cats like water?", Skip("already negated")),
        (NegateVerb, "What is the capital of France?", Skip("a what / which is question (negated, it reads oddly)")),
        (NegateVerb, "Who is the president of France?", Skip("a copula with a noun predicate (negated, it reads oddly)")),
        (NegateVerb, "What will happen to the money?", Skip("no verb that reads well negated")),
        (NegateAntonym, "Is the cat alive?", "Is the cat not dead?"),
        (NegateAntonym, "Why is the door open?", "Why is the door not closed?"),
        (NegateAntonym, "Is the water cold?", Skip("no complementary adjective after a copula")),  # gradable
        (NegateAntonym, "Is it possible to travel in time?", Skip("no complementary adjective after a copula")),
    ],
)  # fmt: skip
def test_negation_english(tagger, cls, question, expected):
    assert run(cls, "en", question) == expected


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (NegateVerb, "为什么宝宝哭", "为什么宝宝不哭"),  # DuQM's E21
        (NegateAdjective, "为什么苹果是红的", "为什么苹果不是红的"),  # DuQM's E22
        (NegateAdjective, "什么水果好吃", "什么水果不好吃"),
        (NegateVerb, "什么网站能看新电影", "什么网站不能看新电影"),
        (NegateVerb, "北京会下雨吗", YES_NO),
        (NegateVerb, "为什么宝宝哭了", Skip("the verb takes 了 (negated, it reads badly)")),
        (NegateVerb, "什么是区块链", Skip("neither a why nor a wh-subject question")),
        (NegateVerb, "为什么冬天不下雪", Skip("already negated")),
        (NegateVerb, "谁有这部电影", Skip("neither a why nor a wh-subject question")),  # a request
        (NegateVerb, "剑灵为什么老是掉线", Skip("老是 / 总是 (always), no copula")),
        (NegateAntonym, "这样做违法吗", "这样做不合法吗"),
        (NegateAntonym, "支付宝密码忘记了怎么办", "支付宝密码不记得了怎么办"),
        (NegateAntonym, "水冷吗", Skip("no predicate with a complementary antonym")),  # gradable: not 不热
        (NegateAntonym, "如何快速忘记一个人", Skip("no predicate with a complementary antonym")),  # no predicate
    ],
)  # fmt: skip
def test_negation_chinese(cls, question, expected):
    assert run(cls, "zh", question) == expected
