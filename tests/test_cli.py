import json
import re
import subprocess
import sys

import pytest

from paraguide.cli import main


def test_help_lists_commands(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for command in ("prepare", "train", "paraphrase", "suggest", "score", "build-testset", "augment"):
        assert command in out


@pytest.mark.parametrize(
    "command, flags",
    [
        (
            "build-testset",
            ("--squad", "--pairs", "--adversarial", "--steps", "--resume", "context", "examples:"),
        ),
        ("augment", ("--n", "--mode", "--per-question", "--paraphrases-only", "--resume", "examples:")),
    ],
)
def test_build_help_explains(capsys, command, flags):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    for flag in flags:
        assert flag in out
    option = re.search(r"^\s+--adversarial\s", out, re.MULTILINE)  # augment has --mode context instead
    assert bool(option) == (command == "build-testset")


def test_prepare_help_explains(capsys):
    with pytest.raises(SystemExit):
        main(["prepare", "--help"])
    out = capsys.readouterr().out
    for flag in ("--pairs", "--suggestions", "--empty-share", "--heldout", "--skip-bad", "examples:"):
        assert flag in out


def test_prepare_end_to_end(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        "how do i learn python fast?\twhat is the quickest way to learn python?\n"
        "why is the sky blue?\twhat makes the sky look blue?\n"
    )
    code = main(
        [
            "prepare",
            "--pairs",
            str(pairs),
            "--out",
            str(tmp_path / "t.jsonl"),
            "--heldout",
            "0",
            "--empty-share",
            "0",
            "--quiet",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "labelled positive" in out and "wrote" in out
    rows = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    # With no empty share, a direction whose target adds no content word has nothing to suggest.
    assert len(rows) >= 3 and all(r["suggestion"] for r in rows)
    assert rows[0]["suggestion"] == "quickest way"


@pytest.mark.slow
def test_bad_input_exits_non_zero_with_location(tmp_path):
    pairs = tmp_path / "bad.tsv"
    pairs.write_text("a?\tb?\nno tab here\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "paraguide.cli",
            "prepare",
            "--pairs",
            str(pairs),
            "--out",
            str(tmp_path / "o.jsonl"),
            "--quiet",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert f"{pairs}:2: expected 2 or 3 tab-separated columns, got 1" in result.stderr
    assert not (tmp_path / "o.jsonl").exists()


def test_no_command_prints_help(capsys):
    assert main([]) == 2
    assert "usage: paraguide" in capsys.readouterr().out


def test_options_from_a_json_config_file(tmp_path, capsys):
    from helpers import ROOT

    questions = tmp_path / "q.txt"
    questions.write_text("Who built the oldest tower?\n")
    rules = str(ROOT / "examples" / "data" / "ppdb_en.txt")
    config = tmp_path / "suggest.json"
    config.write_text(json.dumps({"top_k": 1, "source": f"ppdb:{rules}"}))
    out = tmp_path / "s.jsonl"
    argv = ["suggest", "--config", str(config), "--input", str(questions), "--output", str(out)]
    assert main([*argv, "--source", "none-given-here-is-overridden"]) == 1  # the command line wins
    assert main(argv) == 0
    [record] = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(record["suggestions"]) == 1  # top_k from the file
    assert main([*argv, "--top-k", "2"]) == 0
    assert len(json.loads(out.read_text())["suggestions"]) == 2
    config.write_text(json.dumps({"top_kk": 1}))
    capsys.readouterr()
    assert main(argv) == 1
    assert f"{config} [field top_kk]: unknown option for paraguide suggest" in capsys.readouterr().err
    config.write_text("[1, 2]")
    assert main(argv) == 1 and f"{config}: not a JSON object" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command, values, problem",
    [
        ("build-testset", {"overwrite": "false"}, 'expected true or false, got "false"'),
        ("evaluate", {"lenient_ids": "false"}, 'expected true or false, got "false"'),
        ("build-testset", {"top_k": 2.7}, "expected an integer, got 2.7"),
        ("build-testset", {"seed": [1]}, "expected an integer, got [1]"),
        ("build-testset", {"seed": 1.5}, "expected an integer, got 1.5"),
        ("build-testset", {"seed": True}, "expected an integer, got true"),
        ("build-testset", {"top_k": 0}, "must be at least 1, got 0"),
        ("build-testset", {"threshold": "0.5"}, 'expected a number, got "0.5"'),
        ("build-testset", {"source": ["ppdb"]}, 'expected a string, got ["ppdb"]'),
        ("train", {"max_steps": 0.5}, "expected an integer, got 0.5"),
        ("prepare", {"pairs": "a.tsv"}, 'expected a list of strings (the option is repeatable), got "a.tsv"'),
        ("prepare", {"pairs": [1]}, "expected a list of strings (the option is repeatable), got [1]"),
        ("perturb", {"limit": -3}, "must be at least 0, got -3"),
        ("perturb", {"lang": "fr"}, 'expected one of en, zh, got "fr"'),
        ("perturb", {"out": None}, "null is not allowed here"),
    ],
)
def test_config_values_are_typed_before_anything_is_written(tmp_path, capsys, command, values, problem):
    """Issue 32 item 6: a --config value of the wrong type or range is an error naming the file and the key,
    before the output folder is touched (``{"overwrite": "false"}`` used to overwrite a finished run)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    config = tmp_path / "c.json"
    config.write_text(json.dumps(values))
    key = next(iter(values))
    assert main([command, "--config", str(config)]) == 1
    assert capsys.readouterr().err.strip() == f"paraguide: error: {config} [field {key}]: {problem}"
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


def test_config_values_of_the_right_type_pass(tmp_path):
    from paraguide.cli import _config_defaults, build_parser

    parser = build_parser()
    config = tmp_path / "c.json"
    values = {"overwrite": False, "top_k": 2, "threshold": 1, "seed": 3, "source": "none", "preset": None}
    config.write_text(json.dumps(values))
    _config_defaults(parser, ["build-testset", "--config", str(config)])
    args = parser.parse_args(["build-testset", "--config", str(config), "--out", "x", "--squad", "s"])
    assert (args.overwrite, args.top_k, args.threshold, args.seed, args.source) == (False, 2, 1, 3, "none")


def test_command_line_numbers_are_ranged(capsys):
    """Issue 32 item 9: ``perturb --limit -3`` and ``--per-operation -1`` are refused by argparse."""
    for flag in ("--limit", "--per-operation"):
        with pytest.raises(SystemExit):
            main(["perturb", "--input", "q.txt", "--out", "o", flag, "-3"])
        assert f"argument {flag}: must be at least 0, got -3" in capsys.readouterr().err
