"""The composition at the heart of every builder: suggestions -> paraphraser -> filters -> one choice,
for a batch of questions at once, optionally iterated (Gan & Ng fig. 4).

    generate = QuestionParaphraser(paraphraser, source, filters, lang="en", top_k=3, steps=1, seed=0)
    outcomes = generate([Item("q1", "Who wrote Hamlet?", answer="Shakespeare")])

Each outcome is a JSON-ready dict. Selected: the paraphrase, its suggestion (text, matched n-gram, source,
relation), scores, step and the path of steps. Dropped: the stage where the question fell out and why --
the furthest stage any of its candidates reached (a question whose best candidate failed only the
similarity threshold fell out at ``similarity``, not at the cheap filters some other candidate failed).

Iteration (``steps > 1``): step k paraphrases step k-1's chosen paraphrase with a new suggestion found in
it; the filters still compare with the *original* question (and drop an output equal to the previous
step's), so meaning is anchored to the original while wording moves further. A question keeps the last
step that produced an accepted paraphrase.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from paraguide.model.paraphraser import Paraphraser
from paraguide.score.base import Scorer
from paraguide.score.filters import Candidate, FilterChain
from paraguide.suggest.base import Suggestion, SuggestionSource


@dataclass
class Item:
    """One question to paraphrase. QA items carry their answer and context (the answer-leak filter and
    the adversarial context source need them)."""

    key: str  # unique within a run: the SQuAD id, or "<pair>:<side>" for question pairs
    question: str
    answer: str | None = None
    context: str | None = None
    answer_start: int | None = None


def stage_names(chain: FilterChain) -> tuple[str, ...]:
    """Stages in the order a question passes them; ``selected`` last."""
    return ("suggestion", "paraphraser", *(f.name for f in chain.filters), "selected")


class QuestionParaphraser:
    """Batch-first: ``__call__(items)`` -> one outcome per item, in order. Deterministic for the same
    items, seed and machine (the choice among accepted paraphrases is seeded per question, so it does
    not depend on the batch or the process a question lands in)."""

    def __init__(
        self,
        paraphraser: Paraphraser,
        source: SuggestionSource | None,
        filters: FilterChain,
        lang: str = "en",
        top_k: int = 3,
        steps: int = 1,
        seed: int = 0,
        num_beams: int = 4,
        batch_size: int = 32,
        alternatives: int = 0,
        nbest: int = 1,
        in_place: bool = False,
        ranker: Scorer | None = None,
        rank_threshold: float | None = None,
        pool: int = 12,
    ):
        """``nbest``: the paraphraser's best ``nbest`` beams of each input are candidates (not only the first);
        0: none, the in-place candidates alone (``paraphraser`` may then be None).
        ``in_place``: the question with the suggestion put in place of its matched phrase (inflected like it)
        is a candidate too, beside the paraphraser's. ``ranker``: a similarity scorer that ranks up to
        ``pool`` suggestions of a question by how close the question with the suggestion in place stays to
        the question, and drops those below ``rank_threshold`` -- WordNet's other senses ("date" ->
        "appointment") fall out before the paraphraser spends time on them."""
        if steps < 1 or top_k < 1 or nbest < 0:
            raise ValueError("steps and top_k must be at least 1, nbest at least 0")
        if nbest == 0 and not in_place:
            raise ValueError("nbest 0 (no paraphraser beams) needs the in-place candidates (in_place=True)")
        if nbest and paraphraser is None:
            raise ValueError(f"nbest {nbest} needs a paraphraser")
        if nbest > num_beams:
            raise ValueError(f"nbest ({nbest}) cannot exceed num_beams ({num_beams})")
        self.paraphraser, self.source, self.filters = paraphraser, source, filters
        self.lang, self.top_k, self.steps, self.seed = lang, top_k, steps, seed
        self.num_beams, self.batch_size = num_beams, batch_size
        self.alternatives = alternatives  # other accepted paraphrases kept per question (seeded order)
        self.nbest, self.in_place, self.ranker = nbest, in_place, ranker
        self.rank_threshold, self.pool = rank_threshold, pool
        self.stages = stage_names(filters)

    def __call__(self, items: Sequence[Item]) -> list[dict]:
        outcomes: list[dict] = [{} for _ in items]
        current = {i: item.question for i, item in enumerate(items)}  # what the next step paraphrases
        paths: dict[int, list[dict]] = {i: [] for i in current}
        drops: dict[int, Counter] = {i: Counter() for i in current}  # candidates dropped, per stage
        for step in range(1, self.steps + 1):
            if not current:
                break
            active = sorted(current)
            chosen = self._step(items, active, current, paths, drops, step, outcomes)
            current = {i: chosen[i]["paraphrase"] for i in chosen}
        for i, item in enumerate(items):
            if paths[i]:
                last = paths[i][-1]
                steps = [{k: v for k, v in p.items() if k != "alternatives"} for p in paths[i]]
                outcomes[i] = {"key": item.key, "status": "selected", **last, "steps": steps}
                outcomes[i]["step"] = len(paths[i])
            outcomes[i]["candidate_drops"] = dict(sorted(drops[i].items()))
        return outcomes

    def _step(self, items, active, current, paths, drops, step, outcomes) -> dict[int, dict]:
        texts = [current[i] for i in active]
        suggestions = self._suggest([items[i] for i in active], texts)
        placed = self._placed(active, current, suggestions)
        unused = [
            [s for s in found if s.text not in {p["suggestion"] for p in paths[i]}]
            for i, found in zip(active, suggestions, strict=True)
        ]
        if self.ranker is not None:
            unused = self._rank([current[i] for i in active], unused, placed)
        inputs: list[tuple[int, Suggestion | None]] = []
        for i, found, fresh in zip(active, suggestions, unused, strict=True):
            fresh = fresh[: self.top_k]
            if self.source is None:
                fresh = [None]  # free paraphrasing: the empty suggestion
            elif not fresh and step == 1:
                reason = f"no suggestion from {self.source.name}"
                if found and self.ranker is not None:
                    reason = (
                        f"no suggestion of {self.source.name} kept its meaning in place ({self.ranker.name})"
                    )
                outcomes[i] = self._dropped(items[i], "suggestion", reason, 0)
            if not self.nbest:  # in-place candidates alone: a suggestion without an in-place form has none
                placeable = [s for s in fresh if s is not None and (current[i], s) in placed]
                if fresh and not placeable and step == 1:
                    reason = f"no suggestion of {self.source.name} could be put in place"
                    outcomes[i] = self._dropped(items[i], "suggestion", reason, 0)
                fresh = placeable
            inputs.extend((i, s) for s in fresh)
        if not inputs:
            return {}
        generated = [[] for _ in inputs]
        if self.nbest:
            generated = self.paraphraser.paraphrase(
                [current[i] for i, _ in inputs],
                [s.text if s else None for _, s in inputs],
                num_beams=self.num_beams,
                num_return_sequences=self.nbest,
                batch_size=self.batch_size,
                matched=[s.matched if s else None for _, s in inputs],
            )
        candidates: dict[int, list[Candidate]] = {}
        for (i, s), outputs in zip(inputs, generated, strict=True):
            item = items[i]
            texts = [(o.text, "paraphraser") for o in outputs[: self.nbest]]
            if self.nbest and not texts:
                texts = [("", "paraphraser")]
            if self.in_place and s is not None and (current[i], s) in placed:
                texts.append((placed[current[i], s], "in_place"))
            seen: set[str] = set()
            for text, origin in texts:
                if text in seen:
                    continue  # the paraphraser wrote the in-place question itself: one candidate
                seen.add(text)
                c = Candidate(
                    item.question,
                    text,
                    s.text if s else "",
                    item.answer,
                    self.lang,
                    matched=s.matched if s else "",
                    meta={"suggestion": s, "previous": current[i] if step > 1 else None, "origin": origin},
                )
                if not c.text:
                    c.dropped = "paraphraser: empty output"
                candidates.setdefault(i, []).append(c)
        self.filters([c for cs in candidates.values() for c in cs])
        chosen = {}
        for i, cs in candidates.items():
            drops[i].update(c.dropped.split(":", 1)[0] for c in cs if c.dropped)
            accepted = [c for c in cs if c.dropped is None]
            if accepted:
                rng = random.Random(f"{self.seed}:{items[i].key}:{step}")
                # An accepted in-place candidate is chosen before the paraphraser's: blind readers accepted
                # about half of those and one in seven of the paraphraser's (docs/build.md).
                placed_ok = [c for c in accepted if c.meta["origin"] == "in_place"]
                pool = placed_ok or accepted
                # and one of a union's first source (A|B prefers A: the defaults' question-word swaps, which
                # readers accepted 167 of 167 times in English, before synonyms, 82 of 133)
                best = min(_tier(c) for c in pool)
                pool = [c for c in pool if _tier(c) == best]
                pick = pool[rng.randrange(len(pool))]
                chosen[i] = self._record(pick, step, len(cs), len(accepted))
                if self.alternatives:  # augmentation may take more than one paraphrase per question
                    others = [c for c in accepted if c is not pick]
                    rng.shuffle(others)
                    texts = {pick.text}
                    chosen[i]["alternatives"] = []
                    for c in others:
                        if c.text not in texts and len(chosen[i]["alternatives"]) < self.alternatives:
                            texts.add(c.text)
                            chosen[i]["alternatives"].append(self._record(c, step, len(cs), len(accepted)))
                paths[i].append(chosen[i])
            elif step == 1:
                outcomes[i] = self._furthest(items[i], cs)
        return chosen

    def _placed(self, active, current, suggestions) -> dict[tuple[str, Suggestion], str]:
        """``(question, suggestion) -> the question with the suggestion in place``, for the suggestions
        that know their span (all but context chunks), when the ranker or the in-place candidates need it."""
        if not (self.in_place or self.ranker is not None):
            return {}
        from paraguide.text.pos import has_tagger, pos_tag
        from paraguide.text.substitute import after_do, fits, fix_do_support, head_tag, substitute

        placed = {}
        for i, found in zip(active, suggestions, strict=True):
            question = current[i]
            spanned = [s for s in found[: self.pool] if s.span is not None and s.matched]
            if not spanned:
                continue
            words, tags = [], []
            if self.lang == "en" and has_tagger("en"):
                tagged = pos_tag(question, "en")
                words = [t.text for t in tagged]
                tags = fix_do_support(words, [t.tag for t in tagged])
            for s in spanned:
                tag = head_tag(tags, s.span) if tags else ""
                if (
                    tags
                    and s.span[1] <= len(tags)
                    and not fits(s.text, tag, after_do(words, tags, s.span[0]))
                ):
                    continue  # a noun in a verb's slot, a verb in a noun's, "did ... be": no in-place form
                try:
                    placed[question, s] = substitute(question, s.span, s.text, self.lang, tag)
                except ValueError:
                    continue  # a span from another tokenisation: no in-place form
        return placed

    def _rank(
        self, questions: list[str], found: list[list[Suggestion]], placed: dict
    ) -> list[list[Suggestion]]:
        """Each question's suggestions by the ranker's similarity of the question with the suggestion in
        place (one batch for all questions; within a union's tier, ``A|B`` keeps A's first), those below
        the threshold dropped; suggestions without an
        in-place form keep their order after them."""
        pools = [f[: self.pool] for f in found]
        pairs = sorted(
            {
                (q, placed[q, s])
                for q, pool in zip(questions, pools, strict=True)
                for s in pool
                if (q, s) in placed
            }
        )
        scores = dict(zip(pairs, self.ranker.score(pairs), strict=True)) if pairs else {}
        ranked = []
        for q, pool in zip(questions, pools, strict=True):
            scored = [(scores[q, placed[q, s]], n, s) for n, s in enumerate(pool) if (q, s) in placed]
            kept = [
                s
                for score, _, s in sorted(scored, key=lambda x: (x[2].tier, -x[0], x[1]))
                if self.rank_threshold is None or score >= self.rank_threshold
            ]
            ranked.append(kept + [s for s in pool if (q, s) not in placed])
        return ranked

    def _suggest(self, items: Sequence[Item], texts: list[str]) -> list[list[Suggestion]]:
        if self.source is None:
            return [[] for _ in texts]
        # Ask for more than top_k: later steps skip suggestions already used, and the ranker reorders.
        k = max(self.top_k * self.steps, self.pool if self.ranker is not None else 0)
        if self.source.name == "context":
            return self.source.suggest(
                texts,
                k,
                contexts=[it.context or "" for it in items],
                answers=[it.answer or "" for it in items],
                answer_starts=[it.answer_start for it in items],
            )
        return self.source.suggest(texts, k)

    @staticmethod
    def _record(c: Candidate, step: int, candidates: int, accepted: int) -> dict:
        s: Suggestion | None = c.meta["suggestion"]
        return {
            "paraphrase": c.text,
            "suggestion": c.suggestion,
            "matched": s.matched if s else "",
            "suggestion_source": s.source if s else "none",
            "relation": s.relation if s else "",
            "scores": dict(c.scores),
            "origin": c.meta.get("origin", "paraphraser"),
            "step": step,
            "candidates": candidates,
            "accepted": accepted,
        }

    def _furthest(self, item: Item, candidates: list[Candidate]) -> dict:
        def reached(c: Candidate) -> int:
            return self.stages.index(c.dropped.split(":", 1)[0])

        best = max(candidates, key=reached)  # the first of the furthest (order is deterministic)
        stage, _, reason = best.dropped.partition(": ")
        if stage == "similarity":
            reason = f"below threshold ({reason})"
        return self._dropped(item, stage, reason, len(candidates))

    @staticmethod
    def _dropped(item: Item, stage: str, reason: str, candidates: int) -> dict:
        return {
            "key": item.key,
            "status": "dropped",
            "stage": stage,
            "reason": reason,
            "candidates": candidates,
        }


def _tier(c: Candidate) -> int:
    s: Suggestion | None = c.meta["suggestion"]
    return s.tier if s is not None else 0
