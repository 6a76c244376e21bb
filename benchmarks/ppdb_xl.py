#!/usr/bin/env python
"""PPDB at XL size: full PPDB 2.0 is not available here, so a synthetic rule file of realistic shape is
generated -- N rules (default 20 million, the order of PPDB 2.0 XL), phrases of 1-6 tokens with PPDB's
skew towards short ones (lexical 1:1 rules most common), Zipf-distributed words from NLTK's English word
list plus the real question words of SQuAD dev (so that queries hit), PPDB2.0Score features, alignments and
entailment labels -- then paraguide's index is built from it and SQuAD dev questions are queried.

Measured: file size, index build time, index size, peak RSS of the build and of the query process,
questions/s of ``PPDB.suggest`` (batches of 1,000, the 10 best suggestions each as ``paraguide suggest``
gives by default, after a warm-up batch) in one process, and in ``--processes`` processes (default: one per
core) each answering every N-th question, started together (the way the builders split questions under
``accelerate launch``). Goals: build ≤ 10 min, RSS < 1 GB, ≥ 10k questions/s.

    NLTK_DATA=../shared/data/nltk_data python benchmarks/ppdb_xl.py [--rules 20000000] [--work .bench/ppdb]

Writes benchmarks/results/ppdb_xl.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import os
import platform
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from machine import cpu_model  # benchmarks/machine.py, beside this script

ROOT = Path(__file__).resolve().parents[1]
LENGTHS = [1] * 40 + [2] * 30 + [3] * 15 + [4] * 8 + [5] * 4 + [6] * 3
RELATIONS = (
    ["Equivalence"] * 5
    + ["ForwardEntailment"] * 2
    + ["ReverseEntailment"] * 2
    + ["OtherRelated", "Independent", "Exclusion"]
)  # noqa: E501


def squad_questions(path: str) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    return [qa["question"].strip() for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]]


def generate(path: Path, n: int, questions: list[str], seed: int = 13) -> None:
    from nltk.corpus import words

    from paraguide.text.tokenize import tokenize

    rng = random.Random(seed)
    vocab = list(
        dict.fromkeys(
            [w.lower() for q in questions for w in tokenize(q, "en")] + [w.lower() for w in words.words("en")]
        )
    )
    rng.shuffle(vocab)
    weights = [1 / (rank + 10) for rank in range(len(vocab))]  # Zipf-like
    cum = list(__import__("itertools").accumulate(weights))
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as f:
        block = 100_000
        for start in range(0, n, block):
            size = min(block, n - start)
            lengths = rng.choices(LENGTHS, k=2 * size)
            tokens = rng.choices(vocab, cum_weights=cum, k=sum(lengths))
            lines, pos = [], 0
            for i in range(size):
                la, lb = lengths[2 * i], lengths[2 * i + 1]
                a = " ".join(tokens[pos : pos + la])
                b = " ".join(tokens[pos + la : pos + la + lb])
                pos += la + lb
                score = rng.random() * 5
                align = " ".join(f"{k}-{k}" for k in range(min(la, lb)))
                lines.append(
                    f"[X] ||| {a} ||| {b} ||| PPDB2.0Score={score:.4f} PPDB1.0Score={score * 2:.3f} ||| {align} ||| {rng.choice(RELATIONS)}\n"
                )  # noqa: E501
            f.write("".join(lines))


def _query_shard(source, index, questions, rank, world, barrier, out) -> None:
    from paraguide.suggest.ppdb import PPDB

    ppdb = PPDB(source, index=index, progress=False)
    mine = questions[rank::world]
    ppdb.suggest(mine[:1000], top_k=10)  # warm-up: page cache, memo of the commonest n-grams
    barrier.wait()
    started, found = time.perf_counter(), 0
    for s in range(0, len(mine), 1000):
        found += sum(bool(x) for x in ppdb.suggest(mine[s : s + 1000], top_k=10))
    out.put((started, time.perf_counter(), found, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def _query(source: Path, index: Path, questions: list[str], world: int) -> dict:
    """Questions/s of ``world`` processes, each answering every world-th question in batches of 1,000
    after its warm-up batch, all starting together; wall time = first start to last end."""
    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(world), ctx.Queue()
    workers = [
        ctx.Process(target=_query_shard, args=(source, index, questions, rank, world, barrier, out))
        for rank in range(world)
    ]
    for w in workers:
        w.start()
    done = [out.get() for _ in workers]
    for w in workers:
        w.join()
    seconds = max(d[1] for d in done) - min(d[0] for d in done)
    return {
        "processes": world,
        "questions": len(questions),
        "seconds": seconds,
        "with_suggestions": sum(d[2] for d in done),
        "rss_mb_per_process": max(d[3] for d in done),
    }


def _phase(me: list[str], name: str) -> dict:
    """Run one phase in its own process (so its peak RSS is its own) and return its JSON line."""
    result = subprocess.run([*me, "--_phase", name], capture_output=True, text=True, check=True)
    found = json.loads(result.stdout.splitlines()[-1])
    print(name, found, flush=True)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", type=int, default=20_000_000)
    ap.add_argument("--work", default=str(ROOT / ".bench" / "ppdb"))
    ap.add_argument(
        "--squad", default=str(ROOT.parent / "shared" / "data" / "squad_v1.1" / "dev-v1.1.json.gz")
    )
    ap.add_argument("--processes", type=int, default=os.cpu_count(), help="for the multi-process query run")
    ap.add_argument("--_phase", choices=("build", "query"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    work = Path(args.work)
    source, index = work / f"ppdb-synthetic-{args.rules}.gz", work / "index.sqlite"
    if args._phase == "build":
        from paraguide.suggest.ppdb import build_index

        started = time.perf_counter()
        build_index(source, index, progress=False)
        print(
            json.dumps(
                {
                    "seconds": time.perf_counter() - started,
                    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                }
            )
        )  # noqa: E501
        return
    if args._phase == "query":
        questions = squad_questions(args.squad)
        one = _query(source, index, questions, 1)
        both = _query(source, index, questions, args.processes)
        print(json.dumps({"one": one, "processes": both}))
        return

    work.mkdir(parents=True, exist_ok=True)
    if not source.exists():
        started = time.perf_counter()
        generate(source, args.rules, squad_questions(args.squad))
        print(f"generated {args.rules} rules in {time.perf_counter() - started:.0f} s", flush=True)
    index.unlink(missing_ok=True)
    me = [sys.executable, __file__, "--rules", str(args.rules), "--work", str(work), "--squad", args.squad]
    me += ["--processes", str(args.processes)]
    build, query = (_phase(me, name) for name in ("build", "query"))
    record = {
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version()},
        "method": __doc__.split("    NLTK_DATA")[0].strip(),
        "command": "NLTK_DATA=../shared/data/nltk_data python benchmarks/ppdb_xl.py "
        + " ".join(sys.argv[1:]),
        "rules": args.rules,
        "file_mb": round(source.stat().st_size / 2**20),
        "build_seconds": round(build["seconds"], 1),
        "build_peak_rss_mb": round(build["rss_mb"]),
        "index_mb": round(index.stat().st_size / 2**20),
        "query_questions": query["one"]["questions"],
        "questions_per_s": round(query["one"]["questions"] / query["one"]["seconds"]),
        "questions_with_suggestions": query["one"]["with_suggestions"],
        "query_peak_rss_mb": round(query["one"]["rss_mb_per_process"]),
        "query_processes": query["processes"]["processes"],
        "questions_per_s_all_processes": round(
            query["processes"]["questions"] / query["processes"]["seconds"]
        ),
        "query_peak_rss_mb_per_process": round(query["processes"]["rss_mb_per_process"]),
    }
    (ROOT / "benchmarks" / "results" / "ppdb_xl.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record, indent=2))


if __name__ == "__main__":
    main()
