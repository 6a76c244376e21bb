"""The paraphraser: SentencePiece tokenizer and the copy-mechanism seq2seq model."""

from paraguide.model.copy import SIZES, CopyConfig, CopyGenerator, build_model
from paraguide.model.tokenizer import EMPTY, SEP, load_tokenizer, model_input, train_tokenizer

__all__ = [
    "EMPTY",
    "SEP",
    "SIZES",
    "CopyConfig",
    "CopyGenerator",
    "build_model",
    "load_tokenizer",
    "model_input",
    "train_tokenizer",
]
