"""Synonym operations (label 1): exact outputs on hand-written English and Chinese questions, and the
refusals with their reasons."""

from __future__ import annotations

import pytest

from paraguide.perturb.base import SAME, Perturbation, Skip, edit, parse
from paraguide.perturb.synonym import SynonymAdjective, SynonymAdverb, SynonymNoun, SynonymVerb, about_words


def run(cls, res, text: str):
    [result] = cls(res.lang, res, seed=13).perturb(parse([text], res.lang))
    if isinstance(result, Perturbation):
        assert edit(result.original, result.changes) == result.perturbed
        assert (result.label, result.category, result.subcategory) == (SAME, "lexical", "synonym")
        assert result.operation == cls.name
        return result.perturbed
    return result


NO = {
    c: Skip(f"no one-sense {p} with a synonym in the lexicons")
    for c, p in (
        (SynonymNoun, "noun"),
        (SynonymVerb, "verb"),
        (SynonymAdjective, "adjective"),
        (SynonymAdverb, "adverb"),
    )
}


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (SynonymNoun, "What is the average salary of a teacher?", "What is the average wage of a teacher?"),
        (SynonymNoun, "How do you teach your kid to swim?", "How do you teach your child to swim?"),
        (SynonymNoun, "What is the store room used for?", NO[SynonymNoun]),  # a compound's noun
        (SynonymNoun, "Is there evidence that aliens exist?", NO[SynonymNoun]),  # -> "foreigners": listed unsafe
        (SynonymVerb, "Why songs and music is forbidden in Islam?", "Why songs and music is prohibited in Islam?"),
        (SynonymVerb, "Who selected the players for the team?", "Who chose the players for the team?"),  # inflected
        (SynonymVerb, "Why did India choose to buy only rafale fighter planes?", NO[SynonymVerb]),  # choose to
        (SynonymAdjective, "What are some ways to become famous?", "What are some ways to become famed?"),
        (SynonymAdverb, "What exactly is power factor?", "What precisely is power factor?"),
        (SynonymAdverb, "What is the most commonly spoken language in India?", NO[SynonymAdverb]),  # most ...
        (SynonymNoun, "What does the word vote mean?", Skip("asks about a word itself")),
    ],
)  # fmt: skip
def test_synonyms_english(en_resources, cls, question, expected):
    assert run(cls, en_resources, question) == expected


@pytest.mark.parametrize(
    "cls, question, expected",
    [
        (SynonymNoun, "怎么在电脑上给手机发短信", "怎么在计算机上给手机发短信"),
        (SynonymNoun, "情人节给老婆送什么礼物好", "情人节给老婆送什么礼品好"),
        (SynonymNoun, "作文《给老师的一封信》", Skip("no noun with a reviewed Cilin synonym")),  # a title
        (SynonymVerb, "谁知道这部电视剧的名字?", "谁晓得这部电视剧的名字?"),
        (SynonymAdjective, "杨幂与唐嫣，谁更漂亮？", "杨幂与唐嫣，谁更美丽？"),
        (SynonymAdverb, "为什么冬天不下雪", "为何冬天不下雪"),
        (SynonymAdverb, "站着总是腿抖是怎么回事", "站着老是腿抖是怎么回事"),  # DuQM's E19
        (SynonymAdverb, "这个游戏好玩吗", Skip("no adverb with a reviewed Cilin synonym")),
        (SynonymVerb, "吩咐是什么意思", Skip("asks about a word itself")),
        # reading d: jieba cuts 大/名叫, and 名叫 -> 叫做 garbles 大名
        (SynonymVerb, "你的大名叫什么", Skip("no verb with a reviewed Cilin synonym")),
    ],
)  # fmt: skip
def test_synonyms_chinese(zh_resources, cls, question, expected):
    assert run(cls, zh_resources, question) == expected


def test_about_words_markers(tagger):
    [en, zh, plain] = parse(["What is the meaning of life?"], "en") + parse(
        ["高的反义词", "北京下雨吗"], "zh"
    )
    assert about_words(en) and about_words(zh) and not about_words(plain)
