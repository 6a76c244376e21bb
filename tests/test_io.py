import gzip

import pytest

from paraguide.data.io import atomic_write, iter_lines, read_jsonl, write_jsonl
from paraguide.errors import BadRecords, DataError


def test_iter_lines_gzip_transparent_and_numbers(write, tmp_path):
    plain = write("a.txt", "one\r\ntwo\nthree")
    packed = tmp_path / "b.txt"  # gzip whatever the name says
    packed.write_bytes(gzip.compress(b"one\r\ntwo\nthree"))
    assert list(iter_lines(plain)) == list(iter_lines(packed)) == [(1, "one"), (2, "two"), (3, "three")]


def test_iter_lines_keeps_bare_carriage_return_and_drops_bom(write):
    path = write("a.txt", "\ufeffa\rb\nc\n".encode())
    assert list(iter_lines(path)) == [(1, "a\rb"), (2, "c")]


def test_bad_utf8_names_file_and_line(write):
    path = write("bad.txt", b"fine\n\xff\xfebroken\nfine again\n")
    with pytest.raises(DataError) as e:
        list(iter_lines(path))
    assert str(e.value).startswith(f"{path}:2: invalid UTF-8")
    bad = BadRecords(skip=True)
    assert [n for n, _ in iter_lines(path, bad)] == [1, 3]
    assert bad.count == 1 and bad.errors[0].line == 2


def test_read_jsonl_errors(write):
    path = write("x.jsonl", '{"a": 1}\n\n{"a": \n[1, 2]\n')
    with pytest.raises(DataError, match=r"x.jsonl:3: invalid JSON"):
        list(read_jsonl(path))
    bad = BadRecords(skip=True)
    assert list(read_jsonl(path, bad)) == [(1, {"a": 1})]
    assert [e.line for e in bad.errors] == [3, 4]
    assert "expected a JSON object, got list" in bad.errors[1].problem


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "out.jsonl"
    with pytest.raises(RuntimeError), atomic_write(target) as f:
        f.write("partial")
        raise RuntimeError("crash")
    assert list(tmp_path.iterdir()) == []


def test_write_jsonl_gzip_round_trip(tmp_path):
    records = [{"q": "为什么?"}, {"q": "why?"}]
    assert write_jsonl(tmp_path / "r.jsonl.gz", records) == 2
    assert [r for _, r in read_jsonl(tmp_path / "r.jsonl.gz")] == records
    assert "为什么" in gzip.decompress((tmp_path / "r.jsonl.gz").read_bytes()).decode()


def test_missing_file_is_a_data_error(tmp_path):
    with pytest.raises(DataError, match="file not found"):
        list(iter_lines(tmp_path / "nope.tsv"))
