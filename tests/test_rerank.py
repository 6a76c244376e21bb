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


def test_a_bonus_joins_the_score_of_the_candidates_it_ranks_and_is_asked_once_per_text():
    para = Backward(BACK)
    asked = []

    def bonus(texts):  # e.g. a pretrained LM's fluency: here the deep rewrite reads much worse
        asked.append(list(texts))
        return [-1.0 if t == DEEP.text else 0.0 for t in texts]

    ranked = round_trip(para, [Q, Q], [[COPY, SHORT, DEEP, LOST], [DEEP]], bonus=bonus)
    # -1.0 - 1.0 for the deep one now loses to -0.25 - 1.1; the bonus is added to each combined score
    assert [c.text for c in ranked[0]] == [SHORT.text, DEEP.text, LOST.text, COPY.text]
    assert [c.score for c in ranked[0]] == pytest.approx([-1.35, -2.0, -2.8, -0.2])
    assert asked == [[COPY.text, SHORT.text, DEEP.text, LOST.text]]
    # with top, only the candidates of the groups the first places come from are asked about
    asked.clear()
    round_trip(para, [Q], [[COPY, SHORT, DEEP]], bonus=bonus, top=1)
    assert asked == [[SHORT.text, DEEP.text]]


def test_the_paraphrase_jobs_checks_take_each_questions_language_and_the_replaced_phrase():
    from paraguide.data.questions import QuestionInput
    from paraguide.pipeline.jobs import meaning_checks

    q, zh = "Where is the tower located?", "北京有什么好玩的地方？"
    keeps = meaning_checks([QuestionInput(q, "situated", "located"), QuestionInput(zh)])
    cands = [
        Paraphrase("Where is the tower situated?", -0.1, "situated", True),  # the replaced phrase may go
        Paraphrase("Where is the tower?", -0.1, "", True),  # free: "located" lost
        Paraphrase("北京有啥好玩的地方？", -0.1, "", True),
        Paraphrase("上海有啥好玩的地方？", -0.1, "", True),  # 北京 lost, 上海 from nowhere
    ]
    assert keeps([q, q, zh, zh], cands) == [True, False, True, False]


def test_checked_only_writes_the_rewrites_that_change_enough_and_pass_the_checks(tmp_path):
    import json

    from paraguide.data.questions import QuestionInput
    from paraguide.pipeline.jobs import checked_only, meaning_checks, paraphrase_file

    q = "Who owns the rail lines in Victoria?"
    ranked = [
        Paraphrase("Who is it that owns the rail lines in Victoria?", -0.5, "", True),
        Paraphrase("Who owns the lines in Victoria?", -0.3, "", True),  # "rail" lost
        Paraphrase("Who owns the rail lines in Victoria ?", -0.1, "", True),  # changes nothing
    ]

    class Ranked:  # the paraphraser's ranked rewrites, as --select checked returns them
        def paraphrase(self, questions, suggestions, matched=None, **generation):
            return [list(ranked) if question == q else [ranked[1]] for question in questions]

    items = [QuestionInput(q), QuestionInput("Where is Victoria?")]
    out = tmp_path / "out.jsonl"
    keep = checked_only(meaning_checks(items))
    results = paraphrase_file(Ranked(), items, str(out), keep=keep)
    assert [[p.text for p in r] for r in results] == [[ranked[0].text], []]
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [[p["text"] for p in r["paraphrases"]] for r in written] == [[ranked[0].text], []]
