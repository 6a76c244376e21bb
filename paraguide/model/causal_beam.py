"""Batched beam search for the decoder-only paraphraser (:mod:`paraguide.model.causal`), with a KV cache.

Why not ``generate``: the copy head mixes a distribution over the prompt into every step, over an output
layer restricted to the tokens the task can produce; both need the last hidden state and the prompt's
copy keys, which ``generate``'s logits processors never see. Prompts are left-padded so that every row's
last prompt token sits in the last column and one forward pass per step serves the whole batch; the
prompt's copy keys are computed once per sentence. A sentence whose K best hypotheses are finished leaves
the batch (its rows are dropped from the cache), as in :mod:`paraguide.model.beam`.

Scores are transformers' (``sum log P / length ** length_penalty``, the end token counted), and so is the
stopping rule (``early_stopping=False``: a sentence is done when its worst kept hypothesis beats what the
best live beam could still reach at the current length).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class Hypothesis:
    tokens: list[int]  # generated ids, end token excluded
    score: float  # sum log P / length ** length_penalty
    mean_log_prob: float  # sum log P / length (what paraguide reports)


def left_pad(rows: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    length = max(map(len, rows))
    ids = torch.full((len(rows), length), pad_id)
    mask = torch.zeros((len(rows), length), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, length - len(r) :] = torch.tensor(r)
        mask[i, length - len(r) :] = 1
    return ids, mask


@torch.no_grad()
def beam_search(
    model,
    prompts: list[list[int]],
    copyable: list[list[int]],
    eos_id: int,
    pad_id: int,
    num_beams: int = 4,
    max_new_tokens: int = 48,
    min_new_tokens: int = 0,
    length_penalty: float = 1.0,
) -> list[list[Hypothesis]]:
    """The ``num_beams`` best paraphrases of each prompt, best first."""
    device = model.vocab_ids.device
    K = num_beams
    p = _prepare(model, prompts, copyable, eos_id, pad_id, K)
    rows, eos_col, cache, keys, values = p.rows, p.eos_col, p.cache, p.keys, p.values
    copy, cols, mask, allowed, head = p.copy, p.cols, p.mask, p.allowed, p.head
    h_last, next_pos = p.h_last, p.next_pos
    B = len(prompts)
    scores = torch.zeros(B, K, device=device)
    scores[:, 1:] = -torch.inf  # one live beam at the start: K copies would fill the beam with duplicates
    generated = torch.zeros(B * K, 0, dtype=torch.long, device=device)
    live = list(range(B))  # the sentences still in the batch, in row-group order
    finished: list[list[Hypothesis]] = [[] for _ in range(B)]
    for t in range(max_new_tokens):
        logp = model.step_log_probs(h_last, keys, values, copy, cols, rows, allowed, head)  # (G·K, V)
        if t < min_new_tokens:
            logp[:, eos_col] = -torch.inf
        V = logp.size(-1)
        G = len(live)
        total = (scores.view(-1, 1) + logp).view(G, K * V)
        top, where = total.topk(2 * K, dim=-1)
        beam, col = where // V, where % V
        length = t + 1
        next_scores = torch.full((G, K), -torch.inf, device=device)
        next_rows = torch.zeros(G, K, dtype=torch.long, device=device)
        next_cols = torch.zeros(G, K, dtype=torch.long, device=device)
        keep = []
        top_l, beam_l, col_l = top.tolist(), beam.tolist(), col.tolist()
        for g, s in enumerate(live):
            k = 0
            for rank in range(2 * K):
                score, b, c = top_l[g][rank], beam_l[g][rank], col_l[g][rank]
                if score == -float("inf"):
                    break
                if c == eos_col:
                    if rank < K:  # transformers: an end among the K best counts, later ones do not
                        toks = generated[g * K + b].tolist()
                        _add(finished[s], Hypothesis(toks, score / length**length_penalty, score / length), K)
                    continue
                next_scores[g, k], next_rows[g, k], next_cols[g, k] = score, g * K + b, c
                k += 1
                if k == K:
                    break
            best_live = next_scores[g, 0].item()
            done = len(finished[s]) >= K and finished[s][-1].score >= best_live / length**length_penalty
            keep.append(not done)
        select = next_rows.view(-1)
        generated = torch.cat([generated[select], rows[next_cols.view(-1)][:, None]], 1)
        scores = next_scores
        if t == max_new_tokens - 1:
            break
        if not all(keep):  # drop the finished sentences' rows
            kept_groups = [g for g, k in enumerate(keep) if k]
            if not kept_groups:
                live = []
                break
            group_rows = torch.tensor([g * K + j for g in kept_groups for j in range(K)], device=device)
            # rows of the new beams that belong to kept sentences, in the new order
            select = select.view(G, K)[kept_groups].reshape(-1)
            generated = generated.view(G, K, -1)[kept_groups].reshape(len(kept_groups) * K, -1)
            scores = scores[kept_groups]
            live = [live[g] for g in kept_groups]
            keys, values, copy, cols, allowed = (
                keys[group_rows],
                values[group_rows],
                copy[group_rows],
                cols[group_rows],
                allowed[group_rows],
            )
            mask, next_pos = mask[group_rows], next_pos[group_rows]
        cache.reorder_cache(select)
        step_ids = generated[:, -1:]
        mask = torch.cat([mask, torch.ones_like(step_ids)], 1)
        h, cache = model.hidden(
            step_ids, mask, past_key_values=cache, position_ids=next_pos[:, None], use_cache=True
        )
        h_last, next_pos = h[:, -1], next_pos + 1
    # Sentences still running at the length limit: their live beams count as finished.
    for g, s in enumerate(live):
        for j in range(K):
            score = scores[g, j].item()
            if score > -float("inf"):
                length = generated.size(1)
                _add(
                    finished[s],
                    Hypothesis(generated[g * K + j].tolist(), score / length**length_penalty, score / length),
                    K,
                )
    return finished


def _add(kept: list[Hypothesis], h: Hypothesis, K: int) -> None:
    """Keep the K best finished hypotheses, sorted best first."""
    kept.append(h)
    kept.sort(key=lambda x: -x.score)
    del kept[K:]


@dataclass
class _Prepared:
    """Every sentence's prompt run once and its rows repeated for its beams or samples."""

    rows: torch.Tensor  # the token ids the output layer scores
    eos_col: int
    cache: object
    keys: torch.Tensor
    values: torch.Tensor
    copy: torch.Tensor
    cols: torch.Tensor
    mask: torch.Tensor
    allowed: torch.Tensor
    head: torch.Tensor
    h_last: torch.Tensor
    next_pos: torch.Tensor


def _prepare(model, prompts, copyable, eos_id: int, pad_id: int, repeats: int) -> _Prepared:
    device = model.vocab_ids.device
    ids, mask = left_pad(prompts, pad_id)
    copy, _ = left_pad(copyable, 0)
    ids, mask, copy = ids.to(device), mask.to(device), copy.to(device)
    rows = model.output_rows(ids[mask.bool()])
    eos_col = int(torch.searchsorted(rows, torch.tensor(eos_id, device=device)))
    position = (mask.cumsum(-1) - 1).clamp_min(0)
    h, cache = model.hidden(ids, mask, position_ids=position, use_cache=True)
    keys, values = model.copy_key(h), h
    cols = torch.searchsorted(rows, ids).clamp_max(len(rows) - 1)
    # A sentence writes the training vocabulary and its own prompt's tokens, never another sentence's:
    # its paraphrases do not depend on the batch it is in.
    allowed = torch.zeros(len(prompts), len(rows), dtype=torch.long, device=device).scatter_add_(
        1, cols, mask
    )
    allowed = (allowed > 0) | torch.isin(rows, model.vocab_ids)[None]

    def rep(t):
        return t.repeat_interleave(repeats, 0)

    cache.batch_repeat_interleave(repeats)
    head = model.decoder.embed_tokens.weight[rows]  # the output layer's rows, gathered once per search
    return _Prepared(
        rows, eos_col, cache, rep(keys), rep(values), rep(copy), rep(cols), rep(mask), rep(allowed), head,
        rep(h[:, -1]), rep(position[:, -1] + 1),
    )  # fmt: skip


@torch.no_grad()
def sample(
    model,
    prompts: list[list[int]],
    copyable: list[list[int]],
    eos_id: int,
    pad_id: int,
    num_samples: int = 4,
    max_new_tokens: int = 48,
    temperature: float = 1.0,
    top_p: float = 0.9,
    generator: torch.Generator | None = None,
) -> list[list[Hypothesis]]:
    """``num_samples`` nucleus samples (Holtzman et al. 2020) of each prompt, distinct, most probable
    first: several different candidates where beams mostly differ in a word. ``generator`` seeds them."""
    if temperature <= 0 or not 0 < top_p <= 1:
        raise ValueError("temperature must be positive and top_p in (0, 1]")
    p = _prepare(model, prompts, copyable, eos_id, pad_id, num_samples)
    cache, mask, h_last, next_pos = p.cache, p.mask, p.h_last, p.next_pos
    R = h_last.size(0)
    done = torch.zeros(R, dtype=torch.bool, device=h_last.device)
    total = torch.zeros(R, device=h_last.device)
    length = torch.zeros(R, device=h_last.device)
    steps = []
    for _ in range(max_new_tokens):
        logp = model.step_log_probs(h_last, p.keys, p.values, p.copy, p.cols, p.rows, p.allowed, p.head)
        probs = (logp / temperature).softmax(-1)
        ranked, order = probs.sort(-1, descending=True)
        # the smallest set of top tokens whose mass reaches top_p (the first token always stays)
        ranked = ranked.masked_fill(ranked.cumsum(-1) - ranked >= top_p, 0.0)
        col = order.gather(-1, torch.multinomial(ranked, 1, generator=generator)).squeeze(-1)
        col = col.masked_fill(done, p.eos_col)
        total += logp.gather(-1, col[:, None]).squeeze(-1).masked_fill(done, 0.0)
        length += (~done).float()
        steps.append(col)
        done |= col == p.eos_col
        if bool(done.all()):
            break
        step_ids = p.rows[col][:, None]
        mask = torch.cat([mask, torch.ones_like(step_ids)], 1)
        h, cache = model.hidden(
            step_ids, mask, past_key_values=cache, position_ids=next_pos[:, None], use_cache=True
        )
        h_last, next_pos = h[:, -1], next_pos + 1
    cols = torch.stack(steps, 1).tolist()
    out: list[list[Hypothesis]] = [[] for _ in prompts]
    for r, row in enumerate(cols):
        toks = [int(p.rows[c]) for c in (row[: row.index(p.eos_col)] if p.eos_col in row else row)]
        n = max(length[r].item(), 1.0)
        kept = out[r // num_samples]
        if all(h.tokens != toks for h in kept):
            kept.append(Hypothesis(toks, total[r].item() / n, total[r].item() / n))
    for kept in out:
        kept.sort(key=lambda h: -h.score)
    return out
