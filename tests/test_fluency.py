"""The fluency filter: a question LM trained here learns a tiny language, saves and loads to identical
scores, and the bundled LMs rank real paraphrases above corrupted ones on fixed questions they never saw."""

from __future__ import annotations

import itertools
import random

import pytest

from paraguide.cli import main
from paraguide.score import FluencyConfig, FluencyScorer, QuestionLM, load_scorer, train_fluency_lm
from paraguide.score.filters import Candidate, FilterChain, FluencyFilter
from paraguide.score.fluency import bundled_fluency_path

SUBJECTS = ["the river", "the castle", "the city", "the bridge", "the school", "the church", "the tower"]
VERBS = ["built", "founded", "designed", "named", "destroyed"]
TIMES = ["in which year", "in what century"]


def tiny_language() -> list[str]:
    """Questions of two fixed shapes: "who VERB SUBJECT?" and "TIME was SUBJECT VERB?"."""
    out = [f"who {v} {s}?" for v, s in itertools.product(VERBS, SUBJECTS)]
    out += [f"{t} was {s} {v}?" for t, s, v in itertools.product(TIMES, SUBJECTS, VERBS)]
    return out


TINY = FluencyConfig(
    vocab_size=300, n_layer=1, n_embd=32, n_head=2, batch_size=16, epochs=30, lr=1e-2, warmup=10,
    eval_every=20, patience=100, dropout=0.0,
)  # fmt: skip


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory):
    texts = tiny_language()
    rng = random.Random(0)
    rng.shuffle(texts)
    held = texts[:10]
    path = tmp_path_factory.mktemp("lm")
    lm, curve = train_fluency_lm(texts[10:], path, TINY, heldout=held)
    return path, lm, curve, held


@pytest.mark.slow
def test_a_tiny_lm_learns_its_language_and_prefers_it_to_scrambled_questions(tiny_lm):
    path, _, curve, held = tiny_lm
    assert curve[-1]["heldout_loss"] < 0.5 * curve[0]["heldout_loss"]
    scorer = FluencyScorer(path)
    for q in held:
        words = q.rstrip("?").split()
        doubled = " ".join(words[:2] + words[1:]) + "?"  # a duplicated word
        swapped = " ".join([words[1], words[0], *words[2:]]) + "?"
        real, *broken = scorer.fluency([q, doubled, swapped])
        assert all(real > b for b in broken), (q, real, broken)
    # relative to the original: 0 for itself, negative for the broken form
    q = held[0]
    words = q.rstrip("?").split()
    assert scorer.score([(q, q)]) == [0.0]
    assert scorer.score([(q, " ".join(words[:2] + words[1:]) + "?")])[0] < 0


@pytest.mark.slow
def test_save_and_load_give_identical_scores(tiny_lm, tmp_path):
    path, lm, _, held = tiny_lm
    first = QuestionLM.from_pretrained(path)
    first.save_pretrained(tmp_path / "again")
    again = QuestionLM.from_pretrained(tmp_path / "again")
    assert again.log_probs(held) == first.log_probs(held)
    assert sorted(p.name for p in path.iterdir()) == ["config.json", "model.safetensors", "spiece.model"]


@pytest.mark.slow
def test_fluency_filter_drops_with_its_own_reason_and_keeps_the_score(tiny_lm):
    path, *_ = tiny_lm
    scorer = load_scorer(f"fluency:{path}")
    candidates = [
        Candidate("who built the castle?", "who designed the castle?"),
        Candidate("who built the castle?", "who built built the castle castle?"),
    ]
    chain = FilterChain([FluencyFilter(scorer, -0.5)])
    kept = chain(candidates)
    assert [c.text for c in kept] == ["who designed the castle?"]
    assert candidates[1].dropped.startswith("fluency: fluency -")
    assert candidates[1].dropped.endswith("< -0.5")
    assert set(candidates[0].scores) == {"fluency"} and chain.counts["fluency"] == 1


def test_training_refuses_an_empty_corpus(tmp_path):
    with pytest.raises(ValueError, match="at least 2 non-empty"):
        train_fluency_lm(["", "  "], tmp_path, TINY)


def test_unknown_measure_and_missing_folder_are_named(tmp_path):
    with pytest.raises(ValueError, match="unknown fluency measure 'bleu'; choose slor, logprob, total"):
        FluencyScorer(tmp_path, measure="bleu")
    with pytest.raises(FileNotFoundError, match="no fluency LM at"):
        FluencyScorer(tmp_path)


def test_an_lm_is_a_folder_or_a_bundled_name(tiny_lm):
    """``--swap-fluency lm-gemma-en`` names a bundled LM; a folder is itself; anything else is an error that
    lists the bundled names."""
    from paraguide.score.fluency import BUNDLED, lm_path

    path, *_ = tiny_lm
    assert lm_path(path) == str(path)
    assert lm_path("lm-gemma-en") == str(BUNDLED / "lm-gemma-en")
    with pytest.raises(FileNotFoundError, match=r"no fluency LM at 'lm-nowhere' .*lm-en, lm-gemma-en"):
        lm_path("lm-nowhere")


@pytest.mark.slow
def test_total_measure_is_the_whole_log_probability(tiny_lm):
    """``measure="total"``: log P(b) - log P(a), not per token: one more token costs its whole
    log-probability."""
    path, *_ = tiny_lm
    lm = QuestionLM.from_pretrained(path)
    scorer = FluencyScorer(path, measure="total", lm=lm)
    a, b = "who built the castle?", "who built the old castle?"
    [(la, _, na), (lb, _, nb)] = lm.log_probs([a, b])
    assert scorer.fluency([a, b]) == [la, lb] and scorer.score([(a, b)]) == [lb - la]
    # the same batch as log_probs: a batch of one pads differently, and on some CPUs (AVX2, not AVX-512)
    # its float32 sums round differently in the 8th digit
    assert lm.mean_log_prob([a, b]) == [la / na, lb / nb]


# ---- the bundled LMs, on questions written here (never in their training data) -------------------------

EN = [
    (
        "who designed the eiffel tower?",
        "who was the architect of the eiffel tower?",
        [
            "who was the architect of the of eiffel tower?",
            "who was the the architect of the eiffel tower?",
            "who was architect the of the eiffel tower?",
            "who was the architect of the eiffeleiffel tower?",
            "who was the architect of the eiffel tower museum opened?",
        ],
    ),
    (
        "how many people live in the capital of norway?",
        "what is the population of the capital of norway?",
        [
            "what is the population of capital the of norway?",
            "what is the population of the capital capital of norway?",
            "what is the population did of the capital of norway?",
            "what is the populationtion of the capital of norway?",
        ],
    ),
    (
        "when did the first world war end?",
        "in which year did the first world war come to an end?",
        [
            "in which year did the first world war come to an end end?",
            "in which year did the first world war come to end an?",
            "in which year did the first world war river come to an end?",
        ],
    ),
]
ZH = [
    (
        "怎样才能学好英语口语",
        "如何提高英语口语水平",
        [
            "如何提高英语语口水平",
            "如何提高英语口语口语水平",
            "如何提高英语口语水平电影",
            "提高如何英语口语水平",
        ],
    ),
    (
        "北京有哪些好玩的地方",
        "北京有什么好玩的景点",
        ["北京有什么好玩的景景点", "北京什么有好玩的景点", "北京有什么好玩的手机景点"],
    ),
]


# lm-zh (one epoch on 160k questions) is weak: it misses 3 of these 7 -- 英语语口 (characters of 口语 swapped,
# 0.001 above the real paraphrase), 景景点 (a doubled character) and 手机景点 (an inserted word). Recorded here,
# not hidden, so that any further miss fails; the bar (no miss) is not met for Chinese yet.
MISSES_ALLOWED = {"en": 0, "zh": 3}


@pytest.mark.slow
@pytest.mark.parametrize("lang, cases", [("en", EN), ("zh", ZH)])
def test_bundled_lm_ranks_real_paraphrases_above_their_corruptions(lang, cases):
    try:
        scorer = FluencyScorer(bundled_fluency_path(lang))
    except FileNotFoundError as e:
        pytest.fail(f"bundled fluency LM missing: {e}")
    misses = []
    for original, paraphrase, corrupted in cases:
        real, *broken = scorer.score([(original, t) for t in [paraphrase, *corrupted]])
        misses += [(paraphrase, real, c, b) for c, b in zip(corrupted, broken, strict=True) if b >= real]
    assert len(misses) <= MISSES_ALLOWED[lang], misses


@pytest.mark.slow
def test_score_command_gives_relative_fluency(tiny_lm, tmp_path, capsys):
    path, *_ = tiny_lm
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        "who built the castle?\twho built the castle?\nwho built the castle?\twho who built castle?\n"
    )
    assert main(["score", "--scorer", f"fluency:{path}", "--input", str(pairs)]) == 0
    scores = [float(x) for x in capsys.readouterr().out.split()]
    assert scores[0] == 0.0 and scores[1] < 0
