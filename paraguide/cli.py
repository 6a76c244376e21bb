"""The ``paraguide`` command. Each subcommand is a thin layer over the Python API (see ``--help``)."""

from __future__ import annotations

import argparse
import sys
import textwrap

from paraguide import __version__
from paraguide.errors import ParaguideError


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def _add_prepare(sub) -> None:
    p = sub.add_parser(
        "prepare",
        help="build the paraphraser's training data (source, target, suggestion) from question pairs",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Build the paraphraser's training data as Gan & Ng (2019) did: positive pairs only, identical and
            duplicate pairs dropped, both directions, one suggestion per example (the best TextRank key phrase
            of the target that is not in the source, or a phrase from the word alignment), unique per source,
            a share replaced by the empty suggestion, and a held-out split by pair.

            Writes OUT (e.g. train.jsonl), OUT's held-out split (train.heldout.jsonl) and a stats report
            (train.stats.json) with the counts in and out of every filter.

            Pair formats (--format auto detects them): quora (quora_duplicate_questions.tsv), tsv
            (a<TAB>b[<TAB>label]: LCQMC, BQ, Quora splits), tsv-unlabelled (a<TAB>b[<TAB>ignored...]),
            mrpc, jsonl, paralex (q1<TAB>q2<TAB>i-j links). Labelled files keep positive pairs (label 1).
            """
        ),
        epilog=textwrap.dedent(
            """\
            examples:
              paraguide prepare --pairs quora_pos_union_dedup.tsv.gz --lang en --out data/quora/train.jsonl
              paraguide prepare --pairs lcqmc/train.tsv.gz --lang zh --out data/lcqmc/train.jsonl
              paraguide prepare --pairs word_alignments.txt --suggestions alignment --min-tokens 7 \\
                  --one-direction --out data/wikianswers/train.jsonl

            English TextRank uses NLTK's POS tagger when NLTK_DATA holds averaged_perceptron_tagger_eng;
            without it every non-stop word is a candidate (the report says which was used).
            """
        ),
    )
    p.add_argument(
        "--pairs",
        action="append",
        required=True,
        metavar="FILE",
        help="a pair file, plain or gzip (repeat for several files)",
    )
    p.add_argument("--out", required=True, metavar="FILE", help="training JSONL to write")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language (default: en)")
    p.add_argument(
        "--suggestions",
        choices=("textrank", "alignment"),
        default="textrank",
        help="how suggestions are found (default: textrank)",
    )
    p.add_argument(
        "--format",
        default="auto",
        choices=("auto", "quora", "tsv", "tsv-unlabelled", "mrpc", "jsonl", "paralex"),
        help="pair file format (default: auto)",
    )
    p.add_argument(
        "--empty-share",
        type=float,
        default=0.2,
        metavar="X",
        help="share of examples given the empty suggestion (default: 0.2)",
    )
    p.add_argument(
        "--heldout",
        type=float,
        default=0.02,
        metavar="X",
        help="share of pairs held out for validation (default: 0.02)",
    )
    p.add_argument(
        "--one-direction",
        action="store_true",
        help="use each pair as source->target only (default: both directions)",
    )
    p.add_argument(
        "--no-lowercase", action="store_true", help="keep the case (default: lower-case, as the paper)"
    )
    p.add_argument(
        "--min-tokens",
        type=int,
        default=0,
        metavar="N",
        help="drop pairs with a question shorter than N tokens (paper: 7 for WikiAnswers)",
    )
    p.add_argument(
        "--stopwords",
        action="append",
        metavar="SOURCE",
        help="stop words: 'spacy' (default), 'nltk' or a file, one word per line (repeatable)",
    )
    p.add_argument("--window", type=int, default=2, help="TextRank co-occurrence window (default: 2)")
    p.add_argument(
        "--max-phrase", type=int, default=4, help="longest alignment phrase in tokens (default: 4)"
    )
    p.add_argument("--seed", type=int, default=13, help="seed for the split and the empty suggestions")
    p.add_argument("--workers", type=int, default=0, help="processes (default: 0 = all CPU cores)")
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="skip malformed lines (counted and listed in the report) instead of stopping",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=_run_prepare)


def _run_prepare(args) -> int:
    from paraguide.pipeline.prepare import PrepareConfig, format_report, prepare
    from paraguide.text.pos import has_tagger

    config = PrepareConfig(
        lang=args.lang,
        suggestions=args.suggestions,
        both_directions=not args.one_direction,
        empty_share=args.empty_share,
        heldout_share=args.heldout,
        lowercase=not args.no_lowercase,
        min_tokens=args.min_tokens,
        seed=args.seed,
        workers=args.workers,
        skip_bad=args.skip_bad,
        format=args.format,
        stopwords=tuple(args.stopwords or ("spacy",)),
        window=args.window,
        max_phrase=args.max_phrase,
    )
    if args.suggestions == "textrank" and not has_tagger(args.lang):
        print(
            "paraguide: warning: NLTK's English POS tagger was not found (set NLTK_DATA); TextRank will use "
            "every non-stop word as a candidate",
            file=sys.stderr,
        )
    report = prepare(args.pairs, args.out, config, progress=not args.quiet)
    print(format_report(report))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paraguide",
        formatter_class=_formatter,
        description="Suggestion-guided question paraphrasing: robustness data for QA and QM (English, Chinese).",
        epilog="Run 'paraguide COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"paraguide {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_prepare(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except (ParaguideError, ValueError, OSError) as e:
        print(f"paraguide {args.command}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"paraguide {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
