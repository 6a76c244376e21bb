"""The file formats a PPDB-like source reads, plain or gzip, detected from the first line:

* ``ppdb`` -- PPDB 2.0 rules, ``LHS ||| PHRASE ||| PARAPHRASE ||| FEATURES ||| ALIGNMENT ||| ENTAILMENT``;
  the score is the ``PPDB2.0Score`` feature, the relation the entailment column.
* ``human`` -- the PPDB 2.0 human-labelled TSV, ``avg_score<TAB>[LHS]<TAB>phrase<TAB>paraphrase<TAB>scores``;
  the 1-5 average is mapped to 0-1 (``(avg - 1) / 4``).
* ``pairs`` -- word-pair lists, ``word1 word2`` per line (e.g. PPDB-derived synonym lists); score 1, both
  directions.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from paraguide.data.io import iter_lines
from paraguide.errors import DataError

FORMATS = ("ppdb", "human", "pairs")
_SCORE = re.compile(r"(?:^|\s)PPDB2\.0Score=(-?[\d.eE+-]+)")


def detect_rule_format(path: str | os.PathLike) -> str:
    """The format of the PPDB-like file at ``path`` (one of :data:`FORMATS`), from its first non-empty
    line; a DataError if it is none of them."""
    for line_no, text in iter_lines(path):
        if not text.strip():
            continue
        if "|||" in text:
            return "ppdb"
        cells = text.split("\t")
        if len(cells) >= 4:
            try:
                float(cells[0])
                return "human"
            except ValueError:
                pass
        if len(text.split()) == 2:
            return "pairs"
        raise DataError(
            str(path),
            "not a PPDB file: expected 'LHS ||| PHRASE ||| PARAPHRASE ||| FEATURES ...', the human-labelled "
            "TSV 'score<TAB>[LHS]<TAB>phrase<TAB>paraphrase<TAB>scores' or 'word1 word2' pairs",
            line=line_no,
        )
    raise DataError(str(path), "empty PPDB file")


def read_rules(path: str | os.PathLike, fmt: str | None = None) -> Iterator[tuple[str, str, float, str]]:
    """``(phrase, paraphrase, score, relation)`` for every rule of the PPDB-like file at ``path``; ``fmt``:
    one of :data:`FORMATS` (None: detected)."""
    fmt = fmt or detect_rule_format(path)
    if fmt not in FORMATS:
        raise ValueError(f"unknown PPDB format {fmt!r}; choose one of {', '.join(FORMATS)}")
    for line_no, text in iter_lines(path):
        if not text.strip():
            continue
        if fmt == "ppdb":
            cells = [c.strip() for c in text.split("|||")]
            if len(cells) < 4:
                raise DataError(str(path), "expected at least 4 '|||' fields", line=line_no)
            m = _SCORE.search(cells[3])
            if m is None:
                raise DataError(str(path), "no PPDB2.0Score in FEATURES", line=line_no, field="FEATURES")
            yield cells[1].lower(), cells[2].lower(), float(m.group(1)), cells[5] if len(cells) > 5 else ""
        elif fmt == "human":
            cells = text.split("\t")
            try:
                score = (float(cells[0]) - 1) / 4
            except (ValueError, IndexError):
                raise DataError(
                    str(path), "expected a 1-5 score first", line=line_no, field="score"
                ) from None
            if len(cells) < 4:
                raise DataError(str(path), "expected score, [LHS], phrase, paraphrase", line=line_no)
            yield cells[2].strip().lower(), cells[3].strip().lower(), score, ""
        else:
            words = text.split()
            if len(words) != 2:
                raise DataError(str(path), "expected 'word1 word2'", line=line_no)
            a, b = words[0].lower(), words[1].lower()
            yield a, b, 1.0, ""
            yield b, a, 1.0, ""
