"""Where a paraphrased test set's F1 drop comes from: one QA run's per-question F1 on each original and its
paraphrase, grouped by the kind of change (question word only, function words only, content words), by
how many of the passage's content words the paraphrase no longer says -- the words a QA model can match
without understanding the question -- and by how the paraphrase was made (its provenance's origin: an
in-place swap, each reordering or rephrasing rule). Reads a test-set folder (original.json, paraphrased.json, id_map.json)
and the run's predictions on both files (recipes/qa/run_qa.py's predictions_<name>.json).

    python benchmarks/drop_by_change.py --testset runs/exp/qa-en-rewrite/rewrite \\
        --run runs/exp/qa-en-rewrite/qa-original-42 --name rewrite \\
        --result benchmarks/results/drop_by_change_rewrite_42.json

A QM test set (original.tsv, paraphrased.tsv: pairs) and a run_qm.py run (predictions_NAME-original.tsv,
one label a line; ``--name ''`` for predictions_original.tsv) give the accuracy drop and the share of pairs
whose prediction changed, by the kind of change alone (``--lang zh`` for Chinese pairs).
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from paraguide.data.io import read_jsonl
from paraguide.data.pairs import read_pairs
from paraguide.data.squad import SquadReader
from paraguide.evaluate.metrics import f1
from paraguide.text.edits import function_words_only, question_word_only
from paraguide.text.stopwords import is_word, load_stopwords
from paraguide.text.tokenize import tokenize


def _passage_words(question: str, context: frozenset[str], stop: set[str]) -> set[str]:
    return {
        w for t in tokenize(question, "en") if is_word(t) and (w := t.lower()) not in stop and w in context
    }


def _summary(drops: list[float]) -> dict:
    sem = statistics.stdev(drops) / len(drops) ** 0.5 if len(drops) > 1 else 0.0
    return {"questions": len(drops), "drop_f1": round(statistics.fmean(drops), 2), "sem": round(sem, 2)}


def _change(question: str, paraphrase: str, lang: str) -> str:
    if question_word_only(question, paraphrase, lang):
        return "question word only"
    if function_words_only(question, paraphrase, lang):
        return "function words only"
    return "content words"


def _pair_groups(testset: Path, run: Path, name: str, lang: str) -> dict:
    """QM: per kind of change, the pairs, the accuracy drop (points) and the share of changed predictions."""
    prefix = f"{name}-" if name else ""
    originals = list(read_pairs(testset / "original.tsv"))
    paraphrased = list(read_pairs(testset / "paraphrased.tsv"))
    before, after = (
        [int(x) for x in (run / f"predictions_{prefix}{side}.tsv").read_text(encoding="utf-8").split()]
        for side in ("original", "paraphrased")
    )
    kinds = ("question word only", "function words only", "content words")  # shallow to deep
    rows: dict[str, list[tuple[int, bool]]] = {}
    for o, p, x, y in zip(originals, paraphrased, before, after, strict=True):
        # the deepest change of the sides paraphrased (--side a: the first question alone)
        sides = ((o.a, p.a), (o.b, p.b))
        change = max((_change(q, r, lang) for q, r in sides if q != r), key=kinds.index)
        rows.setdefault(change, []).append(((x == o.label) - (y == o.label), x != y))
    rows["all"] = [r for k in kinds for r in rows.get(k, [])]
    return {k: {"pairs": len(v), "drop_accuracy": round(100 * statistics.fmean(d for d, _ in v), 2),
                "changed_predictions": round(100 * statistics.fmean(c for _, c in v), 2)}
            for k, v in rows.items() if v}  # fmt: skip


def _question_groups(testset: Path, run: Path, name: str) -> dict:
    """QA: per kind of change and by the passage words the paraphrase no longer says, the F1 drop."""
    originals = {r["id"]: r for r in SquadReader(testset / "original.json")}
    paraphrases = {r["id"]: r["question"] for r in SquadReader(testset / "paraphrased.json")}
    id_map = json.loads((testset / "id_map.json").read_text(encoding="utf-8"))
    before = json.loads((run / f"predictions_{name}-original.json").read_text(encoding="utf-8"))
    after = json.loads((run / f"predictions_{name}-paraphrased.json").read_text(encoding="utf-8"))
    origins = {}  # paraphrase id -> how it was made (in_place, reorder:RULE), where the run says
    if (testset / "provenance.jsonl").exists():
        origins = {
            p["id"]: p.get("origin", "paraphraser") for _, p in read_jsonl(testset / "provenance.jsonl")
        }
    stop = load_stopwords("en")
    groups: dict[str, dict[str, list[float]]] = {"change": {}, "passage_words_lost": {}}
    if origins:
        groups["origin"] = {}
    passages: dict[str, frozenset[str]] = {}  # a passage's words, read once for all its questions
    for pid, oid in id_map.items():
        question, context = originals[oid]["question"], originals[oid]["context"]
        answers = [a["text"] for a in originals[oid]["answers"]]
        paraphrase = paraphrases[pid]
        drop = 100 * (f1(before[oid], answers) - f1(after[pid], answers))
        change = _change(question, paraphrase, "en")
        if context not in passages:
            passages[context] = frozenset(t.lower() for t in tokenize(context, "en"))
        words = passages[context]
        lost = len(_passage_words(question, words, stop)) - len(_passage_words(paraphrase, words, stop))
        keys = [("change", change), ("passage_words_lost", "1 or more" if lost > 0 else "none")]
        if origins:
            keys.append(("origin", origins[pid]))
        for dim, key in keys:
            groups[dim].setdefault(key, []).append(drop)
        groups.setdefault("all", {}).setdefault("all", []).append(drop)
    return {dim: {k: _summary(v) for k, v in sorted(g.items())} for dim, g in groups.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--testset", required=True, help="a build-testset folder")
    ap.add_argument("--run", required=True, help="a run_qa.py output folder with predictions on both files")
    ap.add_argument(
        "--name", required=True, help="the test set's name in the run: predictions_NAME-original.json"
    )
    ap.add_argument("--result", required=True, help="where the JSON goes")
    ap.add_argument("--lang", default="en", help="the questions' language (QM pairs; QA is English)")
    args = ap.parse_args()
    testset, run = Path(args.testset), Path(args.run)
    if (testset / "original.tsv").exists():  # a QM set: pairs
        groups = _pair_groups(testset, run, args.name, args.lang)
    else:
        groups = _question_groups(testset, run, args.name)
    result = {"testset": args.testset, "run": args.run, "groups": groups}
    Path(args.result).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(groups, indent=1))


if __name__ == "__main__":
    main()
