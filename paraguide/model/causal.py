"""The decoder-only paraphraser: a pretrained causal LM (Gemma 3 270M by default) with LoRA adapters and a
pointer-generator copy head, reading a prompt that holds the suggestion, the phrase it replaces and the
question, and writing the paraphrase after it.

Why a copy head on a pretrained LM: the LM writes fluent text but drops or bends names, numbers and rare
words; the pointer (See et al. 2017) lets it take them from the question at no cost::

    a_t   = softmax(q(h_t) · k(h_j) / sqrt(d))   over the prompt's suggestion and question tokens j
    c_t   = sum_j a_tj h_j
    p_gen = sigmoid(w · [h_t; c_t] + b)
    P(w)  = p_gen P_vocab(w) + (1 - p_gen) sum_{j: x_j = w} a_tj

Why a restricted output layer: Gemma's vocabulary has 262k rows, most of them scripts and code that no
question paraphrase uses; the softmax runs over the tokens the training corpus holds (plus, at use time,
the input's own tokens), 11x fewer rows on the mixed corpus, which is most of a step's cost on a CPU.

Adapters are what paraguide saves (LoRA + copy head + the output vocabulary, fp16 safetensors); the base
comes from :mod:`paraguide.model.pretrained`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from paraguide.errors import DataError

MODEL_TYPE = "paraguide-causal-copy"
ADAPTER_FILE = "adapter.safetensors"


@dataclass
class CausalConfig:
    """What an adapter folder's ``config.json`` records: the base it sits on and how it reads its input."""

    base: str = "gemma-3-270m"  # a named base or a folder
    base_sha256: str | None = None  # the named base's GGUF hash, when known
    lora_r: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.05
    lora_targets: list[str] = field(
        default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    )
    use_copy: bool = True
    # The control code generation asks for (an adapter trained on control-coded pairs, see control_code);
    # None: the prompt carries none, as for adapters trained without them.
    control: str | None = None
    max_prompt_tokens: int = 96
    max_target_tokens: int = 64
    model_type: str = MODEL_TYPE

    def save(self, folder: str | os.PathLike) -> None:
        Path(folder, "config.json").write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, folder: str | os.PathLike) -> CausalConfig:
        path = Path(folder, "config.json")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise DataError(str(path), f"unreadable adapter config: {e}") from None
        if data.get("model_type") != MODEL_TYPE:
            raise DataError(str(path), f"model_type {data.get('model_type')!r} is not {MODEL_TYPE!r}")
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(data) - known)
        if unknown:
            raise DataError(str(path), f"unknown config keys: {', '.join(unknown)}")
        return cls(**data)


def is_causal_folder(folder: str | os.PathLike) -> bool:
    """An adapter folder written by the causal paraphraser's training."""
    try:
        return (
            json.loads(Path(folder, "config.json").read_text(encoding="utf-8")).get("model_type")
            == MODEL_TYPE
        )
    except (OSError, ValueError, AttributeError):
        return False


# --- the prompt ---------------------------------------------------------------------------------------

# One template for both languages (the base is multilingual), as short as it can be: every prompt token
# is paid for at every training step. Each field follows ": " so that its words are tokenized with their
# leading space, as they are in the paraphrase: the same token ids, which is what copying needs.


# Control codes (after QCPG, Bandel et al. 2022). The training pairs mix faithful rewrites with ones that
# drop a constraint, and one-word edits with deep ones; a model trained on all of them writes their average
# -- a rewrite that loses content, or a copy. Each training pair is labelled with what it does, and
# generation asks for the kind wanted ("faithful, large"), which the pairs rarely are together.
DEPTHS = ((0.2, "small"), (0.4, "medium"), (float("inf"), "large"))


def control_code(faithful: bool, edit: float) -> str:
    """The control code of a pair: whether it keeps every content and scope word both ways, and how far
    its target is from its source (token edit rate: under 0.2 small, under 0.4 medium, else large)."""
    depth = next(name for limit, name in DEPTHS if edit < limit)
    return f"{'faithful' if faithful else 'loose'}, {depth}"


def prompt_pieces(
    question: str, suggestion: str | None = None, matched: str | None = None, control: str | None = None
):
    """The prompt as (text, copyable) pieces: the suggestion and the question may be copied, the template
    and the control code may not."""
    pieces = [("Style: " + control + "\n", False)] if control else []
    if suggestion:
        pieces += [("Use:", False), (" " + suggestion, True), ("\n", False)]
        if matched:
            pieces += [("Instead of:", False), (" " + matched, True), ("\n", False)]
    pieces += [("Question:", False), (" " + question, True), ("\nParaphrase:", False)]
    return pieces


def encode_prompt(
    tokenizer, question: str, suggestion=None, matched=None, max_tokens: int = 96, control=None
):
    """(ids, copyable) of a prompt, with the tokenizer's BOS first. A question too long for ``max_tokens``
    is cut at its end (the template stays whole)."""
    ids, copy = [], []
    if tokenizer.bos_token_id is not None:
        ids.append(tokenizer.bos_token_id)
        copy.append(0)
    pieces = prompt_pieces(question, suggestion, matched, control)
    encoded = [tokenizer.encode(t, add_special_tokens=False) for t, _ in pieces]
    overflow = len(ids) + sum(map(len, encoded)) - max_tokens
    if overflow > 0:
        q = len(pieces) - 2  # the question's piece
        encoded[q] = encoded[q][: max(1, len(encoded[q]) - overflow)]
    for (_, c), e in zip(pieces, encoded, strict=True):
        ids += e
        copy += [int(c)] * len(e)
    return ids, copy


def encode_target(tokenizer, text: str, max_tokens: int = 64) -> list[int]:
    """The paraphrase's ids (leading space, as after "Paraphrase:"), ending with EOS."""
    return tokenizer.encode(" " + text, add_special_tokens=False)[: max_tokens - 1] + [tokenizer.eos_token_id]


# --- the model ----------------------------------------------------------------------------------------


class CausalCopyModel(nn.Module):
    """A causal LM (peft-wrapped with LoRA) + copy head + an output layer restricted to ``vocab_ids``."""

    def __init__(self, lm, config: CausalConfig, vocab_ids: torch.Tensor):
        super().__init__()
        self.lm = lm
        self.config = config
        d = self.decoder.config.hidden_size
        self.copy_query = nn.Linear(d, d, bias=False)
        self.copy_key = nn.Linear(d, d, bias=False)
        self.p_gen = nn.Linear(2 * d, 1)
        for m in (self.copy_query, self.copy_key, self.p_gen):
            nn.init.xavier_uniform_(m.weight)
        # Start by mostly generating: the pretrained LM's distribution is the better guess at first.
        nn.init.constant_(self.p_gen.bias, 2.0)
        self.register_buffer("vocab_ids", torch.as_tensor(sorted(set(vocab_ids.tolist())), dtype=torch.long))

    @property
    def decoder(self):
        """The base's transformer body (embeddings, layers, final norm), under peft's wrapper."""
        base = self.lm.get_base_model() if hasattr(self.lm, "get_base_model") else self.lm
        return base.model

    def output_rows(self, extra: torch.Tensor | None = None) -> torch.Tensor:
        """The sorted token ids the output layer scores: the training vocabulary, plus ``extra`` (a batch's
        input ids, so that a word never seen in training can still be copied or written)."""
        if extra is None:
            return self.vocab_ids
        return torch.unique(torch.cat([self.vocab_ids, extra.flatten()]))

    def hidden(self, input_ids, attention_mask, past_key_values=None, position_ids=None, use_cache=False):
        """Last-layer states (after the final norm) and the KV cache."""
        import inspect

        decoder = self.decoder
        # transformers >= 5.24 names the cache argument "cache" (past_key_values is deprecated there).
        name = "cache" if "cache" in inspect.signature(decoder.forward).parameters else "past_key_values"
        extra = {name: past_key_values} if past_key_values is not None else {}
        out = decoder(
            input_ids=input_ids,
            attention_mask=attention_mask,
            position_ids=position_ids,
            use_cache=use_cache,
            **extra,
        )
        cache = getattr(out, "cache", None) or getattr(out, "past_key_values", None)
        return out.last_hidden_state, cache

    def vocab_logits(
        self, h: torch.Tensor, rows: torch.Tensor, head: torch.Tensor | None = None
    ) -> torch.Tensor:
        """Logits over ``rows`` only (the tied embedding matrix's rows), with the base's soft-capping.
        ``head``: those rows, gathered once by a caller that scores them at every step (beam search)."""
        weight = self.decoder.embed_tokens.weight[rows] if head is None else head
        logits = (h @ weight.T.to(h.dtype)).float()
        cap = getattr(self.decoder.config, "final_logit_softcapping", None)
        if cap:
            logits = torch.tanh(logits / cap) * cap
        return logits

    def copy_attention(self, h_query, keys, values, copy_mask):
        """Copy attention (…, T, S) of queries over the copyable prompt positions, and the gate's logit."""
        scores = self.copy_query(h_query) @ keys.transpose(-1, -2) / math.sqrt(keys.size(-1))
        scores = scores.float().masked_fill(copy_mask[..., None, :] == 0, -1e9)
        attn = scores.softmax(-1)
        context = attn.to(values.dtype) @ values
        gate = self.p_gen(torch.cat([h_query, context], -1)).float()
        return attn, gate

    def loss(self, batch: dict, per_example: bool = False, rows: torch.Tensor | None = None) -> torch.Tensor:
        """Mean negative log-likelihood of the target tokens. ``batch``: ``input_ids`` (B, T) = prompt +
        target, right-padded; ``attention_mask``; ``labels`` (B, T): the next token at each position that
        predicts a target token, else -100; ``copy_mask`` (B, T): copyable prompt positions.
        ``per_example``: (B,) each row's mean over its own target tokens instead. ``rows``: the output
        layer's rows (default: the training vocabulary; :meth:`output_rows` to score any text)."""
        h, _ = self.hidden(batch["input_ids"], batch["attention_mask"])
        labels = batch["labels"]
        at = labels != -100  # (B, T): positions that predict a target token
        rows = self.vocab_ids if rows is None else rows
        target = labels[at]  # (N,)
        target_col = torch.searchsorted(rows, target)
        if not torch.equal(rows[target_col.clamp_max(len(rows) - 1)], target):
            raise ValueError("a target token is outside the output vocabulary")
        log_vocab = F.log_softmax(self.vocab_logits(h[at], rows), -1)
        log_gen = log_vocab.gather(-1, target_col[:, None]).squeeze(-1)
        if not self.config.use_copy:
            return _reduce(-log_gen, at, per_example)
        keys = self.copy_key(h)
        attn, gate = self.copy_attention(h, keys, h, batch["copy_mask"])  # (B, T, T), (B, T, 1)
        attn, gate = attn[at], gate[at].squeeze(-1)  # (N, T), (N,)
        source = batch["input_ids"][at.nonzero()[:, 0]]  # (N, T): each target position's own row
        copy_mass = (attn * (source == target[:, None])).sum(-1)
        log_p = torch.logaddexp(
            F.logsigmoid(gate) + log_gen, F.logsigmoid(-gate) + copy_mass.clamp_min(1e-30).log()
        )
        return _reduce(-log_p, at, per_example)

    def step_log_probs(self, h_t, keys, values, copy_mask, source_cols, rows, allowed=None, head=None):
        """log P over ``rows`` for the next token: ``h_t`` (R, d) the last states, ``keys``/``values``
        (R, S, d) and ``copy_mask`` (R, S) of each row's prompt, ``source_cols`` (R, S) the prompt tokens'
        columns in ``rows``; ``allowed`` (R, V), when given: the columns each row may write (the others
        get -inf: another sentence's tokens, in a batch)."""
        logits = self.vocab_logits(h_t, rows, head)
        if allowed is not None:
            logits = logits.masked_fill(~allowed, -torch.inf)
        log_vocab = F.log_softmax(logits, -1)
        if not self.config.use_copy:
            return log_vocab
        attn, gate = self.copy_attention(h_t[:, None], keys, values, copy_mask)
        attn, gate = attn[:, 0], gate[:, 0]  # (R, S), (R, 1)
        copy = torch.zeros_like(log_vocab).scatter_add_(-1, source_cols, attn * copy_mask)
        log_p = torch.logaddexp(
            F.logsigmoid(gate) + log_vocab, F.logsigmoid(-gate) + copy.clamp_min(1e-30).log()
        )
        return log_p if allowed is None else log_p.masked_fill(~allowed, -torch.inf)

    # --- saving: the adapter only ---------------------------------------------------------------------

    def adapter_state(self) -> dict[str, torch.Tensor]:
        """The trained tensors (LoRA, copy head) and the output vocabulary, fp16 where floating."""
        from peft import get_peft_model_state_dict

        state = {f"lora.{k}": v for k, v in get_peft_model_state_dict(self.lm).items()}
        for name in ("copy_query", "copy_key", "p_gen"):
            for k, v in getattr(self, name).state_dict().items():
                state[f"{name}.{k}"] = v
        state = {k: v.detach().to(torch.float16).contiguous() for k, v in state.items()}
        state["vocab_ids"] = self.vocab_ids.to(torch.int64).contiguous()
        return state

    def trainable_state(self) -> dict[str, torch.Tensor]:
        """The trained tensors in full precision (checkpoints: resuming continues exactly)."""
        from peft import get_peft_model_state_dict

        state = {f"lora.{k}": v for k, v in get_peft_model_state_dict(self.lm).items()}
        for name in ("copy_query", "copy_key", "p_gen"):
            for k, v in getattr(self, name).state_dict().items():
                state[f"{name}.{k}"] = v
        return {k: v.detach().float().contiguous() for k, v in state.items()}

    def load_trainable(self, state: dict[str, torch.Tensor], where: str) -> None:
        """Put saved tensors back (adapter or checkpoint); a missing or unexpected tensor is an error."""
        from peft import set_peft_model_state_dict

        lora = {k[5:]: v for k, v in state.items() if k.startswith("lora.")}
        result = set_peft_model_state_dict(self.lm, lora)
        missing = [k for k in getattr(result, "missing_keys", []) if "lora_" in k]
        unexpected = list(getattr(result, "unexpected_keys", []))
        if missing or unexpected:
            raise DataError(
                where, f"adapter does not fit the base: missing {missing[:3]}, unexpected {unexpected[:3]}"
            )
        for name in ("copy_query", "copy_key", "p_gen"):
            module = getattr(self, name)
            sub = {k[len(name) + 1 :]: v for k, v in state.items() if k.startswith(name + ".")}
            try:
                module.load_state_dict({k: v.float() for k, v in sub.items()})
            except RuntimeError as e:
                raise DataError(where, f"copy head does not fit: {e}") from None


def _reduce(nll: torch.Tensor, at: torch.Tensor, per_example: bool) -> torch.Tensor:
    """The mean of the target positions' NLL, overall or per row (``at``: (B, T), which positions)."""
    if not per_example:
        return nll.mean()
    rows = at.nonzero()[:, 0]
    total = torch.zeros(at.size(0), dtype=nll.dtype, device=nll.device).index_add_(0, rows, nll)
    return total / at.sum(-1).clamp_min(1)


def build(base_folder: str, config: CausalConfig, vocab_ids, dtype=torch.float32) -> CausalCopyModel:
    """Base (frozen) + fresh LoRA adapters + copy head."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained(
        base_folder, dtype=dtype, local_files_only=True, trust_remote_code=False, use_safetensors=True
    )
    if getattr(base.config, "is_encoder_decoder", False):
        raise DataError(base_folder, "not a causal (decoder-only) language model")
    lora = LoraConfig(
        r=config.lora_r,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=list(config.lora_targets),
        bias="none",
    )
    lm = get_peft_model(base, lora)
    return CausalCopyModel(lm, config, torch.as_tensor(vocab_ids, dtype=torch.long))


def load_adapter(folder: str | os.PathLike, dtype=torch.float32) -> tuple[CausalCopyModel, object]:
    """(model, tokenizer) of an adapter folder: its base resolved (and checked by hash), the adapter's
    tensors put on it. A missing or mismatched file is a :class:`DataError` naming it."""
    from safetensors.torch import load_file

    from paraguide.model.pretrained import base_info, base_tokenizer, resolve_base

    folder = os.fspath(folder)
    config = CausalConfig.load(folder)
    adapter = Path(folder, ADAPTER_FILE)
    if not adapter.is_file():
        raise DataError(folder, f"no {ADAPTER_FILE}: not an adapter folder written by paraguide train")
    base_folder = resolve_base(config.base)
    sha = base_info(base_folder).get("gguf_sha256")
    if config.base_sha256 and sha and sha != config.base_sha256:
        raise DataError(folder, f"trained on base {config.base} with SHA-256 {config.base_sha256[:12]}..., "
                        f"but the installed one has {sha[:12]}...")  # fmt: skip
    try:
        state = load_file(adapter)
    except Exception as e:  # safetensors' own errors: a truncated or foreign file
        raise DataError(str(adapter), f"unreadable adapter weights: {e}") from None
    if "vocab_ids" not in state:
        raise DataError(str(adapter), "no vocab_ids tensor: not an adapter written by paraguide train")
    model = build(base_folder, config, state.pop("vocab_ids"), dtype=dtype)
    model.load_trainable(state, str(adapter))
    return model.to(dtype).eval(), base_tokenizer(base_folder)
