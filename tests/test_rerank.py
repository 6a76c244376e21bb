"""The round-trip choice among a paraphraser's candidates (paraguide.model.rerank): exact choices with a
paraphraser whose backward scores are given."""

import pytest

from paraguide.model.paraphraser import Paraphrase
from paraguide.model.rerank import round_trip


class Backward:
    """log_likelihood(candidates, questions) from a table: how well each candidate writes the question back."""

    def __init__(self, table):
        self.table, self.calls = table, []

    def log_likelihood(self, questions, paraphrases, batch_size=32):
        self.calls.append((list(questions), list(paraphrases)))
        return [self.table[c] for c in questions]


Q = "what was the first team peyton manning began playing for ?"
COPY = Paraphrase(Q, -0.10, "", True)
SHORT = Paraphrase("what was the first team peyton manning played for ?", -0.25, "", True)
DEEP = Paraphrase("which team did peyton manning first play for ?", -0.40, "", True)
LOST = Paraphrase("what team did peyton manning play ?", -0.30, "", True)
BACK = {COPY.text: -0.1, SHORT.text: -1.1, DEEP.text: -0.6, LOST.text: -2.5}


def test_it_takes_the_rewrite_that_changes_the_question_and_writes_it_back_best():
    para = Backward(BACK)
    (ranked,) = round_trip(para, [Q], [[COPY, SHORT, DEEP, LOST]])
    # -0.40 - 0.6 beats -0.25 - 1.1 and -0.30 - 2.5; the copy (-0.2) changes nothing and comes last
    assert [c.text for c in ranked] == [DEEP.text, SHORT.text, LOST.text, COPY.text]
    assert [c.score for c in ranked] == pytest.approx([-1.0, -1.35, -2.8, -0.2])
    assert para.calls == [([COPY.text, SHORT.text, DEEP.text, LOST.text], [Q] * 4)]
    # weight 0: the most probable rewrite that changes enough of the question
    assert round_trip(para, [Q], [[COPY, SHORT, DEEP, LOST]], weight=0)[0][0].text == SHORT.text


def test_top_returns_the_same_first_places_and_scores_only_their_groups():
    para = Backward(BACK)
    full = round_trip(para, [Q], [[COPY, SHORT, DEEP, LOST]])[0]
    para.calls.clear()
    # the three that change enough fill the first place's group; the copy is never scored
    assert round_trip(para, [Q], [[COPY, SHORT, DEEP, LOST]], top=1) == [full[:1]]
    assert para.calls == [([SHORT.text, DEEP.text, LOST.text], [Q] * 3)]
    assert round_trip(para, [Q], [[COPY, SHORT, DEEP, LOST]], top=4) == [full]
    # a repeated candidate is scored once
    para.calls.clear()
    round_trip(para, [Q, Q], [[DEEP], [DEEP, COPY]], top=1)
    assert para.calls == [([DEEP.text], [Q])]


def test_it_falls_back_to_the_best_overall_and_never_rejects():
    para = Backward(BACK)
    assert round_trip(para, [Q], [[COPY, SHORT]], min_edit=0.9)[0][0].text == COPY.text
    assert round_trip(para, [Q, Q], [[], [SHORT]]) == [[], [Paraphrase(SHORT.text, -1.35, "", True)]]


def test_a_candidate_that_uses_the_suggestion_comes_first():
    with_it = Paraphrase("which team did peyton manning first play with ?", -0.9, "play with", True)
    without = Paraphrase(DEEP.text, -0.40, "play with", False)
    para = Backward({with_it.text: -1.5, DEEP.text: -0.6})
    assert [c.text for c in round_trip(para, [Q], [[without, with_it]])[0]] == [with_it.text, DEEP.text]
    with pytest.raises(ValueError, match="2 questions but 1 candidate lists"):
        round_trip(para, [Q, Q], [[DEEP]])


def test_the_beams_that_keep_the_question_come_first_with_the_pipelines_checks():
    from paraguide.score.filters import keeps_meaning

    q = "Who owns the rail lines in Victoria?"
    keep = Paraphrase("Who is it that owns the rail lines in Victoria?", -0.5, "", True)
    why = Paraphrase("Who owns the rail lines in Victoria and why?", -0.2, "", True)  # a second question
    lost = Paraphrase("Who owns the lines in Victoria?", -0.3, "", True)  # "rail" lost
    copy = Paraphrase(q, -0.1, "", True)
    para = Backward({keep.text: -0.9, why.text: -0.3, lost.text: -0.4, copy.text: -0.1})
    options = [[copy, lost, why, keep]]
    # without checks the round trip takes the rewrite that asks a second question (-0.5) ...
    assert round_trip(para, [q], options)[0][0].text == why.text

    def keeps(questions, cands):
        return keeps_meaning(questions, [c.text for c in cands], [c.suggestion for c in cands])

    assert keeps_meaning([q] * 4, [c.text for c in options[0]]) == [True, False, False, True]
    # ... with them, among those that change enough, the ones that keep it first, then by score
    ranked = round_trip(para, [q], options, keeps=keeps)[0]
    assert [c.text for c in ranked] == [keep.text, why.text, copy.text, lost.text]  # "rail" lost: 1 of 8
