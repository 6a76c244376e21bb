#!/usr/bin/env python
"""Scorer speed on this CPU, side by side in one run.

1. paraguide's embedding scorer vs raw ``SentenceTransformer.encode`` (same model, all-MiniLM-L6-v2, same
   batch size, normalised embeddings, cosine by a dot product) on the same pairs, twice: a test-set-like
   workload (each original question against 4 candidates, so originals repeat) and pairs with no repeated
   sentence (pure overhead). Goal ≥ 1.0×.
2. the sim scorer vs the embedding scorer on the repeated workload, each with a cold cache. Goal ≥ 20×.

    python benchmarks/scorer_speed.py [--questions 2000]

Questions: SQuAD v1.1 dev (shared data); candidates: other dev questions (the speed does not depend on
what they say). Writes benchmarks/results/scorer_speed.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import time
from pathlib import Path

import numpy as np
from machine import cpu_model  # benchmarks/machine.py, beside this script

from paraguide.score import EmbeddingScorer, SimScorer
from paraguide.score.sim import bundled_sim_path

ROOT = Path(__file__).resolve().parents[1]


def raw_encode(model, pairs, batch_size):
    vectors = model.encode(
        [t for pair in pairs for t in pair],
        batch_size=batch_size,
        normalize_embeddings=True,
        convert_to_numpy=True,
    )
    return (vectors[0::2] * vectors[1::2]).sum(-1)


def timed(fn):
    started = time.perf_counter()
    out = fn()
    return time.perf_counter() - started, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--squad", default=str(ROOT.parent / "shared" / "data" / "squad_v1.1" / "dev-v1.1.json.gz")
    )
    ap.add_argument("--questions", type=int, default=2000)
    ap.add_argument("--batch-size", type=int, default=128)
    args = ap.parse_args()
    with gzip.open(args.squad, "rt", encoding="utf-8") as f:
        data = json.load(f)
    questions = list(
        dict.fromkeys(
            qa["question"].strip() for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]
        )
    )
    n = args.questions
    originals = questions[:n]
    pool = questions[n:]
    repeated = [(q, pool[(4 * i + k) % len(pool)]) for i, q in enumerate(originals) for k in range(4)]
    distinct = list(zip(questions[: 2 * n : 2], questions[1 : 2 * n : 2], strict=True))

    embedding = EmbeddingScorer(batch_size=args.batch_size)
    model = embedding.model
    raw_encode(model, distinct[:64], args.batch_size)  # warm-up
    result = {}
    for name, pairs in (
        ("repeated originals (1 question x 4 candidates)", repeated),
        ("no repeated sentence", distinct),
    ):
        raw_s, raw_scores = timed(lambda pairs=pairs: raw_encode(model, pairs, args.batch_size))
        embedding._cache.clear()
        ours_s, ours_scores = timed(lambda pairs=pairs: embedding.score(pairs))
        assert np.allclose(raw_scores, ours_scores, atol=1e-4), "the scorer must give the raw scores"
        result[name] = {
            "pairs": len(pairs),
            "raw_encode_s": round(raw_s, 2),
            "embedding_scorer_s": round(ours_s, 2),
            "speedup": round(raw_s / ours_s, 2),
        }
        print(name, result[name], flush=True)
    sim = SimScorer(bundled_sim_path("en"))
    sim.score(distinct[:64])
    sim._cache.clear()
    sim_s, _ = timed(lambda: sim.score(repeated))
    embedding._cache.clear()
    emb_s, _ = timed(lambda: embedding.score(repeated))
    result["sim vs embedding (repeated originals)"] = {
        "pairs": len(repeated),
        "sim_s": round(sim_s, 3),
        "embedding_s": round(emb_s, 2),
        "speedup": round(emb_s / sim_s, 1),
        "sim_pairs_per_s": round(len(repeated) / sim_s),
        "embedding_pairs_per_s": round(len(repeated) / emb_s),
    }
    print(result["sim vs embedding (repeated originals)"], flush=True)
    import torch

    record = {
        "machine": {
            "cpu": cpu_model(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "torch": torch.__version__,
        },  # noqa: E501
        "method": __doc__.split("    python")[0].strip(),
        "command": "python benchmarks/scorer_speed.py",
        **result,
    }
    (ROOT / "benchmarks" / "results" / "scorer_speed.json").write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
