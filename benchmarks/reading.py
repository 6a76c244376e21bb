"""What the blind-reading scripts share (perturb_reading.py, trap_reading.py): writing a sheet and its key,
and reading a reader's judgements back, checked against the key."""

from __future__ import annotations

import json
from pathlib import Path


def write_sheet(sheet: str, key: str, lines: list[str], items: dict) -> None:
    """The sheet (markdown ``lines``) for the reader and the key (item -> what the reader must not see)."""
    Path(sheet).write_text("\n".join(lines), encoding="utf-8")
    Path(key).write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(items)} items -> {sheet}; key -> {key}")


def read_judgements(path: str, key: dict, columns: list[str], yes_no: set[str]) -> dict[str, dict]:
    """The judgements TSV (header ``item``, ``columns``..., ``note``): item -> {column: value, "note": ...},
    the ``yes_no`` columns as booleans (y or n). Every item of ``key`` must be judged, and only those."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    header = ["item", *columns]
    if not lines or lines[0].split("\t")[: len(header)] != header:
        raise SystemExit(f"{path}: the header must be " + "<TAB>".join(header) + "<TAB>note")
    judged = {}
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        cells = line.split("\t") + [""] * (len(header) + 1)
        item = cells[0].strip()
        if item not in key:
            raise SystemExit(f"{path}, line {number}: item {item!r} is not in the key")
        row = {"note": cells[len(header)].strip()}
        for column, value in zip(columns, cells[1 : len(header)], strict=True):
            value = value.strip()
            if column in yes_no:
                if value.lower() not in ("y", "n"):
                    raise SystemExit(
                        f"{path}, line {number}: item {item}: {column} must be y or n, got {value!r}"
                    )
                row[column] = value.lower() == "y"
            else:
                row[column] = value
        judged[item] = row
    missing = sorted(set(key) - set(judged), key=int)
    if missing:
        raise SystemExit(f"{path}: no judgement for items {', '.join(missing[:10])}")
    return judged
