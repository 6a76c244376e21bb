"""recipes/qa/run_qa.py: a tiny QA model trained on a tiny hand-made SQuAD set (loss falls, predictions
written), exact resume, 2 processes under accelerate equal to one, and the bad inputs it names."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from helpers import ROOT, malicious_pickle

RECIPE = ROOT / "recipes" / "qa"


def _load(name):
    """A recipe script as a module (registered, as dataclasses and HfArgumentParser need)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, RECIPE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


run_qa = _load("run_qa")
utils_qa = _load("utils_qa")  # the one run_qa imported

# Facts with obvious answers: (context sentence, question, answer).
EN_FACTS = [
    ("The capital of France is Paris.", "What is the capital of France?", "Paris"),
    ("The river that flows through Cairo is the Nile.", "Which river flows through Cairo?", "the Nile"),
    ("The tallest animal is the giraffe.", "What is the tallest animal?", "the giraffe"),
    ("Water boils at 100 degrees.", "At what temperature does water boil?", "100 degrees"),
    ("The largest planet is Jupiter.", "What is the largest planet?", "Jupiter"),
    ("Bees make honey from nectar.", "What do bees make from nectar?", "honey"),
    ("The violin has four strings.", "How many strings does the violin have?", "four"),
    ("Mozart was born in Salzburg.", "Where was Mozart born?", "Salzburg"),
    ("The fastest land animal is the cheetah.", "What is the fastest land animal?", "the cheetah"),
    ("Rome was founded in 753 BC.", "When was Rome founded?", "753 BC"),
    ("The chess board has 64 squares.", "How many squares does the chess board have?", "64"),
    ("Penguins live in Antarctica.", "Where do penguins live?", "Antarctica"),
]
ZH_FACTS = [
    ("北京是中国的首都。", "中国的首都是哪里？", "北京"),
    ("长江是中国最长的河流。", "中国最长的河流是什么？", "长江"),
    ("熊猫喜欢吃竹子。", "熊猫喜欢吃什么？", "竹子"),
    ("一年有十二个月。", "一年有几个月？", "十二个月"),
    ("李白是唐代的诗人。", "李白是哪个朝代的诗人？", "唐代"),
    ("珠穆朗玛峰是世界最高的山。", "世界最高的山是什么？", "珠穆朗玛峰"),
]


def squad(facts, per_context=3, drop_answers=False, prefix="q"):
    """A SQuAD v1.1 dict: contexts of ``per_context`` facts, one question per fact."""
    paragraphs = []
    for c in range(0, len(facts), per_context):
        group = facts[c : c + per_context]
        context = " ".join(s for s, _, _ in group)
        qas = []
        for k, (_, question, answer) in enumerate(group):
            start = context.index(answer)
            answers = [] if drop_answers else [{"text": answer, "answer_start": start}]
            qas.append({"id": f"{prefix}{c + k}", "question": question, "answers": answers})
        paragraphs.append({"context": context, "qas": qas})
    return {"version": "1.1", "data": [{"title": "facts", "paragraphs": paragraphs}]}


def write_json(path, obj):
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """Tiny models run fastest on one thread (and do not fight the other tests' processes for cores)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("data")
    return {
        "train": write_json(d / "train.json", squad(EN_FACTS)),
        "original": write_json(d / "original.json", squad(EN_FACTS[:6])),
        "paraphrased": write_json(
            d / "paraphrased.json",
            squad([(s, "Tell me: " + q, a) for s, q, a in EN_FACTS[:6]], prefix="p"),
        ),
        "unanswered": write_json(d / "unanswered.json", squad(EN_FACTS[:3], drop_answers=True)),
        "zh": write_json(d / "zh.json", squad(ZH_FACTS, per_context=2)),
    }


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory, data):
    """A 2-layer BERT (hidden 32, no dropout) with a vocabulary of the tiny set's characters and whole
    words, built here (by the recipes' shared builder, as --from_scratch does)."""
    from transformers import BertConfig, BertForQuestionAnswering

    from recipes.common import build_char_tokenizer

    folder = tmp_path_factory.mktemp("tiny-bert")
    texts = [t for s, q, a in EN_FACTS for t in (s, q, "Tell me:")]
    tokenizer = build_char_tokenizer(texts, folder, max_vocab=1000, min_word_count=1)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    import torch

    torch.manual_seed(0)
    BertForQuestionAnswering(config).save_pretrained(folder)
    return folder


def options(out, **extra) -> dict:
    """The options of a tiny run (short windows so that contexts need several), as a dict."""
    args = {
        "output_dir": str(out),
        "max_seq_length": 48,
        "doc_stride": 16,
        "max_query_length": 16,
        "per_device_train_batch_size": 8,
        "learning_rate": 3e-3,
        "warmup_ratio": 0.0,
        "logging_steps": 1,
    }
    args.update(extra)
    return args


def common(out, **extra) -> list[str]:
    """The same as command-line arguments."""
    argv = []
    for k, v in options(out, **extra).items():
        if isinstance(v, bool):
            argv += [f"--{k}"] if v else []
        elif isinstance(v, list):
            argv += [f"--{k}", *map(str, v)]
        else:
            argv += [f"--{k}", str(v)]
    return argv


def weights(folder):
    from safetensors.torch import load_file

    return load_file(str(folder / "model.safetensors"))


# ---------------------------------------------------------------------------------------------------------
# features and post-processing (no model)
# ---------------------------------------------------------------------------------------------------------


def test_train_features_label_the_answer_in_every_window(tiny_model):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    long_context = " ".join(s for s, _, _ in EN_FACTS)
    examples = [
        {
            "id": str(i),
            "question": q,
            "context": long_context,
            "answers": [{"text": a, "answer_start": long_context.index(a)}],
        }
        for i, (_, q, a) in enumerate(EN_FACTS)
    ]
    features, skipped = utils_qa.prepare_train_features(tokenizer, examples, 48, 16, 16)
    assert skipped == 0 and len(features) > len(examples)  # long contexts: several windows each
    found = 0
    for f in features:
        s, e = f["start_positions"], f["end_positions"]
        if s == 0:
            assert e == 0  # the [CLS] label: this window does not hold the answer
            continue
        text = tokenizer.decode(f["input_ids"][s : e + 1])
        assert text in {a.lower() for _, _, a in EN_FACTS}
        found += 1
    assert found >= len(examples)  # every answer lies in at least one window


def test_postprocess_best_span_max_length_and_null_answer():
    context = "alpha beta gamma delta"
    example = {"id": "x", "context": context}
    offsets = [None, None, (0, 5), (6, 10), (11, 16), (17, 22), None]  # [CLS] q [SEP]-like, 4 words, [SEP]
    feature = {"example_index": 0, "offset_mapping": offsets}
    start = np.array([0.0, 9, 1, 5, 0, 0, 9])  # the best start logits outside the context are skipped
    end = np.array([0.0, 0, 0, 0, 4, 1, 9])
    preds, nbest = utils_qa.postprocess_qa_predictions([example], [feature], [start], [end], n_best_size=5)
    assert preds == {"x": "beta gamma"}
    assert abs(sum(c["probability"] for c in nbest["x"]) - 1) < 1e-6
    preds, _ = utils_qa.postprocess_qa_predictions([example], [feature], [start], [end], max_answer_length=1)
    assert preds == {"x": "beta"}
    null = np.array([20.0, 0, 1, 5, 0, 0, 0])
    preds, _ = utils_qa.postprocess_qa_predictions(
        [example], [feature], [null], [end], version_2_with_negative=True
    )
    assert preds == {"x": ""}  # null score 20 beats the best span (5 + 4)


def test_squad2_unanswerable_questions_are_read_and_trained_on_cls(tiny_model, tmp_path):
    from transformers import AutoTokenizer

    nested = squad(EN_FACTS[:3])
    nested["version"] = "v2.0"
    nested["data"][0]["paragraphs"][0]["qas"].append(
        {"id": "none", "question": "Who painted the Mona Lisa?", "answers": [], "is_impossible": True}
    )
    examples, v2 = utils_qa.read_examples(write_json(tmp_path / "v2.json", nested), need_answers=True)
    assert v2 and examples[-1]["answers"] == []
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    features, _ = utils_qa.prepare_train_features(tokenizer, examples[-1:], 48, 16, 16)
    assert {(f["start_positions"], f["end_positions"]) for f in features} == {(0, 0)}


def test_scratch_vocabulary_is_character_level_for_chinese(tmp_path):
    from recipes.common import SPECIAL_TOKENS, build_char_tokenizer

    texts = ["北京是中国的首都。Beijing 2008"]
    tokenizer = build_char_tokenizer(texts, tmp_path / "words", max_vocab=100, min_word_count=1)
    vocab = (tmp_path / "words" / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1]
    assert vocab[:5] == list(SPECIAL_TOKENS) == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert len(vocab) <= 100 and vocab.index("beijing") > vocab.index("##j")  # words after characters
    assert tokenizer.tokenize("中国的首都") == ["中", "国", "的", "首", "都"]
    assert tokenizer.tokenize("Beijing 2008 北京") == ["beijing", "2008", "北", "京"]
    # without min_word_count (the QM recipe's vocabulary): characters only, words spelt out
    tokenizer = build_char_tokenizer(texts, tmp_path / "chars", max_vocab=100)
    spelt = ["b", *("##" + c for c in "eijing"), "2", "##0", "##0", "##8"]
    assert tokenizer.tokenize("Beijing 2008") == spelt


# ---------------------------------------------------------------------------------------------------------
# training runs
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_loss_falls_and_predictions_are_written(tiny_model, data, tmp_path):
    out = tmp_path / "run"
    args = options(
        out,
        model_name_or_path=str(tiny_model),
        train_file=str(data["train"]),
        test_files=[str(data["original"]), str(data["paraphrased"])],
        predict_files=[str(data["unanswered"])],
        max_steps=40,
    )
    args_file = write_json(
        tmp_path / "args.json", args
    )  # options from a JSON file, as HfArgumentParser reads them
    assert run_qa.main([str(args_file)]) == 0

    log = [json.loads(line) for line in (out / "train_log.jsonl").read_text().splitlines()]
    assert [e["step"] for e in log] == list(range(1, 41))
    first, last = np.mean([e["loss"] for e in log[:5]]), np.mean([e["loss"] for e in log[-5:]])
    assert last < 0.6 * first, (first, last)

    results = json.loads((out / "all_results.json").read_text())
    assert set(results["test"]) == {"original", "paraphrased"} and set(results["predict"]) == {"unanswered"}
    assert results["train"]["steps"] == 40 and results["seed"] == 42 and results["train"]["train_seconds"] > 0
    for name, n in (("original", 6), ("paraphrased", 6), ("unanswered", 3)):
        predictions = json.loads((out / f"predictions_{name}.json").read_text())
        assert len(predictions) == n and all(isinstance(v, str) for v in predictions.values())
    assert results["test"]["original"]["total"] == 6 and 0 <= results["test"]["original"]["f1"] <= 100
    assert (out / "model.safetensors").exists() and not list(out.glob("*.bin"))
    assert "| original | 6 |" in (out / "README.md").read_text()
    assert not list(out.glob("checkpoint-*"))  # removed after a finished run

    # the trained folder is a QA model: evaluation only, in a new folder
    again = tmp_path / "eval"
    argv = common(again, model_name_or_path=str(out), test_files=[str(data["original"])])
    assert run_qa.main(argv) == 0
    assert json.loads((again / "predictions_original.json").read_text()) == json.loads(
        (out / "predictions_original.json").read_text()
    )


@pytest.mark.slow
def test_resume_gives_the_weights_of_an_uninterrupted_run(data, tmp_path):
    """Chinese, from scratch (dropout on: the RNG states are restored too), killed after step 3, resumed
    from checkpoint-2."""
    base = dict(
        from_scratch="tiny",
        lang="zh",
        train_file=str(data["zh"]),
        test_files=[str(data["zh"])],
        max_steps=6,
        save_steps=2,
        per_device_train_batch_size=4,
        keep_checkpoints=True,
    )
    assert run_qa.main(common(tmp_path / "full", **base)) == 0

    class Killed(Exception):
        pass

    def kill(step):
        if step == 3:
            raise Killed

    with pytest.raises(Killed):
        run_qa.main(common(tmp_path / "cut", **base), on_step=kill)
    assert sorted(p.name for p in (tmp_path / "cut").glob("checkpoint-*")) == ["checkpoint-2"]
    assert run_qa.main(common(tmp_path / "cut", **base, resume=True)) == 0

    full, resumed = weights(tmp_path / "full"), weights(tmp_path / "cut")
    assert full.keys() == resumed.keys() and all((full[k] == resumed[k]).all() for k in full)
    results = json.loads((tmp_path / "cut" / "all_results.json").read_text())
    assert results["train"]["steps"] == 6 and results["lang"] == "zh"
    log = [
        json.loads(line)["step"] for line in (tmp_path / "cut" / "train_log.jsonl").read_text().splitlines()
    ]
    assert log == [1, 2, 3, 4, 5, 6]  # the steps after the checkpoint are logged once
    assert (tmp_path / "cut" / "tokenizer.json").exists()
    # a finished run is not resumed again
    assert run_qa.main(common(tmp_path / "cut", **base, resume=True)) == 1


def test_resume_refuses_a_planted_pickle_and_edited_training_data(capsys, tiny_model, data, tmp_path):
    """Issue 32, items 3 and 4: a checkpoint holding a pickle is refused by name and never opened; a
    training file edited between the kill and --resume is refused by name; the untouched run resumes."""
    train = write_json(tmp_path / "train.json", squad(EN_FACTS))
    out = tmp_path / "run"
    base = dict(model_name_or_path=str(tiny_model), train_file=str(train), max_steps=3, save_steps=1)

    class Killed(Exception):
        pass

    def kill(step):
        if step == 2:
            raise Killed

    with pytest.raises(Killed):
        run_qa.main(common(out, **base), on_step=kill)
    ckpt = out / "checkpoint-2"
    assert not pickled_names(ckpt) and (ckpt / "optimizer.safetensors").exists()

    pwned = tmp_path / "pwned"
    (ckpt / "custom_checkpoint_0.pkl").write_bytes(malicious_pickle(pwned))
    fails(capsys, common(out, **base, resume=True), str(ckpt), "custom_checkpoint_0.pkl", "pickle")
    assert not pwned.exists()
    (ckpt / "custom_checkpoint_0.pkl").unlink()
    (ckpt / "scheduler.bin").write_bytes(malicious_pickle(pwned))
    fails(capsys, common(out, **base, resume=True), "scheduler.bin")
    assert not pwned.exists()
    (ckpt / "scheduler.bin").unlink()

    original = train.read_bytes()
    edited = squad([(s, q.replace("What", "Which"), a) for s, q, a in EN_FACTS])
    write_json(train, edited)
    fails(capsys, common(out, **base, resume=True), str(train.resolve()), "changed")
    train.write_bytes(original)
    assert run_qa.main(common(out, **base, resume=True)) == 0
    assert json.loads((out / "all_results.json").read_text())["train"]["steps"] == 3
    assert not pwned.exists()


def pickled_names(folder):
    from recipes.train_state import pickled_files

    return pickled_files(folder)


def span_log_probs(folder, texts):
    """log P(start), log P(end) over the positions of each (question, context) pair."""
    import torch
    from transformers import AutoModelForQuestionAnswering, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForQuestionAnswering.from_pretrained(folder).eval()
    batch = tokenizer([q for q, _ in texts], [c for _, c in texts], padding=True, return_tensors="pt")
    with torch.no_grad():
        out = model(**batch)
    return torch.cat([out.start_logits.log_softmax(-1), out.end_logits.log_softmax(-1)])


@pytest.mark.slow
def test_max_train_minutes_stops_saves_scores_and_resume_continues(tiny_model, data, tmp_path):
    base = dict(
        model_name_or_path=str(tiny_model),
        train_file=str(data["train"]),
        test_files=[str(data["original"])],
        max_steps=3,
    )
    out = tmp_path / "budget"
    assert run_qa.main(common(out, **base, max_train_minutes=0)) == 0  # stops after the first step
    results = json.loads((out / "all_results.json").read_text())
    assert results["train"]["steps"] == 1 and results["train"]["stopped_by_max_train_minutes"]
    assert "original" in results["test"] and (out / "checkpoint-1").is_dir()
    assert run_qa.main(common(out, **base, resume=True)) == 0
    results = json.loads((out / "all_results.json").read_text())
    assert results["train"]["steps"] == 3 and not results["train"]["stopped_by_max_train_minutes"]


@pytest.mark.slow
def test_two_processes_with_accelerate_equal_one(tiny_model, data, tmp_path):
    """The same global batch (2 x 4 and 1 x 8), no dropout: the same loss at every step (5 decimals), the
    same predictions, and span probabilities within 1e-4. (Raw weights can differ by up to the learning
    rate where the exact gradient is zero, e.g. the QA head's bias, which the span softmax ignores: Adam
    scales float noise there up to a full step.)"""
    base = dict(
        model_name_or_path=str(tiny_model),
        train_file=str(data["train"]),
        test_files=[str(data["original"])],
        max_steps=4,
    )
    assert run_qa.main(common(tmp_path / "one", **base, per_device_train_batch_size=8)) == 0
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
        str(RECIPE / "run_qa.py"),
        *common(tmp_path / "two", **base, per_device_train_batch_size=4),
    ]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    one, two = tmp_path / "one", tmp_path / "two"
    results = json.loads((two / "all_results.json").read_text())
    assert results["processes"] == 2 and results["train"]["global_batch_size"] == 8

    def losses(folder):
        return [json.loads(line)["loss"] for line in (folder / "train_log.jsonl").read_text().splitlines()]

    assert len(losses(two)) == 4 and np.allclose(losses(one), losses(two), atol=2e-5)
    predictions = json.loads((two / "predictions_original.json").read_text())
    assert predictions == json.loads((one / "predictions_original.json").read_text())
    texts = [(q, s) for s, q, _ in EN_FACTS]
    assert float((span_log_probs(one, texts) - span_log_probs(two, texts)).abs().max()) < 1e-4


# ---------------------------------------------------------------------------------------------------------
# bad inputs: a clear one-line error naming the file or folder, exit status 1
# ---------------------------------------------------------------------------------------------------------


def fails(capsys, argv, *expected):
    assert run_qa.main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for text in expected:
        assert text in err, err
    return err


def test_a_test_file_without_answers_is_named(capsys, tiny_model, data, tmp_path):
    argv = [
        "--model_name_or_path",
        str(tiny_model),
        "--test_files",
        str(data["unanswered"]),
        "--output_dir",
        str(tmp_path / "o"),
    ]
    fails(capsys, argv, str(data["unanswered"]), "reference answers", "--predict_files")
    assert not (tmp_path / "o").exists()  # checked before anything is written
    partly = squad(EN_FACTS[:3])
    partly["data"][0]["paragraphs"][0]["qas"][1]["answers"] = []
    path = write_json(tmp_path / "partly.json", partly)
    argv[3] = str(path)
    fails(capsys, argv, str(path), "id q1", "is_impossible")


def test_pickle_only_checkpoint_is_refused_unopened(capsys, data, tmp_path):
    folder = tmp_path / "pickled"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "bert"}))
    (folder / "pytorch_model.bin").write_bytes(b"not even a pickle")  # never opened
    argv = [
        "--model_name_or_path",
        str(folder),
        "--train_file",
        str(data["train"]),
        "--output_dir",
        str(tmp_path / "o"),
    ]
    fails(capsys, argv, str(folder), "pytorch_model.bin", "safetensors")


def test_a_checkpoint_that_is_not_a_qa_model(capsys, tiny_model, data, tmp_path):
    folder = tmp_path / "whisper"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "whisper"}))
    (folder / "model.safetensors").write_bytes(b"")
    argv = [
        "--model_name_or_path",
        str(folder),
        "--train_file",
        str(data["train"]),
        "--output_dir",
        str(tmp_path / "o"),
    ]
    fails(capsys, argv, str(folder), "'whisper'", "no extractive question-answering head")
    (folder / "config.json").write_text(json.dumps({"model_type": "no-such-model"}))
    fails(capsys, argv, str(folder), "'no-such-model' is not a transformers model")
    argv[1] = str(tmp_path / "missing")
    fails(capsys, argv, "missing: no such model folder")
    # a plain encoder (no trained QA head) cannot be evaluated without training
    from transformers import BertConfig, BertModel

    encoder = tmp_path / "encoder"
    BertModel(
        BertConfig(
            vocab_size=40, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=16
        )
    ).save_pretrained(encoder)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        (encoder / name).write_bytes((tiny_model / name).read_bytes())
    argv = [
        "--model_name_or_path",
        str(encoder),
        "--test_files",
        str(data["original"]),
        "--output_dir",
        str(tmp_path / "o"),
    ]
    fails(capsys, argv, str(encoder), "no trained question-answering head")


@pytest.mark.parametrize(
    "edit", [{"num_hidden_layers": 1}, {"num_hidden_layers": 3}, {"model_type": "roberta"}]
)
def test_a_model_folder_whose_config_was_edited_is_refused(capsys, tiny_model, data, tmp_path, edit):
    """Issue 32, item 8: weights that do not match config.json (a layer dropped or left at random, another
    model type) are refused, naming the folder, for evaluation and for training; nothing is written."""
    import shutil

    folder = tmp_path / "edited"
    shutil.copytree(tiny_model, folder)
    config = json.loads((folder / "config.json").read_text())
    write_json(folder / "config.json", {**config, **edit})
    out = tmp_path / "o"
    evaluate = common(out, model_name_or_path=str(folder), test_files=[str(data["original"])])
    fails(capsys, evaluate, str(folder), "weights do not match its config.json")
    train = common(out, model_name_or_path=str(folder), train_file=str(data["train"]), max_steps=1)
    fails(capsys, train, str(folder), "weights do not match its config.json")
    assert not out.exists()


def test_bad_options_and_a_used_output_folder(capsys, tiny_model, data, tmp_path):
    fails(
        capsys,
        ["--lang", "zh", "--test_files", str(data["zh"]), "--output_dir", str(tmp_path / "o")],
        "--from_scratch small",
    )
    out = tmp_path / "used"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    argv = [
        "--model_name_or_path",
        str(tiny_model),
        "--train_file",
        str(data["train"]),
        "--output_dir",
        str(out),
    ]
    fails(capsys, argv, str(out), "not empty", "--overwrite_output_dir")
    argv = ["--model_name_or_path", str(tiny_model), "--test_files", str(data["original"])]
    fails(
        capsys, [*argv, "--output_dir", str(tmp_path / "o"), "--max_seq_length", "256"], "at most 128 tokens"
    )
    bad_json = write_json(tmp_path / "args.json", {"output_dir": "x", "no_such_option": 1})
    fails(capsys, [str(bad_json)], str(bad_json), "no_such_option")


@pytest.mark.parametrize(
    "bad, says",
    [
        ({"overwrite_output_dir": "false"}, 'overwrite_output_dir must be true or false, got "false"'),
        ({"seed": [1]}, "seed must be a whole number, got [1]"),
        ({"seed": 1.5}, "seed must be a whole number, got 1.5"),
        ({"max_steps": 0.5}, "max_steps must be a whole number, got 0.5"),
        ({"test_files": "original.json"}, "test_files must be a list of strings"),
        ({"learning_rate": "fast"}, "learning_rate must be a number"),
        ({"lang": 1}, "lang must be a string, got 1"),
        ({"seed": -1}, "seed must be at least 0, got -1"),
        ({"per_device_train_batch_size": 0}, "per_device_train_batch_size must be at least 1"),
    ],
)
def test_json_options_are_typed_before_the_output_folder_is_touched(
    capsys, tiny_model, data, tmp_path, bad, says
):
    """Issue 32, item 6: a JSON options file's values are checked against the options' types (and ranges);
    the error names the file and the key, and a run already in the output folder is left as it was."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "model.safetensors").write_bytes(b"a finished run")
    args = options(out, model_name_or_path=str(tiny_model), train_file=str(data["train"]), max_steps=2)
    path = write_json(tmp_path / "args.json", {**args, **bad})
    fails(capsys, [str(path)], f"{path}: {says}")
    assert [p.name for p in out.iterdir()] == ["model.safetensors"]
    assert (out / "model.safetensors").read_bytes() == b"a finished run"


@pytest.mark.slow
def test_command_line_exit_status_without_traceback(data, tmp_path):
    cmd = [
        sys.executable,
        str(RECIPE / "run_qa.py"),
        "--test_files",
        str(data["unanswered"]),
        "--output_dir",
        str(tmp_path / "o"),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and str(data["unanswered"]) in result.stderr
