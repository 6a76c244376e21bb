"""The paper's kind of similarity (Wieting & Gimpel 2018; Gan & Ng §4.2.2): a sentence is the average of its
sub-word (SentencePiece) embeddings, similarity is the cosine. Tiny and fast -- one embedding lookup and a
mean per sentence -- and trainable on paraphrase pairs of any language (:func:`train_sim`,
``paraguide train-scorer``).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from paraguide.data.io import atomic_folder
from paraguide.options import option
from paraguide.score.base import CachedVectorScorer
from paraguide.text.pieces import train_sentencepiece


@dataclass
class SimConfig:
    """The sim scorer's size and training settings (saved as its ``config.json``)."""

    dim: int = option("embedding size", 300)
    vocab_size: int = option("SentencePiece vocabulary size", 8000)
    lowercase: bool = option("keep case (default: lower-case)", True)
    margin: float = option("margin of the loss", 0.4)
    batch_size: int = option("pairs per step", 128)
    megabatch: int = option("batches searched together for the hardest negatives", 4)
    epochs: int = option("passes over the pairs", 5)
    lr: float = option("Adam learning rate", 1e-3)
    seed: int = option("shuffling and initialisation seed", 13)


class SimModel:
    """Averaged sub-word embeddings (``torch.nn.EmbeddingBag``, mean) over a SentencePiece vocabulary."""

    def __init__(self, processor, embedding, config: SimConfig):
        self.sp, self.embedding, self.config = processor, embedding, config

    @classmethod
    def from_pretrained(cls, path: str | os.PathLike) -> SimModel:
        """Load a sim scorer saved by :meth:`save_pretrained` from a local folder."""
        import sentencepiece as spm
        import torch
        from safetensors.torch import load_file

        path = Path(path)
        if not (path / "model.safetensors").exists():
            raise FileNotFoundError(f"no sim scorer at {path} (model.safetensors, config.json, spiece.model)")
        config = SimConfig(**json.loads((path / "config.json").read_text()))
        weight = load_file(path / "model.safetensors")["embedding.weight"].float()
        embedding = torch.nn.EmbeddingBag.from_pretrained(weight, mode="mean", freeze=True)
        return cls(spm.SentencePieceProcessor(model_file=str(path / "spiece.model")), embedding, config)

    def save_pretrained(self, path: str | os.PathLike) -> None:
        """Save to a folder: ``model.safetensors`` (the fp16 embedding table), ``config.json`` and
        ``spiece.model``."""
        import torch
        from safetensors.torch import save_file

        with atomic_folder(path) as saving:  # each file complete under its final name, or not there
            weight = self.embedding.weight.detach().to(torch.float16).contiguous()
            save_file({"embedding.weight": weight}, saving / "model.safetensors")
            (saving / "config.json").write_text(json.dumps(asdict(self.config), indent=2) + "\n")
            (saving / "spiece.model").write_bytes(self.sp.serialized_model_proto())

    def ids(self, sentences: Sequence[str]) -> list[list[int]]:
        """Piece ids of each sentence (``<unk>`` alone for an empty one, so that each sentence has a mean)."""
        texts = [s.lower() if self.config.lowercase else s for s in sentences]
        return [ids or [self.sp.unk_id()] for ids in self.sp.encode(texts)]

    def encode(self, sentences: Sequence[str]):
        """L2-normalised sentence vectors (a torch tensor, with gradients when the table trains)."""
        import torch

        ids = self.ids(sentences)
        flat = torch.tensor([i for x in ids for i in x], dtype=torch.long)
        offsets = torch.tensor(np.cumsum([0] + [len(x) for x in ids[:-1]]), dtype=torch.long)
        return torch.nn.functional.normalize(self.embedding(flat, offsets), dim=-1)


def train_sim(pairs: Iterable[tuple[str, str]], out_dir: str | os.PathLike, config: SimConfig | None = None):
    """Train a sim scorer on paraphrase pairs and save it in ``out_dir``; returns the :class:`SimModel`.

    The loss, per pair (a, b): max(0, δ − cos(a, b) + cos(a, n_a)) + max(0, δ − cos(a, b) + cos(b, n_b)),
    δ the margin, n_a the sentence most similar to a among the other pairs' sentences of the same mega-batch
    (Wieting & Gimpel's mega-batching: the hardest in-batch negative over ``megabatch`` batches at once)."""
    import torch
    from tqdm.auto import tqdm

    config = config or SimConfig()
    pairs = [(a, b) for a, b in pairs if a.strip() and b.strip()]
    if len(pairs) < 2:
        raise ValueError("train-scorer needs at least 2 paraphrase pairs")
    rng = random.Random(config.seed)
    torch.manual_seed(config.seed)
    texts = [t.lower() if config.lowercase else t for pair in pairs for t in pair]
    processor = train_sentencepiece(texts, config.vocab_size)
    vocab = processor.get_piece_size()
    embedding = torch.nn.EmbeddingBag(vocab, config.dim, mode="mean")
    torch.nn.init.uniform_(embedding.weight, -0.1, 0.1)
    model = SimModel(processor, embedding, config)
    optimizer = torch.optim.Adam(embedding.parameters(), lr=config.lr)
    mega = config.batch_size * config.megabatch
    steps = config.epochs * ((len(pairs) + config.batch_size - 1) // config.batch_size)
    bar = tqdm(total=steps, desc="train-scorer", unit="step", disable=None)
    for _ in range(config.epochs):
        order = list(range(len(pairs)))
        rng.shuffle(order)
        for m in range(0, len(order), mega):
            chunk = [pairs[i] for i in order[m : m + mega]]
            with torch.no_grad():  # hardest negatives over the mega-batch, with the current table
                a_all, b_all = model.encode([p[0] for p in chunk]), model.encode([p[1] for p in chunk])
                neg_a, neg_b = _hardest(a_all, b_all)
            for s in range(0, len(chunk), config.batch_size):
                idx = list(range(s, min(s + config.batch_size, len(chunk))))
                a = model.encode([chunk[i][0] for i in idx])
                b = model.encode([chunk[i][1] for i in idx])
                na = model.encode([_pick(chunk, j) for j in neg_a[idx].tolist()])
                nb = model.encode([_pick(chunk, j) for j in neg_b[idx].tolist()])
                positive = (a * b).sum(-1)
                loss = (
                    torch.relu(config.margin - positive + (a * na).sum(-1))
                    + torch.relu(config.margin - positive + (b * nb).sum(-1))
                ).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                bar.update(1)
                bar.set_postfix(loss=f"{loss.item():.4f}")
    bar.close()
    model.save_pretrained(out_dir)
    return model


def _hardest(a, b):
    """For each pair i: index (into the 2n sentences a_0..a_n-1, b_0..b_n-1) of the most similar sentence
    that is not of pair i, for a_i and for b_i."""
    import torch

    sentences = torch.cat([a, b])  # (2n, d)
    n = a.size(0)
    own = torch.arange(n)
    out = []
    for query in (a, b):
        sim = query @ sentences.T  # (n, 2n)
        sim[own, own] = -2.0
        sim[own, own + n] = -2.0
        out.append(sim.argmax(-1))
    return out[0], out[1]


def _pick(chunk, j: int) -> str:
    n = len(chunk)
    return chunk[j][0] if j < n else chunk[j - n][1]


BUNDLED = Path(__file__).resolve().parents[1] / "models"


def bundled_sim_path(lang: str = "en") -> str:
    """The bundled sim scorer of a language (``paraguide/models/sim-<lang>``)."""
    path = BUNDLED / f"sim-{lang}"
    if not (path / "model.safetensors").exists():
        raise FileNotFoundError(
            f"no bundled sim scorer for {lang!r}; pass sim:FOLDER (paraguide train-scorer)"
        )
    return str(path)


class SimScorer(CachedVectorScorer):
    """``SimScorer(path).score(pairs)``: cosine of averaged sub-word embeddings, cached per sentence."""

    def __init__(self, path: str | os.PathLike, cache_size: int = 100_000):
        super().__init__(cache_size)
        self.model = SimModel.from_pretrained(path)
        self.name, self.files = "sim", (Path(path),)

    def encode(self, sentences: list[str]) -> np.ndarray:
        """L2-normalised sentence vectors as a numpy array."""
        import torch

        with torch.no_grad():
            return self.model.encode(sentences).numpy()
