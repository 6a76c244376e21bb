"""Output folders that never mix two runs and never overwrite a user's files.

Every command that writes a folder (``train``, ``train-scorer``, ``build-testset``, ``augment``, ``evaluate``) checks it
before loading anything (:meth:`OutputDir.check`), identifies its run (:meth:`OutputDir.identify`: the
options that decide the results and the content hash of every file read, :mod:`paraguide.data.fingerprint`)
and claims it before writing anything (:meth:`OutputDir.claim`), which writes ``run.json``.

- A missing or empty folder: a new run.
- The folder of a run of the same job: ``--resume`` continues it if the options and every input are the
  same (anything changed is named); ``--overwrite`` removes its files and starts again; neither is an error.
- Any other non-empty folder (a user's files, another job's run, an older paraguide's run without
  ``run.json``): an error, unless ``--overwrite``, which replaces only the files paraguide writes there.
- ``--resume`` with ``--overwrite`` is an error.
- A command never deletes or replaces what it reads: an input that --overwrite would remove (the file, or a
  folder holding it, compared by resolved path) is refused before anything is touched.
- One run at a time: ``claim`` takes the folder's lock (:mod:`paraguide.data.lock`) and holds it until
  ``finish`` (or the process ends); a run that finds the folder changed since its check (another run got
  there first) stops.

The folder is checked to be writable before any expensive work starts.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from paraguide.data.fingerprint import changed_files
from paraguide.data.io import write_json
from paraguide.data.lock import LOCK_FILE, FolderLock, acquire, check_free
from paraguide.errors import ParaguideError

RUN_FILE = "run.json"
RUN_FORMAT = 1

_TOKENIZER = ("spiece.model", "sentencepiece.bpe.model", "tokenizer.json", "tokenizer_config.json",
              "special_tokens_map.json", "added_tokens.json", "vocab.txt", "vocab.json", "merges.txt")  # fmt: skip
# What each job writes in its folder: what --overwrite removes (nothing else is touched).
OWNED = {
    "train": ("model.safetensors", "adapter.safetensors", "best.safetensors", "README.md", "config.json",
              "generation_config.json", "metrics.jsonl", "all_results.json", "eval_results.json", "training_args.json", "best", "checkpoint-*", ".checkpoint-*", *_TOKENIZER),
    "train-scorer": ("model.safetensors", "config.json", "spiece.model"),
    "build-testset": ("paraphrased.json", "original.json", "paraphrased.tsv", "original.tsv",
                      "paraphrased.jsonl", "original.jsonl", "id_map.json", "provenance.jsonl",
                      "accounting.jsonl", "summary.json", "timing.json", "work"),
    "augment": ("train.json", "train.tsv", "train.jsonl", "id_map.json", "provenance.jsonl", "accounting.jsonl",
                "summary.json", "timing.json", "work"),
    "evaluate": ("report.md", "report.json", "*.png"),
    "perturb": ("pairs.jsonl", "pairs.tsv", "summary.json"),
    "perturb-trap": ("original.json", "trap.json", "id_map.json", "traps.jsonl", "summary.json"),
}  # fmt: skip


class RunConflict(ParaguideError):
    """The output folder holds something the command must not mix with or overwrite."""


@dataclass
class OutputDir:
    """A checked output folder: ``resumed`` when an earlier run of the same job continues there.

    ``check`` (cheap, before anything is loaded), then ``identify`` (the run's options and input files;
    on --resume compared with the saved run's), both on every process and reading only, then ``claim``
    on the main process, before anything is written."""

    path: Path
    job: str
    resumed: bool = False
    remove: list[Path] = field(default_factory=list)  # what --overwrite discards, on claim
    saved: dict | None = None  # the run.json of the run --resume continues
    config: dict = field(default_factory=dict)
    inputs: dict[str, dict] = field(default_factory=dict)
    named: dict[str, str] = field(default_factory=dict)  # inputs given but not read (kept all the same)
    seen: bytes | None = None  # run.json as check() read it (claim() refuses a folder changed since)
    lock: FolderLock | None = None

    @classmethod
    def check(
        cls,
        path: str | os.PathLike,
        job: str,
        *,
        resume: bool = False,
        overwrite: bool = False,
        resumable: bool = True,
    ) -> OutputDir:
        """Decide what a run of ``job`` may do in ``path`` (reads only; raises :class:`RunConflict`);
        ``resumable``: whether the command has --resume (what the message offers)."""
        path = Path(path)
        out = cls(path, job)
        if resume and overwrite:
            raise RunConflict(
                "--resume and --overwrite contradict each other: --resume continues the run in "
                f"{path}, --overwrite discards it and starts again; give one"
            )
        if path.is_symlink() and not path.exists():
            raise RunConflict(
                f"{path} is a symbolic link to {os.readlink(path)}, which does not exist: give an existing "
                "folder or a new path for the outputs"
            )
        if path.exists() and not path.is_dir():
            raise RunConflict(f"{path} is a file, not a folder: give a folder for the outputs")
        if path.is_dir():
            check_free(path)  # a live run there: say so, whatever its folder holds so far
        entries = sorted(p.name for p in path.iterdir() if p.name != LOCK_FILE) if path.is_dir() else []
        run = _read_run(path) if RUN_FILE in entries else None
        out.seen = _run_bytes(path)
        if run is not None and run["job"] == job:
            if resume:
                _no_links(path, job)
                out.resumed, out.saved = True, run
            elif overwrite:
                out.remove = owned(path, job)
            elif resumable:
                state = " (finished)" if run.get("finished") else " (unfinished)"
                raise RunConflict(
                    f"{path} already holds a paraguide {job} run{state}; pass --resume to continue it "
                    "(the same command plus --resume), or --overwrite to discard it and start again"
                )
            else:
                raise RunConflict(
                    f"{path} already holds a paraguide {job} run; pass --overwrite to replace it"
                )
        elif run is not None:
            if resume:
                raise RunConflict(
                    f"{path} holds a paraguide {run['job']} run, not a {job} run: nothing to resume"
                )
            if not overwrite:
                raise RunConflict(
                    f"{path} holds a paraguide {run['job']} run; choose another folder for {job}, or pass "
                    "--overwrite to replace it"
                )
            out.remove = owned(path, run["job"]) + owned(path, job)
        elif entries:
            if not overwrite:
                shown = ", ".join(entries[:5]) + (f" and {len(entries) - 5} more" if len(entries) > 5 else "")
                what = "there is nothing to resume: it" if resume else "it"
                raise RunConflict(
                    f"{path} is not empty and is not a paraguide {job} run ({what} holds {shown}); choose a "
                    "new or empty folder, or pass --overwrite to write there (the files paraguide writes "
                    "are replaced, others are kept)"
                )
            out.remove = owned(path, job)
        return out

    def identify(self, config: dict, inputs: dict[str, dict]) -> None:
        """The run: ``config``, the options that decide its results, and ``inputs``, the fingerprints of
        every file it reads (:func:`paraguide.data.fingerprint.fingerprints`). On --resume both must be the
        saved run's, or a :class:`RunConflict` names what changed."""
        self.config, self.inputs = json.loads(json.dumps(config)), inputs
        if self.saved is None:
            return
        saved = self.saved.get("config", {})
        changes = [
            f"{k}: {saved.get(k)!r} -> {self.config.get(k)!r}"
            for k in sorted(set(saved) | set(self.config))
            if saved.get(k) != self.config.get(k)
        ]
        changes += changed_files(self.saved.get("inputs", {}), self.inputs)
        if changes:
            raise RunConflict(
                f"cannot resume {self.path}, the run changed: " + "; ".join(changes) + " (resume with the "
                "original options and files, or start again with --overwrite or in another folder)"
            )

    def claim(self) -> None:
        """Main process: refuse an input that --overwrite would remove, create the folder, check it is
        writable, take its lock (held until :meth:`finish`), refuse a folder another run wrote in since
        :meth:`check`, remove what --overwrite discards, and record the run (``run.json``; on --resume it
        is kept)."""
        self._keep_inputs()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix=".paraguide-write-check.", dir=self.path)
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            raise RunConflict(f"cannot write in {self.path}: {e.strerror or e}") from None
        self.lock = acquire(self.path)
        if _run_bytes(self.path) != self.seen:
            self.release()
            raise RunConflict(
                f"{self.path} changed while this run was starting (another paraguide run wrote its "
                f"{RUN_FILE}); run the command again to see what is there now"
            )
        if self.lock.stale:
            print(f"paraguide: note: {self.lock.stale}", file=sys.stderr)
        for p in self.remove:
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink(missing_ok=True)
        if not self.resumed:
            self.record()

    def _keep_inputs(self) -> None:
        """Raise :class:`RunConflict` when something --overwrite would remove is an input of the run (or a
        path given as one that this run does not read, ``named``: ``--model`` with --nbest 0), holds one, or
        is a file of an input folder (compared by resolved path; a folder's subfolders, such as a report
        written inside a test set's folder, are not its files)."""
        sources = {role: fp["path"] for role, fp in self.inputs.items()}
        sources.update(
            {role: str(Path(p).resolve()) for role, p in self.named.items() if role not in sources}
        )
        for p in self.remove:
            target = p.parent.resolve() / p.name  # a link is removed, not what it points to
            for role, source in sorted(sources.items()):
                source = Path(source)
                if source.is_relative_to(target) or target.parent == source:
                    raise RunConflict(
                        f"--overwrite would remove {p}, but this run reads {source} (its {role}): a command "
                        f"never deletes its own inputs; write the outputs in another folder than {self.path}"
                    )

    def release(self) -> None:
        """Let go of the folder's lock (kept until then; the end of the process releases it too)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def record(self, **state) -> None:
        """Write ``run.json`` (with ``state``, e.g. ``finished=True`` at the end of a run)."""
        write_json(
            self.path / RUN_FILE,
            {"format": RUN_FORMAT, "job": self.job, "config": self.config, "inputs": self.inputs, **state},
        )

    def finish(self) -> None:
        """Mark the run finished in ``run.json`` (what a later command's message says) and release the
        folder."""
        self.record(finished=True)
        self.release()


def owned(path: Path, job: str) -> list[Path]:
    """The files and folders of ``path`` that ``job`` writes (and ``run.json``)."""
    if not path.is_dir():
        return []
    patterns = (*OWNED.get(job, ()), RUN_FILE)
    return sorted(p for p in path.iterdir() if any(fnmatch.fnmatchcase(p.name, pat) for pat in patterns))


def _no_links(path: Path, job: str) -> None:
    """--resume writes into what the run wrote: a symbolic link there (``work/`` pointing elsewhere) would
    have it write outside its folder, so it is a :class:`RunConflict`."""
    for p in owned(path, job):
        inner = p.rglob("*") if p.is_dir() and not p.is_symlink() else ()
        link = next((q for q in (p, *inner) if q.is_symlink()), None)
        if link is not None:
            raise RunConflict(
                f"cannot resume {path}: {link} is a symbolic link (to {os.readlink(link)}), and a run writes "
                "only inside its own folder; remove the link, or start again with --overwrite"
            )


def _run_bytes(path: Path) -> bytes | None:
    try:
        return (path / RUN_FILE).read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None


def _read_run(path: Path) -> dict:
    try:
        run = json.loads((path / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RunConflict(f"{path / RUN_FILE} is not a paraguide run record ({e}); move it away") from None
    if not isinstance(run, dict) or not isinstance(run.get("job"), str):
        raise RunConflict(f"{path / RUN_FILE} is not a paraguide run record; move it away")
    return run
