"""Nothing lost, nothing mixed: output folders that are never a user's files or another run, --resume that
identifies a run by the content of every file it reads, and train killed while writing a checkpoint."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT
from toy_corpus import write_toy_corpus

from paraguide.cli import main
from paraguide.data.fingerprint import changed_files, fingerprint, fingerprints
from paraguide.data.outdir import OutputDir, RunConflict

EXAMPLE = ROOT / "examples" / "data" / "squad_en.json"
EXAMPLE_PPDB = ROOT / "examples" / "data" / "ppdb_en.txt"
# A cheap builder: in-place candidates, a lexical scorer, no model.
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
TRAIN = ["--size", "tiny", "--vocab-size", "300", "--batch-size", "16", "--lr", "3e-3", "--warmup-steps", "2",
         "--dropout", "0", "--eval-every", "1000", "--eval-examples", "4", "--save-every", "1000"]  # fmt: skip


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name -> bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def error(capsys) -> str:
    """The last line of standard error (the CLI's error message)."""
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_toy_corpus(tmp_path_factory.mktemp("corpus"))


def train(corpus, out, *extra) -> int:
    return main(["train", "--train-file", str(corpus), "--output-dir", str(out), *TRAIN, *extra])


# ---- content identity ---------------------------------------------------------------------------------


def test_a_fingerprint_is_the_content_not_the_size_or_the_name(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("x" * 3_000_000 + "who built it?\n")
    before = fingerprint(a)
    a.write_text("x" * 3_000_000 + "who found it?\n")  # same size, changed past the first megabyte
    after = fingerprint(a)
    assert before["bytes"] == after["bytes"] and before["sha256"] != after["sha256"]
    assert changed_files({"input": before}, {"input": after}) == [
        f"input: {a} has changed since the run started (its content differs)"
    ]
    moved = tmp_path / "b.txt"
    shutil.copy(a, moved)
    assert changed_files({"input": after}, {"input": fingerprint(moved)}) == []  # same bytes: same input
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    first = fingerprint(folder)
    (folder / "extra.bin").write_bytes(b"")
    assert fingerprint(folder)["sha256"] != first["sha256"]  # a file added to a model folder counts
    assert set(fingerprints({"input": a, "model": folder, "unused": None})) == {"input", "model"}


def test_output_dir_rules(tmp_path):
    user = tmp_path / "user"
    user.mkdir()
    (user / "notes.txt").write_text("mine")
    with pytest.raises(RunConflict) as e:
        OutputDir.check(user, "augment")
    assert str(e.value) == (
        f"{user} is not empty and is not a paraguide augment run (it holds notes.txt); choose a new or empty "
        "folder, or pass --overwrite to write there (the files paraguide writes are replaced, others are kept)"
    )
    a_file = tmp_path / "file"
    a_file.write_text("")
    with pytest.raises(RunConflict, match="is a file, not a folder"):
        OutputDir.check(a_file, "train")
    run = OutputDir.check(tmp_path / "run", "build-testset")
    run.identify({"top_k": 3}, {})
    run.claim()
    with pytest.raises(
        RunConflict, match="holds a paraguide build-testset run; choose another folder for augment"
    ):
        OutputDir.check(tmp_path / "run", "augment")
    with pytest.raises(RunConflict, match="not a augment run: nothing to resume"):
        OutputDir.check(tmp_path / "run", "augment", resume=True)
    resumed = OutputDir.check(tmp_path / "run", "build-testset", resume=True)
    with pytest.raises(RunConflict, match=r"the run changed: top_k: 3 -> 4 \(resume with"):
        resumed.identify({"top_k": 4}, {})
    (tmp_path / "run" / "run.json").write_text("{")
    with pytest.raises(RunConflict, match="run.json is not a paraguide run record"):
        OutputDir.check(tmp_path / "run", "build-testset", resume=True)


# ---- train ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_train_never_replaces_or_mixes_a_run(corpus, tmp_path, capsys):
    out = tmp_path / "m"
    assert train(corpus, out, "--max-steps", "4", "--save-every", "2", "--eval-every", "2") == 0
    model = sha(out / "model.safetensors")
    # the case: the same command with another seed, no --resume
    assert train(corpus, out, "--max-steps", "2", "--seed", "5") == 1
    assert error(capsys) == (
        f"paraguide train: error: {out} already holds a paraguide train run (finished); pass --resume to "
        "continue it (the same command plus --resume), or --overwrite to discard it and start again"
    )
    assert sha(out / "model.safetensors") == model
    assert train(corpus, out, "--max-steps", "2", "--seed", "5", "--resume", "--overwrite") == 1
    assert error(capsys).startswith("paraguide train: error: --resume and --overwrite contradict each other")
    assert train(corpus, out, "--max-steps", "2", "--seed", "5", "--resume") == 1
    assert error(capsys) == (
        f"paraguide train: error: cannot resume {out}, the run changed: seed: 13 -> 5 (resume with the "
        "original options and files, or start again with --overwrite or in another folder)"
    )
    (out / "notes.txt").write_text("kept")
    assert train(corpus, out, "--max-steps", "2", "--seed", "5", "--eval-every", "1", "--overwrite") == 0
    assert sha(out / "model.safetensors") != model
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics] == [1, 2]  # the old run's evaluations (steps 2, 4) are gone
    assert not list(out.glob("checkpoint-*")) and (out / "notes.txt").read_text() == "kept"


@pytest.mark.slow
def test_train_resume_checks_the_data_and_may_train_longer(corpus, tmp_path, capsys):
    data = tmp_path / "train.jsonl"
    shutil.copy(corpus, data)
    shutil.copy(corpus.with_name("train.heldout.jsonl"), tmp_path / "train.heldout.jsonl")
    out = tmp_path / "m"
    assert train(data, out, "--max-steps", "4") == 0
    assert train(data, out, "--max-steps", "6", "--resume") == 0  # more steps: the same run, continued
    assert json.loads((out / "all_results.json").read_text())["step"] == 6
    lines = data.read_text().splitlines()
    data.write_text("\n".join([lines[1], lines[0], *lines[2:]]) + "\n")  # same bytes, another order
    assert train(data, out, "--max-steps", "8", "--resume") == 1
    assert error(capsys) == (
        f"paraguide train: error: cannot resume {out}, the run changed: train file: {data} has changed since "
        "the run started (its content differs) (resume with the original options and files, or start again "
        "with --overwrite or in another folder)"
    )


KILL_IN_CHECKPOINT = """
import os, signal, sys
import accelerate
from paraguide.cli import main

save_state, calls = accelerate.Accelerator.save_state, []

def killed_while_saving(self, output_dir=None, **kw):
    calls.append(output_dir)
    result = save_state(self, output_dir, **kw)
    if len(calls) == 2:  # the second checkpoint: half of its weights on disk, then kill -9
        with open(os.path.join(output_dir, "model.safetensors"), "r+b") as f:
            f.truncate(1000)
        os.kill(os.getpid(), signal.SIGKILL)
    return result

accelerate.Accelerator.save_state = killed_while_saving
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_kill_9_while_writing_a_checkpoint_then_resume_gives_the_same_weights(corpus, tmp_path):
    args = ["train", "--train-file", str(corpus), *TRAIN, "--max-steps", "12", "--save-every", "4",
            "--eval-every", "4", "--patience", "5"]  # fmt: skip
    assert main([*args, "--output-dir", str(tmp_path / "full")]) == 0
    out = tmp_path / "killed"
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    killed = subprocess.run(
        [sys.executable, "-c", KILL_IN_CHECKPOINT, *args, "--output-dir", str(out)],
        env=env,
        capture_output=True,
    )
    assert killed.returncode == -signal.SIGKILL
    assert (out / ".checkpoint-8").is_dir() and not (out / "checkpoint-8").exists()  # never under its name
    assert sorted(p.name for p in out.glob("checkpoint-*")) == ["checkpoint-4"]
    assert main([*args, "--output-dir", str(out), "--resume"]) == 0
    assert not (out / ".checkpoint-8").exists()
    for name in ("model.safetensors", "metrics.jsonl"):
        assert (out / name).read_bytes() == (tmp_path / "full" / name).read_bytes(), name
    full, resumed = (json.loads((d / "all_results.json").read_text()) for d in (tmp_path / "full", out))
    assert {k: v for k, v in resumed.items() if k != "train_seconds"} == {
        k: v for k, v in full.items() if k != "train_seconds"
    }


# ---- the builders and train-scorer ---------------------------------------------------------------------


def test_builders_never_overwrite_a_users_files(tmp_path, capsys):
    out = tmp_path / "D"
    out.mkdir()
    (out / "paraphrased.json").write_text('{"mine":1}\n')
    (out / "notes.txt").write_text("kept")
    before = snapshot(out)
    assert main(["build-testset", "--squad", str(EXAMPLE), *BUILD, "--out", str(out)]) == 1
    assert error(capsys) == (
        f"paraguide build-testset: error: {out} is not empty and is not a paraguide build-testset run (it "
        "holds notes.txt, paraphrased.json); choose a new or empty folder, or pass --overwrite to write there "
        "(the files paraguide writes are replaced, others are kept)"
    )
    assert snapshot(out) == before
    assert main(["augment", "--squad", str(EXAMPLE), *BUILD, "--out", str(out), "--resume"]) == 1
    assert "(there is nothing to resume: it holds notes.txt, paraphrased.json)" in error(capsys)
    assert snapshot(out) == before
    assert main(["build-testset", "--squad", str(EXAMPLE), *BUILD, "--out", str(out), "--overwrite"]) == 0
    assert json.loads((out / "paraphrased.json").read_text())["version"] == "1.1"
    assert (out / "notes.txt").read_text() == "kept"
    # another command's run is not mixed in either
    assert main(["augment", "--squad", str(EXAMPLE), *BUILD, "--out", str(out)]) == 1
    assert error(capsys).endswith(
        f"{out} holds a paraguide build-testset run; choose another folder for augment, or pass --overwrite "
        "to replace it"
    )


@pytest.mark.slow
def test_resume_refuses_a_changed_input_or_model_of_the_same_size(tmp_path, capsys):
    squad = tmp_path / "dev.json"
    data = json.loads(EXAMPLE.read_text())
    data["padding"] = "x" * 1_200_000  # the question edited below lies past the first megabyte
    text = json.dumps(data)
    squad.write_text(text)
    sim = tmp_path / "sim"
    shutil.copytree(ROOT / "paraguide" / "models" / "sim-en", sim)
    args = ["build-testset", "--squad", str(squad), *BUILD, "--scorer", f"sim:{sim}", "--threshold", "0.5"]
    out = tmp_path / "out"
    assert main([*args, "--out", str(out), "--chunk-size", "4"]) == 0
    before = snapshot(out)
    last = data["data"][-1]["paragraphs"][-1]["qas"][-1]["question"]
    squad.write_text(text.replace(last, last[::-1]))  # the same size, another question
    assert squad.stat().st_size == len(text.encode())
    assert main([*args, "--out", str(out), "--chunk-size", "4", "--resume"]) == 1
    assert f"the run changed: input: {squad} has changed since the run started" in error(capsys)
    squad.write_text(text)
    weights = bytearray((sim / "model.safetensors").read_bytes())
    weights[-1] ^= 1  # the scorer's weights, rewritten at the same size
    (sim / "model.safetensors").write_bytes(bytes(weights))
    assert main([*args, "--out", str(out), "--chunk-size", "4", "--resume"]) == 1
    assert f"the run changed: scorer: {sim} has changed since the run started" in error(capsys)
    assert snapshot(out) == before


def test_train_scorer_refuses_a_users_folder_and_an_unwritable_one(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"how do i learn {w}?\twhat is the way to learn {w}?\t1\n" for w in "abcdefgh"))
    out = tmp_path / "scorer"
    out.mkdir()
    (out / "config.json").write_text('{"mine": 1}')
    small = ["--dim", "8", "--vocab-size", "300", "--epochs", "1", "--batch-size", "4"]
    assert main(["train-scorer", "--pairs", str(pairs), "--output-dir", str(out), *small]) == 1
    assert error(capsys).startswith(
        f"paraguide train-scorer: error: {out} is not empty and is not a paraguide"
    )
    assert (out / "config.json").read_text() == '{"mine": 1}'
    blocked = tmp_path / "a-file" / "scorer"  # its parent is a file: cannot be created
    (tmp_path / "a-file").write_text("")
    assert main(["train-scorer", "--pairs", str(pairs), "--output-dir", str(blocked), *small]) == 1
    assert error(capsys) == f"paraguide train-scorer: error: cannot write in {blocked}: Not a directory"
    assert main(["train-scorer", "--pairs", str(pairs), "--output-dir", str(out), *small, "--overwrite"]) == 0
    assert json.loads((out / "config.json").read_text())["dim"] == 8
    assert json.loads((out / "run.json").read_text())["finished"] is True
