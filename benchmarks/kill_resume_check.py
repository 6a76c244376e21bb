"""kill -9 a real build-testset run half-way, resume it, and compare every output file with an uninterrupted
run's (the issue's check on SQuAD dev):

    paraguide build-testset --squad ../shared/data/squad_v1.1/dev-v1.1.json.gz --out runs/build/squad-dev
    python benchmarks/kill_resume_check.py runs/build/squad-dev --after-chunks 60

Runs the reference's input with the same defaults into <reference>-killed, kills it (SIGKILL) once
--after-chunks chunks are on disk, resumes with --resume, then compares. Writes results/kill_resume.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import cpu_model  # benchmarks/machine.py, beside this script

RESULTS = Path(__file__).parent / "results" / "kill_resume.json"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("reference", help="folder of an uninterrupted build-testset run (default options)")
    parser.add_argument("--after-chunks", type=int, default=60, help="kill once this many chunks are done")
    args = parser.parse_args()
    reference = Path(args.reference)
    summary = json.loads((reference / "summary.json").read_text(encoding="utf-8"))
    out = reference.with_name(reference.name + "-killed")
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "paraguide.cli", "build-testset", "--quiet", "--squad", summary["input"]]
    command += ["--out", str(out), "--examples", str(len(summary["examples"]))]
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    started = time.time()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shard = out / "work" / "shard-0.jsonl"
    while process.poll() is None:
        if shard.exists() and shard.read_bytes().count(b'"chunk_done"') >= args.after_chunks:
            break
        time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done_at_kill = shard.read_bytes().count(b'"chunk_done"')
    subprocess.run([*command, "--resume"], env=env, check=True, stdout=subprocess.DEVNULL)
    files = sorted(p.name for p in reference.iterdir() if p.is_file() and p.name != "timing.json")
    identical = {name: (out / name).read_bytes() == (reference / name).read_bytes() for name in files}
    keys = [
        json.loads(line)["result"]["key"]
        for line in shard.read_text(encoding="utf-8").splitlines()
        if '"result"' in line
    ]
    result = {
        "machine": f"{cpu_model()}, {os.cpu_count()} cores",
        "input": os.path.basename(summary["input"]),
        "chunks_done_when_killed": done_at_kill,
        "questions_in_shard": len(keys),
        "distinct_questions_in_shard": len(set(keys)),
        "input_questions": summary["input_questions"],
        "files_identical_to_uninterrupted": identical,
        "all_identical": all(identical.values()),
        "seconds": round(time.time() - started, 1),
    }
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
