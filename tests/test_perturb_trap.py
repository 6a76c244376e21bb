"""Over-stability traps (DuReader-robust §2.2, AddSent): the statements questions become, the traps made on
hand-written passages with their exact sentences, the refusals, the insertion at both places with valid
answer offsets, trap_hits, and the job's files on a tiny SQuAD file."""

from __future__ import annotations

import json
import random

import pytest

from paraguide.data.outdir import RunConflict
from paraguide.data.squad import read_squad
from paraguide.evaluate.traps import trap_hits
from paraguide.perturb.base import Skip, parse
from paraguide.perturb.trap import EntityPool, Mutation, Trap, TrapMaker, shift_number
from paraguide.perturb.trap.values import _against, _value
from paraguide.pipeline.trap import TrapJob
from paraguide.text.entities import Entity


@pytest.fixture(scope="module")
def en(en_resources):
    return TrapMaker("en", seed=13, resources=en_resources)


@pytest.fixture(scope="module")
def zh(zh_resources):
    return TrapMaker("zh", seed=13, resources=zh_resources)


def statement(maker: TrapMaker, question: str, distractor: str, kind: str):
    q = parse([question], maker.lang)[0]
    frame = maker.frame(q)
    return frame if isinstance(frame, Skip) else maker.statement(q, frame, distractor, kind)


def answers(text: str, context: str) -> list[dict]:
    return [{"text": text, "answer_start": context.index(text)}]


@pytest.mark.parametrize(
    "question, distractor, kind, expected",
    [
        ("Who wrote Hamlet in 1600?", "Christopher Marlowe", "person", "Christopher Marlowe wrote Hamlet in 1600."),
        ("When did Tesla move to New York?", "1884", "year", "Tesla moved to New York in 1884."),
        ("What year did the Romans build the wall?", "122", "year", "The Romans built the wall in 122."),
        ("Where did Chopin die?", "Paris", "location", "Chopin died in Paris."),
        ("How many touchdowns did Newton score in the game?", "45", "number",
         "Newton scored 45 touchdowns in the game."),
        ("How many touchdowns did Newton score in the game?", "1", "number", None),  # "1 touchdowns"
        ("What is the capital of France?", "Paris", "location", "The capital of France is Paris."),
        ("When was the Eiffel Tower built?", "June 5, 1889", "date", "The Eiffel Tower was built on June 5, 1889."),
        ("Who was the tower designed by?", "Gustave Eiffel", "person", "The tower was designed by Gustave Eiffel."),
        ("How many people are there in the city?", "300", "number", "There are 300 people in the city."),
        ("Which team won Super Bowl 50?", "Denver Broncos", "person", "Denver Broncos won Super Bowl 50."),
        ("Tesla was born in what city?", "Smiljan", "location", "Tesla was born in Smiljan."),
        ("In 1990, who won the award?", "Jane Smith", "person", "In 1990, Jane Smith won the award."),
        ("What team did the Broncos beat in the playoffs?", "Pittsburgh Steelers", "organization",
         "The Broncos beat Pittsburgh Steelers in the playoffs."),
        ("How many games has Denver won?", "12", "number", "Denver has won 12 games."),
        ("In what year did the war end?", "1945", "year", "The war ended in 1945."),
        ("What county is Fresno in?", "Fresno County", "location", "Fresno is in Fresno County."),
        ("When did the decade begin?", "1960s", "year", "The decade began in the 1960s."),
        ("Why did the war end?", "", "", Skip("a why-question")),
        ("Whose car is this?", "", "", Skip("a whose-question")),
        ("Who did not come?", "", "", Skip("a negated question")),
        ("How did the war end?", "", "", Skip("a how-question other than how many / how much")),
        ("Who was Frédéric Chopin?", "", "", Skip("who or what a name is")),
        ("What service did Verizon customers need to use?", "", "", Skip("the object's place is unclear")),
        ("When did Germany invade Poland and in doing so start the war?", "", "", Skip("a clause after the verb")),
    ],
)  # fmt: skip
def test_english_statements(en, question, distractor, kind, expected):
    assert statement(en, question, distractor, kind) == expected


@pytest.mark.parametrize(
    "question, distractor, kind, expected",
    [
        ("北京的人口是多少", "2000万", "number", "北京的人口是2000万。"),
        ("苹果手机多少钱", "5000元", "money", "苹果手机是5000元。"),  # an amount after a noun takes 是
        ("华为什么时候成立的", "1987年", "year", "华为是1987年成立的。"),  # not 华 / 为什么
        ("重庆环线什么时候通车", "2013年", "year", "重庆环线在2013年通车。"),
        ("武则天传位给谁", "李显", "person", "武则天传位给李显。"),
        ("亚马逊河在哪个国家", "巴西", "location", "亚马逊河在巴西。"),  # the noun goes with 哪个
        ("宣太后有几个孩子", "三个", "quantity", "宣太后有三个孩子。"),
        ("宣太后有几个孩子", "3", "number", "宣太后有3个孩子。"),  # the question's classifier after a number
        ("宣太后有几个孩子", "3天", "quantity", None),  # another unit
        ("请问成都5号线哪一年开通？", "2019年", "year", "成都5号线2019年开通。"),
        ("亚马逊市值", "3581亿美元", "money", "亚马逊市值是3581亿美元。"),
        ("白浅第几集要回眼睛", "第56集", "ordinal", "白浅第56集要回眼睛。"),
        ("为什么天是蓝的", "", "", Skip("a why / how / yes-no / alternative question")),
        ("手机怎么刷机", "", "", Skip("a why / how / yes-no / alternative question")),
        ("笑傲江湖哪个版本好看", "", "", Skip("an evaluative question")),
        ("北戴河什么时候去最好", "", "", Skip("an evaluative question")),
        ("什么时候去哪里玩", "", "", Skip("more than one question word")),
        ("朝鲜核技术哪来的", "", "", Skip("no rule for this question form")),
    ],
)  # fmt: skip
def test_chinese_statements(zh, question, distractor, kind, expected):
    assert statement(zh, question, distractor, kind) == expected


TESLA = ("Nikola Tesla was born in 1856 in Smiljan. Thomas Edison was born in 1847 in Milan, Ohio. "
         "Tesla moved to New York in 1884 and worked for Edison. He received 40 patents in 1891.")  # fmt: skip
CITY = "The largest city has 2,000 inhabitants and the oldest town has 500 inhabitants."
PARIS = "Thomas Edison visited Paris in 1889. Nikola Tesla visited Paris in 1892."
GAME = "The Panthers scored 10 points in the first half."


def test_english_traps(en):
    # a number of the question shifted, the other person of the passage in the wh-word's place
    assert en.make("q1", "Who was born in 1847?", TESLA, answers("Thomas Edison", TESLA)) == Trap(
        "Nikola Tesla was born in 1845.", "Nikola Tesla", "person", "passage",
        Mutation(16, "1847", "1845", "number"), "subject",
    )  # fmt: skip
    # no number: an adjective by its antonym
    assert en.make("q2", "How many inhabitants does the largest city have?", CITY, answers("2,000", CITY)) == Trap(
        "The smallest city has 500 inhabitants.", "500", "number", "passage",
        Mutation(30, "largest", "smallest", "antonym"), "do-support",
    )  # fmt: skip
    # no number or antonym: a person's name by another of the passage
    assert en.make("q3", "When did Thomas Edison visit Paris?", PARIS, answers("1889", PARIS)) == Trap(
        "Nikola Tesla visited Paris in 1892.", "1892", "year", "passage",
        Mutation(9, "Thomas Edison", "Nikola Tesla", "entity"), "do-support",
    )  # fmt: skip
    # no other number in the passage: one of the file's (near the answer in value: 24, not 300)
    pool = EntityPool()
    pool.add([Entity("24", "number", 0, 2), Entity("300", "number", 3, 6), Entity("1", "number", 7, 8)])
    question = "How many points did the Panthers score in the first half?"
    assert en.make("q4", question, GAME, answers("10", GAME), pool) == Trap(
        "The Panthers scored 24 points in the second half.", "24", "number", "file",
        Mutation(46, "first", "second", "number"), "do-support",
    )  # fmt: skip


@pytest.mark.parametrize(
    "question, answer, reason",
    [
        ("When did Tesla move to New York?", "1884", "nothing in the question to change"),
        # "Smiljan" alone is typed "other name": another place must then be one WordNet knows
        ("Where was Tesla born?", "Smiljan", "no other name of the answer's kind in the passage"),
        ("How many patents did Tesla receive in 1891?", "40", "no distractor of the answer's type"),
        ("Who worked for Edison?", "Tesla", "no other name of the answer's kind in the passage"),
        ("Why did Tesla move to New York?", "1884", "a why-question"),
        ("What did Tesla do in New York?", "worked for Edison", "answer of no known entity type"),
    ],
)
def test_english_refusals(en, question, answer, reason):
    assert en.make("q", question, TESLA, answers(answer, TESLA)) == Skip(reason)


def test_chinese_traps(zh):
    context = "广州的人口是1490万。上海的人口是2428万。"
    assert zh.make("z1", "广州的人口是多少", context, answers("1490万", context)) == Trap(
        "上海的人口是2428万。",
        "2428万",
        "number",
        "passage",
        Mutation(0, "广州", "上海", "entity"),
        "wh-in-situ",
    )
    context = "武则天传位给李显。李显是唐高宗之子，李旦是他的弟弟。"
    assert zh.make("z2", "武则天传位给谁", context, answers("李显", context)) == Trap(
        "李旦传位给唐高宗。",
        "唐高宗",
        "person",
        "passage",
        Mutation(0, "武则天", "李旦", "entity"),
        "wh-in-situ",
    )
    context = "2016年的高考人数是940万，2017年是940万左右，2015年是942万。"
    assert zh.make("z3", "2017年高考人数", context, answers("940万左右", context)) == Trap(
        "2022年高考人数是942万。", "942万", "number", "passage", Mutation(0, "2017年", "2022年", "number"),
        "noun-phrase",
    )  # fmt: skip


def test_chinese_refusals(zh):
    context = "华为1987年成立于深圳。中兴1985年成立。"
    # 华为 is a brand (nz): no name of a kind to swap, no number, no opposite
    assert zh.make("z", "华为什么时候成立的", context, answers("1987年", context)) == Skip(
        "nothing in the question to change"
    )
    context = "雅思考试费用是2170元。"
    assert zh.make("z", "雅思多少钱", context, answers("2170元", context)) == Skip(
        "no distractor of the answer's type"
    )
    context = "亚马逊河流经巴西。"
    assert zh.make("z", "亚马逊河为什么这么长", context, answers("巴西", context)) == Skip(
        "a why / how / yes-no / alternative question"
    )


def test_traps_a_blind_reading_found_absurd_are_refused_or_remade(en, zh):
    # a time on the other side of the answer from the changed number ("the second market opened in 1834"
    # when the first opened in 1835): a later one is taken, else none
    context = "Newcastle's first indoor market opened in 1835. It was large."
    question = "When did Newcastle's first indoor market open?"
    pool = EntityPool()
    pool.add([Entity("1830", "year", 0, 4), Entity("1840", "year", 5, 9)])
    assert en.make("q", question, context, answers("1835", context), pool).sentence == (
        "Newcastle's second indoor market opened in 1840."
    )
    pool = EntityPool()
    pool.add([Entity("1830", "year", 0, 4)])
    assert en.make("q", question, context, answers("1835", context), pool) == Skip(
        "no time or amount on the change's side of the answer"
    )
    # "first published" -> "second published" is no English: nothing else to change here
    context = (
        "The Reformed church grew in France. An illustrated version of the scriptures was printed in Paris."
    )
    question = "The illustrated French-language scriptures were first published in what city?"
    assert en.make("q", question, context, answers("Paris", context)) == Skip(
        "nothing in the question to change"
    )
    # a date of another month than the question's ("2017年6月 ... 8月10日")
    context = "2017年6月四级考试时间是6月17日。"
    pool = EntityPool()
    pool.add([Entity("8月10日", "date", 0, 5)])
    assert zh.make("z", "2017年6月四级考试时间", context, answers("6月17日", context), pool) == Skip(
        "no distractor of the answer's type"
    )
    pool.add([Entity("6月24日", "date", 6, 11)])
    assert (
        zh.make("z", "2017年6月四级考试时间", context, answers("6月17日", context), pool).distractor
        == "6月24日"
    )


def test_traps_trap_reading_b_found_absurd_are_refused(en, zh):
    # a rate per one: the answer scales with it ("三个身份证可以认证11个" when one holds 6)
    pool = EntityPool()
    pool.add([Entity("10个", "quantity", 0, 3), Entity("1699元", "money", 4, 9)])
    context = "一个人可以申请6个支付宝账户。"
    assert zh.make("z", "一个人可以申请几个支付宝", context, answers("6个", context), pool) == Skip(
        "nothing in the question to change"
    )
    # a model's number is part of its name ("苹果7128g" -> "苹果7328g")
    context = "苹果7128g售价5780元。"
    assert zh.make("z", "苹果7128g多少钱", context, answers("5780元", context), pool) == Skip(
        "nothing in the question to change"
    )
    context = "项昊由贾乃亮饰演，吴锦源执导。"
    assert zh.make("z", "项昊是谁", context, answers("贾乃亮", context)) == Skip("who someone is")
    # "the Pittsburgh Steelers" is no person, whatever the entity finder says
    context = "The Broncos beat the Pittsburgh Steelers. Cam Newton was the MVP of the 2015 season."
    assert en.make(
        "q", "Who was the MVP of the 2015 season?", context, answers("Cam Newton", context)
    ) == Skip("no distractor of the answer's type")
    # a person from another article beside a year ("Saul Bellow explored Ohio territory in 1747")
    pool = EntityPool()
    pool.add([Entity("Saul Bellow", "person", 0, 11)])
    pool.add([Entity("Saul Bellow", "person", 0, 11)])
    context = "The Ohio territory was explored by Christopher Gist in 1750."
    question = "Who explored Ohio territory in 1750?"
    assert en.make("q", question, context, answers("Christopher Gist", context), pool) == Skip(
        "no distractor of the answer's type"
    )
    context = "The two teams met in 2014, and one of the two soccer teams was suspended in 2014."
    question = "Which year resulted in the suspension of one of the two soccer teams?"
    assert en.make("q", question, context, answers("2014", context)) == Skip("a time as the subject")


def test_amounts_are_compared_with_their_scale():
    # "$230 million" is no distractor for "$960 billion", nor 2368万元 for 10089亿元 (within a factor of ten
    # only by their digits)
    assert _value("$960 billion") == 9.6e11 and _value("$230 million") == 2.3e8
    assert _value("10089亿元") == 1.0089e12 and _value("2368万元") == 2.368e7
    assert _value("2017年5月11日") == 2017 and _value("1,500") == 1500
    later = Mutation(0, "2", "3", "number")
    assert _against(later, "2014年12月5日", "2017年5月11日") and not _against(
        later, "2020年5月21日", "2017年5月11日"
    )
    assert _against(Mutation(0, "last", "earliest", "antonym"), "1728", "1726")
    # an amount after "most" -> "least" must be less than the answer ("最少能发390元" when the most is 200元)
    assert _against(Mutation(0, "最多", "最少", "antonym"), "390元", "200元")
    assert not _against(Mutation(0, "最多", "最少", "antonym"), "182元", "200元")


def test_chinese_two_before_a_measure_word_is_liang():
    assert {shift_number("一个身份证", random.Random(s)) for s in range(30)} >= {"两个身份证", "三个身份证"}
    assert not any(shift_number("一个人", random.Random(s)).startswith("二") for s in range(30))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1847", "1845"),
        ("1630s", "1610s"),  # a decade stays a decade
        ("32nd", "30th"),  # the ordinal suffix follows the number
        ("15", "13"),
        ("1,200", "1,100"),  # in its second digit, commas kept
        ("three", "two"),
        ("first", "second"),  # a neighbour: no "fourth half"
        ("2012-13", None),  # a span of years
        ("三个", "四个"),
        ("no number", None),
    ],
)
def test_shift_number(text, expected):
    assert shift_number(text, random.Random(3)) == expected


@pytest.mark.parametrize("position", ["end", "before_answer"])
def test_insert_keeps_answer_offsets(en, zh, position):
    context = "Tesla was born in 1856. He moved to New York in 1884. He died in 1943."
    gold = [{"text": "1884", "answer_start": 48}, {"text": "New York", "answer_start": 36}]
    plausible = [{"text": "1943", "answer_start": 65}]
    inserted = en.insert(context, gold, "Edison moved to Paris in 1882.", position, plausible)
    for a in [*inserted.answers, *inserted.plausible_answers]:
        assert inserted.context[a["answer_start"] : a["answer_start"] + len(a["text"])] == a["text"]
    offset = inserted.offset
    assert inserted.context[offset : offset + 30] == "Edison moved to Paris in 1882."
    if position == "end":
        assert inserted.context == context + " Edison moved to Paris in 1882."
        assert [a["answer_start"] for a in inserted.answers] == [48, 36]
    else:  # before "He moved to New York in 1884.", the first answer's sentence
        assert offset == 24
        assert (
            inserted.context[:70] == "Tesla was born in 1856. Edison moved to Paris in 1882. He moved to New"
        )
        assert [a["answer_start"] for a in inserted.answers] == [79, 67]
    context = "北京的人口是2154万。上海的人口是2428万"
    gold = [{"text": "2154万", "answer_start": 6}]
    inserted = zh.insert(context, gold, "广州的人口是1490万。", position)
    expected = {"end": "北京的人口是2154万。上海的人口是2428万。广州的人口是1490万。",
                "before_answer": "广州的人口是1490万。北京的人口是2154万。上海的人口是2428万"}[position]  # fmt: skip
    assert inserted.context == expected
    a = inserted.answers[0]
    assert inserted.context[a["answer_start"] : a["answer_start"] + 5] == "2154万"


def test_insert_refuses_an_answer_across_the_place(en):
    context = "It rained. Then it stopped."
    gold = [{"text": "Then", "answer_start": 11}, {"text": "rained. Then", "answer_start": 3}]
    assert en.insert(context, gold, "It snowed.", "before_answer") == Skip("an answer spans the trap's place")


def test_trap_hits(tmp_path):
    traps = [
        {"id": "a-trap", "distractor": "Nikola Tesla", "type": "person"},
        {"id": "b-trap", "distractor": "1892", "type": "year"},
        {"id": "c-trap", "distractor": "The Carolina Panthers", "type": "person"},
        {"id": "d-trap", "distractor": "24", "type": "number"},
        {"id": "e-trap", "distractor": "500", "type": "number"},
    ]
    predictions = {
        "a-trap": "Tesla",  # contained in the distractor (whole words)
        "b-trap": "in 1892",  # contains it
        "c-trap": "carolina panthers",  # equal once normalised (case, article)
        "d-trap": "240",  # no whole word in common
        "x-trap": "ignored",  # no such trap
    }
    result = trap_hits(predictions, traps)
    assert result == {
        "traps": 5, "predicted": 4, "hits": 3, "rate": 75.0, "hit_ids": ["a-trap", "b-trap", "c-trap"],
        "by_type": {"number": {"predicted": 1, "hits": 0, "rate": 0.0},
                    "person": {"predicted": 2, "hits": 2, "rate": 100.0},
                    "year": {"predicted": 1, "hits": 1, "rate": 100.0}},
    }  # fmt: skip
    path = tmp_path / "traps.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in traps), encoding="utf-8")
    assert trap_hits(predictions, str(path))["hits"] == 3
    zh_traps = [
        {"id": "z", "distractor": "2428万", "type": "number"},
        {"id": "y", "distractor": "2015年", "type": "year"},
    ]
    # Chinese by characters: "2428万人" holds the distractor; "年" alone is too short to count
    assert trap_hits({"z": "2428万人", "y": "年"}, zh_traps, "zh")["hit_ids"] == ["z"]


def _squad(path, paragraphs):
    data = {"version": "1.1", "data": [{"title": "t", "paragraphs": paragraphs}]}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _qa(qid, question, answer, context):
    return {
        "id": qid,
        "question": question,
        "answers": [{"text": answer, "answer_start": context.index(answer)}],
    }


@pytest.fixture
def tiny(tmp_path):
    return _squad(tmp_path / "tiny.json", [
        {"context": TESLA, "qas": [_qa("t1", "Who was born in 1847?", "Thomas Edison", TESLA),
                                   _qa("t2", "What did Tesla do in New York?", "worked for Edison", TESLA)]},
        {"context": CITY, "qas": [_qa("c1", "How many inhabitants does the largest city have?", "2,000", CITY)]},
        {"context": PARIS, "qas": [_qa("p1", "When did Thomas Edison visit Paris?", "1889", PARIS)]},
    ])  # fmt: skip


@pytest.mark.parametrize("position", ["end", "before_answer"])
def test_trap_job_files(en, tiny, tmp_path, position):
    out = tmp_path / f"out-{position}"
    summary = TrapJob(squad=tiny, lang="en", out=str(out), position=position).run(progress=False)
    assert sorted(p.name for p in out.iterdir()) == [
        "id_map.json", "original.json", "run.json", "summary.json", "trap.json", "traps.jsonl",
    ]  # fmt: skip
    assert (summary["questions"], summary["kept"]) == (4, 3)
    assert summary["skipped"] == {"answer of no known entity type": 1}
    assert summary["by_pattern"] == {"do-support": 2, "subject": 1}
    assert json.loads((out / "summary.json").read_text()) == summary
    original, header = read_squad(out / "original.json")
    assert header == {"version": "1.1"}
    assert [r["id"] for r in original] == ["t1", "c1", "p1"]
    assert original[0]["context"] == TESLA  # unchanged
    trap, _ = read_squad(out / "trap.json")
    assert [r["id"] for r in trap] == ["t1-trap", "c1-trap", "p1-trap"]
    id_map = json.loads((out / "id_map.json").read_text())
    assert id_map == {"t1-trap": "t1", "c1-trap": "c1", "p1-trap": "p1"}
    rows = [json.loads(line) for line in (out / "traps.jsonl").read_text().splitlines()]
    assert [r["trap"] for r in rows] == [
        "Nikola Tesla was born in 1850.", "The smallest city has 500 inhabitants.", "Nikola Tesla visited Paris in 1892.",
    ]  # fmt: skip
    assert rows[0] == {
        "id": "t1-trap", "original_id": "t1", "question": "Who was born in 1847?", "trap": "Nikola Tesla was born in 1850.",
        "distractor": "Nikola Tesla", "type": "person", "offset": rows[0]["offset"], "position": position,
        "source": "passage", "pattern": "subject", "mutated": {"old": "1847", "new": "1850", "kind": "number"},
    }  # fmt: skip
    for record, row in zip(trap, rows, strict=True):
        context = record["context"]
        assert context[row["offset"] : row["offset"] + len(row["trap"])] == row["trap"]
        for a in record["answers"]:
            assert context[a["answer_start"] : a["answer_start"] + len(a["text"])] == a["text"]
    if position == "end":
        assert trap[0]["context"] == TESLA + " Nikola Tesla was born in 1850."
    else:  # before the sentence of "Thomas Edison"
        assert rows[0]["offset"] == TESLA.index("Thomas Edison")
    with pytest.raises(RunConflict):
        TrapJob(squad=tiny, lang="en", out=str(out), position=position).run(progress=False)
    again = TrapJob(squad=tiny, lang="en", out=str(out), position=position, overwrite=True).run(
        progress=False
    )
    assert again["kept"] == 3


def test_trap_job_select_only(en, tiny, tmp_path):
    out = tmp_path / "select"
    summary = TrapJob(squad=tiny, lang="en", out=str(out), select_only=True).run(progress=False)
    assert sorted(p.name for p in out.iterdir()) == ["original.json", "run.json", "summary.json"]
    # t1: persons Nikola Tesla, Thomas Edison (m = 2); c1: 2,000 and 500; p1: 1889 and 1892
    assert (summary["mode"], summary["kept"]) == ("select", 3)
    assert summary["by_entities"] == {"2": 3}
    assert summary["skipped"] == {"answer of no known entity type": 1}
    original, _ = read_squad(out / "original.json")
    assert [r["id"] for r in original] == ["t1", "c1", "p1"]
    narrow = TrapJob(squad=tiny, lang="en", out=str(tmp_path / "k2"), select_only=True, max_entities=3)
    assert narrow.run(progress=False)["kept"] == 3  # 1 < 2 < 3
    with pytest.raises(ValueError):
        TrapJob(squad=tiny, lang="en", out=str(tmp_path / "k"), select_only=True, max_entities=2).run(False)


def test_trap_job_repairs_chinese_offsets(zh, tmp_path):
    context = "广州的人口是1490万。上海的人口是2428万。"
    qa = {"id": "z1", "question": "广州的人口是多少", "answers": [{"text": "1490万", "answer_start": -1}]}
    squad = _squad(tmp_path / "dureader.json", [{"context": context, "qas": [qa]}])
    summary = TrapJob(squad=squad, lang="zh", out=str(tmp_path / "out")).run(progress=False)
    assert summary["kept"] == 1
    assert summary["answer_offsets"] == {"repaired": 1, "unrepairable": 0}
    original, _ = read_squad(tmp_path / "out" / "original.json")
    assert original[0]["answers"][0]["answer_start"] == 6
    trap, _ = read_squad(tmp_path / "out" / "trap.json")
    assert trap[0]["context"] == context + "上海的人口是2428万。"


def test_perturb_command_makes_traps_and_evaluate_counts_answers_on_them(en, tiny, tmp_path, capsys):
    from paraguide.cli import main

    out = tmp_path / "traps"
    assert main(["perturb", "--squad", tiny, "--trap", "--out", str(out), "--quiet"]) == 0
    assert "3 traps from 4 questions" in capsys.readouterr().out
    originals = {"t1": "Thomas Edison", "c1": "2,000", "p1": "1889"}
    (tmp_path / "orig.json").write_text(json.dumps(originals), encoding="utf-8")
    # right on the originals; on the trap set: the trap's person, the right number, the trap's year
    on_trap = {"t1-trap": "Nikola Tesla", "c1-trap": "2,000", "p1-trap": "1892"}
    (tmp_path / "trap.json").write_text(json.dumps(on_trap), encoding="utf-8")
    report = tmp_path / "report"
    args = ["evaluate", "--testset", str(out), "--original", str(tmp_path / "orig.json"), "--paraphrased",
            str(tmp_path / "trap.json"), "--out", str(report)]  # fmt: skip
    assert main(args) == 0
    assert "on the trap 66.67 %" in capsys.readouterr().out
    hits = json.loads((report / "report.json").read_text())["trap_hits"]["before"]
    assert (hits["traps"], hits["predicted"], hits["hits"]) == (3, 3, 2)
    assert "2 of 3 answers on the trap set are the trap's distractor" in (report / "report.md").read_text()
    assert main(["perturb", "--squad", tiny, "--out", str(tmp_path / "x")]) == 1
    assert "give --trap (insert traps) or --select-only" in capsys.readouterr().err


def test_select_only_names_only_the_files_it_wrote(en, tiny, tmp_path, capsys):
    """Issue 32 item 9: --select-only says it wrote original.json and summary.json, not trap files, and over
    an earlier trap run (--overwrite) leaves none of that run's trap files behind."""
    from paraguide.cli import main

    out = tmp_path / "sel"
    assert main(["perturb", "--squad", tiny, "--trap", "--out", str(out), "--quiet"]) == 0
    assert f"written in {out}: original.json, trap.json, id_map.json, traps.jsonl, summary.json" in (
        capsys.readouterr().err
    )
    assert (
        main(["perturb", "--squad", tiny, "--select-only", "--out", str(out), "--overwrite", "--quiet"]) == 0
    )
    err = capsys.readouterr().err
    assert f"written in {out}: original.json, summary.json\n" in err and "trap" not in err
    assert sorted(p.name for p in out.iterdir()) == ["original.json", "run.json", "summary.json"]
    assert json.loads((out / "summary.json").read_text())["files"] == ["original.json", "summary.json"]
