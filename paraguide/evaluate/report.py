"""``paraguide evaluate``: how much a system loses on paraphrased questions. Its predictions on a build
folder's original and paraphrased sets are scored (EM/F1 or accuracy), paired through the id map, and the
drop and the different-prediction ratio are broken down by similarity, edit rate, suggestion source, step,
question word and (QM) category; ``report.md``, ``report.json`` and PNG plots are written."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from paraguide.data.fingerprint import fingerprints
from paraguide.data.io import atomic_write, read_jsonl, write_json
from paraguide.data.outdir import OutputDir
from paraguide.evaluate.metrics import (
    category_accuracy,
    classification_scores,
    exact_match,
    f1,
    normalize_answer,
    squad_scores,
)
from paraguide.evaluate.predictions import check_ids, read_answers, read_labels
from paraguide.evaluate.testset import Item, TestSet, question_type, read_testset, squad_references
from paraguide.evaluate.traps import trap_hits
from paraguide.options import option

REPORT_FILES = ("report.md", "report.json")
DIMENSIONS = ("similarity", "edit_rate", "source", "step", "question_type", "category")
TITLES = {"similarity": "similarity band", "edit_rate": "edit rate band", "source": "suggestion source",
          "step": "step", "question_type": "question word", "category": "category"}  # fmt: skip


@dataclass
class EvaluateJob:
    """``paraguide evaluate``: a system's predictions on a build folder's original and paraphrased sets (and
    optionally a retrained system's), or on one SQuAD file alone."""

    testset: str | None = option("output folder of paraguide build-testset (original.* and paraphrased.* "
                                 "sets, id_map.json, provenance.jsonl)", metavar="DIR")  # fmt: skip
    original: str | None = option(
        "predictions on the original set (QA: JSON {id: answer}; QM: one label per pair)", metavar="FILE"
    )
    paraphrased: str | None = option("predictions on the paraphrased set, same format", metavar="FILE")
    after_original: str | None = option("after retraining: predictions on the original set", metavar="FILE")
    after_paraphrased: str | None = option(
        "after retraining: predictions on the paraphrased set", metavar="FILE"
    )
    squad: str | None = option("instead of --testset: one SQuAD file (e.g. the full dev set) scored alone "
                               "against --predictions", metavar="FILE")  # fmt: skip
    predictions: str | None = option("with --squad: its predictions, JSON {id: answer}; with --suite: one "
                                     "label per pair", metavar="FILE")  # fmt: skip
    suite: str | None = option("instead of --testset: a paraguide perturb folder (or its pairs.jsonl), "
                               "scored per operation, subcategory and category against --predictions",
                               metavar="DIR")  # fmt: skip
    out: str = option("report folder to write (new or empty)", required=True, metavar="DIR")
    lang: str | None = option(
        "en or zh (default: the build's language; en with --squad)", choices=("en", "zh")
    )
    similarity_bands: str = option("similarity band edges", "0.8,0.9,0.95", metavar="EDGES")
    edit_bands: str = option(
        "edit rate band edges (token edits / original tokens)", "0.1,0.2,0.3", metavar="EDGES"
    )
    lenient_ids: bool = option("predictions may hold ids outside the set (ignored) and miss questions "
                               "(scored as empty answers, counted as missing)", False)  # fmt: skip
    overwrite: bool = option("replace an earlier report in --out", False)

    def run(self) -> dict:
        """Score, write the report files, and return the report (as ``report.json`` holds it)."""
        sim_edges, edit_edges = _edges(self.similarity_bands, "similarity"), _edges(self.edit_bands, "edit")
        if self.suite:
            if not self.predictions or self.testset or self.squad:
                raise ValueError("--suite goes with --predictions, without --testset or --squad")
            from paraguide.evaluate.perturbation import evaluate_suite, format_suite

            report = evaluate_suite(self.suite, self.predictions)
            with _claim(
                self.out, self.overwrite, {"suite": report["suite"], "predictions": self.predictions}
            ):
                write_json(Path(self.out) / "report.json", report)
                with atomic_write(Path(self.out) / "report.md") as f:
                    f.write(format_suite(report))
            return report
        if self.squad or self.predictions:
            if not (self.squad and self.predictions) or self.testset:
                raise ValueError("--squad and --predictions go together, without --testset")
            report = _single(self.squad, self.predictions, self.lang or "en", self.lenient_ids)
            scores = report["results"]["scores"]
            with _claim(self.out, self.overwrite, {"squad": self.squad, "predictions": self.predictions}):
                write_json(Path(self.out) / "report.json", report)
                with atomic_write(Path(self.out) / "report.md") as f:
                    f.write(f"# Scores\n\n`{self.predictions}` on `{self.squad}` ({report['lang']}, "
                            f"{scores['total']} questions, {scores['missing']} without a prediction)\n\n"
                            f"| EM | F1 |\n|---:|---:|\n| {scores['exact_match']:.2f} | {scores['f1']:.2f} |\n")  # fmt: skip
            return report
        if not (self.testset and self.original and self.paraphrased):
            raise ValueError(
                "give --testset with --original and --paraphrased (or --squad with --predictions)"
            )
        if bool(self.after_original) != bool(self.after_paraphrased):
            raise ValueError("--after-original and --after-paraphrased go together")
        ts = read_testset(self.testset, self.lang)
        runs = {"before": (self.original, self.paraphrased)}
        if self.after_original:
            runs["after"] = (self.after_original, self.after_paraphrased)
        bands = {item.id: _bands(item, ts, sim_edges, edit_edges) for item in ts.items}
        results = {name: _evaluate_run(ts, o, p, bands, self.lenient_ids) for name, (o, p) in runs.items()}
        report = {
            "job": "evaluate",
            "task": ts.task,
            "lang": ts.lang,
            "testset": ts.folder,
            "predictions": {name: {"original": o, "paraphrased": p} for name, (o, p) in runs.items()},
            "metrics": list(_metrics(ts.task)),
            "similarity_score": ts.similarity_key,
            "bands": {"similarity": sim_edges, "edit_rate": edit_edges},
            "results": results,
        }
        traps = Path(ts.folder) / "traps.jsonl"
        if traps.is_file():  # a perturb --trap folder: how often each run's answer is the trap's distractor
            records = [record for _, record in read_jsonl(traps)]
            report["trap_hits"] = {}
            for name, (_, trap_predictions) in runs.items():
                hits = trap_hits(read_answers(trap_predictions), records, ts.lang)
                report["trap_hits"][name] = {k: v for k, v in hits.items() if k != "hit_ids"}
        if "after" in results:
            report["recovery"] = {m: results["after"]["paraphrased"][m] - results["before"]["paraphrased"][m]
                                  for m in _metrics(ts.task)}  # fmt: skip
        inputs = {"testset": self.testset, "original": self.original, "paraphrased": self.paraphrased,
                  "after original": self.after_original, "after paraphrased": self.after_paraphrased}  # fmt: skip
        with _claim(self.out, self.overwrite, inputs):
            report["plots"] = _plots(self.out, ts, results)
            write_json(Path(self.out) / "report.json", report)
            with atomic_write(Path(self.out) / "report.md") as f:
                f.write(format_markdown(report))
        return report


def _edges(text: str, what: str) -> list[float]:
    try:
        edges = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--{what}-bands: comma-separated numbers, got {text!r}") from None
    if not all(math.isfinite(e) for e in edges):
        raise ValueError(f"--{what}-bands: finite numbers (no nan or inf), got {text!r}")
    if edges != sorted(set(edges)):
        raise ValueError(f"--{what}-bands: increasing numbers, got {text!r}")
    return edges


@contextmanager
def _claim(out: str, overwrite: bool, inputs: dict[str, str | None]) -> Iterator[None]:
    """Write the report into its folder, once every input is read and checked (a bad input leaves the folder
    as it was): the folder is every command's output folder (:mod:`paraguide.data.outdir`): new or empty,
    or an earlier report with --overwrite (its files and plots removed first); ``run.json`` records what was
    scored, by content."""
    output = OutputDir.check(out, "evaluate", overwrite=overwrite, resumable=False)
    output.identify({}, fingerprints(inputs))
    output.claim()
    try:
        yield
        output.finish()
    finally:
        output.release()


def _band(value: float | None, edges: list[float]) -> str:
    if value is None:
        return "unknown"
    low = None
    for edge in edges:
        if value < edge:
            return f"< {edge:g}" if low is None else f"{low:g}-{edge:g}"
        low = edge
    return f">= {low:g}"


def _bands(item: Item, ts: TestSet, sim_edges: list[float], edit_edges: list[float]) -> dict[str, str]:
    from paraguide.text.edits import edit_rate

    bands = {
        "similarity": _band(item.similarity, sim_edges),
        "edit_rate": _band(edit_rate(item.original, item.paraphrase, ts.lang), edit_edges),
        "source": item.source,
        "step": "unknown" if item.step is None else str(item.step),
        "question_type": question_type(item.original, ts.lang),
    }
    if ts.categories:
        bands["category"] = item.category or "unknown"
    return bands


def _metrics(task: str) -> tuple[str, ...]:
    return ("exact_match", "f1") if task == "qa" else ("accuracy",)


def _qa_item(prediction: str, truths: list[str], lang: str) -> dict[str, float]:
    if not truths:  # SQuAD 2.0 no-answer: only no answer is right
        right = float(normalize_answer(prediction, lang) == "")
        return {"exact_match": right, "f1": right}
    return {"exact_match": exact_match(prediction, truths, lang), "f1": f1(prediction, truths, lang)}


def _evaluate_run(ts: TestSet, original_path: str, paraphrased_path: str, bands: dict, lenient: bool) -> dict:
    """One system's scores on both sets, the drop, DPR and the breakdowns."""
    result: dict = {}
    preds = {}
    for name, path, gold, test_path, other in (
        ("original", original_path, ts.original, ts.original_path, ts.paraphrased),
        ("paraphrased", paraphrased_path, ts.paraphrased, ts.paraphrased_path, ts.original),
    ):
        if ts.task == "qa":
            answers = read_answers(path)
            check_ids(path, answers, gold, test_path, lenient, other)
            preds[name] = answers
            result[name] = squad_scores(answers, gold, ts.lang)
        else:
            labels = read_labels(path, len(gold), test_path, set(gold.values()))
            preds[name] = {str(n): label for n, label in enumerate(labels, start=1)}
            result[name] = classification_scores(labels, list(gold.values()))
            if ts.categories:
                cats = [ts.categories.get(k, "unknown") for k in gold]
                result[name]["categories"] = category_accuracy(labels, list(gold.values()), cats)
    metrics = _metrics(ts.task)
    result["drop"] = {m: result["original"][m] - result["paraphrased"][m] for m in metrics}

    paired = []
    for item in ts.items:
        o, p = preds["original"].get(item.original_id, ""), preds["paraphrased"].get(item.id, "")
        if ts.task == "qa":
            so = _qa_item(o, ts.original[item.original_id], ts.lang)
            sp = _qa_item(p, ts.paraphrased[item.id], ts.lang)
            differ = normalize_answer(o, ts.lang) != normalize_answer(p, ts.lang)
        else:
            so = {"accuracy": float(o == ts.original[item.original_id])}
            sp = {"accuracy": float(p == ts.paraphrased[item.id])}
            differ = o != p
        paired.append((item, so, sp, differ))
    result["dpr"] = _row("all", paired, metrics)["dpr"]
    result["paired"] = _row("all", paired, metrics)
    result["breakdown"] = {}
    for dim in DIMENSIONS:
        groups = defaultdict(list)
        for entry in paired:
            if dim in bands[entry[0].id]:
                groups[bands[entry[0].id][dim]].append(entry)
        if groups:
            result["breakdown"][dim] = [_row(b, groups[b], metrics) for b in _ordered(dim, groups)]
    return result


def _ordered(dim: str, groups: dict) -> list[str]:
    if dim in ("similarity", "edit_rate"):
        # Band labels sort by their lower edge: "< a" first, "a-b" by a, ">= c" last, "unknown" after.
        def key(b: str):
            if b == "unknown":
                return (3, 0.0)
            if b.startswith("<"):
                return (0, 0.0)
            if b.startswith(">="):
                return (2, 0.0)
            return (1, float(b.split("-")[0]))

        return sorted(groups, key=key)
    if dim == "step":
        return sorted(groups, key=lambda b: (b == "unknown", int(b) if b.isdigit() else 0))
    return sorted(groups, key=lambda b: (b in ("unknown", "other"), -len(groups[b]), b))


def _row(band: str, entries: list, metrics: tuple[str, ...]) -> dict:
    n = len(entries)
    original = {m: 100.0 * sum(e[1][m] for e in entries) / n for m in metrics}
    paraphrased = {m: 100.0 * sum(e[2][m] for e in entries) / n for m in metrics}
    return {
        "band": band,
        "total": n,
        "original": original,
        "paraphrased": paraphrased,
        "drop": {m: original[m] - paraphrased[m] for m in metrics},
        "dpr": 100.0 * sum(e[3] for e in entries) / n,
    }


def _plots(out: str, ts: TestSet, results: dict) -> list[str]:
    from paraguide.evaluate.plots import before_after_plot, drop_plot

    Path(out).mkdir(parents=True, exist_ok=True)
    metric = _metrics(ts.task)[-1]  # F1 for QA, accuracy for QM
    written = []
    for dim in results["before"]["breakdown"]:
        name = f"drop_{dim}.png"
        rows = {run: r["breakdown"][dim] for run, r in results.items()}
        drop_plot(Path(out) / name, f"{_NAMES[metric]} drop by {TITLES[dim]}", metric, rows)
        written.append(name)
    if "after" in results:
        before_after_plot(Path(out) / "before_after.png", metric, results)
        written.append("before_after.png")
    return written


def _single(squad: str, predictions: str, lang: str, lenient: bool) -> dict:
    """``--squad FILE --predictions FILE``: EM/F1 of one set alone (the report, not yet written)."""
    references, _ = squad_references(squad)
    answers = read_answers(predictions)
    check_ids(predictions, answers, references, squad, lenient)
    scores = squad_scores(answers, references, lang)
    return {"job": "evaluate", "task": "qa", "lang": lang, "squad": squad, "predictions": predictions,
            "metrics": ["exact_match", "f1"], "results": {"scores": scores}}  # fmt: skip


_NAMES = {"exact_match": "EM", "f1": "F1", "accuracy": "accuracy"}


def format_markdown(report: dict) -> str:
    """``report.md``: the scores, the drop and DPR, and one table (and plot) per breakdown."""
    metrics, results = report["metrics"], report["results"]
    runs = list(results)
    many = len(runs) > 1
    before = results["before"]
    first = next(iter(report["predictions"].values()))
    lines = [
        "# Robustness report",
        "",
        f"Test set `{report['testset']}` ({report['task'].upper()}, {report['lang']}): "
        f"{before['original']['total']} original and {before['paraphrased']['total']} paraphrased "
        f"{'questions' if report['task'] == 'qa' else 'pairs'}. Predictions: `{first['original']}` and "
        f"`{first['paraphrased']}`"
        + (
            f"; after retraining `{report['predictions']['after']['original']}` and "
            f"`{report['predictions']['after']['paraphrased']}`."
            if many
            else "."
        ),  # fmt: skip
        "",
        "## Scores",
        "",
        ("| run " if many else "") + "| set | " + " | ".join(_NAMES[m] for m in metrics) + " | DPR |",
        ("|---" if many else "") + "|---|" + "---:|" * (len(metrics) + 1),
    ]
    for run in runs:
        r = results[run]
        lead = f"| {run} " if many else ""
        for name in ("original", "paraphrased"):
            cells = " | ".join(f"{r[name][m]:.2f}" for m in metrics)
            lines.append(f"{lead}| {name} ({r[name]['total']}) | {cells} | |")
        cells = " | ".join(f"{r['drop'][m]:.2f}" for m in metrics)
        lines.append(f"{lead}| **drop** | {cells} | {r['dpr']:.2f} |")
    if "recovery" in report:
        gains = ", ".join(f"{_NAMES[m]} {v:+.2f}" for m, v in report["recovery"].items())
        lines += ["", f"Recovery on the paraphrased set (after − before): {gains}."]
    for run, hits in report.get("trap_hits", {}).items():
        lines += ["", f"On the trap ({run}): {hits['hits']} of {hits['predicted']} answers on the trap set are "
                      f"the trap's distractor ({hits['rate']:.2f} %); the paraphrased set here is the trap set."]  # fmt: skip
    for run in runs:
        cats = results[run]["original"].get("categories")
        if cats:
            para = results[run]["paraphrased"]["categories"]
            lines += ["", f"Accuracy per category ({run}): micro {cats['micro']:.2f} → {para['micro']:.2f}, "
                          f"macro {cats['macro']:.2f} → {para['macro']:.2f} (original → paraphrased)."]  # fmt: skip
    lines += [
        "",
        "Drop: original minus paraphrased, in points; the set scores are over each whole set, the tables "
        "below over the paraphrased questions paired with their originals. DPR: the share (%) of paraphrased "
        "questions whose normalised prediction differs from the prediction on the original.",
    ]
    if report.get("similarity_score"):
        lines.append(f"Similarity: the build's `{report['similarity_score']}` score.")
    plots = set(report.get("plots", []))
    for dim in before["breakdown"]:
        lines += ["", f"## Drop by {TITLES[dim]}", ""]
        head = [_NAMES[m] + " orig" for m in metrics] + [_NAMES[m] + " para" for m in metrics]
        head += [_NAMES[m] + " drop" for m in metrics] + ["DPR"]
        lines.append(("| run " if many else "") + f"| {TITLES[dim]} | n | " + " | ".join(head) + " |")
        lines.append(("|---" if many else "") + "|---|---:|" + "---:|" * len(head))
        for run in runs:
            for row in results[run]["breakdown"][dim]:
                cells = [row[k][m] for k in ("original", "paraphrased", "drop") for m in metrics] + [
                    row["dpr"]
                ]
                lines.append((f"| {run} " if many else "") + f"| {row['band']} | {row['total']} | "
                             + " | ".join(f"{c:.2f}" for c in cells) + " |")  # fmt: skip
        if f"drop_{dim}.png" in plots:
            lines += ["", f"![drop by {TITLES[dim]}](drop_{dim}.png)"]
    if "before_after.png" in plots:
        lines += ["", "## Before and after retraining", "", "![before and after](before_after.png)"]
    return "\n".join(lines) + "\n"


def summary_line(report: dict) -> str:
    """What the CLI prints: the primary metric on each set, the drop and DPR (per run)."""
    if report["task"] == "qm-suite":
        r = report["results"]
        return (f"accuracy {r['overall']['accuracy']:.2f} on {r['overall']['total']} pairs; per subcategory "
                f"micro {r['subcategory']['micro']:.2f}, macro {r['subcategory']['macro']:.2f}")  # fmt: skip
    if "squad" in report:
        s = report["results"]["scores"]
        return (
            f"EM {s['exact_match']:.2f}, F1 {s['f1']:.2f} on {s['total']} questions ({s['missing']} missing)"
        )
    metric = report["metrics"][-1]
    parts = []
    for run, r in report["results"].items():
        parts.append(f"{run}: {_NAMES[metric]} {r['original'][metric]:.2f} -> {r['paraphrased'][metric]:.2f} "
                     f"(drop {r['drop'][metric]:.2f}), DPR {r['dpr']:.2f} %")  # fmt: skip
        if run in report.get("trap_hits", {}):
            parts[-1] += f", on the trap {report['trap_hits'][run]['rate']:.2f} %"
    return "; ".join(parts)
