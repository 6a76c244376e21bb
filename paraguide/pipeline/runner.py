"""The sharded, resumable chunk loop both builders run: questions go through the generator a chunk at a time,
each chunk's outcomes are on disk before the next starts (:mod:`paraguide.pipeline.shards`), chunks are shared
among the processes of ``accelerate launch`` by number, and a stop condition may end the loop early."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict
from pathlib import Path

from tqdm.auto import tqdm

from paraguide.data.fingerprint import fingerprints
from paraguide.data.io import write_json
from paraguide.data.outdir import OutputDir
from paraguide.pipeline.components import load_generator
from paraguide.pipeline.config import BuildConfig
from paraguide.pipeline.records import OUTCOME_FORMAT, Item, Outcome
from paraguide.pipeline.shards import WORK, ShardWriter, read_done


def chunked(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """``items`` in lists of ``size`` (the last may be shorter)."""
    chunk: list[Item] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class Progress:
    """questions/s and acceptance so far, on the main process. Also when stderr is no terminal (a job under
    nohup or a scheduler writes its log to a file): then a line every 30 s rather than a live bar."""

    def __init__(self, total: int | None, desc: str, enabled: bool):
        live = sys.stderr.isatty()
        self.bar = tqdm(
            total=total,
            desc=desc,
            unit="q",
            disable=not enabled,
            smoothing=0.05,
            mininterval=0.1 if live else 30,
        )
        self.seen = self.selected = 0

    def skip(self, questions: int) -> None:
        """Count questions done by an earlier run (``--resume``)."""
        self.bar.update(questions)

    def update(self, outcomes: list[Outcome], scale: int = 1) -> None:
        """Count a chunk's outcomes (``scale``: chunks done at once by all processes)."""
        self.seen += len(outcomes)
        self.selected += sum(o.selected for o in outcomes)
        self.bar.update(len(outcomes) * scale)
        self.bar.set_postfix(accepted=f"{self.selected / max(1, self.seen):.1%}", refresh=False)

    def close(self) -> None:
        """End the bar."""
        self.bar.close()


def _state():
    """The process group: one process, or those started by ``accelerate launch`` / ``torchrun``. Without a GPU
    it must be told it is on CPU, or processes started by torchrun each think they are alone."""
    import torch
    from accelerate import PartialState

    return PartialState(cpu=not torch.cuda.is_available())


class ChunkRunner:
    """One run of a builder (``job``: its command) in ``config.out``: the process group, the generator, the
    output folder (checked: :mod:`paraguide.data.outdir`), the work folder and the chunks an earlier run
    finished (``done``: chunk number -> its outcomes as JSON)."""

    def __init__(self, config: BuildConfig, job: str):
        self.started = time.perf_counter()
        self.config, self.job = config, job
        self.state = _state()
        self.rank, self.world = self.state.process_index, self.state.num_processes
        # Every process checks OUTDIR (reading only, so that all of them raise the same error): the folder
        # before anything is loaded, the run's options and files once the generator says what it reads.
        self.output = OutputDir.check(config.out, job, resume=config.resume, overwrite=config.overwrite)
        self.generator = load_generator(config, device=self.state.device)
        self.output.identify(self.run_config(), self.inputs())
        if config.model:  # given, even where it is not read (--nbest 0): never removed by --overwrite
            self.output.named["model"] = config.model
        self.state.wait_for_everyone()
        self.work = Path(config.out) / WORK
        if self.state.is_main_process:
            self.output.claim()
            self.work.mkdir(exist_ok=True)
        self.state.wait_for_everyone()
        self.done = read_done(self.work)  # read by every process before any writes (chunks owned by number)
        self.state.wait_for_everyone()
        self.processed = 0  # questions this process generated in this invocation

    @property
    def components(self) -> dict:
        """What the generator is made of (the summary's ``components``)."""
        return self.generator.components

    def run_config(self) -> dict:
        """What --resume compares besides the files: the components and every option that changes the output
        (the input and model are compared by content: :meth:`inputs`)."""
        skip = {
            "out",
            "resume",
            "overwrite",
            "quiet",
            "device",
            "examples",
            "squad",
            "pairs",
            "model",
            "allow_empty",
        }
        options = {k: v for k, v in asdict(self.config).items() if k not in skip}
        components = {k: v for k, v in self.components.items() if k not in ("model", "fluency")}  # paths
        return {"job": self.job, "outcome_format": OUTCOME_FORMAT, **options, **components}

    def inputs(self) -> dict[str, dict]:
        """The content hash of every file the run reads: the input, the model and what the suggestion
        source, the scorers and the filters load."""
        return fingerprints({"input": self.config.squad or self.config.pairs, **self.generator.files})

    def run(
        self,
        chunks: Iterable[list[Item]],
        progress: Progress,
        count: Callable[[list[Outcome]], int] | None = None,
        enough: Callable[[dict[int, int]], bool] | None = None,
    ) -> None:
        """Generate every chunk not done yet, this process's share of them, writing each as it is done.

        Without ``enough``, chunk ``i`` is this process's when ``i % world == rank``. With it, the processes
        take the pending chunks in rounds of ``world``, tell each other after each round what every chunk
        finished so far gave (``count(outcomes)``), and stop once ``enough({chunk: count})``."""
        if enough is None:
            self._run_all(chunks, progress)
        else:
            self._run_until(list(chunks), progress, count, enough)
        progress.close()
        self.state.wait_for_everyone()

    def _run_all(self, chunks, progress) -> None:
        with ShardWriter(self.work, self.rank) as writer:
            for index, chunk in enumerate(chunks):
                if index % self.world != self.rank:
                    continue
                if index in self.done:
                    progress.skip(len(chunk) * self.world)
                    continue
                self._generate(writer, index, chunk, progress, self.world)

    def _run_until(self, chunks, progress, count, enough) -> None:
        from accelerate.utils import gather_object

        counts = {c: count([Outcome.from_json(o) for o in self.done[c]]) for c in self.done}
        pending = [c for c in range(len(chunks)) if c not in self.done]
        progress.skip(sum(len(chunks[c]) for c in self.done))
        with ShardWriter(self.work, self.rank) as writer:
            for start in range(0, len(pending), self.world):
                if enough(counts):
                    break
                group = pending[start : start + self.world]
                mine = []
                if self.rank < len(group):
                    c = group[self.rank]
                    mine = [(c, count(self._generate(writer, c, chunks[c], progress, len(group))))]
                counts.update(gather_object(mine))

    def _generate(self, writer, index, chunk, progress, scale) -> list[Outcome]:
        outcomes = self.generator(chunk)
        writer.write_chunk(index, [o.to_json() for o in outcomes])
        self.processed += len(chunk)
        progress.update(outcomes, scale)
        return outcomes

    def outcomes(self) -> dict[int, list[Outcome]]:
        """Every finished chunk's outcomes, read back from the shards (main process, after the run)."""
        return {c: [Outcome.from_json(o) for o in results] for c, results in read_done(self.work).items()}

    def finish(self) -> None:
        """Mark the run finished and write the speed of this invocation (timing.json: kept out of
        summary.json, whose content must not depend on timing). Main process."""
        seconds = time.perf_counter() - self.started
        write_json(
            Path(self.config.out) / "timing.json",
            {
                "processes": self.world,
                "questions_processed_by_main_process": self.processed,
                "seconds": round(seconds, 1),
                "questions_per_minute": round(60 * self.processed * self.world / max(seconds, 1e-9), 1),
            },
        )
        self.output.finish()  # and the folder's lock released: the last thing written
