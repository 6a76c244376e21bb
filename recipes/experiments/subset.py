"""A seeded sample of N questions of a SQuAD-format file, written as a SQuAD file (the CPU training budget of
the recorded experiment: every condition trains on the same questions, and augmentation paraphrases them).

    python recipes/experiments/subset.py TRAIN.json[.gz] OUT.json --n 2000 --seed 13
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for paraguide in a checkout

from paraguide.data.squad import SquadWriter, read_squad  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("squad", help="SQuAD-format file (plain or .gz)")
    parser.add_argument("out", help="SQuAD JSON to write")
    parser.add_argument("--n", type=int, required=True, help="questions to keep")
    parser.add_argument("--seed", type=int, default=13, help="seed of the sample")
    args = parser.parse_args()
    records, header = read_squad(args.squad)
    if args.n > len(records):
        parser.error(f"--n {args.n}: {args.squad} holds only {len(records)} questions")
    keep = set(random.Random(args.seed).sample(range(len(records)), args.n))
    with SquadWriter(args.out) as writer:
        for i, record in enumerate(records):  # file order kept: articles and paragraphs stay together
            if i in keep:
                writer.write(record)
        writer.header = dict(header)
    print(f"{args.out}: {args.n} of {len(records)} questions (seed {args.seed})")


if __name__ == "__main__":
    main()
