"""How long the pretrained paraphraser takes over SQuAD v1.1 dev (issue "A pretrained paraphraser", point 3:
10,570 questions, beam 4, one suggestion each, in <= 45 minutes on the 2 CPU cores).

A seeded sample of ``--n`` dev questions, each with the first wordnet&ppdb suggestion (a free rewrite where
there is none), paraphrased by the bundled adapter (beam 4, batch 32, at most 48 new tokens, the default
dtype), timed after loading; the full set's time is extrapolated from it (questions are drawn at random,
so lengths match the set's). Writes benchmarks/results/causal_squad_speed.json.

    python benchmarks/causal_squad_speed.py --n 1000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import torch
from machine import cpu_model  # benchmarks/machine.py, beside this script

HERE = Path(__file__).resolve().parent
SQUAD = HERE.parent.parent / "shared" / "data" / "squad_v1.1" / "dev-v1.1.json.gz"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--model", default="gemma-en")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args(argv)

    from paraguide.data.squad import SquadReader
    from paraguide.model.paraphraser import Paraphraser
    from paraguide.suggest import load_source

    questions = [r["question"].strip() for r in SquadReader(SQUAD)]
    total = len(questions)
    sample = random.Random(args.seed).sample(questions, args.n)
    found = load_source("wordnet&ppdb", lang="en").suggest(sample, top_k=1)
    suggestions = [f[0].text if f else None for f in found]
    matched = [f[0].matched if f else None for f in found]
    para = Paraphraser.from_pretrained(args.model)
    start = time.perf_counter()
    para.paraphrase(sample, suggestions, matched=matched, num_beams=4, batch_size=32)
    seconds = time.perf_counter() - start
    result = {
        "model": args.model,
        "questions": args.n,
        "with_a_suggestion": sum(s is not None for s in suggestions),
        "seconds": round(seconds, 1),
        "sentences_per_second": round(args.n / seconds, 2),
        "squad_dev_questions": total,
        "squad_dev_minutes_extrapolated": round(total / (args.n / seconds) / 60, 1),
        "dtype": str(para.dtype).removeprefix("torch."),
        "threads": torch.get_num_threads(),
        "cpu": cpu_model(),
        "method": __doc__.split("\n\n")[1].replace("\n", " "),
    }
    (HERE / "results" / "causal_squad_speed.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
