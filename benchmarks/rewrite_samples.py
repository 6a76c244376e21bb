"""The 200-question samples that reading 2026-11-26b (docs/build.md, "Rewrites with the pretrained
paraphraser") built both presets on: SQuAD v1.1 dev questions (each with its paragraph), DuReader-robust
dev paragraphs (one question each) and LCQMC test positive pairs, drawn with ``random.Random(7)``
(``--seed``: another draw; 2811 for reading 2026-11-28b). Files are named by ``--n``.

    python benchmarks/rewrite_samples.py --out runs/p31/inputs
    paraguide build-testset --squad runs/p31/inputs/squad_200.json --preset paraphrase --out runs/p31/en-squad-paraphrase
    paraguide build-testset --squad runs/p31/inputs/squad_200.json --out runs/p31/en-squad-substitute
    paraguide build-testset --squad runs/p31/inputs/dureader_200.json --lang zh --preset paraphrase --out ...
    paraguide build-testset --pairs runs/p31/inputs/lcqmc_200.tsv --side a --lang zh --preset paraphrase --out ...
    paraguide build-testset --squad runs/p31/inputs/squad_200.json --adversarial --model gemma-en --out ...
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7, help="the draw (7: the samples of readings 2026-11-26b-g)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    d = json.loads((SHARED / "dureader_robust" / "dev.json").read_text(encoding="utf-8"))
    paras = [p for a in d["data"] for p in a["paragraphs"]]
    random.Random(args.seed).shuffle(paras)
    (out / f"dureader_{args.n}.json").write_text(
        json.dumps({"data": [{"title": "", "paragraphs": paras[: args.n]}]}, ensure_ascii=False),
        encoding="utf-8",
    )
    with gzip.open(SHARED / "squad_v1.1" / "dev-v1.1.json.gz", "rt", encoding="utf-8") as f:
        squad = json.load(f)
    items = [(a["title"], p, q) for a in squad["data"] for p in a["paragraphs"] for q in p["qas"]]
    random.Random(args.seed).shuffle(items)
    articles = defaultdict(list)
    for title, p, q in items[: args.n]:
        articles[title].append({"context": p["context"], "qas": [q]})
    data = [{"title": t, "paragraphs": ps} for t, ps in articles.items()]
    (out / f"squad_{args.n}.json").write_text(json.dumps({"version": "1.1", "data": data}), encoding="utf-8")
    lines = (SHARED / "lcqmc" / "test.tsv").read_text(encoding="utf-8").splitlines()
    random.Random(args.seed).shuffle(lines)
    positives = [line for line in lines if line.endswith("\t1")][: args.n]
    (out / f"lcqmc_{args.n}.tsv").write_text("\n".join(positives) + "\n", encoding="utf-8")
    print(f"3 samples of {args.n} -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
