"""Paraphrased test sets: every question paraphrased once (or dropped, saying why), written beside its original.

    summary = build_testset(BuildConfig(squad="dev-v1.1.json", out="runs/testset"))

Writes in OUTDIR ``paraphrased.json`` + ``original.json`` (SQuAD: the same questions, the paraphrased ones
with new ids; contexts and answers untouched but for wrong answer offsets, repaired and listed in the summary)
or ``paraphrased.<tsv|jsonl>`` + ``original.<tsv|jsonl>``
(pairs whose every paraphrased side was accepted, labels kept), and the run's report files
(:mod:`paraguide.pipeline.report`). The input is streamed in chunks (:mod:`paraguide.pipeline.runner`), so a
killed run continues with ``resume=True`` and the files are the same for any number of processes.
"""

from __future__ import annotations

from pathlib import Path

from paraguide.data.pairs import Pair, write_pairs
from paraguide.data.squad import SquadReader, SquadWriter
from paraguide.pipeline.config import BuildConfig
from paraguide.pipeline.inputs import (
    InputReport,
    config_pair_items,
    count_questions,
    read_items,
    squad_records,
)
from paraguide.pipeline.records import Outcome
from paraguide.pipeline.report import RunReport
from paraguide.pipeline.runner import ChunkRunner, Progress, chunked
from paraguide.pipeline.writers import pair_format, squad_paraphrases


def build_testset(config: BuildConfig) -> dict:
    """Paraphrase every question once (or drop it, saying why) and write the test set; returns the
    summary (also written as OUTDIR/summary.json; an empty dict on processes other than the main one)."""
    config.check()
    total = count_questions(config)
    runner = ChunkRunner(config, "build-testset")
    inputs = InputReport()
    progress = Progress(total, "build-testset", not config.quiet and runner.state.is_main_process)
    runner.run(chunked(read_items(config, inputs), config.chunk_size), progress)
    if not runner.state.is_main_process:
        return {}
    outcomes = {}
    for chunk in sorted(done := runner.outcomes()):
        for outcome in done[chunk]:
            if outcome.key in outcomes:
                raise RuntimeError(f"question {outcome.key} was written twice (shards of another run?)")
            outcomes[outcome.key] = outcome
    report = RunReport(config, runner.generator, inputs)
    write = _write_squad if config.squad else _write_pairs
    files = write(config, outcomes, report)
    summary = report.finish(list(outcomes.values()), files)
    runner.finish()
    return summary


def result(outcomes: dict[str, Outcome], key: str, path: str) -> Outcome:
    """A question's outcome; an error when the run did not finish it."""
    if key not in outcomes:
        raise RuntimeError(f"question {key} of {path} has no result: the run is incomplete (--resume it)")
    return outcomes[key]


def _write_squad(config: BuildConfig, outcomes: dict[str, Outcome], report: RunReport) -> list[str]:
    out, reader = Path(config.out), SquadReader(config.squad)
    chosen = {key: [o.steps] for key, o in outcomes.items() if o.selected}
    with SquadWriter(out / "paraphrased.json") as para, SquadWriter(out / "original.json") as orig:
        records = squad_records(config, reader)  # answer offsets repaired, --skip-bad's records left out
        for record, copies in squad_paraphrases(records, chosen, set(outcomes), report):
            report.account(str(record["id"]), result(outcomes, str(record["id"]), config.squad))
            for copy in copies:
                para.write(copy)
                orig.write(record)
        para.header = orig.header = dict(reader.header)
    return ["paraphrased.json", "original.json"]


def _write_pairs(config: BuildConfig, outcomes: dict[str, Outcome], report: RunReport) -> list[str]:
    out, fmt = Path(config.out), pair_format(config)
    para_pairs, orig_pairs = [], []
    for n, (pair, items) in enumerate(config_pair_items(config)):
        results = [result(outcomes, it.key, config.pairs) for it in items]
        for it, outcome in zip(items, results, strict=True):
            report.account(it.key, outcome)
        if not all(o.selected for o in results):
            continue
        texts = {it.side: o.paraphrase for it, o in zip(items, results, strict=True)}
        para_pairs.append(Pair(texts.get("a", pair.a), texts.get("b", pair.b), pair.label))
        orig_pairs.append(pair)
        report.id_map[str(len(para_pairs))] = n + 1  # line in the written files -> pair number in the input
        for it, outcome in zip(items, results, strict=True):
            original = pair.a if it.side == "a" else pair.b
            report.paraphrase(f"{len(para_pairs)}:{it.side}", it.key, original, outcome.steps)
    write_pairs(out / f"paraphrased.{fmt}", para_pairs, fmt)
    write_pairs(out / f"original.{fmt}", orig_pairs, fmt)
    return [f"paraphrased.{fmt}", f"original.{fmt}"]
