"""Fluency of a paraphrase *relative to its original*, from a small language model of questions.

A reader rejects "who built the tower of her erected the hercules?" at once; a similarity scorer barely
notices (the words are all there). So a candidate is scored by SLOR (:meth:`QuestionLM.slor`) minus its
original's SLOR: 0 reads as well as the question it came from, a garbled candidate falls well below.
Training and the filter's calibrated threshold: docs/score.md and ``data_prep/train_fluency.py``.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from paraguide.arguments import pairs as checked_pairs
from paraguide.text.pieces import train_sentencepiece

BUNDLED = Path(__file__).resolve().parents[1] / "models"


@dataclass
class FluencyConfig:
    """The question LM's shape and training settings (saved as its ``config.json``)."""

    vocab_size: int = 8000
    lowercase: bool = True  # the bundled paraphrasers write lower case: score both sides the same way
    n_layer: int = 4
    n_embd: int = 256
    n_head: int = 4
    max_tokens: int = 64  # longer questions are cut (they are rare; the score is per token)
    dropout: float = 0.1
    batch_size: int = 128
    epochs: int = 3
    lr: float = 1e-3
    warmup: int = 200
    patience: int = 2  # evaluations without a better held-out loss before stopping
    eval_every: int = 1000  # steps
    seed: int = 13


class QuestionLM:
    """A causal LM over a SentencePiece vocabulary, with the unigram log-probabilities SLOR needs: a
    GPT-2-shaped transformers model of a few MB, with its own vocabulary and unigram table."""

    def __init__(self, model, processor, unigram, config: FluencyConfig):
        self.model, self.sp, self.unigram, self.config = model.eval(), processor, unigram, config

    @classmethod
    def from_pretrained(cls, path: str | os.PathLike) -> QuestionLM:
        """Load an LM saved by :meth:`save_pretrained` from a local folder."""
        import sentencepiece as spm
        import torch
        from safetensors.torch import load_file

        path = Path(path)
        if not (path / "model.safetensors").is_file():
            raise FileNotFoundError(f"no fluency LM at {path} (model.safetensors, config.json, spiece.model)")
        config = FluencyConfig(**json.loads((path / "config.json").read_text(encoding="utf-8")))
        weights = {k: v.float() for k, v in load_file(path / "model.safetensors").items()}
        unigram = weights.pop("unigram.logp")
        model = _build(config, len(unigram))
        model.load_state_dict(weights, strict=False)  # the tied output matrix is the embedding
        model.tie_weights()
        processor = spm.SentencePieceProcessor(model_file=str(path / "spiece.model"))
        return cls(model.to(torch.float32), processor, unigram, config)

    def save_pretrained(self, path: str | os.PathLike) -> None:
        """Save to a folder: ``model.safetensors`` (fp16 weights, and the unigram table as ``unigram.logp``),
        ``config.json`` and ``spiece.model``."""
        import torch
        from safetensors.torch import save_file

        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        state = {
            k: v.detach().to(torch.float16).contiguous()
            for k, v in self.model.state_dict().items()
            if k != "lm_head.weight"  # tied to the input embedding
        }
        state["unigram.logp"] = self.unigram.float().contiguous()  # float32: sums of many of them
        save_file(state, path / "model.safetensors")
        (path / "config.json").write_text(json.dumps(asdict(self.config), indent=2) + "\n", encoding="utf-8")
        with open(path / "spiece.model", "wb") as f:
            f.write(self.sp.serialized_model_proto())

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of each text, ``</s>`` appended (the LM judges where a question ends, too)."""
        texts = [t.strip().lower() if self.config.lowercase else t.strip() for t in texts]
        eos = self.sp.eos_id()
        return [ids[: self.config.max_tokens - 1] + [eos] for ids in self.sp.encode(texts)]

    def log_probs(self, texts: Sequence[str], batch_size: int = 256) -> list[tuple[float, float, int]]:
        """Per text: (log P_LM, log P_unigram, tokens), log P_LM of the first token conditioned on ``</s>``
        as a start symbol."""
        import torch

        ids = self.ids(texts)
        out: list[tuple[float, float, int]] = [(0.0, 0.0, 0)] * len(ids)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        eos = self.sp.eos_id()
        with torch.no_grad():
            for s in range(0, len(order), batch_size):
                idx = order[s : s + batch_size]
                x, mask = _pad([ids[i] for i in idx], eos)
                lm, uni = _scored(self.model, self.unigram, x, mask)
                for row, i in enumerate(idx):
                    out[i] = (float(lm[row]), float(uni[row]), len(ids[i]))
        return out

    def slor(self, texts: Sequence[str]) -> list[float]:
        """SLOR per text (Pauls & Klein 2012; Kann et al. 2018): (log P_LM(s) - log P_unigram(s)) / |s|, per
        token, ``</s>`` included. Subtracting what the words' own frequency explains keeps rare words and
        long questions, which are not disfluent, from reading as such."""
        return [(lm - uni) / n for lm, uni, n in self.log_probs(texts)]

    def mean_log_prob(self, texts: Sequence[str]) -> list[float]:
        """log P_LM per token of each text: the plain measure, which SLOR improves on."""
        return [lm / n for lm, _, n in self.log_probs(texts)]

    def total_log_prob(self, texts: Sequence[str]) -> list[float]:
        """log P_LM of each whole text: comparing two texts that differ in one word, the difference is how
        much less likely the LM finds that word and what follows it -- not spread over the question's length
        as a per-token mean is."""
        return [lm for lm, _, _ in self.log_probs(texts)]


class PretrainedLM:
    """SLOR under a pretrained causal LM (Gemma 3 270M, the pretrained paraphraser's base), with a unigram
    table of its tokens counted on questions of one language. The folder holds only ``config.json`` (the
    base's name, the language) and ``unigram.safetensors``; the base comes from its package, as the
    paraphraser's does (:func:`paraguide.model.pretrained.resolve_base`)."""

    kind = "pretrained-lm"

    def __init__(self, model, tokenizer, unigram, config: dict):
        self.model, self.tokenizer, self.unigram, self.config = model.eval(), tokenizer, unigram, config

    @classmethod
    def from_pretrained(cls, path: str | os.PathLike, dtype: str = "float32") -> PretrainedLM:
        """``dtype`` as the paraphraser's (:func:`~paraguide.model.paraphraser.resolve_dtype`): bfloat16
        scores twice as fast on a CPU that multiplies in it natively, each text's mean log-probability within
        0.01 of float32's (median; 0.06 at most on 200 SQuAD questions, against a spread of 1.1;
        benchmarks/inference_precision.py)."""
        import torch
        from safetensors.torch import load_file
        from transformers import AutoModelForCausalLM

        from paraguide.model.paraphraser import resolve_dtype
        from paraguide.model.pretrained import base_tokenizer, resolve_base

        path = Path(path)
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        base = resolve_base(config["base"])
        model = AutoModelForCausalLM.from_pretrained(
            base, dtype=torch.float32, local_files_only=True, trust_remote_code=False, use_safetensors=True
        )
        # cast after loading: loading straight in bfloat16 scores slightly differently (the builds measured
        # and read were made this way)
        model = model.to(resolve_dtype(dtype, torch.device("cpu")))
        tokenizer = base_tokenizer(base)
        unigram = load_file(path / "unigram.safetensors")["unigram.logp"].float()
        return cls(model, tokenizer, unigram, config)

    @staticmethod
    def save_unigram(path: str | os.PathLike, counts: np.ndarray, base: str, lang: str, source: str) -> None:
        """Write a folder from token counts (add-one smoothed log-probabilities)."""
        import torch
        from safetensors.torch import save_file

        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        logp = np.log((counts + 1.0) / (counts.sum() + len(counts)))
        save_file({"unigram.logp": torch.from_numpy(logp.astype(np.float32))}, path / "unigram.safetensors")
        config = {"type": PretrainedLM.kind, "base": base, "lang": lang, "max_tokens": 64,
                  "unigram_counted_on": source, "unigram_tokens": int(counts.sum())}  # fmt: skip
        (path / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        """BOS, the text's tokens, EOS (the LM judges where a question ends, too)."""
        tok, cap = self.tokenizer, self.config.get("max_tokens", 64)
        return [[tok.bos_token_id, *ids[: cap - 2], tok.eos_token_id]
                for ids in tok([t.strip() for t in texts], add_special_tokens=False)["input_ids"]]  # fmt: skip

    def log_probs(self, texts: Sequence[str], batch_size: int = 16) -> list[tuple[float, float, int]]:
        """Per text: (log P_LM, log P_unigram, tokens) of every token after BOS (EOS included)."""
        import torch

        ids = self.ids(texts)
        out: list[tuple[float, float, int]] = [(0.0, 0.0, 0)] * len(ids)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        pad = self.tokenizer.pad_token_id or 0
        with torch.no_grad():
            for s in range(0, len(order), batch_size):
                idx = order[s : s + batch_size]
                rows = [ids[i] for i in idx]
                width = max(map(len, rows))
                x = torch.full((len(rows), width), pad)
                mask = torch.zeros((len(rows), width), dtype=torch.long)
                for r, row in enumerate(rows):  # BOS first already: right-padded, no start symbol added
                    x[r, : len(row)], mask[r, : len(row)] = torch.tensor(row), 1
                lm, uni = _scored(self.model, self.unigram, x, mask)
                for r, i in enumerate(idx):
                    out[i] = (float(lm[r]), float(uni[r]), len(ids[i]) - 1)
        return out

    slor = QuestionLM.slor
    mean_log_prob = QuestionLM.mean_log_prob
    total_log_prob = QuestionLM.total_log_prob


def load_lm(path: str | os.PathLike, dtype: str = "float32") -> QuestionLM | PretrainedLM:
    """The LM of a fluency folder: a bundled question LM, or a pretrained LM's unigram folder (run in
    ``dtype``; the question LMs are small and always run in float32)."""
    try:
        kind = json.loads(Path(path, "config.json").read_text(encoding="utf-8")).get("type")
    except (OSError, ValueError):
        kind = None
    return (
        PretrainedLM.from_pretrained(path, dtype)
        if kind == PretrainedLM.kind
        else QuestionLM.from_pretrained(path)
    )


def _build(config: FluencyConfig, vocab_size: int):
    from transformers import GPT2Config, GPT2LMHeadModel

    gpt = GPT2Config(
        vocab_size=vocab_size,
        n_positions=config.max_tokens + 1,
        n_embd=config.n_embd,
        n_layer=config.n_layer,
        n_head=config.n_head,
        resid_pdrop=config.dropout,
        embd_pdrop=config.dropout,
        attn_pdrop=config.dropout,
        tie_word_embeddings=True,
        bos_token_id=1,  # SentencePiece's </s>, also the start symbol
        eos_token_id=1,
        pad_token_id=0,
        loss_type="ForCausalLM",
    )
    return GPT2LMHeadModel(gpt)


MEASURES = ("slor", "logprob", "total")


class FluencyScorer:
    """``FluencyScorer(path).score(pairs)``: SLOR(b) - SLOR(a) per pair (``measure="slor"``), the
    difference of mean log-probabilities per token (``measure="logprob"``) or of whole log-probabilities
    (``measure="total"``: the swap fluency check's). Each distinct text is scored once per call (a test set
    compares one original with several candidates). ``lm``: that LM already loaded (one copy in memory
    where two scorers read the same folder)."""

    name = "fluency"

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        lang: str = "en",
        measure: str | None = None,
        dtype: str = "float32",
        lm: QuestionLM | PretrainedLM | None = None,
    ):
        if measure not in (None, *MEASURES):
            raise ValueError(f"unknown fluency measure {measure!r}; choose {', '.join(MEASURES)}")
        self.files = (Path(path or bundled_fluency_path(lang)),)
        # dtype: a pretrained LM's (PretrainedLM.from_pretrained)
        self.lm = lm if lm is not None else load_lm(self.files[0], dtype)
        # The folder's own choice where it made one (a pretrained LM's mean log-probability ranks better than
        # its SLOR: data_prep/gemma_fluency.py), else SLOR.
        preferred = self.lm.config.get("measure") if isinstance(self.lm, PretrainedLM) else None
        self.measure = measure or preferred or "slor"

    def threshold(self, use: str = "testset") -> float | None:
        """The folder's calibrated threshold for a use (``calibration.json`` beside the LM), or None."""
        try:
            report = json.loads((self.files[0] / "calibration.json").read_text(encoding="utf-8"))
            return float(report["measures"][self.measure][use]["threshold"])
        except (OSError, ValueError, KeyError):
            return None

    def fluency(self, texts: Sequence[str]) -> list[float]:
        """The absolute score of each text (SLOR, mean log-probability per token or log-probability)."""
        distinct = list(dict.fromkeys(texts))
        measure = {"slor": self.lm.slor, "logprob": self.lm.mean_log_prob, "total": self.lm.total_log_prob}
        values = measure[self.measure](distinct)
        table = dict(zip(distinct, values, strict=True))
        return [table[t] for t in texts]

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """``fluency(b) - fluency(a)`` per pair: 0 reads as well as the original, negative reads worse."""
        pairs = checked_pairs(pairs)
        if not pairs:
            return []
        values = self.fluency([t for pair in pairs for t in pair])
        return [b - a for a, b in zip(values[0::2], values[1::2], strict=True)]


def lm_path(spec: str | os.PathLike) -> str:
    """A fluency LM's folder: ``spec`` itself where it exists, else the bundled LM of that name
    (``lm-gemma-en`` -> ``paraguide/models/lm-gemma-en``); an error naming both where neither holds one."""
    path = os.fspath(spec)
    if Path(path, "config.json").is_file():
        return path
    named = BUNDLED / path
    if os.sep not in path and (named / "config.json").is_file():
        return str(named)
    raise FileNotFoundError(f"no fluency LM at {path!r} (a folder with config.json, or a bundled name such as "
                            f"lm-gemma-en: {', '.join(sorted(p.name for p in BUNDLED.glob('lm-*')))})")  # fmt: skip


def bundled_fluency_path(lang: str = "en") -> str:
    """The bundled question LM of a language (``paraguide/models/lm-<lang>``)."""
    path = BUNDLED / f"lm-{lang}"
    if not (path / "model.safetensors").is_file():
        raise FileNotFoundError(f"no bundled fluency LM for {lang!r}; pass fluency:FOLDER")
    return str(path)


# ---- training ------------------------------------------------------------------------------------------


def train_fluency_lm(
    texts: Iterable[str],
    out_dir: str | os.PathLike,
    config: FluencyConfig | None = None,
    heldout: Sequence[str] = (),
    log=None,
) -> tuple[QuestionLM, list[dict]]:
    """Train a question LM on ``texts`` (early stopping on ``heldout``'s loss when given; the best
    evaluation's weights are kept) and save it in ``out_dir``. Returns the LM and its curve (one dict per
    evaluation: step, epoch, train loss, held-out loss, seconds)."""
    import torch
    from tqdm.auto import tqdm

    config = config or FluencyConfig()
    case = str.lower if config.lowercase else str
    texts = [case(t.strip()) for t in texts if t and t.strip()]
    if len(texts) < 2:
        raise ValueError("a fluency LM needs at least 2 non-empty training texts")
    rng = random.Random(config.seed)
    torch.manual_seed(config.seed)
    # </s> (id 1) ends every text and doubles as the start symbol; no BOS.
    processor = train_sentencepiece(texts, config.vocab_size, pad_id=0, eos_id=1, unk_id=2, bos_id=-1)
    vocab = processor.get_piece_size()
    lm = QuestionLM(_build(config, vocab), processor, torch.zeros(vocab), config)
    train_ids = lm.ids(texts)
    counts = np.bincount([i for x in train_ids for i in x], minlength=vocab).astype(np.float64) + 1.0
    lm.unigram = torch.tensor(np.log(counts / counts.sum()), dtype=torch.float32)  # add-one smoothed
    held_ids = lm.ids([t for t in heldout if t.strip()])  # ids() lower-cases as the config says

    model = lm.model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.01)
    batches = _length_batches(train_ids, config.batch_size)
    total = config.epochs * len(batches)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min(1.0, (s + 1) / config.warmup) * max(0.05, 1 - s / max(1, total)),
    )
    curve: list[dict] = []
    best, best_state, waited, step, running = math.inf, None, 0, 0, []
    start = time.time()
    bar = tqdm(total=total, desc="train fluency LM", unit="step", disable=None)
    stop = False
    for _ in range(config.epochs):
        rng.shuffle(batches)
        for batch in batches:
            x, mask = _pad([train_ids[i] for i in batch], processor.eos_id())
            labels = x.masked_fill(mask == 0, -100)
            labels[:, 0] = -100  # the start symbol is given, not predicted
            loss = model(input_ids=x, attention_mask=mask, labels=labels).loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            step += 1
            running.append(loss.item())
            bar.update(1)
            if step % 50 == 0:
                bar.set_postfix(loss=f"{np.mean(running[-50:]):.3f}")
            if held_ids and (step % config.eval_every == 0 or step == total):
                point = {
                    "step": step,
                    "epoch": round(step / len(batches), 3),
                    "train_loss": round(float(np.mean(running[-config.eval_every :])), 4),
                    "heldout_loss": round(_loss(model, held_ids, processor.eos_id()), 4),
                    "seconds": round(time.time() - start, 1),
                }
                curve.append(point)
                if log:
                    log(point)
                if point["heldout_loss"] < best - 1e-4:
                    best, waited = point["heldout_loss"], 0
                    best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
                else:
                    waited += 1
                    if waited >= config.patience:
                        stop = True
                        break
        if stop:
            break
    bar.close()
    if best_state is not None:
        model.load_state_dict(best_state)
    lm.model = model.eval()
    lm.save_pretrained(out_dir)
    return lm, curve


def _length_batches(ids: list[list[int]], size: int) -> list[list[int]]:
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    return [order[s : s + size] for s in range(0, len(order), size)]


def _scored(model, unigram, x, mask):
    """(log P_LM, log P_unigram) of each row's tokens after its first, the padding (mask 0) left out."""
    import torch

    logits = model(input_ids=x, attention_mask=mask).logits[:, :-1].float()
    target = x[:, 1:]
    lp = torch.log_softmax(logits, -1).gather(-1, target.unsqueeze(-1)).squeeze(-1)
    valid = mask[:, 1:].bool()
    return (lp * valid).sum(-1), (unigram[target] * valid).sum(-1)


def _pad(rows: list[list[int]], eos: int):
    import torch

    width = max(len(r) for r in rows) + 1
    x = torch.full((len(rows), width), eos, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        x[i, 1 : len(r) + 1] = torch.tensor(r)
        mask[i, : len(r) + 1] = 1
    return x, mask


def _loss(model, ids: list[list[int]], eos: int, batch_size: int = 512) -> float:
    """Mean token loss over ``ids`` (eval mode, no gradients)."""
    import torch

    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for batch in _length_batches(ids, batch_size):
            x, mask = _pad([ids[i] for i in batch], eos)
            logits = model(input_ids=x, attention_mask=mask).logits[:, :-1]
            target = x[:, 1:]
            valid = mask[:, 1:].bool()
            losses = torch.nn.functional.cross_entropy(
                logits.reshape(-1, logits.size(-1)), target.reshape(-1), reduction="none"
            ).view_as(target)
            total += float(losses[valid].sum())
            count += int(valid.sum())
    model.train()
    return total / max(1, count)
