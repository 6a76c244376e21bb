"""Readers and writers: SQuAD JSON, question-pair files, JSONL; gzip-transparent and streaming."""

from paraguide.data.pairs import Pair, detect_format, read_pairs, write_pairs
from paraguide.data.squad import (
    OffsetReport,
    SquadReader,
    SquadWriter,
    flatten_squad,
    nest_squad,
    read_squad,
    repair_offsets,
    write_squad,
)

__all__ = [
    "OffsetReport",
    "Pair",
    "SquadReader",
    "SquadWriter",
    "detect_format",
    "flatten_squad",
    "nest_squad",
    "read_pairs",
    "read_squad",
    "repair_offsets",
    "write_pairs",
    "write_squad",
]
