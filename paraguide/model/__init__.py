"""The paraphraser: SentencePiece tokenizer (and, next, the copy-mechanism seq2seq model)."""

from paraguide.model.tokenizer import EMPTY, SEP, load_tokenizer, model_input, train_tokenizer

__all__ = ["EMPTY", "SEP", "load_tokenizer", "model_input", "train_tokenizer"]
