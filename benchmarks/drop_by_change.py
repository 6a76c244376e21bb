"""Where a paraphrased test set's F1 drop comes from: one QA run's per-question F1 on each original and its
paraphrase, grouped by the kind of change (question word only, function words only, content words) and by
how many of the passage's content words the paraphrase no longer says -- the words a QA model can match
without understanding the question. Reads a test-set folder (original.json, paraphrased.json, id_map.json)
and the run's predictions on both files (recipes/qa/run_qa.py's predictions_<name>.json).

    python benchmarks/drop_by_change.py --testset runs/exp/qa-en-rewrite/rewrite \\
        --run runs/exp/qa-en-rewrite/qa-original-42 --name rewrite \\
        --result benchmarks/results/drop_by_change_rewrite_42.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--testset", required=True, help="a build-testset folder")
    ap.add_argument("--run", required=True, help="a run_qa.py output folder with predictions on both files")
    ap.add_argument(
        "--name", required=True, help="the test set's name in the run: predictions_NAME-original.json"
    )
    ap.add_argument("--result", required=True, help="where the JSON goes")
    args = ap.parse_args()
    testset, run = Path(args.testset), Path(args.run)
    originals = {r["id"]: r for r in SquadReader(testset / "original.json")}
    paraphrases = {r["id"]: r["question"] for r in SquadReader(testset / "paraphrased.json")}
    id_map = json.loads((testset / "id_map.json").read_text(encoding="utf-8"))
    before = json.loads((run / f"predictions_{args.name}-original.json").read_text(encoding="utf-8"))
    after = json.loads((run / f"predictions_{args.name}-paraphrased.json").read_text(encoding="utf-8"))
    stop = load_stopwords("en")
    groups: dict[str, dict[str, list[float]]] = {"change": {}, "passage_words_lost": {}}
    passages: dict[str, frozenset[str]] = {}  # a passage's words, read once for all its questions
    for pid, oid in id_map.items():
        question, context = originals[oid]["question"], originals[oid]["context"]
        answers = [a["text"] for a in originals[oid]["answers"]]
        paraphrase = paraphrases[pid]
        drop = 100 * (f1(before[oid], answers) - f1(after[pid], answers))
        if question_word_only(question, paraphrase, "en"):
            change = "question word only"
        elif function_words_only(question, paraphrase, "en"):
            change = "function words only"
        else:
            change = "content words"
        if context not in passages:
            passages[context] = frozenset(t.lower() for t in tokenize(context, "en"))
        words = passages[context]
        lost = len(_passage_words(question, words, stop)) - len(_passage_words(paraphrase, words, stop))
        for dim, key in (("change", change), ("passage_words_lost", "1 or more" if lost > 0 else "none")):
            groups[dim].setdefault(key, []).append(drop)
        groups.setdefault("all", {}).setdefault("all", []).append(drop)
    result = {"testset": args.testset, "run": args.run,
              "groups": {dim: {k: _summary(v) for k, v in sorted(g.items())} for dim, g in groups.items()}}  # fmt: skip
    Path(args.result).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["groups"], indent=1))


if __name__ == "__main__":
    main()
