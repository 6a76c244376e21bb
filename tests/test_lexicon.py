"""WordNet and Cilin suggestions: lemmas by part of speech, sense-ranked synonyms, antonyms, Chinese groups."""

import gzip

import pytest
from helpers import shared

from paraguide.errors import DataError
from paraguide.suggest import load_source
from paraguide.suggest.lexicon import Cilin, WordNet

# Open English WordNet's YAML layout, with a handful of the project's own entries.
ENTRIES = """\
car:
  n:
    sense:
    - id: 'car%1:06:00::'
      synset: 00000001-n
    - id: 'car%1:06:01::'
      synset: 00000002-n
automobile:
  n:
    sense:
    - id: 'automobile%1:06:00::'
      synset: 00000001-n
fix:
  v:
    sense:
    - id: 'fix%2:30:00::'
      synset: 00000003-v
repair:
  v:
    sense:
    - id: 'repair%2:30:00::'
      synset: 00000003-v
good:
  a:
    sense:
    - id: 'good%3:00:01::'
      synset: 00000004-a
      antonym:
      - 'bad%3:00:00::'
bad:
  a:
    sense:
    - id: 'bad%3:00:00::'
      synset: 00000005-a
car park:
  n:
    sense:
    - id: 'car_park%1:06:00::'
      synset: 00000006-n
right:
  a:
    sense:
    - id: 'right%3:00:01::'
      synset: 00000007-a
      antonym:
      - 'left%3:00:00::'
    - id: 'right%3:00:02::'
      synset: 00000008-a
      antonym:
      - 'wrong%3:00:00::'
left:
  a:
    sense:
    - id: 'left%3:00:00::'
      synset: 00000009-a
wrong:
  a:
    sense:
    - id: 'wrong%3:00:00::'
      synset: 00000010-a
"""
NOUNS = """\
00000001-n:
  members:
  - car
  - automobile
  - motorcar
  partOfSpeech: n
00000002-n:
  members:
  - car
  - railcar
  partOfSpeech: n
"""
VERBS = """\
00000003-v:
  members:
  - fix
  - repair
  - mend
  - fix up
  partOfSpeech: v
"""
ADJS = """\
00000004-a:
  members:
  - good
  partOfSpeech: a
00000005-a:
  members:
  - bad
  partOfSpeech: a
"""


@pytest.fixture
def wordnet(tmp_path, monkeypatch):
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "yaml"
    folder.mkdir()
    for name, text in (
        ("entries-a.yaml.gz", ENTRIES),
        ("noun.artifact.yaml.gz", NOUNS),
        ("verb.change.yaml.gz", VERBS),
        ("adj.all.yaml.gz", ADJS),
    ):
        with gzip.open(folder / name, "wt", encoding="utf-8") as f:
            f.write(text)
    return folder


def test_synonyms_rank_by_sense_and_lemmatize(wordnet):
    wn = WordNet(wordnet)
    assert wn.synonyms("car", "n") == [
        ("automobile", 1.0, "n"),
        ("motorcar", 1.0, "n"),
        ("railcar", 0.5, "n"),
    ]
    assert wn.lemmatize("cars", "n") == ["car"] and wn.lemmatize("fixing", "v") == ["fix"]
    assert [s for s, _, _ in wn.synonyms("fixed", "v")] == ["fix up", "mend", "repair"]
    assert wn.synonyms("car", "v") == []
    assert wn.antonyms("good") == ["bad"] and wn.antonyms("good", "n") == []
    # every sense's antonyms together, and the first sense's alone
    assert wn.antonyms("right", "a") == ["left", "wrong"] and wn.first_antonyms["right"] == {"a": ["left"]}


def test_known_words_are_forms_of_wordnet_lemmas(wordnet):
    wn = WordNet(wordnet)
    assert wn.knows("cars") and wn.knows("fixing") and wn.knows("the")  # detachment, a stop word
    # irregular forms that morphy's detachment misses, through LemmInflect's dictionary
    assert wn.knows("better") and wn.knows("worst")
    assert not wn.knows("goodd") and not wn.knows("carz") and not wn.knows("mended")  # mend: no entry here


def test_suggestions_skip_stop_words_and_words_in_the_question(wordnet):
    [found] = WordNet(wordnet).suggest(["How do I fix my car or automobile?"])
    by_text = {s.text: s for s in found}
    assert set(by_text) == {"mend", "repair", "motorcar", "railcar"}  # automobile is already there
    assert (by_text["repair"].matched, by_text["repair"].span, by_text["repair"].relation) == (
        "fix",
        (3, 4),
        "v",
    )
    assert found[-1].text == "railcar"  # second sense ranks last
    # "fix up" only expands "fix"; a capitalised word after the first is taken for a name
    [found] = WordNet(wordnet).suggest(["Who can fix the Car?"])
    assert sorted(s.text for s in found) == ["mend", "repair"]


def test_the_parsed_index_is_cached_and_rebuilt_when_the_folder_changes(wordnet, tmp_path, monkeypatch):
    import yaml

    WordNet(wordnet)
    assert len(list((tmp_path / "cache" / "wordnet").iterdir())) == 1

    def no_yaml(*args, **kwargs):
        raise AssertionError("YAML parsed again")

    with monkeypatch.context() as m:
        m.setattr(yaml, "load", no_yaml)
        assert WordNet(wordnet).synonyms("car", "n")[0][0] == "automobile"
    (wordnet / "noun.artifact.yaml.gz").unlink()
    assert WordNet(wordnet).synonyms("car", "n") == []  # rebuilt without the noun synsets


def test_cilin_groups_scores_and_antonyms(tmp_path):
    cilin_file = tmp_path / "cilin.txt"
    cilin_file.write_text(
        "Ba01A01= 电脑 计算机 微机\nBa01A02# 电脑 平板\nBa01B01@ 键盘\nBa02A01= 电脑 处理器\n"
        "Ba03A01= 学习 上 修 修业 就学\nBa03A02= 达 到\nBa04A01= 世界 全世界 天底下\n"
    )
    antonyms = tmp_path / "antonym.txt"
    antonyms.write_text("便宜@昂贵\n昂贵@便宜\n@笑\n")
    cilin = Cilin(cilin_file, antonyms=antonyms, stopwords=frozenset({"的", "吗"}))
    assert sorted(cilin.synonyms("电脑")) == [("处理器", 0.5), ("微机", 0.5), ("计算机", 0.5)]
    assert cilin.synonyms("平板") == [] and cilin.synonyms("键盘") == []
    assert cilin.antonyms("便宜") == ["昂贵"] and cilin.skipped_antonym_lines == [3]
    [found] = cilin.suggest(["便宜的电脑好用吗"])
    assert sorted(s.text for s in found) == ["处理器", "微机", "计算机"]
    assert all(s.matched == "电脑" and s.source == "cilin" for s in found)
    # single characters neither replaced nor suggested; a member sharing a character ranks first
    [found] = cilin.suggest(["怎么学习阿凡达"])
    assert [s.text for s in found] == ["就学", "修业"]
    # the word itself grown or cut is no synonym in place: 我的世界 is a game, 我的全世界 is not
    [found] = cilin.suggest(["我的世界怎么下载"])
    assert [s.text for s in found] == ["天底下"]
    bad = tmp_path / "bad.txt"
    bad.write_text("Ba01A01= 电脑\nnot a line\n")
    with pytest.raises(DataError, match=r"bad.txt:2.*8-character code"):
        Cilin(bad, antonyms=antonyms)
    with pytest.raises(DataError, match=r"cilin.txt:1.*word1@word2"):
        Cilin(cilin_file, antonyms=cilin_file)


def test_unknown_source_and_missing_path():
    with pytest.raises(ValueError, match="unknown suggestion source 'thesaurus'"):
        load_source("thesaurus")
    with pytest.raises(ValueError, match="ppdb needs its file.*default for zh: none"):
        load_source("ppdb", lang="zh")


def test_ppdb_defaults_to_the_shared_synonym_pairs(monkeypatch, tmp_path):
    monkeypatch.setenv("PARAGUIDE_SHARED_DATA", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    from paraguide.suggest import default_ppdb_path

    (tmp_path / "en_lexical_constraints").mkdir()
    pairs = tmp_path / "en_lexical_constraints" / "ppdb_synonyms.txt"
    pairs.write_text("largest biggest", encoding="utf-8")
    assert default_ppdb_path("en") == pairs
    suggestions = load_source("ppdb", progress=False).suggest(["What is the largest city?"])[0]
    assert [(s.text, s.matched) for s in suggestions] == [("biggest", "largest")]


@pytest.mark.slow
def test_shared_wordnet_and_cilin():
    # The default cache: the index of the real WordNet (a minute to build) is the one the builders read, built
    # once per machine; building and reusing an index is tested on small files above.
    wn = WordNet(shared("open_english_wordnet/yaml"))
    assert "automobile" in [s for s, _, _ in wn.synonyms("car", "n")]
    assert "bad" in wn.antonyms("good", "a")
    cilin = Cilin(shared("zh_cilin/hit_cilin_extended.utf8.txt"), shared("zh_cilin/antonym.txt"))
    assert "计算机" in [w for w, _ in cilin.synonyms("电脑")]
    [found] = cilin.suggest(["怎么学习电脑编程"])
    assert found and all(s.text not in "怎么学习电脑编程" for s in found)


def test_nltk_wordnet_reader_gives_the_same_index():
    """NLTK's wordnet data is not in the shared data: the adapter is checked on an object with its API."""
    from paraguide.suggest.lexicon import index_from_nltk

    class Lemma:
        def __init__(self, name, antonyms=()):
            self._name, self._antonyms = name, antonyms

        def name(self):
            return self._name

        def antonyms(self):
            return [Lemma(a) for a in self._antonyms]

    class Synset:
        def __init__(self, name, lemmas, hypernyms=(), instance_hypernyms=()):
            self._name, self._lemmas = name, lemmas
            self._hypernyms, self._instance_hypernyms = hypernyms, instance_hypernyms

        def name(self):
            return self._name

        def lemmas(self):
            return self._lemmas

        def hypernyms(self):
            return list(self._hypernyms)

        def instance_hypernyms(self):
            return list(self._instance_hypernyms)

    vehicle = Synset("motor_vehicle.n.01", [Lemma("motor_vehicle")])
    car1 = Synset("car.n.01", [Lemma("car"), Lemma("automobile"), Lemma("motor_car")], hypernyms=[vehicle])
    car2 = Synset("car.n.02", [Lemma("car"), Lemma("railcar")])
    good = Synset("good.a.01", [Lemma("good", antonyms=("bad",))])

    class FakeWordNet:
        table = {("car", "n"): [car1, car2], ("automobile", "n"): [car1], ("good", "a"): [good]}

        def all_lemma_names(self, pos):
            return sorted({w for w, p in self.table if p == pos})

        def synsets(self, name, pos):
            return self.table.get((name, pos), [])

    index = index_from_nltk(FakeWordNet())
    assert index["lemmas"]["car"] == {"n": ["car.n.01", "car.n.02"]}
    assert index["synsets"]["car.n.01"] == ["car", "automobile", "motor car"]
    assert index["antonyms"]["good"] == {"a": ["bad"]} and index["first_antonyms"]["good"] == {"a": ["bad"]}
    assert index["hypernyms"] == {"car.n.01": ["motor_vehicle.n.01"]} and index["instance_hypernyms"] == {}
    wn = WordNet.__new__(WordNet)
    wn.lemmas, wn.synsets, wn._antonyms = index["lemmas"], index["synsets"], index["antonyms"]
    assert wn.synonyms("cars", "n") == [
        ("automobile", 1.0, "n"),
        ("motor car", 1.0, "n"),
        ("railcar", 0.5, "n"),
    ]


def test_a_word_inside_a_two_word_lemma_gets_no_synonym(wordnet):
    # "car" of "car park" (or of "car parks"): a synonym of "car" alone would break the compound
    [found] = WordNet(wordnet).suggest(["Where are the car parks of the station?"])
    assert found == []
    [found] = WordNet(wordnet).suggest(["Where is the car of the station?"])
    assert {s.text for s in found} == {"automobile", "motorcar", "railcar"}


def test_suggestions_from_the_first_senses_only_and_not_of_the_wrong_shape(wordnet):
    from paraguide.suggest.lexicon import _unfit

    [found] = WordNet(wordnet, max_sense=1).suggest(["Where is the car of the station?"])
    assert {s.text for s in found} == {"automobile", "motorcar"}  # "railcar" is the second sense
    # shapes a blind reading rejected in place: derived forms, several-word glosses of a noun, "be ..."
    for synonym, lemmas, pos in [
        ("activating", {"activation"}, "n"),
        ("combing", {"combs", "comb"}, "n"),
        ("centerfield", {"center"}, "n"),
        ("female parent", {"mother"}, "n"),
        ("be known as", {"called", "call"}, "v"),
    ]:
        assert _unfit(synonym, lemmas, pos), synonym
    # spelling variants, phrasal verbs and plain synonyms are fine
    for synonym, lemmas, pos in [
        ("organisation", {"organization"}, "n"),
        ("synthesise", {"synthesized", "synthesize"}, "v"),
        ("take hold of", {"seize"}, "v"),
        ("speed", {"velocity"}, "n"),
    ]:
        assert not _unfit(synonym, lemmas, pos), synonym


def test_no_derived_form_of_a_short_word():
    from paraguide.suggest.lexicon import _unfit

    assert _unfit("ending", {"end"}, "n") and _unfit("endpoint", {"end"}, "n")
    assert not _unfit("utilization", {"use"}, "n")
    assert not _unfit("close", {"end"}, "n") and not _unfit("colour", {"color"}, "n")


def test_agreement_keeps_what_both_sources_suggest_for_the_same_words(wordnet, tmp_path):
    """WordNet offers automobile, motorcar and railcar for "car"; a PPDB-like list agrees on "automobiles"
    (an inflected form: agreement is on lemmas) and offers "vehicle" for another word; only automobile is
    kept, with WordNet's span and score."""
    from paraguide.suggest import PPDB, Agreement

    pairs = tmp_path / "pairs.txt"
    pairs.write_text("car automobiles\nrepair vehicle\n", encoding="utf-8")
    wn = WordNet(wordnet)
    both = load_source(f"wordnet:{wordnet}&ppdb:{pairs}")
    assert isinstance(both, Agreement) and both.name == "wordnet&ppdb"
    questions = ["Who can repair my car?", "Is it good?"]
    alone = wn.suggest(questions)
    assert {s.text for s in alone[0]} >= {"automobile", "motorcar", "railcar", "fix", "mend"}
    agreed = both.suggest(questions)
    assert [s.text for s in agreed[0]] == ["automobile"] and agreed[1] == []
    assert agreed[0][0] == next(s for s in alone[0] if s.text == "automobile")
    assert [s.text for s in Agreement(wn, PPDB(pairs, progress=False)).suggest(["Where is the car?"])[0]] == [
        "automobile"
    ]
    with pytest.raises(ValueError, match="two or more lexical sources"):
        load_source("wordnet&")
    with pytest.raises(ValueError, match="at least two sources"):
        Agreement(wn)


def test_mined_pairs_come_from_one_word_swaps_between_the_same_words(tmp_path, monkeypatch):
    from paraguide.suggest.mined import mine, mined_table

    pairs = [
        ("送男朋友什么礼物好", "送男友什么礼物好"),
        ("How can I learn Python quickly?", "How can I learn Python fast?"),
        ("What is a good book?", "Which is a good book?"),  # at the start: no word before it
        ("Is it safe?", "Is it safe to drink?"),  # an insertion, not a swap
    ]
    counts = mine(pairs[:1], "zh")
    assert counts == {("男朋友", "男友"): 1, ("男友", "男朋友"): 1}
    assert dict(mine(pairs[1:], "en")) == {("quickly", "fast"): 1, ("fast", "quickly"): 1}
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text(
        "送男朋友什么礼物好\t送男友什么礼物好\t1\n送男朋友什么东西好\t送男友什么东西好\t1\n"
        "送女朋友什么花\t送老婆什么花\t0\n",
        encoding="utf-8",
    )
    table = mined_table([corpus], "zh")
    assert table.read_text(encoding="utf-8") == "男友 男朋友\n"  # the negative pair is not read
    assert mined_table([corpus], "zh") == table and mined_table([corpus], "zh", min_count=3) != table
    assert mined_table([corpus], "zh", min_count=3).read_text(encoding="utf-8") == ""
    source = load_source(f"mined:{corpus}", lang="zh", progress=False)
    assert source.name == "mined"
    [found] = source.suggest(["送男朋友什么好"])
    assert [(s.text, s.matched) for s in found] == [("男友", "男朋友")]
    import paraguide.suggest.mined as mined_module

    monkeypatch.setattr(mined_module, "find_shared", lambda name: None)  # no shared data
    with pytest.raises(ValueError, match="mined needs paraphrase pairs.*lcqmc/train.tsv.gz"):
        load_source("mined", lang="zh")


def test_chinese_question_words_swap_only_where_they_ask_the_same():
    from paraguide.suggest import Interrogatives

    source = Interrogatives()
    found = source.suggest(
        ["手机号怎么注销？", "怎么不能登录了", "这是怎么回事", "为什么天是蓝的", "北京哪里好玩", "你怎么了"]
        + ["微博怎么打不开？", "我的世界怎么安装不起"]
    )
    assert [(s.matched, s.text, s.span) for s in found[0]] == [
        ("怎么", "如何", (1, 2)),
        ("怎么", "怎样", (1, 2)),
    ]
    assert found[1] == [] and found[2] == [] and found[5] == []  # why, a set phrase, what's wrong
    assert found[6] == [] and found[7] == []  # why it fails
    [how_long, how_many, what] = source.suggest(["西红柿开花后多久结果", "宣太后有几个孩子", "有什么好玩的"])
    assert [(s.matched, s.text) for s in what] == [("什么", "啥")]
    assert [(s.matched, s.text) for s in how_long] == [("多久", "多长时间")]
    assert [(s.matched, s.text) for s in how_many] == [("几个", "多少个")]
    assert [s.text for s in found[3]] == ["为何", "为啥"] and [s.text for s in found[4]] == ["哪儿"]
    # 什么 standing for a blank to fill is not swapped (readings 2026-11-27u/v: 一啥花 reads wrong)
    assert source.suggest(["一什么花的量词", "什么的鸟叫声", "什么讹什么讹成语"]) == [[], [], []]
    with pytest.raises(ValueError, match="no question-word table for 'fr'"):
        Interrogatives(lang="fr")


def test_english_what_and_which_swap_only_as_determiners(tagger):
    source = load_source("interrogative", lang="en")
    questions = [
        "What year did the Normans conquer England?",
        "In what country is Normandy located?",
        "Which other team won?",
        "What kind of music did he play?",
        "What causes the tides?",  # the tagger's noun is a verb: "the" follows it
        "What percentage of people voted?",  # a measure: "which percentage" picks one of a set
        "To what extent was it built?",
        "What is the capital of France?",  # a pronoun, not a determiner
        "Who owns the team which won?",  # a relative "which" inside the question
        "What happens is unclear?",  # the verb before "is" is a verb
        "Which two religions did Tesla respect?",  # a number between
        "What animals did Tesla care for?",  # the tagger's "animals/VBZ" before an auxiliary is a noun
    ]
    found = source.suggest(questions)
    assert [[(s.matched, s.text, s.span) for s in f] for f in found[:4]] == [
        [("What", "which", (0, 1))],
        [("what", "which", (1, 2))],
        [("Which", "what", (0, 1))],
        [("What", "which", (0, 1))],
    ]
    assert found[4:10] == [[]] * 6
    assert [[(s.matched, s.text) for s in f] for f in found[10:]] == [
        [("Which", "what")],
        [("What", "which")],
    ]


def test_a_union_keeps_each_sources_suggestions_in_order(tagger, wordnet, tmp_path):
    from paraguide.suggest import Union

    pairs = tmp_path / "pairs.txt"
    pairs.write_text("car automobile\ncar vehicle\n", encoding="utf-8")
    both = load_source(f"wordnet:{wordnet}|ppdb:{pairs}", progress=False)
    assert isinstance(both, Union) and both.name == "wordnet|ppdb"
    [found] = both.suggest(["Where is the car?"])
    texts = [s.text for s in found]
    assert texts[-1] == "vehicle" and texts.count("automobile") == 1  # PPDB's automobile is WordNet's
    assert [s.text for s in both.suggest(["Where is the car?"], top_k=2)[0]] == texts[:2]
    # each suggestion knows its source's place, so a ranker keeps WordNet's ahead of PPDB's
    assert {s.tier for s in found[:-1]} == {0} and found[-1].tier == 1
    nested = load_source(f"wordnet:{wordnet}|ppdb:{pairs}|interrogative", lang="en", progress=False)
    [found] = nested.suggest(["Which car is it?"])
    assert [s.tier for s in found if s.source == "interrogative"] == [2]
    with pytest.raises(ValueError, match="two or more sources, as A|B"):
        load_source("wordnet|")


# Hypernyms and named instances (the synset files' "hypernym" and "instance_hypernym" lists), for the
# perturbations' related words: "dog" and "wolf" are canines, "Dog" (the star) is listed first under "dog".
KIN_ENTRIES = """\
Berlin:
  n:
    sense:
    - id: 'berlin%1:15:00::'
      synset: 00000022-n
Dog:
  n:
    sense:
    - id: 'dog%1:17:00::'
      synset: 00000018-n
Paris:
  n:
    sense:
    - id: 'paris%1:15:00::'
      synset: 00000021-n
"""
KIN_ENTRIES_LOWER = "".join(
    f"{lemma}:\n  n:\n    sense:\n    - id: '{lemma}%1:05:00::'\n      synset: {synset}\n"
    for lemma, synset in [("animal", "00000011-n"), ("canine", "00000012-n"), ("dog", "00000013-n"),
                          ("wolf", "00000014-n"), ("feline", "00000015-n"), ("cat", "00000016-n"),
                          ("city", "00000020-n"), ("entity", "00000010-n")]
)  # fmt: skip
KIN_SYNSETS = "".join(
    f"{synset}:\n  members:\n  - {member}\n" + (f"  {relation}:\n  - {parent}\n" if parent else "")
    for synset, member, relation, parent in [
        ("00000010-n", "entity", "", ""),
        ("00000011-n", "animal", "hypernym", "00000010-n"),
        ("00000012-n", "canine", "hypernym", "00000011-n"),
        ("00000013-n", "dog", "hypernym", "00000012-n"),
        ("00000014-n", "wolf", "hypernym", "00000012-n"),
        ("00000015-n", "feline", "hypernym", "00000011-n"),
        ("00000016-n", "cat", "hypernym", "00000015-n"),
        ("00000018-n", "Dog", "hypernym", "00000010-n"),
        ("00000020-n", "city", "hypernym", "00000010-n"),
        ("00000021-n", "Paris", "instance_hypernym", "00000020-n"),
        ("00000022-n", "Berlin", "instance_hypernym", "00000020-n"),
    ]
)


def test_hypernyms_and_instances_relate_first_senses(tmp_path, monkeypatch):
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "yaml"
    folder.mkdir()
    for name, text in (
        ("entries-b.yaml.gz", KIN_ENTRIES),
        ("entries-d.yaml.gz", KIN_ENTRIES_LOWER),
        ("noun.animal.yaml.gz", KIN_SYNSETS),
    ):
        with gzip.open(folder / name, "wt", encoding="utf-8") as f:
            f.write(text)
    wn = WordNet(folder)
    assert wn.hypernyms["00000013-n"] == ["00000012-n"]
    assert wn.hyponyms["00000012-n"] == ["00000013-n", "00000014-n"]  # inverted, in synset order
    assert wn.instance_hypernyms == {"00000021-n": ["00000020-n"], "00000022-n": ["00000020-n"]}
    assert wn.instances == {"00000020-n": ["00000021-n", "00000022-n"]}
    # "dog" is the animal though the capitalised "Dog" comes first under the same key
    assert wn.lemmas["dog"]["n"] == ["00000018-n", "00000013-n"]
    assert wn.first_sense("dog", "n") == "00000013-n" and wn.first_sense("Dog", "n") == "00000018-n"
    assert wn.height("00000013-n") == 3 and wn.height("00000010-n") == 0
    assert wn.common_hypernym("dog", "wolf", "n") == "00000012-n"  # canine
    assert wn.common_hypernym("dog", "cat", "n") == "00000011-n"  # animal, two levels up each
    assert wn.common_hypernym("dog", "cat", "n", depth=1) is None
    assert wn.common_hypernym("dog", "canine", "n") is None  # a kind of it, no sister
    assert wn.common_hypernym("dog", "wolf", "n", max_family=1) is None  # canine has two hyponyms
    assert wn.common_hypernym("dog", "wolf", "n", min_height=3) is None  # canine is two below the top
    assert wn.common_hypernym("Paris", "Berlin", "n") is None  # instances have no hypernym, a class
