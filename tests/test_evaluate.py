"""Metrics (SQuAD v1.1 EM/F1, character-level Chinese EM/F1, classification, per category, DPR) against
hand-computed values, and ``paraguide evaluate`` on hand-made build folders and predictions."""

import json

import pytest

from paraguide.cli import main
from paraguide.evaluate import (
    category_accuracy,
    classification_scores,
    different_prediction_ratio,
    exact_match,
    f1,
    normalize_answer,
    squad_scores,
)

# --- metrics -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The Quick, Brown fox!", "quick brown fox"),
        ("  A   an\tTHE apple ", "apple"),  # articles, case, whitespace
        ("the theater", "theater"),  # articles are whole words only
        ("U.S.A.", "usa"),  # punctuation removed without a space
        ("well-known", "wellknown"),
        ("The(cat)", "thecat"),  # punctuation goes before articles: "thecat" holds no article
        ("", ""),
    ],
)
def test_normalize_english_as_squad_v1(text, expected):
    assert normalize_answer(text) == expected


def test_exact_match_english():
    assert exact_match("the Eiffel Tower", ["Eiffel Tower"]) == 1.0
    assert exact_match("Eiffel", ["Eiffel Tower", "eiffel."]) == 1.0  # best of several ground truths
    assert exact_match("Eiffel", ["Eiffel Tower"]) == 0.0
    assert exact_match("", ["x"]) == 0.0
    # Both normalise to "": the v1.1 evaluator counts an exact match but F1 0 (no common token).
    assert exact_match("the", ["a"]) == 1.0
    assert f1("the", ["a"]) == 0.0


def test_f1_english():
    # [cat sat on mat] vs [cat on mat]: 3 common, P 3/4, R 1 -> 6/7
    assert f1("the cat sat on the mat", ["a cat on a mat"]) == pytest.approx(6 / 7)
    # bags: red x2, blue vs red, blue x2 -> 2 common, P = R = 2/3
    assert f1("red red blue", ["red blue blue"]) == pytest.approx(2 / 3)
    assert f1("cat sat", ["dog", "cat"]) == pytest.approx(2 / 3)  # max over ground truths
    assert f1("", ["cat"]) == 0.0
    assert f1("dog", ["cat"]) == 0.0


def test_squad_scores_english():
    references = {"q1": ["Eiffel Tower"], "q2": ["cat on mat", "the mat"], "q3": ["1822"], "q4": []}
    predictions = {"q1": "the eiffel tower!", "q2": "a cat sat on the mat", "q4": "", "other": "ignored"}
    scores = squad_scores(predictions, references)
    # q1 1/1; q2 EM 0, F1 max(6/7, 0.4); q3 missing: 0/0; q4 no-answer answered "": 1/1
    assert scores == {
        "exact_match": pytest.approx(50.0),
        "f1": pytest.approx(100 * (1 + 6 / 7 + 0 + 1) / 4),
        "total": 4,
        "missing": 1,
    }
    assert squad_scores({"q4": "Paris"}, {"q4": []}) == {
        "exact_match": 0.0,
        "f1": 0.0,
        "total": 1,
        "missing": 0,
    }


def test_chinese_character_level():
    assert normalize_answer("北京 大学，（Peking）University。", "zh") == "北京大学pekinguniversity"
    assert exact_match("《红楼梦》", ["红楼梦"], "zh") == 1.0
    assert f1("北京大学", ["北京"], "zh") == pytest.approx(2 / 3)  # P 2/4, R 1
    assert f1("中国北京", ["北京市"], "zh") == pytest.approx(4 / 7)  # P 2/4, R 2/3
    assert f1("上海", ["北京", "上海市"], "zh") == pytest.approx(0.8)  # P 1, R 2/3
    scores = squad_scores({"a": "1945年。", "b": "北京大学"}, {"a": ["1945年"], "b": ["北京"]}, lang="zh")
    assert scores["exact_match"] == pytest.approx(50.0)
    assert scores["f1"] == pytest.approx(100 * (1 + 2 / 3) / 2)


def test_classification_and_categories():
    predictions, labels = [1, 1, 0, 0, 1, 0], [1, 0, 0, 1, 1, 0]
    # tp 2, fp 1, fn 1, right 4 of 6
    assert classification_scores(predictions, labels) == {
        "accuracy": pytest.approx(400 / 6),
        "precision": pytest.approx(200 / 3),
        "recall": pytest.approx(200 / 3),
        "f1": pytest.approx(200 / 3),
        "total": 6,
    }
    result = category_accuracy(predictions, labels, ["a", "a", "b", "b", "b", "c"])
    assert result["per_category"] == {
        "a": {"accuracy": 50.0, "total": 2},
        "b": {"accuracy": pytest.approx(200 / 3), "total": 3},
        "c": {"accuracy": 100.0, "total": 1},
    }
    assert result["micro"] == pytest.approx(400 / 6)
    assert result["macro"] == pytest.approx((50 + 200 / 3 + 100) / 3)


def test_different_prediction_ratio():
    original = {"o1": "Paris", "o2": "the cat", "o3": "x"}
    paraphrased = {"p1": "paris.", "p2": "dog", "p3": "x", "p4": "y"}
    id_map = {"p1": "o1", "p2": "o2", "p3": "o3", "p4": "o3"}
    assert different_prediction_ratio(original, paraphrased, id_map) == 50.0
    # a missing prediction counts as "" and differs from "paris"
    assert different_prediction_ratio(original, paraphrased, {**id_map, "p5": "o1"}) == 60.0


# --- paraguide evaluate ----------------------------------------------------------------------------------


def _squad(questions):
    qas = []
    for qid, question, answers in questions:
        qas.append({"id": qid, "question": question,
                    "answers": [{"text": a, "answer_start": 0} for a in answers]})  # fmt: skip
    return {"version": "1.1", "data": [{"title": "t", "paragraphs": [{"context": "c", "qas": qas}]}]}


ORIGINAL = [
    ("o1", "What is the capital of France?", ["Paris"]),
    ("o2", "Who wrote Hamlet?", ["William Shakespeare", "Shakespeare"]),
    ("o3", "When did the war end?", ["1945"]),
]
PARAPHRASED = [  # (id, original id, question, answers, similarity, source, step)
    ("p1", "o1", "Which is the capital of France?", ["Paris"], 0.97, "interrogative", 1),
    ("p2", "o2", "Who authored Hamlet?", ["William Shakespeare", "Shakespeare"], 0.85, "ppdb", 1),
    ("p3", "o3", "When did the war finish?", ["1945"], 0.92, "ppdb", 1),
    ("p4", "o1", "What is the capital city of France?", ["Paris"], 0.75, "paraphraser", 2),
]


def _write(path, obj):
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.fixture
def qa_build(tmp_path):
    build = tmp_path / "build"
    build.mkdir()
    _write(build / "original.json", _squad(ORIGINAL))
    _write(build / "paraphrased.json", _squad([(p[0], p[2], p[3]) for p in PARAPHRASED]))
    _write(build / "id_map.json", {p[0]: p[1] for p in PARAPHRASED})
    questions = {o[0]: o[1] for o in ORIGINAL}
    with open(build / "provenance.jsonl", "w", encoding="utf-8") as f:
        for new, old, question, _, sim, source, step in PARAPHRASED:
            record = {"id": new, "original_id": old, "original": questions[old], "paraphrase": question,
                      "suggestion_source": source, "scores": {"embedding": sim}, "step": step}  # fmt: skip
            f.write(json.dumps(record) + "\n")
    _write(build / "run.json", {"job": "build-testset", "config": {"lang": "en"}, "finished": True})
    return build


def _rows(result, dim):
    return {r["band"]: r for r in result["breakdown"][dim]}


def test_evaluate_qa_drops_dpr_and_bands(qa_build, tmp_path, capsys):
    original = _write(tmp_path / "orig.json", {"o1": "Paris", "o2": "Shakespeare", "o3": "in 1945"})
    para = _write(tmp_path / "para.json", {"p1": "paris", "p2": "Hamlet", "p3": "1945", "p4": "Lyon"})
    fixed = _write(tmp_path / "fixed.json", {"p1": "Paris", "p2": "Shakespeare", "p3": "1945", "p4": "Paris"})
    out = tmp_path / "report"
    argv = ["evaluate", "--testset", str(qa_build), "--original", original, "--paraphrased", para,
            "--after-original", original, "--after-paraphrased", fixed, "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    before = report["results"]["before"]
    # original: o3 "in 1945" vs "1945": EM 0, F1 2/3 -> EM 2/3, F1 8/9; paraphrased: p1, p3 right of 4
    assert before["original"]["exact_match"] == pytest.approx(200 / 3)
    assert before["original"]["f1"] == pytest.approx(800 / 9)
    assert before["paraphrased"] == {"exact_match": 50.0, "f1": 50.0, "total": 4, "missing": 0}
    assert before["drop"]["exact_match"] == pytest.approx(50 / 3)
    assert before["drop"]["f1"] == pytest.approx(350 / 9)
    assert before["dpr"] == 75.0  # p2, p3, p4 differ from their original's prediction; p1 only by case
    # paired: p4 pairs with o1 again -> original F1 (1 + 1 + 2/3 + 1) / 4
    assert before["paired"]["original"]["f1"] == pytest.approx(1100 / 12)
    assert before["paired"]["total"] == 4

    sim = _rows(before, "similarity")
    assert {b: r["total"] for b, r in sim.items()} == {">= 0.95": 1, "0.8-0.9": 1, "0.9-0.95": 1, "< 0.8": 1}
    assert [r["band"] for r in before["breakdown"]["similarity"]] == [
        "< 0.8",
        "0.8-0.9",
        "0.9-0.95",
        ">= 0.95",
    ]
    assert sim["0.8-0.9"]["drop"]["f1"] == 100.0  # p2: Shakespeare -> Hamlet
    assert sim["0.9-0.95"]["drop"]["f1"] == pytest.approx(2 / 3 * 100 - 100)  # p3 better than o3
    # edit rate: p1 1/7, p3 1/6, p4 1/7 (one word inserted), p2 1/4
    edit = _rows(before, "edit_rate")
    assert {b: r["total"] for b, r in edit.items()} == {"0.1-0.2": 3, "0.2-0.3": 1}
    assert edit["0.1-0.2"]["original"]["f1"] == pytest.approx(800 / 9)
    assert edit["0.1-0.2"]["paraphrased"]["f1"] == pytest.approx(200 / 3)
    assert edit["0.1-0.2"]["drop"]["f1"] == pytest.approx(200 / 9)
    assert edit["0.1-0.2"]["drop"]["exact_match"] == pytest.approx(0.0)
    assert edit["0.1-0.2"]["dpr"] == pytest.approx(200 / 3)
    assert [(r["band"], r["total"]) for r in before["breakdown"]["source"]] == [
        ("ppdb", 2), ("interrogative", 1), ("paraphraser", 1)]  # fmt: skip
    assert {r["band"]: r["total"] for r in before["breakdown"]["step"]} == {"1": 3, "2": 1}
    assert {r["band"]: r["total"] for r in before["breakdown"]["question_type"]} == {
        "what": 2, "who": 1, "when": 1}  # fmt: skip
    assert "category" not in before["breakdown"]
    # after retraining every paraphrased answer is right
    assert report["results"]["after"]["paraphrased"]["f1"] == 100.0
    assert report["recovery"] == {"exact_match": 50.0, "f1": 50.0}

    for name in ("report.md", "drop_similarity.png", "drop_edit_rate.png", "drop_source.png", "drop_step.png",
                 "drop_question_type.png", "before_after.png"):  # fmt: skip
        assert (out / name).stat().st_size > 0
    assert (out / "drop_similarity.png").read_bytes()[:4] == b"\x89PNG"
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| before | **drop** | 16.67 | 38.89 | 75.00 |" in md
    assert "## Drop by edit rate band" in md and "![drop by similarity band](drop_similarity.png)" in md
    assert "before: F1 88.89 -> 50.00 (drop 38.89), DPR 75.00 %" in capsys.readouterr().out


@pytest.fixture
def qm_build(tmp_path):
    build = tmp_path / "qm"
    build.mkdir()
    rows = [  # original a, paraphrased a, b, label, category
        ("信用卡怎么办理", "信用卡如何办理", "如何办信用卡", 1, "lexical"),
        ("天为什么是蓝的", "天为何是蓝的", "海为什么是蓝的", 0, "lexical"),
        ("什么手机好", "啥手机好", "哪款手机好", 1, "syntactic"),
        ("北京在哪里", "北京在哪儿", "上海在哪里", 0, "syntactic"),
    ]
    for name, side in (("original", 0), ("paraphrased", 1)):
        with open(build / f"{name}.jsonl", "w", encoding="utf-8") as f:
            for row in rows:
                obj = {"question1": row[side], "question2": row[2], "label": row[3], "category": row[4]}
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")
    _write(build / "id_map.json", {"1": 3, "2": 5, "3": 6, "4": 9})
    with open(build / "provenance.jsonl", "w", encoding="utf-8") as f:
        for n, row in enumerate(rows, start=1):
            record = {"id": f"{n}:a", "original_id": f"{n + 1}:a", "original": row[0], "paraphrase": row[1],
                      "suggestion_source": "interrogative", "scores": {"sim": 0.9}, "step": 1}  # fmt: skip
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    _write(build / "run.json", {"job": "build-testset", "config": {"lang": "zh"}, "finished": True})
    return build


def test_evaluate_qm_accuracy_categories(qm_build, tmp_path):
    original = tmp_path / "orig.labels"
    original.write_text("1\n0\n1\n1\n", encoding="utf-8")
    para = tmp_path / "para.jsonl"
    para.write_text(
        "".join(
            json.dumps({"line": n, "prediction": v, "probability": 0.9}) + "\n"
            for n, v in enumerate([1, 1, 0, 1], 1)
        )
    )
    out = tmp_path / "report"
    argv = ["evaluate", "--testset", str(qm_build), "--original", str(original), "--paraphrased", str(para),
            "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    before = json.loads((out / "report.json").read_text(encoding="utf-8"))["results"]["before"]
    assert before["original"]["accuracy"] == 75.0
    assert before["paraphrased"]["accuracy"] == 25.0
    assert before["drop"] == {"accuracy": 50.0}
    assert before["dpr"] == 50.0  # lines 2 and 3 changed label
    assert before["original"]["categories"]["macro"] == 75.0  # lexical 100, syntactic 50
    assert before["paraphrased"]["categories"]["per_category"]["lexical"]["accuracy"] == 50.0
    assert before["paraphrased"]["categories"]["micro"] == 25.0
    cats = _rows(before, "category")
    assert (cats["lexical"]["drop"]["accuracy"], cats["syntactic"]["drop"]["accuracy"]) == (50.0, 50.0)
    assert {r["band"]: r["total"] for r in before["breakdown"]["question_type"]} == {
        "怎么": 1, "为什么": 1, "什么": 1, "哪里": 1}  # fmt: skip
    assert (out / "drop_category.png").is_file()


def _error(argv, capsys) -> str:
    assert main(argv) == 1
    return capsys.readouterr().err


def test_evaluate_bad_inputs(qa_build, qm_build, tmp_path, capsys):
    good_o = _write(tmp_path / "o.json", {"o1": "a", "o2": "b", "o3": "c"})
    good_p = _write(tmp_path / "p.json", {"p1": "a", "p2": "b", "p3": "c", "p4": "d"})
    base = ["evaluate", "--testset", str(qa_build), "--out", str(tmp_path / "r")]

    extra = _write(tmp_path / "extra.json", {"p1": "a", "p2": "b", "p3": "c", "p4": "d", "zz": "e"})
    assert _error(base + ["--original", good_o, "--paraphrased", extra], capsys) == (
        f"paraguide evaluate: error: {extra}: 1 of 5 prediction ids are not questions of "
        f"{qa_build}/paraphrased.json (first: zz)\n"
    )
    assert _error(base + ["--original", good_o, "--paraphrased", good_o], capsys) == (
        f"paraguide evaluate: error: {good_o}: 3 of 3 prediction ids are not questions of "
        f"{qa_build}/paraphrased.json (they are ids of the other set: predictions given for the wrong set?) "
        "(first: o1, o2, o3)\n"
    )
    short = _write(tmp_path / "short.json", {"p1": "a", "p2": "b", "p3": "c"})
    assert _error(base + ["--original", good_o, "--paraphrased", short], capsys) == (
        f"paraguide evaluate: error: {short}: no prediction for 1 of 4 questions of {qa_build}/paraphrased.json "
        "(first: p4); --lenient-ids scores them as empty answers\n"
    )
    lenient = ["evaluate", "--testset", str(qa_build), "--out", str(tmp_path / "lenient"), "--lenient-ids"]
    assert main(lenient + ["--original", good_o, "--paraphrased", short]) == 0
    capsys.readouterr()
    assert not (tmp_path / "r").exists()  # the failed runs wrote nothing

    broken = tmp_path / "broken.json"
    broken.write_text("{'p1': 'a'}", encoding="utf-8")
    assert _error(base + ["--original", good_o, "--paraphrased", str(broken)], capsys) == (
        f"paraguide evaluate: error: {broken}:1: not JSON: Expecting property name enclosed in double quotes "
        "(column 2)\n"
    )

    # the id map names a question the paraphrased set does not hold
    _write(qa_build / "id_map.json", {"p1": "o1", "p2": "o2", "p3": "o3", "p9": "o1"})
    assert _error(base + ["--original", good_o, "--paraphrased", good_p], capsys) == (
        f"paraguide evaluate: error: {qa_build}/id_map.json: 1 of its 4 entries name questions that are not in "
        f"{qa_build}/paraphrased.json (first: p9)\n"
    )

    # a test file without answers
    _write(qa_build / "original.json", _squad([(i, q, a if i != "o2" else []) for i, q, a in ORIGINAL]))
    assert _error(base + ["--original", good_o, "--paraphrased", good_p], capsys) == (
        f"paraguide evaluate: error: {qa_build}/original.json [field answers]: 1 of 3 questions have no "
        "answers, a test set needs them (SQuAD 2.0 no-answer questions carry is_impossible: true) (first: o2)\n"
    )

    # a label file of the wrong length
    labels = tmp_path / "labels.txt"
    labels.write_text("1\n0\n1\n", encoding="utf-8")
    qm = ["evaluate", "--testset", str(qm_build), "--out", str(tmp_path / "r2"), "--paraphrased", str(labels)]
    assert _error(qm + ["--original", str(labels)], capsys) == (
        f"paraguide evaluate: error: {labels}: 3 labels for the 4 pairs of {qm_build}/original.jsonl\n"
    )
    bad_label = tmp_path / "bad.txt"
    bad_label.write_text("1\nyes\n1\n0\n", encoding="utf-8")
    assert _error(qm + ["--original", str(bad_label)], capsys) == (
        f"paraguide evaluate: error: {bad_label}:2: expected an integer label, got 'yes'\n"
    )


def test_evaluate_single_squad_file(tmp_path, capsys):
    squad = _write(tmp_path / "dev.json", _squad(ORIGINAL))
    preds = _write(tmp_path / "preds.json", {"o1": "Paris", "o2": "Shakespeare", "o3": "in 1945"})
    out = tmp_path / "dev"
    assert main(["evaluate", "--squad", squad, "--predictions", preds, "--out", str(out)]) == 0
    scores = json.loads((out / "report.json").read_text(encoding="utf-8"))["results"]["scores"]
    assert scores["f1"] == pytest.approx(800 / 9)
    assert "EM 66.67, F1 88.89 on 3 questions (0 missing)" in capsys.readouterr().out
    # the folder now holds a report: refused unless --overwrite
    assert _error(["evaluate", "--squad", squad, "--predictions", preds, "--out", str(out)], capsys) == (
        f"paraguide evaluate: error: {out} already holds a paraguide evaluate run; pass --overwrite to replace it\n"
    )
    assert main(["evaluate", "--squad", squad, "--predictions", preds, "--out", str(out), "--overwrite"]) == 0


def test_evaluate_qm_scores_prediction_not_label_and_refuses_other_labels(qm_build, tmp_path, capsys):
    """Issue 32 item 5: run_qm.py writes the gold "label" next to its "prediction": scored from
    "prediction"; a predicted label outside 0/1 is refused by file and line."""
    gold = [1, 0, 1, 0]
    original = tmp_path / "orig.jsonl"
    original.write_text("".join(json.dumps({"label": y, "prediction": 1 - y}) + "\n" for y in gold))
    para = tmp_path / "para.jsonl"
    para.write_text("".join(json.dumps({"label": y, "prediction": y}) + "\n" for y in gold))
    out = tmp_path / "report"
    argv = ["evaluate", "--testset", str(qm_build), "--original", str(original), "--paraphrased", str(para),
            "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    before = json.loads((out / "report.json").read_text(encoding="utf-8"))["results"]["before"]
    assert before["original"]["accuracy"] == 0.0  # every prediction wrong, whatever "label" says
    assert before["paraphrased"]["accuracy"] == 100.0
    for bad, line in (("1\n0\n2\n1\n", 3), ("1\n-1\n0\n0\n", 2)):
        labels = tmp_path / "bad.labels"
        labels.write_text(bad)
        err = _error([*argv[:3], "--original", str(labels), "--paraphrased", str(para), "--out",
                      str(tmp_path / "r2")], capsys)  # fmt: skip
        assert f"{labels}:{line}: predicted label {bad.split()[line - 1]} is not one of 0, 1" in err
        assert not (tmp_path / "r2").exists()
    para.write_text(json.dumps({"label": 1, "prediction": 2}) + "\n")
    err = _error([*argv[:3], "--original", str(original), "--paraphrased", str(para), "--out",
                  str(tmp_path / "r3")], capsys)  # fmt: skip
    assert f"{para}:1 [field prediction]: predicted label 2 is not one of 0, 1" in err


def test_evaluate_qa_predictions_latin1_and_duplicate_ids_are_named(qa_build, tmp_path, capsys):
    """Issue 32 item 9: a latin-1 predictions file and an id given twice name the file (and the id)."""
    good = _write(tmp_path / "p.json", {"p1": "a", "p2": "b", "p3": "c", "p4": "d"})
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"o1": "Québec", "o2": "b", "o3": "c"}'.encode("latin-1"))
    base = ["evaluate", "--testset", str(qa_build), "--out", str(tmp_path / "r")]
    err = _error([*base, "--original", str(latin), "--paraphrased", good], capsys)
    assert f"{latin}: not UTF-8 text (byte 0xe9 at offset 10)" in err
    twice = tmp_path / "twice.json"
    twice.write_text('{"o1": "Paris", "o2": "b", "o1": "Lyon", "o3": "c"}')
    err = _error([*base, "--original", str(twice), "--paraphrased", good], capsys)
    assert f"{twice} (record o1): the id is given twice (which answer counts?)" in err
    assert not (tmp_path / "r").exists()


def test_evaluate_refuses_an_unfinished_build(qa_build, tmp_path, capsys):
    """Issue 32 item 9: a build killed half way (run.json not finished) is refused by name."""
    (qa_build / "run.json").write_text(json.dumps({"job": "build-testset", "config": {"lang": "en"}}))
    original = _write(tmp_path / "o.json", {"o1": "a", "o2": "b", "o3": "c"})
    para = _write(tmp_path / "p.json", {"p1": "a", "p2": "b", "p3": "c", "p4": "d"})
    argv = ["evaluate", "--testset", str(qa_build), "--original", original, "--paraphrased", para, "--out",
            str(tmp_path / "r"), "--lang", "en"]  # fmt: skip
    err = _error(argv, capsys)
    assert f"{qa_build / 'run.json'}: the paraguide build-testset run in {qa_build} has not finished" in err
    assert not (tmp_path / "r").exists()


def test_evaluate_refuses_nan_band_edges(qa_build, tmp_path, capsys):
    """Issue 32 item 9: NaN (or inf) band edges are refused, not sorted as if they were numbers."""
    original = _write(tmp_path / "o.json", {"o1": "a", "o2": "b", "o3": "c"})
    para = _write(tmp_path / "p.json", {"p1": "a", "p2": "b", "p3": "c", "p4": "d"})
    for edges in ("nan,0.5", "0.5,inf"):
        argv = ["evaluate", "--testset", str(qa_build), "--original", original, "--paraphrased", para,
                "--out", str(tmp_path / "r"), "--similarity-bands", edges]  # fmt: skip
        assert f"--similarity-bands: finite numbers (no nan or inf), got '{edges}'" in _error(argv, capsys)
        assert not (tmp_path / "r").exists()
