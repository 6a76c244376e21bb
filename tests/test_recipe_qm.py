"""recipes/qm/run_qm.py: a tiny cross-encoder built in the test learns a toy matching task (two questions
match when they share their keyword), writes loadable predictions and per-category scores, resumes to the
same weights, runs on 2 CPU processes under accelerate, and refuses bad input with a clear error."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("accelerate")
torch = pytest.importorskip("torch")

from safetensors.torch import load_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "recipes" / "qm" / "run_qm.py"
sys.path.insert(0, str(ROOT))

from recipes.qm.run_qm import global_batch, local_part, main  # noqa: E402

KEYWORDS = ["apple", "river", "music", "python"]
FILLER = ["what", "is", "the", "best", "way", "to", "learn", "how", "do", "i", "find", "good"]
TWO_PROCESS_TOLERANCE = (
    1e-4  # max |weight difference|, 1 process x batch 8 vs 2 processes x batch 4, no dropout
)


def _question(rng, keyword):
    words = [rng.choice(FILLER)]
    words.insert(rng.randrange(2), keyword)
    return " ".join(words) + " ?"


def write_pairs(path, n, seed):
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        k1 = rng.choice(KEYWORDS)
        same = rng.random() < 0.5
        k2 = k1 if same else rng.choice([k for k in KEYWORDS if k != k1])
        lines.append(f"{_question(rng, k1)}\t{_question(rng, k2)}\t{int(same)}\n")
    Path(path).write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """One torch thread: tiny models gain nothing from more, and lose much on a busy machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """A toy pair set and a tiny BERT classifier folder (word vocabulary, 2 layers, no dropout)."""
    from transformers import BertConfig, BertForSequenceClassification

    from recipes.common import _bert_tokenizer

    d = tmp_path_factory.mktemp("qm")
    write_pairs(d / "train.tsv", 320, 0)
    write_pairs(d / "test.tsv", 40, 1)
    rng = random.Random(2)
    with open(d / "cat.jsonl", "w", encoding="utf-8") as f:
        for i in range(12):
            k = rng.choice(KEYWORDS)
            obj = {"question1": _question(rng, k), "question2": _question(rng, k if i % 2 else "music"),
                   "label": int(i % 2 or k == "music"), "category": ["lexical", "syntax", "negation"][i % 3],
                   "operation": ["swap", "insert"][i % 2]}  # fmt: skip
            f.write(json.dumps(obj) + "\n")
    model_dir = d / "tiny-bert"
    model_dir.mkdir()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "?"] + FILLER + KEYWORDS
    tokenizer = _bert_tokenizer(vocab, model_dir, True)
    torch.manual_seed(0)
    config = BertConfig(vocab_size=len(vocab), hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=128, max_position_embeddings=64, hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0, num_labels=2)  # fmt: skip
    BertForSequenceClassification(config).bert.save_pretrained(model_dir)  # an encoder: no classifier yet
    tokenizer.save_pretrained(model_dir)
    return d


def args(toy, out, *extra):
    return ["--model_name_or_path", str(toy / "tiny-bert"), "--train_file", str(toy / "train.tsv"),
            "--test_files", str(toy / "test.tsv"), f"cats={toy / 'cat.jsonl'}", "--output_dir", str(out),
            "--per_device_train_batch_size", "16", "--learning_rate", "2e-3", "--num_train_epochs", "15",
            "--logging_steps", "20", "--save_steps", "100", "--max_seq_length", "24", "--seed", "1", *extra]  # fmt: skip


@pytest.fixture(scope="module")
def trained(toy, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "out"
    assert main(args(toy, out)) == 0
    return out


def weights(folder):
    return load_file(str(Path(folder) / "model.safetensors"))


def test_batches_cover_the_data_and_split_evenly():
    seen = [i for step in range(5) for i in global_batch(37, 8, 3, step)]
    assert sorted(seen) == list(range(37))  # 5 steps = one epoch of 37 pairs in batches of 8
    assert global_batch(37, 8, 3, 5) == global_batch(37, 8, 3, 5) != global_batch(37, 8, 3, 0)
    parts = [local_part(list(range(5)), r, 2) for r in range(2)]
    assert parts == [[0, 1, 2], [3, 4]] and local_part([7], 1, 2) == []


@pytest.mark.slow
def test_training_loss_falls_and_accuracy_beats_chance(trained):
    history = [json.loads(line) for line in (trained / "train_log.jsonl").read_text().splitlines()]
    assert history[-1]["loss"] < 0.6 * history[0]["loss"], history
    results = json.loads((trained / "all_results.json").read_text())
    assert results["steps"] == 15 * 20 and results["processes"] == 1
    assert results["test"]["test"]["accuracy"] > 75, results["test"]
    assert set(results["test"]["test"]) >= {"accuracy", "precision", "recall", "f1", "total"}
    cats = results["test"]["cats"]["category"]
    assert set(cats["per_category"]) == {"lexical", "syntax", "negation"}
    assert cats["micro"] == pytest.approx(results["test"]["cats"]["accuracy"])
    assert cats["macro"] == pytest.approx(sum(c["accuracy"] for c in cats["per_category"].values()) / 3)
    ops = results["test"]["cats"]["operation"]  # each of DuQM's levels a file carries is scored
    assert {k: v["total"] for k, v in ops["per_category"].items()} == {"swap": 6, "insert": 6}
    assert "subcategory" not in results["test"]["cats"]
    assert (trained / "model.safetensors").exists() and not (trained / "pytorch_model.bin").exists()
    assert "Results" in (trained / "README.md").read_text()


@pytest.mark.slow
def test_predictions_load_and_a_trained_model_predicts_the_same_again(trained, toy, tmp_path):
    predicted = [int(x) for x in (trained / "predictions_test.tsv").read_text().split("\n") if x]
    gold = [int(line.split("\t")[2]) for line in (toy / "test.tsv").read_text().splitlines()]
    assert len(predicted) == len(gold) and set(predicted) <= {0, 1}
    accuracy = 100 * sum(p == g for p, g in zip(predicted, gold, strict=True)) / len(gold)
    assert accuracy == pytest.approx(
        json.loads((trained / "all_results.json").read_text())["test"]["test"]["accuracy"]
    )
    # Evaluation only, from the saved model; an unlabelled file is predicted without scoring.
    unlabelled = tmp_path / "unlabelled.tsv"
    unlabelled.write_text(
        "".join(
            "\t".join(line.split("\t")[:2]) + "\n" for line in (toy / "test.tsv").read_text().splitlines()
        )
    )
    out = tmp_path / "eval"
    code = main(["--model_name_or_path", str(trained), "--test_files", str(toy / "test.tsv"), "--predict_files",
                 f"blind={unlabelled}", "--output_dir", str(out), "--predictions_format", "jsonl"])  # fmt: skip
    assert code == 0
    rows = [json.loads(line) for line in (out / "predictions_test.jsonl").read_text().splitlines()]
    assert [r["prediction"] for r in rows] == predicted and rows[0]["origin"].endswith("test.tsv:1")
    blind = [
        json.loads(line)["prediction"] for line in (out / "predictions_blind.jsonl").read_text().splitlines()
    ]
    assert blind == predicted
    results = json.loads((out / "all_results.json").read_text())
    assert results["predict"]["blind"]["total"] == 40 and "blind" not in results["test"]


@pytest.mark.slow
def test_resume_reaches_the_same_weights(trained, toy, tmp_path):
    # A run killed after its step-100 checkpoint: only that checkpoint and the run's options are left.
    out = tmp_path / "killed"
    (out / "checkpoints").mkdir(parents=True)
    shutil.copytree(trained / "checkpoints" / "step-100", out / "checkpoints" / "step-100")
    shutil.copy(trained / "run_args.json", out / "run_args.json")
    before = json.loads((out / "checkpoints" / "step-100" / "state.json").read_text())["seconds"]
    assert main(args(toy, out, "--resume")) == 0
    a, b = weights(trained), weights(out)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert (out / "predictions_test.tsv").read_text() == (trained / "predictions_test.tsv").read_text()
    # the reported training time covers the killed segment too, not only the resumed one
    assert before > 0 and json.loads((out / "all_results.json").read_text())["train_runtime_s"] > before


def test_resume_refuses_a_planted_pickle_and_flipped_labels(toy, tmp_path, capsys):
    """Issue 32, items 3 and 4: a checkpoint holding a pickle is refused by name and never opened; a
    training file whose labels were flipped between the kill and --resume is refused by name."""
    from helpers import malicious_pickle

    train = tmp_path / "train.tsv"
    shutil.copy(toy / "train.tsv", train)
    run = ["--model_name_or_path", str(toy / "tiny-bert"), "--train_file", str(train), "--output_dir",
           str(tmp_path / "full"), "--per_device_train_batch_size", "16", "--max_steps", "3", "--save_steps", "2",
           "--max_seq_length", "24"]  # fmt: skip
    assert main(run) == 0
    capsys.readouterr()
    # A run killed after its step-2 checkpoint: only that checkpoint and the run's options are left.
    out = tmp_path / "killed"
    ckpt = out / "checkpoints" / "step-2"
    shutil.copytree(tmp_path / "full" / "checkpoints" / "step-2", ckpt)
    shutil.copy(tmp_path / "full" / "run_args.json", out / "run_args.json")
    resume = [*run[:5], str(out), *run[6:], "--resume"]

    pwned = tmp_path / "pwned"
    (ckpt / "custom_checkpoint_0.pkl").write_bytes(malicious_pickle(pwned))
    err = _error(capsys, resume)
    assert str(ckpt) in err and "custom_checkpoint_0.pkl" in err and "pickle" in err
    assert not pwned.exists() and not (out / "model.safetensors").exists()
    (ckpt / "custom_checkpoint_0.pkl").unlink()

    original = train.read_text()
    flipped = [line.rsplit("\t", 1) for line in original.splitlines()]
    train.write_text("".join(f"{rest}\t{1 - int(y)}\n" for rest, y in flipped))
    err = _error(capsys, resume)
    assert str(train.resolve()) in err and "changed" in err
    assert not (out / "model.safetensors").exists()
    train.write_text(original)
    assert main(resume) == 0
    a, b = weights(tmp_path / "full"), weights(out)
    assert all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.slow
def test_two_processes_with_accelerate_equal_one_process(toy, tmp_path):
    common = ["--model_name_or_path", str(toy / "tiny-bert"), "--train_file", str(toy / "train.tsv"),
              "--test_files", str(toy / "test.tsv"), "--learning_rate", "2e-3", "--max_steps", "12",
              "--max_seq_length", "24", "--logging_steps", "4"]  # fmt: skip
    env = dict(os.environ, OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1")
    launch = [sys.executable, "-m", "accelerate.commands.launch", "--num_processes", "2", "--num_machines", "1",
              "--multi_gpu", "--mixed_precision", "no", "--dynamo_backend", "no", str(SCRIPT)]  # fmt: skip
    two = subprocess.run(launch + common + ["--output_dir", str(tmp_path / "two"), "--per_device_train_batch_size", "4"],
                         capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    assert two.returncode == 0, two.stderr[-3000:]
    assert main(common + ["--output_dir", str(tmp_path / "one"), "--per_device_train_batch_size", "8"]) == 0
    r1, r2 = (json.loads((tmp_path / d / "all_results.json").read_text()) for d in ("one", "two"))
    assert (
        r2["processes"] == 2
        and r1["processes"] == 1
        and r1["global_batch_size"] == r2["global_batch_size"] == 8
    )
    a, b = weights(tmp_path / "one"), weights(tmp_path / "two")
    assert max((a[k] - b[k]).abs().max().item() for k in a) < TWO_PROCESS_TOLERANCE
    assert r1["train_loss"] == pytest.approx(r2["train_loss"], abs=1e-4)


def _error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("run_qm.py: error:")
    return err


def test_a_second_run_into_a_folder_in_use_is_refused_naming_the_first(toy, tmp_path, capsys):
    # Another process holds the output folder's lock (as a running recipe or paraguide command does): a run
    # into it is refused, even with --overwrite_output_dir, and the folder keeps what it held.
    out = tmp_path / "o"
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from paraguide.data.lock import acquire; "
         f"acquire(Path({str(out)!r})); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"
        # (transformers' "Loading weights" bar may come first: the model is checked before the folder)
        assert main(["--model_name_or_path", str(toy / "tiny-bert"), "--train_file", str(toy / "train.tsv"),
                     "--output_dir", str(out), "--overwrite_output_dir"]) == 2  # fmt: skip
        err = capsys.readouterr().err
        assert "Traceback" not in err and "run_qm.py: error:" in err
        assert "is in use by another paraguide run" in err and str(holder.pid) in err
        assert sorted(p.name for p in out.iterdir()) == [".paraguide.lock", "mine.txt"]
    finally:
        holder.kill()
        holder.wait()


def test_a_test_file_without_labels_is_an_error_naming_it(toy, tmp_path, capsys):
    blind = tmp_path / "blind.tsv"
    blind.write_text("what is apple ?\twhat is river ?\n")
    err = _error(capsys, ["--model_name_or_path", str(toy / "tiny-bert"), "--train_file", str(toy / "train.tsv"),
                          "--test_files", str(blind), "--output_dir", str(tmp_path / "o")])  # fmt: skip
    assert f"{blind}:1" in err and "no label" in err and "--predict_files" in err
    err = _error(capsys, ["--model_name_or_path", str(toy / "tiny-bert"), "--train_file", str(blind),
                          "--output_dir", str(tmp_path / "o")])  # fmt: skip
    assert f"{blind}:1" in err and "no label" in err


def test_a_checkpoint_that_is_not_a_classifier_is_an_error(toy, tmp_path, capsys):
    # The encoder has no classifier: evaluating it alone would score an untrained head.
    err = _error(capsys, ["--model_name_or_path", str(toy / "tiny-bert"), "--test_files", str(toy / "test.tsv"),
                          "--output_dir", str(tmp_path / "o")])  # fmt: skip
    assert str(toy / "tiny-bert") in err and "not a sequence-classification model" in err
    # paraguide's own paraphraser folder is not a transformers model at all.
    para = tmp_path / "paraphraser"
    para.mkdir()
    (para / "config.json").write_text(json.dumps({"model_type": "paraguide-copy"}))
    (para / "model.safetensors").write_bytes(b"")
    err = _error(capsys, ["--model_name_or_path", str(para), "--train_file", str(toy / "train.tsv"),
                          "--output_dir", str(tmp_path / "o2")])  # fmt: skip
    assert str(para) in err and "paraguide-copy" in err


def test_a_pickle_only_checkpoint_is_refused_before_unpickling(toy, tmp_path, capsys):
    folder = tmp_path / "pickled"
    folder.mkdir()
    shutil.copy(toy / "tiny-bert" / "config.json", folder / "config.json")
    # Unpickling this would run os.system: the test fails loudly if anything loads it.
    (folder / "pytorch_model.bin").write_bytes(
        b"cos\nsystem\n(S'touch " + str(tmp_path / "pwned").encode() + b"'\ntR."
    )
    err = _error(capsys, ["--model_name_or_path", str(folder), "--train_file", str(toy / "train.tsv"),
                          "--output_dir", str(tmp_path / "o")])  # fmt: skip
    assert str(folder) in err and "pytorch_model.bin" in err and "safetensors" in err
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("edit", [{"num_hidden_layers": 1}, {"model_type": "electra"}])
def test_a_model_folder_whose_config_was_edited_is_refused(toy, tmp_path, capsys, edit):
    """Issue 32, item 8: an encoder whose config.json no longer matches its weights is refused (the
    classifier head is the only weight a training may add), naming the folder; nothing is written."""
    folder = tmp_path / "edited"
    shutil.copytree(toy / "tiny-bert", folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, **edit}))
    out = tmp_path / "o"
    assert main(["--model_name_or_path", str(folder), "--train_file", str(toy / "train.tsv"),
                 "--output_dir", str(out), "--max_steps", "1"]) == 2  # fmt: skip
    err = capsys.readouterr().err  # after transformers' loading progress bar
    assert "Traceback" not in err and "run_qm.py: error:" in err
    assert str(folder) in err and "weights do not match its config.json" in err
    assert not out.exists()


def test_two_test_files_with_one_name_and_a_missing_file_are_errors(toy, tmp_path, capsys):
    other = tmp_path / "test.tsv"
    shutil.copy(toy / "test.tsv", other)
    base = ["--model_name_or_path", str(toy / "tiny-bert"), "--train_file", str(toy / "train.tsv"),
            "--output_dir", str(tmp_path / "o"), "--test_files"]  # fmt: skip
    assert "NAME=PATH" in _error(capsys, base + [str(toy / "test.tsv"), str(other)])
    assert "no such test file" in _error(capsys, base + [str(tmp_path / "nope.tsv")])


@pytest.mark.parametrize(
    "bad, says",
    [
        ({"overwrite_output_dir": "false"}, 'overwrite_output_dir must be true or false, got "false"'),
        ({"seed": [1]}, "seed must be a whole number, got [1]"),
        ({"seed": 1.5}, "seed must be a whole number, got 1.5"),
        ({"max_steps": 0.5}, "max_steps must be a whole number or null, got 0.5"),
        ({"predictions_format": "csv"}, "predictions_format must be one of tsv, jsonl"),
        ({"no_such_option": 1}, "unknown option(s): no_such_option"),
        ({"save_steps": 0}, "save_steps must be at least 1"),
    ],
)
def test_json_options_are_typed_before_the_output_folder_is_touched(toy, tmp_path, capsys, bad, says):
    """Issue 32, item 6: {"overwrite_output_dir": "false"} used to wipe the run's checkpoints; now every
    value is checked against its option's type first, naming the file and the key."""
    out = tmp_path / "run"
    (out / "checkpoints" / "step-2").mkdir(parents=True)
    (out / "run_args.json").write_text("{}")
    options = {"model_name_or_path": str(toy / "tiny-bert"), "train_file": str(toy / "train.tsv"),
               "output_dir": str(out), "max_steps": 2}  # fmt: skip
    path = tmp_path / "args.json"
    path.write_text(json.dumps({**options, **bad}))
    err = _error(capsys, [str(path)])
    assert f"{path}: {says}" in err, err
    assert sorted(p.name for p in out.iterdir()) == ["checkpoints", "run_args.json"]
    assert (out / "checkpoints" / "step-2").is_dir()


def test_the_character_vocabulary_has_special_tokens_first_and_splits_every_word(tmp_path):
    from recipes.common import SPECIAL_TOKENS, build_char_tokenizer

    tokenizer = build_char_tokenizer(["我想买手机", "手机 iPhone6 好吗"], tmp_path / "tok")
    vocab = (tmp_path / "tok" / "vocab.txt").read_text(encoding="utf-8").split("\n")
    assert vocab[: len(SPECIAL_TOKENS)] == list(SPECIAL_TOKENS) and vocab[5] == "手"  # the most frequent
    assert "##机" not in vocab and "##p" in vocab  # CJK characters stand alone; Latin ones continue words
    ids = tokenizer("我想买iphone7", "卖手机")["input_ids"]
    tokens = tokenizer.convert_ids_to_tokens(ids)
    assert tokens == ["[CLS]", "我", "想", "买", "i", "##p", "##h", "##o", "##n", "##e", "##7", "[SEP]",
                      "[UNK]", "手", "机", "[SEP]"]  # fmt: skip


def test_checkpoint_checks_name_the_folder(toy, tmp_path):
    """recipes/common.py's checks, shared by both recipes: a missing folder, no config.json, a
    sentence-transformers folder (its Transformer module is loaded), too few positions."""
    from transformers import AutoModelForQuestionAnswering, AutoModelForSequenceClassification

    from recipes.common import CheckpointError, check_checkpoint, checkpoint_folder

    with pytest.raises(CheckpointError, match="missing: no such model folder"):
        check_checkpoint(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointError, match="empty: no config.json"):
        check_checkpoint(tmp_path / "empty")
    st = tmp_path / "st"
    shutil.copytree(toy / "tiny-bert", st / "0_Transformer")
    modules = [
        {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"}
    ]
    (st / "modules.json").write_text(json.dumps(modules))
    assert checkpoint_folder(st) == st / "0_Transformer"
    assert check_checkpoint(st, AutoModelForSequenceClassification).model_type == "bert"
    with pytest.raises(CheckpointError, match="at most 64 tokens") as e:
        check_checkpoint(toy / "tiny-bert", AutoModelForQuestionAnswering, max_length=128)
    assert str(e.value).startswith(str(toy / "tiny-bert"))


@pytest.mark.slow
def test_from_scratch_saves_its_vocabulary_and_evaluates_again(toy, tmp_path):
    out = tmp_path / "scratch"
    argv = ["--from_scratch", "tiny", "--train_file", str(toy / "train.tsv"), "--test_files",
            str(toy / "test.tsv"), "--output_dir", str(out), "--max_steps", "6", "--max_seq_length", "48"]  # fmt: skip
    assert main(argv) == 0
    assert (out / "vocab.txt").read_text(encoding="utf-8").startswith("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n")
    assert json.loads((out / "config.json").read_text())["num_hidden_layers"] == 2
    again = tmp_path / "again"
    assert (
        main(
            [
                "--model_name_or_path",
                str(out),
                "--test_files",
                str(toy / "test.tsv"),
                "--output_dir",
                str(again),
            ]
        )
        == 0
    )
    assert (again / "predictions_test.tsv").read_text() == (out / "predictions_test.tsv").read_text()
