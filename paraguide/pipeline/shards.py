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
same for 1 process or 8, in one go or resumed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from paraguide.data.io import write_json
from paraguide.errors import ParaguideError

WORK = "work"


class RunConflict(ParaguideError):
    """OUTDIR holds another run, or an unfinished one and --resume was not given."""


def file_fingerprint(path: str | os.PathLike) -> dict:
    """What identifies an input file for --resume: its path, size and the hash of its first 1 MB."""
    path = Path(path)
    with open(path, "rb") as f:
        head = hashlib.sha256(f.read(1 << 20)).hexdigest()[:16]
    return {"path": str(path.resolve()), "size": path.stat().st_size, "head_sha256": head}


def prepare_run(out_dir: str | os.PathLike, config: dict, resume: bool, overwrite: bool) -> Path:
    """The run's work folder (called by the main process alone). A new run needs an OUTDIR without a
    run (or --overwrite); --resume needs the same configuration as the run it continues (every field
    that changes results is compared)."""
    work = Path(out_dir) / WORK
    saved_path = work / "run.json"
    if saved_path.exists() and not overwrite:
        saved = json.loads(saved_path.read_text(encoding="utf-8"))
        if not resume:
            raise RunConflict(
                f"{out_dir} already holds a run (started {saved.get('job')}); pass --resume to continue it, "
                "or --overwrite to start again"
            )
        changed = sorted(
            k for k in set(saved["config"]) | set(config) if saved["config"].get(k) != config.get(k)
        )
        if changed:
            details = "; ".join(f"{k}: {saved['config'].get(k)!r} -> {config.get(k)!r}" for k in changed)
            raise RunConflict(f"cannot resume {out_dir}: the configuration changed ({details})")
        return work
    if overwrite and work.exists():
        for f in work.glob("shard-*.jsonl"):
            f.unlink()
    work.mkdir(parents=True, exist_ok=True)
    write_json(saved_path, {"job": config.get("job"), "config": config})
    return work


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
        self._f.write("\n".join(lines) + "\n")
        self._f.flush()
        os.fsync(self._f.fileno())  # a chunk reported done is on disk

    def close(self) -> None:
        """Close the shard file."""
        self._f.close()

    def __enter__(self) -> ShardWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
