"""Adversarial context chunks: answer typing, entities, chunking, distractor rules, Chinese, the command."""

import json

import pytest

from paraguide.suggest.context import ContextChunks, EntityFinder, chunk, sentences

needs_tagger = pytest.mark.usefixtures("tagger")  # English chunking tags the passage

BRIDGE = (
    "The bridge was opened in 1998 by the city council. Work on the first tower had started in 1994, "
    "when engineers from Oslo drilled the foundations into the river bed. The second tower followed two "
    "years later."
)


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("1998", "year"),
        ("the 1920s", "year"),
        ("May 5, 1990", "date"),
        ("45%", "percent"),
        ("12 per cent", "percent"),
        ("$3 million", "money"),
        ("500 euros", "money"),
        ("12 kilometres", "quantity"),
        ("third", "ordinal"),
        ("21st", "ordinal"),
        ("2,000", "number"),
        ("seven", "number"),
        ("7:30 pm", "time"),
        ("Marie Curie", "person"),
        ("Dr. Watson", "person"),
        ("University of Paris", "organization"),
        ("the River Thames", "location"),
        ("Excalibur", "other_name"),
        ("red wine", "other"),
    ],
)
def test_answer_types(answer, kind):
    assert EntityFinder().answer_type(answer) == kind


def test_entities_are_typed_and_names_stop_at_sentence_ends():
    text = (
        "He met J. R. Smith at the Super Bowl Opening Night. The game was held on May 3, 2013 in Santa Clara."
    )
    assert [(e.text, e.type) for e in EntityFinder().entities(text)] == [
        ("J. R. Smith", "person"),
        ("Super Bowl Opening Night", "other_name"),
        ("May 3, 2013", "date"),
        ("Santa Clara", "location"),
    ]


def test_sentences():
    spans = sentences(BRIDGE)
    assert [BRIDGE[s:e] for s, e in spans][0] == "The bridge was opened in 1998 by the city council."
    assert len(spans) == 3
    assert len(sentences("这座桥于1998年建成。第一座塔在1994年开始施工。", "zh")) == 2


@needs_tagger
def test_chunks():
    assert chunk("Work on the first tower had started in 1994, when engineers drilled the river bed.") == [
        ("Work", "NP", 0, 1),
        ("the first tower", "NP", 2, 5),
        ("had started", "VP", 5, 7),
        ("1994", "NP", 8, 9),
        ("engineers", "NP", 11, 12),
        ("drilled", "VP", 12, 13),
        ("the river bed", "NP", 13, 16),
    ]


@needs_tagger
def test_chunks_near_a_same_type_distractor_never_touch_the_answer():
    [found] = ContextChunks().suggest(["When was the bridge opened?"], contexts=[BRIDGE], answers=["1998"])
    # 1994 is the only other year; its sentence's phrases of 2+ words, nearest first.
    assert [(s.text, s.score, s.matched, s.relation) for s in found] == [
        ("had started", 0.5, "1994", "year VP"),
        ("the first tower", 0.25, "1994", "year NP"),
        ("the foundations", 0.1429, "1994", "year NP"),
        ("the river bed", 0.1, "1994", "year NP"),
    ]
    # No distractor of the answer's type (the council is the only organisation): nothing.
    [none] = ContextChunks().suggest(["Who opened it?"], contexts=[BRIDGE], answers=["the city council"])
    assert none == []
    # A distractor sharing a word with the answer is not one.
    context = "Smith won in 1990. John Smith lost in 1991 at the old town hall."
    [found] = ContextChunks().suggest(["Who won?"], contexts=[context], answers=["Anna Smith"])
    assert found == []
    with pytest.raises(ValueError, match="need each question's context and answer"):
        ContextChunks().suggest(["When?"])


def test_chinese_numbers_dates_and_chunks():
    finder = EntityFinder("zh")
    assert finder.answer_type("1998年") == "year" and finder.answer_type("百分之三十") == "percent"
    assert finder.answer_type("5月4日") == "date" and finder.answer_type("三百元") == "money"
    context = "这座桥于1998年由市政府建成。第一座塔在1994年开始施工，当时工程师把地基打进了河床。"
    [found] = ContextChunks("zh").suggest(["这座桥是哪一年建成的？"], contexts=[context], answers=["1998年"])
    assert [(s.text, s.score) for s in found] == [("开始施工", 1.0), ("当时工程师", 0.25)]


@needs_tagger
def test_suggest_command_reads_squad(tmp_path, capsys):
    from paraguide.cli import main

    squad = {
        "version": "1.1",
        "data": [
            {
                "title": "Bridge",
                "paragraphs": [
                    {
                        "context": BRIDGE,
                        "qas": [
                            {
                                "id": "q1",
                                "question": "When was the bridge opened?",
                                "answers": [{"text": "1998", "answer_start": 25}],
                            },  # noqa: E501
                            {
                                "id": "q2",
                                "question": "Who opened it?",
                                "answers": [{"text": "the city council", "answer_start": 32}],
                            },  # noqa: E501
                        ],
                    }
                ],
            }
        ],
    }
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(squad))
    out = tmp_path / "adversarial.jsonl"
    assert (
        main(["suggest", "--source", "context", "--input", str(path), "--output", str(out), "--top-k", "2"])
        == 0
    )
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [[s["text"] for s in r["suggestions"]] for r in records] == [
        ["had started", "the first tower"],
        [],
    ]
    assert "1 of 2 questions (50.0%)" in capsys.readouterr().err


# Gan & Ng's figure 8, shortened: the answer 2009, the distractor 1963 and the words said near it.
DOCTOR_WHO = (
    "826 Doctor Who instalments have been televised since 1963. Starting with the 2009 special Planet of "
    "the Dead, the series was filmed in 1080i for HDTV."
)


@needs_tagger
def test_near_distractor_keeps_the_synonyms_said_near_a_distractor_and_not_by_the_answer():
    from fakes import SpanSource

    from paraguide.suggest import NearDistractor

    question = "In what year did Doctor Who begin being shown in HDTV?"
    lexical = SpanSource(
        {
            question: [
                ("broadcast", "shown", (8, 9)),  # not in the context
                ("filmed", "shown", (8, 9)),  # in the answer's sentence: it points at the answer too
                ("showed", "shown", (8, 9)),  # the same word: no swap
                ("televised", "shown", (8, 9)),  # one token from 1963
                ("start", "begin", (6, 7)),  # not in the context
            ]
        }
    )
    source = NearDistractor(lexical)
    [found] = source.suggest([question], contexts=[DOCTOR_WHO], answers=["2009"], answer_starts=[77])
    assert [(s.text, s.matched, s.span, s.score, s.source, s.relation) for s in found] == [
        ("televised", "shown", (8, 9), 0.5, "near", "year near '1963'")
    ]
    # a unit is never swapped ("in the last three minutes" -> "seconds", reading 2026-11-27zo)
    from paraguide.suggest import Suggestion

    assert source._unit(Suggestion("seconds", "minutes", (3, 4), 1.0, "wordnet"))
    assert not source._unit(Suggestion("televised", "shown", (8, 9), 1.0, "wordnet"))
    # Chinese units too: 领取时间 -> 领取年月 asks for a month (reading 2026-11-27zp)
    chinese = NearDistractor(lexical, lang="zh")
    assert chinese._unit(Suggestion("年月", "时间", (5, 6), 1.0, "cilin"))
    assert chinese._unit(Suggestion("几天", "多久", (3, 4), 1.0, "cilin"))
    assert not chinese._unit(Suggestion("番茄", "西红柿", (2, 3), 1.0, "cilin"))
    # no distractor of the answer's type, no suggestion; the context is required
    [none] = source.suggest([question], contexts=[DOCTOR_WHO], answers=["Planet of the Dead"])
    assert none == []
    with pytest.raises(ValueError, match="need each question's context and answer"):
        source.suggest([question])


@needs_tagger
def test_near_distractor_swaps_in_place_through_the_generator():
    """The whole path: the near-distractor synonym put in place, inflected like the word it replaces
    (Gan & Ng's adversarial question, made without a paraphraser)."""
    from fakes import ScriptedParaphraser, SpanSource

    from paraguide.pipeline.generate import Item, QuestionParaphraser
    from paraguide.score.filters import ContainsSuggestion, DiffersFromSource, FilterChain
    from paraguide.suggest import NearDistractor

    question = "In what year did Doctor Who begin being shown in HDTV?"
    source = NearDistractor(SpanSource({question: [("televise", "shown", (8, 9))]}))
    generate = QuestionParaphraser(ScriptedParaphraser({}), source, FilterChain([DiffersFromSource(), ContainsSuggestion()]),
                                   nbest=0, num_beams=1, in_place=True)  # fmt: skip
    [outcome] = generate([Item("q", question, context=DOCTOR_WHO, answer="2009", answer_start=77)])
    assert outcome.paraphrase == "In what year did Doctor Who begin being televised in HDTV?"
