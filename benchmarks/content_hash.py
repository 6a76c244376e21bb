#!/usr/bin/env python
"""How long a run's content identity takes: the SHA-256 of every file a run reads (paraguide.data.fingerprint),
computed at every start and every --resume, never cached across processes. Measured on the largest inputs a
run meets: a 20-million-rule PPDB file (the synthetic one of benchmarks/ppdb_xl.py, generated if absent), SQuAD
train, the bundled paraphraser and embedding model folders, and every file of the default English test-set
run (what ``build-testset`` records in run.json).

Each is hashed in a fresh process, three times; the median is reported, and the file is read once before, so
the figure is for a file in the page cache (a first read from disk adds the disk's read time, which any run
pays anyway when it reads the file). The peer, side by side: coreutils' ``sha256sum`` on the same files
(a folder: ``find -type f | xargs sha256sum``), timed the same way, whole command included; the ratio is
sha256sum's time over paraguide's (> 1: paraguide faster).

    python benchmarks/content_hash.py [--rules 20000000] [--work .bench/ppdb]

Writes benchmarks/results/content_hash.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import cpu_model  # benchmarks/machine.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
RESULTS = Path(__file__).parent / "results" / "content_hash.json"

TIME_ONE = """
import json, sys, time
from paraguide.data.fingerprint import fingerprint
started = time.perf_counter()
record = fingerprint(sys.argv[1])
print(json.dumps({"seconds": time.perf_counter() - started, "bytes": record["bytes"]}))
"""

TIME_RUN = """
import json, time
from paraguide.data.fingerprint import fingerprints
from paraguide.pipeline.components import load_generator
from paraguide.pipeline.config import BuildConfig
config = BuildConfig(squad=%r, out="unused")
config.check()
files = {"input": config.squad, **load_generator(config).files}
started = time.perf_counter()
records = fingerprints(files)
print(json.dumps({"seconds": time.perf_counter() - started, "bytes": sum(r["bytes"] for r in records.values()),
                  "files": sorted(files)}))
"""


def timed(script: str, *args: str, repeat: int = 3) -> dict:
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True
        )
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    seconds = statistics.median(r["seconds"] for r in runs)
    return {**runs[0], "seconds": round(seconds, 3), "mb_per_s": round(runs[0]["bytes"] / 2**20 / seconds)}


def timed_sha256sum(path: Path, repeat: int = 3) -> float:
    files = [str(path)] if path.is_file() else sorted(str(f) for f in path.rglob("*") if f.is_file())
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(["sha256sum", *files], capture_output=True, check=True)
        runs.append(time.perf_counter() - started)
    return round(statistics.median(runs), 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", type=int, default=20_000_000)
    ap.add_argument("--work", default=str(ROOT / ".bench" / "ppdb"))
    args = ap.parse_args()
    ppdb = Path(args.work) / f"ppdb-synthetic-{args.rules}.gz"
    if not ppdb.exists():
        from ppdb_xl import generate, squad_questions

        ppdb.parent.mkdir(parents=True, exist_ok=True)
        generate(ppdb, args.rules, squad_questions(str(SHARED / "squad_v1.1" / "dev-v1.1.json.gz")))
    from paraguide.model.paraphraser import default_model_path
    from paraguide.score.embedding import default_model_path as embedding_path

    targets = {
        f"ppdb_{args.rules // 1_000_000}m_rules": ppdb,
        "squad_train": SHARED / "squad_v1.1" / "train-v1.1.reconstructed.json.gz",
        "paraphraser_en_folder": Path(default_model_path("en")),
        "embedding_model_folder": Path(embedding_path()),
    }
    record = {
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version()},
        "method": __doc__.split("    python benchmarks")[0].strip(),
        "command": "python benchmarks/content_hash.py " + " ".join(sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d"),
        "files": {},
    }
    for name, path in targets.items():
        for f in [path] if path.is_file() else path.rglob("*"):
            if f.is_file():
                f.read_bytes()  # in the page cache, as said in the method
        ours = timed(TIME_ONE, str(path))
        peer = timed_sha256sum(path)
        record["files"][name] = {"path": str(path), **ours, "sha256sum_seconds": peer,
                                 "ratio_vs_sha256sum": round(peer / ours["seconds"], 2)}  # fmt: skip
    record["default_testset_run"] = timed(TIME_RUN % str(SHARED / "squad_v1.1" / "dev-v1.1.json.gz"))
    RESULTS.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record, indent=2))


if __name__ == "__main__":
    main()
