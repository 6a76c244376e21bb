"""A seeded sample of N pairs of a pair file (LCQMC/BQ TSV, MRPC, Quora, JSONL; plain or .gz), written as
headerless TSV (`a \\t b \\t label`), in file order (the CPU training budget of the recorded QM experiment:
every condition trains on the same pairs, and augmentation paraphrases them; or the test pairs a test set is
built from).

    python recipes/experiments/pairs_subset.py lcqmc/train.tsv.gz OUT.tsv --n 20000 --seed 13
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for paraguide in a checkout

from paraguide.data.pairs import read_pairs, write_pairs  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("pairs", help="pair file (format detected from the file)")
    parser.add_argument("out", help="TSV file to write")
    parser.add_argument("--n", type=int, required=True, help="pairs to keep")
    parser.add_argument("--seed", type=int, default=13, help="seed of the sample")
    args = parser.parse_args()
    pairs = list(read_pairs(args.pairs))
    if args.n > len(pairs):
        parser.error(f"--n {args.n}: {args.pairs} holds only {len(pairs)} pairs")
    keep = set(random.Random(args.seed).sample(range(len(pairs)), args.n))
    write_pairs(args.out, (p for i, p in enumerate(pairs) if i in keep), "tsv")
    print(f"{args.out}: {args.n} of {len(pairs)} pairs (seed {args.seed})")


if __name__ == "__main__":
    main()
