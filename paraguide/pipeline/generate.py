"""The composition at the heart of every builder: suggestions -> paraphraser -> filters -> one choice, for a
batch of questions at once, optionally iterated (Gan & Ng fig. 4).

    generate = QuestionParaphraser.for_testset("en")
    generate.paraphrase_many(["Which country did the Normans conquer?"])  # -> ["What country did ..."]
    outcomes = generate([Item("q1", "Who wrote Hamlet?", answer="Shakespeare")])  # -> [Outcome]

Iteration (``steps > 1``): step k paraphrases step k-1's chosen paraphrase with a new suggestion found in it;
the filters still compare with the *original* question, so meaning stays anchored while wording moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from contextlib import nullcontext

from paraguide.arguments import texts
from paraguide.model.paraphraser import Paraphraser
from paraguide.model.rerank import MIN_EDIT
from paraguide.pipeline.config import SELECTIONS, GeneratorConfig
from paraguide.pipeline.records import Choice, Item, Outcome
from paraguide.score.base import Scorer
from paraguide.score.filters import Candidate, FilterChain
from paraguide.suggest.base import Suggestion, SuggestionSource
from paraguide.text.language import NO_WORD, has_word
from paraguide.text.substitute import Placed

__all__ = ["Item", "Outcome", "QuestionParaphraser", "stage_names"]


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
        free: bool = False,
        guided: bool = True,
        reorder: bool = False,
        indirect: bool = True,
        select: str = "first",
        guide_check: tuple[Scorer, float] | None = None,
    ):
        """``nbest``: the paraphraser's best ``nbest`` beams of each input are candidates (not only the first);
        0: none, the in-place candidates alone (``paraphraser`` may then be None).
        ``in_place``: the question with the suggestion put in place of its matched phrase (inflected like it)
        is a candidate too, beside the paraphraser's. ``ranker``: a similarity scorer that ranks up to
        ``pool`` suggestions of a question by how close the question with the suggestion in place stays to
        the question, and drops those below ``rank_threshold`` -- WordNet's other senses ("date" ->
        "appointment") fall out before the paraphraser spends time on them. ``free``: each question is also
        rewritten with no suggestion. ``guided``: the paraphraser also rewrites the question under each
        suggestion (False: a suggestion gives its in-place candidate alone). ``select``: "first" (in-place
        candidates, then the source's order, then a seeded draw) or "depth" (the accepted candidate that
        changes the question most by token edit rate; a question-word-only swap or a change of function
        words alone only when nothing else passed) or "round-trip" (the paraphraser, a pretrained one, ranks its beams by round trip --
        paraguide.model.rerank -- and of the accepted candidates that change at least MIN_EDIT of the
        question's tokens and more than its question word or function words, the one with the best round
        trip is chosen). ``reorder``: the question reordered (text.reorder) is a candidate too, and an accepted reordering that changes more than function words is chosen before
        any other candidate (the deepest of them), whatever ``select`` says; ``indirect``: with ``reorder``,
        the question asked as an indirect one too ("Can you tell me when ...", 你知道 ... 吗), chosen only
        where nothing else passes but a question-word swap (FALLBACK_ORIGINS). ``guide_check``: ``(scorer,
        threshold)``, the pretrained paraphraser's swap check (``paraguide.score.likelihood``): only the
        suggestions whose in-place question it scores at the threshold or above guide the paraphraser, up
        to ``top_k`` of them in the order of that score (the in-place candidates are as without it) -- a
        rewrite guided by another sense of a word cannot be right (reading 2026-11-29f)."""
        if steps < 1 or top_k < 1 or nbest < 0:
            raise ValueError("steps and top_k must be at least 1, nbest at least 0")
        if nbest == 0 and not in_place:
            raise ValueError("nbest 0 (no paraphraser beams) needs the in-place candidates (in_place=True)")
        if nbest and paraphraser is None:
            raise ValueError(f"nbest {nbest} needs a paraphraser")
        if nbest > num_beams:
            raise ValueError(f"nbest ({nbest}) cannot exceed num_beams ({num_beams})")
        if select not in SELECTIONS:
            raise ValueError(f"select must be {' or '.join(SELECTIONS)}, not {select!r}")
        if free and not nbest:
            raise ValueError("free rewrites need the paraphraser (nbest at least 1)")
        if nbest and not (guided or free):
            raise ValueError("with guided False the paraphraser writes free rewrites only: give free=True")
        if select == "round-trip" and not hasattr(paraphraser, "log_likelihood"):
            raise ValueError("select 'round-trip' needs the pretrained paraphraser (a causal adapter)")
        self.paraphraser, self.source, self.filters = paraphraser, source, filters
        self.lang, self.top_k, self.steps, self.seed = lang, top_k, steps, seed
        self.num_beams, self.batch_size = num_beams, batch_size
        self.alternatives = alternatives  # other accepted paraphrases kept per question (seeded order)
        self.nbest, self.in_place, self.ranker = nbest, in_place, ranker
        self.rank_threshold, self.pool = rank_threshold, pool
        self.free, self.reorder, self.indirect, self.select = free, reorder, indirect, select
        self.guided = guided
        self.guide_check = guide_check
        self.stages = stage_names(filters)
        self.components: dict = {}  # what it is made of, for a run's summary (set by load_generator)

    # Named presets (TextAttack's recipes): the defaults of each use, any option overridable by name.

    @classmethod
    def from_config(cls, config: GeneratorConfig, device=None) -> QuestionParaphraser:
        """Check, load and compose what a :class:`~paraguide.pipeline.config.GeneratorConfig` names."""
        from paraguide.pipeline.components import load_generator  # it imports this module

        config.check()
        return load_generator(config, device=device)

    @classmethod
    def for_testset(cls, lang: str = "en", qa: bool = False, **options) -> QuestionParaphraser:
        """The test-set default of ``lang``: question words swapped, then agreed synonyms put in place,
        ranked and filtered (docs/build.md). ``qa=True`` when items carry answers (answer-leak filter)."""
        return cls.from_config(GeneratorConfig(lang=lang, use="testset", qa=qa, **options))

    @classmethod
    def for_augmentation(
        cls, lang: str = "en", per_question: int = 1, qa: bool = False, **options
    ) -> QuestionParaphraser:
        """The augmentation default: as the test set's, with the augmentation threshold, keeping up to
        ``per_question`` accepted paraphrases of a question."""
        config = GeneratorConfig(lang=lang, use="augment", qa=qa, alternatives=per_question - 1, **options)
        return cls.from_config(config)

    @classmethod
    def for_adversarial(cls, lang: str = "en", **options) -> QuestionParaphraser:
        """Adversarial questions: a word of the question swapped in place for a synonym the context says near
        a same-type distractor of the answer (source ``near``, preset ``adversarial``), the adversarial
        thresholds; ``source="context"``: context chunks woven in by the paraphraser's free rewrite. Items
        need context and answer."""
        return cls.from_config(GeneratorConfig(lang=lang, use="adversarial", qa=True, **options))

    def __call__(self, items: Sequence[Item]) -> list[Outcome]:
        """One :class:`Outcome` per item, in order: selected with the choice of each step, or dropped with
        the stage and reason -- the furthest stage any of its candidates reached (a question whose best
        candidate failed only the similarity threshold fell out at ``similarity``)."""
        outcomes = [Outcome(item.key) for item in items]
        current = {i: item.question for i, item in enumerate(items)}  # what the next step paraphrases
        drops: dict[int, Counter] = {i: Counter() for i in current}  # candidates dropped, per stage
        for step in range(1, self.steps + 1):
            if not current:
                break
            # one step asks the paraphraser for the same likelihoods more than once (the round trip, the
            # learnt acceptance, the choice): each is computed once, and forgotten after the step
            remembering = getattr(self.paraphraser, "remembering", nullcontext)
            with remembering():
                chosen = self._step(items, sorted(current), current, outcomes, drops, step)
            current = {i: c.paraphrase for i, c in chosen.items()}
        for i, outcome in enumerate(outcomes):
            outcome.candidate_drops = dict(sorted(drops[i].items()))
        return outcomes

    def paraphrase_many(self, questions: Sequence[str]) -> list[str | None]:
        """Strings in, strings out: each question's accepted paraphrase, or None where none was accepted
        (``__call__`` says why)."""
        questions = texts(questions, "questions")
        outcomes = self([Item(str(n), q) for n, q in enumerate(questions)])
        return [o.paraphrase if o.selected else None for o in outcomes]

    def _step(self, items, active, current, outcomes, drops, step) -> dict[int, Choice]:
        texts = [current[i] for i in active]
        suggestions = self._suggest([items[i] for i in active], texts)
        placed = self._placed(active, current, suggestions)
        unused = [
            [s for s in found if s.text not in {c.suggestion for c in outcomes[i].steps}]
            for i, found in zip(active, suggestions, strict=True)
        ]
        if self.ranker is not None:
            unused = self._rank([current[i] for i in active], unused, placed)
        guides = None  # with guide_check: the suggestions the paraphraser is given, per question
        if self.guide_check is not None and self.nbest and self.source is not None:
            guides = self._guides([current[i] for i in active], unused, placed)
        # (question, suggestion, whether the paraphraser rewrites it -- else its in-place form alone)
        inputs: list[tuple[int, Suggestion | None, bool]] = []
        for n, (i, found, fresh) in enumerate(zip(active, suggestions, unused, strict=True)):
            fresh = fresh[: self.top_k]
            if step == 1 and not has_word(current[i]):  # emoji or punctuation alone: nothing to paraphrase
                outcomes[i].stage, outcomes[i].reason = "suggestion", NO_WORD
                continue
            if self.source is None:
                fresh = [None]  # free paraphrasing: the empty suggestion
            elif not fresh and step == 1:
                reason = f"no suggestion from {self.source.name}"
                if found and self.ranker is not None:
                    reason = (
                        f"no suggestion of {self.source.name} kept its meaning in place ({self.ranker.name})"
                    )
                outcomes[i].stage, outcomes[i].reason = "suggestion", reason
            # A free rewrite beside the suggestions (at the first step also where there are none).
            if self.free and self.source is not None and has_word(current[i]) and (fresh or step == 1):
                if not fresh and outcomes[i].stage == "suggestion":
                    outcomes[i].stage, outcomes[i].reason = None, None
                fresh = [*fresh, None]
            if not self.nbest:  # in-place candidates alone: a suggestion without an in-place form has none
                placeable = [s for s in fresh if s is not None and (current[i], s) in placed]
                if fresh and not placeable and step == 1:
                    reason = f"no suggestion of {self.source.name} could be put in place"
                    outcomes[i].stage, outcomes[i].reason = "suggestion", reason
                fresh = placeable
            if guides is None:  # unguided: a suggestion's in-place candidate alone, the free rewrite asked
                inputs.extend((i, s, self.guided or s is None) for s in fresh)
                continue
            # with the guide check: the paraphraser rewrites the question freely and under the suggestions
            # that pass it; the others give their in-place candidates alone
            guided = guides[n][: self.top_k]
            tried = [*fresh, *(s for s in guided if s not in fresh)]
            inputs.extend((i, s, s is None or s in guided) for s in tried)
        reorderable = [i for i in active if self.reorder and has_word(current[i])]
        if not inputs and not reorderable:
            return {}
        # A question whose reordering passes and rephrases it takes that reordering whatever else passes
        # (_pick): filter the reorderings first and spend no beam or swap check on such a question. Not with
        # augmentation's alternatives (they draw on every accepted candidate) nor without the paraphraser.
        reordered: dict[int, list[Candidate]] = {}
        if reorderable:
            self._reorderings(items, reorderable, current, reordered, step)
        settled: set[int] = set()
        early = bool(reordered and self.nbest and not self.alternatives)
        if early:
            self.filters([c for cs in reordered.values() for c in cs])
            settled = {i for i, cs in reordered.items() if any(_settles(c) for c in cs)}
            inputs = [(i, s, asked) for i, s, asked in inputs if i not in settled]
        generated = [[] for _ in inputs]
        ask = [(j, i, s) for j, (i, s, asked) in enumerate(inputs) if asked]
        if self.nbest and ask:
            written = self.paraphraser.paraphrase(
                [current[i] for _, i, _ in ask],
                # the suggestion as it would stand in the question ("situated", not WordNet's "situate"):
                # the paraphraser learned to copy its suggestion word for word (its training suggestions
                # are phrases of the targets), so a lemma came out uninflected ("is situate")
                [_prompted(s, placed.get((current[i], s))) for _, i, s in ask],
                num_beams=self.num_beams,
                num_return_sequences=self.nbest,
                batch_size=self.batch_size,
                matched=[s.matched if s else None for _, _, s in ask],
                # ranked by round trip only where it picks which beams are kept: with every beam kept, the
                # filters run first and the round trip is written for those that pass (_round_trip)
                **(
                    {"select": "round-trip"}
                    if self.select == "round-trip" and self.nbest < self.num_beams
                    else {}
                ),
            )
            for (j, _, _), outputs in zip(ask, written, strict=True):
                generated[j] = outputs
        candidates: dict[int, list[Candidate]] = {}
        for (i, s, asked), outputs in zip(inputs, generated, strict=True):
            texts = [(o.text, "paraphraser") for o in outputs[: self.nbest]]
            if self.nbest and asked and not texts:
                texts = [("", "paraphraser")]
            in_place = None
            if self.in_place and s is not None and (current[i], s) in placed:
                in_place = placed[current[i], s].text
                texts.append((in_place, "in_place"))
            seen: set[str] = set()
            for text, origin in texts:
                if text in seen:
                    continue  # the paraphraser wrote the in-place question itself: one candidate
                seen.add(text)
                # ... and it is the in-place swap, whoever wrote it (the learnt acceptance scores rewrites only)
                origin = "in_place" if text == in_place else origin
                c = self._candidate(items[i], text, s, current[i], step, origin)
                if not c.text:
                    c.drop("paraphraser", "empty output")
                candidates.setdefault(i, []).append(c)
        made = [c for cs in candidates.values() for c in cs]
        for i, cs in reordered.items():  # after each question's other candidates, a text once (theirs first)
            seen = {c.text for c in candidates.get(i, [])}
            candidates.setdefault(i, []).extend(c for c in cs if c.text not in seen)
        for i in reorderable:  # a question without suggestions may still be reordered
            if step == 1 and i in candidates and outcomes[i].stage == "suggestion":
                outcomes[i].stage, outcomes[i].reason = None, None
        # the reorderings filtered first where they could settle a question, else all in one batch as before
        self.filters(made if early else [c for cs in candidates.values() for c in cs])
        if self.select == "round-trip":
            self._round_trip([c for cs in candidates.values() for c in cs if c.dropped_by is None])
        chosen = {}
        for i, cs in candidates.items():
            drops[i].update(c.dropped_by for c in cs if c.dropped_by)
            passed = [c for c in cs if c.dropped_by is None]
            accepted = [c for c in passed if c.meta["origin"] not in FALLBACK_ORIGINS]
            fallback = [c for c in passed if c.meta["origin"] in FALLBACK_ORIGINS]
            if not passed:
                if step == 1:
                    outcomes[i].stage, outcomes[i].reason = self._furthest(cs)
                    outcomes[i].candidates = len(cs)
                continue
            rng = random.Random(f"{self.seed}:{items[i].key}:{step}")
            pick = self._pick(accepted, rng) if accepted else None
            if fallback and (pick is None or not _depth(pick)[0]):
                pick = fallback[0]  # nothing else passed but a question-word swap (FALLBACK_ORIGINS)
            chosen[i] = self._choice(pick, step, len(cs), len(passed))
            outcomes[i].steps.append(chosen[i])
            self._alternatives(outcomes[i], pick, accepted or fallback, rng, step, len(cs))
        return chosen

    def _pick(self, accepted: list[Candidate], rng: random.Random) -> Candidate:
        """The accepted candidate to choose (``select``)."""
        # A reordering that changes more than function words comes first, the deepest of them: readers
        # accepted 83 % of those against 47 % of the pretrained paraphraser's rewrites (docs/build.md).
        reordered = [c for c in accepted if _settles(c)]
        if reordered or self.select == "depth":
            return max(reordered or accepted, key=lambda c: (*_depth(c), rng.random()))
        if self.select == "round-trip":  # of those that change enough, the one the paraphraser reads best
            return max(accepted, key=_round_trip_rank)
        # An accepted in-place candidate is chosen before the paraphraser's: blind readers accepted far more
        # of those (docs/build.md).
        placed_ok = [c for c in accepted if c.meta["origin"] == "in_place"]
        pool = placed_ok or accepted
        # and one of a union's first source (A|B prefers A: the defaults' question-word swaps, which readers
        # accepted nearly every time, before synonyms; docs/build.md)
        best = min(_tier(c) for c in pool)
        pool = [c for c in pool if _tier(c) == best]
        pick = pool[rng.randrange(len(pool))]
        if all("paraphraser" in c.scores for c in pool):  # the swap it writes most readily
            pick = max(pool, key=lambda c: c.scores["paraphraser"])
        return pick

    def _round_trip(self, passed: list[Candidate]) -> None:
        """Score each candidate that passed the filters by round trip (``scores["round_trip"]``): the
        pretrained paraphraser's mean log-probability of writing it from the question plus that of writing
        the question back from it, free rewriting both ways (paraguide.model.rerank) -- a rewrite that lost a
        qualifier or turned the question is hard to write back from. Fallbacks are not scored (taken last
        whatever their score). A candidate the learnt acceptance scored already has its round trip."""
        scored = [
            c for c in passed if c.meta["origin"] not in FALLBACK_ORIGINS and "round_trip" not in c.scores
        ]
        pairs = sorted({(c.source, c.text) for c in scored})
        if not pairs:
            return
        sources, texts = [p[0] for p in pairs], [p[1] for p in pairs]
        forward = self.paraphraser.log_likelihood(sources, texts, batch_size=self.batch_size)
        back = self.paraphraser.log_likelihood(texts, sources, batch_size=self.batch_size)
        score = {p: round(f + b, 4) for p, f, b in zip(pairs, forward, back, strict=True)}
        for c in scored:
            c.scores["round_trip"] = score[c.source, c.text]

    def _candidate(self, item, text, s: Suggestion | None, current: str, step: int, origin: str) -> Candidate:
        return Candidate(
            item.question,
            text,
            s.text if s else "",
            item.answer,
            self.lang,
            matched=s.matched if s else "",
            meta={"suggestion": s, "previous": current if step > 1 else None, "origin": origin},
        )

    def _reorderings(self, items, active, current, candidates, step) -> None:
        """Each question reordered (text.reorder, one batch), as candidates beside the others (origin
        ``reorder:RULE``). The question's own words only: a reordering with a swap inside read worse (74 %
        and 65 % against 90 % and 89 %, readings 2026-11-26e/f), the swap's errors added to the move's."""
        from paraguide.text.reorder import Reordering, reorder

        questions = [current[i] for i in active]
        found = reorder(questions, self.lang, skip=() if self.indirect else ("indirect",))
        for rewrites, passive in zip(found, _passives(questions, self.lang), strict=True):
            if passive:
                rewrites.append(Reordering(passive, "passive"))
        for i, rewrites in zip(active, found, strict=True):
            seen = set()
            for r in rewrites:
                if r.text not in seen:
                    seen.add(r.text)
                    c = self._candidate(items[i], r.text, None, current[i], step, f"reorder:{r.rule}")
                    candidates.setdefault(i, []).append(c)

    def _alternatives(self, outcome, pick, accepted, rng, step, candidates) -> None:
        """Augmentation may take more than one paraphrase per question: others accepted, seeded order."""
        if not self.alternatives:
            return
        others = [c for c in accepted if c is not pick]
        rng.shuffle(others)
        texts = {pick.text}
        outcome.alternatives = []
        for c in others:
            if c.text not in texts and len(outcome.alternatives) < self.alternatives:
                texts.add(c.text)
                outcome.alternatives.append(self._choice(c, step, candidates, len(accepted)))

    def _placed(self, active, current, suggestions) -> dict[tuple[str, Suggestion], Placed]:
        """``(question, suggestion) -> the suggestion put in place`` (the question with it, and the phrase as
        it stands there), for the suggestions that know their span (all but context chunks), when the
        ranker, the in-place candidates or the paraphraser's prompt need it."""
        if not (self.in_place or self.ranker is not None or self.nbest):
            return {}
        from paraguide.text.substitute import place

        placed = {}
        for i, found in zip(active, suggestions, strict=True):
            spanned = [s for s in found[: self.pool] if s.span is not None and s.matched]
            where = place(current[i], [(s.span, s.text) for s in spanned], self.lang) if spanned else []
            placed.update(((current[i], s), p) for s, p in zip(spanned, where, strict=True) if p is not None)
        return placed

    def _guides(
        self, questions: list[str], found: list[list[Suggestion]], placed: dict
    ) -> list[list[Suggestion]]:
        """Each question's suggestions that pass ``guide_check`` (its in-place question scored at the
        threshold or above; one batch), best first; a suggestion without an in-place form is not checked
        and guides none, nor one that only respells its phrase ("licenced" for "licensed": no other word to
        build a rewrite on, and the spelling swaps it passes are often wrong, reading 2026-11-29g)."""
        from paraguide.text.edits import respelling

        scorer, threshold = self.guide_check
        found = [[s for s in pool if (q, s) in placed and not respelling(s.matched, placed[q, s].phrase)]
                 for q, pool in zip(questions, found, strict=True)]  # fmt: skip
        pairs = sorted(
            {(q, placed[q, s].text) for q, pool in zip(questions, found, strict=True) for s in pool}
        )
        scores = dict(zip(pairs, scorer.score(pairs), strict=True)) if pairs else {}
        out = []
        for q, pool in zip(questions, found, strict=True):
            scored = [(scores[q, placed[q, s].text], n, s) for n, s in enumerate(pool)]
            out.append(
                [s for score, _, s in sorted(scored, key=lambda x: (-x[0], x[1])) if score >= threshold]
            )
        return out

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
                (q, placed[q, s].text)
                for q, pool in zip(questions, pools, strict=True)
                for s in pool
                if (q, s) in placed
            }
        )
        scores = dict(zip(pairs, self.ranker.score(pairs), strict=True)) if pairs else {}
        ranked = []
        for q, pool in zip(questions, pools, strict=True):
            scored = [(scores[q, placed[q, s].text], n, s) for n, s in enumerate(pool) if (q, s) in placed]
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
        if getattr(self.source, "needs_context", False):
            return self.source.suggest(
                texts,
                k,
                contexts=[it.context or "" for it in items],
                answers=[it.answer or "" for it in items],
                answer_starts=[it.answer_start for it in items],
            )
        return self.source.suggest(texts, k)

    @staticmethod
    def _choice(c: Candidate, step: int, candidates: int, accepted: int) -> Choice:
        s: Suggestion | None = c.meta["suggestion"]
        return Choice(
            paraphrase=c.text,
            suggestion=c.suggestion,
            matched=s.matched if s else "",
            suggestion_source=s.source if s else "none",
            relation=s.relation if s else "",
            scores=dict(c.scores),
            origin=c.meta.get("origin", "paraphraser"),
            step=step,
            candidates=candidates,
            accepted=accepted,
        )

    def _furthest(self, candidates: list[Candidate]) -> tuple[str, str]:
        """The stage and reason of the candidate that got furthest (the first of them: order is fixed)."""
        best = max(candidates, key=lambda c: self.stages.index(c.dropped_by))
        if best.dropped_by == "similarity":
            return best.dropped_by, f"below threshold ({best.reason})"
        return best.dropped_by, best.reason


# After the verb, what a passive leaves dangling ("What was noted by Shrewsbury about the plague?") or
# binds anew ("Who was credited by Tesla for his abilities?": whose abilities?); reading 2026-11-27a.
_PASSIVE_DANGLES = {"about", "with"}
_PASSIVE_REBINDS = {"his", "her", "their", "its", "him", "them", "himself", "herself", "themselves", "itself"}


def _prompted(s: Suggestion | None, placed: Placed | None) -> str | None:
    """The suggestion the paraphraser is given: the phrase as it stands in place where it can stand there,
    else the source's text (None: a free rewrite)."""
    if s is None:
        return None
    return placed.phrase if placed is not None else s.text


def _passives(questions: list[str], lang: str) -> list[str | None]:
    """Each English object question made passive where the voice perturbation can (perturb.voice: "What
    did the Romans build?" -> "What was built by the Romans?", agent and patient kept), else None; none
    without NLTK's tagger, as for the other reorderings. Not its "By whom was Hamlet written?" (readers
    called all 16 stilted; "Who was Hamlet written by?" read no better, 5 of 12 in reading 2026-11-27c),
    nor where an "about" / "with" phrase or an adverb follows the verb, nor where a pronoun after it could
    take the other noun for its antecedent (reading 2026-11-27a)."""
    from paraguide.text.pos import has_tagger

    if lang != "en" or not has_tagger("en"):
        return [None] * len(questions)
    from paraguide.perturb.base import Perturbation, parse
    from paraguide.perturb.voice import ChangeVoice

    parsed = parse(questions, lang, entities=False)  # the voice change reads tags only
    out: list[str | None] = []
    for q, r in zip(parsed, ChangeVoice(lang).perturb(parsed), strict=True):
        if not isinstance(r, Perturbation) or r.perturbed.lower().startswith("by whom"):
            out.append(None)
            continue
        end = r.changes[0].start + len(r.changes[0].old)
        rest = [t for t in q.tokens if t.start >= end]
        natural = not (rest and (rest[0].text.lower() in _PASSIVE_DANGLES or rest[0].tag.startswith("RB")))
        natural = natural and not any(t.text.lower() in _PASSIVE_REBINDS for t in rest)
        out.append(r.perturbed if natural else None)
    return out


# Rewrites taken only where no other candidate passes but a question-word-only swap (issue 31: "a
# question-word swap only when nothing else passes"). The indirect question ("Can you tell me when the
# Warsaw Uprising began?") fits nearly every question: taken first, it would make a test set of one
# template; taken last, it rephrases the questions nothing else could (docs/build.md).
FALLBACK_ORIGINS = frozenset({"reorder:indirect"})


def _depth(c: Candidate) -> tuple[bool, bool, float]:
    """How much a candidate changes its question: (not a question-word-only swap, not a change of function
    words alone, token edit rate) -- a particle added (的, 啊) or an article dropped rephrases nothing."""
    from paraguide.text.edits import edit_rate, function_words_only, question_word_only

    return (
        not question_word_only(c.source, c.text, c.lang),
        not function_words_only(c.source, c.text, c.lang),
        edit_rate(c.source, c.text, c.lang),
    )


def _round_trip_rank(c: Candidate) -> tuple[bool, bool, bool, float]:
    """select="round-trip"'s order: a rephrasing that changes at least MIN_EDIT of the question first, then
    the best round trip (``scores["round_trip"]``, set by QuestionParaphraser._round_trip)."""
    asks, more, rate = _depth(c)
    return asks, more, rate >= MIN_EDIT, c.scores["round_trip"]


def _settles(c: Candidate) -> bool:
    """Whether a candidate that passed would be chosen whatever else passed: a reordering (not the indirect
    fallback) that rephrases its question (QuestionParaphraser._pick)."""
    return (
        c.dropped_by is None
        and c.meta["origin"].startswith("reorder")
        and c.meta["origin"] not in FALLBACK_ORIGINS
        and _rephrases(c)
    )


def _rephrases(c: Candidate) -> bool:
    """Whether a candidate says its question another way: not a question-word-only swap, and not a change
    of function words alone -- unless, in English, three or more of them rebuild the clause ("Which team
    won?" -> "What was the team that won?"); a Chinese particle added (的, 啊) rephrases nothing."""
    from paraguide.text.edits import token_edits

    asks, more = _depth(c)[:2]
    return asks and (more or c.lang == "en" and token_edits(c.source, c.text, c.lang) >= 3)


def _tier(c: Candidate) -> int:
    s: Suggestion | None = c.meta["suggestion"]
    return s.tier if s is not None else 0
