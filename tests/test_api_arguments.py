"""Issue 32 item 9: the Python API checks its arguments (a string where a list is expected, a triple where a
pair is expected, an unknown language, a dropped outcome's paraphrase) and the perturbation suite gives no
pair for a question without a word or in the other language."""

from __future__ import annotations

import pytest
from helpers import ROOT

from paraguide.perturb.base import Perturbation, Skip
from paraguide.perturb.suite import Perturber
from paraguide.pipeline.generate import QuestionParaphraser
from paraguide.pipeline.records import Outcome
from paraguide.score import load_scorer
from paraguide.suggest import load_source


def test_a_string_for_a_list_of_questions_is_a_type_error(tagger):
    with pytest.raises(
        TypeError, match=r"questions: expected a list of strings, got one string 'Who built it\?'"
    ):
        QuestionParaphraser.__new__(QuestionParaphraser).paraphrase_many("Who built it?")
    source = load_source(f"interrogative|ppdb:{ROOT / 'examples' / 'data' / 'ppdb_en.txt'}", lang="en")
    with pytest.raises(TypeError, match=r"give \['What year is it\?'\]"):
        source.suggest("What year is it?")
    with pytest.raises(TypeError, match=r"questions\[1\]: expected a string, got int"):
        source.suggest(["What year is it?", 3])
    assert len(source.suggest(["What year is it?"])) == 1
    perturber = Perturber("zh", ["discourse_particle"])
    with pytest.raises(TypeError, match="questions: expected a list of strings, got one string"):
        perturber.perturb("这是什么啊？")
    with pytest.raises(TypeError, match=r"ops: expected a list of names, got one string 'negation'"):
        Perturber("en", ops="negation")


def test_score_pairs_must_be_pairs():
    scorer = load_scorer("lexical")
    with pytest.raises(TypeError, match=r"pairs\[1\]: expected a pair \(a, b\) of two strings, got 3 items"):
        scorer.score([("a b", "a b"), ("a", "b", "c"), ("c", "d")])
    with pytest.raises(TypeError, match="pairs: expected a list of"):
        scorer.score("ab")
    assert scorer.score([("a b", "a b"), ("a", "b")]) == [1.0, 0.0]


def test_for_testset_names_the_language():
    with pytest.raises(ValueError, match="unknown language 'fr'; choose en or zh"):
        QuestionParaphraser.for_testset("fr")


def test_a_dropped_outcome_has_no_paraphrase_and_says_why():
    dropped = Outcome("q7", stage="similarity", reason="below the threshold")
    with pytest.raises(ValueError, match=r"question q7 has no paraphrase: it was dropped at similarity"):
        dropped.paraphrase  # noqa: B018


def test_no_pairs_for_wordless_or_other_language_questions(en_resources, zh_resources):
    # (the fixtures: the perturbation lexicons are there; the test skips, naming them, where they are not)
    questions = ["这是什么啊？", "😀😀？", "？！…", "What is it?", "北京会下雨吗"]
    outcomes = Perturber("zh", ["discourse_particle"]).perturb(questions)
    made = {o.index for o in outcomes if isinstance(o.result, Perturbation)}
    assert made == {0, 4}
    reasons = {o.index: o.result.reason for o in outcomes if isinstance(o.result, Skip)}
    assert reasons[1] == reasons[2] == "no word to paraphrase (only emoji, symbols or punctuation)"
    assert reasons[3] == "not Chinese (no CJK character; --lang is zh)"
    english = Perturber("en", ["misspelling"]).perturb(["这是什么问题啊", "Where is the tower?", "🙂?"])
    assert {o.index for o in english if isinstance(o.result, Perturbation)} == {1}
    assert {o.result.reason for o in english if o.index == 0} == {
        "not English (mostly CJK characters; --lang is en)"
    }
