"""Generate paraphrases: ``Paraphraser.from_pretrained(path).paraphrase(questions, suggestions=...)``.

Batch-first: inputs are sorted by length so that each batch pads little, generated on the GPU when there
is one, and returned in input order. No suggestion (None or "") means the empty token: a free paraphrase.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass

import torch

from paraguide.model import beam
from paraguide.model.copy import CopyGenerator, check_model_folder
from paraguide.model.rerank import SELECTIONS, round_trip
from paraguide.model.tokenizer import load_tokenizer, model_input
from paraguide.text.match import includes
from paraguide.text.normalize import normalize

BUNDLED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")


def default_model_path(lang: str = "en") -> str:
    """The bundled default model for a language (``paraguide/models/<lang>``)."""
    path = os.path.join(BUNDLED, lang)
    if not (os.path.exists(os.path.join(path, "model.safetensors")) and _is_paraphraser(path)):
        available = [d for d in sorted(os.listdir(BUNDLED)) if _is_paraphraser(os.path.join(BUNDLED, d))]
        raise FileNotFoundError(
            f"no bundled paraphraser for {lang!r} (bundled: {', '.join(available) or 'none'}); "
            "pass --model PATH to a model trained with 'paraguide train'"
        )
    return path


def bundled_or_path(path: str | os.PathLike) -> str:
    """``path`` itself, or, where no such folder exists and it is a bare name, the bundled paraphraser of
    that name (``gemma-en`` -> ``paraguide/models/gemma-en``)."""
    path = os.fspath(path)
    named = os.path.join(BUNDLED, path)
    if not os.path.exists(path) and os.sep not in path and _is_paraphraser(named):
        return named
    return path


def _is_paraphraser(folder: str) -> bool:
    """A paraguide paraphraser's folder, small or an adapter (the bundled scorers live beside them)."""
    import json

    try:
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
            return json.load(f).get("model_type") in ("paraguide-copy", "paraguide-causal-copy")
    except (OSError, ValueError, AttributeError):
        return False


@dataclass
class Paraphrase:
    """One generated paraphrase: its text, score, the suggestion it was asked to use and whether it does."""

    text: str
    score: float  # mean log-probability per generated token (higher is better)
    suggestion: str
    includes_suggestion: bool

    def as_dict(self) -> dict:
        """The fields as a plain dict (for JSONL output)."""
        return asdict(self)


def resolve_dtype(dtype: str | torch.dtype, device: torch.device) -> torch.dtype:
    """The torch dtype to run in. ``"auto"``: bfloat16 where the hardware multiplies in it natively (CPUs
    with AVX512-BF16 or AMX, GPUs that support it), else float32 -- emulated bfloat16 is much slower
    (speed and agreement with float32: docs/paraphraser.md)."""
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype != "auto":
        if dtype not in ("float32", "bfloat16", "float16"):
            raise ValueError(f"unknown dtype {dtype!r}; choose auto, float32, bfloat16 or float16")
        return getattr(torch, dtype)
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float32
    if device.type == "cpu":
        cpu = getattr(torch, "cpu", None)
        for check in ("_is_avx512_bf16_supported", "_is_amx_tile_supported"):
            if cpu is not None and getattr(cpu, check, lambda: False)():
                return torch.bfloat16
    return torch.float32


class Paraphraser:
    """Generates paraphrases of questions with a trained :class:`CopyGenerator` and its tokenizer, on
    ``device`` (default: the GPU when there is one) in ``dtype`` (see :func:`resolve_dtype`). Usually made
    with :meth:`from_pretrained`."""

    def __init__(
        self,
        model: CopyGenerator,
        tokenizer,
        device: str | torch.device | None = None,
        dtype: str | torch.dtype = "auto",
    ):
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.dtype = resolve_dtype(dtype, self.device)
        self.model = model.to(self.device, self.dtype).eval()
        self.tokenizer = tokenizer

    @classmethod
    def from_pretrained(
        cls, path: str | os.PathLike, device: str | None = None, dtype: str | torch.dtype = "auto"
    ) -> Paraphraser:
        """Load a model saved by ``paraguide train`` from a local folder (safetensors, offline), or a
        bundled one by name (``en``, ``zh``, ``gemma-en``, ``gemma-zh``). ``dtype``: ``"auto"`` (see
        :func:`resolve_dtype`), ``"float32"``, ``"bfloat16"`` or ``"float16"``."""
        from paraguide.model.causal import is_causal_folder

        path = bundled_or_path(path)
        if is_causal_folder(path):  # a LoRA + copy-head adapter over a pretrained causal LM
            return CausalParaphraser.from_pretrained(path, device, dtype)
        path = check_model_folder(path)  # before anything is loaded: safetensors only, never a pickle
        model = CopyGenerator.from_pretrained(path, dtype=torch.float32)
        return cls(model, load_tokenizer(path), device, dtype)

    def save_pretrained(self, path: str | os.PathLike) -> None:
        """Save the model (safetensors, in its current dtype) and tokenizer into a folder that
        :meth:`from_pretrained` loads."""
        os.makedirs(path, exist_ok=True)
        self.model.save_pretrained(os.fspath(path), safe_serialization=True)
        self.tokenizer.save_pretrained(os.fspath(path))

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
        prefer_suggestion: bool = True,
        matched: Sequence[str | None] | None = None,
        **generate_kwargs,
    ) -> list[list[Paraphrase]]:
        """For each question (with its suggestion, if any), ``num_return_sequences`` paraphrases, best first.

        ``matched``: per question, the phrase its suggestion replaces (a :class:`~paraguide.suggest.Suggestion`'s
        ``matched``); a model trained with input format "replace" is told it, others ignore it.

        ``prefer_suggestion``: with beam search, every beam is returned and those that contain the
        suggestion rank first (in beam-search order within each group); the beams are computed anyway, so this costs
        nothing, and it is what the suggestion asks for. ``False``: by score alone."""
        if isinstance(questions, str):
            raise TypeError("questions must be a list of strings; wrap a single question in a list")
        if not questions:
            return []
        suggestions = list(suggestions) if suggestions is not None else [None] * len(questions)
        if len(suggestions) != len(questions):
            raise ValueError(f"{len(questions)} questions but {len(suggestions)} suggestions")
        matched = list(matched) if matched is not None else [None] * len(questions)
        if len(matched) != len(questions):
            raise ValueError(f"{len(questions)} questions but {len(matched)} matched phrases")
        input_format = self.model.config.input_format  # "suggestion" for models saved before it existed
        if num_return_sequences > num_beams and not do_sample:
            raise ValueError("num_return_sequences cannot exceed num_beams without sampling")
        rerank = prefer_suggestion and not do_sample and num_beams > 1
        returned = num_beams if rerank else num_return_sequences
        # The training data was NFKC-normalised by `paraguide prepare` (full-width ？ became ?): the same here,
        # or the model meets characters it never saw.
        texts = [
            model_input(normalize(s) if s else s, normalize(q), normalize(m) if m else m, input_format)
            for q, s, m in zip(questions, suggestions, matched, strict=True)
        ]
        encoded = self.tokenizer(
            texts, truncation=True, max_length=self.model.config.backbone.get("max_position_embeddings", 256)
        )
        # Beam search with finished sentences leaving the batch (paraguide.model.beam) where it does what
        # generate would; generate for sampling, greedy search and any other generation argument.
        own_search = num_beams > 1 and not do_sample and beam.supports(self.model, **generate_kwargs)
        order = sorted(range(len(texts)), key=lambda i: -len(encoded["input_ids"][i]))
        results: list[list[Paraphrase]] = [[] for _ in texts]
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            batch = self.tokenizer.pad(
                {"input_ids": [encoded["input_ids"][i] for i in idx]}, return_tensors="pt"
            )
            input_ids = batch["input_ids"].to(self.device)
            attention_mask = batch["attention_mask"].to(self.device)
            if own_search:
                found = beam.beam_search(
                    self.model,
                    input_ids,
                    attention_mask,
                    num_beams=num_beams,
                    max_new_tokens=max_new_tokens,
                    min_new_tokens=generate_kwargs.get("min_new_tokens") or 0,
                    length_penalty=length_penalty,
                )
                hypotheses = [h for beams in found for h in beams[:returned]]
                scores = [h.mean_log_prob for h in hypotheses]
                decoded = self.tokenizer.batch_decode(
                    [h.tokens for h in hypotheses], skip_special_tokens=True
                )
            else:
                out = self.model.generate(
                    input_ids,
                    attention_mask=attention_mask,
                    num_beams=num_beams,
                    num_return_sequences=returned,
                    max_new_tokens=max_new_tokens,
                    length_penalty=length_penalty,
                    do_sample=do_sample,
                    output_scores=True,
                    return_dict_in_generate=True,
                    **generate_kwargs,
                )
                scores = self._scores(out)
                decoded = self.tokenizer.batch_decode(out.sequences, skip_special_tokens=True)
            for k, i in enumerate(idx):
                suggestion = normalize(suggestions[i]) if suggestions[i] else ""
                candidates = []
                for j in range(k * returned, (k + 1) * returned):
                    text = decoded[j].strip()
                    candidates.append(Paraphrase(text, scores[j], suggestion, includes(text, suggestion)))
                if rerank:  # stable: beam-search order within the two groups
                    candidates.sort(key=lambda p: not p.includes_suggestion)
                results[i] = candidates[:num_return_sequences]
        return results

    def _scores(self, out) -> list[float]:
        transition = self.model.compute_transition_scores(
            out.sequences, out.scores, out.get("beam_indices"), normalize_logits=False
        )
        # Generated tokens up to and including the first end-of-sequence: what follows it is filler
        # (beam search fills with the end-of-sequence token itself, so != pad would count it).
        generated = out.sequences[:, 1 : 1 + transition.size(1)]
        ended = (generated == self.model.config.eos_token_id).long()
        mask = (ended.cumsum(1) - ended) == 0
        transition = transition[:, : mask.size(1)].masked_fill(~mask, 0.0)
        return (transition.sum(1) / mask.sum(1).clamp_min(1)).tolist()


class CausalParaphraser:
    """:class:`Paraphraser`'s interface over an adapter of the decoder-only paraphraser
    (:mod:`paraguide.model.causal`), decoded by its own batched beam search (:mod:`paraguide.model.causal_beam`)."""

    def __init__(self, model, tokenizer, device: str | torch.device | None = None, dtype="auto"):
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.dtype = resolve_dtype(dtype, self.device)
        self.model = model.to(self.device, self.dtype).eval()
        self.tokenizer = tokenizer
        self._memo: dict[tuple[str, str], float] | None = None  # see remembering()

    @contextmanager
    def remembering(self):
        """Within it, :meth:`log_likelihood` scores each (question, paraphrase) pair once and answers a
        repeat from memory: a pipeline step asks for the same likelihoods several times (the round trip
        that ranks the beams, then the learnt acceptance and the choice among the accepted). Nested uses
        share the outer memory, which is forgotten when the outermost ends."""
        outer = self._memo
        self._memo = {} if outer is None else outer
        try:
            yield self
        finally:
            self._memo = outer

    @classmethod
    def from_pretrained(cls, path, device=None, dtype="auto") -> CausalParaphraser:
        from paraguide.model.causal import load_adapter

        model, tokenizer = load_adapter(path)
        # For decoding only: fold the LoRA update into the base weights, in float32 before any cast to
        # bfloat16, so each projection is one matmul instead of three (peft's unmerged path). Measured on 64
        # SQuAD questions (2 CPU cores, bfloat16; benchmarks/inference_precision.py): beams ~20 % and
        # likelihoods ~35 % faster, as close to the float32 model as unmerged. Folded after the cast,
        # bfloat16 would round much of the small update away.
        if hasattr(model.lm, "merge_adapter"):
            model.lm.merge_adapter()
        return cls(model, tokenizer, device, dtype)

    @torch.no_grad()
    def log_likelihood(
        self, questions: Sequence[str], paraphrases: Sequence[str], batch_size: int = 32
    ) -> list[float]:
        """Mean log-probability per token of each paraphrase given its question (free rewriting, no
        suggestion), teacher-forced. With the pair reversed it says how much of the question a paraphrase
        kept: a question is hard to write back from a rewrite that lost a constraint or changed its type."""
        if len(questions) != len(paraphrases):
            raise ValueError(f"{len(questions)} questions but {len(paraphrases)} paraphrases")
        if self._memo is None:
            return self._log_likelihood(questions, paraphrases, batch_size)
        pairs = list(zip(questions, paraphrases, strict=True))
        new = list(dict.fromkeys(p for p in pairs if p not in self._memo))
        scores = self._log_likelihood([q for q, _ in new], [p for _, p in new], batch_size) if new else []
        self._memo.update(zip(new, scores, strict=True))
        return [self._memo[p] for p in pairs]

    @torch.no_grad()
    def _log_likelihood(self, questions, paraphrases, batch_size: int) -> list[float]:
        from paraguide.model.causal import encode_prompt, encode_target
        from paraguide.model.causal_train import Example, collate

        cfg = self.model.config
        out = []
        for i in range(0, len(questions), batch_size):
            examples = []
            for q, p in zip(questions[i : i + batch_size], paraphrases[i : i + batch_size], strict=True):
                ids, copy = encode_prompt(
                    self.tokenizer, normalize(q), max_tokens=cfg.max_prompt_tokens, control=cfg.control
                )
                examples.append(
                    Example(ids, copy, encode_target(self.tokenizer, normalize(p), cfg.max_target_tokens))
                )
            batch = collate(examples, self.tokenizer.pad_token_id)
            batch = {k: v.to(self.device) for k, v in batch.items()}
            # The batch's own tokens may be outside the training vocabulary: score over both.
            rows = self.model.output_rows(batch["input_ids"])
            with torch.autocast(self.device.type, dtype=self.dtype, enabled=self.dtype != torch.float32):
                out += (-self.model.loss(batch, per_example=True, rows=rows)).float().tolist()
        return out

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
        prefer_suggestion: bool = True,
        matched: Sequence[str | None] | None = None,
        min_new_tokens: int = 0,
        temperature: float = 1.0,
        top_p: float = 0.9,
        seed: int = 0,
        control: str | None = None,
        select: str = "beam",
        min_edit: float = 0.14,
        keeps: Callable | None = None,
        bonus: Callable | None = None,
    ) -> list[list[Paraphrase]]:
        """As :meth:`Paraphraser.paraphrase`: beam search, or with ``do_sample`` ``num_return_sequences``
        distinct nucleus samples (``temperature``, ``top_p``; seeded by ``seed``: the same call gives the
        same samples), most probable first. ``control``: the control code to ask for (an adapter trained
        with them; default: its config's, e.g. "faithful, large"). ``select="round-trip"``: all beams (or
        samples) ranked by :func:`paraguide.model.rerank.round_trip` instead -- those that change at least
        ``min_edit`` of the question's tokens first, by how probable the rewrite is and how well the
        question is written back from it; each ``score`` is that sum. ``keeps`` and ``bonus``: round
        trip's (checks of meaning ranked first, another score added), which the caller brings: the model
        does not know the filters (``paraguide.pipeline.jobs.ParaphraseJob``'s ``--select checked``)."""
        from paraguide.model.causal import encode_prompt
        from paraguide.model.causal_beam import beam_search, sample

        if isinstance(questions, str):
            raise TypeError("questions must be a list of strings; wrap a single question in a list")
        if num_return_sequences > num_beams and not do_sample:
            raise ValueError("num_return_sequences cannot exceed num_beams without sampling")
        if select not in SELECTIONS:
            raise ValueError(f"select must be {' or '.join(map(repr, SELECTIONS))}, not {select!r}")
        if select != "round-trip" and (keeps is not None or bonus is not None):
            raise ValueError(
                "keeps and bonus rank the beams by round trip: use them with select='round-trip'"
            )
        generator = torch.Generator(device=self.device).manual_seed(seed) if do_sample else None
        n = len(questions)
        suggestions = list(suggestions) if suggestions is not None else [None] * n
        matched = list(matched) if matched is not None else [None] * n
        if len(suggestions) != n or len(matched) != n:
            raise ValueError(
                f"{n} questions but {len(suggestions)} suggestions and {len(matched)} matched phrases"
            )
        limit = self.model.config.max_prompt_tokens
        if control is not None and self.model.config.control is None:
            raise ValueError("this adapter was trained without control codes: control must be None")
        control = control or self.model.config.control
        prompts = [
            encode_prompt(
                self.tokenizer,
                normalize(q),
                normalize(s) if s else None,
                normalize(m) if m else None,
                limit,
                control,
            )
            for q, s, m in zip(questions, suggestions, matched, strict=True)
        ]
        order = sorted(range(n), key=lambda i: -len(prompts[i][0]))
        results: list[list[Paraphrase]] = [[] for _ in range(n)]
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            batch = ([prompts[i][0] for i in idx], [prompts[i][1] for i in idx])
            ids = dict(eos_id=self.tokenizer.eos_token_id, pad_id=self.tokenizer.pad_token_id)
            if do_sample:
                found = sample(self.model, *batch, **ids, num_samples=num_return_sequences,
                               max_new_tokens=max_new_tokens, temperature=temperature, top_p=top_p,
                               generator=generator)  # fmt: skip
            else:
                found = beam_search(self.model, *batch, **ids, num_beams=num_beams, max_new_tokens=max_new_tokens,
                                    min_new_tokens=min_new_tokens, length_penalty=length_penalty)  # fmt: skip
            for i, beams in zip(idx, found, strict=True):
                suggestion = normalize(suggestions[i]) if suggestions[i] else ""
                candidates = []
                for h in beams:
                    text = self.tokenizer.decode(h.tokens, skip_special_tokens=True).strip()
                    candidates.append(
                        Paraphrase(text, h.mean_log_prob, suggestion, includes(text, suggestion))
                    )
                if prefer_suggestion and (num_beams > 1 or do_sample):
                    candidates.sort(key=lambda p: not p.includes_suggestion)
                results[i] = candidates if select == "round-trip" else candidates[:num_return_sequences]
        if select == "round-trip":
            results = round_trip(self, questions, results, min_edit=min_edit, batch_size=batch_size,
                                 top=num_return_sequences, keeps=keeps, bonus=bonus)  # fmt: skip
        return results
