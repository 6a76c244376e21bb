"""Tiny local Hugging Face checkpoints (T5 and BART shaped, random weights, their own tokenizers) standing in
for downloaded ones in tests: no hub model exists offline."""

import json
import tempfile

import torch
from tokenizers import ByteLevelBPETokenizer
from transformers import (
    BartConfig,
    BartForConditionalGeneration,
    BartTokenizer,
    T5Config,
    T5ForConditionalGeneration,
    T5Tokenizer,
)


def make_t5(out, texts: list[str], d_model: int = 64, seed: int = 0):
    """A T5 checkpoint with a SentencePiece unigram tokenizer, as T5 and mT5 have."""
    torch.manual_seed(seed)
    # A unigram vocabulary of whole words plus single characters (a real one has many more sub-words).
    words = sorted({w for t in texts for w in t.replace("?", " ?").split()})
    chars = sorted({c for t in texts for c in t if not c.isspace()})
    vocab = [("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]
    vocab += [("▁" + w, -2.0) for w in words] + [(c, -3.0) for c in chars + ["▁"]]
    tokenizer = T5Tokenizer(vocab=vocab, extra_ids=0)
    config = T5Config(
        vocab_size=len(tokenizer) + 8,  # spare rows, as real T5 checkpoints have
        d_model=d_model,
        d_kv=d_model // 4,
        d_ff=2 * d_model,
        num_layers=2,
        num_heads=4,
        decoder_start_token_id=0,
    )
    T5ForConditionalGeneration(config).save_pretrained(out)
    tokenizer.save_pretrained(out)


def make_bart(out, texts: list[str], d_model: int = 64, seed: int = 0):
    """A BART checkpoint with a byte-level BPE tokenizer, as BART has."""
    torch.manual_seed(seed)
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        texts, vocab_size=400, special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"], show_progress=False
    )
    with tempfile.TemporaryDirectory() as tmp:
        bpe.save_model(tmp)
        with open(f"{tmp}/vocab.json") as f:
            vocab = json.load(f)
        with open(f"{tmp}/merges.txt") as f:
            merges = [tuple(line.split()) for line in f.read().splitlines()[1:] if line.strip()]
    tokenizer = BartTokenizer(vocab=vocab, merges=merges)
    config = BartConfig(
        vocab_size=len(tokenizer),
        d_model=d_model,
        encoder_layers=2,
        decoder_layers=2,
        encoder_attention_heads=4,
        decoder_attention_heads=4,
        encoder_ffn_dim=2 * d_model,
        decoder_ffn_dim=2 * d_model,
        max_position_embeddings=128,
    )
    BartForConditionalGeneration(config).save_pretrained(out)
    tokenizer.save_pretrained(out)


def make_bert(out, texts: list[str], hidden: int = 64, seed: int = 0):
    """A BERT encoder checkpoint (MiniLM's shape, smaller) with a WordPiece vocabulary of the texts' words."""
    from transformers import BertConfig, BertModel, BertTokenizer

    torch.manual_seed(seed)
    words = sorted({w for t in texts for w in t.lower().replace("?", " ?").split()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]
    tokenizer = BertTokenizer(vocab={w: i for i, w in enumerate(vocab)}, do_lower_case=True)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=hidden,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=2 * hidden,
        max_position_embeddings=128,
    )
    BertModel(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
