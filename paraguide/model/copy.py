"""The paraphraser's model: a seq2seq transformer with a pointer-generator copy head (See et al. 2017), as
in Gan & Ng (2019). The backbone is built from scratch at a named size (:data:`SIZES`, BART-shaped) or
loaded from a local checkpoint (:mod:`paraguide.model.backbone`); :class:`CopyGenerator` puts the copy
head on it. Design and sizes: docs/paraphraser.md.
"""

from __future__ import annotations

import json
import math
import os

import torch
import torch.nn.functional as F
from torch import nn
from transformers import AutoConfig, AutoModelForSeq2SeqLM, GenerationMixin, PretrainedConfig, PreTrainedModel
from transformers.modeling_outputs import Seq2SeqLMOutput

from paraguide.errors import DataError
from paraguide.model.safe_weights import pickle_refusal, pickled_weights


def _shape(d_model: int, layers: int, heads: int, ffn: int) -> dict:
    """BART config entries for an encoder and a decoder of the same shape."""
    return dict(d_model=d_model, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
                decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn)  # fmt: skip


# BART-shaped Transformers trained from scratch. "base" is Vaswani et al.'s base model (d 512, 6+6
# layers, 8 heads, FFN 2048), the paper's setting.
SIZES = {"tiny": _shape(64, 2, 4, 128), "small": _shape(256, 3, 4, 1024), "base": _shape(512, 6, 8, 2048)}
PAD_ID, EOS_ID = 0, 1  # fixed by paraguide.model.tokenizer


def backbone_config(size: str, vocab_size: int, max_length: int = 256, dropout: float = 0.1) -> dict:
    """The config dict of a from-scratch backbone of a named size."""
    if size not in SIZES:
        raise ValueError(f"unknown model size {size!r}; choose one of {', '.join(SIZES)}")
    return dict(
        model_type="bart",
        vocab_size=vocab_size,
        max_position_embeddings=max_length,
        dropout=dropout,
        attention_dropout=dropout,
        activation_function="relu",
        pad_token_id=PAD_ID,
        eos_token_id=EOS_ID,
        bos_token_id=EOS_ID,
        decoder_start_token_id=PAD_ID,
        forced_eos_token_id=None,
        scale_embedding=True,
        **SIZES[size],
    )


def check_model_folder(path: str | os.PathLike) -> str:
    """``path`` if it is a paraphraser folder that loads without unpickling anything (``model.safetensors``
    and a ``config.json`` of model type ``paraguide-copy``), else a :class:`DataError` naming the folder and
    what is wrong -- before torch ever opens a pickled ``pytorch_model.bin``, which can run any code."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise DataError(
            path, "no model folder: the path does not exist (give a folder written by paraguide train)"
        )
    if not os.path.isdir(path):
        raise DataError(path, "not a folder: a model is a folder written by paraguide train")
    if not os.path.isfile(os.path.join(path, "model.safetensors")):
        refusal = pickle_refusal(path)
        if refusal and pickled_weights(path):
            raise DataError(path, refusal)
        raise DataError(path, "no model.safetensors: not a model folder written by paraguide train")
    try:
        with open(os.path.join(path, "config.json"), encoding="utf-8") as f:
            model_type = json.load(f).get("model_type")
    except FileNotFoundError:
        raise DataError(path, "no config.json: not a model folder written by paraguide train") from None
    except (OSError, ValueError, AttributeError) as e:
        raise DataError(os.path.join(path, "config.json"), f"unreadable model config: {e}") from None
    if model_type != CopyConfig.model_type:
        raise DataError(
            path,
            f"not a paraguide paraphraser (config.json model_type {model_type!r}, not "
            f"{CopyConfig.model_type!r}); a pretrained checkpoint is a --backbone of paraguide train",
        )
    return path


class CopyConfig(PretrainedConfig):
    """A :class:`CopyGenerator`'s config: the backbone's config as a dict, whether to copy
    (``use_copy=False`` is the plain backbone, for comparison) and the input format the model was trained
    on (:func:`paraguide.model.tokenizer.model_input`)."""

    model_type = "paraguide-copy"

    def __init__(
        self, backbone: dict | None = None, use_copy: bool = True, input_format: str = "suggestion", **kwargs
    ):
        self.backbone = dict(backbone or backbone_config("tiny", 512))
        self.use_copy = use_copy
        self.input_format = input_format  # paraguide.model.tokenizer.model_input's format
        kwargs.setdefault("pad_token_id", self.backbone.get("pad_token_id", PAD_ID))
        kwargs.setdefault("eos_token_id", self.backbone.get("eos_token_id", EOS_ID))
        kwargs.setdefault("decoder_start_token_id", self.backbone.get("decoder_start_token_id", PAD_ID))
        kwargs["is_encoder_decoder"] = True
        super().__init__(**kwargs)

    def backbone_config(self) -> PretrainedConfig:
        """The backbone's own transformers config, built from the stored dict."""
        cfg = dict(self.backbone)
        return AutoConfig.for_model(cfg.pop("model_type"), **cfg)

    def get_text_config(self, *args, **kwargs) -> PretrainedConfig:
        """The backbone's text config: ``generate`` sizes its key/value cache from it (the backbone's
        decoder is what it caches)."""
        return self.backbone_config().get_text_config(*args, **kwargs)


class CopyGenerator(PreTrainedModel, GenerationMixin):
    """A transformers encoder-decoder (``backbone``, or one built from ``config``) with a copy head::

        a_t   = softmax(q(s_t) · k(h_i) / sqrt(d))     copy attention of decoder state s_t over encoder states
        c_t   = sum_i a_ti h_i                         context vector
        p_gen = sigmoid(w · [s_t; c_t] + b)            generate (1) or copy (0)?
        P(w)  = p_gen P_vocab(w) + (1 - p_gen) sum_{i: x_i = w} a_ti

    A separate single-head attention rather than the backbone's cross-attention: it works the same for every
    backbone, which keeps its fast fused attention (that returns no weights). Source tokens share the output
    vocabulary (byte fallback: no out-of-vocabulary words), so copying scatters the attention onto the
    source ids. The model returns log P(w) as its ``logits``; ``generate``'s log-softmax leaves them
    unchanged, so every decoding mode of ``generate`` works as it is."""

    config_class = CopyConfig
    base_model_prefix = "backbone"
    main_input_name = "input_ids"
    supports_gradient_checkpointing = True
    _supports_cache_class = True

    def __init__(self, config: CopyConfig, backbone: PreTrainedModel | None = None):
        super().__init__(config)
        self.backbone = (
            backbone if backbone is not None else AutoModelForSeq2SeqLM.from_config(config.backbone_config())
        )
        d = hidden_size(self.backbone.config)
        self.copy_query = nn.Linear(d, d, bias=False)
        self.copy_key = nn.Linear(d, d, bias=False)
        self.p_gen = nn.Linear(2 * d, 1)
        self.post_init()

    @classmethod
    def from_pretrained(cls, path, *args, **kwargs) -> CopyGenerator:
        """Load a model saved by ``paraguide train`` (:func:`check_model_folder` first: safetensors only,
        nothing is ever unpickled)."""
        check_model_folder(path)
        kwargs.update(use_safetensors=True, local_files_only=True)
        return super().from_pretrained(os.fspath(path), *args, **kwargs)

    def _init_weights(self, module):  # the backbone initialises its own modules
        if module in (self.copy_query, self.copy_key, self.p_gen):
            nn.init.xavier_uniform_(module.weight)
            if module.bias is not None:
                nn.init.zeros_(module.bias)

    def get_encoder(self):
        """The backbone's encoder (what ``generate`` runs once per input)."""
        return self.backbone.get_encoder()

    def get_input_embeddings(self):
        """The backbone's token embeddings."""
        return self.backbone.get_input_embeddings()

    def forward(
        self,
        input_ids: torch.LongTensor | None = None,
        attention_mask: torch.Tensor | None = None,
        decoder_input_ids: torch.LongTensor | None = None,
        labels: torch.LongTensor | None = None,
        encoder_outputs=None,
        past_key_values=None,
        source_ids: torch.LongTensor | None = None,
        use_cache: bool | None = None,
        label_smoothing: float = 0.0,
        **kwargs,
    ) -> Seq2SeqLMOutput:
        """``source_ids``: the encoder's token ids, which copying scatters onto; during training they are
        ``input_ids``, during generation :meth:`generate` passes them along (beams expand them)."""
        if labels is not None and decoder_input_ids is None:
            decoder_input_ids = shift_right(
                labels, self.config.decoder_start_token_id, self.config.pad_token_id
            )
        source_ids = source_ids if source_ids is not None else input_ids
        for key in ("return_dict", "output_hidden_states", "output_attentions"):
            kwargs.pop(key, None)  # set below: the copy head needs the hidden states
        out = self.backbone(
            input_ids=input_ids,
            attention_mask=attention_mask,
            decoder_input_ids=decoder_input_ids,
            encoder_outputs=encoder_outputs,
            past_key_values=past_key_values,
            use_cache=use_cache,
            output_hidden_states=self.config.use_copy,
            return_dict=True,
            **kwargs,
        )
        if self.config.use_copy:
            log_probs = self._copy_log_probs(out, source_ids, attention_mask, encoder_outputs)
        else:
            log_probs = F.log_softmax(out.logits.float(), dim=-1)
        loss = None
        if labels is not None:
            loss = smoothed_nll(log_probs, labels, label_smoothing)
        return Seq2SeqLMOutput(
            loss=loss,
            logits=log_probs,
            past_key_values=out.past_key_values,
            encoder_last_hidden_state=out.encoder_last_hidden_state,
        )

    def _copy_log_probs(self, out, source_ids, attention_mask, encoder_outputs=None) -> torch.Tensor:
        encoder = out.encoder_last_hidden_state  # (B, S, d)
        keys, same = self.source_side(encoder, source_ids, encoder_outputs)
        attn, gate = self._copy_attention(out.decoder_hidden_states[-1], encoder, keys, attention_mask)
        # In log space, touching the full vocabulary once: log P(w) = log p_gen + log P_vocab(w), then
        # at the source tokens logaddexp with log((1 - p_gen) * copy mass of w). Copy mass of a token
        # that occurs several times is the sum over its positions (attention @ same-token matrix), so
        # every duplicate position scatters the same value; only the first carries the gradient (scatter's
        # backward hands every position its slot's gradient, which would count a repeated token's once per
        # occurrence). Padding has no attention: its mass is 0 (floored, so that its log has a finite gradient).
        log_probs = F.log_softmax(out.logits.float(), dim=-1) + F.logsigmoid(gate)
        index = source_ids[:, None, :].expand(-1, attn.size(1), -1)
        mixed = torch.logaddexp(log_probs.gather(-1, index), self._log_copy(attn, same, gate))
        mixed = torch.where(repeated_token(same)[:, None, :], mixed.detach(), mixed)
        return log_probs.scatter(-1, index, mixed)

    def source_side(self, encoder, source_ids, encoder_outputs=None):
        """Copy keys and the same-token matrix: they depend on the source only, so during generation they
        are computed at the first step and kept with the encoder outputs (which generate() hands back
        unchanged at every step)."""
        cached = isinstance(encoder_outputs, dict) and not self.training
        keys = encoder_outputs.get("copy_keys") if cached else None
        same = encoder_outputs.get("copy_same") if cached else None
        if keys is None or same is None:
            keys, same = self.copy_key(encoder), same_token(source_ids)
            if cached:
                encoder_outputs["copy_keys"], encoder_outputs["copy_same"] = keys, same
        return keys, same

    def _copy_attention(self, decoder, encoder, keys, attention_mask):
        """Copy attention over the source (B, T, S) and the generate-or-copy gate's logit (B, T, 1)."""
        scores = self.copy_query(decoder) @ keys.transpose(1, 2) / math.sqrt(encoder.size(-1))
        if attention_mask is not None:
            scores = scores.masked_fill(attention_mask[:, None, :] == 0, torch.finfo(scores.dtype).min)
        attn = scores.float().softmax(-1)
        context = attn.to(encoder.dtype) @ encoder
        gate = self.p_gen(torch.cat([decoder, context], dim=-1)).float()
        return attn, gate

    @staticmethod
    def _log_copy(attn, same, gate):
        """log((1 - p_gen) * copy mass) at every source position."""
        return F.logsigmoid(-gate) + (attn @ same).clamp_min(1e-30).log()

    @torch.no_grad()
    def next_token_candidates(
        self, logits, decoder, encoder, attention_mask, source_ids, k, banned=None, keys=None, same=None
    ):
        """One decoding step for beam search: each row's ``k`` most probable next tokens, as (log P, ids),
        each (G·R, k). The rows come in G groups of R that share a source (the beams of a sentence):
        ``logits`` (G·R, V) and ``decoder`` states (G, R, d) of the next token; ``encoder`` (G, S, d),
        ``attention_mask`` and ``source_ids`` (G, S); ``keys`` and ``same`` (from :meth:`source_side`)
        are computed once per sentence by the caller. ``banned``: a token id that may not come next (end of
        sequence before the minimum length); like generate's min-length processor it is removed after
        normalising.

        The values :meth:`forward` gives, without mixing the whole vocabulary: outside the source,
        P(w) = p_gen P_vocab(w) keeps P_vocab's order, so the k best tokens are among P_vocab's k best
        and the source tokens. Mixing just those makes a step read the vocabulary three times, not seven."""
        logits = logits.float()
        normaliser = logits.logsumexp(-1, keepdim=True)
        if banned is not None:  # out of place: a float32 model's logits are the caller's tensor
            logits = logits.index_fill(-1, torch.tensor([banned], device=logits.device), -math.inf)
        top, ids = logits.topk(k)
        if not self.config.use_copy:
            return top - normaliser, ids
        rows = decoder.size(1)
        attn, gate = self._copy_attention(decoder, encoder, keys, attention_mask)  # (G, R, S), (G, R, 1)
        log_copy = self._log_copy(attn, same, gate).flatten(0, 1)  # (G·R, S)
        log_gen = F.logsigmoid(gate).flatten(0, 1)  # (G·R, 1)
        source = source_ids.repeat_interleave(rows, 0)
        at_source = torch.logaddexp(logits.gather(-1, source) - normaliser + log_gen, log_copy)
        # A source token is one candidate: at its first position (later ones carry the same mass), and
        # not again among P_vocab's best.
        at_source = at_source.masked_fill(repeated_token(same).repeat_interleave(rows, 0), -math.inf)
        if banned is not None:
            at_source = at_source.masked_fill(source == banned, -math.inf)
        in_source = (ids[:, :, None] == source[:, None, :]).any(-1)
        top = (top - normaliser + log_gen).masked_fill(in_source, -math.inf)
        best, where = torch.cat([top, at_source], 1).topk(k)
        return best, torch.cat([ids, source], 1).gather(1, where)

    def generate(self, input_ids: torch.LongTensor | None = None, **kwargs):
        """transformers' ``generate``, with ``source_ids`` passed along so that beams can copy from the
        source (generate expands them with the beams)."""
        kwargs.setdefault("source_ids", input_ids)
        return super().generate(input_ids=input_ids, **kwargs)


# Known to AutoConfig, so that loading a saved model's folder (e.g. its tokenizer, which reads
# config.json) recognises the model type.
AutoConfig.register(CopyConfig.model_type, CopyConfig, exist_ok=True)


def hidden_size(config) -> int:
    """The width of a backbone's decoder states: ``d_model`` (BART, T5), or an EncoderDecoderModel's
    decoder ``hidden_size`` (BERT2BERT)."""
    decoder = getattr(config, "decoder", None)
    return getattr(config, "d_model", None) or decoder.hidden_size


def same_token(source_ids: torch.LongTensor) -> torch.Tensor:
    """(B, S, S): 1 where two source positions hold the same token; attention @ this sums a token's copy
    mass over all its positions."""
    return (source_ids[:, :, None] == source_ids[:, None, :]).float()


def repeated_token(same: torch.Tensor) -> torch.Tensor:
    """(B, S): True where an earlier source position holds the same token (from :func:`same_token`)."""
    return same.tril(-1).sum(-1) > 0


def shift_right(labels: torch.LongTensor, start_id: int, pad_id: int) -> torch.LongTensor:
    """Decoder inputs from labels: start token, then the labels without their last position."""
    shifted = labels.new_full(labels.shape, pad_id)
    shifted[:, 1:] = labels[:, :-1]
    shifted[:, 0] = start_id
    return shifted.masked_fill(shifted == -100, pad_id)


def smoothed_nll(log_probs: torch.Tensor, labels: torch.LongTensor, smoothing: float = 0.0) -> torch.Tensor:
    """Token-mean negative log-likelihood with label smoothing over the vocabulary; -100 is ignored."""
    mask = labels != -100
    target = labels.clamp_min(0)
    nll = -log_probs.gather(-1, target[..., None]).squeeze(-1)
    if smoothing:
        nll = (1 - smoothing) * nll - smoothing * log_probs.mean(-1)
    return (nll * mask).sum() / mask.sum().clamp_min(1)


def build_model(
    size: str = "small",
    vocab_size: int = 8000,
    use_copy: bool = True,
    input_format: str = "suggestion",
    **backbone,
) -> CopyGenerator:
    """A from-scratch model of a named size."""
    cfg = backbone_config(size, vocab_size)
    cfg.update(backbone)
    return CopyGenerator(CopyConfig(backbone=cfg, use_copy=use_copy, input_format=input_format))
