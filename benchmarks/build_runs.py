"""Record the main job's measured runs: questions/minute, acceptance at each stage, final size.

Run the jobs first (each resumable; add --resume to continue one), then this script on their folders:

    paraguide build-testset --squad ../shared/data/squad_v1.1/dev-v1.1.json.gz --out runs/build/squad-dev
    paraguide build-testset --squad ../shared/data/dureader_robust/dev.json --lang zh --out runs/build/dureader-dev
    paraguide augment --squad ../shared/data/squad_v1.1/train-v1.1.reconstructed.json.gz --mode ppdb \
        --n 25000 --top-k 5 --per-question 3 --out runs/build/squad-train-aug
    python benchmarks/build_runs.py runs/build/squad-dev runs/build/dureader-dev runs/build/squad-train-aug

Writes benchmarks/results/build_runs.json (counts, funnel, timing, machine) and prints 20 random
before/after examples of each run (seeded). The examples are dataset excerpts, so they are printed, not
committed: the command shows them again.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))  # paraguide itself, also from a checkout not installed
from machine import cpu_model  # benchmarks/machine.py, beside this script

RESULTS = Path(__file__).parent / "results" / "build_runs.json"


def record(folder: Path) -> dict:
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    timing = json.loads((folder / "timing.json").read_text(encoding="utf-8"))
    return {
        "run": folder.name,
        "job": summary["job"],
        "input": os.path.basename(summary["input"]),
        "input_questions": summary["input_questions"],
        "selected": summary["selected"],
        "written": summary["written"],
        "acceptance": summary["acceptance"],
        "fell_out": summary["fell_out"],
        "reached": summary["reached"],
        "candidates": summary["candidates"],
        "components": {k: v for k, v in summary["components"].items() if k != "model"}
        | {"model": Path(summary["components"]["model"]).name},
        "input_check": {  # the counts, not the lists of every repaired answer and skipped record
            k: v for k, v in summary["input_check"].items() if k not in ("repaired_answers", "skipped")
        },
        "timing": timing,
        "note": "timing covers the last invocation; a resumed run's timing covers only what it did",
    }


def official_style_load(path: Path) -> dict[str, list[str]]:
    """What SQuAD's official evaluate-v1.1.py reads: data -> paragraphs -> qas -> id, answers[].text."""
    dataset = json.loads(path.read_text(encoding="utf-8"))["data"]
    return {
        qa["id"]: [a["text"] for a in qa["answers"]]
        for article in dataset
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    }


def _run_files(folder: Path) -> tuple[dict, dict, dict]:
    """A finished run's summary, its source records by id, and its id map (new id -> source id)."""
    from paraguide.data.squad import SquadReader

    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    source = {r["id"]: r for r in SquadReader(summary["input"])}
    id_map = json.loads((folder / "id_map.json").read_text(encoding="utf-8"))
    return summary, source, id_map


def _same_context_and_answers(records: list[dict], source: dict, id_map: dict) -> bool:
    """Every paraphrased record has its source question's context and answers, unchanged."""
    return all(
        r["context"] == source[id_map[r["id"]]]["context"]
        and r["answers"] == source[id_map[r["id"]]]["answers"]
        for r in records
    )


def check_testset(folder: Path) -> dict:
    """The issue's checks on a SQuAD test set: contexts and answers identical to the source's, ids unique,
    counts adding up to the input, both files loadable the way the official evaluator loads them."""
    from paraguide.data.squad import SquadReader

    summary, source, id_map = _run_files(folder)
    para, orig = list(SquadReader(folder / "paraphrased.json")), list(SquadReader(folder / "original.json"))
    same = _same_context_and_answers(para, source, id_map)
    originals_same = all(
        {k: v for k, v in o.items() if not k.endswith("_index")}
        == {k: v for k, v in source[o["id"]].items() if not k.endswith("_index")}
        for o in orig
    )
    accounting = (folder / "accounting.jsonl").read_text(encoding="utf-8").splitlines()
    loaded_para, loaded_orig = (
        official_style_load(folder / "paraphrased.json"),
        official_style_load(folder / "original.json"),
    )
    return {
        "contexts_and_answers_identical": same,
        "originals_identical": originals_same,
        "ids_unique": len({p["id"] for p in para} | set(source)) == len(para) + len(source),
        "counts_add_up": sum(summary["fell_out"].values()) + summary["selected"]
        == summary["input_questions"]
        == len(source)
        == len(accounting),
        "official_style_load": len(loaded_para) == len(loaded_orig) == len(para),
    }


def check_augmented(folder: Path) -> dict:
    """An augmented SQuAD training set: every original kept, ids unique, each paraphrase's context and
    answers identical to its original's."""
    from paraguide.data.squad import SquadReader

    _, source, id_map = _run_files(folder)
    out = list(SquadReader(folder / "train.json"))
    added = [r for r in out if r["id"] in id_map]
    return {
        "records": len(out),
        "ids_unique": len({r["id"] for r in out}) == len(out),
        "originals_kept": sum(r["id"] in source for r in out) == len(source),
        "paraphrases_added": len(added),
        "contexts_and_answers_identical": _same_context_and_answers(added, source, id_map),
    }


def partial(folder: Path) -> dict:
    """An unfinished run (no summary yet): what its shards hold so far."""
    from paraguide.pipeline.augment import paraphrase_count
    from paraguide.pipeline.records import Outcome
    from paraguide.pipeline.shards import read_done

    config = json.loads((folder / "work" / "run.json").read_text(encoding="utf-8"))["config"]
    done = read_done(folder / "work")
    outcomes = [o for chunk in done.values() for o in chunk]
    selected = [o for o in outcomes if o["status"] == "selected"]
    paraphrases = paraphrase_count([Outcome.from_json(o) for o in outcomes], config.get("per_question", 1))
    return {
        "run": folder.name,
        "complete": False,
        "input": os.path.basename(config["input"]["path"]),
        "options": {
            k: config[k] for k in ("mode", "n", "top_k", "per_question", "source", "threshold", "use")
        },
        "chunks_done": len(done),
        "questions_processed": len(outcomes),
        "questions_selected": len(selected),
        "paraphrases_available": paraphrases,
        "paraphrases_per_processed_question": round(paraphrases / max(1, len(outcomes)), 4),
    }


def examples(folder: Path, k: int = 20, seed: int = 0) -> list[tuple[str, str, str]]:
    rows = [json.loads(x) for x in (folder / "provenance.jsonl").read_text(encoding="utf-8").splitlines()]
    picked = random.Random(seed).sample(rows, min(k, len(rows)))
    return [(r["original"], r["paraphrase"], r["suggestion"]) for r in picked]


def main(folders: list[str]) -> None:
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"runs": {}}
    results["machine"] = f"{cpu_model()}, {os.cpu_count()} cores"
    for name in folders:
        folder = Path(name)
        if not (folder / "summary.json").exists():
            results["runs"][folder.name] = partial(folder)
            print(folder.name, json.dumps(results["runs"][folder.name], indent=1))
            continue
        earlier = results["runs"].get(folder.name, {}).get("timing", {})
        results["runs"][folder.name] = run = record(folder)
        if "segments" in earlier:  # a run made in several stretches: their timings, recorded by hand
            run["timing"] = earlier
            run.pop("note")
        if run["job"] == "augment":
            run["acceptance_of_processed"] = round(run["selected"] / max(1, run["reached"]["suggestion"]), 4)
        if (folder / "paraphrased.json").exists():
            run["checks"] = check_testset(folder)
            print(folder.name, run["checks"])
        elif (folder / "train.json").exists():
            run["checks"] = check_augmented(folder)
            print(folder.name, run["checks"])
        print(f"\n== {folder.name}: {results['runs'][folder.name]['selected']} selected")
        for original, paraphrase, suggestion in examples(folder):
            print(f"  {original}\n    -> {paraphrase}  [{suggestion}]")
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main(sys.argv[1:])
