"""Beam search for the copy generator in which finished sentences leave the batch.

transformers' ``generate`` keeps every sentence of a batch in the forward pass until the last one ends.
Here a sentence leaves once its search is decided, as in OpenNMT-py, so the work follows each sentence's
own length; the decoder runs one token at a time (:mod:`paraguide.model.incremental`). BART-shaped
backbones only (every model ``paraguide train`` builds from scratch): :func:`supports` says when it applies.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from paraguide.model import incremental

# Decided sentences leave the batch in groups: the live sentences stay a multiple of this many (down to
# the last few), and the places a group still lacks are filled with decided sentences whose results are
# already taken. Why: on CPU every new row count is a new oneDNN primitive for each bf16 matmul, cached
# with its own buffers, so a batch shrinking one sentence at a time made dozens of shapes per weight and
# peaked at far more memory, at the same speed (figures: docs/paraphraser.md, benchmarks/README.md).
LEAVE_IN_GROUPS_OF = 4

# Generation settings this search implements as transformers does by default; a model whose generation
# config sets any of these (e.g. mBART's forced_bos_token_id) goes through ``generate`` instead.
_DEFAULTS = {
    "early_stopping": False,
    "forced_bos_token_id": None,
    "forced_eos_token_id": None,
    "no_repeat_ngram_size": 0,
    "encoder_no_repeat_ngram_size": 0,
    "repetition_penalty": 1.0,
    "encoder_repetition_penalty": 1.0,
    "bad_words_ids": None,
    "suppress_tokens": None,
    "begin_suppress_tokens": None,
    "sequence_bias": None,
    "min_length": 0,
    "num_beam_groups": 1,
    "diversity_penalty": 0.0,
    "exponential_decay_length_penalty": None,
    "renormalize_logits": False,
    "remove_invalid_values": False,
}


def supports(model, **generate_kwargs) -> bool:
    """Whether this search does for ``model`` what generate would: a BART-shaped backbone (what paraguide
    trains from scratch), and a generation config and arguments that leave beam search at its defaults
    (``min_new_tokens`` aside, which this search implements)."""
    config = model.generation_config
    settings = {k: getattr(config, k, None) for k in _DEFAULTS} | generate_kwargs
    return incremental.supports(model.backbone) and all(
        k == "min_new_tokens" or (k in _DEFAULTS and v in (None, _DEFAULTS[k])) for k, v in settings.items()
    )


@dataclass
class Hypothesis:
    """One finished beam: its tokens and summed log-probability (so the mean needs no second pass)."""

    tokens: list[int]  # generated ids, end-of-sequence included when the hypothesis ended with it
    log_prob: float  # summed log-probability of the tokens

    @property
    def mean_log_prob(self) -> float:
        """Log-probability per generated token (the score a ``Paraphrase`` reports)."""
        return self.log_prob / max(len(self.tokens), 1)


@torch.no_grad()
def beam_search(
    model,
    input_ids: torch.LongTensor,
    attention_mask: torch.Tensor,
    num_beams: int = 4,
    max_new_tokens: int = 48,
    min_new_tokens: int = 0,
    length_penalty: float = 1.0,
) -> list[list[Hypothesis]]:
    """For each row of ``input_ids``, its ``num_beams`` hypotheses, best first (as ``generate`` ranks them).

    transformers' search (5.x ``_beam_search``, ``early_stopping=False``) step for step: 2·beams candidates
    per sentence, finished hypotheses scored sum / length ** length_penalty, a sentence decided once all its
    beam slots are finished and its best running beam cannot beat the worst of them. Each step asks the model
    only for each row's 2·beams best next tokens (:meth:`CopyGenerator.next_token_candidates`), which hold the
    sentence's best continuations over all its beams. In float32 the result equals ``model.generate``'s
    (tested); in bfloat16 near-ties may fall either way, as they do between batch sizes."""
    if num_beams < 1 or max_new_tokens < 1:
        raise ValueError("num_beams and max_new_tokens must be at least 1")
    config = model.config
    eos, start = config.eos_token_id, config.decoder_start_token_id
    device = input_ids.device
    batch, k = input_ids.size(0), num_beams

    # The encoder runs once per sentence, and so does everything computed from its states alone.
    encoder = model.get_encoder()(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
    decoder = incremental.IncrementalBartDecoder(model.backbone, encoder, attention_mask, k)
    mask, source = attention_mask, input_ids
    keys, same = model.source_side(encoder, source) if config.use_copy else (None, None)

    sentence = torch.arange(batch, device=device)  # which input each live sentence is
    running = torch.zeros(batch, k, max_new_tokens, dtype=torch.long, device=device)
    running_scores = torch.full((batch, k), -1e9, device=device)
    running_scores[:, 0] = 0.0  # only the first beam is live at the start, or all beams would be equal
    finished = torch.zeros_like(running)
    finished_scores = torch.full((batch, k), -1e9, device=device)  # sum / length ** length_penalty
    finished_sums = torch.zeros(batch, k, device=device)
    finished_lengths = torch.zeros(batch, k, dtype=torch.long, device=device)
    is_finished = torch.zeros(batch, k, dtype=torch.bool, device=device)
    top_k_slots = torch.arange(2 * k, device=device) < k  # only these candidates may finish
    results: list[list[Hypothesis]] = [[] for _ in range(batch)]
    done = torch.zeros(batch, dtype=torch.bool, device=device)  # decided; still here only to fill a group

    tokens = torch.full((batch * k,), start, dtype=torch.long, device=device)
    for step in range(max_new_tokens):
        live = sentence.size(0)
        states, logits = decoder.step(tokens)
        # Each row's 2k best next tokens hold the sentence's 2k best continuations over all its beams.
        log_probs, token_ids = model.next_token_candidates(
            logits, states, encoder, mask, source, 2 * k, eos if step < min_new_tokens else None, keys, same
        )
        width = log_probs.size(-1)
        totals = (log_probs.view(live, k, width) + running_scores[:, :, None]).view(live, k * width)
        top_scores, top_index = totals.topk(2 * k)
        from_beam, top_tokens = top_index // width, token_ids.view(live, k * width).gather(1, top_index)
        candidates = running.gather(1, from_beam[:, :, None].expand(-1, -1, max_new_tokens))
        candidates[:, :, step] = top_tokens
        ends = (top_tokens == eos) | (step + 1 >= max_new_tokens)

        # The best k candidates that go on.
        open_scores = top_scores + ends.float() * -1e9
        keep = open_scores.topk(k).indices
        running = candidates.gather(1, keep[:, :, None].expand(-1, -1, max_new_tokens))
        running_scores = open_scores.gather(1, keep)
        parent = from_beam.gather(1, keep)

        # Candidates that end (among the best k) join the finished ones if they beat them.
        length = step + 1
        new_scores = top_scores / length**length_penalty + (~(ends & top_k_slots)).float() * -1e9
        finished_scores, merged = torch.cat([finished_scores, new_scores], 1).topk(k)
        finished_sums = torch.cat([finished_sums, top_scores], 1).gather(1, merged)
        new_lengths = torch.full_like(top_tokens, length)
        finished_lengths = torch.cat([finished_lengths, new_lengths], 1).gather(1, merged)
        is_finished = torch.cat([is_finished, ends & top_k_slots], 1).gather(1, merged)
        finished = torch.cat([finished, candidates], 1).gather(
            1, merged[:, :, None].expand(-1, -1, max_new_tokens)
        )

        # Decided: every slot finished and the best open beam, at its present length, no better than the
        # worst of them (transformers' heuristic for early_stopping=False).
        best_open = running_scores[:, :1] / length**length_penalty
        worst = torch.where(is_finished, finished_scores.min(1, keepdim=True).values, -1e9)
        decided = ~(best_open > worst).any(1)
        if step + 1 >= max_new_tokens:
            decided[:] = True
        for i in (decided & ~done).nonzero().flatten().tolist():
            results[sentence[i]] = [
                Hypothesis(finished[i, j, : finished_lengths[i, j]].tolist(), finished_sums[i, j].item())
                for j in range(k)
            ]
        done |= decided
        if done.all():
            break

        # Next step's rows: each kept beam continues its parent's history; decided sentences leave, but
        # only as many as keep the open ones in whole groups (see LEAVE_IN_GROUPS_OF).
        parents = (torch.arange(live, device=device)[:, None] * k + parent).flatten()
        stay = None
        n_open, group = int((~done).sum()), LEAVE_IN_GROUPS_OF
        n_next = n_open if n_open <= group else -(-n_open // group) * group
        if n_next < live:
            kept = ~done
            kept[done.nonzero().flatten()[: n_next - n_open]] = True  # the first decided ones fill the group
            stay = kept.nonzero().flatten()
            done = done[stay]
            parents = parents.view(live, k)[stay].flatten()
            sentence, running, running_scores = sentence[stay], running[stay], running_scores[stay]
            finished, finished_scores = finished[stay], finished_scores[stay]
            finished_sums, finished_lengths, is_finished = (
                t[stay] for t in (finished_sums, finished_lengths, is_finished)
            )
            encoder, mask, source = encoder[stay], mask[stay], source[stay]
            if keys is not None:
                keys, same = keys[stay], same[stay]
        decoder.reorder(parents, stay)
        tokens = running[:, :, step].flatten()
    return results
