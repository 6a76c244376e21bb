"""Training, resuming and generating with tiny models on a small synthetic corpus (CPU, seconds)."""

import json
import os
import platform
import random
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("accelerate")

from safetensors.torch import load_file  # noqa: E402
from toy_corpus import toy_train_config, write_replace_corpus, write_toy_corpus  # noqa: E402

from paraguide.model.paraphraser import Paraphraser, includes  # noqa: E402
from paraguide.model.train import epoch_batches, example_length, train  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_toy_corpus(tmp_path_factory.mktemp("corpus"))


def tiny(corpus, out, **kw):
    return toy_train_config(corpus, out, **{"size": "tiny", "vocab_size": 300, **kw})


def test_epoch_batches_are_deterministic_and_cover_everything():
    lengths = [random.Random(i).randint(3, 30) for i in range(1000)]
    a, b = epoch_batches(lengths, 32, 13, 0), epoch_batches(lengths, 32, 13, 0)
    assert a == b and a != epoch_batches(lengths, 32, 13, 1)
    assert sorted(i for batch in a for i in batch) == list(range(1000))


def test_batches_sorted_by_the_longer_side_pad_less_than_by_the_sum():
    # Source and target lengths independent of each other: sorted by their sum, a batch mixes long sources
    # with short targets and the reverse, and pads both sides to the longest; sorted by the longer side,
    # the sort key bounds both.
    rng = random.Random(0)
    pairs = [([1] * rng.randint(5, 40), [1] * rng.randint(5, 40)) for _ in range(3000)]

    def padded_positions(lengths):
        return sum(
            len(b) * (max(len(pairs[i][0]) for i in b) + max(len(pairs[i][1]) for i in b))
            for b in epoch_batches(lengths, 32, 13, 0)
        )

    by_max = padded_positions([example_length(s, t) for s, t in pairs])
    by_sum = padded_positions([len(s) + len(t) for s, t in pairs])
    assert example_length([1, 2, 3], [4]) == 3
    assert by_max < 0.9 * by_sum


@pytest.mark.slow
@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="keep_freed_memory tunes glibc's malloc (Linux)",
)
def test_keep_freed_memory_reuses_big_blocks_without_page_faults():
    # In a fresh process each: a 64 MB block malloc'd, written and freed 5 times. By default glibc maps
    # fresh pages for each (16k page faults each time); kept, the first block's memory is reused.
    script = """
import ctypes, resource, sys
from paraguide.model.train import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
def block():
    p = libc.malloc(64 << 20)
    ctypes.memset(p, 1, 64 << 20)
    libc.free(p)
block()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(5):
    block()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""
    faults = {
        mode: int(
            subprocess.run(
                [sys.executable, "-c", script, mode], capture_output=True, text=True, check=True
            ).stdout
        )
        for mode in ("default", "keep")
    }
    assert faults["default"] > 50_000 and faults["keep"] < 1_000, faults


@pytest.mark.slow
def test_train_writes_a_model_that_learns_and_uses_suggestions(corpus, tmp_path):
    result = train(tiny(corpus, tmp_path / "m", max_steps=150))
    for name in ("model.safetensors", "config.json", "tokenizer.json", "all_results.json", "metrics.jsonl"):
        assert (tmp_path / "m" / name).exists(), name
    assert result["suggestion_inclusion"] >= 0.9 and result["bleu"] > 50
    paraphraser = Paraphraser.from_pretrained(tmp_path / "m", device="cpu")
    out = paraphraser.paraphrase(
        ["how can i learn chess?", "how can i learn piano?"],
        ["cheapest way", None],
        num_beams=2,
        num_return_sequences=2,
    )
    assert [len(x) for x in out] == [2, 2]
    assert out[0][0].text == "what is the cheapest way to learn chess?" and out[0][0].includes_suggestion
    assert out[1][0].suggestion == "" and not out[1][0].includes_suggestion
    assert out[0][0].score >= out[0][1].score
    # save_pretrained / from_pretrained round-trip: the same paraphrases and scores
    paraphraser.save_pretrained(tmp_path / "saved")
    again = Paraphraser.from_pretrained(tmp_path / "saved", device="cpu").paraphrase(
        ["how can i learn chess?", "how can i learn piano?"],
        ["cheapest way", None],
        num_beams=2,
        num_return_sequences=2,
    )
    assert [[(p.text, p.score) for p in x] for x in again] == [[(p.text, p.score) for p in x] for x in out]


@pytest.mark.slow
def test_replace_format_learns_which_phrase_the_suggestion_replaces(tmp_path):
    corpus = write_replace_corpus(tmp_path)
    config = tiny(
        corpus, tmp_path / "m", max_steps=300, input_format="replace", batch_size=32, label_smoothing=0.0
    )
    result = train(config)
    assert result["suggestion_inclusion"] >= 0.9
    paraphraser = Paraphraser.from_pretrained(tmp_path / "m", device="cpu")
    assert paraphraser.model.config.input_format == "replace"
    question = "which old city has cheap food?"
    out = paraphraser.paraphrase([question, question], ["famous", "famous"], matched=["old", "cheap"])
    assert [o[0].text for o in out] == [
        "which famous city has cheap food?",
        "which old city has famous food?",
    ]


@pytest.mark.slow
def test_early_stopping_keeps_the_best_evaluation(corpus, tmp_path):
    # lr far too high: held-out loss rises after the first evaluations, and training stops
    result = train(
        tiny(corpus, tmp_path / "m", max_steps=200, eval_every=5, patience=2, lr=0.3, warmup_steps=1)
    )
    metrics = [json.loads(line) for line in (tmp_path / "m" / "metrics.jsonl").read_text().splitlines()]
    best = min(metrics, key=lambda m: m["heldout_loss"])
    assert result["early_stopped"] and result["step"] < 200
    assert result["best_step"] == best["step"] and result["step"] == best["step"] + 2 * 5
    assert result["heldout_loss"] == best["heldout_loss"]  # the saved model is the best one


@pytest.mark.slow
def test_max_minutes_ends_a_complete_run_early(corpus, tmp_path):
    # A zero budget is spent after the first step; the run still evaluates and saves like a finished one.
    result = train(tiny(corpus, tmp_path / "m", max_steps=50, max_minutes=0, patience=2))
    assert result["step"] == 1 and "bleu" in result
    assert result["best_step"] == 1  # the last step was evaluated: early stopping's best knows it
    assert (tmp_path / "m" / "model.safetensors").exists()
    assert json.loads((tmp_path / "m" / "all_results.json").read_text())["step"] == 1


@pytest.mark.slow
def test_resume_equals_an_uninterrupted_run(corpus, tmp_path):
    train(tiny(corpus, tmp_path / "full", max_steps=12, save_every=4))

    class Killed(Exception):
        pass

    def kill_at_10(step):
        if step == 10:
            raise Killed

    with pytest.raises(Killed):
        train(tiny(corpus, tmp_path / "resumed", max_steps=12, save_every=4), on_step=kill_at_10)
    assert sorted(p.name for p in (tmp_path / "resumed").glob("checkpoint-*")) == [
        "checkpoint-4",
        "checkpoint-8",
    ]
    train(tiny(corpus, tmp_path / "resumed", max_steps=12, save_every=4, resume=True))
    full = load_file(tmp_path / "full" / "model.safetensors")
    resumed = load_file(tmp_path / "resumed" / "model.safetensors")
    assert full.keys() == resumed.keys()
    assert all(torch.equal(full[k], resumed[k]) for k in full)


@pytest.mark.slow
def test_two_processes_with_accelerate_on_cpu(corpus, tmp_path):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    cmd = [
        sys.executable,
        "-m",
        "accelerate.commands.launch",
        "--num_processes",
        "2",
        "--num_machines",
        "1",
        "--multi_gpu",  # accelerate's torchrun launcher: really two processes (--cpu alone starts one)
        "--mixed_precision",
        "no",
        "--dynamo_backend",
        "no",
        "-m",
        "paraguide.cli",
        "train",
        "--train-file",
        str(corpus),
        "--output-dir",
        str(tmp_path / "ddp"),
        "--size",
        "tiny",
        "--vocab-size",
        "300",
        "--batch-size",
        "8",
        "--max-steps",
        "6",
        "--eval-examples",
        "8",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "ddp" / "model.safetensors").exists()
    results = json.loads((tmp_path / "ddp" / "all_results.json").read_text())
    assert results["step"] == 6 and results["processes"] == 2


def test_includes():
    assert includes("What is the fastest way to learn?", "fastest WAY")
    assert not includes("the fastest wayward", "fastest way")
    assert includes("学游泳最快的方法是什么", "最快") and not includes("anything", "")


@pytest.mark.slow
def test_paraphrase_command_reads_files_and_writes_jsonl(corpus, tmp_path):
    from paraguide.cli import main

    model = tmp_path / "m"
    train(tiny(corpus, model, max_steps=3))
    questions = tmp_path / "q.tsv"
    questions.write_text("how can i learn chess?\tbest way\nhow can i learn piano?\n")
    out = tmp_path / "out.jsonl"
    argv = f"paraphrase --input {questions} --model {model} --output {out} --num-beams 2 --num-return 2"
    assert main(argv.split()) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["question"], r["suggestion"], len(r["paraphrases"])) for r in rows] == [
        ("how can i learn chess?", "best way", 2),
        ("how can i learn piano?", "", 2),
    ]
    assert set(rows[0]["paraphrases"][0]) == {"text", "score", "includes_suggestion"}
    # --format text: the same paraphrases, for reading
    text = tmp_path / "out.txt"
    assert main([*argv.split(), "--output", str(text), "--format", "text"]) == 0
    expected = "".join(
        f"{r['question']}  [{r['suggestion']}]\n" + "".join(f"  -> {p['text']}\n" for p in r["paraphrases"])
        for r in rows
    )
    assert text.read_text() == expected


def test_paraphrase_command_errors(tmp_path, capsys):
    from paraguide.cli import main

    bad = tmp_path / "bad.tsv"
    bad.write_text("a?\tb\tc\td\n")
    assert main(["paraphrase", "--input", str(bad), "--model", str(tmp_path)]) == 1
    assert f"{bad}:1: expected 'question', 'question<TAB>suggestion' or" in capsys.readouterr().err
    assert main(["paraphrase", "why?", "--suggestion", "x", "--replaces", "a", "--replaces", "b"]) == 1
    assert "2 --replaces for 1 --suggestion; give one each" in capsys.readouterr().err
    assert main(["paraphrase", "why?", "--input", str(bad)]) == 1
    assert "either a question or --input" in capsys.readouterr().err
    assert main(["paraphrase", "why?", "--model", str(tmp_path / "nothing")]) == 1
    assert "no model folder" in capsys.readouterr().err


@pytest.mark.slow
def test_init_from_continues_a_trained_model(corpus, tmp_path):
    first = train(tiny(corpus, tmp_path / "a", max_steps=60))
    config = tiny(corpus, tmp_path / "b", max_steps=60, init_from=str(tmp_path / "a"), input_format="replace")
    second = train(config)
    # the same vocabulary, the new input format, and a start where the first run ended, not from scratch
    assert (tmp_path / "b" / "tokenizer.json").read_text() == (tmp_path / "a" / "tokenizer.json").read_text()
    assert Paraphraser.from_pretrained(tmp_path / "b", device="cpu").model.config.input_format == "replace"
    assert second["heldout_loss"] < first["heldout_loss"]
    with pytest.raises(ValueError, match="either init_from"):
        tiny(corpus, tmp_path / "c", init_from=str(tmp_path / "a"), backbone=str(tmp_path / "a"))
