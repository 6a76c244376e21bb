"""``paraguide perturb``: DuQM-style perturbation pairs from a user's questions (or the first questions of
a pair file), written as a pair file any QM model reads, with their category columns and an account of
what each operation made and why it skipped the rest.

Writes, in ``--out``:

- ``pairs.jsonl``: one pair a line: ``id``, ``source_id`` (the question's line or record), ``question1``
  (the original), ``question2`` (the perturbed), ``label`` (1 same question, 0 not), ``category``,
  ``subcategory``, ``operation``, ``changes`` ([{"start", "old", "new"}]), at most ``--per-operation``
  of each operation;
- ``pairs.tsv``: ``question1<TAB>question2<TAB>label`` (LCQMC's layout);
- ``summary.json``: pairs kept and generated per operation, pairs per subcategory and category; skips
  per operation by reason; the operations that do not apply to the language and why.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, fields
from pathlib import Path

from paraguide.data.fingerprint import fingerprints
from paraguide.data.io import atomic_write, write_json, write_jsonl
from paraguide.data.outdir import OutputDir
from paraguide.errors import DataError
from paraguide.options import option
from paraguide.perturb.base import SUBCATEGORIES, Perturbation
from paraguide.perturb.suite import Perturber


@dataclass
class PerturbJob:
    """``paraguide perturb``: every applicable operation on every question of ``input`` (or of the first
    (``side`` a) questions of the pair file ``pairs``)."""

    input: str | None = option("questions: text (one a line, tabs included), TSV named .tsv (question first) "
                               "or JSONL (question)", metavar="FILE")  # fmt: skip
    pairs: str | None = option("instead of --input: a pair file (LCQMC/BQ TSV, Quora, MRPC, JSONL); its "
                               "questions of --side are perturbed", metavar="FILE")  # fmt: skip
    squad: str | None = option("instead of --input: a SQuAD file for the QA over-stability set, with --trap "
                               "or --select-only (DuReader-robust's Algorithm 1)", metavar="FILE")  # fmt: skip
    trap: bool = option("with --squad: insert a trap sentence per question (trap.json, traps.jsonl)", False)
    select_only: bool = option("with --squad: no trap; keep the questions whose passage already holds 2 to "
                               "--max-entities - 1 entities of the answer's type", False)  # fmt: skip
    position: str = option("with --trap: end (after the passage, as AddSent) or before_answer (before the "
                           "answer's sentence)", "end", choices=("end", "before_answer"))  # fmt: skip
    max_entities: int = option("with --select-only: k of Algorithm 1 (1 < m < k)", 5, metavar="K")
    side: str = option("with --pairs: the questions of side a, b or both (deduplicated)", "a",
                       choices=("a", "b", "both"))  # fmt: skip
    lang: str = option("language of the questions", "en", choices=("en", "zh"))
    out: str = option("output folder (new or empty)", required=True, metavar="DIR")
    ops: str = option("what to generate: operation names, subcategories, categories, comma-separated, or "
                      "the preset duqm (all that apply)", "duqm", metavar="NAMES")  # fmt: skip
    limit: int = option("perturb at most the first N questions (0: all)", 0, metavar="N", minimum=0)
    per_operation: int = option("keep at most N pairs per operation, a seeded random sample (0: all; the "
                                "operations that apply to almost every question, misspell and "
                                "insert_particle, otherwise outnumber the rest)", 0, metavar="N",
                                minimum=0)  # fmt: skip
    seed: int = option("seed of the choice among an operation's candidates", 13)
    ner: str | None = option("a locally installed spaCy pipeline for named entities (default: rules)",
                             metavar="NAME")  # fmt: skip
    overwrite: bool = option("replace an earlier perturb run in --out", False)

    def questions(self) -> list[tuple[str, str]]:
        """``(source_id, question)`` in input order, each question once."""
        from paraguide.data.pairs import read_pairs
        from paraguide.data.questions import read_questions

        if bool(self.input) == bool(self.pairs):
            raise ValueError(
                "give --input (questions), --pairs (a pair file) or --squad with --trap, one of them"
            )
        found: list[tuple[str, str]] = []
        if self.input:
            whole = not self.input.endswith((".tsv", ".tsv.gz"))
            for i, q in enumerate(read_questions(self.input, lang=self.lang, whole_lines=whole), 1):
                found.append((str(i), q.question.strip()))
        else:
            for i, pair in enumerate(read_pairs(self.pairs), 1):
                if self.side in ("a", "both"):
                    found.append((f"{i}a", pair.a.strip()))
                if self.side in ("b", "both"):
                    found.append((f"{i}b", pair.b.strip()))
        seen, out = set(), []
        for source_id, text in found:
            if text and text not in seen:
                seen.add(text)
                out.append((source_id, text))
        if not out:
            raise DataError(self.input or self.pairs, "no questions to perturb")
        return out[: self.limit] if self.limit else out

    def run(self, progress: bool = True) -> dict:
        """Generate, write the files, and return the summary (as ``summary.json`` holds it)."""
        for name in ("limit", "per_operation"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be a whole number, at least 0 (0: all)")
        if self.squad or self.trap or self.select_only:
            return self._trap(progress)
        output = OutputDir.check(self.out, "perturb", overwrite=self.overwrite, resumable=False)
        ops = [n.strip() for n in self.ops.split(",") if n.strip()]
        perturber = Perturber(self.lang, ops, seed=self.seed, ner=self.ner)
        questions = self.questions()
        started = time.perf_counter()
        outcomes = []
        batch = 256  # questions parsed and perturbed together (the bar moves per batch)
        from tqdm.auto import tqdm

        with tqdm(total=len(questions), desc="perturb", unit="q", disable=not progress) as bar:
            for start in range(0, len(questions), batch):
                chunk = questions[start : start + batch]
                for o in perturber.perturb([q for _, q in chunk]):
                    outcomes.append((chunk[o.index][0], o))
                bar.update(len(chunk))
        seconds = time.perf_counter() - started
        config = {"lang": self.lang, "ops": perturber.names, "seed": self.seed, "side": self.side,
                  "limit": self.limit, "per_operation": self.per_operation, "ner": self.ner}  # fmt: skip
        output.identify(config, fingerprints({"input": self.input, "pairs": self.pairs}))
        output.claim()
        summary = _write(Path(self.out), outcomes, perturber, len(questions), seconds, self.per_operation)
        output.finish()
        return summary

    def _trap(self, progress: bool) -> dict:
        """``--squad F --trap`` / ``--select-only``: the QA over-stability set (:mod:`paraguide.pipeline.trap`)."""
        from paraguide.pipeline.trap import TrapJob

        if not self.squad or self.input or self.pairs:
            raise ValueError("--trap and --select-only take a SQuAD file (--squad), not --input or --pairs")
        if self.trap == self.select_only:
            raise ValueError(
                "with --squad give --trap (insert traps) or --select-only (Algorithm 1's selection)"
            )
        job = TrapJob(**{f.name: getattr(self, f.name) for f in fields(TrapJob)})  # the options they share
        return job.run(progress)


_BREAKS = re.compile(r"[ ]*[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+[ ]*")


def _cap(rows: list[dict], per_operation: int, seed: int) -> list[dict]:
    """At most ``per_operation`` rows of each operation, a seeded sample, in input order."""
    if not per_operation:
        return rows
    by_op: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_op[row["operation"]].append(i)
    keep: set[int] = set()
    for op, indices in by_op.items():
        rng = random.Random(f"{seed}:{op}")
        keep.update(indices if len(indices) <= per_operation else rng.sample(indices, per_operation))
    return [row for i, row in enumerate(rows) if i in keep]


def _write(
    out: Path, outcomes, perturber: Perturber, n_questions: int, seconds: float, per_operation: int = 0
) -> dict:
    made: Counter = Counter()
    skipped: dict[str, Counter] = defaultdict(Counter)
    rows = []
    for source_id, o in outcomes:
        if isinstance(o.result, Perturbation):
            p = o.result
            made[o.operation] += 1
            rows.append({"id": f"{source_id}-{o.operation}", "source_id": source_id, "question1": p.original,
                         "question2": p.perturbed, "label": p.label, "category": p.category,
                         "subcategory": p.subcategory, "operation": p.operation,
                         "changes": [{"start": c.start, "old": c.old, "new": c.new} for c in p.changes]})  # fmt: skip
        else:
            skipped[o.operation][o.result.reason] += 1
    generated = Counter(made)
    rows = _cap(rows, per_operation, perturber.seed)
    made = Counter(row["operation"] for row in rows)
    write_jsonl(out / "pairs.jsonl", rows)
    flattened = 0  # pairs whose tabs or line breaks became spaces in pairs.tsv (pairs.jsonl keeps them)
    with atomic_write(out / "pairs.tsv") as f:
        for row in rows:
            q1, q2 = _tsv_cell(row["question1"]), _tsv_cell(row["question2"])
            flattened += (q1, q2) != (row["question1"], row["question2"])
            f.write(f"{q1}\t{q2}\t{row['label']}\n")
    by_sub: Counter = Counter()
    by_cat: Counter = Counter()
    labels: Counter = Counter()
    for op in perturber.operations:
        by_sub[op.subcategory] += made[op.name]
        by_cat[op.category] += made[op.name]
    for row in rows:
        labels[row["label"]] += 1
    summary = {
        "job": "perturb",
        "lang": perturber.lang,
        "questions": n_questions,
        "pairs": len(rows),
        "labels": {"same (1)": labels[1], "different (0)": labels[0]},
        "seconds": round(seconds, 2),
        "operations": {
            op.name: {
                "subcategory": op.subcategory,
                "category": op.category,
                "label": op.label,
                "pairs": made[op.name],
                "generated": generated[op.name],
                "skipped": dict(skipped[op.name].most_common()),
            }
            for op in perturber.operations
        },  # fmt: skip
        "subcategories": {s: by_sub[s] for s in SUBCATEGORIES if s in by_sub},
        "categories": dict(by_cat),
        "not_applicable": perturber.left_out,
    }
    if flattened:
        summary["pairs_tsv_whitespace_replaced"] = flattened
    write_json(out / "summary.json", summary)
    return summary


def _tsv_cell(text: str) -> str:
    """A question as one TSV cell: each run of tabs and line breaks becomes one space."""
    return _BREAKS.sub(" ", text)


def format_summary(summary: dict) -> str:
    """The summary as a table for the terminal."""
    if summary["job"] != "perturb":  # the trap set's
        from paraguide.pipeline.trap import format_summary as trap_summary

        return trap_summary(summary)
    lines = [
        f"{summary['pairs']} pairs from {summary['questions']} questions ({summary['lang']}; "
        f"{summary['labels']['same (1)']} same, {summary['labels']['different (0)']} different) in "
        f"{summary['seconds']:.1f} s",
        f"  {'operation':<26}{'subcategory':<20}{'label':>6}{'pairs':>8}{'made':>8}  most common skip",
    ]
    for name, op in summary["operations"].items():
        skip = next(iter(op["skipped"].items()), None)
        lines.append(f"  {name:<26}{op['subcategory']:<20}{op['label']:>6}{op['pairs']:>8}{op['generated']:>8}  "
                     + (f"{skip[0]} ({skip[1]})" if skip else ""))  # fmt: skip
    for name, why in summary["not_applicable"].items():
        lines.append(f"  {name:<26}not applicable to {summary['lang']}: {why}")
    return "\n".join(lines)
