"""What a builder tells about its run, gathered as its files are written: ``accounting.jsonl`` (every input
question: selected, or the stage and reason it fell out), ``provenance.jsonl`` (each paraphrase: its
original, suggestion, scores and steps), ``id_map.json`` and ``summary.json`` (counts per stage that add up
to the input questions); :func:`format_summary` is what the CLI prints."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from paraguide.data.io import atomic_write, write_json
from paraguide.pipeline.config import BuildConfig
from paraguide.pipeline.generate import stage_names
from paraguide.pipeline.inputs import InputReport
from paraguide.pipeline.records import Choice, Outcome


class RunReport:
    """Accounting rows, provenance records and the id map of one run, added in output order; ``finish``
    writes them with the summary."""

    def __init__(self, config: BuildConfig, generator, inputs: InputReport):
        self.config, self.generator, self.inputs = config, generator, inputs
        self.accounting: list[dict] = []
        self.provenance: list[dict] = []
        self.id_map: dict = {}

    def account(self, key: str, outcome: Outcome, **extra) -> None:
        """One input question's row: selected (at which step), or the stage and reason it fell out."""
        if outcome.selected:
            self.accounting.append({"id": key, "status": "selected", "step": len(outcome.steps), **extra})
        else:
            self.drop(key, outcome.stage, outcome.reason)

    def drop(self, key: str, stage: str, reason: str) -> None:
        """A row for a question that fell out at ``stage`` (also the builders' own stages, e.g. sampling)."""
        self.accounting.append({"id": key, "status": "dropped", "stage": stage, "reason": reason})

    def paraphrase(self, new_id, original_id, original: str, path: list[Choice]) -> None:
        """A written paraphrase (the last choice of ``path``) and where it came from."""
        last = path[-1]
        self.provenance.append(
            {
                "id": new_id,
                "original_id": original_id,
                "original": original,
                "paraphrase": last.paraphrase,
                "suggestion": last.suggestion,
                "matched": last.matched,
                "suggestion_source": last.suggestion_source,
                "relation": last.relation,
                "scores": last.scores,
                "step": last.step,
                "origin": last.origin,
                "steps": [
                    {"suggestion": s.suggestion, "paraphrase": s.paraphrase, "scores": s.scores} for s in path
                ],
            }
        )

    def finish(self, outcomes: list[Outcome], files: list[str]) -> dict:
        """Write accounting, provenance, id map and summary into OUTDIR; return the summary."""
        out = Path(self.config.out)
        for name, rows in (("accounting.jsonl", self.accounting), ("provenance.jsonl", self.provenance)):
            with atomic_write(out / name) as f:
                for row in rows:
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
        write_json(out / "id_map.json", self.id_map)
        summary = self.summary(outcomes)
        summary["input_check"] = self.inputs.as_dict()
        summary["files"] = [*files, "id_map.json", "provenance.jsonl", "accounting.jsonl", "summary.json"]
        summary["examples"] = self.examples()
        write_json(out / "summary.json", summary)
        return summary

    def summary(self, outcomes: list[Outcome]) -> dict:
        """Counts per stage (a funnel that adds up to the input questions), candidates and components."""
        config, accounting = self.config, self.accounting
        stages = stage_names(self.generator.filters)
        fell_out = Counter(row["stage"] for row in accounting if row["status"] == "dropped")
        selected = sum(row["status"] == "selected" for row in accounting)
        total = len(accounting)
        # Augmentation adds two stages: "not_processed" (n reached before the question's turn) and
        # "sampling" (accepted, but beyond the n sampled).
        order = [s for s in ("not_processed",) if fell_out.get(s)] + list(stages[:-1])
        order += [s for s in ("sampling",) if fell_out.get(s)]
        # A funnel: how many questions reached each stage (a question that fell out at stage S reached S).
        reached, remaining = {}, total - fell_out.get("not_processed", 0)
        for stage in stages[:-1]:
            reached[stage] = remaining
            remaining -= fell_out.get(stage, 0)
        reached["selected"] = selected
        drops = Counter()
        for o in outcomes:
            drops.update(o.candidate_drops)
        steps = Counter(row["step"] for row in accounting if row["status"] == "selected")
        origins = Counter(o.chosen.origin for o in outcomes if o.selected)
        generated = sum(o.candidates for o in outcomes if not o.selected)
        generated += sum(s.candidates for o in outcomes for s in o.steps)
        return {
            "job": "augment" if config.mode else ("adversarial testset" if config.adversarial else "testset"),
            "input": config.squad or config.pairs,
            "input_questions": total,
            "selected": selected,
            "acceptance": round(selected / max(1, total), 4),
            "written": len(self.provenance),
            "fell_out": {stage: fell_out.get(stage, 0) for stage in order},
            "reached": reached,
            "candidates": {
                "generated": generated,
                "dropped_by": {s: drops.get(s, 0) for s in stages[1:-1]},
            },
            "selected_at_step": {str(k): v for k, v in sorted(steps.items())},
            "selected_by_origin": dict(sorted(origins.items())),
            "components": self.generator.components,
            "seed": config.seed,
        }

    def examples(self) -> list[dict]:
        """A seeded few before/after examples."""
        rng = random.Random(self.config.seed)
        picked = rng.sample(self.provenance, min(self.config.examples, len(self.provenance)))
        return [
            {"original": p["original"], "paraphrase": p["paraphrase"], "suggestion": p["suggestion"]}
            for p in picked
        ]


def format_summary(summary: dict, out: str) -> str:
    """What the CLI prints at the end: counts per stage, where the files are, a few before/after examples."""
    total = summary["input_questions"]
    lines = [
        f"{summary['job']}: {summary['selected']} of {total} questions selected "
        f"({summary['acceptance']:.1%}); {summary['written']} written",
        "questions that fell out, by stage:",
    ]
    for stage, count in summary["fell_out"].items():
        if count:
            lines.append(f"  {stage:<22} {count:>8}")
    lines.append(f"  {'selected':<22} {summary['selected']:>8}")
    check = summary["input_check"]
    if check["answer_offsets_repaired"]:
        lines.append(
            f"answer offsets repaired (wrong or -1, the text found in the context; the files hold the right "
            f"ones, listed in summary.json): {check['answer_offsets_repaired']}"
        )
    if check["skipped_records"]:
        lines.append(f"records skipped (--skip-bad; listed in summary.json): {check['skipped_records']}")
    if summary["input_check"].get("empty_answers"):
        lines.append(f"empty answer texts (kept, not used): {summary['input_check']['empty_answers']}")
    lines.append(f"files in {out}: {', '.join(summary['files'])}")
    if summary["examples"]:
        lines.append("examples (original -> paraphrase [suggestion]):")
        for e in summary["examples"]:
            lines.append(f"  {e['original']}\n    -> {e['paraphrase']}  [{e['suggestion']}]")
    return "\n".join(lines)
