"""The paraphraser's vocabulary (Gan & Ng: lower-cased, 8k SentencePiece pieces) trained on the training
JSONL and wrapped as a transformers tokenizer that reloads offline. Byte fallback keeps rare characters out
of ``<unk>``, so they can still be copied. Special tokens at fixed ids, so that every model agrees on them:
``<pad>`` 0, ``</s>`` 1 (ends every text), ``<unk>`` 2, ``<sep>`` 3, ``<empty>`` 4 (the empty suggestion).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

PAD, EOS, UNK, SEP, EMPTY = "<pad>", "</s>", "<unk>", "<sep>", "<empty>"


INPUT_FORMATS = ("suggestion", "replace")


def model_input(
    suggestion: str | None, question: str, matched: str | None = None, input_format: str = "suggestion"
) -> str:
    """The paraphraser's input. ``"suggestion"`` (Gan & Ng): ``"<suggestion> <sep> <question>"``.
    ``"replace"``: ``"<matched> <sep> <suggestion> <sep> <question>"``, where ``matched`` is the question's
    phrase the suggestion replaces -- what every use-time source knows (PPDB, WordNet, Cilin) -- so the
    model learns to substitute rather than to insert the suggestion somewhere. A missing suggestion or
    matched phrase (None or "") is the ``<empty>`` token."""

    def field(text: str | None) -> str:
        return text.strip() if text and text.strip() else EMPTY

    if input_format == "replace":
        return f"{field(matched)} {SEP} {field(suggestion)} {SEP} {question.strip()}"
    if input_format != "suggestion":
        raise ValueError(f"unknown input format {input_format!r}; choose {' or '.join(INPUT_FORMATS)}")
    return f"{field(suggestion)} {SEP} {question.strip()}"


def train_tokenizer(
    texts: Iterable[str],
    out_dir: str | os.PathLike,
    vocab_size: int = 8000,
    lowercase: bool = True,
    character_coverage: float = 0.9995,
    seed_sentences: int = 2_000_000,
):
    """Train a SentencePiece unigram model on ``texts``, save it as a transformers tokenizer in
    ``out_dir`` and return the tokenizer. ``vocab_size`` is an upper bound on tiny corpora."""
    import sentencepiece as spm

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)

    def sentences() -> Iterator[str]:
        for t in texts:
            t = t.strip()
            if t:
                yield t.lower() if lowercase else t

    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "spiece")
        spm.SentencePieceTrainer.train(
            sentence_iterator=sentences(),
            model_prefix=prefix,
            vocab_size=vocab_size,
            hard_vocab_limit=False,
            model_type="unigram",
            character_coverage=character_coverage,
            byte_fallback=True,
            pad_id=0,
            eos_id=1,
            unk_id=2,
            bos_id=-1,
            pad_piece=PAD,
            eos_piece=EOS,
            unk_piece=UNK,
            user_defined_symbols=[SEP, EMPTY],
            input_sentence_size=seed_sentences,
            shuffle_input_sentence=True,
            num_threads=os.cpu_count() or 1,
            minloglevel=2,
        )
        shutil.copy(prefix + ".model", out_dir / "spiece.model")
    tokenizer = tokenizer_from_sentencepiece(out_dir / "spiece.model", lowercase=lowercase)
    tokenizer.save_pretrained(out_dir)
    return tokenizer


def tokenizer_from_sentencepiece(model_file: str | os.PathLike, lowercase: bool = True):
    """Wrap a SentencePiece ``.model`` as a transformers fast tokenizer (needs ``protobuf``)."""
    from tokenizers import Regex, decoders, normalizers, pre_tokenizers
    from tokenizers.processors import TemplateProcessing
    from transformers import PreTrainedTokenizerFast
    from transformers.tokenization_utils_tokenizers import TokenizersBackend

    backend = TokenizersBackend.convert_to_native_format(vocab_file=os.fspath(model_file))["tokenizer_object"]
    # The converted normaliser maps characters like SentencePiece but drops its dummy prefix ("▁" before
    # the first word). Special tokens split the text and eat the spaces around them, so "▁" is prepended
    # to every piece between them: a question's tokens inside "<suggestion> <sep> <question>" are then
    # the same as the question's own tokens, which is what copying them into the output needs.
    charsmap = [n for n in _steps(backend.normalizer) if type(n).__name__ == "Precompiled"]
    backend.normalizer = normalizers.Sequence(
        [
            *charsmap,
            *([normalizers.Lowercase()] if lowercase else []),
            normalizers.Replace(Regex(" {2,}"), " "),
            normalizers.Strip(),
        ]
    )
    backend.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    backend.decoder = decoders.Sequence(
        [
            decoders.Replace("▁", " "),
            decoders.ByteFallback(),
            decoders.Fuse(),
            decoders.Strip(content=" ", left=1, right=0),
        ]
    )
    eos_id = backend.token_to_id(EOS)
    backend.post_processor = TemplateProcessing(
        single=f"$A {EOS}", pair=f"$A {EOS} $B {EOS}", special_tokens=[(EOS, eos_id)]
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        pad_token=PAD,
        eos_token=EOS,
        unk_token=UNK,
        sep_token=SEP,
        additional_special_tokens=[EMPTY],
        model_max_length=512,
    )
    expected = {PAD: 0, EOS: 1, UNK: 2, SEP: 3, EMPTY: 4}
    actual = {t: tokenizer.convert_tokens_to_ids(t) for t in expected}
    if actual != expected:
        raise ValueError(f"{model_file}: special token ids {actual}, expected {expected}")
    return tokenizer


def _steps(normalizer) -> list:
    if normalizer is None:
        return []
    inner = getattr(normalizer, "normalizers", None)
    return list(inner) if inner is not None else [normalizer]


def load_tokenizer(path: str | os.PathLike):
    """Load a saved paraguide tokenizer from a local folder (offline, no remote code)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(os.fspath(path), local_files_only=True, trust_remote_code=False)
