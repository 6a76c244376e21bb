"""Active questions made passive (and a Chinese passive made active), with the exact outputs and the
refusals."""

from __future__ import annotations

import pytest

from paraguide.perturb.base import SAME, Perturbation, Skip, edit, parse
from paraguide.perturb.voice import ChangeVoice


@pytest.fixture(scope="module")
def en(en_resources):
    return ChangeVoice("en", en_resources, seed=13)


@pytest.fixture(scope="module")
def zh(zh_resources):
    return ChangeVoice("zh", zh_resources, seed=13)


def run(op, text: str):
    [result] = op.perturb(parse([text], op.lang))
    if isinstance(result, Perturbation):
        assert edit(result.original, result.changes) == result.perturbed
        assert (result.label, result.category, result.subcategory) == (SAME, "syntactic", "voice")
        return result.perturbed
    return result


@pytest.mark.parametrize(
    "question, expected",
    [
        ("What did the Romans build?", "What was built by the Romans?"),
        ("Who did Obama defeat in 2008?", "Who was defeated by Obama in 2008?"),  # defeat/NN: the tagger's slip
        ("What did the French give up in 1763?", "What was given up by the French in 1763?"),  # particle kept
        ("How many books did she write?", "How many books were written by her?"),  # number, object case
        ("What does Google own?", "What is owned by Google?"),  # does -> is
        ("Who wrote Hamlet?", "By whom was Hamlet written?"),
        ("Who designed the Eiffel Tower?", "By whom was the Eiffel Tower designed?"),
        ("What year did the Panthers form?", Skip("a wh-phrase that is no object")),
        ("What did he write about?", Skip("more than prepositional phrases after the verb")),  # stranded
        ("What did Obama say?", Skip("a verb whose passive is not said")),
        ("Who did he marry?", Skip("a verb whose passive is not said")),
        ("What language do they speak in Quebec?", Skip("no short subject after the auxiliary")),  # by them
        ("Who won the Super Bowl?", Skip("a verb whose passive is not said")),  # by whom ... won
        ("Who conducted the construction of the new center?", Skip("more than an object after the verb")),
        ("Where did the Romans build roads?", Skip("no object wh-question with do-support")),
    ],
)  # fmt: skip
def test_change_voice_english(en, question, expected):
    assert run(en, question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("狗咬人怎么办", "人被狗咬怎么办"),
        ("为什么猫抓老鼠", "为什么老鼠被猫抓"),
        ("狗咬了我", "我被狗咬了"),
        ("梦见蛇咬我", "梦见我被蛇咬"),
        ("梦见狗咬左腿意味着什么", "梦见被狗咬左腿意味着什么"),  # DuQM's E29: the dreamer's leg
        ("怕蚊子叮怎么办", "怕被蚊子叮怎么办"),
        ("我被群主踢了怎么办", "群主踢了我怎么办"),  # and back to the active
        ("梦见被狗咬", "梦见狗咬"),
        ("女生追男生，该怎么追？", Skip("the clause goes on after the patient")),
        ("什么狗抓兔子", Skip("a modifier before the agent")),  # not 什么兔子被狗抓
        ("女朋友被人欺负了怎么办", Skip("a generic agent")),
        ("三国杀怎么玩", Skip("no agent-action-patient clause")),  # 杀 is not on the list
        ("孕妇吃菠萝有什么好处", Skip("no agent-action-patient clause")),  # nor 吃
        ("狗是什么", Skip("no agent-action-patient clause")),
        # 被 taken out (blind reading a): an instrument as the agent, a verb before the patient
        ("梦见自己被枪打死", Skip("an agent that may not act")),  # not 梦见枪打死自己
        ("梦见自己被老虎咬", "梦见老虎咬自己"),
        ("梦到捉鱼被鱼咬是什么意思", Skip("a verb before the patient")),  # not 梦到捉鱼咬鱼
    ],
)
def test_change_voice_chinese(zh, question, expected):
    assert run(zh, question) == expected
