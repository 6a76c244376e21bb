"""``paraguide perturb --squad F --trap``: the QA over-stability set of DuReader-robust §2.2 (Algorithm 1),
by trap insertion (AddSent-style, :class:`paraguide.perturb.trap.TrapMaker`) or by selection alone.

Writes, in ``--out``:

- ``original.json``: the questions kept, unchanged (SQuAD; wrong or -1 answer offsets repaired);
- ``trap.json`` (insertion): each kept question again, id ``<id>-trap``, its passage holding the trap
  sentence and its answers' offsets shifted;
- ``id_map.json`` (insertion): trap id -> original id;
- ``traps.jsonl`` (insertion): one line per trap: ``id``, ``original_id``, ``question``, ``trap``,
  ``distractor``, ``type``, ``offset`` (the trap's character offset in the new context), ``position``,
  ``source`` (passage or file), ``pattern``, ``mutated`` ({"old", "new", "kind"});
- ``summary.json``: counts, skips by reason, traps by type, pattern and distractor source.

Selection (``select_only``) keeps the questions whose passage holds more than one and fewer than
``max_entities`` entities of the answer's type (Algorithm 1's 1 < m < k, the answer counted once) and writes
``original.json`` and ``summary.json`` only.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from paraguide.data.fingerprint import fingerprints
from paraguide.data.io import write_json, write_jsonl
from paraguide.data.outdir import OutputDir
from paraguide.data.squad import OffsetReport, SquadReader, SquadWriter, repair_offsets
from paraguide.errors import DataError
from paraguide.options import option
from paraguide.perturb.base import Skip
from paraguide.perturb.trap import POSITIONS, EntityPool, TrapMaker

JOB = "perturb-trap"


@dataclass
class TrapJob:
    """Traps (or the selection of Algorithm 1) for the questions of a SQuAD file."""

    squad: str = option("SQuAD JSON file (SQuAD v1.1, DuReader-robust ...)", required=True, metavar="FILE")
    lang: str = option("language of the questions", "en", choices=("en", "zh"))
    out: str = option("output folder (new or empty)", required=True, metavar="DIR")
    position: str = option("where the trap goes: end (after the passage, as AddSent) or before_answer "
                           "(before the sentence holding the answer)", "end", choices=POSITIONS)  # fmt: skip
    seed: int = option("seed of the choice of distractor and mutation (per question)", 13)
    select_only: bool = option("no trap: keep the questions whose passage already holds 2 to "
                               "--max-entities - 1 entities of the answer's type", False)  # fmt: skip
    max_entities: int = option("with --select-only: k of Algorithm 1 (1 < m < k)", 5, metavar="K")
    limit: int = option("at most the first N questions (0: all)", 0, metavar="N")
    ner: str | None = option("a locally installed spaCy pipeline for named entities (default: rules)",
                             metavar="NAME")  # fmt: skip
    overwrite: bool = option("replace an earlier trap run in --out", False)

    def records(self) -> tuple[list[dict], dict, OffsetReport]:
        """The file's questions (the first ``limit``) with answer offsets repaired, its header, and what the
        repair found."""
        reader = SquadReader(self.squad)
        records = []
        for record in reader:
            records.append(record)
            if self.limit and len(records) >= self.limit:
                break
        if not records:
            raise DataError(self.squad, "no questions")
        report = OffsetReport()
        return list(repair_offsets(records, report)), dict(reader.header), report

    def run(self, progress: bool = True) -> dict:
        """Make the traps (or select), write the files, and return the summary (as ``summary.json``)."""
        if self.position not in POSITIONS:
            raise ValueError(f"position must be one of {', '.join(POSITIONS)}")
        if self.select_only and self.max_entities < 3:
            raise ValueError("--max-entities must be at least 3 (1 < m < k keeps nothing otherwise)")
        output = OutputDir.check(self.out, JOB, overwrite=self.overwrite, resumable=False)
        records, header, offsets = self.records()
        maker = TrapMaker(self.lang, seed=self.seed, ner=self.ner)
        started = time.perf_counter()
        from tqdm.auto import tqdm

        bar = tqdm(total=len(records), desc="trap", unit="q", disable=not progress)
        if self.select_only:
            kept, skipped, counts = self._select(maker, records, unlocated(offsets), bar)
            made = None
        else:
            made, skipped, counts = self._traps(maker, records, unlocated(offsets), bar)
            kept = [record for record, _, _ in made]
        bar.close()
        config = {"lang": self.lang, "position": self.position, "seed": self.seed,
                  "select_only": self.select_only, "max_entities": self.max_entities, "limit": self.limit,
                  "ner": self.ner}  # fmt: skip
        output.identify(config, fingerprints({"squad": self.squad}))
        output.claim()
        out = Path(self.out)
        with SquadWriter(out / "original.json", header) as writer:
            writer.write_all(kept)
        files = ["original.json", "summary.json"]
        if made is not None:
            self._write_traps(out, made, header)
            files = ["original.json", "trap.json", "id_map.json", "traps.jsonl", "summary.json"]
        summary = {
            "job": JOB,
            "mode": "select" if self.select_only else "insert",
            "lang": self.lang,
            "questions": len(records),
            "kept": len(kept),
            "skipped": dict(skipped.most_common()),
            **counts,
            "answer_offsets": {"repaired": offsets.repaired, "unrepairable": len(offsets.unrepairable)},
            "seconds": round(time.perf_counter() - started, 2),
            "files": files,
        }
        if not self.select_only:
            summary["position"] = self.position
        else:
            summary["max_entities"] = self.max_entities
        write_json(out / "summary.json", summary)
        output.finish()
        return summary

    def _usable(self, record: dict, bad: set[str]) -> Skip | None:
        if not record.get("answers"):
            return Skip("no answer")
        if str(record["id"]) in bad:
            return Skip("answer not found in the passage")
        return None

    def _select(
        self, maker: TrapMaker, records: list[dict], bad: set[str], bar
    ) -> tuple[list[dict], Counter, dict]:
        kept, skipped, by_type, by_m = [], Counter(), Counter(), Counter()
        for record in records:
            bar.update(1)
            why = self._usable(record, bad)
            if why is None:
                kind, m = maker.same_type_count(record["context"], record["answers"])
                if kind == "other":
                    why = Skip("answer of no known entity type")
                elif m < 2:
                    why = Skip("no other entity of the answer's type in the passage")
                elif m >= self.max_entities:
                    why = Skip(f"{self.max_entities} or more entities of the answer's type in the passage")
                else:
                    kept.append(record)
                    by_type[kind] += 1
                    by_m[str(m)] += 1
                    continue
            skipped[why.reason] += 1
        return (
            kept,
            skipped,
            {"by_type": dict(by_type.most_common()), "by_entities": dict(sorted(by_m.items()))},
        )

    def _traps(self, maker: TrapMaker, records: list[dict], bad: set[str], bar) -> tuple[list, Counter, dict]:
        from paraguide.perturb.base import parse

        pool = EntityPool()
        for context in dict.fromkeys(r["context"] for r in records):
            pool.add(maker.finder.entities(context))
        made, skipped = [], Counter()
        by_type, by_pattern, by_source, by_kind = Counter(), Counter(), Counter(), Counter()
        batch = 256  # questions tagged together
        for b in range(0, len(records), batch):
            chunk = records[b : b + batch]
            parsed = parse([r["question"] for r in chunk], self.lang, self.ner, maker.finder)
            for record, q in zip(chunk, parsed, strict=True):
                bar.update(1)
                why = self._usable(record, bad)
                if why is None:
                    trap = maker.make(str(record["id"]), record["question"], record["context"],
                                      record["answers"], pool, q)  # fmt: skip
                    if isinstance(trap, Skip):
                        why = trap
                    else:
                        inserted = maker.insert(record["context"], record["answers"], trap.sentence,
                                                self.position, record.get("plausible_answers"))  # fmt: skip
                        if isinstance(inserted, Skip):
                            why = inserted
                if why is not None:
                    skipped[why.reason] += 1
                    continue
                made.append((record, trap, inserted))
                by_type[trap.type] += 1
                by_pattern[trap.pattern] += 1
                by_source[trap.source] += 1
                by_kind[trap.mutation.kind] += 1
        counts = {
            "by_type": dict(by_type.most_common()),
            "by_pattern": dict(by_pattern.most_common()),
            "distractor_source": dict(by_source.most_common()),
            "mutation": dict(by_kind.most_common()),
        }
        return made, skipped, counts

    def _write_traps(self, out: Path, made: list, header: dict) -> None:
        id_map, rows = {}, []
        with SquadWriter(out / "trap.json", header) as writer:
            for record, trap, inserted in made:
                new_id = f"{record['id']}-trap"
                copy = {**record, "id": new_id, "context": inserted.context, "answers": inserted.answers}
                if inserted.plausible_answers is not None:
                    copy["plausible_answers"] = inserted.plausible_answers
                writer.write(copy)
                id_map[new_id] = str(record["id"])
                rows.append({
                    "id": new_id,
                    "original_id": str(record["id"]),
                    "question": record["question"],
                    "trap": trap.sentence,
                    "distractor": trap.distractor,
                    "type": trap.type,
                    "offset": inserted.offset,
                    "position": self.position,
                    "source": trap.source,
                    "pattern": trap.pattern,
                    "mutated": {"old": trap.mutation.old, "new": trap.mutation.new, "kind": trap.mutation.kind},
                })  # fmt: skip
        write_json(out / "id_map.json", id_map)
        write_jsonl(out / "traps.jsonl", rows)


def unlocated(offsets: OffsetReport) -> set[str]:
    """Ids of questions with an answer whose text is not in the passage (repair_offsets found no place for
    it): no trap can keep such an answer at its offset."""
    return {str(u["id"]) for u in offsets.unrepairable if u["field"] == "answers"}


def format_summary(summary: dict) -> str:
    """The summary for the terminal."""
    what = "traps" if summary["mode"] == "insert" else "questions selected"
    lines = [f"{summary['kept']} {what} from {summary['questions']} questions ({summary['lang']}) in "
             f"{summary['seconds']:.1f} s"]  # fmt: skip
    for key in ("by_type", "by_pattern", "distractor_source", "mutation", "by_entities"):
        if summary.get(key):
            lines.append(
                f"  {key.replace('_', ' ')}: " + ", ".join(f"{k} {v}" for k, v in summary[key].items())
            )
    if summary["skipped"]:
        lines.append("  skipped:")
        lines += [f"    {reason}: {n}" for reason, n in summary["skipped"].items()]
    return "\n".join(lines)
