"""README's Python API section runs as written: its examples are doctests, outputs compared exactly."""

from __future__ import annotations

import doctest

import pytest
from helpers import ROOT, shared

pytestmark = pytest.mark.slow


def _section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_python_api_section_runs(tmp_path, monkeypatch):
    shared("open_english_wordnet")  # the English default source (WordNet & PPDB) and Chinese Cilin
    shared("zh_cilin")
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the snippets' relative paths; outputs go to tmp
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(_section("Python API"), {}, "README", "README.md", 0)
    assert len(test.examples) >= 15
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0, "a README example printed something else (see above)"
    assert (tmp_path / "runs" / "api-paraphraser" / "model.safetensors").exists()


def test_demo_prints_what_the_readme_quotes(tmp_path, monkeypatch, capsys, tagger):
    """`make demo`'s commands (read from the Makefile) print the README's quotes exactly, with or without
    the shared data, given NLTK's English tagger (CI runs this test both ways; without the tagger the demo
    warns and puts suggestions in place unchecked, and this test skips): the test set, then the pretrained
    paraphraser's raw rewrites."""
    import re
    import shlex

    from paraguide.cli import main

    recipe = (ROOT / "Makefile").read_text(encoding="utf-8").split("\ndemo:")[1].split("\n\n")[0]
    commands = [shlex.split(c.replace("\\\n", " ")) for c in recipe.split("$(BIN)/paraguide")[1:]]
    assert [c[0] for c in commands] == ["build-testset", "paraphrase"]
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quotes = [
        re.search(rf"```\n({start}.*?)```", readme, re.S).group(1) for start in ("testset: ", "Who built ")
    ]
    for command, quote in zip(commands, quotes, strict=True):
        assert main([*command, *(["--quiet"] if command[0] == "build-testset" else [])]) == 0
        assert capsys.readouterr().out == quote
