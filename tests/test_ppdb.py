"""PPDB suggestions: the three file formats, the on-disk index and its reuse, n-gram and stop-word rules,
thresholds and entailment filters, and errors that name the line."""

import gzip
import hashlib
import json
import os
import subprocess
import sys

import pytest
from helpers import shared

from paraguide.errors import DataError
from paraguide.suggest.ppdb import PPDB, build_index, detect_rule_format, read_rules

# PPDB 2.0 rule lines (the real layout; the phrases are the project's own).
RULES = """\
[NN] ||| car ||| automobile ||| PPDB2.0Score=3.61 PPDB1.0Score=8.2 ||| 0-0 ||| Equivalence
[NN] ||| car ||| vehicle ||| PPDB2.0Score=2.10 PPDB1.0Score=6.1 ||| 0-0 ||| ForwardEntailment
[NN] ||| car ||| wagon ||| PPDB2.0Score=0.20 PPDB1.0Score=3.0 ||| 0-0 ||| OtherRelated
[NN] ||| car ||| automobile ||| PPDB2.0Score=3.10 PPDB1.0Score=8.0 ||| 0-0 ||| Equivalence
[VP] ||| fix a car ||| repair an automobile ||| PPDB2.0Score=4.02 ||| 0-0 1-1 2-2 ||| Equivalence
[VB] ||| fix ||| repair ||| PPDB2.0Score=3.90 ||| 0-0 ||| Equivalence
[VB] ||| fix ||| set ||| PPDB2.0Score=1.00 ||| 0-0 ||| Independent
[DT] ||| a ||| one ||| PPDB2.0Score=3.00 ||| 0-0 ||| Equivalence
[IN] ||| how ||| in what way ||| PPDB2.0Score=1.50 ||| 0-0 ||| Equivalence
[NN] ||| car ||| the ||| PPDB2.0Score=2.00 ||| 0-0 ||| Independent
[NN] ||| engine ||| motor ||| PPDB2.0Score=2.50 ||| 0-0 ||| Equivalence
"""


@pytest.fixture
def rules(tmp_path, monkeypatch):
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "ppdb-2.0-s-all.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(RULES)
    return path


def test_rules_are_read_with_score_and_relation(rules):
    assert detect_rule_format(rules) == "ppdb"
    got = list(read_rules(rules))
    assert got[0] == ("car", "automobile", 3.61, "Equivalence")
    assert got[4] == ("fix a car", "repair an automobile", 4.02, "Equivalence")
    assert len(got) == 11


def test_suggestions_rank_by_score_and_obey_the_rules(rules):
    ppdb = PPDB(rules, progress=False)
    [found] = ppdb.suggest(["How do I fix a car engine?"])
    texts = [s.text for s in found]
    # Ranked by score: the 3-gram's paraphrase first; the duplicate rule keeps its best score.
    assert texts == ["repair an automobile", "repair", "automobile", "motor", "vehicle", "set"]
    top = found[0]
    assert (top.matched, top.span, top.score, top.source, top.relation) == (
        "fix a car",
        (3, 6),
        4.02,
        "ppdb",
        "Equivalence",
    )
    assert found[2].score == 3.61
    # Not suggested: below the 0.25 threshold (wagon), stop-word unigrams' rules (a -> one, how -> in
    # what way) and a paraphrase that is stop words alone (the).
    assert not {"wagon", "one", "in what way", "the"} & set(texts)


def test_threshold_relations_and_top_k(rules):
    strict = PPDB(rules, threshold=3.0, relations={"Equivalence"}, progress=False)
    [found] = strict.suggest(["how do i fix a car engine?"], top_k=2)
    assert [s.text for s in found] == ["repair an automobile", "repair"]
    [nothing] = strict.suggest(["what is the weather?"])
    assert nothing == []


def test_paraphrases_already_in_the_question_are_skipped(rules):
    [found] = PPDB(rules, progress=False).suggest(["which car or automobile engine?"])
    assert "automobile" not in [s.text for s in found]


def test_index_is_built_once_and_rebuilt_when_the_file_changes(rules, tmp_path):
    index = build_index(rules, progress=False)
    assert index.exists() and index.parent == tmp_path / "cache" / "ppdb"
    stamp = index.stat().st_mtime_ns
    assert build_index(rules, progress=False) == index and index.stat().st_mtime_ns == stamp
    with gzip.open(rules, "at", encoding="utf-8") as f:
        f.write("[NN] ||| car ||| motorcar ||| PPDB2.0Score=3.00 ||| 0-0 ||| Equivalence\n")
    [found] = PPDB(rules, progress=False).suggest(["a car"])
    assert "motorcar" in [s.text for s in found]


def test_word_pairs_and_human_labels(tmp_path, monkeypatch):
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    pairs = tmp_path / "synonyms.txt"
    pairs.write_text("quick fast\nbig large")
    assert detect_rule_format(pairs) == "pairs"
    [found] = PPDB(pairs, progress=False).suggest(["a fast and large car"])
    assert sorted(s.text for s in found) == ["big", "quick"] and {s.score for s in found} == {1.0}
    human = tmp_path / "ppdb-sample.tsv"
    human.write_text("4.6\t[NN]\tcar\tautomobile\t5,5,4,5,4\n1.4\t[NN]\tcar\tbanana\t1,1,2,1,2\n")
    assert detect_rule_format(human) == "human"
    [found] = PPDB(human, progress=False).suggest(["my car"])
    assert [(s.text, s.score) for s in found] == [("automobile", 0.9)]  # banana: (1.4 - 1) / 4 < 0.25


def test_bad_lines_name_the_file_and_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    bad = tmp_path / "bad.txt"
    bad.write_text("[NN] ||| car ||| automobile ||| PPDB2.0Score=3.6 ||| 0-0 ||| Equivalence\n[NN] ||| car\n")
    with pytest.raises(DataError, match=r"bad.txt:2.*at least 4"):
        PPDB(bad, progress=False)
    noscore = tmp_path / "noscore.txt"
    noscore.write_text("[NN] ||| car ||| automobile ||| p=1 ||| 0-0\n")
    with pytest.raises(DataError, match=r"noscore.txt:1.*PPDB2.0Score"):
        PPDB(noscore, progress=False)
    junk = tmp_path / "junk.txt"
    junk.write_text("one two three\n")
    with pytest.raises(DataError, match="not a PPDB file"):
        PPDB(junk, progress=False)


def test_shared_ppdb_synonym_list(tmp_path, monkeypatch):
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    ppdb = PPDB(shared("en_lexical_constraints/ppdb_synonyms.txt"), progress=False)
    found = ppdb.suggest(["What is the largest city in the country?", "How do airplanes fly?"])
    assert all(found) and all(s.source == "ppdb" for f in found for s in f)


def test_suggest_command_writes_jsonl_and_reports_coverage(rules, tmp_path, capsys):
    from paraguide.cli import main

    questions = tmp_path / "questions.txt"
    questions.write_text("How do I fix a car engine?\nWhat is the weather?\n")
    out = tmp_path / "suggestions.jsonl"
    assert (
        main(["suggest", "--source", f"ppdb:{rules}", "--input", str(questions), "--output", str(out)]) == 0
    )
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["question"] for r in records] == ["How do I fix a car engine?", "What is the weather?"]
    assert records[0]["suggestions"][0] == {
        "text": "repair an automobile",
        "matched": "fix a car",
        "span": [3, 6],
        "score": 4.02,
        "source": "ppdb",
        "relation": "Equivalence",
        "tier": 0,
    }
    assert records[1]["suggestions"] == []
    assert "1 of 2 questions (50.0%) got suggestions" in capsys.readouterr().err
    assert main(["suggest", "--source", "thesaurus", "--input", str(questions)]) == 1
    assert "unknown suggestion source" in capsys.readouterr().err


def test_names_are_not_paraphrased(rules):
    [found] = PPDB(rules, progress=False).suggest(["Where is the Car Museum?"])
    assert found == []
    [found] = PPDB(rules, progress=False, skip_names=False).suggest(["Where is the Car Museum?"])
    assert [s.text for s in found] == ["automobile", "vehicle"]


def test_ptb_tokens_match_ppdb_tokenisation():
    from paraguide.suggest.ppdb import ptb_tokens

    assert ptb_tokens("What's the name of the U.S. president who didn't run in 1998?") == [
        "What", "'s", "the", "name", "of", "the", "U.S.", "president", "who", "did", "n't", "run", "in", "1998", "?",
    ]  # fmt: skip
    assert ptb_tokens('Is 3.5 an e-mail, (or) "quote"?') == [
        "Is", "3.5", "an", "e-mail", ",", "(", "or", ")", '"', "quote", '"', "?",
    ]  # fmt: skip


def test_repeated_rules_do_not_crowd_out_others_and_keep_their_relations(tmp_path, monkeypatch):
    # PPDB repeats a pair under other LHS labels, sometimes with another relation. A repeat must not take
    # one of the `top_k` places of a phrase, and a relation filter must find the copy with its relation.
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "ppdb-repeats.txt"
    path.write_text(
        "[NN] ||| car ||| automobile ||| PPDB2.0Score=3.6 ||| 0-0 ||| ForwardEntailment\n"
        "[NNP] ||| car ||| automobile ||| PPDB2.0Score=3.5 ||| 0-0 ||| ForwardEntailment\n"
        "[NN] ||| car ||| automobile ||| PPDB2.0Score=3.0 ||| 0-0 ||| Equivalence\n"
        "[NN] ||| car ||| motorcar ||| PPDB2.0Score=2.0 ||| 0-0 ||| Equivalence\n"
    )
    [found] = PPDB(path, progress=False).suggest(["a car"], top_k=2)
    assert [(s.text, s.score, s.relation) for s in found] == [
        ("automobile", 3.6, "ForwardEntailment"),
        ("motorcar", 2.0, "Equivalence"),
    ]
    [found] = PPDB(path, relations={"Equivalence"}, progress=False).suggest(["a car"], top_k=2)
    assert [(s.text, s.score) for s in found] == [("automobile", 3.0), ("motorcar", 2.0)]


def test_phrase_filter_never_misses_and_rarely_lets_through():
    from paraguide.suggest.ppdb import PhraseFilter, phrase_keys

    phrases = [f"phrase {i} of the index" for i in range(20_000)]
    bloom = PhraseFilter.empty(len(phrases))
    bloom.add(phrase_keys(phrases))
    assert bloom.may_contain(phrase_keys(phrases)).all()  # no false negative, ever
    strangers = [f"another {i} n-gram" for i in range(20_000)]
    assert bloom.may_contain(phrase_keys(strangers)).mean() < 0.02  # ~1 % (7 probes, >= 10 bits a phrase)
    # Stable across processes (CRC-32, not Python's salted hash): another interpreter sets the same bits.
    code = (
        "import hashlib; from paraguide.suggest.ppdb import PhraseFilter as F, phrase_keys; b = F.empty(20000); "
        "b.add(phrase_keys([f'phrase {i} of the index' for i in range(20000)])); "
        "print(hashlib.sha1(b.bits.tobytes()).hexdigest())"
    )
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "123"},
    )
    assert other.stdout.strip() == hashlib.sha1(bloom.bits.tobytes()).hexdigest()


def test_every_ngram_of_a_question_is_keyed_like_the_phrase_it_would_match(tmp_path, monkeypatch):
    # The batch's n-grams are keyed in numpy, the index's phrases one by one: the keys must agree, or the
    # filter would hide real phrases. Index every n-gram of the question and all must come back.
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    question = "how long does an old stone bridge in this valley take to cross"
    tokens = question.split()
    spans = [(s, e) for s in range(len(tokens)) for e in range(s + 1, min(len(tokens), s + 6) + 1)]
    path = tmp_path / "every-ngram.txt"
    path.write_text(
        "".join(
            f"[X] ||| {' '.join(tokens[s:e])} ||| para{s}x{e} ||| PPDB2.0Score=1 ||| 0-0 ||| Equivalence\n"
            for s, e in spans
        )
    )
    ppdb = PPDB(path, progress=False, stopwords=frozenset())
    [found] = ppdb.suggest([question, "an unrelated question about rivers ?"])[:1]
    assert sorted((s.span, s.text) for s in found) == sorted(((s, e), f"para{s}x{e}") for s, e in spans)


def _naive_suggest(rules, question, stopwords, threshold, relations, top_k):
    """The documented ranking, written plainly from the rule list, for comparison."""
    from paraguide.suggest.ppdb import _WORD, ptb_tokens
    from paraguide.text.stopwords import is_stop_phrase

    surface = ptb_tokens(question)
    tokens = [t.lower() for t in surface]
    text = " " + " ".join(tokens) + " "
    best = {}
    for s in range(len(tokens)):
        for e in range(s + 1, min(len(tokens), s + 6) + 1):
            if any(i > 0 and surface[i][:1].isupper() for i in range(s, e)):
                continue  # names
            if e - s == 1 and (tokens[s] in stopwords or not _WORD.search(tokens[s])):
                continue
            gram = " ".join(tokens[s:e])
            kept = {}  # the best copy of each paraphrase with an allowed relation, best first
            for phrase, paraphrase, score, relation in sorted(rules, key=lambda r: (-r[2], r[1])):
                if phrase == gram and score >= threshold and (not relations or relation in relations):
                    kept.setdefault(paraphrase, (score, relation))
            for paraphrase, (score, relation) in list(kept.items())[:top_k]:
                if paraphrase == gram or is_stop_phrase(paraphrase.split(), stopwords):
                    continue
                if f" {paraphrase} " in text:
                    continue
                key = (-score, -(e - s), paraphrase, gram, (s, e), relation)
                best[paraphrase] = min(best.get(paraphrase, key), key)
    return [(k[2], k[3], k[4], round(-k[0], 4), k[5]) for k in sorted(best.values())[:top_k]]


@pytest.mark.slow
@pytest.mark.parametrize("relations", [None, {"Equivalence"}])
def test_suggestions_equal_a_plain_reference_on_random_rules(tmp_path, monkeypatch, relations):
    # Random rules over a small vocabulary (so that n-grams hit, rules repeat with other scores and
    # relations) and random questions: the indexed, filtered, batched path must give exactly what the
    # plain reading of the rules gives.
    import random

    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    rng = random.Random(7)
    vocab = [
        "the",
        "a",
        "of",
        "car",
        "engine",
        "fix",
        "repair",
        "big",
        "large",
        "fast",
        "quick",
        "road",
        "river",
        "city",
        "old",
        "new",
    ]
    relation_names = ["Equivalence", "ForwardEntailment", "Independent"]
    lines = []
    for _ in range(3000):
        phrase = " ".join(rng.choices(vocab, k=rng.choice([1, 1, 1, 2, 2, 3])))
        paraphrase = " ".join(rng.choices(vocab, k=rng.choice([1, 1, 2])))
        score = round(rng.uniform(0, 5), 2)
        lines.append(
            f"[X] ||| {phrase} ||| {paraphrase} ||| PPDB2.0Score={score} ||| 0-0 ||| {rng.choice(relation_names)}\n"
        )
    path = tmp_path / "random-rules.txt"
    path.write_text("".join(lines))
    rules = list(read_rules(path))
    questions = [
        " ".join(rng.choices(vocab + ["Paris", "?"], k=rng.randint(3, 12))).capitalize() for _ in range(60)
    ]
    ppdb = PPDB(path, progress=False, threshold=1.0, relations=relations)
    got = ppdb.suggest(questions, top_k=5)
    for question, found in zip(questions, got, strict=True):
        want = _naive_suggest(rules, question, ppdb.stopwords, 1.0, relations, 5)
        assert [(s.text, s.matched, s.span, s.score, s.relation) for s in found] == want, question
