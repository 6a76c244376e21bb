"""Augmented training data: training questions paraphrased in a seeded random order until ``n`` paraphrases
are accepted, written with the original data (each right after its original) or alone.

    summary = augment(BuildConfig(squad="train-v1.1.json", mode="ppdb", n=25000, out="runs/augment"))

Writes ``train.json`` (SQuAD) or ``train.<tsv|jsonl>`` (pairs: a new pair per paraphrase, label kept) and the
run's report files; resumable and multi-process like the test set (the files do not depend on either).
"""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

from paraguide.data.pairs import Pair, write_pairs
from paraguide.data.squad import SquadReader, SquadWriter
from paraguide.pipeline.config import BuildConfig
from paraguide.pipeline.inputs import InputReport, config_pair_items, read_items, squad_records
from paraguide.pipeline.records import Choice, Item, Outcome
from paraguide.pipeline.report import RunReport
from paraguide.pipeline.runner import ChunkRunner, Progress
from paraguide.pipeline.writers import pair_format, squad_paraphrases


def augment(config: BuildConfig) -> dict:
    """Paraphrase training questions in a seeded random order until ``n`` are accepted, then write them
    with the original training data (or alone). Returns the summary (also OUTDIR/summary.json)."""
    config = dataclasses.replace(config, mode=config.mode or "ppdb")
    config.check()
    inputs = InputReport()
    # Read (and checked) once, before any work: the order is a permutation, so the questions are held
    # (their contexts shared, not copied).
    items = list(read_items(config, inputs))
    runner = ChunkRunner(config, "augment")
    order = list(range(len(items)))
    random.Random(config.seed).shuffle(order)
    chunks = [
        [items[i] for i in order[k : k + config.chunk_size]] for k in range(0, len(order), config.chunk_size)
    ]
    target = config.n or math.inf

    def enough(counts: dict[int, int]) -> bool:  # the first chunks in the seeded order give n
        total = 0
        for c in range(len(chunks)):
            if c not in counts:
                return False
            total += counts[c]
            if total >= target:
                return True
        return True

    progress = Progress(len(items), "augment", not config.quiet and runner.state.is_main_process)
    runner.run(
        chunks,
        progress,
        count=lambda outcomes: paraphrase_count(outcomes, config.per_question),
        enough=enough,
    )
    if not runner.state.is_main_process:
        return {}
    summary = _write(config, items, len(chunks), runner.outcomes(), runner.generator, inputs)
    runner.finish()
    return summary


def paraphrase_count(outcomes: list[Outcome], per_question: int) -> int:
    """How many paraphrases these outcomes give towards ``n``: up to ``per_question`` per selected question
    (the accepted one and its alternatives), as the written file takes them."""
    return sum(min(per_question, len(o.paths())) for o in outcomes if o.selected)


def _write(config, items: list[Item], chunks: int, done: dict[int, list[Outcome]], generator, inputs) -> dict:
    report = RunReport(config, generator, inputs)
    target = config.n or math.inf
    chosen: dict[str, list[list[Choice]]] = {}  # original key -> its paraphrases' paths: the first n in order
    outcomes: dict[str, Outcome] = {}
    beyond: set[str] = set()  # selected, but accepted after the n-th paraphrase
    # Chunks in the seeded order up to the one where the n-th paraphrase was accepted; chunks done beyond
    # it (other processes were busy with them when n was reached) count as not processed, so the files do
    # not depend on the number of processes.
    taken = 0
    for c in range(chunks):
        if c not in done or taken >= target:
            break
        for outcome in done[c]:
            outcomes[outcome.key] = outcome
            if outcome.selected and taken >= target:
                beyond.add(outcome.key)
            elif outcome.selected:
                paths = outcome.paths()[: config.per_question]
                chosen[outcome.key] = paths[: int(min(len(paths), target - taken))]
                taken += len(chosen[outcome.key])
    for item in items:
        outcome = outcomes.get(item.key)
        if outcome is None:
            report.drop(item.key, "not_processed", "--n reached before its turn")
        elif item.key in beyond:
            report.drop(item.key, "sampling", "accepted beyond --n")
        elif item.key in chosen:
            report.account(item.key, outcome, paraphrases=len(chosen[item.key]))
        else:
            report.account(item.key, outcome)
    if config.squad:
        reader = SquadReader(config.squad)
        with SquadWriter(Path(config.out) / "train.json") as writer:
            records = squad_records(config, reader)  # answer offsets repaired, --skip-bad's records left out
            for record, copies in squad_paraphrases(records, chosen, {item.key for item in items}, report):
                if not config.paraphrases_only:
                    writer.write(record)
                for copy in copies:
                    writer.write(copy)
            writer.header = dict(reader.header)
        files = ["train.json"]
    else:
        files = [_write_pairs(config, chosen, report)]
    return report.finish(list(outcomes.values()), files)


def _write_pairs(config: BuildConfig, chosen: dict[str, list[list[Choice]]], report: RunReport) -> str:
    fmt, rows = pair_format(config), []
    for n, (pair, items) in enumerate(config_pair_items(config)):
        if not config.paraphrases_only:
            rows.append(pair)
        for it in items:  # each accepted paraphrase of a side makes one new pair, the label kept
            original = pair.a if it.side == "a" else pair.b
            for path in chosen.get(it.key, ()):
                text = path[-1].paraphrase
                rows.append(
                    Pair(text, pair.b, pair.label) if it.side == "a" else Pair(pair.a, text, pair.label)
                )
                report.id_map[str(len(rows))] = n + 1
                report.paraphrase(str(len(rows)), it.key, original, path)
    write_pairs(Path(config.out) / f"train.{fmt}", rows, fmt)
    return f"train.{fmt}"
