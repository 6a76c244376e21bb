"""Text utilities for English and Chinese: normalisation, tokenisation, stop words, n-grams, POS tags."""

from paraguide.text.edits import edit_rate, one_word_added_or_removed
from paraguide.text.ngrams import contains_sequence, ngram_spans, ngrams
from paraguide.text.normalize import normalize, pair_key
from paraguide.text.pos import TaggedToken, has_tagger, pos_tag
from paraguide.text.stopwords import is_stop_phrase, is_word, load_stopwords
from paraguide.text.tokenize import LANGS, Token, tokenize, tokenize_spans

__all__ = [
    "LANGS",
    "TaggedToken",
    "Token",
    "contains_sequence",
    "edit_rate",
    "has_tagger",
    "is_stop_phrase",
    "is_word",
    "load_stopwords",
    "ngram_spans",
    "ngrams",
    "normalize",
    "one_word_added_or_removed",
    "pair_key",
    "pos_tag",
    "tokenize",
    "tokenize_spans",
]
