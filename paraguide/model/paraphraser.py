"""Generate paraphrases: ``Paraphraser.from_pretrained(path).paraphrase(questions, suggestions=...)``.

Batch-first: inputs are sorted by length so that each batch pads little, generated on the GPU when there
is one, and returned in input order. No suggestion (None or "") means the empty token: a free paraphrase.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import torch

from paraguide.model.copy import CopyGenerator
from paraguide.model.tokenizer import load_tokenizer, model_input

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
BUNDLED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")


def default_model_path(lang: str = "en") -> str:
    """The bundled default model for a language (``paraguide/models/<lang>``)."""
    path = os.path.join(BUNDLED, lang)
    if not os.path.exists(os.path.join(path, "model.safetensors")):
        available = sorted(d for d in os.listdir(BUNDLED)) if os.path.isdir(BUNDLED) else []
        raise FileNotFoundError(
            f"no bundled paraphraser for {lang!r} (bundled: {', '.join(available) or 'none'}); "
            "pass --model PATH to a model trained with 'paraguide train'"
        )
    return path


@dataclass
class Paraphrase:
    text: str
    score: float  # mean log-probability per generated token (higher is better)
    suggestion: str
    includes_suggestion: bool

    def as_dict(self) -> dict:
        return asdict(self)


def includes(text: str, suggestion: str) -> bool:
    """Does ``text`` contain the suggestion (case-free; whole words unless it is Chinese)?"""
    if not suggestion:
        return False
    text, suggestion = " ".join(text.lower().split()), " ".join(suggestion.lower().split())
    if _CJK.search(suggestion):
        return suggestion.replace(" ", "") in text.replace(" ", "")
    return re.search(r"(?<!\w)" + re.escape(suggestion) + r"(?!\w)", text) is not None


class Paraphraser:
    def __init__(self, model: CopyGenerator, tokenizer, device: str | torch.device | None = None):
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.model = model.to(self.device).eval()
        self.tokenizer = tokenizer

    @classmethod
    def from_pretrained(cls, path: str | os.PathLike, device: str | None = None) -> Paraphraser:
        """Load a model saved by ``paraguide train`` from a local folder (safetensors, offline)."""
        path = os.fspath(path)
        if not os.path.isdir(path):
            raise FileNotFoundError(f"no model folder at {path}")
        model = CopyGenerator.from_pretrained(path, dtype=torch.float32)
        return cls(model, load_tokenizer(path), device)

    @torch.no_grad()
    def paraphrase(
        self,
        questions: Sequence[str],
        suggestions: Sequence[str | None] | None = None,
        num_beams: int = 4,
        num_return_sequences: int = 1,
        batch_size: int = 32,
        max_new_tokens: int = 48,
        length_penalty: float = 1.0,
        do_sample: bool = False,
        **generate_kwargs,
    ) -> list[list[Paraphrase]]:
        """For each question (with its suggestion, if any), ``num_return_sequences`` paraphrases, best first."""
        if isinstance(questions, str):
            raise TypeError("questions must be a list of strings; wrap a single question in a list")
        suggestions = list(suggestions) if suggestions is not None else [None] * len(questions)
        if len(suggestions) != len(questions):
            raise ValueError(f"{len(questions)} questions but {len(suggestions)} suggestions")
        if num_return_sequences > num_beams and not do_sample:
            raise ValueError("num_return_sequences cannot exceed num_beams without sampling")
        texts = [model_input(s, q) for q, s in zip(questions, suggestions, strict=True)]
        encoded = self.tokenizer(
            texts, truncation=True, max_length=self.model.config.backbone.get("max_position_embeddings", 256)
        )
        order = sorted(range(len(texts)), key=lambda i: -len(encoded["input_ids"][i]))
        results: list[list[Paraphrase]] = [[] for _ in texts]
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            batch = self.tokenizer.pad(
                {"input_ids": [encoded["input_ids"][i] for i in idx]}, return_tensors="pt"
            )
            out = self.model.generate(
                batch["input_ids"].to(self.device),
                attention_mask=batch["attention_mask"].to(self.device),
                num_beams=num_beams,
                num_return_sequences=num_return_sequences,
                max_new_tokens=max_new_tokens,
                length_penalty=length_penalty,
                do_sample=do_sample,
                output_scores=True,
                return_dict_in_generate=True,
                **generate_kwargs,
            )
            scores = self._scores(out, num_beams, do_sample)
            decoded = self.tokenizer.batch_decode(out.sequences, skip_special_tokens=True)
            for k, i in enumerate(idx):
                suggestion = suggestions[i] or ""
                for j in range(num_return_sequences):
                    text = decoded[k * num_return_sequences + j].strip()
                    results[i].append(
                        Paraphrase(
                            text, scores[k * num_return_sequences + j], suggestion, includes(text, suggestion)
                        )
                    )
        return results

    def _scores(self, out, num_beams: int, do_sample: bool) -> list[float]:
        transition = self.model.compute_transition_scores(
            out.sequences, out.scores, out.get("beam_indices"), normalize_logits=False
        )
        generated = out.sequences[:, 1:]
        mask = (generated != self.model.config.pad_token_id).float()[:, : transition.size(1)]
        transition = transition[:, : mask.size(1)].masked_fill(mask == 0, 0.0)
        return (transition.sum(1) / mask.sum(1).clamp_min(1)).tolist()
