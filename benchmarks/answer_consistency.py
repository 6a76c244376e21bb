"""Would an answer-consistency check pay (issue "Test sets that rewrite", point 2)? A QA model answers each
blind-judged English rewrite and its original on the original's paragraph; the check keeps a rewrite whose
answer agrees with the original's. Measured: how well the agreement (token F1 between the two predicted
spans) tells the rewrites the reader judged the same question from the others (ROC-AUC), and the precision of
what it keeps.

    python recipes/experiments/subset.py ../shared/data/squad_v1.1/train-v1.1.reconstructed.json.gz \\
        runs/acons/train4000.json --n 4000 --seed 13
    python recipes/qa/run_qa.py --lang en --train_file runs/acons/train4000.json --output_dir runs/acons/qa \\
        --seed 42 --num_train_epochs 1 --max_seq_length 192 --doc_stride 64 --learning_rate 1e-4
    python benchmarks/answer_consistency.py questions --out runs/acons      # judged.json + labels.json
    python recipes/qa/run_qa.py --lang en --model_name_or_path runs/acons/qa \\
        --predict_files runs/acons/judged.json --output_dir runs/acons/pred --max_seq_length 192 --doc_stride 64
    python benchmarks/answer_consistency.py score --out runs/acons \\
        --predictions runs/acons/pred/predictions_judged.json --result benchmarks/results/answer_consistency.json

The judged items are the accepted output of readings 2026-11-26b_en and 2026-11-26c_en (SQuAD v1.1 dev;
both presets, before and after keeps_scope).
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import re
import string
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from reading import read_judgements  # noqa: E402

SHARED = HERE.parent.parent / "shared" / "data"
TAGS = ("2026-11-26b_en", "2026-11-26c_en")


def questions(args) -> None:
    contexts = {}
    with gzip.open(SHARED / "squad_v1.1" / "dev-v1.1.json.gz", "rt", encoding="utf-8") as f:
        for a in json.load(f)["data"]:
            for p in a["paragraphs"]:
                for q in p["qas"]:
                    contexts[q["id"]] = (p["context"], q["answers"])
    paragraphs, labels = {}, {}
    for tag in TAGS:
        stem = HERE / "results" / f"reading_{tag}"
        key = json.loads(Path(f"{stem}_key.json").read_text(encoding="utf-8"))
        judged = read_judgements(
            f"{stem}_judgements.tsv", key["items"], ["fluent", "same"], {"fluent", "same"}
        )
        for item, it in key["items"].items():
            context, answers = contexts[it["systems"][0]["id"]]
            name = f"{tag}:{item}"
            labels[name] = {**judged[item], "original": it["original"], "paraphrase": it["paraphrase"],
                            "answers": [a["text"] for a in answers]}  # fmt: skip
            paragraphs.setdefault(context, []).extend(
                [
                    {"id": f"{name}:o", "question": it["original"], "answers": answers},
                    {"id": f"{name}:p", "question": it["paraphrase"], "answers": answers},
                ]  # fmt: skip
            )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = [{"title": "judged", "paragraphs": [{"context": c, "qas": qs} for c, qs in paragraphs.items()]}]
    (out / "judged.json").write_text(json.dumps({"version": "1.1", "data": data}), encoding="utf-8")
    (out / "labels.json").write_text(json.dumps(labels, ensure_ascii=False), encoding="utf-8")
    print(f"{len(labels)} judged rewrites -> {out / 'judged.json'}")


def _norm(s: str) -> list[str]:  # SQuAD's answer normalisation
    s = "".join(ch for ch in s.lower() if ch not in set(string.punctuation))
    return re.sub(r"\b(a|an|the)\b", " ", s).split()


def _f1(a: str, b: str) -> float:
    a, b = _norm(a), _norm(b)
    if not a or not b:
        return float(a == b)
    n = sum((collections.Counter(a) & collections.Counter(b)).values())
    return 0.0 if n == 0 else 2 * n / (len(a) + len(b))


def score(args) -> None:
    from sklearn.metrics import roc_auc_score

    labels = json.loads((Path(args.out) / "labels.json").read_text(encoding="utf-8"))
    pred = json.loads(Path(args.predictions).read_text(encoding="utf-8"))
    rows = []
    for name, v in labels.items():
        o, p = pred[f"{name}:o"], pred[f"{name}:p"]
        rows.append({"agree": _f1(o, p), "same": v["same"], "good": v["same"] and v["fluent"],
                     "right_on_original": max(_f1(a, o) for a in v["answers"]) >= 0.5})  # fmt: skip
    result = {"items": len(rows), "qa_f1_on_originals": None, "subsets": {}}
    result["qa_f1_on_originals"] = round(
        sum(max(_f1(a, pred[f"{n}:o"]) for a in v["answers"]) for n, v in labels.items()) / len(labels), 4
    )
    subsets = {
        "all": rows,
        "the QA model answers the original right": [r for r in rows if r["right_on_original"]],
    }
    for name, sel in subsets.items():
        good = [r["good"] for r in sel]
        entry = {"items": len(sel), "good": sum(good),
                 "roc_auc_same": round(roc_auc_score([r["same"] for r in sel], [r["agree"] for r in sel]), 3),
                 "roc_auc_fluent_and_same": round(roc_auc_score(good, [r["agree"] for r in sel]), 3)}  # fmt: skip
        for t in (0.5, 1.0):
            kept = [r["good"] for r in sel if r["agree"] >= t]
            dropped = [r["good"] for r in sel if r["agree"] < t]
            entry[f"agreement>={t}"] = {"passes": len(kept), "precision": round(sum(kept) / max(1, len(kept)), 3),
                                        "good_among_dropped": round(sum(dropped) / max(1, len(dropped)), 3)}  # fmt: skip
        entry["base_rate"] = round(sum(good) / len(good), 3)
        result["subsets"][name] = entry
    Path(args.result).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("questions")
    q.add_argument("--out", required=True)
    s = sub.add_parser("score")
    s.add_argument("--out", required=True)
    s.add_argument("--predictions", required=True)
    s.add_argument("--result", required=True)
    args = ap.parse_args(argv)
    (questions if args.cmd == "questions" else score)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
