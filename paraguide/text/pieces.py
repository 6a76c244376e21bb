"""A SentencePiece unigram vocabulary trained on texts in memory, for the scorers' own small models."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable


def train_sentencepiece(texts: Iterable[str], vocab_size: int, **options):
    """A ``SentencePieceProcessor`` trained on ``texts`` (unigram, byte fallback, 99.95 % character coverage;
    ``vocab_size`` an upper bound on small corpora); ``options`` go to the trainer (e.g. special-token ids)."""
    import sentencepiece as spm

    with tempfile.TemporaryDirectory() as tmp:
        try:
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(texts),
                model_prefix=f"{tmp}/spiece",
                vocab_size=vocab_size,
                hard_vocab_limit=False,
                model_type="unigram",
                byte_fallback=True,
                character_coverage=0.9995,
                num_threads=os.cpu_count() or 1,
                minloglevel=2,
                **options,
            )
        except RuntimeError as e:  # SentencePiece's own checks, e.g. a vocabulary smaller than its alphabet
            problem = str(e).split("] ", 1)[-1].split(" Increase vocab_size")[0]
            raise ValueError(
                f"cannot train a SentencePiece vocabulary of {vocab_size} pieces: {problem}"
            ) from None
        return spm.SentencePieceProcessor(model_file=f"{tmp}/spiece.model")
