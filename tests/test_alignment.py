import pytest

from paraguide.data.pairs import parse_alignment
from paraguide.suggest.alignment import (
    AlignmentSuggester,
    monolingual_alignment,
    replaced_phrase,
    target_phrases,
)

SOURCE = "what nutrients do green peppers have in them ?"
TARGET = "what nutrients does a green pepper contain ?"
LINKS = parse_alignment("0-0 1-1 2-2 3-4 4-5 5-6 6-6 7-6 8-7", 9, 8)


def test_gan_ng_figure_2_with_corpus_alignment():
    texts = [p.text for p in AlignmentSuggester("en").candidates(SOURCE, TARGET, LINKS)]
    # Fig. 2's candidates, best first; "a green" is there, with its stop word at the edge ranked later.
    assert texts[:3] == ["pepper", "contain", "green pepper"]
    assert "a green" in texts
    # In the source already, or stop words alone: never candidates.
    assert not {"green", "what nutrients", "does", "a", "?"} & set(texts)


def test_consistent_phrase_pairs():
    # "have in them" -> "contain": a target span is consistent only with its whole source span.
    spans = target_phrases(8, LINKS, max_len=4)
    assert (6, 7) in spans and (4, 6) in spans
    assert (5, 6) in spans and (3, 4) not in spans  # "a" alone has no link


def test_monolingual_alignment_links_stems_and_reorderings():
    src = ["how", "do", "i", "learn", "python", "quickly"]
    tgt = ["quickly", ",", "how", "can", "i", "learn", "python"]
    links = monolingual_alignment(src, tgt, "en")
    assert {(2, 4), (3, 5), (4, 6), (5, 0)} <= set(links)
    assert (0, 2) in links  # "how" moved
    assert monolingual_alignment(["peppers"], ["pepper"], "en") == ((0, 0),)


def test_monolingual_candidates_from_new_material():
    suggester = AlignmentSuggester("en")
    texts = [
        p.text
        for p in suggester.candidates(
            "How can I learn Python quickly?", "What is the fastest way to learn Python?"
        )
    ]
    assert texts[:3] == ["fastest", "way", "fastest way"]
    back = [
        p.text
        for p in suggester.candidates(
            "What is the fastest way to learn Python?", "How can I learn Python quickly?"
        )
    ]
    assert back[0] == "quickly"


def test_chinese_alignment_candidates_are_not_substrings_of_the_source():
    texts = [
        p.text
        for p in AlignmentSuggester("zh").candidates(
            "喜欢打篮球的男生喜欢什么样的女生", "爱打篮球的男生喜欢什么样的女生"
        )
    ]
    assert texts[0] == "爱"
    assert all(t not in "喜欢打篮球的男生喜欢什么样的女生" for t in texts)


@pytest.mark.parametrize(
    "source, target, phrase, lang, expected",
    [
        ("who built the tower of hercules?", "who erected the tower of hercules?", "erected", "en", "built"),
        ("what are the best movies of 2016?", "what are the best films of 2016?", "films", "en", "movies"),
        # new material (no source phrase it stands for): nothing is replaced
        (
            "how can i learn python quickly?",
            "what is the fastest way to learn python?",
            "fastest way",
            "en",
            "",
        ),
        ("how do i get rid of acne?", "what is the best way to remove acne?", "remove", "en", ""),
        ("what is the best way?", "what is the best way?", "not there", "en", ""),
        ("北京有哪些好玩的地方", "北京有什么好玩的景点", "景点", "zh", "地方"),
        ("怎样才能学好英语口语", "如何提高英语口语水平", "提高", "zh", "学好"),
    ],
)
def test_replaced_phrase(source, target, phrase, lang, expected):
    assert replaced_phrase(source, target, phrase, lang) == expected
