"""Pretrained backbones under the copy head: a local Hugging Face seq2seq checkpoint (T5, BART, mT5, mBART
...), optionally fine-tuned with LoRA (peft, merged back at the end), or a BERT-type encoder checkpoint that
warm-starts both sides of an ``EncoderDecoderModel`` (Rothe et al. 2020, "BERT2BERT"). Loading is offline
and safe: local files only, safetensors only, never remote code. Details: docs/paraphraser.md.
"""

from __future__ import annotations

import os

from paraguide.model.safe_weights import pickle_refusal
from paraguide.model.tokenizer import EMPTY, SEP


def load_checkpoint_tokenizer(path: str | os.PathLike):
    """The checkpoint's tokenizer with ``<sep>`` and ``<empty>`` added as special tokens."""
    from tokenizers import AddedToken
    from transformers import AutoTokenizer

    path = _checkpoint_dir(path)
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True, trust_remote_code=False)
    # Stripping the spaces around them keeps a question's tokens after "<sep>" the same as when it
    # starts a text (what copying it into the output needs), whatever the tokenizer does with spaces.
    new = [AddedToken(t, lstrip=True, rstrip=True, special=True, normalized=False) for t in (SEP, EMPTY)]
    tokenizer.add_special_tokens({"additional_special_tokens": new}, replace_extra_special_tokens=False)
    if tokenizer.eos_token is None and tokenizer.sep_token is not None and is_encoder_checkpoint(path):
        # BERT-type: a text ends with [SEP], so the decoder's texts do too (Rothe et al.); [CLS] starts them.
        tokenizer.eos_token = tokenizer.sep_token
    if tokenizer.eos_token is None:
        raise ValueError(f"{path}: the tokenizer has no end-of-sequence token")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


# Encoder-only model types whose network transformers can also run as a decoder (causal self-attention
# plus cross-attention), as EncoderDecoderModel needs.
ENCODER_TYPES = ("bert", "roberta", "xlm-roberta", "electra", "camembert", "ernie", "bert-generation")


def is_encoder_checkpoint(path: str | os.PathLike) -> bool:
    """A BERT-type encoder checkpoint (warm-starts both sides of an EncoderDecoderModel)."""
    from transformers import AutoConfig

    return _is_encoder(
        AutoConfig.from_pretrained(os.fspath(path), local_files_only=True, trust_remote_code=False)
    )


def _is_encoder(config) -> bool:
    return not config.is_encoder_decoder and config.model_type in ENCODER_TYPES


def load_checkpoint_model(
    path: str | os.PathLike, vocab_size: int, dropout: float | None = None, decoder_layers: int | None = None
):
    """The checkpoint's seq2seq model, its embeddings grown to ``vocab_size`` rows if needed; from a
    BERT-type encoder, an ``EncoderDecoderModel`` warm-started from it on both sides (the decoder from its
    first ``decoder_layers`` layers when given)."""
    from transformers import AutoConfig, AutoModelForSeq2SeqLM

    path = _checkpoint_dir(path)
    refusal = pickle_refusal(path)
    if refusal:
        raise ValueError(f"{path}: {refusal}")
    config = AutoConfig.from_pretrained(path, local_files_only=True, trust_remote_code=False)
    if _is_encoder(config):
        return _encoder_decoder(path, vocab_size, dropout, decoder_layers)
    if decoder_layers is not None:
        raise ValueError(
            f"{path}: decoder_layers applies to a BERT-type encoder checkpoint, not {config.model_type}"
        )
    if not config.is_encoder_decoder:
        raise ValueError(
            f"{path}: {config.model_type} is not an encoder-decoder (seq2seq) model, nor a BERT-type encoder "
            f"({', '.join(ENCODER_TYPES)})"
        )
    overrides = {}
    if dropout is not None:
        for key in ("dropout", "dropout_rate"):  # BART-style / T5-style names
            if hasattr(config, key):
                overrides[key] = dropout
    model = AutoModelForSeq2SeqLM.from_pretrained(
        path, local_files_only=True, trust_remote_code=False, use_safetensors=True, **overrides
    )
    if model.get_input_embeddings().num_embeddings < vocab_size:
        model.resize_token_embeddings(vocab_size)
    return model


def _encoder_decoder(path: str, vocab_size: int, dropout: float | None, decoder_layers: int | None = None):
    """BERT2BERT: encoder and decoder both initialised from the encoder checkpoint (the decoder's
    cross-attention is new). Generation starts from [CLS] and ends at [SEP], as the tokenizer frames texts."""
    from transformers import EncoderDecoderModel
    from transformers.utils import logging as transformers_logging

    tokenizer = load_checkpoint_tokenizer(path)
    options = dict(local_files_only=True, trust_remote_code=False, use_safetensors=True)
    if dropout is not None:
        options.update(hidden_dropout_prob=dropout, attention_probs_dropout_prob=dropout)
    # transformers reports the decoder's new cross-attention and LM-head weights as missing from the
    # checkpoint ("seem corrupted"): expected here, they are what fine-tuning learns.
    verbosity = transformers_logging.get_verbosity()
    transformers_logging.set_verbosity_error()
    try:
        model = EncoderDecoderModel.from_encoder_decoder_pretrained(
            path,
            path,
            **{f"encoder_{k}": v for k, v in options.items()},
            **{f"decoder_{k}": v for k, v in options.items()},
            # Fewer layers: transformers loads the checkpoint's first N (layer.0 ... layer.N-1).
            **({"decoder_num_hidden_layers": decoder_layers} if decoder_layers else {}),
        )
    finally:
        transformers_logging.set_verbosity(verbosity)
    config = model.config
    config.decoder_start_token_id = tokenizer.cls_token_id
    config.pad_token_id = tokenizer.pad_token_id
    config.eos_token_id = tokenizer.sep_token_id
    config.vocab_size = config.decoder.vocab_size
    if model.get_input_embeddings().num_embeddings < vocab_size:
        model.encoder.resize_token_embeddings(vocab_size)
        model.decoder.resize_token_embeddings(vocab_size)
        config.vocab_size = vocab_size
    return model


def add_lora(
    backbone,
    r: int = 16,
    alpha: int = 32,
    dropout: float = 0.05,
    target_modules: list[str] | None = None,
    trainable_token_ids: list[int] | None = None,
):
    """Wrap ``backbone`` with LoRA adapters (peft). ``target_modules`` default: peft's choice for the model
    type (the attention query/value projections)."""
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(
        r=r,
        lora_alpha=alpha,
        lora_dropout=dropout,
        target_modules=target_modules,
        trainable_token_indices=trainable_token_ids or None,
    )
    return get_peft_model(backbone, config)


def merge_lora(model) -> None:
    """Fold a CopyGenerator's LoRA adapters into its backbone weights (in place)."""
    from peft import PeftModel

    if isinstance(model.backbone, PeftModel):
        model.backbone = model.backbone.merge_and_unload()


def _checkpoint_dir(path: str | os.PathLike) -> str:
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise FileNotFoundError(
            f"backbone checkpoint {path!r} is not a local folder (paraguide loads checkpoints offline; "
            "download one elsewhere and pass its folder)"
        )
    if not os.path.exists(os.path.join(path, "config.json")):
        raise FileNotFoundError(f"{path}: no config.json, not a Hugging Face checkpoint folder")
    return path
