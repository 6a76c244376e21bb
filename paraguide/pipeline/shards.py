"""Resumable, multi-process output: work is cut into numbered chunks, each process appends the results
of the chunks it owns to its own shard file, and a chunk counts as done only once its end marker is on
disk. After ``kill -9`` at any moment, the next run (``--resume``) keeps the complete chunks, cuts off a
half-written one and does the rest: no result is lost or written twice.

A shard file (``work/shard-<rank>.jsonl``) holds, per chunk, its result lines and then a marker::

    {"chunk": 7, "result": {...}}
    {"chunk": 7, "result": {...}}
    {"chunk_done": 7, "results": 2}

Chunks are assigned by number (chunk ``i`` belongs to process ``i % world_size``) and every chunk holds
the same questions whatever the number of processes, so the results -- and the merged files -- are the
same for 1 process or 8, in one go or resumed. Which run a folder holds, and whether --resume may continue
it, is :mod:`paraguide.data.outdir`'s part.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from paraguide.data.io import WRITE_ERRORS

WORK = "work"


def read_done(work: Path) -> dict[int, list[dict]]:
    """Results of every complete chunk in every shard file: ``{chunk: [result, ...]}``."""
    done: dict[int, list[dict]] = {}
    for shard in sorted(work.glob("shard-*.jsonl")):
        done.update(_complete_chunks(shard)[0])
    return done


def _complete_chunks(shard: Path) -> tuple[dict[int, list[dict]], int]:
    """The complete chunks of one shard file and the byte length they take (what follows is cut off)."""
    done: dict[int, list[dict]] = {}
    pending: dict[int, list[dict]] = {}
    good = 0
    with open(shard, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # a line cut by a crash
            try:
                line = json.loads(raw)
            except ValueError:
                break
            if "chunk_done" in line:
                chunk = line["chunk_done"]
                results = pending.pop(chunk, [])
                if len(results) != line["results"]:
                    break
                done[chunk] = results
                good = f.tell()
            else:
                pending.setdefault(line["chunk"], []).append(line["result"])
    return done, good


class ShardWriter:
    """Append complete chunks to this process's shard file, cutting off a half-written chunk first."""

    def __init__(self, work: Path, rank: int):
        self.path = work / f"shard-{rank}.jsonl"
        if self.path.exists():
            _, good = _complete_chunks(self.path)
            with open(self.path, "r+b") as f:
                f.truncate(good)
        self._f = open(self.path, "a", encoding="utf-8", newline="\n")  # noqa: SIM115 (closed in close())

    def write_chunk(self, chunk: int, results: Iterable[dict]) -> None:
        """Append a chunk's results and its end marker, flushed and fsynced: on disk once this returns."""
        results = list(results)
        lines = [json.dumps({"chunk": chunk, "result": r}, ensure_ascii=False) for r in results]
        lines.append(json.dumps({"chunk_done": chunk, "results": len(results)}))
        try:
            self._f.write("\n".join(lines) + "\n")
            self._f.flush()
            os.fsync(self._f.fileno())  # a chunk reported done is on disk
        except OSError as e:  # a full disk: say which file (--resume cuts the half-written chunk off)
            if e.filename is not None or e.errno not in WRITE_ERRORS:
                raise
            raise OSError(e.errno, f"cannot write {self.path}: {e.strerror or e}") from e

    def close(self) -> None:
        """Close the shard file."""
        self._f.close()

    def __enter__(self) -> ShardWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
