#!/usr/bin/env python
"""How `paraguide prepare` uses the CPU cores: the same corpus with 1 worker and with every core, same
run, and the outputs compared byte for byte.

    NLTK_DATA=../shared/data/nltk_data python benchmarks/prepare_workers.py \
        --pairs ../shared/data/quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz --lang en

Writes benchmarks/results/prepare_workers_<lang>.json with the machine, the method and the times.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from machine import cpu_model  # benchmarks/machine.py, beside this script

from paraguide.pipeline.prepare import PrepareConfig, output_paths, prepare


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--lang", default="en")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    runs, outputs = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (1, cores):
            out = Path(tmp) / f"w{workers}" / "train.jsonl"
            start = time.perf_counter()
            report = prepare(
                [args.pairs], out, PrepareConfig(lang=args.lang, workers=workers), progress=False
            )
            runs[workers] = round(time.perf_counter() - start, 1)
            outputs[workers] = out.read_bytes() + output_paths(out)["heldout"].read_bytes()
    result = {
        "what": "paraguide prepare, TextRank suggestions, default settings",
        "corpus": args.pairs,
        "pairs_in": report["pair_filters"][0]["in"],
        "examples_out": report["examples"]["train"]["count"] + report["examples"]["heldout"]["count"],
        "machine": {"cpu": cpu_model(), "cores": cores, "python": platform.python_version()},
        "method": "wall time of prepare() in one process, 1 worker then all cores, one run each, same run",
        "seconds": {f"{w} worker(s)": s for w, s in runs.items()},
        "speedup": round(runs[1] / runs[cores], 2),
        "identical_outputs": outputs[1] == outputs[cores],
    }
    dest = Path(__file__).parent / "results" / f"prepare_workers_{args.lang}.json"
    dest.parent.mkdir(exist_ok=True)
    dest.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
