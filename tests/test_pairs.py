import json

import pytest

from paraguide.data.pairs import Pair, detect_format, read_pairs, write_pairs
from paraguide.errors import BadRecords, DataError

QUORA = (
    "id\tqid1\tqid2\tquestion1\tquestion2\tis_duplicate\n"
    "0\t1\t2\tWhat is the step by step guide to invest in share market?\t"
    "What is the step by step guide to invest in share market in india?\t0\n"
    '1\t3\t4\t"How do I read ""quoted""\ttext?"\t"How can I read a line\nthat wraps?"\t1\n'
    "2\t5\t6\tWhy is the sky blue?\tWhat makes the sky blue?\t1\n"
)


def test_quora_release_with_quoted_fields(write):
    path = write("quora_duplicate_questions.tsv", QUORA)
    assert detect_format(path) == "quora"
    pairs = list(read_pairs(path))
    assert [p.label for p in pairs] == [0, 1, 1]
    assert pairs[1].a == 'How do I read "quoted"\ttext?'
    assert pairs[1].b == "How can I read a line\nthat wraps?"
    # Line numbers are where each record starts, even after a field spanning two lines.
    assert [p.origin for p in pairs] == [f"{path}:2", f"{path}:3", f"{path}:5"]
    assert [p.is_positive for p in pairs] == [False, True, True]


def test_headerless_tsv_with_and_without_labels(write):
    labelled = write(
        "lcqmc.tsv",
        "喜欢打篮球的男生喜欢什么样的女生\t爱打篮球的男生喜欢什么样的女生\t1\n大家觉得她好看吗\t大家觉得跑男好看吗?\t0\n",
    )
    assert detect_format(labelled) == "tsv"
    assert [(p.b, p.label) for p in read_pairs(labelled)] == [
        ("爱打篮球的男生喜欢什么样的女生", 1),
        ("大家觉得跑男好看吗?", 0),
    ]
    unlabelled = write("pairs.tsv", "How are you?\tHow do you do?\n")
    assert list(read_pairs(unlabelled)) == [Pair("How are you?", "How do you do?", None, f"{unlabelled}:1")]


def test_tsv_with_provenance_column_is_unlabelled(write):
    path = write("union.tsv", "a b?\tc d?\trvae_train\ne f?\tg h?\tmll_test,ramsri_val\n")
    assert detect_format(path) == "tsv-unlabelled"
    assert [(p.a, p.label) for p in read_pairs(path)] == [("a b?", None), ("e f?", None)]


def test_mixed_third_column_reads_as_labelled_and_reports(write):
    path = write("broken.tsv", "a?\tb?\t1\nc?\td?\tyes\n")
    assert detect_format(path) == "tsv"
    with pytest.raises(DataError) as e:
        list(read_pairs(path))
    assert str(e.value) == f"{path}:2 [field column 3]: label must be an integer, got 'yes'"


def test_mrpc(write):
    path = write(
        "msr_paraphrase_test.txt",
        "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\r\n"
        '1\t1089874\t1089925\tPCCW\'s chief "operating officer" said.\tCurrent Chief Operating Officer Mike Butcher said.\r\n',
    )
    assert detect_format(path) == "mrpc"
    (pair,) = read_pairs(path)
    assert (
        pair.label == 1 and pair.a == 'PCCW\'s chief "operating officer" said.' and pair.origin.endswith(":2")
    )


def test_jsonl_field_names_and_labels(write):
    path = write(
        "p.jsonl",
        "\n".join(
            json.dumps(x, ensure_ascii=False)
            for x in [
                {"question1": "a?", "question2": "b?", "is_duplicate": 1},
                {"text_a": "c?", "text_b": "d?", "label": "0"},
                {"source": "e?", "target": "f?"},
            ]
        ),
    )
    assert [(p.a, p.b, p.label) for p in read_pairs(path)] == [
        ("a?", "b?", 1),
        ("c?", "d?", 0),
        ("e?", "f?", None),
    ]


def test_paralex_alignment_format(write):
    path = write(
        "word_alignments.txt",
        "what nutrients do green peppers have in them ?\twhat nutrients does a green pepper contain ?\t"
        "0-0 1-1 2-2 3-4 4-5 5-6 6-6 7-6 8-7\n",
    )
    assert detect_format(path) == "paralex"
    (pair,) = read_pairs(path)
    assert pair.alignment == ((0, 0), (1, 1), (2, 2), (3, 4), (4, 5), (5, 6), (6, 6), (7, 6), (8, 7))


def test_paralex_alignment_out_of_range(write):
    path = write("al.txt", "a b\tc d\t0-0 2-1\n")
    with pytest.raises(DataError, match=r"al.txt:1 \[field alignment\]: alignment link 2-1 out of range"):
        list(read_pairs(path, "paralex"))


@pytest.mark.parametrize(
    ("name", "content", "fmt", "message"),
    [
        (
            "cols.tsv",
            "a?\tb?\t1\nonly one column\n",
            "tsv",
            ":2: expected 2 or 3 tab-separated columns, got 1",
        ),
        ("empty.tsv", "a?\tb?\n \tb?\n", "tsv", ":2 [field column 1]: empty question"),
        (
            "json.jsonl",
            '{"question1": "a?", "question2": "b?"}\n{"question1": "a?",\n',
            "jsonl",
            ":2: invalid JSON",
        ),
        ("utf8.tsv", b"a?\tb?\n\xc3\x28?\tb?\n", "tsv", ":2: invalid UTF-8"),
        (
            "quora.tsv",
            QUORA.replace("\tWhat makes the sky blue?", "\t"),
            "quora",
            ":5 [field question2]: empty question",
        ),
        ("fields.jsonl", '{"x": "a?"}\n{"a": "b?", "b": "c?"}\n', "jsonl", ":1: no question fields"),
    ],
)
def test_every_bad_input_class_names_file_and_line(write, name, content, fmt, message):
    path = write(name, content)
    with pytest.raises(DataError) as e:
        list(read_pairs(path, fmt))
    assert str(e.value).startswith(str(path)) and message in str(e.value)
    bad = BadRecords(skip=True)
    good = list(read_pairs(path, fmt, bad))
    assert bad.count == 1 and message.split(":")[1].split(" ")[0] in str(bad.errors[0])
    assert len(good) >= 1


def test_quora_bad_utf8_is_one_record(write):
    content = QUORA.encode().replace(b"Why is the sky", b"Why is the \xff sky")
    path = write("quora_bad.tsv", content)
    bad = BadRecords(skip=True)
    assert [p.origin.rsplit(":", 1)[1] for p in read_pairs(path, "quora", bad)] == ["2", "3"]
    assert bad.errors[0].line == 5 and bad.errors[0].problem == "invalid UTF-8"


@pytest.mark.parametrize("fmt", ["tsv", "jsonl"])
def test_write_then_read_round_trip(tmp_path, fmt):
    pairs = [Pair("a?", "b?", 1), Pair("为什么?", "为啥?", 0), Pair("c?", "d?", None)]
    path = tmp_path / f"out.{fmt}"
    write_pairs(path, pairs, fmt)
    assert [(p.a, p.b, p.label) for p in read_pairs(path)] == [(p.a, p.b, p.label) for p in pairs]


def test_write_tsv_refuses_tabs(tmp_path):
    with pytest.raises(DataError, match="cannot write a tab"):
        write_pairs(tmp_path / "x.tsv", [Pair("a\tb", "c")])
