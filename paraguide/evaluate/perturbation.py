"""A QM system scored on a perturbation suite (``paraguide perturb``'s pairs.jsonl): accuracy per operation,
subcategory and category, each level with its micro (over pairs) and macro (over its groups) average, laid
out as DuQM's Table 1 (category, subcategory, operation, label Y/N, pairs, accuracy)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from paraguide.data.io import read_jsonl
from paraguide.errors import DataError
from paraguide.evaluate.metrics import category_accuracy, classification_scores
from paraguide.evaluate.predictions import read_labels

LEVELS = ("category", "subcategory", "operation")


@dataclass(frozen=True)
class SuitePair:
    """A pair of the suite as scoring needs it: its gold label and where it sits in the table."""

    label: int
    category: str
    subcategory: str
    operation: str


def suite_file(path: str | os.PathLike) -> str:
    """The suite's pairs.jsonl: ``path`` itself, or ``path/pairs.jsonl`` for a perturb folder."""
    path = Path(path)
    if path.is_dir():
        path = path / "pairs.jsonl"
    if not path.is_file():
        raise DataError(str(path), "no such file: give a paraguide perturb folder or its pairs.jsonl")
    return str(path)


def read_suite(path: str | os.PathLike) -> list[SuitePair]:
    """The pairs of a suite file, each with ``label`` (0/1) and the three levels (a missing or empty one is
    a :class:`DataError` naming the line and field)."""
    path = suite_file(path)
    pairs = []
    for line, obj in read_jsonl(path):
        if obj.get("label") not in (0, 1) or isinstance(obj.get("label"), bool):
            raise DataError(path, f"label must be 0 or 1, got {obj.get('label')!r}", line=line, field="label")
        for level in LEVELS:
            if not isinstance(obj.get(level), str) or not obj[level].strip():
                raise DataError(path, f"missing or empty {level}", line=line, field=level)
        pairs.append(SuitePair(obj["label"], obj["category"], obj["subcategory"], obj["operation"]))
    if not pairs:
        raise DataError(path, "no pairs")
    return pairs


def _table_place(pair: SuitePair) -> tuple[int, int]:
    """Where a pair's subcategory sits in DuQM's table (categories and subcategories of other suites last,
    in name order after it)."""
    from paraguide.perturb.base import CATEGORIES, SUBCATEGORIES

    order = list(SUBCATEGORIES)
    category = CATEGORIES.index(pair.category) if pair.category in CATEGORIES else len(CATEGORIES)
    return category, order.index(pair.subcategory) if pair.subcategory in order else len(order)


def score_suite(pairs: list[SuitePair], predictions: list[int]) -> dict:
    """Overall scores, each level's per-group accuracy with micro and macro, and the table's rows."""
    labels = [p.label for p in pairs]
    result = {"overall": classification_scores(predictions, labels)}
    for level in LEVELS:
        result[level] = category_accuracy(predictions, labels, [getattr(p, level) for p in pairs])
    seen: dict[str, SuitePair] = {}
    for p in pairs:
        seen.setdefault(p.operation, p)
    per_op = result["operation"]["per_category"]
    result["table"] = [
        {"category": p.category, "subcategory": p.subcategory, "operation": op, "label": "Y" if p.label else "N",
         "pairs": per_op[op]["total"], "accuracy": per_op[op]["accuracy"]}
        for op, p in sorted(seen.items(), key=lambda kv: (*_table_place(kv[1]), kv[0]))
    ]  # fmt: skip
    return result


def evaluate_suite(suite: str, predictions: str) -> dict:
    """``--suite DIR --predictions FILE``: one label per pair of the suite, in its order (a text/TSV file
    whose lines start with the label, or JSONL ``{"label": 1}`` / ``{"prediction": 1}``: run_qm's
    predictions file)."""
    path = suite_file(suite)
    pairs = read_suite(path)
    predicted = read_labels(predictions, len(pairs), path)
    return {"job": "evaluate", "task": "qm-suite", "suite": path, "predictions": predictions,
            "metrics": ["accuracy"], "results": score_suite(pairs, predicted)}  # fmt: skip


def format_suite(report: dict) -> str:
    """``report.md`` for a suite: DuQM's table, then each level's micro and macro accuracy."""
    r = report["results"]
    o = r["overall"]
    lines = [
        "# Perturbation suite",
        "",
        f"`{report['predictions']}` on `{report['suite']}`: {o['total']} pairs, accuracy {o['accuracy']:.2f}, "
        f"F1 (label 1) {o['f1']:.2f}.",
        "",
        "| category | subcategory | operation | label | pairs | accuracy |",
        "|---|---|---|---|---:|---:|",
    ]
    for row in r["table"]:
        lines.append(f"| {row['category']} | {row['subcategory']} | {row['operation']} | {row['label']} | "
                     f"{row['pairs']} | {row['accuracy']:.2f} |")  # fmt: skip
    lines += ["", "| level | groups | micro | macro |", "|---|---:|---:|---:|"]
    for level in LEVELS:
        c = r[level]
        lines.append(f"| {level} | {len(c['per_category'])} | {c['micro']:.2f} | {c['macro']:.2f} |")
    for level in ("category", "subcategory"):
        lines += ["", f"| {level} | pairs | accuracy |", "|---|---:|---:|"]
        for name, v in r[level]["per_category"].items():
            lines.append(f"| {name} | {v['total']} | {v['accuracy']:.2f} |")
    lines += ["", "Accuracy in percent; micro: over the pairs, macro: the mean over the level's groups.", ""]
    return "\n".join(lines)
