"""A seeded sample of N records of a data file, in file order: the CPU budget of the recorded experiments
(every condition trains on the same records, and augmentation paraphrases them; or the test records a test
set is built from).

    python recipes/experiments/subset.py TRAIN.json[.gz] OUT.json --n 1000 --seed 13        # SQuAD questions
    python recipes/experiments/subset.py --pairs lcqmc/train.tsv.gz OUT.tsv --n 20000        # pairs

SQuAD-format in, SQuAD JSON out (articles and paragraphs of the kept questions stay together); with
--pairs, any pair format paraguide reads (LCQMC/BQ TSV, MRPC, Quora, JSONL; plain or .gz) in, headerless TSV
(`a \\t b \\t label`) out.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for paraguide in a checkout

from paraguide.data.pairs import read_pairs, write_pairs  # noqa: E402
from paraguide.data.squad import SquadWriter, read_squad  # noqa: E402
from paraguide.errors import ParaguideError  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", help="SQuAD-format file, or with --pairs a pair file (plain or .gz)")
    parser.add_argument("out", help="file to write (SQuAD JSON, or TSV with --pairs)")
    parser.add_argument("--n", type=int, required=True, help="records (questions, pairs) to keep")
    parser.add_argument("--seed", type=int, default=13, help="seed of the sample")
    parser.add_argument("--pairs", action="store_true", help="the input is a pair file (format detected)")
    args = parser.parse_args()
    try:
        if args.pairs:
            records, what = list(read_pairs(args.data)), "pairs"
        else:
            (records, header), what = read_squad(args.data), "questions"
    except ParaguideError as e:
        sys.exit(f"error: {e}")
    if args.n > len(records):
        parser.error(f"--n {args.n}: {args.data} holds only {len(records)} {what}")
    keep = set(random.Random(args.seed).sample(range(len(records)), args.n))
    kept = (r for i, r in enumerate(records) if i in keep)  # file order kept
    if args.pairs:
        write_pairs(args.out, kept, "tsv")
    else:
        with SquadWriter(args.out) as writer:
            for record in kept:
                writer.write(record)
            writer.header = dict(header)
    print(f"{args.out}: {args.n} of {len(records)} {what} (seed {args.seed})")


if __name__ == "__main__":
    main()
