"""Carry a builder reading's judgements over to a new sheet where it shows the same rewrite of the same
question, so that readers judge only what is new (a build that changes a few choices of one already read).

    python benchmarks/carry_judgements.py carry --sheet benchmarks/results/reading_NEW_sheet.md \\
        --key benchmarks/results/reading_NEW_key.json --from 2026-12-06b --left /tmp/left.md --carried /tmp/carried.tsv
    (readers judge /tmp/left.md: item, fluent, same, note)
    python benchmarks/carry_judgements.py merge --carried /tmp/carried.tsv --judged /tmp/left.tsv \\
        --out benchmarks/results/reading_NEW_judgements.tsv

``carry`` writes the judgements of every item of the new key whose (original, rewrite) a ``--from``
reading judged (its note says from which reading and item) and the sheet of the items left, numbered as on
the full sheet; ``merge`` puts both together in item order, checked against each other.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
HEADER = "item\tfluent\tsame\tnote"


def _rows(path: Path) -> dict[str, list[str]]:
    """A judgements TSV (with or without its header line): item -> [fluent, same, note]."""
    rows = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        cells = line.split("\t")
        if not line.strip() or cells[0] == "item":
            continue
        if len(cells) < 3 or cells[1].strip().lower() not in "yn" or cells[2].strip().lower() not in "yn":
            raise SystemExit(f"{path}, line {number}: want item<TAB>y|n<TAB>y|n<TAB>note")
        rows[cells[0].strip()] = [
            cells[1].strip().lower(),
            cells[2].strip().lower(),
            "\t".join(cells[3:]).strip(),
        ]
    return rows


def carry(args) -> None:
    items = json.loads(Path(args.key).read_text(encoding="utf-8"))["items"]
    earlier = {}
    for tag in args.tags:
        key = json.loads((RESULTS / f"reading_{tag}_key.json").read_text(encoding="utf-8"))["items"]
        for item, row in _rows(RESULTS / f"reading_{tag}_judgements.tsv").items():
            pair = (key[item]["original"], key[item]["paraphrase"])
            earlier.setdefault(pair, (tag, item, row))
    carried, left = [], []
    for item, it in items.items():
        found = earlier.get((it["original"], it["paraphrase"]))
        if found:
            tag, old, (fluent, same, note) = found
            carried.append(
                f"{item}\t{fluent}\t{same}\tcarried from reading {tag}, item {old}"
                + (f": {note}" if note else "")
            )
        else:
            left.append(item)
    Path(args.carried).write_text("\n".join([HEADER, *carried]) + "\n", encoding="utf-8")
    head, *sections = Path(args.sheet).read_text(encoding="utf-8").split("\n## ")
    keep = [s for s in sections if s.split("\n", 1)[0].strip() in set(left)]
    Path(args.left).write_text("\n## ".join([head, *keep]) + "\n", encoding="utf-8")
    print(
        f"{len(carried)} carried -> {args.carried}; {len(left)} left to judge -> {args.left}", file=sys.stderr
    )


def merge(args) -> None:
    carried, judged = _rows(Path(args.carried)), _rows(Path(args.judged))
    both = set(carried) & set(judged)
    if both:
        raise SystemExit(f"items judged twice: {', '.join(sorted(both, key=int)[:10])}")
    rows = carried | judged
    lines = [HEADER] + ["\t".join([item, *rows[item]]) for item in sorted(rows, key=int)]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(rows)} judgements -> {args.out}", file=sys.stderr)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("carry", help="carry judgements over; write the sheet of what is left")
    c.add_argument("--sheet", required=True, help="the new reading's full sheet")
    c.add_argument("--key", required=True, help="the new reading's key")
    c.add_argument(
        "--from", dest="tags", action="append", required=True, help="an earlier reading's tag (repeat)"
    )
    c.add_argument("--left", required=True, help="where the sheet of the items left goes")
    c.add_argument("--carried", required=True, help="where the carried judgements go (TSV)")
    m = sub.add_parser("merge", help="the carried judgements and the new ones, in item order")
    m.add_argument("--carried", required=True)
    m.add_argument("--judged", required=True)
    m.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    {"carry": carry, "merge": merge}[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
