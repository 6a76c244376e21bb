import networkx as nx
import pytest

from paraguide.suggest.textrank import TextRank, pagerank
from paraguide.text.pos import TaggedToken, has_tagger


def tagged(text: str, tags: str) -> list[TaggedToken]:
    out, pos = [], 0
    for word, tag in zip(text.split(), tags.split(), strict=True):
        start = text.index(word, pos)
        pos = start + len(word)
        out.append(TaggedToken(word, tag, start, pos))
    return out


def test_pagerank_on_a_path_by_hand():
    # Path of 5 vertices, d = 0.85, (1-d)/N = 0.03. With end e, second s, middle m:
    #   e = 0.03 + 0.85 s/2,  m = 0.03 + 0.85 s,  s = 0.03 + 0.85 e + 0.85 m/2
    #   => s = 0.06825 / 0.2775
    s = 0.06825 / 0.2775
    e, m = 0.03 + 0.425 * s, 0.03 + 0.85 * s
    scores = pagerank(nx.path_graph("abcde"))
    assert scores == pytest.approx({"a": e, "b": s, "c": m, "d": s, "e": e}, abs=1e-11)
    assert pagerank(nx.path_graph("abcde"))["a"] == scores["e"]  # rounding makes symmetric ties exact


def test_textrank_hand_checked_example():
    # Candidates (stop words "from", "to" removed): best cheap flights london paris -> a path graph.
    text = "best cheap flights from london to paris"
    ranker = TextRank("en", stopwords=frozenset({"from", "to"}))
    ranker.tagged = True
    phrases = ranker.rank(tagged(text, "JJS JJ NNS IN NNP TO NNP"), text)
    s = 0.06825 / 0.2775
    e, m = 0.03 + 0.425 * s, 0.03 + 0.85 * s
    assert [(p.text, p.score) for p in phrases] == [
        ("best cheap flights", pytest.approx(e + s + m)),  # adjacent keywords merge; score = sum
        ("cheap", pytest.approx(s)),
        ("london", pytest.approx(s)),
        ("flights", pytest.approx(m)),
        ("best", pytest.approx(e)),
        ("paris", pytest.approx(e)),
    ]
    assert phrases[0].start == 0 and phrases[0].end == 18


def test_pos_filter_and_window():
    text = "quickly learn python programming"
    ranker = TextRank("en", stopwords=frozenset(), window=3)
    ranker.tagged = True
    tokens = tagged(text, "RB VB NNP NN")
    texts = [p.text for p in ranker.rank(tokens, text)]
    assert "quickly" not in texts and texts[0] == "learn python programming"
    assert TextRank("en", pos=("NN",), stopwords=frozenset()).is_candidate(
        TaggedToken("learn", "VB", 0, 5)
    ) is (not has_tagger("en"))


def test_window_must_link_neighbours():
    with pytest.raises(ValueError, match="window"):
        TextRank("en", window=1)


def test_gan_ng_figure_3(tagger):
    ranker = TextRank("en")
    target = [
        p.text for p in ranker.keyphrases("how can i know how many devices are connected to my wifi network?")
    ]
    assert target[0] == "wifi network"
    assert {"network", "know", "connected", "devices", "wifi"} <= set(target)


def test_chinese_keyphrases():
    phrases = [p.text for p in TextRank("zh").keyphrases("我想买个新手机,求推荐")]
    assert "新手机" in phrases and "推荐" in phrases
    assert all(p not in phrases for p in ("我", "个", ","))
