"""The recorded QA experiment's table, in Gan & Ng's layout (their Tables 1-6): EM/F1 of the model trained on
the original sample and on the augmented one (and, where CONTROL=1 ran, on the original sample for as many
steps as the augmented run), on SQuAD dev and on each test set's original and paraphrased
questions, with the drop and the different-prediction ratio; mean and spread (sample standard deviation)
over the seeds run so far. Reads the run folders qa_squad.sh (or qa_dureader.sh: DuReader-robust dev) wrote.

A QM folder (one data set of qm_pairs.sh: qm-original-SEED/, qm-augmented-SEED/, report-SEED/) gives the
QM table instead: accuracy and F1 on the full test set, on the paraphrased set's original and paraphrased
pairs, the drop (accuracy) and the different-prediction ratio. The kind is read from the folder (--kind
to force it).

    python recipes/experiments/collect.py runs/exp/qa-en [--json benchmarks/results/experiment_qa_en.json]
    python recipes/experiments/collect.py runs/exp/qm/lcqmc [--json benchmarks/results/experiment_qm_lcqmc.json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path

KINDS = ("para", "rewrite", "adv")  # qa_squad.sh's test sets: substitute, --preset paraphrase, --adversarial
SETS = ("dev", *(f"{kind}-{side}" for kind in KINDS for side in ("original", "paraphrased")))
TITLES = {"para": "paraphrased set", "rewrite": "rewritten set", "adv": "adversarial set"}
QM_SETS = ("test", "original", "paraphrased", "rewrite-original", "rewrite-paraphrased")
QM_METRICS = ("accuracy", "f1")


def spread(values: list[float]) -> dict:
    """Mean and sample standard deviation (0 for one seed) of a list of percentages."""
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return {"mean": round(statistics.fmean(values), 2), "sd": round(sd, 2), "n": len(values)}


def dprs(out: Path, folder: str, seeds: list[int], when: str) -> list[float]:
    """The different-prediction ratio (``when``: before or after retraining) of each seed's ``paraguide
    evaluate`` report in OUT/FOLDER-SEED, for the seeds that have one."""
    files = (out / f"{folder}-{s}" / "report.json" for s in seeds)
    return [json.loads(f.read_text())["results"][when]["dpr"] for f in files if f.exists()]


def collect(out: Path) -> dict:
    runs: dict[str, dict[int, dict]] = {"original": {}, "augmented": {}, "control": {}}
    for folder in sorted(out.glob("qa-*-*")):
        match = re.fullmatch(r"qa-(original|augmented|control)-(\d+)", folder.name)
        if match and (folder / "all_results.json").exists():
            runs[match[1]][int(match[2])] = json.loads((folder / "all_results.json").read_text())
    seeds = sorted(set(runs["original"]) & set(runs["augmented"]))
    table: dict = {"seeds": seeds, "training": {}}
    # the control row only when every seed of the table has one: its mean is over the same seeds
    kinds = (
        ("original", "augmented", "control")
        if seeds and set(seeds) <= set(runs["control"])
        else ("original", "augmented")
    )
    for data in kinds:
        row = {}
        for name in SETS:
            scores = [runs[data][s]["test"][name] for s in seeds if name in runs[data][s]["test"]]
            if scores:
                row[name] = {m: spread([x[m] for x in scores]) for m in ("exact_match", "f1")}
        for kind in KINDS:
            pairs = [(runs[data][s]["test"].get(f"{kind}-original"), runs[data][s]["test"].get(f"{kind}-paraphrased"))
                     for s in seeds]  # fmt: skip
            drops = [o["f1"] - p["f1"] for o, p in pairs if o and p]
            if drops:
                row[f"{kind}-drop-f1"] = spread(drops)
        table["training"][data] = row
    dpr = {}
    for kind in KINDS:
        for when in ("before", "after"):
            if values := dprs(out, f"report-{kind}", seeds, when):
                dpr[f"{kind}-{when}"] = spread(values)
        # the control's report has no retraining: its one DPR is "before"; shown only over the table's seeds
        if "control" in kinds and len(values := dprs(out, f"report-{kind}-control", seeds, "before")) == len(
            seeds
        ):
            dpr[f"{kind}-control"] = spread(values)
    table["dpr"] = dpr
    if common := collect_common(out, seeds, kinds):
        table["same_originals"] = common
    if trap := collect_traps(out, seeds, kinds):
        table["trap"] = trap
    if seeds:
        first = runs["original"][seeds[0]]
        table["setup"] = {k: first.get(k) for k in ("base_model", "lang")} | {
            "train_questions": first["train"]["questions"],
            "augmented_train_questions": runs["augmented"][seeds[0]]["train"]["questions"],
            "epochs": first["train"]["epochs"],
            "steps": {data: runs[data][seeds[0]]["train"]["steps"] for data in kinds},
            "dev_questions": first["test"].get("dev", {}).get("total"),
        }
    return table


def collect_common(out: Path, seeds: list[int], kinds: tuple[str, ...]) -> dict:
    """F1 on the questions both the paraphrased set (one-word swaps) and the rewritten set (--preset
    paraphrase) hold, each asked three ways -- the original, its swap, its rewrite -- so the two sets' drops
    are measured on the same originals; from each run's predictions and the sets' original.json (gold
    answers). Empty unless both sets were scored."""
    from paraguide.evaluate.metrics import squad_scores

    if not all((out / kind / "original.json").exists() for kind in ("para", "rewrite")):
        return {}
    gold = {}
    for kind in ("para", "rewrite"):
        data = json.loads((out / kind / "original.json").read_text(encoding="utf-8"))["data"]
        gold[kind] = {q["id"]: [a["text"] for a in q["answers"]] for a in data for p in a["paragraphs"]
                      for q in p["qas"]}  # fmt: skip
    ids = sorted(set(gold["para"]) & set(gold["rewrite"]))
    refs = {i: gold["para"][i] for i in ids}
    # paraphrased ids are the original's with a suffix (id_map.json): each set's paraphrase id of every original
    paraphrase_id = {
        kind: {o: p for p, o in json.loads((out / kind / "id_map.json").read_text(encoding="utf-8")).items()}
        for kind in ("para", "rewrite")
    }
    rows: dict = {"questions": len(ids)}
    for data in kinds:
        scores: dict[str, list[float]] = {"original": [], "swap": [], "rewrite": []}
        for s in seeds:
            run = out / f"qa-{data}-{s}"
            read = {name: json.loads((run / f"predictions_{name}.json").read_text(encoding="utf-8"))
                    for name in ("para-original", "para-paraphrased", "rewrite-paraphrased")}  # fmt: skip
            asked = {
                "original": {i: read["para-original"][i] for i in ids},
                "swap": {i: read["para-paraphrased"][paraphrase_id["para"][i]] for i in ids},
                "rewrite": {i: read["rewrite-paraphrased"][paraphrase_id["rewrite"][i]] for i in ids},
            }
            for way, predictions in asked.items():
                scores[way].append(squad_scores(predictions, refs)["f1"])
        if scores["original"]:
            rows[data] = {k: spread(v) for k, v in scores.items()} | {
                f"{k}-drop": spread([o - x for o, x in zip(scores["original"], scores[k], strict=True)])
                for k in ("swap", "rewrite")
            }
    return rows


def collect_traps(out: Path, seeds: list[int], kinds: tuple[str, ...]) -> dict:
    """The over-stability rows (qa_traps.sh's trap-DATA-SEED runs and report-trap[-control]-SEED reports):
    EM/F1 on the trap questions with their original passages and with the trap, the drop, and the share of
    answers that are the trap's distractor; a row only when every seed of the main table has one."""
    rows = {}
    for data in kinds:
        files = [out / f"trap-{data}-{s}" / "all_results.json" for s in seeds]
        if not seeds or not all(f.exists() for f in files):
            continue
        tests = [json.loads(f.read_text())["test"] for f in files]
        row: dict = {name: {m: spread([t[name][m] for t in tests]) for m in ("exact_match", "f1")}
                     for name in ("trap-original", "trap")}  # fmt: skip
        row["drop-f1"] = spread([t["trap-original"]["f1"] - t["trap"]["f1"] for t in tests])
        row["questions"] = tests[0]["trap"]["total"]
        report, when = {"original": ("report-trap", "before"), "augmented": ("report-trap", "after"),
                        "control": ("report-trap-control", "before")}[data]  # fmt: skip
        reports = [out / f"{report}-{s}" / "report.json" for s in seeds]
        if all(r.exists() for r in reports):
            rates = [json.loads(r.read_text())["trap_hits"][when]["rate"] for r in reports]
            row["on-distractor"] = spread(rates)
        rows[data] = row
    return rows


def markdown(table: dict) -> str:
    def cell(row: dict, name: str, metric: str = "f1") -> str:
        if name not in row:
            return "–"
        v = row[name][metric] if metric in row[name] else row[name]
        return f"{v['mean']:.2f} ± {v['sd']:.2f}"

    setup = table.get("setup", {})
    dev_name = "DuReader-robust dev" if setup.get("lang") == "zh" else "SQuAD dev"
    if setup.get("dev_questions"):
        dev_name += f" ({setup['dev_questions']:,} q.)"
    # the paraphrased and adversarial columns always (the recorded layout), the rewritten set's where it ran
    shown = [
        k for k in KINDS if k != "rewrite" or any(f"{k}-original" in r for r in table["training"].values())
    ]
    head = f"| training data | {dev_name} EM / F1 | " + " | ".join(
        f"{TITLES[k]}: original F1 | {TITLES[k].split()[0]} F1 | drop" for k in shown) + " |"  # fmt: skip
    lines = [f"seeds: {', '.join(map(str, table['seeds'])) or 'none finished'}", "", head,
             "|---" * (2 + 3 * len(shown)) + "|"]  # fmt: skip
    label = {"control": "original, as many steps as augmented"}
    for data, row in table["training"].items():
        dev = f"{cell(row, 'dev', 'exact_match')} / {cell(row, 'dev')}"
        cells = [f"{cell(row, f'{k}-original')} | {cell(row, f'{k}-paraphrased')} | {cell(row, f'{k}-drop-f1')}"
                 for k in shown]  # fmt: skip
        lines.append(f"| {label.get(data, data)} | {dev} | " + " | ".join(cells) + " |")
    if common := table.get("same_originals"):
        lines += three_ways(common, "questions", "F1")
    if table["dpr"]:
        lines += ["", "different-prediction ratio (%): " + ", ".join(
            f"{k} {v['mean']:.2f} ± {v['sd']:.2f}" for k, v in table["dpr"].items())]  # fmt: skip
    if table.get("trap"):
        questions = next(iter(table["trap"].values()))["questions"]
        lines += ["", f"trap set ({questions:,} questions, `perturb --trap`):", "",
                  "| training data | original passage EM / F1 | with the trap EM / F1 | drop F1 | "
                  "answer is the trap's distractor (%) |", "|---" * 5 + "|"]  # fmt: skip
        for data, row in table["trap"].items():
            lines.append(
                f"| {label.get(data, data)} | {cell(row, 'trap-original', 'exact_match')} / {cell(row, 'trap-original')} "
                f"| {cell(row, 'trap', 'exact_match')} / {cell(row, 'trap')} | {cell(row, 'drop-f1')} | "
                f"{cell(row, 'on-distractor')} |"
            )
    return "\n".join(lines)


def collect_qm(out: Path) -> dict:
    """The QM table of one data set's folder (qm_pairs.sh's OUT/NAME): per training (original, augmented,
    and the same-steps control where every seed has one) accuracy / F1 on the test set and on each test set's
    original and paraphrased pairs (para/: PRESET's, rewrite/: REWRITE=1's), the drops and the DPR; with both
    sets, accuracy on the pairs both hold, asked three ways."""
    runs: dict[str, dict[int, dict]] = {"original": {}, "augmented": {}, "control": {}}
    for folder in sorted(out.glob("qm-*-*")):
        match = re.fullmatch(r"qm-(original|augmented|control)-(\d+)", folder.name)
        if match and (folder / "all_results.json").exists():
            runs[match[1]][int(match[2])] = json.loads((folder / "all_results.json").read_text())
    seeds = sorted(set(runs["original"]) & set(runs["augmented"]))
    kinds = (
        ("original", "augmented", "control")
        if seeds and set(seeds) <= set(runs["control"])
        else ("original", "augmented")
    )
    table: dict = {"kind": "qm", "seeds": seeds, "training": {}}
    for data in kinds:
        row = {}
        for name in QM_SETS:
            scores = [runs[data][s]["test"][name] for s in seeds if name in runs[data][s]["test"]]
            if scores:
                row[name] = {m: spread([x[m] for x in scores]) for m in QM_METRICS}
        for prefix in ("", "rewrite-"):  # para/ then rewrite/
            tests = [runs[data][s]["test"] for s in seeds]
            tests = [t for t in tests if {f"{prefix}original", f"{prefix}paraphrased"} <= set(t)]
            if tests:
                row[f"{prefix}drop"] = {m: spread([t[f"{prefix}original"][m] - t[f"{prefix}paraphrased"][m]
                                                   for t in tests]) for m in QM_METRICS}  # fmt: skip
            # evaluate's reports: report[-rewrite]-SEED (before/after retraining), report[-rewrite]-control-SEED
            report = "report" + ("-rewrite" if prefix else "") + ("-control" if data == "control" else "")
            when = "after" if data == "augmented" else "before"
            if len(dpr := dprs(out, report, seeds, when)) == len(seeds):
                row[f"{prefix}dpr"] = spread(dpr)
        table["training"][data] = row
    if common := collect_qm_common(out, seeds, kinds):
        table["same_originals"] = common
    if seeds:
        first = runs["original"][seeds[0]]
        table["setup"] = {
            "model": first.get("model"),
            "train_pairs": first.get("train_samples"),
            "augmented_train_pairs": runs["augmented"][seeds[0]].get("train_samples"),
            "epochs": first.get("epochs"),
            "steps": {data: runs[data][seeds[0]].get("steps") for data in kinds},
            "test_pairs": first["test"].get("test", {}).get("total"),
            "paraphrased_pairs": first["test"].get("paraphrased", {}).get("total"),
            "rewritten_pairs": first["test"].get("rewrite-paraphrased", {}).get("total"),
        }
    return table


def collect_qm_common(out: Path, seeds: list[int], kinds: tuple[str, ...]) -> dict:
    """Accuracy on the pairs both the paraphrased set (para/) and the rewritten set (rewrite/) hold, each
    asked three ways -- the original, the swap, the rewrite -- from each run's predictions_NAME.tsv (one label
    a line) and the sets' original.tsv (gold labels, last column); pairs are matched by the input line
    id_map.json gives each. Empty unless both sets were scored."""
    sets = ("para", "rewrite")
    if not all((out / kind / "id_map.json").exists() for kind in sets):
        return {}
    # id_map.json: line of the set's files (from 1) -> line of the input both sets were built from
    line_of = {kind: {int(v): int(k) - 1 for k, v in json.loads((out / kind / "id_map.json").read_text()).items()}
               for kind in sets}  # fmt: skip
    common = sorted(set(line_of["para"]) & set(line_of["rewrite"]))
    gold_lines = (out / "para" / "original.tsv").read_text(encoding="utf-8").splitlines()
    gold = [gold_lines[line_of["para"][i]].rsplit("\t", 1)[-1] for i in common]
    files = {"original": "original", "swap": "paraphrased", "rewrite": "rewrite-paraphrased"}  # way -> NAME
    rows: dict = {"pairs": len(common)}
    for data in kinds:
        runs = [out / f"qm-{data}-{s}" for s in seeds]
        if not common or not all((r / f"predictions_{f}.tsv").exists() for r in runs for f in files.values()):
            continue
        scores: dict[str, list[float]] = {way: [] for way in files}
        for run in runs:
            for way, name in files.items():
                predicted = (run / f"predictions_{name}.tsv").read_text(encoding="utf-8").splitlines()
                at = line_of["rewrite" if way == "rewrite" else "para"]
                right = sum(predicted[at[i]] == g for i, g in zip(common, gold, strict=True))
                scores[way].append(100.0 * right / len(common))
        rows[data] = {k: spread(v) for k, v in scores.items()} | {
            f"{k}-drop": spread([o - x for o, x in zip(scores["original"], scores[k], strict=True)])
            for k in ("swap", "rewrite")
        }
    return rows if len(rows) > 1 else {}


def three_ways(common: dict, unit: str, metric: str) -> list[str]:
    """The table of the same originals asked three ways (collect_common, collect_qm_common): ``unit`` is the
    key of their count (questions, pairs), ``metric`` what the cells are."""
    label = {"control": "original, as many steps as augmented"}
    lines = ["", f"the same {common[unit]:,} original {unit}, asked three ways ({metric}):", "",
             "| training data | original | one-word swap | drop | rewrite | drop |", "|---" * 6 + "|"]  # fmt: skip
    for data, row in common.items():
        if data != unit:
            cells = (f"{row[k]['mean']:.2f} ± {row[k]['sd']:.2f}"
                     for k in ("original", "swap", "swap-drop", "rewrite", "rewrite-drop"))  # fmt: skip
            lines.append(f"| {label.get(data, data)} | " + " | ".join(cells) + " |")
    return lines


def markdown_qm(table: dict) -> str:
    def cell(row: dict, name: str, metric: str) -> str:
        if name not in row:
            return "–"
        v = row[name][metric] if metric in row[name] else row[name]
        return f"{v['mean']:.2f} ± {v['sd']:.2f}"

    label = {"control": "original, as many steps as augmented"}
    lines = [f"seeds: {', '.join(map(str, table['seeds'])) or 'none finished'}"]
    rewritten = any("rewrite-original" in row for row in table["training"].values())
    for prefix, title in (("", "paraphrased set"), ("rewrite-", "rewritten set"))[: 1 + rewritten]:
        head = (f"| training data | test acc / F1 | {title}: original acc / F1 | {title.split()[0]} acc / F1 | "
                "drop acc / F1 | DPR (%) |")  # fmt: skip
        lines += ["", head, "|---" * 6 + "|"]
        for data, row in table["training"].items():
            names = ("test", f"{prefix}original", f"{prefix}paraphrased", f"{prefix}drop")
            pair = [f"{cell(row, n, 'accuracy')} / {cell(row, n, 'f1')}" for n in names]
            lines.append(
                f"| {label.get(data, data)} | {' | '.join(pair)} | {cell(row, f'{prefix}dpr', 'dpr')} |"
            )
    if common := table.get("same_originals"):
        lines += three_ways(common, "pairs", "accuracy")
    return "\n".join(lines)


def kind_of(out: Path) -> str:
    """qm when the folder holds qm_pairs.sh's runs, else qa."""
    return "qm" if any(out.glob("qm-*-*")) and not any(out.glob("qa-*-*")) else "qa"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "out", help="the experiment's folder (qa_squad.sh's or qa_dureader.sh's OUT, qm_pairs.sh's OUT/NAME)"
    )
    parser.add_argument("--kind", choices=("qa", "qm"), help="the folder's kind (default: read from it)")
    parser.add_argument("--json", help="also write the table as JSON here")
    args = parser.parse_args()
    out = Path(args.out)
    kind = args.kind or kind_of(out)
    table = collect(out) if kind == "qa" else collect_qm(out)
    if args.json:
        Path(args.json).write_text(json.dumps(table, indent=2) + "\n")
    print(markdown(table) if kind == "qa" else markdown_qm(table))


if __name__ == "__main__":
    main()
