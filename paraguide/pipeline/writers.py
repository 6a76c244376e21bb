"""What both builders write through: SQuAD records with their paraphrased copies under new unique ids, and
the format pairs are written in."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from paraguide.data.pairs import detect_format
from paraguide.pipeline.config import BuildConfig
from paraguide.pipeline.inputs import unique_id
from paraguide.pipeline.records import Choice
from paraguide.pipeline.report import RunReport


def squad_paraphrases(
    records: Iterable[dict], chosen: dict[str, list[list[Choice]]], taken: set[str], report: RunReport
) -> Iterator[tuple[dict, list[dict]]]:
    """Each record of a SQuAD file (``records``: :func:`~paraguide.pipeline.inputs.squad_records`, the
    checked and repaired ones) with its paraphrased copies (``chosen``: id -> the paths whose last
    paraphrase to write) under new ids not in ``taken`` (every input id); the report records the ids and
    provenance. The SQuAD writing of both builders."""
    for record in records:
        key, copies = str(record["id"]), []
        for path in chosen.get(key, ()):
            new_id = unique_id(key, "para", taken)
            report.id_map[new_id] = record["id"]
            report.paraphrase(new_id, record["id"], record["question"], path)
            copies.append({**record, "id": new_id, "question": path[-1].paraphrase})
        yield record, copies


def pair_format(config: BuildConfig) -> str:
    """Pairs are written as JSONL when they came as JSONL, else as TSV."""
    return "jsonl" if detect_format(config.pairs) == "jsonl" else "tsv"
