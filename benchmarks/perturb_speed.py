#!/usr/bin/env python
"""Perturbation suite speed on this CPU (issue 18's target: 10,000 questions in under a minute on the 2
cores): every operation of the ``duqm`` preset over the first N questions of SQuAD v1.1 dev (English) and
of LCQMC test (Chinese, first questions), in one process, lexicons loaded before the clock starts (their
one-time load is reported apart).

    python benchmarks/perturb_speed.py [--questions 10000]

No peer runs beside it: DuQM's generation code is not public and no perturbation library (TextAttack,
CheckList, nlpaug) is installed here. Writes benchmarks/results/perturb_speed.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from machine import cpu_model  # benchmarks/machine.py, beside this script

from paraguide.data.pairs import read_pairs
from paraguide.data.shared import find_shared
from paraguide.data.squad import SquadReader
from paraguide.perturb import Perturbation, Perturber

ROOT = Path(__file__).resolve().parents[1]


def questions(lang: str, n: int) -> list[str]:
    """The first ``n`` distinct questions of SQuAD v1.1 dev (en) or of LCQMC test's first sides (zh)."""
    if lang == "en":
        out = [r["question"].strip() for r in SquadReader(find_shared("squad_v1.1/dev-v1.1.json.gz"))]
    else:
        out = [p.a for p in read_pairs(str(find_shared("lcqmc/test.tsv")))]
    return list(dict.fromkeys(out))[:n]


def run(lang: str, n: int) -> dict:
    qs = questions(lang, n)
    start = time.perf_counter()
    perturber = Perturber(lang)
    perturber.perturb(qs[:50])  # loads every lexicon the operations use (and jieba / the tagger)
    load = time.perf_counter() - start
    start = time.perf_counter()
    outcomes = []
    for i in range(0, len(qs), 256):  # as the job batches
        outcomes += perturber.perturb(qs[i : i + 256])
    seconds = time.perf_counter() - start
    pairs = sum(isinstance(o.result, Perturbation) for o in outcomes)
    return {"questions": len(qs), "operations": len(perturber.operations), "pairs": pairs,
            "seconds": round(seconds, 2), "questions_per_second": round(len(qs) / seconds, 1),
            "lexicon_load_seconds": round(load, 2)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=10000)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/perturb_speed.json"))
    args = parser.parse_args()
    result = {"machine": {"cpu": cpu_model(), "python": platform.python_version()},
              "method": "one process; lexicons loaded before timing; the duqm preset; batches of 256",
              "target": "10,000 questions in under 60 s per language"}  # fmt: skip
    for lang in ("en", "zh"):
        result[lang] = run(lang, args.questions)
        print(lang, result[lang])
    Path(args.out).write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
