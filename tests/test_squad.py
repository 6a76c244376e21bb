import copy
import gzip
import json

import pytest

from paraguide.data.squad import (
    OffsetReport,
    SquadReader,
    flatten_squad,
    locate,
    nest_squad,
    read_squad,
    repair_offsets,
    write_squad,
)
from paraguide.errors import DataError

SQUAD2 = {
    "version": "v2.0",
    "data": [
        {
            "title": "Normans",
            "source": "wiki",  # an article field beyond title/paragraphs
            "paragraphs": [
                {
                    "context": "The Normans gave their name to Normandy, a region in France.",
                    "qas": [
                        {
                            "question": "In what country is Normandy located?",
                            "id": "q1",
                            "answers": [{"text": "France", "answer_start": 53}],
                            "is_impossible": False,
                        },
                        {
                            "plausible_answers": [{"text": "Normans", "answer_start": 4}],
                            "question": "Who gave their name to Paris?",
                            "id": "q2",
                            "answers": [],
                            "is_impossible": True,
                        },
                    ],
                },
                {
                    "context": "Rollo led them.",
                    "note": "x",
                    "qas": [
                        {
                            "id": "q3",
                            "question": "Who led them?",
                            "answers": [{"text": "Rollo", "answer_start": 0}],
                        }
                    ],
                },
            ],
        },
        {
            "title": "Empty-ish",
            "paragraphs": [
                {
                    "context": "诺曼人来自诺曼底。",
                    "qas": [
                        {
                            "id": 7,
                            "question": "诺曼人来自哪里?",
                            "answers": [{"text": "诺曼底", "answer_start": 5}],
                        }
                    ],
                }
            ],
        },
    ],
}


def test_flatten_then_nest_is_lossless():
    records = list(flatten_squad(SQUAD2))
    assert [r["id"] for r in records] == ["q1", "q2", "q3", 7]
    assert records[1]["plausible_answers"] == [{"text": "Normans", "answer_start": 4}]
    assert records[0]["article_extra"] == {"source": "wiki"} and records[2]["paragraph_extra"] == {
        "note": "x"
    }
    assert nest_squad(records, {"version": "v2.0"}) == SQUAD2


def test_file_round_trip_plain_and_gzip(tmp_path):
    src = tmp_path / "in.json.gz"
    src.write_bytes(gzip.compress(json.dumps(SQUAD2).encode()))
    reader = SquadReader(src)
    records = list(reader)
    assert reader.header == {"version": "v2.0"}
    write_squad(tmp_path / "out.json", records, reader.header)
    assert json.loads((tmp_path / "out.json").read_text()) == SQUAD2
    # Key order inside each question survives too.
    out = json.loads((tmp_path / "out.json").read_text())
    assert list(out["data"][0]["paragraphs"][0]["qas"][1]) == [
        "plausible_answers",
        "question",
        "id",
        "answers",
        "is_impossible",
    ]


def test_repair_offsets_counts_and_nearest_occurrence():
    data = copy.deepcopy(SQUAD2)
    qas = data["data"][0]["paragraphs"][0]["qas"]
    qas[0]["answers"] = [
        {"text": "France", "answer_start": -1},
        {"text": "Normandy", "answer_start": 30},
        {"text": "Spain", "answer_start": 3},
    ]
    qas[1]["plausible_answers"][0]["answer_start"] = 5
    report = OffsetReport()
    fixed = list(repair_offsets(flatten_squad(data), report))
    assert [a["answer_start"] for a in fixed[0]["answers"]] == [53, 31, 3]
    assert fixed[1]["plausible_answers"][0]["answer_start"] == 4
    assert (report.checked, report.valid, report.repaired) == (6, 2, 3)
    assert report.unrepairable == [{"id": "q1", "field": "answers", "text": "Spain"}]
    assert report.as_dict()["unrepairable"] == 1


def test_locate_prefers_nearest():
    assert locate("a b a b a", "a", near=5) == 4
    assert locate("a b a b a", "a") == 0
    assert locate("abc", "x") == -1 and locate("abc", "") == -1


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["data"][0]["paragraphs"][0]["qas"][0].pop("question"),
            "(record article 0 paragraph 0 question 0 (id q1)) [field question]: missing field",
        ),
        (
            lambda d: d["data"][0]["paragraphs"][1].pop("context"),
            "(record article 0 paragraph 1) [field context]: missing field",
        ),
        (
            lambda d: d["data"][0]["paragraphs"][0]["qas"][0]["answers"][0].update(answer_start="53"),
            "[field answers[0].answer_start]: expected int, got str",
        ),
        (
            lambda d: d["data"][1]["paragraphs"][0]["qas"][0].update(id="q1"),
            "(record article 1 paragraph 0 question 0 (id q1)) [field id]: duplicate question id",
        ),
        (lambda d: d.pop("data"), "[field data]: no 'data' list at the top level"),
    ],
)
def test_malformed_squad_names_record_and_field(tmp_path, mutate, message):
    data = copy.deepcopy(SQUAD2)
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError) as e:
        read_squad(path)
    assert str(e.value).startswith(str(path)) and message in str(e.value)


def test_invalid_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"data": [{"title": "x", "paragraphs": [')
    with pytest.raises(DataError, match="invalid JSON"):
        read_squad(path)


def test_writer_is_atomic_on_error(tmp_path):
    records = list(flatten_squad(SQUAD2))
    with pytest.raises(KeyError):
        write_squad(tmp_path / "out.json", records + [{"id": "broken"}])
    assert not (tmp_path / "out.json").exists()
