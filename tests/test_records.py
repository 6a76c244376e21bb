"""The typed records and options of the main job: Outcome's shard format round-trips, pair items know their
side, presets resolve, and strings-in strings-out paraphrasing says None where nothing was accepted."""

from __future__ import annotations

from fakes import SpanSource, TableScorer

from paraguide.pipeline import BuildConfig, GeneratorConfig, Item, Outcome, QuestionParaphraser
from paraguide.pipeline.inputs import pair_items
from paraguide.pipeline.records import Choice
from paraguide.score.filters import ContainsSuggestion, DiffersFromSource, FilterChain, Substitutes


def _choice(text: str, step: int) -> Choice:
    return Choice(text, "which", "What", "interrogative", "", {"embedding": 0.99}, "in_place", step, 2, 1)


def test_outcome_json_round_trip():
    selected = Outcome("q1", steps=[_choice("a", 1), _choice("b", 2)], alternatives=[_choice("c", 2)],
                       candidate_drops={"similarity": 1})  # fmt: skip
    dropped = Outcome("q2", stage="similarity", reason="below threshold (0.5 < 0.9)", candidates=3)
    for outcome in (selected, dropped, Outcome("q3", steps=[_choice("d", 1)])):
        assert Outcome.from_json(outcome.to_json()) == outcome
    data = selected.to_json()
    assert (data["status"], data["paraphrase"], data["step"], data["origin"]) == (
        "selected",
        "b",
        2,
        "in_place",
    )
    assert [[c.paraphrase for c in path] for path in selected.paths()] == [["a", "b"], ["a", "c"]]
    assert dropped.to_json() == {"key": "q2", "status": "dropped", "stage": "similarity",
                                 "reason": "below threshold (0.5 < 0.9)", "candidates": 3, "candidate_drops": {}}  # fmt: skip
    assert not dropped.selected and dropped.paths() == []


def test_pair_items_carry_their_side(write):
    path = write("pairs.tsv", "How old is the sun?\tWhat is the age of the sun?\t1\n")
    [(pair, items)] = list(pair_items(path, "both"))
    assert [(it.key, it.side, it.question) for it in items] == [
        ("0:a", "a", pair.a),
        ("0:b", "b", pair.b),
    ]


def test_presets_fill_what_is_left_unset():
    en = GeneratorConfig(lang="en")
    assert (en.preset, en.nbest, en.in_place, en.rank, en.rank_threshold) == (
        "substitute",
        0,
        True,
        "embedding",
        0.96,
    )
    assert en.source_spec() == "interrogative|wordnet&ppdb"
    adversarial = GeneratorConfig(lang="en", use="adversarial")
    assert (adversarial.preset, adversarial.nbest, adversarial.source_spec()) == ("adversarial", 0, "near")
    chunks = GeneratorConfig(lang="en", use="adversarial", source="context")  # woven in by the paraphraser
    assert (chunks.preset, chunks.nbest) == ("rewrite", 1)
    zh = GeneratorConfig(lang="zh", scorer="embedding")  # a scorer given takes its own calibrated threshold
    assert (zh.scorer, zh.threshold, zh.rank) == ("embedding", None, "fluency")
    build = BuildConfig(out="o", squad="dev.json", mode="context", per_question=3)
    assert (build.use, build.qa, build.alternatives, build.preset) == ("adversarial", True, 2, "adversarial")
    assert BuildConfig(out="o", pairs="p.tsv").generator_config() == GeneratorConfig(lang="en")


def test_paraphrase_many_gives_strings_or_none(tagger):
    table = {"Who designed the hall?": [("plan", "designed", (1, 2))]}
    chain = FilterChain([DiffersFromSource(), ContainsSuggestion(), Substitutes()])
    ranker = TableScorer({"Who planned the hall?": 0.99})
    generate = QuestionParaphraser(None, SpanSource(table), chain, nbest=0, in_place=True, ranker=ranker)
    assert generate.paraphrase_many(["Who designed the hall?", "Why?"]) == ["Who planned the hall?", None]
    [why] = generate([Item("x", "Why?")])
    assert (why.status, why.stage, why.reason) == ("dropped", "suggestion", "no suggestion from spans")
