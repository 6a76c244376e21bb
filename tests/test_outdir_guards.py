"""Issue 32, items 1 and 2: one run per output folder (a lock held for the whole run, a stale one after a
crash named) and a command that never deletes or replaces its own inputs, with or without --overwrite."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from paraguide.cli import main
from paraguide.data.fingerprint import fingerprints
from paraguide.data.lock import LOCK_FILE
from paraguide.data.outdir import OutputDir, RunConflict

EXAMPLE = ROOT / "examples" / "data" / "squad_en.json"
EXAMPLE_PPDB = ROOT / "examples" / "data" / "ppdb_en.txt"
BUILD = [
    "--source",
    f"ppdb:{EXAMPLE_PPDB}",
    "--scorer",
    "lexical",
    "--rank",
    "off",
    "--quiet",
    "--lang",
    "en",
]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _questions(tmp_path: Path) -> Path:
    q = tmp_path / "q.txt"
    q.write_text("这是什么啊？\n北京会下雨吗\n", encoding="utf-8")
    return q


def _perturb(q: Path, out: Path, *extra: str) -> list[str]:
    return ["perturb", "--input", str(q), "--lang", "zh", "--ops", "discourse_particle", "--out", str(out),
            "--quiet", *extra]  # fmt: skip


@pytest.fixture
def first_run(tmp_path):
    """A real ``paraguide perturb`` run in another process, paused once it has claimed its folder (its
    writing step waits): yields (its --out, the process, its questions file)."""
    q = _questions(tmp_path)
    out = tmp_path / "out"
    code = (
        "import sys, time; import paraguide.pipeline.perturb as p; from paraguide.cli import main\n"
        "def paused(*a, **k):\n    print('claimed', flush=True); time.sleep(120)\n"
        "p._write = paused\n"
        "sys.exit(main(sys.argv[1:]))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *_perturb(q, out)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "claimed"
    yield out, proc, q
    if proc.poll() is None:
        proc.kill()
        proc.wait()


# ---- item 1: one run per folder -------------------------------------------------------------------------


def test_a_second_run_into_a_running_runs_folder_is_refused_and_a_crash_leaves_a_named_stale_lock(
    first_run, capsys
):
    """Issue 32 item 1: two runs into one --out. The second (here: another source of questions, as in the
    issue) is refused while the first runs, naming the folder and the first run's pid and command, and
    writes nothing; after the first is killed (kill -9), the next run takes the lock and names the stale
    one."""
    out, proc, q = first_run
    before = sorted(os.listdir(out))
    assert before == [LOCK_FILE, "run.json"]
    other = q.with_name("other.txt")
    other.write_text("北京会下雨吗\n", encoding="utf-8")
    assert main(_perturb(other, out)) == 1
    err = capsys.readouterr().err
    assert f"{out} is in use by another paraguide run (pid {proc.pid}" in err
    assert f"perturb --input {q}" in err  # the first run's command line
    assert sorted(os.listdir(out)) == before
    assert main([*_perturb(other, out), "--overwrite"]) == 1  # --overwrite does not take a live run's folder
    assert "is in use by another paraguide run" in capsys.readouterr().err
    assert sorted(os.listdir(out)) == before

    proc.send_signal(signal.SIGKILL)  # a crash: the OS lets go of the lock, the record stays
    proc.wait()
    assert main([*_perturb(q, out), "--overwrite"]) == 0
    err = capsys.readouterr().err
    assert f"{out / LOCK_FILE} was left by a run that did not end normally (pid {proc.pid}" in err
    assert "no longer running): stale lock taken over" in err
    assert (out / "pairs.jsonl").is_file()
    assert not (out / LOCK_FILE).exists()  # released at the end of the run


def test_two_runs_racing_for_one_folder_do_not_mix(tmp_path, capsys):
    """The second run checked the folder while it was empty; the first claimed and finished before the
    second got to write: the second stops instead of mixing its outputs with the first's."""
    q = _questions(tmp_path)
    out = tmp_path / "out"
    late = OutputDir.check(out, "perturb")
    assert main(_perturb(q, out)) == 0
    before = snapshot(out)
    late.identify({"ops": "other"}, {})
    with pytest.raises(RunConflict, match=r"changed while this run was starting \(another paraguide run"):
        late.claim()
    assert snapshot(out) == before


def test_a_lock_is_released_when_a_run_fails_and_a_full_disk_names_the_file(tmp_path, capsys, monkeypatch):
    import paraguide.pipeline.perturb as perturb

    def full(text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(perturb, "_tsv_cell", full)  # writing pairs.tsv fails after the claim
    q = _questions(tmp_path)
    out = tmp_path / "out"
    assert main(_perturb(q, out)) == 1
    assert f"cannot write {out / 'pairs.tsv'}: No space left on device" in capsys.readouterr().err
    assert (out / "run.json").is_file() and not (out / LOCK_FILE).exists()
    assert not (out / "pairs.tsv").exists() and not list(out.glob(".pairs.tsv.*"))  # no half-written file


# ---- item 2: inputs are never deleted ------------------------------------------------------------------


def _testset(folder: Path, job: str = "build-testset") -> Path:
    folder.mkdir()
    squad = {"version": "1.1", "data": [{"title": "t", "paragraphs": [{"context": "Paris is in France.", "qas": [
        {"id": "o1", "question": "Where is Paris?", "answers": [{"text": "France", "answer_start": 12}]}]}]}]}  # fmt: skip
    (folder / "original.json").write_text(json.dumps(squad))
    squad["data"][0]["paragraphs"][0]["qas"][0]["id"] = "p1"
    (folder / "paraphrased.json").write_text(json.dumps(squad))
    (folder / "id_map.json").write_text(json.dumps({"p1": "o1"}))
    (folder / "run.json").write_text(json.dumps({"job": job, "config": {"lang": "en"}, "finished": True}))
    return folder


def test_evaluate_overwrite_onto_its_test_set_is_refused(tmp_path, capsys):
    t = _testset(tmp_path / "T")
    preds = tmp_path / "preds.json"
    preds.write_text(json.dumps({"o1": "France"}))
    para = tmp_path / "para.json"
    para.write_text(json.dumps({"p1": "France"}))
    before = snapshot(t)
    argv = ["evaluate", "--testset", str(t), "--original", str(preds), "--paraphrased", str(para), "--out",
            str(t), "--overwrite"]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "--overwrite would remove" in err and f"this run reads {t.resolve()} (its testset)" in err
    assert snapshot(t) == before
    # predictions kept in the folder under the name of a file evaluate writes: never replaced
    (tmp_path / "R").mkdir()
    kept = tmp_path / "R" / "report.json"
    kept.write_text(preds.read_text())
    argv_r = [*argv[:3], "--original", str(kept), "--paraphrased", str(para), "--out", str(kept.parent)]
    assert main([*argv_r, "--overwrite"]) == 1
    assert f"--overwrite would remove {kept}, but this run reads {kept.resolve()} (its original)" in (
        capsys.readouterr().err
    )
    assert kept.read_text() == preds.read_text()
    # a report in a subfolder of the test set's folder is no input, and --overwrite replaces it
    argv = [*argv[:3], "--original", str(preds), "--paraphrased", str(para), "--out", str(t / "report")]
    assert main(argv) == 0 and main([*argv, "--overwrite"]) == 0


def test_evaluate_suite_overwrite_onto_its_suite_is_refused(tmp_path, capsys):
    q = _questions(tmp_path)
    suite = tmp_path / "S"
    assert main(_perturb(q, suite)) == 0
    pairs = len((suite / "pairs.jsonl").read_text().splitlines())
    preds = tmp_path / "preds.tsv"
    preds.write_text("1\n" * pairs)
    before = snapshot(suite)
    for given in (suite, suite / "pairs.jsonl"):
        argv = [
            "evaluate",
            "--suite",
            str(given),
            "--predictions",
            str(preds),
            "--out",
            str(suite),
            "--overwrite",
        ]
        assert main(argv) == 1
        assert "--overwrite would remove" in capsys.readouterr().err
        assert snapshot(suite) == before
    assert (
        main(["evaluate", "--suite", str(suite), "--predictions", str(preds), "--out", str(suite / "r")]) == 0
    )


def test_build_testset_overwrite_onto_its_input_is_refused(tmp_path, capsys):
    t = _testset(tmp_path / "T")
    (t / "original.json").write_bytes(EXAMPLE.read_bytes())
    before = snapshot(t)
    argv = ["build-testset", "--squad", str(t / "original.json"), "--out", str(t), "--overwrite", *BUILD]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"--overwrite would remove {t / 'original.json'}, but this run reads" in err
    assert snapshot(t) == before


@pytest.mark.parametrize(
    "job, held, role",
    [("train", "model.safetensors", "model"), ("perturb-trap", "trap.json", "testset")],
)
def test_overwrite_never_removes_a_model_or_trap_folder_it_reads(tmp_path, job, held, role):
    """``build-testset --model M --out M --overwrite`` and ``evaluate --testset TRAP --out TRAP --overwrite``."""
    folder = tmp_path / "M"
    folder.mkdir()
    (folder / held).write_text("weights")
    (folder / "config.json").write_text("{}")
    (folder / "run.json").write_text(json.dumps({"job": job, "finished": True}))
    before = snapshot(folder)
    command = "build-testset" if job == "train" else "evaluate"
    out = OutputDir.check(folder, command, overwrite=True)
    out.identify({}, fingerprints({role: folder}))
    with pytest.raises(RunConflict, match=f"this run reads {folder.resolve()} \\(its {role}\\)"):
        out.claim()
    assert snapshot(folder) == before


def test_a_dangling_out_symlink_is_named(tmp_path, capsys):
    q = _questions(tmp_path)
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "gone")
    assert main(_perturb(q, link)) == 1
    assert (
        f"{link} is a symbolic link to {tmp_path / 'gone'}, which does not exist" in capsys.readouterr().err
    )


def test_resume_does_not_follow_a_work_symlink(tmp_path, capsys):
    """Issue 32 item 9: a ``work/`` that is a symbolic link to a folder outside is refused on --resume (it
    would have the run write there); the folder it points to is left as it was."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_text(json.dumps({"job": "build-testset", "config": {}, "inputs": {}}))
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "shard-0.jsonl").write_text("precious\n")
    (out / "work").symlink_to(outside)
    argv = ["build-testset", "--squad", str(EXAMPLE), "--out", str(out), "--resume", *BUILD]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"cannot resume {out}: {out / 'work'} is a symbolic link (to {outside})" in err
    assert (outside / "shard-0.jsonl").read_text() == "precious\n"


def test_an_api_run_that_stopped_on_an_error_does_not_block_the_next_one_in_the_same_process(tmp_path):
    out = tmp_path / "out"
    first = OutputDir.check(out, "perturb")
    first.identify({}, {})
    first.claim()  # then the caller's code fails: no finish(), the lock is still held by this process
    assert (out / LOCK_FILE).exists()
    again = OutputDir.check(out, "perturb", overwrite=True)
    again.identify({}, {})
    again.claim()
    again.finish()
    assert not (out / LOCK_FILE).exists()


def test_build_testset_overwrite_onto_its_model_folder_is_refused(tmp_path, capsys):
    """``build-testset --model M --out M --overwrite`` (issue 32 item 2): M's trained model is kept, even
    where this run does not read it (the substitute preset runs no beam)."""
    model = tmp_path / "M"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"weights")
    (model / "config.json").write_text("{}")
    (model / "run.json").write_text(
        json.dumps({"job": "train", "config": {}, "inputs": {}, "finished": True})
    )
    before = snapshot(model)
    argv = ["build-testset", "--squad", str(EXAMPLE), "--model", str(model), "--out", str(model), "--overwrite",
            *BUILD]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"but this run reads {model.resolve()} (its model)" in err
    assert snapshot(model) == before
