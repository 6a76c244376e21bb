"""Train the paraphraser on ``paraguide prepare`` output with accelerate (CPU, one GPU, or several
processes under ``accelerate launch``): ``train(TrainConfig(train_file=..., output_dir=...))``, which is
what ``paraguide train`` runs. A run is reproducible and resumable: the batch order is a pure function of
(seed, epoch) (:func:`epoch_batches`), and a killed run continues from its newest checkpoint, on the same
data, to the same weights.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
from tqdm.auto import tqdm

from paraguide.data.fingerprint import fingerprints
from paraguide.data.io import (
    NUL_PROBLEM,
    atomic_folder,
    no_records,
    output_paths,
    read_jsonl,
    write_json,
    write_jsonl,
)
from paraguide.data.outdir import OutputDir
from paraguide.errors import DataError
from paraguide.model.backbone import add_lora, load_checkpoint_model, load_checkpoint_tokenizer, merge_lora
from paraguide.model.copy import CopyConfig, CopyGenerator, build_model
from paraguide.model.tokenizer import EMPTY, INPUT_FORMATS, SEP, load_tokenizer, model_input, train_tokenizer
from paraguide.options import option

STATE = "paraguide_state.json"  # in a checkpoint: its step and early stopping's best


@dataclass
class TrainConfig:
    """A training run's settings (``paraguide train``'s options); saved with the model as
    ``training_args.json``."""

    train_file: str
    output_dir: str
    heldout_file: str | None = option(
        "validation JSONL (default: the .heldout.jsonl next to --train-file)", None
    )
    size: str = option(
        "model size from scratch: tiny | small | base (Transformer-base, the paper's)", "small"
    )
    backbone: str | None = option(
        "local Hugging Face checkpoint folder (safetensors) to put the copy head on, instead of a model from "
        "scratch: a seq2seq model (T5, BART, mT5, mBART ...), or a BERT-type encoder (BERT, RoBERTa, MiniLM "
        "...) that warm-starts both encoder and decoder (BERT2BERT); its tokenizer is used, extended with "
        "<sep>/<empty>",
        None,
    )
    decoder_layers: int | None = option(
        "with a BERT-type --backbone: the decoder gets only the checkpoint's first N layers (a deep encoder "
        "with a shallow decoder, Kasai et al. 2021: faster decoding; default: all layers)",
        None,
    )
    init_from: str | None = option(
        "a paraguide model folder to continue training from: its weights and tokenizer (e.g. the bundled "
        "model on a new --input-format, or for more epochs on new data); the optimizer starts afresh",
        None,
    )
    lora: bool = option(
        "with --backbone: train LoRA adapters (peft), the copy head and the new tokens' embeddings only",
        False,
    )
    lora_r: int = option("LoRA rank", 16)
    lora_alpha: int = option("LoRA scaling alpha", 32)
    lora_dropout: float = option("dropout on the LoRA path", 0.05)
    lora_target_modules: str | None = option(
        "comma-separated module names for LoRA, or all-linear (default: peft's choice for the model type, the"
        " attention query/value projections)",
        None,
    )
    use_copy: bool = option("turn off the copy mechanism (for comparison)", True)
    input_format: str = option(
        "suggestion: '<suggestion> <sep> <question>' (Gan & Ng); replace: '<matched> <sep> <suggestion> <sep>"
        " <question>', the question's phrase the suggestion replaces from each example's 'matched' field, "
        "which teaches the model to substitute (the use-time sources know that phrase)",
        "suggestion",
    )
    vocab_size: int = option("SentencePiece vocabulary size (paper: 8000)", 8000)
    lowercase: bool = option("keep case (default: lower-case, as the paper)", True)
    max_source_tokens: int = option("longest input in tokens (suggestion, separator and question)", 64)
    max_target_tokens: int = option("longest paraphrase in tokens", 48)
    batch_size: int = option("examples per process and step", 64, minimum=1)
    grad_accum: int = option("gradient accumulation steps", 1, minimum=1)
    lr: float = option("peak learning rate (AdamW)", 1e-3)
    warmup_steps: int = option("linear warm-up, then inverse square root decay", 1000)
    epochs: float = option("passes over the training data", 1.0)
    max_steps: int | None = option(
        "stop after this many optimizer steps (overrides --epochs)", None, minimum=1
    )
    # stop after this much training time in this run (comparisons at equal training time)
    max_minutes: float | None = option(
        "stop after this many minutes of training in this run, and finish as a complete run (final "
        "evaluation, model saved): for comparisons at equal training time",
        None,
    )
    label_smoothing: float = option("label smoothing of the cross-entropy", 0.1)
    dropout: float = option("dropout probability", 0.1)
    mixed_precision: str = option(
        "no | fp16 (GPU) | bf16 (GPU, or a CPU with native bfloat16: AVX512-BF16 or AMX)", "no"
    )
    keep_freed_memory: bool = option(
        "on CPU, let glibc return freed memory to the system as usual (default: keep it for reuse, which "
        "saves a page fault per 4 KB of each step's large tensors: 5-20 %% faster, ~200 MB more memory)",
        True,
    )
    save_every: int = option("checkpoint every N steps (for --resume)", 1000, minimum=1)
    eval_every: int = option("held-out loss, BLEU and suggestion inclusion every N steps", 1000, minimum=1)
    eval_examples: int = option("held-out examples generated for BLEU and suggestion inclusion", 500)
    patience: int | None = option(
        "early stopping: stop after this many evaluations without a lower held-out loss; the best "
        "evaluation's weights are the ones saved (default: train to the end)",
        None,
    )
    seed: int = option("seed of the initialisation, shuffling and dropout", 13)
    resume: bool = option(
        "continue the run in --output-dir from its newest checkpoint (the same data and options; --epochs, "
        "--max-steps, --max-minutes, --patience and the evaluation and checkpoint settings may change)",
        False,
    )
    overwrite: bool = option(
        "discard the run in --output-dir (model, checkpoints, metrics) and start again; in a folder that is "
        "not a paraguide run, replace the files train writes and keep the others",
        False,
    )
    keep_checkpoints: int = option("checkpoints kept in --output-dir (the newest)", 2)

    def __post_init__(self):
        if self.input_format not in INPUT_FORMATS:
            raise ValueError(
                f"input_format must be one of {', '.join(INPUT_FORMATS)}, got {self.input_format!r}"
            )
        if self.patience is not None and self.patience < 1:
            raise ValueError("patience must be at least 1 evaluation")
        if self.init_from and self.backbone:
            raise ValueError("give either init_from (a paraguide model to continue) or backbone, not both")
        if self.decoder_layers is not None and (not self.backbone or self.decoder_layers < 1):
            raise ValueError("decoder_layers needs a BERT-type --backbone and must be at least 1")
        if self.max_minutes is not None and self.max_minutes < 0:
            raise ValueError("max_minutes must not be negative")
        if self.lora and not self.backbone:
            raise ValueError("lora needs a pretrained backbone (--backbone PATH); from scratch, train it all")
        if self.keep_checkpoints < 1:
            raise ValueError("keep_checkpoints must be at least 1 (--resume continues from the newest)")

    def identity(self) -> dict:
        """The options that decide what a run learns (--resume refuses a change to any of them); the files
        are compared by content (:func:`run_inputs`), and how long it trains, how often it evaluates and
        saves, may change."""
        free = {"train_file", "heldout_file", "output_dir", "init_from", "backbone", "resume", "overwrite",
                "epochs", "max_steps", "max_minutes", "patience", "save_every", "eval_every", "eval_examples",
                "keep_checkpoints", "keep_freed_memory"}  # fmt: skip
        return {k: v for k, v in asdict(self).items() if k not in free}


def run_inputs(config: TrainConfig, heldout_file: str | None) -> dict[str, dict]:
    """The content hash of every file a run reads: training and held-out data, the model it starts from."""
    return fingerprints(
        {
            "train file": config.train_file,
            "held-out file": heldout_file,
            "init_from": config.init_from,
            "backbone": config.backbone,
        }  # fmt: skip
    )


def read_examples(
    path: str | os.PathLike, allow_empty: bool | None = None, texts: tuple[str, ...] = ("source", "target")
) -> list[dict]:
    """The rows of a ``paraguide prepare`` JSONL file; a missing or non-string ``source``, ``target``,
    ``suggestion`` (or ``matched``), a NUL character in one, or an empty ``source`` or ``target`` raises
    :class:`DataError` naming the line and field. A file without a row is a DataError too, unless
    ``allow_empty``; None (the default) allows it for a held-out split only (``*.heldout.jsonl[.gz]``,
    which ``prepare --heldout 0`` leaves empty): training data must hold an example, checked here before
    a tokenizer is trained on it. ``texts``: the fields that must hold text (preference pairs: source,
    chosen, rejected)."""
    rows = []
    for line, r in read_jsonl(path):
        for key in (*texts, "suggestion", "matched"):
            value = r.get(key, "" if key == "matched" else None)
            if not isinstance(value, str):
                problem = "non-string field" if key == "matched" else "missing or non-string field"
                raise DataError(str(path), f"{problem} {key!r}", line=line, field=key)
            if "\x00" in value:
                raise DataError(str(path), NUL_PROBLEM, line=line, field=key)
            if key in texts and not value.strip():
                raise DataError(str(path), f"empty {key}", line=line, field=key)
        rows.append(r)
    if allow_empty is None:
        allow_empty = os.fspath(path).endswith((".heldout.jsonl", ".heldout.jsonl.gz"))
    if not rows and not allow_empty:
        raise no_records(path, "training examples")
    return rows


def encode(tokenizer, rows: list[dict], config: TrainConfig) -> list[tuple[list[int], list[int]]]:
    """(source ids, target ids) per row: the model input in ``config.input_format`` and the target,
    truncated to ``max_source_tokens`` / ``max_target_tokens``."""
    sources = tokenizer(
        [model_input(r["suggestion"], r["source"], r.get("matched"), config.input_format) for r in rows],
        truncation=True,
        max_length=config.max_source_tokens,
    )["input_ids"]
    targets = tokenizer([r["target"] for r in rows], truncation=True, max_length=config.max_target_tokens)[
        "input_ids"
    ]
    # A BERT-type tokenizer (a [CLS], no BOS token) starts every text with [CLS]; the decoder starts from it
    # (its decoder_start_token_id), so the labels do not repeat it. BART's <s> is its BOS and stays.
    cls = tokenizer.cls_token_id if tokenizer.bos_token is None else None
    if cls is not None:
        targets = [t[1:] if t and t[0] == cls else t for t in targets]
    return list(zip(sources, targets, strict=True))


def epoch_batches(lengths: list[int], batch_size: int, seed: int, epoch: int) -> list[list[int]]:
    """Deterministic batches for one epoch: shuffle, sort by length within windows of 100 batches (less
    padding), cut, shuffle the batches. ``lengths``: see :func:`example_length`. The order depends on
    (seed, epoch) only, which is what lets ``resume`` skip exactly the batches already done; each process
    then takes every world-size-th batch."""
    rng = random.Random(f"{seed}:{epoch}")
    order = list(range(len(lengths)))
    rng.shuffle(order)
    window = batch_size * 100
    batches = []
    for i in range(0, len(order), window):
        chunk = sorted(order[i : i + window], key=lambda k: lengths[k])
        batches += [chunk[j : j + batch_size] for j in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches


def example_length(source: list[int], target: list[int]) -> int:
    """The length batches are sorted by: the longer side, as in OpenNMT-py. Source and target are padded
    separately, and sorting by their sum would group long sources with short targets (more padding;
    measured in docs/paraphraser.md)."""
    return max(len(source), len(target))


def collate(pairs: list[tuple[list[int], list[int]]], pad_id: int = 0) -> dict[str, torch.Tensor]:
    """A padded batch of (source, target) ids: ``input_ids``, ``attention_mask`` and ``labels`` (-100 at
    padding, which the loss ignores)."""
    src_len = max(len(s) for s, _ in pairs)
    tgt_len = max(len(t) for _, t in pairs)
    input_ids = torch.full((len(pairs), src_len), pad_id)
    labels = torch.full((len(pairs), tgt_len), -100)
    for i, (s, t) in enumerate(pairs):
        input_ids[i, : len(s)] = torch.tensor(s)
        labels[i, : len(t)] = torch.tensor(t)
    return {"input_ids": input_ids, "attention_mask": (input_ids != pad_id).long(), "labels": labels}


def train(config: TrainConfig, on_step=None) -> dict:
    """Train and save model + tokenizer in ``output_dir``; returns the final metrics. ``on_step(step)``
    is called after every optimizer step (progress hooks; tests use it to interrupt a run). A checkpoint
    (``accelerator.save_state``: model, optimizer, scheduler, RNG states, plus the step) is written every
    ``save_every`` steps; ``resume`` loads the newest one and skips the steps already done."""
    from accelerate import Accelerator
    from accelerate.utils import set_seed
    from transformers import get_inverse_sqrt_schedule

    out = Path(config.output_dir)
    # The folder first (cheap, read-only): a user's files or another run are never mixed with this one.
    # Then the data, checked before anything is written: a bad file leaves the folder as it was.
    output = OutputDir.check(out, "train", resume=config.resume, overwrite=config.overwrite)
    rows = read_examples(config.train_file)
    heldout_file = config.heldout_file or _default_heldout(config.train_file)
    if not config.heldout_file and not os.path.exists(heldout_file):
        heldout_file = None  # the default one is optional
    heldout_rows = read_examples(heldout_file, allow_empty=True) if heldout_file else []
    output.identify(config.identity(), run_inputs(config, heldout_file))
    # cpu=True where there is no GPU: only then do processes started by torchrun (`accelerate launch
    # --multi_gpu`) on a CPU machine form one gloo group instead of N independent runs.
    accelerator = Accelerator(
        gradient_accumulation_steps=config.grad_accum,
        mixed_precision=config.mixed_precision,
        cpu=not torch.cuda.is_available(),
    )
    if accelerator.is_main_process:
        output.claim()
        for stale in out.glob(".checkpoint-*"):  # checkpoints whose writing was killed: never resumed from
            shutil.rmtree(stale, ignore_errors=True)
    accelerator.wait_for_everyone()
    set_seed(config.seed)
    if config.keep_freed_memory and accelerator.device.type == "cpu":
        keep_freed_memory()

    # Tokenizer: trained on the training data (or the backbone's, extended) once by the main process,
    # saved with the model and reused on resume.
    if accelerator.is_main_process and not (out / "tokenizer.json").exists():
        if config.init_from:
            load_tokenizer(config.init_from).save_pretrained(out)
        elif config.backbone:
            load_checkpoint_tokenizer(config.backbone).save_pretrained(out)
        else:
            texts = [t for r in rows for t in (r["source"], r["target"])]
            train_tokenizer(texts, out, vocab_size=config.vocab_size, lowercase=config.lowercase)
    accelerator.wait_for_everyone()
    tokenizer = load_tokenizer(out)
    train_data = encode(tokenizer, rows, config)
    del rows
    heldout_data = encode(tokenizer, heldout_rows, config) if heldout_rows else []

    model = _build(config, tokenizer)
    optimizer = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad],
        lr=config.lr,
        betas=(0.9, 0.98),
        eps=1e-9,
        weight_decay=0.0,
        fused=True,  # one kernel for all parameters (CPU and GPU); measured in docs/paraphraser.md
    )
    lengths = [example_length(s, t) for s, t in train_data]
    per_epoch = math.ceil(
        len(epoch_batches(lengths, config.batch_size, config.seed, 0)) / accelerator.num_processes
    )
    total = config.max_steps or max(1, int(per_epoch * config.epochs / config.grad_accum))
    scheduler = get_inverse_sqrt_schedule(optimizer, num_warmup_steps=min(config.warmup_steps, total))
    model, optimizer, scheduler = accelerator.prepare(model, optimizer, scheduler)

    # Early stopping's best evaluation so far ({"step", "heldout_loss", "waited"}; its weights are kept in
    # best/model-STEP.safetensors) is part of a checkpoint, so that a resumed run knows it.
    step, best = 0, None
    metrics_file = out / "metrics.jsonl"
    if output.resumed and (ckpt := _latest_checkpoint(out)) is not None:
        accelerator.load_state(str(ckpt))
        state = json.loads((ckpt / STATE).read_text())
        step, best = state["step"], state.get("best")
        accelerator.print(f"resumed from {ckpt} at step {step}")
    if output.resumed and accelerator.is_main_process:
        _metrics_until(metrics_file, step)  # the evaluations after the checkpoint are done again
    accelerator.wait_for_everyone()
    stopped = False
    last = None  # the latest evaluation in the loop
    bar = tqdm(total=total, initial=step, desc="train", disable=not accelerator.is_local_main_process)
    micro = step * config.grad_accum  # micro-batches already consumed
    started, tokens = time.perf_counter(), 0
    model.train()
    epoch = micro // per_epoch
    while step < total:
        batches = epoch_batches(lengths, config.batch_size, config.seed, epoch)
        mine = batches[accelerator.process_index :: accelerator.num_processes][:per_epoch]
        for i, idx in enumerate(mine):
            if epoch * per_epoch + i < micro:
                continue  # done before the resume
            pairs = [train_data[j] for j in idx]
            batch = {k: v.to(accelerator.device) for k, v in collate(pairs, tokenizer.pad_token_id).items()}
            with accelerator.accumulate(model):
                loss = model(**batch, label_smoothing=config.label_smoothing).loss
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            tokens += int((batch["labels"] != -100).sum()) + int(batch["attention_mask"].sum())
            micro += 1
            if not accelerator.sync_gradients:
                continue
            step += 1
            bar.update(1)
            bar.set_postfix(
                loss=f"{loss.item():.3f}", tok_s=f"{tokens / (time.perf_counter() - started):.0f}"
            )
            if config.max_minutes is not None and _out_of_time(accelerator, started, config.max_minutes):
                accelerator.print(f"--max-minutes {config.max_minutes} reached at step {step}")
                # the last step then counts as the end: evaluated (so early stopping's best sees it), saved
                total = step
            if step % config.eval_every == 0 or step == total:
                result = evaluate(
                    accelerator.unwrap_model(model),
                    tokenizer,
                    heldout_rows,
                    heldout_data,
                    config,
                    accelerator,
                )
                result.update(step=step, train_loss=round(loss.item(), 4))
                last = result
                if accelerator.is_main_process:
                    with open(metrics_file, "a", encoding="utf-8") as f:
                        f.write(json.dumps(result) + "\n")
                if config.patience and "heldout_loss" in result:
                    best, stopped = _early_stopping(accelerator, model, out, result, best, config.patience)
                model.train()
            if step % config.save_every == 0 and step < total:
                _save_checkpoint(accelerator, out, step, config.keep_checkpoints, best)
            if on_step is not None:
                on_step(step)
            if step >= total or stopped:
                break
        if stopped:
            accelerator.print(
                f"early stopping at step {step}: best held-out loss {best['heldout_loss']} at step {best['step']}"
            )
            break
        epoch += 1
    bar.close()
    reload = best is not None and best["step"] != step
    if reload:  # the best evaluation's weights, not the last ones
        from safetensors.torch import load_model

        load_model(accelerator.unwrap_model(model), str(_best_weights(out, best["step"])))

    if last is not None and last["step"] == step and not reload:
        # the last step was just evaluated with these very weights: not again
        final = {k: v for k, v in last.items() if k != "train_loss"}
    else:
        final = evaluate(
            accelerator.unwrap_model(model), tokenizer, heldout_rows, heldout_data, config, accelerator
        )
    final.update(
        step=step, train_seconds=round(time.perf_counter() - started, 1), processes=accelerator.num_processes
    )
    if best is not None:
        final.update(best_step=best["step"], early_stopped=stopped)
    if accelerator.is_main_process:
        merge_lora(accelerator.unwrap_model(model))  # a plain model from here on: saves, loads as any
        with atomic_folder(out) as saving:  # each file complete under its final name, or not there
            accelerator.unwrap_model(model).save_pretrained(saving)
            tokenizer.save_pretrained(saving)
            write_json(saving / "training_args.json", asdict(config))
            write_json(saving / "all_results.json", final)
        output.finish()
    accelerator.wait_for_everyone()
    return final


@torch.no_grad()
def evaluate(model, tokenizer, rows, data, config: TrainConfig, accelerator) -> dict:
    """Held-out loss (teacher forcing), then on the first ``eval_examples``: BLEU of greedy outputs to the
    references, the share of non-empty suggestions found in the output, the share of outputs equal to
    the source."""
    if not data:
        return {}
    import sacrebleu

    model.eval()
    device = accelerator.device
    losses, n = 0.0, 0
    for i in range(0, len(data), 128):
        batch = {k: v.to(device) for k, v in collate(data[i : i + 128], tokenizer.pad_token_id).items()}
        count = int((batch["labels"] != -100).sum())
        losses += model(**batch).loss.item() * count
        n += count
    subset = rows[: config.eval_examples]
    outputs = []
    for i in range(0, len(subset), 64):
        part = data[i : i + min(64, len(subset) - i)]
        batch = collate(part, tokenizer.pad_token_id)
        ids = model.generate(
            batch["input_ids"].to(device),
            attention_mask=batch["attention_mask"].to(device),
            max_new_tokens=config.max_target_tokens,
            num_beams=1,
            do_sample=False,
        )
        outputs += tokenizer.batch_decode(ids, skip_special_tokens=True)
    lowercase = config.lowercase and not config.backbone  # as the tokenizer does
    refs = [r["target"].lower() if lowercase else r["target"] for r in subset]
    # sacrebleu's default tokenisation splits on spaces, which Chinese does not have.
    bleu_tokenize = "zh" if any(r.get("lang") == "zh" for r in subset) else "13a"
    with_suggestion = [(o, r["suggestion"]) for o, r in zip(outputs, subset, strict=True) if r["suggestion"]]
    return {
        "heldout_loss": round(losses / max(n, 1), 4),
        "bleu": round(sacrebleu.corpus_bleu(outputs, [refs], tokenize=bleu_tokenize).score, 2),
        "suggestion_inclusion": round(
            sum(s.lower() in o.lower() for o, s in with_suggestion) / max(1, len(with_suggestion)), 4
        ),
        "same_as_source": round(
            sum(
                o.strip().lower() == r["source"].lower().strip() for o, r in zip(outputs, subset, strict=True)
            )
            / max(1, len(subset)),
            4,
        ),
        "eval_examples": len(subset),
    }


# mallopt settings of keep_freed_memory: glibc's name -> (<malloc.h> parameter, value). The same settings
# as environment variables, for another program (benchmarks): MALLOC_<name>_=value.
KEEP_FREED_MEMORY = {"MMAP_MAX": (-4, 0), "TRIM_THRESHOLD": (-1, 1 << 30)}


def keep_freed_memory() -> bool:
    """Make glibc's malloc keep the memory the process frees, for reuse, rather than return it to the
    system; True if it took effect (Linux with glibc). It lasts for the process.

    Why: a CPU training step allocates and frees tensors of the vocabulary's size (batch × target length ×
    vocabulary floats: tens of MB). glibc serves blocks that big with a fresh mmap and unmaps them when
    freed, so every step touches new pages and pays a kernel page fault per 4 KB. With no mmap and no
    trimming of the heap, the second step on mostly reuses earlier steps' memory: faster steps for more
    resident memory (measured in docs/paraphraser.md). Not every block is reused: PyTorch allocates with
    posix_memalign, whose alignment slack can leave a freed block a little too small for the next request
    of the same size, and then the heap grows by fresh pages as before. PyTorch's CPU tuning guide suggests
    another allocator (jemalloc, tcmalloc) for the same reason; this needs no library."""
    import ctypes
    import ctypes.util
    import platform

    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    return all(libc.mallopt(param, value) for param, value in KEEP_FREED_MEMORY.values())


def _build(config: TrainConfig, tokenizer) -> CopyGenerator:
    """From scratch at a named size, a paraguide model to continue, or the copy head over a checkpoint
    (optionally with LoRA)."""
    if config.init_from:
        # Continue a trained paraphraser (e.g. on a new input format or more data): its weights and
        # vocabulary; dropout and input format are this run's.
        model = CopyGenerator.from_pretrained(config.init_from, dtype=torch.float32)
        model.config.input_format = config.input_format
        for module in model.modules():
            if isinstance(module, torch.nn.Dropout):
                module.p = config.dropout
        return model
    if not config.backbone:
        return build_model(
            config.size,
            vocab_size=len(tokenizer),
            use_copy=config.use_copy,
            input_format=config.input_format,
            dropout=config.dropout,
        )
    backbone = load_checkpoint_model(
        config.backbone, len(tokenizer), dropout=config.dropout, decoder_layers=config.decoder_layers
    )
    copy_config = CopyConfig(
        backbone=backbone.config.to_dict(), use_copy=config.use_copy, input_format=config.input_format
    )
    model = CopyGenerator(copy_config, backbone)
    if config.lora:
        targets = config.lora_target_modules
        model.backbone = add_lora(
            model.backbone,
            r=config.lora_r,
            alpha=config.lora_alpha,
            dropout=config.lora_dropout,
            target_modules=_lora_targets(targets),
            trainable_token_ids=tokenizer.convert_tokens_to_ids([SEP, EMPTY]),
        )
    return model


def _out_of_time(accelerator, started: float, minutes: float) -> bool:
    """Whether the time budget is spent on any process: all of them then stop at the same step."""
    spent = torch.tensor(float(time.perf_counter() - started >= minutes * 60), device=accelerator.device)
    if accelerator.num_processes > 1:
        spent = accelerator.reduce(spent, reduction="sum")
    return spent.item() > 0


def _early_stopping(accelerator, model, out: Path, result: dict, best: dict | None, patience: int):
    """Record an evaluation; returns (best so far, stop?). A new best saves its weights in
    ``out/best/model-STEP.safetensors``."""
    if best is None or result["heldout_loss"] < best["heldout_loss"]:
        best = {"step": result["step"], "heldout_loss": result["heldout_loss"], "waited": 0}
        if accelerator.is_main_process:
            from safetensors.torch import save_model

            path = _best_weights(out, best["step"])
            path.parent.mkdir(exist_ok=True)
            writing = path.with_name(f".{path.name}")  # complete under its final name, or not there
            save_model(accelerator.unwrap_model(model), str(writing))
            os.replace(writing, path)
    else:
        best = {**best, "waited": best["waited"] + 1}
    if accelerator.is_main_process:
        write_json(out / "best" / "best.json", best)
        _prune_best(out, best)
    accelerator.wait_for_everyone()
    return best, best["waited"] >= patience


def _best_weights(out: Path, step: int) -> Path:
    return out / "best" / f"model-{step}.safetensors"


def _prune_best(out: Path, best: dict | None) -> None:
    """Delete best-evaluation weights that neither the current best nor any checkpoint refers to (a run
    resumed from a checkpoint must find its best's weights)."""
    keep = {best["step"]} if best else set()
    for ckpt in out.glob("checkpoint-*"):
        if (ckpt / STATE).exists() and (saved := json.loads((ckpt / STATE).read_text()).get("best")):
            keep.add(saved["step"])
    for path in out.glob("best/model-*.safetensors"):
        if int(path.name.split("-")[1].split(".")[0]) not in keep:
            path.unlink()


def _metrics_until(path: Path, step: int) -> None:
    """Keep the evaluations of ``metrics.jsonl`` up to ``step`` (a resumed run writes the later ones
    again); a line cut by a crash is dropped."""
    if not path.exists():
        return
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if row.get("step", 0) <= step:
            rows.append(row)
    write_jsonl(path, rows)


def _lora_targets(targets: str | None) -> str | list[str] | None:
    """None: peft's default for the model type; "all-linear": every linear layer; else module names."""
    if not targets or targets == "all-linear":
        return targets or None
    return [t.strip() for t in targets.split(",") if t.strip()]


def _default_heldout(train_file: str) -> str | None:
    return str(output_paths(train_file)["heldout"])


def _checkpoints(out: Path) -> list[tuple[int, Path]]:
    """The complete checkpoints, oldest first."""
    found = [
        (int(m.group(1)), p)
        for p in out.glob("checkpoint-*")
        if (m := re.fullmatch(r"checkpoint-(\d+)", p.name)) and (p / STATE).exists()
    ]
    return sorted(found)


def _latest_checkpoint(out: Path) -> Path | None:
    found = _checkpoints(out)
    return found[-1][1] if found else None


def save_state_atomically(accelerator, folder: Path, state_file: str, state: dict) -> None:
    """``accelerator.save_state`` (model, optimizer, scheduler, every process's RNG) into ``.NAME`` beside
    ``folder``, then ``state`` as ``state_file`` in it, then a rename to ``folder``: a save killed half-way
    never has the final name, so a resumed run never reads half of one. Used by ``paraguide train`` and the
    recipes (all processes call it)."""
    writing = folder.parent / f".{folder.name}"
    if accelerator.is_main_process:
        shutil.rmtree(writing, ignore_errors=True)
        folder.parent.mkdir(parents=True, exist_ok=True)
    accelerator.wait_for_everyone()
    accelerator.save_state(str(writing))
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        write_json(writing / state_file, state)
        if folder.exists():  # from a run that went further before it was resumed from an older checkpoint
            shutil.rmtree(folder)
        os.replace(writing, folder)
    accelerator.wait_for_everyone()


def _save_checkpoint(accelerator, out: Path, step: int, keep: int, best: dict | None) -> None:
    """A checkpoint (:func:`save_state_atomically`) holding the step and early stopping's best; the oldest
    beyond ``keep`` removed, and best weights no checkpoint refers to any more."""
    save_state_atomically(accelerator, out / f"checkpoint-{step}", STATE, {"step": step, "best": best})
    if accelerator.is_main_process:
        for _, old in _checkpoints(out)[:-keep]:
            shutil.rmtree(old, ignore_errors=True)
        _prune_best(out, best)
    accelerator.wait_for_everyone()


def load_trained(path: str | os.PathLike):
    """(model, tokenizer) saved by :func:`train`."""
    return CopyGenerator.from_pretrained(os.fspath(path)), load_tokenizer(path)
