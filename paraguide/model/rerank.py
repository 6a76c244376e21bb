"""Choose, among a paraphraser's candidates for a question, the one that changes it and keeps it: n-best
reranking by round trip (a noisy channel: Yu et al. 2017; used for paraphrase selection since
Mallinson et al. 2017).

Beam search's best is the most probable rewrite, and for a question the most probable rewrite is a copy
or a one-token change (the bundled English adapter copies a quarter of SQuAD's questions). Further down
the n-best sit deeper rewrites, some of which have dropped what the question hangs on. The round trip
tells them apart without a second model: how well the same adapter writes the *question* back from the
candidate (mean log-probability per token, free rewriting, teacher-forced). A rewrite that lost a
qualifier or changed the question type is hard to write back from; one that reworded it is not. The
ranking puts first the best ``forward + weight * backward`` among the candidates that change at least
``min_edit`` of the question's tokens (and use the suggestion, where one was asked and any candidate
does), and the best overall where none does -- it ranks, it never rejects.

Read blind (docs/paraphraser.md, tag 2026-11-27b: 100 free and 100 guided rewrites of SQuAD dev questions
by the bundled English adapter): fluent and the same question with edit rate >= 0.14 in 35 % / 30 % of
them with 8 beams ranked this way, against 15 % / 17 % for the best of 4 beams and 27 % / 27 % for the most
probable of 8 that changes enough (``weight=0``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from paraguide.text.edits import edit_rate
from paraguide.text.language import has_cjk

SELECTIONS = ("beam", "round-trip")  # how a paraphraser orders its candidates: beam search's order, or this
MIN_EDIT = 0.14  # the token edit rate of a rewrite rather than a swap (issue 30: Gan & Ng's set's median)


def round_trip(
    paraphraser,
    questions: Sequence[str],
    candidates: Sequence[Sequence],
    lang: str | None = None,
    min_edit: float = MIN_EDIT,
    weight: float = 1.0,
    batch_size: int = 32,
    keeps: Callable[[Sequence[str], Sequence], Sequence[bool]] | None = None,
    top: int | None = None,
    bonus: Callable[[Sequence[str]], Sequence[float]] | None = None,
) -> list[list]:
    """Each question's ``candidates`` (a :class:`~paraguide.model.paraphraser.CausalParaphraser`'s n-best
    or samples) ranked as the module says: those that use the suggestion (where any does) and change at
    least ``min_edit`` of the question's tokens first, each group by ``forward + weight * backward``; every
    :class:`~paraguide.model.paraphraser.Paraphrase` carries its combined ``score``. ``lang``: how tokens
    are counted (None: Chinese for a question with CJK characters, else English). ``keeps``: a check of
    meaning on the text alone, ``keeps(questions, candidates) -> [bool]`` over flat lists (the pipeline's
    filters: a content word lost, a question word brought in, a scope word changed); within each group
    (the suggestion used or not, enough changed or not) the candidates it passes come before the ones it
    fails -- it ranks, it never rejects.
    The model itself does not know the filters: the caller brings them (``paraguide.score.filters``).
    ``top``: only each question's first ``top`` are wanted (and returned); the backward pass, the costly
    part, then scores only the groups those places can come from -- the same first ``top``, found faster.
    ``bonus``: another score of the rewrites' texts, ``bonus(texts) -> [float]``, added to each wanted
    candidate's (e.g. a pretrained LM's fluency: among rewrites that keep the question, the ones that read
    well first)."""
    if len(questions) != len(candidates):
        raise ValueError(f"{len(questions)} questions but {len(candidates)} candidate lists")
    flat = [(i, c) for i, cands in enumerate(candidates) for c in cands]
    passed = keeps([questions[i] for i, _ in flat], [c for _, c in flat]) if keeps else [True] * len(flat)
    # each candidate's group -- (does not use the suggestion where another does, changes too little, fails
    # the check) -- orders it first; its score orders it only within its group
    uses = [any(c.includes_suggestion for c in cands) for cands in candidates]
    group = []
    for k, (i, c) in enumerate(flat):
        q_lang = lang or ("zh" if has_cjk(questions[i]) else "en")
        too_little = edit_rate(questions[i], c.text, q_lang) < min_edit
        group.append((uses[i] and not c.includes_suggestion, too_little, not passed[k]))
    wanted = [top is None] * len(flat)
    if top is not None:  # the groups the first `top` places come from, in order; the rest are never seen
        start = 0
        for cands in candidates:  # flat holds each question's candidates side by side
            ks, start = range(start, start + len(cands)), start + len(cands)
            taken = 0
            for key in sorted({group[k] for k in ks}):
                if taken >= top:
                    break
                members = [k for k in ks if group[k] == key]
                for k in members:
                    wanted[k] = True
                taken += len(members)
    pairs = list(dict.fromkeys((c.text, questions[i]) for k, (i, c) in enumerate(flat) if wanted[k]))
    scores = paraphraser.log_likelihood([p[0] for p in pairs], [p[1] for p in pairs], batch_size=batch_size)
    back = dict(zip(pairs, scores, strict=True))
    texts = list(dict.fromkeys(c.text for k, (_, c) in enumerate(flat) if wanted[k]))
    extra = dict(zip(texts, bonus(texts), strict=True)) if bonus else {}
    ranked: list[list] = [[] for _ in questions]  # (group, candidate with its combined score)
    for k, (i, c) in enumerate(flat):
        if wanted[k]:
            score = c.score + weight * back[c.text, questions[i]] + extra.get(c.text, 0.0)
            ranked[i].append((group[k], replace(c, score=score)))
    for options in ranked:
        options.sort(key=lambda o: (*o[0], -o[1].score))
    return [[c for _, c in options][:top] for options in ranked]
