"""The perturbation suite around its operations: choosing operations by name, subcategory, category or
preset; the perturb job's files and accounting; scoring a system on a suite per operation, subcategory and
category (DuQM's micro and macro)."""

from __future__ import annotations

import json

import pytest

from paraguide.cli import main
from paraguide.evaluate.perturbation import format_suite, read_suite, score_suite
from paraguide.perturb import OPERATIONS, SUBCATEGORIES, Perturber, select
from paraguide.perturb.base import Change, edit, rng_for


def test_every_operation_sits_in_duqm_table():
    assert OPERATIONS, "no operation registered"
    for name, cls in OPERATIONS.items():
        assert cls.subcategory in SUBCATEGORIES, name
        assert cls.label in (0, 1), name
        for lang in ("en", "zh"):
            assert lang in cls.langs or cls.not_applicable.get(lang), f"{name}: say why not {lang}"


def test_select_expands_names_in_table_order_and_says_what_does_not_apply():
    names, left_out = select(["discourse_particle"], "en")
    assert names == ["insert_particle"]
    assert list(left_out) == ["replace_particle"] and "English" in left_out["replace_particle"]
    names, _ = select(["replace_particle", "insert_particle"], "zh")
    assert names == ["insert_particle", "replace_particle"]  # table order, not the order given
    assert select(["pragmatic"], "zh")[0][-2:] == ["insert_particle", "replace_particle"]
    assert set(select(None, "zh")[0]) == {n for n, c in OPERATIONS.items() if "zh" in c.langs}


def test_select_errors_name_what_exists_and_why_not():
    with pytest.raises(ValueError, match="unknown perturbation 'negations'.*negation"):
        select(["negations"], "en")
    with pytest.raises(ValueError, match="'replace_particle' does not apply to en: English questions"):
        select(["replace_particle"], "en")


def test_edits_apply_by_character_offsets_and_refuse_a_mismatch():
    assert edit("why burp?", [Change(4, "", "always "), Change(8, "?", "??")]) == "why always burp??"
    with pytest.raises(ValueError, match="does not match"):
        edit("why burp?", [Change(0, "who", "what")])
    # the choice is per question and operation, whatever else is in the batch
    assert (
        rng_for(13, "op", "q").random() == rng_for(13, "op", "q").random() != rng_for(14, "op", "q").random()
    )


def test_particles_exact_outputs(tagger):
    en = Perturber("en", ["discourse_particle"], seed=13).perturb(["Why do people dream?", "So what is it?"])
    assert [(o.index, o.operation, getattr(o.result, "perturbed", o.result)) for o in en] == [
        (0, "insert_particle", "Well, why do people dream?"),
        (1, "insert_particle", en[1].result),
    ]
    assert en[1].result.reason == "already opens with a particle"
    zh = Perturber("zh", ["discourse_particle"], seed=13).perturb(["这是什么啊？", "北京会下雨吗"])
    got = [getattr(o.result, "perturbed", None) or o.result.reason for o in zh]
    assert got == ["请问这是什么啊？", "这是什么呀？", "请问北京会下雨吗", "no final particle to replace"]
    p = zh[1].result
    assert (p.label, p.category, p.subcategory, p.operation) == (1, "pragmatic", "discourse_particle",
                                                                 "replace_particle")  # fmt: skip
    # 那 goes in with a comma: 那人 would read "that person" (reading d)
    outs = {Perturber("zh", ["insert_particle"], seed=s).perturb(["人是怎样形成的？"])[0].result.perturbed
            for s in range(40)}  # fmt: skip
    assert "那，人是怎样形成的？" in outs and not any(o.startswith("那人") for o in outs)


def test_perturb_job_writes_pairs_tsv_and_summary(tmp_path, capsys):
    questions = tmp_path / "q.txt"
    questions.write_text("这是什么啊？\n北京会下雨吗\n这是什么啊？\n", encoding="utf-8")  # a repeat: once
    out = tmp_path / "out"
    args = ["perturb", "--input", str(questions), "--lang", "zh", "--ops", "discourse_particle", "--out",
            str(out), "--quiet"]  # fmt: skip
    assert main(args) == 0
    rows = [json.loads(line) for line in (out / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["id"], r["source_id"], r["operation"]) for r in rows] == [
        ("1-insert_particle", "1", "insert_particle"),
        ("1-replace_particle", "1", "replace_particle"),
        ("2-insert_particle", "2", "insert_particle"),
    ]
    assert rows[1]["question2"] == "这是什么呀？" and rows[1]["changes"] == [
        {"start": 4, "old": "啊", "new": "呀"}
    ]
    tsv = (out / "pairs.tsv").read_text(encoding="utf-8").splitlines()
    assert tsv[1] == "这是什么啊？\t这是什么呀？\t1"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["questions"] == 2 and summary["pairs"] == 3
    assert summary["operations"]["replace_particle"]["skipped"] == {"no final particle to replace": 1}
    assert summary["subcategories"] == {"discourse_particle": 3}
    assert "replace_particle" in capsys.readouterr().out
    assert main(args) == 1  # the folder holds a run: --overwrite to replace it
    assert "--overwrite" in capsys.readouterr().err
    assert main([*args, "--overwrite", "--per-operation", "1"]) == 0  # at most one pair per operation
    rows = [json.loads(line) for line in (out / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(r["operation"] for r in rows) == ["insert_particle", "replace_particle"]
    ops = json.loads((out / "summary.json").read_text())["operations"]
    assert (ops["insert_particle"]["pairs"], ops["insert_particle"]["generated"]) == (1, 2)


def test_perturb_job_errors(tmp_path, capsys):
    q = tmp_path / "q.txt"
    q.write_text("why?\n", encoding="utf-8")
    assert main(["perturb", "--out", str(tmp_path / "o")]) == 1
    assert "give --input (questions), --pairs (a pair file) or --squad" in capsys.readouterr().err
    assert main(["perturb", "--input", str(q), "--ops", "nonsense", "--out", str(tmp_path / "o")]) == 1
    assert "unknown perturbation 'nonsense'" in capsys.readouterr().err
    assert not (tmp_path / "o" / "pairs.jsonl").exists()


def _suite(tmp_path):
    rows = [("lexical", "negation", "negate_verb", 0), ("lexical", "negation", "negate_verb", 0),
            ("lexical", "synonym", "synonym_noun", 1), ("syntactic", "symmetry", "swap_symmetric", 1),
            ("syntactic", "asymmetry", "swap_asymmetric", 0)]  # fmt: skip
    path = tmp_path / "pairs.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i, (c, s, o, y) in enumerate(rows):
            f.write(json.dumps({"question1": f"q{i}", "question2": f"p{i}", "label": y, "category": c,
                                "subcategory": s, "operation": o}) + "\n")  # fmt: skip
    return path


def test_suite_scores_per_level_micro_and_macro(tmp_path):
    pairs = read_suite(_suite(tmp_path))
    r = score_suite(pairs, [0, 1, 1, 0, 1])  # right: 1st, 3rd
    assert r["overall"]["accuracy"] == pytest.approx(40.0)
    assert r["category"]["per_category"] == {"lexical": {"accuracy": pytest.approx(200 / 3), "total": 3},
                                             "syntactic": {"accuracy": 0.0, "total": 2}}  # fmt: skip
    assert r["category"]["micro"] == pytest.approx(40.0)
    assert r["category"]["macro"] == pytest.approx(100 / 3)
    assert r["subcategory"]["macro"] == pytest.approx((50 + 100 + 0 + 0) / 4)
    assert [(t["operation"], t["label"], t["pairs"]) for t in r["table"]] == [
        ("synonym_noun", "Y", 1),
        ("negate_verb", "N", 2),
        ("swap_symmetric", "Y", 1),
        ("swap_asymmetric", "N", 1),
    ]  # DuQM's table order: synonym before negation, symmetry before asymmetry
    assert "| lexical | negation | negate_verb | N | 2 | 50.00 |" in format_suite(
        {"predictions": "p", "suite": "s", "results": r}
    )


def test_evaluate_suite_command_and_its_errors(tmp_path, capsys):
    suite = _suite(tmp_path)
    preds = tmp_path / "preds.tsv"
    preds.write_text("0\n1\n1\n0\n1\n", encoding="utf-8")
    out = tmp_path / "report"
    assert main(["evaluate", "--suite", str(suite), "--predictions", str(preds), "--out", str(out)]) == 0
    assert "accuracy 40.00 on 5 pairs" in capsys.readouterr().out
    assert json.loads((out / "report.json").read_text())["results"]["operation"]["micro"] == pytest.approx(40)
    preds.write_text("0\n1\n", encoding="utf-8")
    assert (
        main(["evaluate", "--suite", str(suite), "--predictions", str(preds), "--out", str(tmp_path / "r2")])
        == 1
    )
    assert "2 labels for the 5 pairs" in capsys.readouterr().err
    suite.write_text(
        json.dumps({"question1": "a", "question2": "b", "label": 1, "category": "lexical"}) + "\n"
    )
    assert (
        main(["evaluate", "--suite", str(suite), "--predictions", str(preds), "--out", str(tmp_path / "r3")])
        == 1
    )
    err = capsys.readouterr().err
    assert "pairs.jsonl:1 [field subcategory]: missing or empty subcategory" in err


def test_pairs_tsv_has_one_line_per_pair_whatever_the_questions_hold(tmp_path, capsys):
    """Issue 32 items 7 and 9: a question with a tab or a line break gives one pairs.tsv line per pair (the
    breaks become spaces there, counted in summary.json; pairs.jsonl keeps the text), and a tab in a plain
    text --input line is part of the question, not a column."""
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        "".join(
            json.dumps({"question": q}, ensure_ascii=False) + "\n"
            for q in ("这是\t什么啊？", "北京\n会下雨吗")
        )
    )
    out = tmp_path / "out"
    args = ["perturb", "--input", str(questions), "--lang", "zh", "--ops", "discourse_particle", "--out",
            str(out), "--quiet"]  # fmt: skip
    assert main(args) == 0
    rows = [json.loads(line) for line in (out / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    tsv = (out / "pairs.tsv").read_text(encoding="utf-8").split("\n")
    assert tsv[-1] == "" and len(tsv) - 1 == len(rows) == 3
    assert all(len(line.split("\t")) == 3 for line in tsv[:-1])
    assert tsv[0].split("\t")[0] == "这是 什么啊？" and rows[0]["question1"] == "这是\t什么啊？"
    assert json.loads((out / "summary.json").read_text())["pairs_tsv_whitespace_replaced"] == 3

    plain = tmp_path / "q.txt"
    plain.write_text("这是\t什么啊？\n", encoding="utf-8")
    assert main([*args[:2], str(plain), *args[3:], "--overwrite"]) == 0
    rows = [json.loads(line) for line in (out / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["question1"] for r in rows} == {"这是\t什么啊？"}  # the whole line, not "这是"
