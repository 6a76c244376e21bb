"""A paraphraser's quality on held-out pairs (the numbers model cards and comparisons report): BLEU to the
reference, suggestion inclusion, the share identical to the source, the copy rate, and decoding speed."""

from __future__ import annotations

import time

from paraguide.model.paraphraser import Paraphraser, includes
from paraguide.text import tokenize


def decode(paraphraser: Paraphraser, rows: list[dict], **kw) -> tuple[list[str], float]:
    """The best beam (beam search 4) for each row's source and suggestion, and the seconds it took."""
    start = time.perf_counter()
    out = paraphraser.paraphrase(
        [r["source"] for r in rows], [r["suggestion"] for r in rows], num_beams=4, batch_size=64, **kw
    )
    return [x[0].text for x in out], time.perf_counter() - start


def quality(outputs: list[str], rows: list[dict], lang: str) -> dict:
    """BLEU of ``outputs`` to the rows' targets (sacrebleu, lower-cased; Chinese tokenised by character)
    and the share of non-empty suggestions found in the output (whole words; Chinese: substring)."""
    import sacrebleu

    with_suggestion = [(o, r) for o, r in zip(outputs, rows, strict=True) if r["suggestion"]]
    bleu = sacrebleu.corpus_bleu(
        [o.lower() for o in outputs],
        [[r["target"].lower() for r in rows]],
        tokenize="zh" if lang == "zh" else "13a",
    )
    inclusion = sum(includes(o, r["suggestion"]) for o, r in with_suggestion) / max(1, len(with_suggestion))
    return {"bleu": round(bleu.score, 2), "suggestion_inclusion": round(inclusion, 4)}


def identical_to_source(outputs: list[str], rows: list[dict]) -> float:
    """The share of outputs equal to their source, case aside (a cased model's output is compared as the
    lower-cased models' is): the model copied instead of paraphrasing."""
    same = sum(o.lower().strip() == r["source"].lower().strip() for o, r in zip(outputs, rows, strict=True))
    return round(same / max(1, len(rows)), 4)


def copy_rate(outputs: list[str], rows: list[dict], lang: str) -> float:
    """The share of output words that occur in the source question."""
    copied = total = 0
    for o, r in zip(outputs, rows, strict=True):
        source = set(tokenize(r["source"].lower(), lang))
        words = tokenize(o.lower(), lang)
        copied += sum(w in source for w in words)
        total += len(words)
    return round(copied / max(1, total), 4)
