"""Record the main job's measured runs: questions/minute, acceptance at each stage, final size.

Run the jobs first (each resumable; add --resume to continue one), then this script on their folders:

    paraguide build-testset --squad ../shared/data/squad_v1.1/dev-v1.1.json.gz --out runs/build/squad-dev
    paraguide build-testset --squad ../shared/data/dureader_robust/dev.json --lang zh --out runs/build/dureader-dev
    paraguide augment --squad ../shared/data/squad_v1.1/train-v1.1.reconstructed.json.gz --mode ppdb \
        --n 25000 --out runs/build/squad-train-aug
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
        "input_check": {k: v for k, v in summary["input_check"].items() if k != "located_examples"},
        "timing": timing,
        "note": "timing covers the last invocation; a resumed run's timing covers only what it did",
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
        results["runs"][folder.name] = record(folder)
        print(f"\n== {folder.name}: {results['runs'][folder.name]['selected']} selected")
        for original, paraphrase, suggestion in examples(folder):
            print(f"  {original}\n    -> {paraphrase}  [{suggestion}]")
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main(sys.argv[1:])
