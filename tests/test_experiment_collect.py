"""recipes/experiments/collect.py: the QA and QM tables from run folders (means and sample standard
deviations over seeds, drops, DPR), the same-steps control row only where every seed has one, and the
subset sampler's seeded, reproducible samples."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from recipes.experiments.collect import collect, collect_qm, kind_of, markdown, markdown_qm  # noqa: E402


def _qa_run(folder: Path, dev_f1: float, orig_f1: float, para_f1: float, steps: int, questions: int) -> None:
    folder.mkdir(parents=True)
    test = {
        "dev": {"exact_match": dev_f1 - 10, "f1": dev_f1, "total": 100},
        "para-original": {"exact_match": orig_f1 - 10, "f1": orig_f1, "total": 40},
        "para-paraphrased": {"exact_match": para_f1 - 10, "f1": para_f1, "total": 40},
    }
    train = {"questions": questions, "steps": steps, "epochs": 2.0}
    results = {"base_model": "m", "lang": "en", "train": train, "test": test}
    (folder / "all_results.json").write_text(json.dumps(results))


def _report(folder: Path, before: float, after: float) -> None:
    folder.mkdir(parents=True)
    results = {"results": {"before": {"dpr": before}, "after": {"dpr": after}}}
    (folder / "report.json").write_text(json.dumps(results))


def test_qa_table_means_spreads_drops_and_dpr(tmp_path):
    _qa_run(tmp_path / "qa-original-1", 40.0, 38.0, 35.0, 100, 50)
    _qa_run(tmp_path / "qa-original-2", 44.0, 42.0, 41.0, 100, 50)
    _qa_run(tmp_path / "qa-augmented-1", 46.0, 45.0, 45.0, 150, 75)
    _qa_run(tmp_path / "qa-augmented-2", 48.0, 47.0, 46.0, 150, 75)
    _qa_run(tmp_path / "qa-original-3", 90.0, 90.0, 90.0, 100, 50)  # no augmented run: not in the table
    _report(tmp_path / "report-para-1", 20.0, 10.0)
    _report(tmp_path / "report-para-2", 30.0, 20.0)
    table = collect(tmp_path)
    assert table["seeds"] == [1, 2] and kind_of(tmp_path) == "qa"
    original = table["training"]["original"]
    assert original["dev"]["f1"] == {"mean": 42.0, "sd": 2.83, "n": 2}
    assert original["para-drop-f1"] == {"mean": 2.0, "sd": 1.41, "n": 2}
    assert table["training"]["augmented"]["para-drop-f1"]["mean"] == 0.5
    assert table["dpr"] == {"para-before": {"mean": 25.0, "sd": 7.07, "n": 2},
                            "para-after": {"mean": 15.0, "sd": 7.07, "n": 2}}  # fmt: skip
    assert "control" not in table["training"]
    assert table["setup"]["steps"] == {"original": 100, "augmented": 150}
    assert (
        "| original | 32.00 ± 2.83 / 42.00 ± 2.83 | 40.00 ± 2.83 | 38.00 ± 4.24 | 2.00 ± 1.41 |"
        in markdown(table)
    )

    # a control run for one seed of two: still no control row (its mean would be over other seeds)
    _qa_run(tmp_path / "qa-control-1", 41.0, 39.0, 39.0, 150, 50)
    assert "control" not in collect(tmp_path)["training"]
    _qa_run(tmp_path / "qa-control-2", 43.0, 41.0, 40.0, 150, 50)
    table = collect(tmp_path)
    assert table["training"]["control"]["dev"]["f1"]["mean"] == 42.0
    assert table["setup"]["steps"]["control"] == 150
    assert "| original, as many steps as augmented | 32.00 ± 1.41 / 42.00 ± 1.41 |" in markdown(table)
    assert "para-control" not in table["dpr"]
    _report(tmp_path / "report-para-control-1", 18.0, 0.0)
    _report(tmp_path / "report-para-control-2", 22.0, 0.0)
    assert collect(tmp_path)["dpr"]["para-control"] == {"mean": 20.0, "sd": 2.83, "n": 2}


def _testset(folder: Path, answers: dict[str, str]) -> None:
    """A test set folder as build-testset writes it, as far as collect reads it: original.json (gold answers)
    and id_map.json (paraphrased id -> original id)."""
    folder.mkdir()
    qas = [
        {"id": i, "question": "q?", "answers": [{"text": a, "answer_start": 0}]} for i, a in answers.items()
    ]
    data = {"version": "1.1", "data": [{"title": "t", "paragraphs": [{"context": "c", "qas": qas}]}]}
    (folder / "original.json").write_text(json.dumps(data))
    (folder / "id_map.json").write_text(json.dumps({f"{i}_para": i for i in answers}))


def test_qa_rewritten_set_and_the_same_originals_asked_three_ways(tmp_path):
    gold = {"a": "paris", "b": "1914", "c": "red", "d": "blue"}
    _testset(tmp_path / "para", {k: gold[k] for k in "abc"})  # swaps of a, b, c
    _testset(tmp_path / "rewrite", {k: gold[k] for k in "bcd"})  # rewrites of b, c, d: b and c in both
    # seed 1: both originals right, the swap of b wrong, both rewrites wrong; seed 2: only the rewrite of c wrong
    answers = {
        1: ({"b": "1914", "c": "red"}, {"b_para": "1915", "c_para": "red"}, {"b_para": "no", "c_para": "no"}),
        2: (
            {"b": "1914", "c": "red"},
            {"b_para": "1914", "c_para": "red"},
            {"b_para": "1914", "c_para": "x"},
        ),
    }
    for seed, (orig, swap, rewrite) in answers.items():
        for data in ("original", "augmented"):
            run = tmp_path / f"qa-{data}-{seed}"
            _qa_run(run, 40.0, 38.0, 35.0, 100, 50)
            results = json.loads((run / "all_results.json").read_text())
            results["test"] |= {
                "rewrite-original": {"exact_match": 30, "f1": 40.0, "total": 3},
                "rewrite-paraphrased": {"exact_match": 20, "f1": 30.0 + seed, "total": 3},
            }
            (run / "all_results.json").write_text(json.dumps(results))
            for name, pred in (("para-original", {**orig, "a": "paris"}), ("para-paraphrased", {**swap, "a_para": "x"}),
                               ("rewrite-paraphrased", {**rewrite, "d_para": "blue"})):  # fmt: skip
                (run / f"predictions_{name}.json").write_text(json.dumps(pred))
    table = collect(tmp_path)
    assert table["training"]["original"]["rewrite-drop-f1"] == {"mean": 8.5, "sd": 0.71, "n": 2}
    common = table["same_originals"]
    assert common["questions"] == 2  # b and c, not a (no rewrite) nor d (no swap)
    row = common["original"]
    assert row["original"] == {"mean": 100.0, "sd": 0.0, "n": 2}
    assert row["swap"]["mean"] == 75.0 and row["rewrite"]["mean"] == 25.0
    assert row["rewrite-drop"] == {"mean": 75.0, "sd": 35.36, "n": 2}
    text = markdown(table)
    assert "rewritten set: original F1 | rewritten F1 | drop" in text
    assert "the same 2 original questions, asked three ways (F1):" in text
    assert (
        "| original | 100.00 ± 0.00 | 75.00 ± 35.36 | 25.00 ± 35.36 | 25.00 ± 35.36 | 75.00 ± 35.36 |" in text
    )


def test_qa_trap_rows(tmp_path):
    for data, steps in (("original", 100), ("augmented", 150)):
        for seed in (1, 2):
            _qa_run(tmp_path / f"qa-{data}-{seed}", 40.0, 38.0, 35.0, steps, 50)
    # qa_traps.sh's scoring runs: the trap questions with their own passage, and with the trap
    for data, seed, orig, trap in (("original", 1, 50.0, 30.0), ("original", 2, 54.0, 30.0),
                                   ("augmented", 1, 52.0, 40.0), ("augmented", 2, 52.0, 44.0)):  # fmt: skip
        (tmp_path / f"trap-{data}-{seed}").mkdir()
        test = {"trap-original": {"exact_match": orig - 10, "f1": orig, "total": 20},
                "trap": {"exact_match": trap - 10, "f1": trap, "total": 20}}  # fmt: skip
        (tmp_path / f"trap-{data}-{seed}" / "all_results.json").write_text(json.dumps({"test": test}))
    assert "trap" in collect(tmp_path)  # the rows come before the reports (no distractor share yet)
    assert "on-distractor" not in collect(tmp_path)["trap"]["original"]
    for seed, before, after in ((1, 25.0, 10.0), (2, 35.0, 20.0)):
        (tmp_path / f"report-trap-{seed}").mkdir()
        hits = {"before": {"rate": before}, "after": {"rate": after}}
        (tmp_path / f"report-trap-{seed}" / "report.json").write_text(json.dumps({"trap_hits": hits}))
    table = collect(tmp_path)
    original, augmented = table["trap"]["original"], table["trap"]["augmented"]
    assert original["drop-f1"] == {"mean": 22.0, "sd": 2.83, "n": 2}
    assert augmented["trap"]["f1"] == {"mean": 42.0, "sd": 2.83, "n": 2}
    assert original["on-distractor"]["mean"] == 30.0 and augmented["on-distractor"]["mean"] == 15.0
    assert original["questions"] == 20 and "control" not in table["trap"]
    text = markdown(table)
    assert "trap set (20 questions, `perturb --trap`):" in text
    assert (
        "| original | 42.00 ± 2.83 / 52.00 ± 2.83 | 20.00 ± 0.00 / 30.00 ± 0.00 | 22.00 ± 2.83 | 30.00 ± 7.07 |"
        in text
    )


def test_qm_table(tmp_path):
    for data, seed, acc in (
        ("original", 1, 80.0),
        ("original", 2, 82.0),
        ("augmented", 1, 84.0),
        ("augmented", 2, 84.0),
    ):
        folder = tmp_path / f"qm-{data}-{seed}"
        folder.mkdir()
        test = {
            name: {"accuracy": acc - i, "f1": acc - i - 1, "total": 10}
            for i, name in enumerate(("test", "original", "paraphrased"))
        }
        results = {"model": "m", "train_samples": 10, "epochs": 3, "test": test}
        (folder / "all_results.json").write_text(json.dumps(results))
    _report(tmp_path / "report-1", 10.0, 5.0)
    _report(tmp_path / "report-2", 12.0, 7.0)
    assert kind_of(tmp_path) == "qm"
    table = collect_qm(tmp_path)
    assert table["seeds"] == [1, 2]
    assert table["training"]["original"]["test"]["accuracy"] == {"mean": 81.0, "sd": 1.41, "n": 2}
    assert table["training"]["original"]["drop"]["accuracy"] == {"mean": 1.0, "sd": 0.0, "n": 2}
    assert table["training"]["augmented"]["dpr"] == {"mean": 6.0, "sd": 1.41, "n": 2}


def test_subset_is_seeded_and_keeps_whole_pairs(tmp_path):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        "".join(f"question {i} a\tquestion {i} b\t{i % 2}\n" for i in range(50)), encoding="utf-8"
    )
    script = ROOT / "recipes" / "experiments" / "subset.py"
    outs = []
    for name in ("one.tsv", "two.tsv"):
        subprocess.run([sys.executable, str(script), "--pairs", str(pairs), str(tmp_path / name), "--n", "7",
                        "--seed", "3"], check=True, capture_output=True)  # fmt: skip
        outs.append((tmp_path / name).read_text(encoding="utf-8"))
    assert outs[0] == outs[1]
    lines = outs[0].splitlines()
    assert len(lines) == 7 and set(lines) <= set(pairs.read_text(encoding="utf-8").splitlines())


def test_qm_table_with_the_rewritten_set_the_control_and_the_same_pairs_asked_three_ways(tmp_path):
    """qm_pairs.sh with REWRITE=1 CONTROL=1: a table per test set (para/, rewrite/) with the control row,
    and accuracy on the pairs both sets hold (matched through id_map.json), asked three ways."""
    sets = ("test", "original", "paraphrased", "rewrite-original", "rewrite-paraphrased")
    for data, seed, acc in (("original", 1, 80.0), ("original", 2, 82.0), ("augmented", 1, 84.0),
                            ("augmented", 2, 84.0), ("control", 1, 81.0), ("control", 2, 81.0)):  # fmt: skip
        folder = tmp_path / f"qm-{data}-{seed}"
        folder.mkdir()
        test = {name: {"accuracy": acc - i, "f1": acc - i - 1, "total": 3} for i, name in enumerate(sets)}
        results = {"model": "m", "train_samples": 10, "epochs": 3, "steps": 7, "test": test}
        (folder / "all_results.json").write_text(json.dumps(results))
        # para/ holds input pairs 1-3 (gold 1 0 1), rewrite/ pairs 2-4: the common pairs are 2 and 3
        swap = "1 1 1" if data == "original" else "1 0 1"  # the original model gets pair 2's swap wrong
        for name, labels in (("original", "1 0 1"), ("paraphrased", swap), ("rewrite-paraphrased", "0 0 1")):
            (folder / f"predictions_{name}.tsv").write_text("\n".join(labels.split()) + "\n")
    (tmp_path / "para").mkdir()
    (tmp_path / "rewrite").mkdir()
    (tmp_path / "para" / "id_map.json").write_text(json.dumps({"1": 1, "2": 2, "3": 3}))
    (tmp_path / "rewrite" / "id_map.json").write_text(json.dumps({"1": 2, "2": 3, "3": 4}))
    (tmp_path / "para" / "original.tsv").write_text("a1\tb1\t1\na2\tb2\t0\na3\tb3\t1\n")
    for seed in (1, 2):
        _report(tmp_path / f"report-{seed}", 10.0, 5.0)
        _report(tmp_path / f"report-rewrite-{seed}", 20.0, 8.0 + seed)
        _report(tmp_path / f"report-rewrite-control-{seed}", 30.0 + seed, 0.0)
    table = collect_qm(tmp_path)
    original, control = table["training"]["original"], table["training"]["control"]
    assert original["rewrite-drop"]["accuracy"] == {"mean": 1.0, "sd": 0.0, "n": 2}
    assert original["rewrite-dpr"] == {"mean": 20.0, "sd": 0.0, "n": 2}
    assert table["training"]["augmented"]["rewrite-dpr"] == {"mean": 9.5, "sd": 0.71, "n": 2}
    assert control["rewrite-dpr"] == {"mean": 31.5, "sd": 0.71, "n": 2}
    assert "dpr" not in control  # report-control-SEED missing: no para DPR for the control
    assert table["setup"]["steps"] == {"original": 7, "augmented": 7, "control": 7}
    common = table["same_originals"]
    assert common["pairs"] == 2
    # pair 2 (gold 0): swap 1 for the original model; pair 3 (gold 1): rewrite 0 for every model
    assert common["original"]["swap"]["mean"] == 50.0 and common["augmented"]["swap"]["mean"] == 100.0
    assert common["control"]["rewrite-drop"] == {"mean": 50.0, "sd": 0.0, "n": 2}
    text = markdown_qm(table)
    assert "| training data | test acc / F1 | rewritten set: original acc / F1 |" in text
    assert "the same 2 original pairs, asked three ways (accuracy):" in text
    assert (
        "| original, as many steps as augmented | 100.00 ± 0.00 | 100.00 ± 0.00 | 0.00 ± 0.00 | 50.00 ± 0.00 | 50.00 ± 0.00 |"
        in text
    )
