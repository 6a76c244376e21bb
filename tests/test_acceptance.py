"""The learnt acceptance (paraguide.score.acceptance): the model's arithmetic, its file and its errors, the
features it reads, the filter in a chain, and the option that puts it in a build."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from paraguide.score.acceptance import (
    AcceptanceModel,
    LearntAcceptance,
    feature_names,
    features,
)
from paraguide.score.filters import Candidate, FilterChain, meaning_filters

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "paraguide" / "models"


class Scripted:
    """A paraphraser's log_likelihood and an LM's fluency, from tables: what the features read of them."""

    def __init__(self, table: dict[tuple[str, str], float], fluency: dict[str, float]):
        self.table, self.values, self.calls = table, fluency, []

    def log_likelihood(self, sources, targets, batch_size=32):
        self.calls.append(len(sources))
        return [self.table[s, t] for s, t in zip(sources, targets, strict=True)]

    def fluency(self, texts):
        return [self.values[t] for t in texts]


def edit_model(coef: float = 4.0, intercept: float = -1.0) -> AcceptanceModel:
    """P(good) = sigmoid(intercept + coef * edit): a model of one feature, worked by hand below."""
    return AcceptanceModel(["edit"], [0.0], [1.0], [coef], intercept)


def test_probability_is_the_logistic_of_the_standardised_features():
    model = AcceptanceModel(["fwd", "edit"], [-1.0, 0.5], [2.0, 0.25], [1.5, -2.0], 0.3)
    p = model.probability({"fwd": [0.0, -1.0], "edit": [0.25, 0.5], "guided": [1.0, 0.0]})
    z = 0.3 + 1.5 * (0.0 + 1.0) / 2.0 - 2.0 * (0.25 - 0.5) / 0.25
    assert p[0] == pytest.approx(1 / (1 + math.exp(-z)), abs=1e-12)
    assert p[1] == pytest.approx(1 / (1 + math.exp(-0.3)), abs=1e-12)  # at the mean: the intercept alone
    assert edit_model().probability({"edit": [-1000.0, 1000.0]}) == [0.0, 1.0]  # no overflow either way
    with pytest.raises(ValueError, match="feature 'fwd' is missing"):
        model.probability({"edit": [0.1]})


def test_save_and_load_round_trip(tmp_path):
    model = AcceptanceModel(["bwd", "pass_keeps_scope"], [-0.9, 0.8], [0.3, 0.4], [0.7, 0.8], -0.2,
                            fitted={"readings": ["a", "b"], "items": 10})  # fmt: skip
    model.save(tmp_path / "acceptance.json")
    assert AcceptanceModel.load(tmp_path / "acceptance.json") == model
    assert AcceptanceModel.load(tmp_path) == model  # the folder it sits in


def test_bad_model_files_are_refused_by_name_and_field(tmp_path):
    path = tmp_path / "acceptance.json"
    with pytest.raises(ValueError, match=f"{path}: no acceptance model"):
        AcceptanceModel.load(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match=f"{path}: not a JSON acceptance model"):
        AcceptanceModel.load(path)
    path.write_text(json.dumps({"features": ["edit"], "mean": [0], "scale": [1], "coef": [1]}))
    with pytest.raises(ValueError, match=f"{path}: field 'intercept' is missing"):
        AcceptanceModel.load(path)
    path.write_text(json.dumps({"features": ["edit", "loudness"], "mean": [0, 0], "scale": [1, 1],
                                "coef": [1, 1], "intercept": 0}))  # fmt: skip
    with pytest.raises(ValueError, match=f"{path}: unknown features loudness"):
        AcceptanceModel.load(path)
    path.write_text(
        json.dumps({"features": ["edit"], "mean": [0, 1], "scale": [1], "coef": [1], "intercept": 0})
    )
    with pytest.raises(ValueError, match=f"{path}: mean has 2 values for 1 features"):
        AcceptanceModel.load(path)
    path.write_text(
        json.dumps({"features": ["edit"], "mean": [0], "scale": [0], "coef": [1], "intercept": 0})
    )
    with pytest.raises(ValueError, match="every scale must be positive"):
        AcceptanceModel.load(path)


@pytest.mark.parametrize("adapter", ["gemma-en", "gemma-en-dpo"])
def test_bundled_model_reads_known_features(adapter):
    model = AcceptanceModel.load(MODELS / adapter)  # the folder: its acceptance.json
    assert set(model.features) == set(feature_names())
    # fitted on its own adapter's likelihoods
    assert model.fitted["items"] > 1000 and model.fitted["adapter"] == adapter
    at_mean = model.probability({n: [m] for n, m in zip(model.features, model.mean, strict=True)})[0]
    assert at_mean == pytest.approx(1 / (1 + math.exp(-model.intercept)))
    # the judged evidence it was fitted on: both likelihoods and keeping the scope words count for a rewrite
    weights = dict(zip(model.features, model.coef, strict=True))
    assert weights["fwd"] > 0 and weights["bwd"] > 0 and weights["pass_keeps_scope"] > 0


def test_features_read_the_paraphraser_both_ways_the_lm_and_the_checks():
    q, good, bad = "Which team won the cup?", "The cup was won by which team?", "Which team won?"
    scripted = Scripted(
        {(q, good): -0.4, (good, q): -0.6, (q, bad): -0.2, (bad, q): -1.5},
        {q: -3.0, good: -2.5, bad: -3.5},
    )
    f = features(scripted, scripted, [q, q], [good, bad], ["", "winner"], ["", ""])
    assert f["fwd"] == [-0.4, -0.2] and f["bwd"] == [-0.6, -1.5]
    assert f["fluency_abs"] == [-2.5, -3.5] and f["fluency"] == [0.5, -0.5]
    assert f["guided"] == [0.0, 1.0]
    assert f["pass_keeps_content"] == [1.0, 0.0]  # "the cup" lost
    assert set(f) == set(feature_names())
    assert all(len(v) == 2 for v in f.values())
    assert {f"pass_{m.name}" for m in meaning_filters()} <= set(f)
    with pytest.raises(ValueError, match="2 questions but 1 rewrites"):
        features(scripted, scripted, [q, q], [good])


def test_filter_scores_only_the_paraphrasers_rewrites_and_drops_below_the_threshold():
    q = "Which team won the cup?"
    deep, shallow, swap = (
        "The cup was won by which team?",
        "What team won the cup?",
        "Which side won the cup?",
    )
    scripted = Scripted({(q, t): -0.5 for t in (deep, shallow)} | {(t, q): -0.7 for t in (deep, shallow)},
                        {q: -3.0, deep: -3.0, shallow: -3.0})  # fmt: skip
    cands = [Candidate(q, deep, meta={"origin": "paraphraser"}), Candidate(q, shallow, meta={"origin": "paraphraser"}),
             Candidate(q, swap, "side", matched="team", meta={"origin": "in_place"})]  # fmt: skip
    # sigmoid(-1 + 4 * edit) >= 0.5 needs edit >= 0.25: the reordering changes more, the swap of "which" 1 in 6
    chain = FilterChain([LearntAcceptance(edit_model(), scripted, scripted, 0.5)])
    kept = chain(cands)
    assert kept == [cands[0], cands[2]]
    assert cands[1].dropped_by == "acceptance" and cands[1].reason.startswith("P(good) 0.")
    assert cands[1].reason.endswith("< 0.5")
    assert cands[0].scores["acceptance"] > 0.5 and cands[0].scores["round_trip"] == -1.2
    assert "acceptance" not in cands[2].scores  # an in-place swap passes unscored
    assert chain.counts["acceptance"] == 1
    assert scripted.calls == [2, 2]  # one batch each way, the two rewrites only


def test_the_option_is_in_the_english_paraphrase_preset_and_checked():
    from paraguide.pipeline.config import ACCEPT_ABOVE, GeneratorConfig

    assert GeneratorConfig(preset="paraphrase").accept_above == ACCEPT_ABOVE > 0
    # English rewrites by the DPO-tuned adapter (reading 2026-12-07p), which carries its own acceptance model
    assert GeneratorConfig(preset="paraphrase").model == "gemma-en-dpo"
    assert GeneratorConfig(preset="paraphrase", lang="zh").model == "gemma-zh"
    assert GeneratorConfig(preset="paraphrase", model="gemma-en").model == "gemma-en"  # a given model stays
    assert GeneratorConfig(preset="paraphrase", lang="zh").accept_above == 0  # no Chinese model
    assert GeneratorConfig().accept_above == 0  # the default preset (substitute)
    assert GeneratorConfig(preset="paraphrase", accept_above=0).accept_above == 0
    with pytest.raises(ValueError, match=r"--accept-above must be a probability in \[0, 1\), got 1.5"):
        GeneratorConfig(preset="paraphrase", accept_above=1.5).check()
    with pytest.raises(ValueError, match="--accept-above scores the paraphraser's rewrites: give --nbest N"):
        GeneratorConfig(accept_above=0.5).check()


def test_an_adapter_without_an_acceptance_model_is_refused_before_loading(tmp_path):
    from paraguide.pipeline.components import load_generator
    from paraguide.pipeline.config import GeneratorConfig

    small = ROOT / "paraguide" / "models" / "en"
    config = GeneratorConfig(model=str(small), nbest=1, accept_above=0.5)
    config.check()
    with pytest.raises(
        ValueError, match=f"--accept-above needs an acceptance model .*{small} has no acceptance.json"
    ):
        load_generator(config)


class Counting:
    """A RoundTripParaphraser that counts every pair it scores, and an LM that scores every text 0."""

    def __init__(self, paraphraser):
        self.inner, self.scored = paraphraser, []

    def paraphrase(self, *args, **kwargs):
        return self.inner.paraphrase(*args, **kwargs)

    def log_likelihood(self, questions, paraphrases, batch_size=32):
        self.scored += list(zip(questions, paraphrases, strict=True))
        return self.inner.log_likelihood(questions, paraphrases, batch_size)

    @staticmethod
    def fluency(texts):
        return [0.0] * len(texts)


def test_in_a_build_a_rewrite_below_the_threshold_is_not_chosen_and_its_round_trip_is_not_scored_twice(
    tagger,
):
    """In the generator's chain (select="round-trip"): without the acceptance the best round trip is the free
    rewrite; the acceptance (here: P(good) from the forward log-probability alone) drops it, and the guided
    rewrite it scored is chosen with the round trip it computed, which select="round-trip" does not recompute."""
    from fakes import RoundTripParaphraser, SpanSource, music_hall

    from paraguide.pipeline.generate import Item, QuestionParaphraser
    from paraguide.score.filters import ContainsSuggestion, DiffersFromSource, KeepsQuestionType

    q, table, free, planned, outputs = music_hall()
    likelihoods = {
        (q, free): -1.3,
        (free, q): -0.1,
        (q, planned): -0.9,
        (planned, q): -0.8,
    }  # round trips -1.4, -1.7
    fwd_only = AcceptanceModel(["fwd"], [-1.2], [0.1], [1.0], 0.0)  # P(good) >= 0.5 where fwd >= -1.2
    made, scored = {}, {}
    for accept in (False, True):
        para = Counting(RoundTripParaphraser(outputs, likelihoods))
        chain = [DiffersFromSource(), ContainsSuggestion(), KeepsQuestionType()]
        chain += [LearntAcceptance(fwd_only, para, para, 0.5)] if accept else []
        generate = QuestionParaphraser(para, SpanSource(table), FilterChain(chain), top_k=2, in_place=True,
                                       free=True, select="round-trip")  # fmt: skip
        [made[accept]] = [o.to_json() for o in generate([Item("a", q)])]
        scored[accept] = para.scored
    assert made[False]["paraphrase"] == free
    assert made[True]["paraphrase"] == planned
    assert made[True]["scores"]["round_trip"] == -1.7 and made[True]["scores"]["acceptance"] > 0.9
    assert made[True]["candidate_drops"]["acceptance"] == 1  # the free rewrite; the swap "Which" is in place
    assert scored[True].count((q, planned)) == 1 and scored[True].count((planned, q)) == 1
