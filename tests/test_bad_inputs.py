"""Every reader x every kind of bad input, through the CLI in-process (issue 16).

A bad input is refused with exit status 1 and one line, ``paraguide CMD: error: FILE[:LINE] [(record R)]
[[field F]]: problem`` (asserted exactly), no traceback, and the test's folder left as it was: no output
file or folder is created. The hostile inputs that are not errors (wrong answer offsets, a 5,000-word
question, emoji alone, an empty input with --allow-empty) run through, and say what they did.

Readers: pair files (tsv, quora, mrpc, jsonl) through ``score``, ``prepare``, ``train-scorer`` and the
builders; SQuAD JSON through ``build-testset`` / ``augment``; question files (txt, tsv, jsonl) through
``paraphrase`` / ``suggest``; training JSONL through ``train``; model folders through ``paraphrase``.
"""

from __future__ import annotations

import gzip
import json
import pickle
from pathlib import Path

import pytest
from helpers import ROOT, shared

from paraguide.cli import main
from paraguide.data.pairs import read_pairs
from paraguide.data.squad import SquadReader, read_squad
from paraguide.pipeline.inputs import InputReport, squad_items
from paraguide.text.language import NO_WORD

PPDB = ROOT / "examples" / "data" / "ppdb_en.txt"
SQUAD = ROOT / "examples" / "data" / "squad_en.json"

NUL = "NUL byte in the text (a binary file?)"
UTF16 = (
    "UTF-16 text (it starts with a UTF-16 byte-order mark); paraguide reads UTF-8: convert it first, "
    "e.g. iconv -f UTF-16 -t UTF-8"
)
TRUNCATED = "corrupt or truncated gzip file (the compressed data ends before its end marker)"
CORRUPT = "corrupt or truncated gzip file (Error -3 while decompressing data: invalid block type)"
LABEL = "label 2 is not in the label set {0, 1}"
LONG = " ".join(["what is the tallest lighthouse in the world"] * 700).split()[:5000]
LONG_QUESTION = " ".join(LONG) + "?"  # 5,000 words
assert len(LONG_QUESTION.split()) == 5000


# ---- helpers ------------------------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``folder``."""
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def refused(capsys, folder: Path, argv: list[str], message: str, unchanged: bool = True) -> None:
    """``argv`` exits 1 with exactly ``paraguide CMD: error: message`` as its last line of standard
    error, no traceback, and (``unchanged``) ``folder`` as it was."""
    before = snapshot(folder)
    capsys.readouterr()
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == f"paraguide {argv[0]}: error: {message}"
    assert code == 1
    if unchanged:
        assert snapshot(folder) == before, "a refused input must leave the folder as it was"


def corrupt_gzip(data: bytes) -> bytes:
    """gzip whose first deflate block has the reserved block type (zlib: "invalid block type")."""
    packed = bytearray(gzip.compress(data, mtime=0))
    packed[10] = 0x07  # right after the 10-byte header: final block, type 3
    return bytes(packed)


def truncated_gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)[:-12]


def where(data: bytes, marker: bytes) -> tuple[int, int]:
    """(line, byte in the line) of ``marker``'s first byte in ``data``: what an error there names."""
    at = data.index(marker)
    return data[:at].count(b"\n") + 1, at - (data.rfind(b"\n", 0, at) + 1)


GZIP_KINDS = {"corrupt gzip": (corrupt_gzip, CORRUPT), "truncated gzip": (truncated_gzip, TRUNCATED)}
FILE_KINDS = ("missing", "empty", "blank", "corrupt gzip", "truncated gzip", "UTF-16")


def make_file(tmp_path: Path, name: str, good: bytes, kind: str, what: str) -> tuple[Path, str | None]:
    """The file ``name`` holding ``good`` spoilt as ``kind`` (one of :data:`FILE_KINDS`, the kinds every
    reader meets the same way) and the problem it must be refused with (``what``: the records' name)."""
    path = tmp_path / (name + ".gz" if kind in GZIP_KINDS else name)
    if kind == "missing":
        return path, f"{path}: file not found"
    if kind == "empty":
        path.write_bytes(b"")
        return path, f"{path}: the file is empty: no {what}"
    if kind == "blank":
        path.write_bytes(b"\n  \n\n")
        return path, f"{path}: the file holds only blank lines: no {what}"
    if kind in GZIP_KINDS:
        spoil, problem = GZIP_KINDS[kind]
        path.write_bytes(spoil(good))
        return path, f"{path}: {problem}"
    assert kind == "UTF-16"
    path.write_bytes(good.decode("utf-8").encode("utf-16"))
    return path, f"{path}: {UTF16}"


# ---- question pairs: score (and prepare, train-scorer, the builders) ----------------------------------

SECOND = "Who built the Eiffel Tower?"  # the first question of each file's second record


def pair_file(fmt: str, label: str = "0", second: str = SECOND) -> bytes:
    first = ("How do I learn Python quickly?", "What is the fastest way to learn Python?")
    rows = [(*first, "1"), (second, "Who designed the Eiffel Tower?", label)]
    if fmt == "tsv":
        text = "".join(f"{a}\t{b}\t{y}\n" for a, b, y in rows)
    elif fmt == "quora":
        text = "id\tqid1\tqid2\tquestion1\tquestion2\tis_duplicate\n"
        text += "".join(f"{n}\t{2 * n + 1}\t{2 * n + 2}\t{a}\t{b}\t{y}\n" for n, (a, b, y) in enumerate(rows))
    elif fmt == "mrpc":
        text = "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
        text += "".join(f"{y}\t{2 * n + 1}\t{2 * n + 2}\t{a}\t{b}\n" for n, (a, b, y) in enumerate(rows))
    else:
        text = "".join(
            json.dumps({"question1": a, "question2": b, "label": int(y)}, ensure_ascii=False) + "\n"
            for a, b, y in rows
        )
    return text.encode("utf-8")


PAIR_FORMATS = {  # format: (file name, line of the second record, the label's field)
    "tsv": ("pairs.tsv", 2, "column 3"),
    "quora": ("quora.tsv", 3, "is_duplicate"),
    "mrpc": ("mrpc.txt", 3, "Quality"),
    "jsonl": ("pairs.jsonl", 2, "label"),
}


def bad_pairs(tmp_path: Path, fmt: str, kind: str) -> tuple[Path, str]:
    name, line, label_field = PAIR_FORMATS[fmt]
    if kind in FILE_KINDS:
        return make_file(tmp_path, name, pair_file(fmt), kind, "question pairs")
    path = tmp_path / name
    if kind == "invalid UTF-8":
        data = pair_file(fmt).replace(b"Who built", b"Wh\xffo built")
        path.write_bytes(data)
        at, byte = where(data, b"\xff")
        return path, f"{path}:{at}: invalid UTF-8" + ("" if fmt == "quora" else f" at byte {byte}")
    if kind == "NUL byte":
        path.write_bytes(pair_file(fmt).replace(b"Who built", b"Wh\x00o built"))
        if fmt == "quora":  # read by the csv module: the NUL is found in its field
            return path, f"{path}:{line} [field question1]: {NUL}"
        return path, f"{path}:{line}: {NUL}"
    if kind == "bad label":
        path.write_bytes(pair_file(fmt, label="2"))
        return path, f"{path}:{line} [field {label_field}]: {LABEL}"
    if kind == "header only":
        path.write_bytes(pair_file(fmt).split(b"\n")[0] + b"\n")
        return path, f"{path}: no question pairs in the file"
    raise AssertionError(kind)


PAIR_KINDS = [*FILE_KINDS, "invalid UTF-8", "NUL byte", "bad label"]


@pytest.mark.parametrize("kind", PAIR_KINDS)
@pytest.mark.parametrize("fmt", list(PAIR_FORMATS))
def test_pair_files(tmp_path, capsys, fmt, kind):
    path, message = bad_pairs(tmp_path, fmt, kind)
    argv = [
        "score",
        "--scorer",
        "lexical",
        "--lang",
        "en",
        "--input",
        path,
        "--output",
        tmp_path / "scores.tsv",
    ]
    refused(capsys, tmp_path, argv, message)


@pytest.mark.parametrize("fmt", ["quora", "mrpc"])
def test_pair_file_with_a_header_alone(tmp_path, capsys, fmt):
    path, message = bad_pairs(tmp_path, fmt, "header only")
    refused(capsys, tmp_path, ["score", "--scorer", "lexical", "--input", path], message)


def test_escaped_nul_in_a_jsonl_pair_names_the_field(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(pair_file("jsonl", second="Who built\x00 it?"))  # "\u0000" in the JSON string
    refused(
        capsys,
        tmp_path,
        ["score", "--scorer", "lexical", "--input", path],
        f"{path}:2 [field question1]: {NUL}",
    )


def test_label_set(tmp_path, capsys):
    path = tmp_path / "three.tsv"
    path.write_bytes(pair_file("tsv", label="2"))
    assert [p.label for p in read_pairs(path, labels="0,1,2")] == [1, 2]
    assert [p.label for p in read_pairs(path, labels=None)] == [1, 2]  # None: any integer
    build = ["build-testset", "--pairs", path, "--lang", "en", "--out", tmp_path / "out"]
    refused(capsys, tmp_path, build, f"{path}:2 [field column 3]: {LABEL}")
    refused(
        capsys,
        tmp_path,
        [*build, "--label-set", "0,x"],
        "--label-set: comma-separated integers (e.g. 0,1), got '0,x'",
    )


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "the file is empty: no question pairs"),
        (b"a b?\tc d?\t0\n", "no positive pairs (label 1) in the file: prepare trains on paraphrases"),
        (pair_file("tsv", label="2"), f"{LABEL}"),
        (
            "怎么学游泳?\t如何学游泳?\t1\n".encode(),
            "most questions hold CJK characters (2 of the 2 checked), but --lang is en: give --lang zh",
        ),
    ],
    ids=["empty", "no positive pair", "bad label", "other language"],
)
def test_prepare(tmp_path, capsys, content, problem):
    path = tmp_path / "pairs.tsv"
    path.write_bytes(content)
    where_ = f"{path}:2 [field column 3]" if problem == LABEL else str(path)
    argv = ["prepare", "--quiet", "--pairs", path, "--lang", "en", "--out", tmp_path / "train.jsonl"]
    refused(capsys, tmp_path, argv, f"{where_}: {problem}")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "the file is empty: no question pairs"),
        (b"a b?\tc d?\t0\n", "no positive question pairs in the file"),
    ],
    ids=["empty", "no positive pair"],
)
def test_train_scorer(tmp_path, capsys, content, problem):
    path = tmp_path / "pairs.tsv"
    path.write_bytes(content)
    refused(
        capsys,
        tmp_path,
        ["train-scorer", "--pairs", path, "--output-dir", tmp_path / "scorer"],
        f"{path}: {problem}",
    )


def test_empty_inputs_allowed(tmp_path, capsys):
    """--allow-empty: the run goes through and its outputs are empty."""
    path = tmp_path / "empty.tsv"
    path.write_bytes(b"")
    assert main(["score", "--scorer", "lexical", "--input", str(path), "--allow-empty", "--output", str(tmp_path / "s.tsv")]) == 0  # fmt: skip
    assert (tmp_path / "s.tsv").read_bytes() == b""
    out = tmp_path / "prepared" / "train.jsonl"
    assert main(["prepare", "--quiet", "--pairs", str(path), "--allow-empty", "--out", str(out)]) == 0
    assert out.read_bytes() == b"" and (tmp_path / "prepared" / "train.heldout.jsonl").read_bytes() == b""
    questions = tmp_path / "q.txt"
    questions.write_bytes(b"\n")
    assert main(["suggest", "--source", f"ppdb:{PPDB}", "--input", str(questions), "--allow-empty", "--output", str(tmp_path / "sg.jsonl")]) == 0  # fmt: skip
    assert (tmp_path / "sg.jsonl").read_bytes() == b""
    assert "0 of 0 questions" in capsys.readouterr().err


# ---- SQuAD JSON: build-testset and augment --------------------------------------------------------------


def build(command: str, tmp_path: Path, *args, lang: str = "en") -> list:
    """A builder's command line with the cheap components (no paraphraser, lexical similarity)."""
    argv = [command, "--quiet", "--examples", "0", "--lang", lang, "--nbest", "0", "--scorer", "lexical"]
    argv += [
        "--rank",
        "off",
        "--fluency",
        "off",
        "--source",
        f"ppdb:{PPDB}",
        *args,
        "--out",
        tmp_path / "out",
    ]
    return argv + (["--n", "3"] if command == "augment" else [])


def squad_json(mutate=None) -> bytes:
    nested = json.loads(SQUAD.read_text(encoding="utf-8"))
    if mutate:
        mutate(nested["data"][0]["paragraphs"][0]["qas"])
    return json.dumps(nested, indent=1, ensure_ascii=False).encode("utf-8")


def answer_not_in_context(qas):
    qas[2]["answers"][0]["text"] = "zzz not here"


NOT_IN_CONTEXT = "(record id demo-0-0-2) [field answers[0].text]: answer 'zzz not here' is not in the context"


def bad_squad(tmp_path: Path, kind: str) -> tuple[Path, str]:
    if kind in FILE_KINDS:
        return make_file(tmp_path, "squad.json", squad_json(), kind, "questions")
    path = tmp_path / "squad.json"
    if kind in ("invalid UTF-8", "NUL byte"):
        byte = b"\xff" if kind == "invalid UTF-8" else b"\x00"
        data = squad_json().replace(b'"question": "', b'"question": "' + byte, 1)
        path.write_bytes(data)
        line, at = where(data, byte)
        return path, f"{path}:{line}: " + (f"invalid UTF-8 at byte {at}" if byte == b"\xff" else NUL)
    if kind == "escaped NUL":
        path.write_bytes(squad_json(lambda qas: qas[0].update(question="Who\x00?")))
        return (
            path,
            f"{path} (record article 0 paragraph 0 question 0 (id demo-0-0-0)) [field question]: {NUL}",
        )
    if kind == "no questions":
        path.write_text('{"version": "1.1", "data": []}\n', encoding="utf-8")
        return path, f"{path}: no questions in the file"
    if kind == "answer not in context":
        path.write_bytes(squad_json(answer_not_in_context))
        return path, f"{path} {NOT_IN_CONTEXT}"
    raise AssertionError(kind)


SQUAD_KINDS = [
    *FILE_KINDS,
    "invalid UTF-8",
    "NUL byte",
    "escaped NUL",
    "no questions",
    "answer not in context",
]


@pytest.mark.parametrize("kind", SQUAD_KINDS)
def test_squad_files(tmp_path, capsys, kind):
    path, message = bad_squad(tmp_path, kind)
    refused(capsys, tmp_path, build("build-testset", tmp_path, "--squad", path), message)


@pytest.mark.parametrize("kind", ["empty", "answer not in context"])
def test_augment_squad(tmp_path, capsys, kind):
    path, message = bad_squad(tmp_path, kind)
    refused(capsys, tmp_path, build("augment", tmp_path, "--squad", path), message)


@pytest.mark.parametrize("command", ["build-testset", "augment"])
def test_builders_empty_pairs(tmp_path, capsys, command):
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"\n")
    message = f"{path}: the file holds only blank lines: no question pairs"
    refused(capsys, tmp_path, build(command, tmp_path, "--pairs", path), message)


def test_squad_in_the_other_language(tmp_path, capsys):
    path = tmp_path / "squad.json"
    path.write_bytes(squad_json())
    message = f"{path}: most questions hold no CJK characters (24 of the 24 checked), but --lang is zh: give --lang en"
    refused(capsys, tmp_path, build("build-testset", tmp_path, "--squad", path, lang="zh"), message)


def test_chinese_squad_read_as_english(tmp_path, capsys):
    dev = shared("dureader_robust/dev.json")
    message = f"{dev}: most questions hold CJK characters (1000 of the 1000 checked), but --lang is en: give --lang zh"
    refused(capsys, tmp_path, build("augment", tmp_path, "--squad", dev), message)


def hostile(qas):
    """Offsets -1 (as DuReader-robust dev has them) or 3 off, an answer not in its context, a 5,000-word
    question and one of emoji alone."""
    for qa in qas:
        qa["answers"][0]["answer_start"] = -1
    qas[1]["answers"][0]["answer_start"] = SQUAD_STARTS["demo-0-0-1"] + 3
    answer_not_in_context(qas)
    qas[3]["question"] = LONG_QUESTION
    qas[4]["question"] = "🤔🤔🤔?"


SQUAD_STARTS = {r["id"]: r["answers"][0]["answer_start"] for r in SquadReader(SQUAD)}


def check_answers(records: list[dict]) -> None:
    """Every answer offset points at its text (repaired where the input's did not)."""
    assert records
    for r in records:
        for a in r["answers"]:
            assert r["context"][a["answer_start"] :].startswith(a["text"]), r["id"]


def test_hostile_squad_runs_with_skip_bad(tmp_path, capsys):
    path = tmp_path / "hostile.json"
    path.write_bytes(squad_json(hostile))
    refused(capsys, tmp_path, build("build-testset", tmp_path, "--squad", path), f"{path} {NOT_IN_CONTEXT}")
    assert main([str(a) for a in build("build-testset", tmp_path, "--squad", path, "--skip-bad")]) == 0
    out = tmp_path / "out"
    summary = json.loads((out / "summary.json").read_text())
    check = summary["input_check"]
    source = {r["id"]: r for r in SquadReader(path)}
    expected = [
        {"id": i, "answer": 0, "old_answer_start": r["answers"][0]["answer_start"],
         "new_answer_start": SQUAD_STARTS[i] if i == "demo-0-0-1" else r["context"].find(r["answers"][0]["text"])}
        for i, r in source.items() if i.startswith("demo-0-0-") and i != "demo-0-0-2"
    ]  # fmt: skip
    assert check["repaired_answers"] == expected and check["answer_offsets_repaired"] == 5
    assert check["skipped"] == [
        {"id": "demo-0-0-2", "file": str(path), "line": None, "record": "id demo-0-0-2",
         "field": "answers[0].text", "problem": "answer 'zzz not here' is not in the context"}
    ]  # fmt: skip
    assert check["skipped_records"] == 1 and check["questions"] == summary["input_questions"] == 23
    accounting = {
        row["id"]: row for row in map(json.loads, (out / "accounting.jsonl").read_text().splitlines())
    }
    assert list(accounting) == [i for i in source if i != "demo-0-0-2"]  # the skipped one is in no file
    assert accounting["demo-0-0-4"] == {
        "id": "demo-0-0-4",
        "status": "dropped",
        "stage": "suggestion",
        "reason": NO_WORD,
    }
    assert accounting["demo-0-0-3"]["status"] in ("selected", "dropped")  # 5,000 words: judged, no crash
    para, _ = read_squad(out / "paraphrased.json")
    orig, _ = read_squad(out / "original.json")
    assert len(para) == len(orig) == summary["selected"] > 0
    check_answers(para)
    check_answers(orig)
    printed = capsys.readouterr().out
    assert (
        "answer offsets repaired" in printed
        and "records skipped (--skip-bad; listed in summary.json): 1" in printed
    )


def test_hostile_squad_augmented(tmp_path):
    path = tmp_path / "hostile.json"
    path.write_bytes(squad_json(hostile))
    assert main([str(a) for a in build("augment", tmp_path, "--squad", path, "--skip-bad")]) == 0
    train, _ = read_squad(tmp_path / "out" / "train.json")
    originals = [r for r in train if "_para" not in r["id"]]
    assert [r["id"] for r in originals] == [i for i in SQUAD_STARTS if i != "demo-0-0-2"]
    assert len(train) == len(originals) + 3
    check_answers(train)
    alone = build("augment", tmp_path, "--squad", path, "--skip-bad", "--paraphrases-only")
    alone[alone.index(tmp_path / "out")] = tmp_path / "alone"
    assert main([str(a) for a in alone]) == 0
    written, _ = read_squad(tmp_path / "alone" / "train.json")
    assert len(written) == 3 and all("_para" in r["id"] for r in written)
    check_answers(written)


def test_hostile_pairs(tmp_path):
    """A 5,000-word question is judged like any other; emoji alone fall out, saying why."""
    path = tmp_path / "hostile.tsv"
    rows = [
        (LONG_QUESTION, "What is the tallest lighthouse?"),
        ("🤔🤔?", "🎉🎉?"),
        ("Who built the Tower of Hercules?", "Who constructed the Tower of Hercules?"),
    ]
    path.write_text("".join(f"{a}\t{b}\t1\n" for a, b in rows), encoding="utf-8")
    assert main([str(a) for a in build("build-testset", tmp_path, "--pairs", path)]) == 0
    accounting = [json.loads(x) for x in (tmp_path / "out" / "accounting.jsonl").read_text().splitlines()]
    assert [row["id"] for row in accounting] == ["0:a", "1:a", "2:a"]
    assert accounting[1] == {"id": "1:a", "status": "dropped", "stage": "suggestion", "reason": NO_WORD}
    out = tmp_path / "train.jsonl"
    argv = ["prepare", "--quiet", "--pairs", path, "--out", out, "--heldout", "0", "--workers", "1"]
    assert main([str(a) for a in argv]) == 0
    stats = json.loads((tmp_path / "train.stats.json").read_text())
    assert {f["filter"]: f["dropped"] for f in stats["pair_filters"]}["has words"] == 1
    examples = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert {len(e["source"].split()) for e in examples} >= {5000}  # kept whole: train truncates it
    assert not any("🤔" in e["source"] + e["target"] for e in examples)


def test_a_file_with_nothing_to_repair_is_read_as_it_is():
    report = InputReport()
    records = [r for r, _ in squad_items(SQUAD, report)]
    assert records == list(SquadReader(SQUAD)) and report.repaired == [] and report.skipped == []


def test_repairs_in_the_shared_sets():
    """SQuAD v1.1 dev has no offset to repair; DuReader-robust dev gives -1 for every one (one answer text
    is empty: kept, not repaired)."""
    for name, questions, repaired, empty in (
        ("squad_v1.1/dev-v1.1.json.gz", 10570, 0, 0),
        ("dureader_robust/dev.json", 1417, 1961, 1),
    ):
        report = InputReport()
        assert sum(1 for _ in squad_items(shared(name), report)) == questions
        assert (len(report.repaired), report.empty_answers, report.skipped) == (repaired, empty, [])


# ---- question files: paraphrase and suggest --------------------------------------------------------------

QUESTIONS = {"txt": "Who built the tower?\nWhy is the sky blue?\n", "tsv": "Who built the tower?\tconstructed\tbuilt\nWhy is the sky blue?\n"}  # fmt: skip
QUESTIONS["jsonl"] = '{"question": "Who built the tower?"}\n{"question": "Why is the sky blue?"}\n'


def bad_questions(tmp_path: Path, ext: str, kind: str) -> tuple[Path, str]:
    name, good = f"questions.{ext}", QUESTIONS[ext].encode()
    if kind in FILE_KINDS:
        return make_file(tmp_path, name, good, kind, "questions")
    path = tmp_path / name
    if kind == "invalid UTF-8":
        data = good.replace(b"Why", b"Wh\xffy")
        path.write_bytes(data)
        line, at = where(data, b"\xff")
        return path, f"{path}:{line}: invalid UTF-8 at byte {at}"
    if kind == "NUL byte":
        path.write_bytes(good.replace(b"Why", b"Wh\x00y"))
        return path, f"{path}:2: {NUL}"
    if kind == "other language":
        path.write_bytes(good.replace(b"Who built the tower?", "谁建造了这座塔?".encode()).replace(b"Why is the sky blue?", "天为什么是蓝的?".encode()))  # fmt: skip
        return (
            path,
            f"{path}: most questions hold CJK characters (2 of the 2 checked), but --lang is en: give --lang zh",
        )
    raise AssertionError(kind)


QUESTION_KINDS = [*FILE_KINDS, "invalid UTF-8", "NUL byte", "other language"]


@pytest.mark.parametrize("kind", QUESTION_KINDS)
@pytest.mark.parametrize("ext", list(QUESTIONS))
@pytest.mark.parametrize("command", ["paraphrase", "suggest"])
def test_question_files(tmp_path, capsys, command, ext, kind):
    path, message = bad_questions(tmp_path, ext, kind)
    argv = [command, "--input", path, "--lang", "en", "--output", tmp_path / "out.jsonl"]
    if command == "suggest":
        argv += ["--source", f"ppdb:{PPDB}"]
    refused(capsys, tmp_path, argv, message)


def test_escaped_nul_in_a_jsonl_question_names_the_field(tmp_path, capsys):
    path = tmp_path / "q.jsonl"
    path.write_text('{"question": "Who\\u0000?"}\n', encoding="utf-8")
    refused(capsys, tmp_path, ["paraphrase", "--input", path], f"{path}:1 [field question]: {NUL}")


def test_long_and_emoji_questions_are_paraphrased_or_say_why(tmp_path):
    path = tmp_path / "hostile.txt"
    path.write_text(f"{LONG_QUESTION}\n🤔🤔🤔?\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    argv = [
        "paraphrase",
        "--input",
        str(path),
        "--output",
        str(out),
        "--num-beams",
        "2",
        "--max-new-tokens",
        "8",
    ]
    assert main(argv) == 0
    long, emoji = map(json.loads, out.read_text(encoding="utf-8").splitlines())
    assert long["question"] == LONG_QUESTION and len(long["paraphrases"]) == 1  # truncated by the tokenizer
    assert emoji == {"question": "🤔🤔🤔?", "suggestion": "", "paraphrases": [], "not_paraphrased": NO_WORD}


# ---- training JSONL: train ----------------------------------------------------------------------------------

EXAMPLES = '{"source": "who built it?", "target": "who constructed it?", "suggestion": "constructed"}\n' * 2


def bad_examples(tmp_path: Path, kind: str) -> tuple[Path, str]:
    if kind in FILE_KINDS:
        return make_file(tmp_path, "train.jsonl", EXAMPLES.encode(), kind, "training examples")
    path = tmp_path / "train.jsonl"
    lines = EXAMPLES.encode().split(b"\n")
    if kind == "invalid UTF-8":
        path.write_bytes(lines[0] + b"\n" + lines[1].replace(b"built", b"bu\xffilt") + b"\n")
        line, at = where(path.read_bytes(), b"\xff")
        return path, f"{path}:{line}: invalid UTF-8 at byte {at}"
    if kind == "NUL byte":
        path.write_bytes(lines[0] + b"\n" + lines[1].replace(b"built", b"bu\x00ilt") + b"\n")
        return path, f"{path}:2: {NUL}"
    if kind == "escaped NUL":
        path.write_bytes(
            lines[0] + b"\n" + lines[1].replace(b"constructed it", b"constructed\\u0000 it") + b"\n"
        )
        return path, f"{path}:2 [field target]: {NUL}"
    if kind == "empty source":
        path.write_bytes(lines[0] + b"\n" + lines[1].replace(b'"who built it?"', b'" "') + b"\n")
        return path, f"{path}:2 [field source]: empty source"
    raise AssertionError(kind)


def train(path: Path, tmp_path: Path) -> list:
    return ["train", "--train-file", path, "--output-dir", tmp_path / "model", "--size", "tiny"]


@pytest.mark.parametrize("kind", [*FILE_KINDS, "invalid UTF-8", "NUL byte", "escaped NUL", "empty source"])
def test_training_files(tmp_path, capsys, kind):
    path, message = bad_examples(tmp_path, kind)
    refused(capsys, tmp_path, train(path, tmp_path), message, unchanged=False)  # the folder: below
    assert snapshot(tmp_path).keys() <= {path.name, "model", "model/run.json"}  # no model, tokenizer ...


def test_a_refused_training_file_creates_no_output_folder(tmp_path, capsys):
    path, message = bad_examples(tmp_path, "empty")
    refused(capsys, tmp_path, train(path, tmp_path), message)


# ---- model folders: paraphrase --model --------------------------------------------------------------------


class _Touch:
    """Unpickling this creates a file: the test's folder would change if anything unpickled it."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_pickled_model_is_refused_before_anything_unpickles_it(tmp_path, capsys):
    folder = tmp_path / "pickled"
    folder.mkdir()
    (folder / "config.json").write_text((ROOT / "paraguide" / "models" / "en" / "config.json").read_text())
    (folder / "pytorch_model.bin").write_bytes(pickle.dumps(_Touch(tmp_path / "unpickled")))
    message = (
        f"{folder}: only pickled weights (pytorch_model.bin), no .safetensors file; paraguide never "
        "unpickles a checkpoint (a pickle can run any code when opened). Convert it once, in a session you "
        "trust: `AutoModel.from_pretrained(path).save_pretrained(path)` (safetensors is the default)"
    )
    refused(capsys, tmp_path, ["paraphrase", "why is the sky blue?", "--model", folder], message)
    missing = tmp_path / "nothing"
    message = (
        f"{missing}: no model folder: the path does not exist (give a folder written by paraguide train)"
    )
    refused(capsys, tmp_path, ["paraphrase", "why?", "--model", missing], message)
    (tmp_path / "file").write_text("x")
    message = f"{tmp_path / 'file'}: not a folder: a model is a folder written by paraguide train"
    refused(capsys, tmp_path, ["paraphrase", "why?", "--model", tmp_path / "file"], message)
    assert not (tmp_path / "unpickled").exists()


def test_round_trip_selection_asks_for_the_pretrained_paraphraser(tmp_path, capsys):
    small = ROOT / "paraguide" / "models" / "en"
    message = (
        "--select round-trip needs the pretrained paraphraser (--model gemma-en, gemma-zh or an adapter "
        f"folder), not {small}"
    )
    refused(capsys, tmp_path, ["paraphrase", "why is the sky blue?", "--model", small, "--select", "round-trip"],
            message)  # fmt: skip
    # --select checked ranks by round trip too
    message = message.replace("--select round-trip", "--select checked")
    refused(capsys, tmp_path, ["paraphrase", "why is the sky blue?", "--model", small, "--select", "checked"],
            message)  # fmt: skip
    # --checked-only keeps what --select checked ranked
    refused(capsys, tmp_path, ["paraphrase", "why is the sky blue?", "--checked-only"],
            "--checked-only goes with --select checked")  # fmt: skip
