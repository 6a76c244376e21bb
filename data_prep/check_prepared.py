#!/usr/bin/env python
"""Check a `paraguide prepare` output against the rules it promises; exit 1 if any rule fails.

    python data_prep/check_prepared.py runs/quora/train.jsonl --lang en [--empty-share 0.2] [--pairs N]
    python data_prep/check_prepared.py runs/zh-lcqmc-bq/train.jsonl --lang zh \
        --disjoint-from runs/lcqmc/train.heldout.jsonl

Rules (paraguide.pipeline.prepare.check_prepared): every non-empty suggestion occurs in its target and
not in its source; no suggestion is stop words alone; the empty share equals the setting within one point;
no pair (or its reverse) on both sides of the split; no (source, suggestion) input repeats. With --pairs
(the number of distinct input pairs) it also prints examples per pair. With --disjoint-from (another
corpus's held-out split, evaluated on instead of this one's own), no pair of that file, in either direction,
may be in the training file.
"""

from __future__ import annotations

import argparse
import json
import sys

from paraguide.pipeline.prepare import check_prepared


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("train", help="the training JSONL written by paraguide prepare")
    ap.add_argument("--lang", default="en", choices=("en", "zh"))
    ap.add_argument("--empty-share", type=float, default=0.2)
    ap.add_argument("--pairs", type=int, help="distinct input pairs, to report examples per pair")
    ap.add_argument(
        "--disjoint-from", metavar="JSONL", help="a held-out file none of whose pairs may be trained on"
    )
    args = ap.parse_args()
    result = check_prepared(args.train, args.lang, args.empty_share, args.disjoint_from)
    if args.pairs:
        total = sum(s["examples"] for s in result["splits"].values())
        result["examples_per_pair"] = round(total / args.pairs, 3)
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
