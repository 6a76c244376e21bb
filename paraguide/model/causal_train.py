"""Train the decoder-only paraphraser's adapters (LoRA + copy head) on ``paraguide prepare`` output:
``train_causal(CausalTrainConfig(...))``, which ``paraguide train --backbone gemma-3-270m`` runs.

Made to span sessions on a CPU: checkpoints every ``save_every`` steps hold only safetensors and JSON
(the trainable tensors, AdamW's moments, the step and RNG state; nothing is unpickled on ``--resume``),
the batch order is a pure function of (seed, epoch), and ``--resume`` refuses changed data or options
(the run identity of :mod:`paraguide.data.outdir`). The learning rate is constant after warm-up, so
that a run can be continued for more steps with the same schedule.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from tqdm.auto import tqdm

from paraguide.data.fingerprint import fingerprints
from paraguide.data.io import atomic_folder, write_json
from paraguide.data.outdir import OutputDir
from paraguide.model.causal import CausalConfig, build, encode_prompt, encode_target
from paraguide.model.pretrained import NAMED, base_info, base_tokenizer, resolve_base
from paraguide.model.train import epoch_batches, read_examples
from paraguide.options import option

STATE = "state.json"


@dataclass
class CausalTrainConfig:
    """A causal paraphraser's training run (saved as ``training_args.json``)."""

    train_file: str
    output_dir: str
    backbone: str = option(
        "a named base (gemma-3-270m) or a local causal-LM checkpoint folder", "gemma-3-270m"
    )
    heldout_file: str | None = option(
        "validation JSONL (default: the .heldout.jsonl next to --train-file)", None
    )
    lora_r: int = option("LoRA rank", 16)
    lora_alpha: int = option("LoRA scaling alpha", 32)
    lora_dropout: float = option("dropout on the LoRA path", 0.05)
    init_from: str | None = option(
        "start from this adapter's LoRA and copy head: a folder, or gemma-en / gemma-zh (fine-tuning; its "
        "base must be --backbone)",
        None,
    )
    use_copy: bool = option("the copy head (off: the plain LM, for comparison)", True)
    control: str | None = option(
        "the control code generation asks for, when the training rows carry control codes (their "
        "'control' field, data_prep/causal_corpus.py --controls), e.g. 'faithful, large'",
        None,
    )
    objective: str = option(
        "sft: the next-token NLL of each row's target | dpo: preference pairs (rows with 'chosen' and "
        "'rejected', data_prep/preference_corpus.py), against the adapter the run starts from (--init-from)",
        "sft",
    )
    dpo_beta: float = option("dpo: how far from the starting adapter the pairs may pull (higher: less)", 0.1)
    dpo_nll: float = option(
        "dpo: weight of the chosen rewrite's per-token NLL added to the loss (as in RPO): the chosen "
        "rewrites stay likely, not only likelier than the rejected",
        0.2,
    )
    max_prompt_tokens: int = option("longest prompt in tokens", 96)
    max_target_tokens: int = option("longest paraphrase in tokens", 64)
    batch_size: int = option("examples per step", 8)
    lr: float = option("peak learning rate (AdamW)", 2e-4)
    warmup_steps: int = option("linear warm-up, then constant", 30)
    max_steps: int = option("stop after this many optimizer steps in all (may grow on --resume)", 2000)
    max_minutes: float | None = option("stop after this many minutes in this process (then save)", None)
    mixed_precision: str = option("no | bf16 (autocast; a CPU with AVX512-BF16/AMX, or a GPU)", "no")
    save_every: int = option("checkpoint every N steps", 50)
    eval_every: int = option("held-out loss every N steps", 200)
    eval_examples: int = option("held-out examples scored", 200)
    patience: int | None = option("stop after N evaluations without a lower held-out loss", None)
    seed: int = option("seed of the adapters' initialisation, the batch order and dropout", 13)
    resume: bool = option("continue the run in --output-dir", False)
    overwrite: bool = option("discard the run in --output-dir and start again", False)
    keep_checkpoints: int = option("checkpoints kept", 2)

    def identity(self) -> dict:
        """What decides what is learnt: --resume refuses a change to any of these."""
        free = {"train_file", "heldout_file", "output_dir", "resume", "overwrite", "max_steps", "max_minutes",
                "patience", "save_every", "eval_every", "eval_examples", "keep_checkpoints", "mixed_precision"}  # fmt: skip
        return {k: v for k, v in asdict(self).items() if k not in free}

    def model_config(self, base_sha: str | None) -> CausalConfig:
        return CausalConfig(
            # A folder as an absolute path: the adapter is loaded from wherever its user stands.
            base=self.backbone if self.backbone in NAMED else os.path.abspath(self.backbone),
            base_sha256=base_sha,
            lora_r=self.lora_r,
            lora_alpha=self.lora_alpha,
            lora_dropout=self.lora_dropout,
            use_copy=self.use_copy,
            control=self.control,
            max_prompt_tokens=self.max_prompt_tokens,
            max_target_tokens=self.max_target_tokens,
        )


@dataclass
class Example:
    """One encoded training example."""

    prompt: list[int]
    copy: list[int]
    target: list[int]


@dataclass
class Pair:
    """One encoded preference pair: a prompt and two rewrites of it, the one readers chose first."""

    prompt: list[int]
    copy: list[int]
    chosen: list[int]
    rejected: list[int]

    def examples(self) -> tuple[Example, Example]:
        return Example(self.prompt, self.copy, self.chosen), Example(self.prompt, self.copy, self.rejected)


TEXTS = {"sft": ("source", "target"), "dpo": ("source", "chosen", "rejected")}


def encode_rows(tokenizer, rows: list[dict], config: CausalTrainConfig) -> list[Example] | list[Pair]:
    """Examples (``objective`` sft) or preference pairs (dpo), prompts as generation builds them."""
    out = []
    for r in rows:
        ids, copy = encode_prompt(
            tokenizer,
            r["source"],
            r["suggestion"] or None,
            r.get("matched") or None,
            config.max_prompt_tokens,
            r.get("control") or None,
        )
        targets = [
            encode_target(tokenizer, r[k], config.max_target_tokens) for k in TEXTS[config.objective][1:]
        ]
        out.append(Example(ids, copy, *targets) if config.objective == "sft" else Pair(ids, copy, *targets))
    return out


def examples_of(data: list) -> list[Example]:
    """Every sequence the data scores: the examples, or each pair's chosen and rejected rewrites."""
    return [e for d in data for e in (d.examples() if isinstance(d, Pair) else (d,))]


def collate(examples: list[Example], pad_id: int) -> dict[str, torch.Tensor]:
    """Prompt + target per row, right-padded; ``labels`` at position i is the token at i + 1 where that is a
    target token (the LM predicts the next token)."""
    length = max(len(e.prompt) + len(e.target) for e in examples)
    ids = torch.full((len(examples), length), pad_id)
    mask = torch.zeros((len(examples), length), dtype=torch.long)
    labels = torch.full((len(examples), length), -100)
    copy = torch.zeros((len(examples), length), dtype=torch.long)
    for i, e in enumerate(examples):
        row = e.prompt + e.target
        ids[i, : len(row)] = torch.tensor(row)
        mask[i, : len(row)] = 1
        copy[i, : len(e.prompt)] = torch.tensor(e.copy)
        p = len(e.prompt)
        labels[i, p - 1 : p - 1 + len(e.target)] = torch.tensor(e.target)
    return {"input_ids": ids, "attention_mask": mask, "labels": labels, "copy_mask": copy}


def output_vocabulary(examples: list[Example], tokenizer) -> list[int]:
    """Every token the corpus's prompts and targets hold, plus the special ones."""
    ids = {t for e in examples for t in (*e.prompt, *e.target)}
    ids |= {
        t for t in (tokenizer.eos_token_id, tokenizer.bos_token_id, tokenizer.pad_token_id) if t is not None
    }
    return sorted(ids)


def train_causal(config: CausalTrainConfig, on_step=None) -> dict:
    """Train, checkpoint, and save the adapter folder (``adapter.safetensors`` fp16, ``config.json``,
    ``training_args.json``, ``all_results.json``, ``metrics.jsonl``, a model card)."""
    from accelerate.utils import set_seed
    from transformers import get_constant_schedule_with_warmup

    from paraguide.errors import ParaguideError

    if config.objective not in TEXTS:
        raise ParaguideError(f"--objective {config.objective!r}: one of {', '.join(TEXTS)}")
    if config.objective == "dpo" and not config.init_from:
        raise ParaguideError("--objective dpo needs --init-from: the adapter it starts from is its reference")
    out = Path(config.output_dir)
    output = OutputDir.check(out, "train", resume=config.resume, overwrite=config.overwrite)
    texts = TEXTS[config.objective]
    rows = read_examples(config.train_file, texts=texts)
    heldout_file = config.heldout_file or _default_heldout(config.train_file)
    if not config.heldout_file and not os.path.exists(heldout_file):
        heldout_file = None
    heldout_rows = read_examples(heldout_file, allow_empty=True, texts=texts) if heldout_file else []
    base_folder = resolve_base(config.backbone)
    output.identify(
        config.identity(),
        fingerprints(
            {
                "train file": config.train_file,
                "held-out file": heldout_file,
                "backbone": _base_identity(base_folder),
            }
        ),
    )
    output.claim()
    for stale in out.glob(".checkpoint-*"):
        shutil.rmtree(stale, ignore_errors=True)
    set_seed(config.seed)

    tokenizer = base_tokenizer(base_folder)
    train_data = encode_rows(tokenizer, rows, config)
    heldout_data = encode_rows(tokenizer, heldout_rows[: config.eval_examples], config)
    del rows
    vocab = output_vocabulary(examples_of(train_data + heldout_data), tokenizer)
    model_config = config.model_config(base_info(base_folder).get("gguf_sha256"))
    if config.init_from:
        start, start_file = _start_state(config.init_from, model_config)
        # a stage fine-tuned on a small corpus can still write every token its start could
        vocab = sorted(set(vocab) | set(start.pop("vocab_ids", torch.zeros(0, dtype=torch.long)).tolist()))
    model = build(base_folder, model_config, vocab)
    if config.init_from:
        model.load_trainable(start, start_file)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=config.mixed_precision == "bf16")
    pad = tokenizer.pad_token_id
    if config.objective == "dpo":
        # The reference is the adapter the run starts from: its log-probabilities, computed once here
        # (before a checkpoint is resumed), are all DPO needs of it -- no second model in memory.
        ref = reference_log_probs(model, train_data, pad, autocast)
        ref_heldout = reference_log_probs(model, heldout_data, pad, autocast)

        def loss_fn(batch):
            return dpo_loss(model, batch, config.dpo_beta, config.dpo_nll)[0]

        def make_batch(idx):
            return pair_batch([train_data[j] for j in idx], ref[idx], pad)

        def evaluate():
            return heldout_preference(
                model, heldout_data, ref_heldout, pad, autocast, config.dpo_beta, config.dpo_nll
            )
    else:
        loss_fn = None

        def make_batch(idx):
            return collate([train_data[j] for j in idx], pad)

        def evaluate():
            return heldout_loss(model, heldout_data, tokenizer, autocast)

    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=config.lr, weight_decay=0.0)
    scheduler = get_constant_schedule_with_warmup(optimizer, num_warmup_steps=config.warmup_steps)

    step, best, epoch, done_in_epoch = 0, None, 0, 0
    if output.resumed and (ckpt := _latest_checkpoint(out)) is not None:
        step, best, epoch, done_in_epoch = _load_checkpoint(ckpt, model, optimizer, trainable)
        scheduler = get_constant_schedule_with_warmup(
            optimizer, num_warmup_steps=config.warmup_steps, last_epoch=step - 1
        )
        print(f"resumed from {ckpt} at step {step}")
    metrics_file = out / "metrics.jsonl"
    if output.resumed:
        _metrics_until(metrics_file, step)
    lengths = [len(e.prompt) + max(len(x.target) for x in examples_of([e])) for e in train_data]
    bar = tqdm(total=config.max_steps, initial=step, desc="train")
    started = time.perf_counter()
    stopped = False
    model.train()
    while step < config.max_steps and not stopped:
        batches = epoch_batches(lengths, config.batch_size, config.seed, epoch)
        for i in range(done_in_epoch, len(batches)):
            batch = make_batch(batches[i])
            loss = train_step(model, batch, optimizer, scheduler, trainable, autocast, loss_fn)
            step += 1
            done_in_epoch = i + 1
            bar.update(1)
            bar.set_postfix(loss=f"{loss.item():.3f}")
            out_of_time = (
                config.max_minutes is not None and time.perf_counter() - started > 60 * config.max_minutes
            )
            last = step >= config.max_steps or out_of_time
            if step % config.eval_every == 0 or last:
                result = {
                    "step": step,
                    "train_loss": round(loss.item(), 4),
                    **evaluate(),
                }
                with open(metrics_file, "a", encoding="utf-8") as f:
                    f.write(json.dumps(result) + "\n")
                if "heldout_loss" in result and (
                    best is None or result["heldout_loss"] < best["heldout_loss"]
                ):
                    best = {"step": step, "heldout_loss": result["heldout_loss"], "waited": 0}
                    _save_tensors(model.trainable_state(), out / "best.safetensors")
                elif best is not None:
                    best["waited"] += 1
                    stopped = bool(config.patience and best["waited"] >= config.patience)
                model.train()
            if step % config.save_every == 0 or last or stopped:
                _save_checkpoint(out, step, best, epoch, done_in_epoch, model, optimizer, trainable, config)
            if on_step is not None:
                on_step(step)
            if last or stopped:
                stopped = stopped or out_of_time
                break
        else:
            epoch, done_in_epoch = epoch + 1, 0
    bar.close()
    finished = step >= config.max_steps or bool(
        config.patience and best and best["waited"] >= config.patience
    )
    if best is not None and (out / "best.safetensors").exists():
        from safetensors.torch import load_file

        model.load_trainable(load_file(out / "best.safetensors"), str(out / "best.safetensors"))
    final = {
        "step": step,
        "best": best,
        "train_seconds_this_process": round(time.perf_counter() - started, 1),
    }
    with atomic_folder(out) as saving:
        _save_tensors(model.adapter_state(), saving / "adapter.safetensors")
        model.config.save(saving)
        write_json(saving / "training_args.json", asdict(config))
        write_json(saving / "all_results.json", final)
        (saving / "README.md").write_text(model_card(config, base_folder, final), encoding="utf-8")
    if finished:
        output.finish()
    else:  # stopped early (--max-minutes): resumable, and the folder is free for the --resume
        output.release()
    return final


def _start_state(folder: str, ours: CausalConfig) -> tuple[dict[str, torch.Tensor], str]:
    """An adapter's trained tensors (LoRA, copy head, and its output vocabulary as ``vocab_ids``) and the
    file they came from, to go on from (``--init-from``). Another base, rank or head is refused with the
    file named."""
    from safetensors.torch import load_file

    from paraguide.errors import DataError
    from paraguide.model.causal import ADAPTER_FILE
    from paraguide.model.paraphraser import bundled_or_path

    folder = bundled_or_path(folder)  # a bundled adapter by name: gemma-en, gemma-zh
    theirs = CausalConfig.load(folder)
    for name in ("base", "lora_r", "lora_alpha", "lora_targets", "use_copy"):
        if getattr(theirs, name) != getattr(ours, name):
            raise DataError(str(Path(folder, "config.json")),
                            f"--init-from adapter has {name} {getattr(theirs, name)!r}, this run {getattr(ours, name)!r}")  # fmt: skip
    path = Path(folder, ADAPTER_FILE)
    return {k: v if k == "vocab_ids" else v.float() for k, v in load_file(path).items()}, str(path)


def train_step(model, batch: dict, optimizer, scheduler, trainable, autocast, loss_fn=None) -> torch.Tensor:
    """One optimizer step on a collated batch (moved to the model's device): the loss (``loss_fn``, default
    the model's NLL), clipped gradients (norm 1), AdamW, the schedule. Returns the loss."""
    batch = {k: v.to(model.vocab_ids.device) for k, v in batch.items()}
    with autocast:
        loss = (loss_fn or model.loss)(batch)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(trainable, 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return loss


@torch.no_grad()
def heldout_loss(model, data: list[Example], tokenizer, autocast) -> dict:
    if not data:
        return {}
    model.eval()
    total, n = 0.0, 0
    for i in range(0, len(data), 16):
        part = data[i : i + 16]
        batch = {k: v.to(model.vocab_ids.device) for k, v in collate(part, tokenizer.pad_token_id).items()}
        count = int((batch["labels"] != -100).sum())
        with autocast:
            total += model.loss(batch).item() * count
        n += count
    return {"heldout_loss": round(total / max(n, 1), 4)}


# --- preference pairs (DPO, Rafailov et al. 2023) ---------------------------------------------------------


def pair_batch(pairs: list[Pair], ref: torch.Tensor, pad_id: int) -> dict[str, torch.Tensor]:
    """The pairs' chosen rewrites, then their rejected ones, in one collated batch; ``ref`` (k, 2): their
    reference log-probabilities, as ``ref`` (2k,) in the same order."""
    chosen, rejected = zip(*(p.examples() for p in pairs), strict=True)
    batch = collate([*chosen, *rejected], pad_id)
    batch["ref"] = torch.cat([ref[:, 0], ref[:, 1]])
    return batch


def sequence_log_probs(model, batch: dict) -> tuple[torch.Tensor, torch.Tensor]:
    """(B,) each row's summed log-probability of its target tokens, and (B,) how many there are."""
    n = (batch["labels"] != -100).sum(-1)
    return -model.loss(batch, per_example=True) * n, n


def dpo_loss(model, batch: dict, beta: float, nll: float) -> tuple[torch.Tensor, torch.Tensor]:
    """DPO's loss on a :func:`pair_batch` (-log sigmoid of beta x how much more the model prefers the chosen
    rewrite than the reference did), plus ``nll`` x the chosen rewrites' mean per-token NLL; and (k,) the
    margins (> 0: the model prefers the chosen rewrite more than the reference did)."""
    logp, n = sequence_log_probs(model, batch)
    k = len(logp) // 2
    reward = logp - batch["ref"]
    margin = reward[:k] - reward[k:]
    loss = -F.logsigmoid(beta * margin).mean()
    if nll:
        loss = loss + nll * (-logp[:k] / n[:k]).mean()
    return loss, margin


@torch.no_grad()
def reference_log_probs(model, pairs: list[Pair], pad_id: int, autocast, chunk: int = 16) -> torch.Tensor:
    """(N, 2): each pair's chosen and rejected log-probabilities under ``model`` as it is (eval mode)."""
    model.eval()
    out = []
    # minutes on a CPU for a few thousand pairs, before the first training step: show it
    for i in tqdm(
        range(0, len(pairs), chunk), desc="reference log-probs", unit="chunk", disable=len(pairs) <= chunk
    ):
        batch = collate(examples_of(pairs[i : i + chunk]), pad_id)  # chosen, rejected, chosen, ...
        batch = {k: v.to(model.vocab_ids.device) for k, v in batch.items()}
        with autocast:
            out.append(sequence_log_probs(model, batch)[0].float().view(-1, 2).cpu())
    model.train()
    return torch.cat(out) if out else torch.zeros((0, 2))


@torch.no_grad()
def heldout_preference(model, pairs, ref, pad_id, autocast, beta, nll, chunk: int = 16) -> dict:
    """The held-out pairs' DPO loss (``heldout_loss``, what the best checkpoint is chosen by), the share
    whose margin is positive (``heldout_accuracy``) and the mean margin."""
    if not pairs:
        return {}
    model.eval()
    total, margins = 0.0, []
    for i in range(0, len(pairs), chunk):
        part = pairs[i : i + chunk]
        batch = {
            k: v.to(model.vocab_ids.device) for k, v in pair_batch(part, ref[i : i + chunk], pad_id).items()
        }
        with autocast:
            loss, margin = dpo_loss(model, batch, beta, nll)
        total += loss.item() * len(part)
        margins += margin.float().tolist()
    return {
        "heldout_loss": round(total / len(pairs), 4),
        "heldout_accuracy": round(sum(m > 0 for m in margins) / len(margins), 4),
        "heldout_margin": round(sum(margins) / len(margins), 4),
    }


# --- checkpoints: safetensors + JSON, never a pickle -------------------------------------------------


def _save_tensors(state: dict[str, torch.Tensor], path: Path) -> None:
    from safetensors.torch import save_file

    tmp = path.with_name(path.name + ".tmp")
    save_file({k: v.contiguous() for k, v in state.items()}, tmp)
    os.replace(tmp, path)


def _save_checkpoint(out, step, best, epoch, done_in_epoch, model, optimizer, trainable, config) -> None:
    tmp = out / f".checkpoint-{step}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    # A checkpoint is a complete adapter too (export_checkpoint): its config and output vocabulary with it.
    _save_tensors({**model.trainable_state(), "vocab_ids": model.vocab_ids}, tmp / "trainable.safetensors")
    model.config.save(tmp)
    moments = {}
    for k, p in enumerate(trainable):
        s = optimizer.state.get(p, {})
        if s:
            moments[f"{k}.exp_avg"] = s["exp_avg"].float()
            moments[f"{k}.exp_avg_sq"] = s["exp_avg_sq"].float()
            moments[f"{k}.step"] = torch.as_tensor(float(s["step"])).reshape(1)
    moments["torch_rng"] = torch.get_rng_state()
    if torch.cuda.is_available():
        moments["cuda_rng"] = torch.cuda.get_rng_state()
    _save_tensors(moments, tmp / "optimizer.safetensors")
    state = {"step": step, "best": best, "epoch": epoch, "done_in_epoch": done_in_epoch,
             "python_rng": repr(random.getstate())}  # fmt: skip
    write_json(tmp / STATE, state)
    final = out / f"checkpoint-{step}"
    shutil.rmtree(final, ignore_errors=True)
    os.replace(tmp, final)
    for old in sorted(out.glob("checkpoint-*"), key=_step_of)[: -config.keep_checkpoints]:
        shutil.rmtree(old, ignore_errors=True)


def _load_checkpoint(ckpt: Path, model, optimizer, trainable):
    from safetensors.torch import load_file

    state = load_file(ckpt / "trainable.safetensors")
    state.pop("vocab_ids", None)
    model.load_trainable(state, str(ckpt / "trainable.safetensors"))
    moments = load_file(ckpt / "optimizer.safetensors")
    for k, p in enumerate(trainable):
        if f"{k}.exp_avg" in moments:
            optimizer.state[p] = {
                "step": moments[f"{k}.step"].reshape(()),
                "exp_avg": moments[f"{k}.exp_avg"].to(p.device, p.dtype),
                "exp_avg_sq": moments[f"{k}.exp_avg_sq"].to(p.device, p.dtype),
            }
    torch.set_rng_state(moments["torch_rng"])
    if "cuda_rng" in moments and torch.cuda.is_available():
        torch.cuda.set_rng_state(moments["cuda_rng"])
    state = json.loads((ckpt / STATE).read_text(encoding="utf-8"))
    return state["step"], state["best"], state["epoch"], state["done_in_epoch"]


def _base_identity(base_folder: str) -> str:
    """What identifies the base: a named base's record (it holds the GGUF file's SHA-256, which the cache
    folder is made from) rather than the de-quantized folder, whose tokenizer files another transformers
    version may write differently; a local folder by its content."""
    record = Path(base_folder, "paraguide_base.json")
    return os.fspath(record) if record.is_file() else base_folder


def export_checkpoint(checkpoint: str | os.PathLike, out: str | os.PathLike) -> None:
    """Write a checkpoint's adapter as an adapter folder (fp16), e.g. to read a run's outputs while it trains."""
    from safetensors.torch import load_file

    checkpoint = Path(checkpoint)
    _export(load_file(checkpoint / "trainable.safetensors"), checkpoint / "config.json", Path(out))


def export_best(run: str | os.PathLike, out: str | os.PathLike) -> None:
    """Write a run's best adapter so far (``best.safetensors``, the lowest held-out loss: every trained
    tensor but the output vocabulary) as an adapter folder, with its latest checkpoint's vocabulary and
    config (the same for every checkpoint of a run)."""
    from safetensors.torch import load_file

    from paraguide.errors import DataError

    run = Path(run)
    checkpoint = _latest_checkpoint(run)
    if checkpoint is None or not (run / "best.safetensors").is_file():
        raise DataError(
            str(run), "no best.safetensors and checkpoint: not a paraguide train-causal run folder"
        )
    state = load_file(checkpoint / "trainable.safetensors")
    state.update(load_file(run / "best.safetensors"))
    _export(state, checkpoint / "config.json", Path(out))


def _export(state: dict[str, torch.Tensor], config: Path, out: Path) -> None:
    vocab = state.pop("vocab_ids")
    out.mkdir(parents=True, exist_ok=True)
    adapter = {k: v.to(torch.float16) for k, v in state.items()}
    adapter["vocab_ids"] = vocab
    _save_tensors(adapter, out / "adapter.safetensors")
    shutil.copy(config, out / "config.json")


def _step_of(path: Path) -> int:
    try:
        return int(path.name.split("-")[-1])
    except ValueError:
        return -1


def _latest_checkpoint(out: Path) -> Path | None:
    found = [p for p in out.glob("checkpoint-*") if (p / STATE).is_file()]
    return max(found, key=_step_of) if found else None


def _metrics_until(path: Path, step: int) -> None:
    if not path.exists():
        return
    kept = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line and json.loads(line)["step"] <= step
    ]
    path.write_text("".join(line + "\n" for line in kept), encoding="utf-8")


def _default_heldout(train_file: str) -> str:
    for suffix in (".jsonl.gz", ".jsonl"):
        if train_file.endswith(suffix):
            return train_file[: -len(suffix)] + ".heldout" + suffix
    return train_file + ".heldout.jsonl"


def model_card(config: CausalTrainConfig, base_folder: str, final: dict) -> str:
    info = base_info(base_folder)
    licence = info.get("licence", "the base model's own licence")
    device = "a GPU" if torch.cuda.is_available() else f"{os.cpu_count()} CPU cores"
    return f"""# paraguide suggestion-guided paraphraser adapter ({config.backbone})

LoRA adapters (r {config.lora_r}, alpha {config.lora_alpha}, all attention and MLP projections) and a
pointer-generator copy head{"" if config.use_copy else " (switched off)"} over the base causal LM
`{config.backbone}`{f" (GGUF SHA-256 {info['gguf_sha256']})" if info.get("gguf_sha256") else ""}, trained by
`paraguide train` on {device}: {final["step"]} steps of {config.batch_size} {"preference pairs (DPO)" if config.objective == "dpo" else "examples"}; best held-out loss
{(final.get("best") or {}).get("heldout_loss")} at step {(final.get("best") or {}).get("step")}.

Input: a prompt holding the suggestion, the phrase it replaces (when known) and the question; output: a
paraphrase of the question that uses the suggestion. Load with
`paraguide.Paraphraser.from_pretrained(this_folder)`; the base weights come from the
`{info.get("package", config.backbone)}` package (installed separately, checked by hash).

## Terms

This adapter is a derivative of the base model and is distributed under its terms: {licence}.
"""


def steps_per_epoch(n: int, batch_size: int) -> int:
    return math.ceil(n / batch_size)
