import json
import random

import pytest

from paraguide.data.io import read_jsonl
from paraguide.errors import DataError
from paraguide.pipeline.prepare import PrepareConfig, check_prepared, output_paths, prepare
from paraguide.text import pair_key

WORDS = [
    "python",
    "java",
    "rust",
    "golang",
    "kotlin",
    "swift",
    "scala",
    "haskell",
    "cobol",
    "fortran",
    "lisp",
    "perl",
    "ruby",
    "elixir",
    "erlang",
    "clojure",
    "dart",
    "julia",
    "matlab",
    "pascal",
]
TOPICS = [
    "jobs",
    "books",
    "courses",
    "projects",
    "libraries",
    "tutorials",
    "salaries",
    "interviews",
    "conferences",
    "podcasts",
]


def synthetic_pairs(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """Question pairs where most targets add a content word and some add only stop words."""
    rng = random.Random(seed)
    pairs, seen = [], set()
    while len(pairs) < n:
        lang, topic, other = rng.choice(WORDS), rng.choice(TOPICS), rng.choice(TOPICS)
        if rng.random() < 0.2:
            a, b = f"what are good {lang} {topic}?", f"what are some of the good {lang} {topic}?"
        else:
            a, b = f"what are good {lang} {topic}?", f"which {lang} {other} and {topic} are best?"
        if a != b and pair_key(a, b) not in seen:
            seen.add(pair_key(a, b))
            pairs.append((a, b))
    return pairs


@pytest.fixture
def pair_file(tmp_path):
    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"{a}\t{b}\n" for a, b in synthetic_pairs(300)))
    return path


def records(path):
    return [r for _, r in read_jsonl(path)]


def test_output_paths():
    paths = output_paths("data/train.jsonl")
    assert {k: str(v) for k, v in paths.items()} == {
        "train": "data/train.jsonl",
        "heldout": "data/train.heldout.jsonl",
        "stats": "data/train.stats.json",
    }
    assert str(output_paths("x/q.jsonl.gz")["heldout"]) == "x/q.heldout.jsonl.gz"


def test_prepare_rules_hold(pair_file, tmp_path):
    config = PrepareConfig(empty_share=0.2, heldout_share=0.2, workers=1)
    report = prepare([pair_file], tmp_path / "train.jsonl", config, progress=False)
    check = check_prepared(tmp_path / "train.jsonl", "en", 0.2)
    assert check["failures"] == {}
    train, heldout = records(tmp_path / "train.jsonl"), records(tmp_path / "train.heldout.jsonl")
    # another corpus's held-out file: its own held-out split is disjoint, a file with a trained pair is not
    own = check_prepared(tmp_path / "train.jsonl", "en", 0.2, tmp_path / "train.heldout.jsonl")
    assert own["failures"] == {} and own["disjoint_from"]["pairs_trained_on"] == 0
    leaked = tmp_path / "leaked.jsonl"
    reversed_pair = {**train[0], "source": train[0]["target"], "target": train[0]["source"]}
    leaked.write_text(json.dumps(heldout[0]) + "\n" + json.dumps(reversed_pair) + "\n", encoding="utf-8")
    bad = check_prepared(tmp_path / "train.jsonl", "en", 0.2, leaked)
    assert bad["disjoint_from"] == {"file": str(leaked), "pairs": 2, "pairs_trained_on": 1}
    assert bad["failures"] == {f"pairs of {leaked} in the training split": 1}
    assert report["examples"]["train"]["count"] == len(train) and len(heldout) > 0
    assert set(train[0]) == {"source", "target", "suggestion", "matched", "method", "lang", "origin"}
    assert {r["method"] for r in train} == {"textrank", "empty"}
    # "matched": a phrase of the source (what the suggestion replaces), or "" -- never for the empty suggestion
    assert all(r["matched"] in r["source"] for r in train) and any(r["matched"] for r in train)
    assert not any(r["matched"] for r in train if not r["suggestion"])
    assert report["examples"]["train"]["with_replaced_phrase"] == sum(bool(r["matched"]) for r in train)
    assert all(r["source"] == r["source"].lower() for r in train)
    assert train[0]["origin"] == f"{pair_file}:1"
    # Both directions of a pair, on the same side of the split.
    assert len(train) + len(heldout) > 1.5 * 300
    stats = json.loads((tmp_path / "train.stats.json").read_text())
    assert [f["filter"] for f in stats["pair_filters"]][:3] == [
        "labelled positive",
        "not identical",
        "not duplicate",
    ]


@pytest.mark.slow
def test_same_output_for_any_number_of_workers_and_runs(pair_file, tmp_path):
    outs = []
    for i, workers in enumerate((1, 2, 2)):
        out = tmp_path / f"run{i}" / "train.jsonl"
        prepare([pair_file], out, PrepareConfig(workers=workers), progress=False)
        outs.append(out.read_bytes() + output_paths(out)["heldout"].read_bytes())
    assert outs[0] == outs[1] == outs[2]


def test_filters_are_counted(tmp_path):
    path = tmp_path / "lcqmc.tsv"
    path.write_text(
        "how do i learn python?\thow can i study python?\t1\n"
        "how do i learn python?\twhat is python?\t0\n"  # negative
        "Same question?\tsame  question?\t1\n"  # identical after normalisation
        "how can i study python?\thow do i learn python?\t1\n"  # duplicate (reversed)
        "short?\thow can i really become good at chess?\t1\n"  # too short
    )
    config = PrepareConfig(min_tokens=3, workers=1, heldout_share=0.0, empty_share=0.0)
    report = prepare([path], tmp_path / "out.jsonl", config, progress=False)
    assert [(f["filter"], f["in"], f["dropped"]) for f in report["pair_filters"]] == [
        ("labelled positive", 5, 1),
        ("not identical", 4, 1),
        ("not duplicate", 3, 1),
        ("has words", 2, 0),
        ("min length", 2, 1),
        ("min similarity", 1, 0),
    ]
    assert report["files"][str(path)] == {"pairs_read": 5, "bad_lines_skipped": 0}


def test_similarity_floor_uses_any_scorer(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_text(
        "how do i learn python?\thow can i study python?\nwhat is love?\twho is the best chess player?\n"
    )

    def overlap(a, b):  # a toy scorer: Jaccard overlap of words
        return [
            len(set(x.split()) & set(y.split())) / len(set(x.split()) | set(y.split()))
            for x, y in zip(a, b, strict=True)
        ]

    config = PrepareConfig(min_similarity=0.2, workers=1, heldout_share=0.0, empty_share=0.0)
    report = prepare([path], tmp_path / "out.jsonl", config, scorer=overlap, progress=False)
    assert report["pair_filters"][-1] == {"filter": "min similarity", "in": 2, "out": 1, "dropped": 1}
    with pytest.raises(ValueError, match="needs a scorer"):
        prepare([path], tmp_path / "x.jsonl", config)
    # a paraguide scorer works as it is (score(pairs))
    from paraguide.score import LexicalScorer

    config.min_similarity = 0.5  # word overlap 0.67 and 0.36
    report = prepare(
        [path], tmp_path / "lex.jsonl", config, scorer=LexicalScorer("word_overlap"), progress=False
    )
    assert report["pair_filters"][-1] == {"filter": "min similarity", "in": 2, "out": 1, "dropped": 1}


def test_unique_suggestions_per_source(tmp_path):
    # One source, three targets; candidates: T1 {delta, ...}, T2 {delta, epsilon, ...}, T3 {delta}.
    path = tmp_path / "word_alignments.txt"
    path.write_text(
        "alpha beta gamma\talpha delta gamma\t0-0 1-1 2-2\n"
        "alpha beta gamma\talpha delta gamma epsilon\t0-0 1-1 2-2\n"
        "alpha beta gamma\tdelta\t1-0\n"
    )
    config = PrepareConfig(
        suggestions="alignment", both_directions=False, empty_share=0.0, heldout_share=0.0, workers=1
    )
    report = prepare([path], tmp_path / "out.jsonl", config, progress=False)
    assert [r["suggestion"] for r in records(tmp_path / "out.jsonl")] == ["delta", "epsilon"]
    assert report["suggestion_selection"]["train"]["dropped"] == {"no distinct candidate for the source": 1}


def test_split_is_by_pair(tmp_path, pair_file):
    prepare([pair_file], tmp_path / "t.jsonl", PrepareConfig(heldout_share=0.5, workers=1), progress=False)
    train = {pair_key(r["source"], r["target"]) for r in records(tmp_path / "t.jsonl")}
    held = {pair_key(r["source"], r["target"]) for r in records(tmp_path / "t.heldout.jsonl")}
    assert train and held and not train & held


@pytest.mark.parametrize("share", [0.0, 0.1, 0.3])
def test_empty_share_follows_the_setting(pair_file, tmp_path, share):
    out = tmp_path / f"e{share}.jsonl"
    report = prepare(
        [pair_file], out, PrepareConfig(empty_share=share, heldout_share=0.0, workers=1), progress=False
    )
    rows = records(out)
    empty = [r for r in rows if r["suggestion"] == ""]
    assert abs(len(empty) / len(rows) - share) <= 1 / len(rows)
    assert len({r["source"] for r in empty}) == len(empty)  # at most one empty input per source
    assert report["examples"]["train"]["empty_share"] == pytest.approx(share, abs=0.01)


def test_bad_lines_stop_or_are_skipped_and_listed(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_bytes(b"how do i learn python?\thow can i study python?\n\xff\tbad?\nonly one column\n")
    with pytest.raises(DataError, match=r"p.tsv:2: invalid UTF-8"):
        prepare([path], tmp_path / "out.jsonl", PrepareConfig(workers=1), progress=False)
    assert not (tmp_path / "out.jsonl").exists()
    report = prepare([path], tmp_path / "out.jsonl", PrepareConfig(workers=1, skip_bad=True), progress=False)
    assert report["bad_lines"]["skipped"] == 2
    assert [(e["line"], e["problem"]) for e in report["bad_lines"]["listed"]] == [
        (2, "invalid UTF-8 at byte 0"),
        (3, "expected 2 or 3 tab-separated columns, got 1"),
    ]
    assert report["files"][str(path)] == {"pairs_read": 1, "bad_lines_skipped": 2}


def test_chinese_pairs(tmp_path):
    path = tmp_path / "zh.tsv"
    path.write_text(
        "喜欢打篮球的男生喜欢什么样的女生\t爱打篮球的男生喜欢什么样的女生\t1\n我手机丢了,我想换个手机\t我想买个新手机,求推荐\t1\n"
    )
    prepare(
        [path],
        tmp_path / "zh.jsonl",
        PrepareConfig(lang="zh", empty_share=0.0, heldout_share=0.0, workers=1),
        progress=False,
    )
    rows = records(tmp_path / "zh.jsonl")
    assert [r["suggestion"] for r in rows[:2]] == ["爱打篮球", "喜欢打篮球"]
    assert all(r["suggestion"] in r["target"] and r["suggestion"] not in r["source"] for r in rows)
    assert check_prepared(tmp_path / "zh.jsonl", "zh", 0.0)["failures"] == {}


def test_bad_config():
    with pytest.raises(ValueError, match="suggestions must be one of"):
        prepare([], "x.jsonl", PrepareConfig(suggestions="magic"))
    with pytest.raises(ValueError, match="empty_share"):
        prepare([], "x.jsonl", PrepareConfig(empty_share=1.0))
