"""Temporal operations (label 0): a time word inserted in the verb's tense or replaced by another of the
same tense, exact outputs on hand-written English and Chinese questions, and the refusals."""

from __future__ import annotations

import pytest

from paraguide.perturb.base import DIFFERENT, Perturbation, Skip, edit, parse
from paraguide.perturb.temporal import InsertTemporal, ReplaceTemporal


def run(cls, lang: str, text: str):
    [result] = cls(lang, resources=object(), seed=13).perturb(parse([text], lang))  # no lexicon needed
    if isinstance(result, Perturbation):
        assert edit(result.original, result.changes) == result.perturbed
        assert (result.label, result.category, result.subcategory) == (DIFFERENT, "lexical", "temporal")
        return result.perturbed
    return result


HAS_TIME = Skip("already has a time expression")
NO_WORD = Skip("no time word to replace")


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (InsertTemporal, "Will it rain in Beijing?", "Will it rain in Beijing next year?"),
        (InsertTemporal, "Is it raining in London?", Skip("a present progressive: today reads as nowadays")),
        (InsertTemporal, "How did you learn English?", "How did you learn English last year?"),
        (InsertTemporal, "How did you learn to love yourself ?", "How did you learn to love yourself last year ?"),
        (InsertTemporal, "What is the capital of France?", Skip("no future, past or progressive verb")),
        (InsertTemporal, "Who won the match yesterday?", HAS_TIME),
        (InsertTemporal, "When will the game start?", HAS_TIME),
        (InsertTemporal, "What will happen if I quit my job?", Skip("a conditional clause (where the time word goes is unclear)")),
        (ReplaceTemporal, "Who won the match yesterday?", "Who won the match last week?"),
        (ReplaceTemporal, "Will it rain tomorrow?", "Will it rain next month?"),
        (ReplaceTemporal, "What is happening today?", NO_WORD),  # "today" mostly means nowadays
        (ReplaceTemporal, "Who were the last year students?", NO_WORD),  # part of a noun phrase
    ],
)  # fmt: skip
def test_temporal_english(tagger, cls, question, expected):
    assert run(cls, "en", question) == expected


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (InsertTemporal, "北京会下雨吗", "北京明天会下雨吗"),  # DuQM's E24
        (InsertTemporal, "张柏芝死了吗", "张柏芝昨天死了吗"),
        (InsertTemporal, "今天会下雨吗", HAS_TIME),
        (InsertTemporal, "北京下雨吗", Skip("no tense (会 / 将 after the subject, or a final 了 / 过)")),
        (InsertTemporal, "我喜欢的女孩要走了", Skip("not one simple clause")),
        (ReplaceTemporal, "昨天下雪了吗", "前天下雪了吗"),  # 了: the past or today
        (ReplaceTemporal, "明天会下雨吗", "今天会下雨吗"),  # 会: the future or today
        (ReplaceTemporal, "今年流行什么颜色", "明年流行什么颜色"),
        (ReplaceTemporal, "北京会下雨吗", NO_WORD),
    ],
)  # fmt: skip
def test_temporal_chinese(cls, question, expected):
    assert run(cls, "zh", question) == expected
