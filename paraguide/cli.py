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


def _add_dataclass_args(parser, cls, skip=(), help_text=None) -> None:
    """One option per dataclass field (``--field-name``), typed from the field's default."""
    import dataclasses

    for f in dataclasses.fields(cls):
        if f.name in skip:
            continue
        flag = "--" + f.name.replace("_", "-")
        default = f.default if f.default is not dataclasses.MISSING else None
        help_ = (help_text or {}).get(f.name, "")
        if default is None and "bool" in str(f.type):  # unset: the preset decides; --x or --no-x
            group = parser.add_mutually_exclusive_group()
            group.add_argument(flag, dest=f.name, action="store_true", default=None, help=help_)
            group.add_argument("--no-" + f.name.replace("_", "-"), dest=f.name, action="store_false",
                               default=None, help=argparse.SUPPRESS)  # fmt: skip
        elif isinstance(default, bool):
            if default:
                parser.add_argument(
                    "--no-" + f.name.replace("_", "-"),
                    dest=f.name,
                    action="store_false",
                    help=help_ or f"turn off {f.name.replace('_', ' ')}",
                )
            else:
                parser.add_argument(flag, dest=f.name, action="store_true", help=help_)
        else:
            kind = type(default) if default is not None else _optional_type(str(f.type))
            shown = f" (default: {default})" if default is not None else ""
            parser.add_argument(flag, dest=f.name, type=kind, default=default, help=f"{help_}{shown}".strip())


def _optional_type(annotation: str):
    """The type of an option whose default is None, from its annotation ("float | None" -> float)."""
    return next((t for t in (int, float) if t.__name__ in annotation), str)


TRAIN_HELP = {
    "heldout_file": "validation JSONL (default: the .heldout.jsonl next to --train-file)",
    "size": "model size from scratch: tiny | small | base (Transformer-base, the paper's)",
    "init_from": "a paraguide model folder to continue training from: its weights and tokenizer (e.g. the bundled "
    "model on a new --input-format, or for more epochs on new data); the optimizer starts afresh",
    "backbone": "local Hugging Face checkpoint folder (safetensors) to put the copy head on, instead of a model "
    "from scratch: a seq2seq model (T5, BART, mT5, mBART ...), or a BERT-type encoder (BERT, RoBERTa, MiniLM ...) "
    "that warm-starts both encoder and decoder (BERT2BERT); its tokenizer is used, extended with <sep>/<empty>",
    "decoder_layers": "with a BERT-type --backbone: the decoder gets only the checkpoint's first N layers (a deep "
    "encoder with a shallow decoder, Kasai et al. 2021: faster decoding; default: all layers)",
    "lora": "with --backbone: train LoRA adapters (peft), the copy head and the new tokens' embeddings only",
    "lora_r": "LoRA rank",
    "lora_alpha": "LoRA scaling alpha",
    "lora_dropout": "dropout on the LoRA path",
    "lora_target_modules": "comma-separated module names for LoRA, or all-linear (default: peft's choice for the model "
    "type, the attention query/value projections)",
    "use_copy": "turn off the copy mechanism (for comparison)",
    "input_format": "suggestion: '<suggestion> <sep> <question>' (Gan & Ng); replace: '<matched> <sep> <suggestion> "
    "<sep> <question>', the question's phrase the suggestion replaces from each example's 'matched' field, "
    "which teaches the model to substitute (the use-time sources know that phrase)",
    "patience": "early stopping: stop after this many evaluations without a lower held-out loss; the best "
    "evaluation's weights are the ones saved (default: train to the end)",
    "vocab_size": "SentencePiece vocabulary size (paper: 8000)",
    "lowercase": "keep case (default: lower-case, as the paper)",
    "batch_size": "examples per process and step",
    "grad_accum": "gradient accumulation steps",
    "warmup_steps": "linear warm-up, then inverse square root decay",
    "epochs": "passes over the training data",
    "max_steps": "stop after this many optimizer steps (overrides --epochs)",
    "max_minutes": "stop after this many minutes of training in this run, and finish as a complete run (final "
    "evaluation, model saved): for comparisons at equal training time",
    "mixed_precision": "no | fp16 (GPU) | bf16 (GPU, or a CPU with native bfloat16: AVX512-BF16 or AMX)",
    "keep_freed_memory": "on CPU, let glibc return freed memory to the system as usual (default: keep it for "
    "reuse, which saves a page fault per 4 KB of each step's large tensors: 5-20 %% faster, ~200 MB more memory)",
    "save_every": "checkpoint every N steps (for --resume)",
    "eval_every": "held-out loss, BLEU and suggestion inclusion every N steps",
    "eval_examples": "held-out examples generated for BLEU and suggestion inclusion",
    "resume": "continue from the newest checkpoint in --output-dir",
}


def _add_train(sub) -> None:
    from paraguide.model.train import TrainConfig

    p = sub.add_parser(
        "train",
        help="train the paraphraser (tokenizer + copy-mechanism seq2seq) on prepare's output",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Train a SentencePiece vocabulary and a Transformer encoder-decoder with a copy mechanism on the JSONL
            written by 'paraguide prepare' (or put the copy head on a local pretrained checkpoint with
            --backbone, optionally LoRA-tuned with --lora). Runs on CPU, one GPU, or several processes/GPUs under
            'accelerate launch'. Writes model.safetensors, config, tokenizer, metrics.jsonl (held-out loss, BLEU,
            suggestion inclusion), all_results.json and checkpoint-N folders (for --resume) into --output-dir.
            """
        ),
        epilog=textwrap.dedent(
            """\
            examples:
              paraguide train --train-file data/quora/train.jsonl --output-dir models/en --size small
              accelerate launch --num_processes 2 -m paraguide.cli train --train-file ... --output-dir ...
              paraguide train --train-file data/quora/train.jsonl --output-dir models/en --resume
              paraguide train --train-file data/quora/train.jsonl --output-dir models/en-t5 --backbone /models/t5-small
              paraguide train ... --backbone /models/bart-base --lora --lr 5e-4
            """
        ),
    )
    p.add_argument("--train-file", required=True, help="training JSONL from paraguide prepare")
    p.add_argument("--output-dir", required=True, help="folder for the model, tokenizer and checkpoints")
    _add_dataclass_args(p, TrainConfig, skip=("train_file", "output_dir"), help_text=TRAIN_HELP)
    p.set_defaults(run=_run_train)


def _run_train(args) -> int:
    import dataclasses
    import json

    from paraguide.model.train import TrainConfig, train

    config = TrainConfig(**{f.name: getattr(args, f.name) for f in dataclasses.fields(TrainConfig)})
    print(json.dumps(train(config), indent=2))
    return 0


def _add_paraphrase(sub) -> None:
    p = sub.add_parser(
        "paraphrase",
        help="paraphrase questions, optionally guided by suggestions",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Paraphrase one question (with one or more --suggestion) or every question of --input: a text file
            (one question per line), a TSV (question<TAB>suggestion[<TAB>replaces]) or JSONL ({"question",
            "suggestion", "replaces"}). "replaces" is the question's phrase the suggestion stands for; models
            trained with --input-format replace use it (the others ignore it).
            Writes JSONL (one line per input: question, suggestion, paraphrases with text, score and whether the
            suggestion appears) to --output or standard output.
            """
        ),
        epilog=textwrap.dedent(
            """\
            examples:
              paraguide paraphrase "how can i learn python quickly?" --suggestion "fastest way"
              paraguide paraphrase "who built the tower of hercules?" --suggestion erected --replaces built
              paraguide paraphrase "怎样才能快速学会游泳" --lang zh --model models/zh
              paraguide paraphrase --input questions.tsv --output paraphrases.jsonl --model models/en --num-return 3
            """
        ),
    )
    p.add_argument("question", nargs="?", help="a question to paraphrase")
    p.add_argument("--suggestion", action="append", default=None, help="a suggestion to use (repeatable)")
    p.add_argument(
        "--replaces",
        action="append",
        default=None,
        help="the question's phrase a --suggestion replaces (repeatable, one per --suggestion, in order)",
    )
    p.add_argument("--input", help="file of questions (txt, tsv or jsonl)")
    p.add_argument("--output", help="JSONL to write (default: standard output)")
    p.add_argument(
        "--model", help="model folder written by paraguide train (default: the bundled model for --lang)"
    )
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="bundled model to use without --model")
    p.add_argument("--num-beams", type=int, default=4, help="beam size (default: 4)")
    p.add_argument("--num-return", type=int, default=1, help="paraphrases per input (default: 1)")
    p.add_argument("--batch-size", type=int, default=32, help="inputs per batch (default: 32)")
    p.add_argument(
        "--max-new-tokens", type=int, default=48, help="longest paraphrase in tokens (default: 48)"
    )
    p.add_argument(
        "--no-repeat-ngram-size",
        type=int,
        default=0,
        help="forbid repeating any n-gram of this many tokens (stops loops; default: 0, off)",
    )
    p.add_argument(
        "--by-score",
        action="store_true",
        help="rank beams by score alone (default: beams containing the suggestion first)",
    )
    p.add_argument("--device", help="cpu, cuda, cuda:1 ... (default: cuda when available)")
    p.add_argument(
        "--dtype",
        choices=("auto", "float32", "bfloat16", "float16"),
        default="auto",
        help="auto: bfloat16 where the CPU/GPU computes it natively, else float32 (default: auto)",
    )
    p.set_defaults(run=_run_paraphrase)


def _read_questions(path: str) -> list[tuple[str, str | None, str | None]]:
    """(question, suggestion, the phrase it replaces) per input line."""
    from paraguide.data.io import iter_lines, read_jsonl
    from paraguide.errors import DataError

    items = []
    if path.endswith((".jsonl", ".jsonl.gz")):
        for line, obj in read_jsonl(path):
            if not isinstance(obj.get("question"), str) or not obj["question"].strip():
                raise DataError(path, "missing or empty question", line=line, field="question")
            items.append((obj["question"], obj.get("suggestion") or None, obj.get("replaces") or None))
        return items
    for line, text in iter_lines(path):
        if not text.strip():
            continue
        cells = text.split("\t")
        if len(cells) > 3 or not cells[0].strip():
            raise DataError(
                path,
                "expected 'question', 'question<TAB>suggestion' or 'question<TAB>suggestion<TAB>replaces'",
                line=line,
            )
        cells += [""] * (3 - len(cells))
        items.append((cells[0], cells[1].strip() or None, cells[2].strip() or None))
    return items


def _run_paraphrase(args) -> int:
    import json

    from paraguide.model.paraphraser import Paraphraser, default_model_path

    if bool(args.question) == bool(args.input):
        raise ValueError("give either a question or --input FILE")
    if args.input:
        items = _read_questions(args.input)
    else:
        suggestions = args.suggestion or [None]
        replaces = args.replaces or [None] * len(suggestions)
        if len(replaces) != len(suggestions):
            raise ValueError(f"{len(replaces)} --replaces for {len(suggestions)} --suggestion; give one each")
        items = [(args.question, s, r) for s, r in zip(suggestions, replaces, strict=True)]
    paraphraser = Paraphraser.from_pretrained(
        args.model or default_model_path(args.lang), device=args.device, dtype=args.dtype
    )
    results = paraphraser.paraphrase(
        [q for q, _, _ in items],
        [s for _, s, _ in items],
        matched=[r for _, _, r in items],
        num_beams=args.num_beams,
        num_return_sequences=args.num_return,
        batch_size=args.batch_size,
        max_new_tokens=args.max_new_tokens,
        no_repeat_ngram_size=args.no_repeat_ngram_size,
        prefer_suggestion=not args.by_score,
    )
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        for (question, suggestion, _), paraphrases in zip(items, results, strict=True):
            record = {
                "question": question,
                "suggestion": suggestion or "",
                "paraphrases": [
                    {k: v for k, v in p.as_dict().items() if k != "suggestion"} for p in paraphrases
                ],
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def _add_suggest(sub) -> None:
    p = sub.add_parser(
        "suggest",
        help="suggestions for questions from PPDB, WordNet, Cilin or the context (adversarial)",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Suggest phrases for the paraphraser to use, for each question of a file (one per line, or JSONL
            with a "question" field). Writes JSONL: the question and its ranked suggestions (text, the question's
            n-gram it paraphrases, token span, score, source, relation) and prints how many questions got any.
            """
        ),
        epilog=textwrap.dedent(
            """\
            sources:
              ppdb:FILE           PPDB 2.0 rules (plain or .gz, any size; indexed once on disk), the PPDB 2.0
                                  human-labelled TSV, or 'word1 word2' pair lists
              wordnet[:FOLDER]    WordNet synonyms by part of speech (Open English WordNet YAML; default: the
                                  shared data's open_english_wordnet/yaml)
              cilin[:FILE]        Chinese synonyms from HIT Cilin '=' groups (default: the shared data's copy)
              context             adversarial: phrases near a same-type distractor of the answer in the
                                  context; --input is SQuAD JSON or JSONL with question, context, answer

            examples:
              paraguide suggest --source wordnet --input questions.txt --output suggestions.jsonl
              paraguide suggest --source ppdb:ppdb-2.0-xl-lexical.gz --threshold 3 --relation Equivalence \\
                  --input questions.txt
              paraguide suggest --source cilin --input questions_zh.txt
              paraguide suggest --source context --input dev-v1.1.json --output adversarial.jsonl
            """
        ),
    )
    p.add_argument(
        "--source",
        required=True,
        help="ppdb[:FILE] | wordnet[:FOLDER] | cilin[:FILE] | mined[:FILES] | interrogative | context | A&B "
        "(A's suggestions that B agrees with) | A|B (A's, then B's)",
    )
    p.add_argument(
        "--input",
        required=True,
        help="questions: text (one per line) or JSONL with 'question'; context: SQuAD JSON or JSONL",
    )
    p.add_argument("--output", help="JSONL to write (default: standard output)")
    p.add_argument("--top-k", type=int, default=10, help="suggestions kept per question (default: 10)")
    p.add_argument("--threshold", type=float, default=0.25, help="ppdb: lowest score kept (default: 0.25)")
    p.add_argument(
        "--relation",
        action="append",
        help="ppdb: keep only this entailment relation (repeatable), e.g. Equivalence, ForwardEntailment",
    )
    p.add_argument(
        "--lang", choices=("en", "zh"), default=None, help="language of the questions (default: en)"
    )
    p.add_argument("--batch-size", type=int, default=1000, help="questions per batch (default: 1000)")
    p.add_argument("--ner", help="context: an installed spaCy NER pipeline to type answers (default: rules)")
    p.set_defaults(run=_run_suggest)


def _read_qa(path: str) -> list[dict]:
    """(question, context, answer, answer_start) records from SQuAD JSON or JSONL."""
    from paraguide.data.io import read_jsonl
    from paraguide.data.squad import SquadReader
    from paraguide.errors import DataError

    rows = []
    if path.endswith((".json", ".json.gz")):
        for r in SquadReader(path):
            answer = (r.get("answers") or [{}])[0]
            rows.append(
                dict(
                    question=r["question"],
                    context=r["context"],
                    answer=answer.get("text", ""),
                    answer_start=answer.get("answer_start"),
                )
            )
        return rows
    for line, obj in read_jsonl(path):
        for key in ("question", "context", "answer"):
            if not isinstance(obj.get(key), str):
                raise DataError(path, f"missing or non-string field {key!r}", line=line, field=key)
        rows.append(dict(obj, answer_start=obj.get("answer_start")))
    return rows


def _run_suggest(args) -> int:
    import json

    from tqdm.auto import tqdm

    from paraguide.suggest import load_source

    extra: dict[str, list] = {}
    if args.source.split(":")[0] == "context":
        rows = _read_qa(args.input)
        questions = [r["question"] for r in rows]
        extra = {k: [r[k[:-1]] for r in rows] for k in ("contexts", "answers", "answer_starts")}
    else:
        questions = [q for q, _, _ in _read_questions(args.input)]
    # every option goes to load_source, and each source takes those it uses
    options = dict(threshold=args.threshold, relations=args.relation, lang=args.lang or "en", ner=args.ner)
    source = load_source(args.source, **options)
    found = 0
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        with tqdm(total=len(questions), unit="q", desc=f"suggest ({source.name})", disable=None) as bar:
            for start in range(0, len(questions), args.batch_size):
                batch = questions[start : start + args.batch_size]
                more = {k: v[start : start + args.batch_size] for k, v in extra.items()}
                for question, suggestions in zip(
                    batch, source.suggest(batch, args.top_k, **more), strict=True
                ):
                    found += bool(suggestions)
                    record = {"question": question, "suggestions": [s.as_dict() for s in suggestions]}
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
                bar.update(len(batch))
    finally:
        if out is not sys.stdout:
            out.close()
    share = found / max(1, len(questions))
    print(
        f"{found} of {len(questions)} questions ({share:.1%}) got suggestions from {args.source}",
        file=sys.stderr,
    )
    return 0


def _add_score(sub) -> None:
    p = sub.add_parser(
        "score",
        help="similarity (sim, embedding, lexical, wmd) or relative fluency of each question pair",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Score every pair of a file (Quora, LCQMC/BQ-style TSV 'a<TAB>b[<TAB>label]', MRPC or JSONL; the format is
            detected) and print one score per line, in input order, or write them to --output as TSV
            (score, a, b, label). Labelled files also get ROC-AUC and the best-threshold accuracy on stderr.
            """
        ),
        epilog=textwrap.dedent(
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
            """
        ),
    )
    p.add_argument(
        "--scorer",
        required=True,
        help="sim[:FOLDER] | embedding[:FOLDER] | lexical[:MEASURE] | wmd[:SIM_FOLDER] | fluency[:LM_FOLDER]",
    )
    p.add_argument("--input", required=True, help="pairs file (format detected)")
    p.add_argument(
        "--format", default="auto", help="pair format: auto, quora, tsv, tsv-unlabelled, mrpc, jsonl"
    )
    p.add_argument("--output", help="TSV to write: score, a, b, label (default: scores on standard output)")
    p.add_argument(
        "--lang",
        choices=("en", "zh"),
        default="en",
        help="tokenisation for lexical, bundled model for sim and fluency (default: en)",
    )
    p.add_argument("--batch-size", type=int, default=1024, help="pairs per batch (default: 1024)")
    p.set_defaults(run=_run_score)


def _run_score(args) -> int:
    from tqdm.auto import tqdm

    from paraguide.data.pairs import read_pairs
    from paraguide.score import best_threshold_accuracy, load_scorer, roc_auc

    pairs = list(read_pairs(args.input, args.format))
    scorer = load_scorer(args.scorer, lang=args.lang)
    scores: list[float] = []
    with tqdm(total=len(pairs), unit="pair", desc=f"score ({scorer.name})", disable=None) as bar:
        for start in range(0, len(pairs), args.batch_size):
            batch = pairs[start : start + args.batch_size]
            scores += scorer.score([(p.a, p.b) for p in batch])
            bar.update(len(batch))
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        for pair, score in zip(pairs, scores, strict=True):
            if args.output:
                label = "" if pair.label is None else pair.label
                out.write(f"{score:.6f}\t{pair.a}\t{pair.b}\t{label}\n")
            else:
                out.write(f"{score:.6f}\n")
    finally:
        if out is not sys.stdout:
            out.close()
    labels = [p.label for p in pairs]
    if pairs and None not in labels and 0 < sum(labels) < len(labels):
        accuracy, threshold = best_threshold_accuracy(scores, labels)
        print(
            f"{len(pairs)} pairs: ROC-AUC {roc_auc(scores, labels):.4f}, best accuracy {accuracy:.4f} "
            f"at threshold {threshold:.4f}",
            file=sys.stderr,
        )
    return 0


def _add_train_scorer(sub) -> None:
    from paraguide.score.sim import SimConfig

    p = sub.add_parser(
        "train-scorer",
        help="train a sim scorer (averaged sub-word embeddings) on paraphrase pairs",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Train the paper's kind of similarity scorer (Wieting & Gimpel 2018): a SentencePiece vocabulary and a
            table of sub-word embeddings whose average, compared by cosine, separates paraphrases from other
            sentences (margin loss, hardest negatives within mega-batches). Any language. Positive pairs of the
            file are used (labelled 1, or unlabelled); prepare's JSONL (source/target) works too.
            """
        ),
        epilog=textwrap.dedent(
            """\
            examples:
              paraguide train-scorer --pairs runs/quora/train.jsonl --output-dir scorers/sim-en
              paraguide train-scorer --pairs ../shared/data/lcqmc/train.tsv.gz --output-dir scorers/sim-zh
              paraguide score --scorer sim:scorers/sim-en --input pairs.tsv
            """
        ),
    )
    p.add_argument("--pairs", required=True, help="paraphrase pairs (format detected)")
    p.add_argument(
        "--output-dir", required=True, help="folder for model.safetensors, config.json, spiece.model"
    )
    p.add_argument("--format", default="auto", help="pair format (default: detected)")
    _add_dataclass_args(
        p,
        SimConfig,
        help_text={
            "dim": "embedding size",
            "vocab_size": "SentencePiece vocabulary size",
            "lowercase": "keep case (default: lower-case)",
            "margin": "margin of the loss",
            "batch_size": "pairs per step",
            "megabatch": "batches searched together for the hardest negatives",
            "epochs": "passes over the pairs",
            "lr": "Adam learning rate",
            "seed": "shuffling and initialisation seed",
        },
    )
    p.set_defaults(run=_run_train_scorer)


def _run_train_scorer(args) -> int:
    import dataclasses

    from paraguide.data.pairs import read_pairs
    from paraguide.score.sim import SimConfig, train_sim
    from paraguide.text.normalize import pair_key

    seen, pairs = set(), []
    for p in read_pairs(args.pairs, args.format):
        key = pair_key(p.a, p.b)
        if p.is_positive and key not in seen:  # prepare's output repeats a pair per suggestion
            seen.add(key)
            pairs.append((p.a, p.b))
    config = SimConfig(**{f.name: getattr(args, f.name) for f in dataclasses.fields(SimConfig)})
    train_sim(pairs, args.output_dir, config)
    print(f"trained on {len(pairs)} pairs; saved in {args.output_dir}", file=sys.stderr)
    return 0


_BUILD_SOURCES = """\
            suggestion sources (--source):
              interrogative|wordnet&ppdb
                                  English default: "what" / "which" before a noun swapped ("What year" ->
                                  "Which year"), then the WordNet synonyms that PPDB's synonym pairs also hold
                                  for the same word (A&B: the suggestions of A that B agrees with; A|B: A's
                                  suggestions, then B's, each part ranked on its own)
              wordnet[:FOLDER]    WordNet synonyms alone (Open English WordNet YAML; default: the shared
                                  data's open_english_wordnet/yaml): more questions, fewer good ones
              interrogative|cilin&mined
                                  Chinese default: question words swapped for equivalents (怎么/如何/怎样,
                                  为什么/为何, 多久/多长时间, 什么/啥 ...), then the Cilin synonyms that people swap in
                                  LCQMC and BQ paraphrase pairs (mined: one word replaced between the same words)
              cilin[:FILE]        HIT Cilin synonyms alone
              mined[:FILE,...]    word pairs mined from paraphrase pairs (default: the shared LCQMC + BQ
                                  train for zh, Quora for en)
              ppdb[:FILE]         PPDB 2.0 rules, the human-labelled TSV, or your own 'phrase<TAB>paraphrase'
                                  or 'word1 word2' list (default: the shared data's PPDB synonym pairs)
              context             adversarial (the --adversarial / --mode context default): phrases near a
                                  same-type distractor of the answer in the context
              none                no suggestion: free paraphrases
"""


BUILD_HELP = {
    "squad": "input: SQuAD-format JSON (SQuAD v1.1/2.0, DuReader-robust), .gz ok",
    "pairs": "input: question pairs (LCQMC/BQ/Quora-style TSV, MRPC or JSONL; labels kept)",
    "pairs_format": "pair file format: auto, tsv, tsv-unlabelled, quora, mrpc, jsonl",
    "side": "pairs: which question to paraphrase: a, b or both",
    "lang": "language: en or zh",
    "adversarial": "context-chunk suggestions near same-type distractors and the adversarial threshold",
    "source": "suggestion source (see below; default: interrogative|wordnet&ppdb for en, "
    "interrogative|cilin&mined for zh, context if adversarial)",
    "model": "paraphraser folder (default: the bundled model of --lang)",
    "preset": "substitute (English default): the suggestion replaces its phrase, in place or by the "
    "paraphraser, and the rest stays; rewrite (Chinese and adversarial default): the paraphraser's free rewrite. "
    "The options below left unset come from it",
    "scorer": "similarity scorer: sim, embedding, wmd, lexical:MEASURE (default: the preset's)",
    "threshold": "similarity threshold (default: the scorer's calibrated one for the use)",
    "fluency": "fluency filter: off, bundled (the question LM of --lang) or an LM folder; off by default, since "
    "two blind readings found no gain from it yet (docs/build.md)",
    "fluency_threshold": "fluency threshold: SLOR(paraphrase) - SLOR(question) below it is dropped "
    "(default: the LM's calibrated one for the use)",
    "substitution": "drop a paraphrase that keeps the phrase its suggestion replaces, loses another content "
    "word of the question or adds one from nowhere (--no-substitution: don't)",
    "in_place": "also offer the question with the suggestion put in place (inflected) as a candidate "
    "(--no-in-place: don't)",
    "nbest": "the paraphraser's best N beams of each suggestion are candidates; 0: the paraphraser is not "
    "run, the in-place candidates alone (default: the preset's)",
    "rank": "rank suggestions by this scorer's similarity with the suggestion in place (off, embedding, sim "
    "...) and drop those below --rank-threshold (default: the preset's)",
    "rank_threshold": "threshold of --rank (default: the preset's, or that scorer's calibrated one when --rank "
    "is given)",
    "top_k": "suggestions tried per question and step",
    "steps": "iterations: each paraphrases the previous step's output",
    "num_beams": "beam size",
    "batch_size": "paraphraser batch size",
    "chunk_size": "questions per unit of work and of resumption",
    "seed": "seed of every random choice",
    "dtype": "auto (bfloat16 where native), float32, bfloat16, float16",
    "ner": "context source: an installed spaCy NER pipeline (default: rules)",
    "n": "accepted paraphrases to add (default: every accepted one)",
    "per_question": "at most this many distinct accepted paraphrases of one question",
    "mode": "ppdb: lexical suggestions (--source) and the augmentation threshold; context: adversarial "
    "suggestions and threshold (default: ppdb)",
    "paraphrases_only": "write the paraphrases alone, not merged with the input",
    "resume": "continue an interrupted run in OUTDIR (the same command plus --resume)",
    "overwrite": "discard a previous run in OUTDIR and start again",
    "quiet": "no progress bar",
    "device": "cpu, cuda, cuda:1 ... (default: accelerate's choice)",
    "examples": "before/after examples to print and keep in the summary",
}
AUGMENT_ONLY = ("n", "per_question", "mode", "paraphrases_only")


def _add_build_args(p, augment: bool) -> None:
    from paraguide.pipeline.build import BuildConfig

    p.add_argument("--out", required=True, metavar="OUTDIR", help="output folder")
    skip = ("out", "adversarial") if augment else ("out", *AUGMENT_ONLY)
    _add_dataclass_args(p, BuildConfig, skip=skip, help_text=BUILD_HELP)


def _add_build_testset(sub) -> None:
    p = sub.add_parser(
        "build-testset",
        help="a paraphrased test set from SQuAD-format data or question pairs",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Paraphrase every question of a QA (SQuAD-format) or QM (pairs) test set: suggestions from a source
            -> the suggestion-guided paraphraser -> filters (differs from the source, uses the suggestion,
            length ratio, still a question, keeps names, replaces rather than inserts, answer not leaked,
            similarity >= the scorer's test-set threshold) -> optionally iterated (--steps) -> one accepted
            paraphrase per question (a seeded choice). English uses --preset substitute: suggestions ranked
            in place, and the question with the suggestion put in place competes with the paraphraser's
            beams; Chinese and --adversarial use --preset rewrite: the paraphraser's free rewrite.

            Writes in OUTDIR: paraphrased.json and original.json (the same questions, side by side; contexts
            and answers untouched, new unique ids) -- or paraphrased/original .tsv/.jsonl for pairs --, id_map.json,
            provenance.jsonl, accounting.jsonl (every input question: selected, or the stage and reason it fell
            out) and summary.json. Output is written as it goes: after a crash, run the same command with
            --resume. Under 'accelerate launch' the questions are shared among the processes.
            """
        ),
        epilog=textwrap.dedent(
            _BUILD_SOURCES
            + """
            examples:
              paraguide build-testset --squad dev-v1.1.json --out runs/squad-para
              paraguide build-testset --squad dev-v1.1.json --adversarial --out runs/squad-adv
              paraguide build-testset --squad dureader_robust/dev.json --lang zh --out runs/dureader-para
              paraguide build-testset --pairs lcqmc/test.tsv --lang zh --side both --out runs/lcqmc-para
              accelerate launch --num_processes 4 -m paraguide.cli build-testset --squad dev-v1.1.json --out runs/x
            """
        ),
    )
    _add_build_args(p, augment=False)
    p.set_defaults(run=_run_build)


def _add_augment(sub) -> None:
    p = sub.add_parser(
        "augment",
        help="augmented training data: original questions plus N accepted paraphrases",
        formatter_class=_formatter,
        description=textwrap.dedent(
            """\
            Paraphrase training questions in a seeded random order until --n paraphrases are accepted (with
            the augmentation threshold, or the adversarial one for --mode context), and write them merged with
            the original training data -- each right after its original, new unique id, answers unchanged --
            ready for any SQuAD trainer (pairs: a new pair per paraphrase, label kept). Same resumable,
            multi-process run as build-testset.
            """
        ),
        epilog=textwrap.dedent(
            _BUILD_SOURCES
            + """
            examples:
              paraguide augment --squad train-v1.1.json --mode ppdb --n 25000 --out runs/squad-aug
              paraguide augment --squad train-v1.1.json --mode context --n 25000 --out runs/squad-aug-adv
              paraguide augment --pairs lcqmc/train.tsv --lang zh --n 20000 --out runs/lcqmc-aug
            """
        ),
    )
    _add_build_args(p, augment=True)
    p.set_defaults(run=_run_build)


def _run_build(args) -> int:
    import dataclasses

    from paraguide.pipeline.build import BuildConfig, augment, build_testset, format_summary

    names = [f.name for f in dataclasses.fields(BuildConfig)]
    config = BuildConfig(**{name: getattr(args, name) for name in names if hasattr(args, name)})
    summary = augment(config) if args.command == "augment" else build_testset(config)
    if summary:  # the main process
        print(format_summary(summary, args.out))
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
    _add_train(sub)
    _add_paraphrase(sub)
    _add_suggest(sub)
    _add_score(sub)
    _add_train_scorer(sub)
    _add_build_testset(sub)
    _add_augment(sub)
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
