"""Pretrained backbones: a local Hugging Face seq2seq checkpoint (T5, BART, mT5, mBART, ...) under the copy
head, optionally fine-tuned with LoRA through peft.

Loading is offline and safe: local files only, safetensors only (a checkpoint with only a pickled
``pytorch_model.bin`` is refused, with a hint to convert it), never remote code. The checkpoint's own
tokenizer is used, extended with the two tokens paraguide needs, ``<sep>`` and ``<empty>``; its text is
not lower-cased (pretrained vocabularies are cased). The embedding matrix grows only when the new ids do
not fit (T5's matrix has spare rows).

With LoRA the backbone is frozen except for its low-rank adapters and the embedding rows of ``<sep>`` and
``<empty>`` (new tokens must be learnt, and peft's ``trainable_token_indices`` trains just those rows);
the copy head is new and is trained in full. At the end the adapters are merged into the backbone, so a
LoRA-trained model saves and loads like any other.
"""

from __future__ import annotations

import os
from pathlib import Path

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
    if tokenizer.eos_token is None:
        raise ValueError(f"{path}: the tokenizer has no end-of-sequence token")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_checkpoint_model(path: str | os.PathLike, vocab_size: int, dropout: float | None = None):
    """The checkpoint's seq2seq model, its embeddings grown to ``vocab_size`` rows if needed."""
    from transformers import AutoConfig, AutoModelForSeq2SeqLM

    path = _checkpoint_dir(path)
    if not any(Path(path).glob("*.safetensors")):
        raise ValueError(
            f"{path}: no .safetensors weights; paraguide does not unpickle checkpoints. Convert it once "
            "with `AutoModelForSeq2SeqLM.from_pretrained(path).save_pretrained(path)` in a trusted session."
        )
    config = AutoConfig.from_pretrained(path, local_files_only=True, trust_remote_code=False)
    if not config.is_encoder_decoder:
        raise ValueError(f"{path}: {config.model_type} is not an encoder-decoder (seq2seq) model")
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
