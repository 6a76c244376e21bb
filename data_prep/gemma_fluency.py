"""The fluency scorer on the pretrained paraphraser's own LM (issue "A pretrained paraphraser", point 4):
Gemma 3 270M's log-probabilities, SLOR against a unigram table of its tokens counted on the same questions
the bundled question LMs were trained on, calibrated exactly as they were (data_prep/train_fluency.py:
real near paraphrases against corrupted copies), so the two ROC-AUCs compare.

    python data_prep/gemma_fluency.py en     # -> paraguide/models/lm-gemma-en (config.json, unigram.safetensors,
    python data_prep/gemma_fluency.py zh     #    calibration.json); the base from its package
    paraguide score --scorer fluency:paraguide/models/lm-gemma-en --input pairs.tsv

``--max-pairs`` caps the calibration pairs (a seeded sample): each pair is scored by a 268M-parameter LM.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_fluency import calibrate, corpus  # noqa: E402  (data_prep/, beside this script)


def choose_measure(out: Path, report: dict) -> None:
    """The folder's measure: whichever of SLOR and mean log-probability ranks real above corrupted better
    (FluencyScorer uses it, with its calibrated thresholds)."""
    best = max(report["measures"], key=lambda m: report["measures"][m]["roc_auc"])
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    config["measure"] = best
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lang", choices=("en", "zh"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--out", help="default: paraguide/models/lm-gemma-LANG")
    ap.add_argument("--max-pairs", type=int, default=1000)
    args = ap.parse_args(argv)

    from transformers import AutoTokenizer

    from paraguide.model.pretrained import resolve_base
    from paraguide.score.fluency import PretrainedLM

    out = Path(args.out or ROOT / "paraguide" / "models" / f"lm-gemma-{args.lang}")
    texts, calibration = corpus(args.lang, Path(args.shared))
    base = resolve_base("gemma-3-270m")
    tokenizer = AutoTokenizer.from_pretrained(base, local_files_only=True, trust_remote_code=False)
    counts = np.zeros(len(tokenizer), dtype=np.float64)
    for i in range(0, len(texts), 10_000):
        for ids in tokenizer(texts[i : i + 10_000], add_special_tokens=False)["input_ids"]:
            np.add.at(counts, ids + [tokenizer.eos_token_id], 1)
    source = {"en": "Quora (training split), SQuAD v1.1 train and KQA Pro paraphrase questions",
              "zh": "LCQMC and BQ train questions, DuReader-robust's train sample"}[args.lang]  # fmt: skip
    PretrainedLM.save_unigram(out, counts, "gemma-3-270m", args.lang, source)
    print(f"{len(texts)} questions, {int(counts.sum())} tokens counted -> {out}", file=sys.stderr)
    if len(calibration) > args.max_pairs:
        calibration = random.Random(13).sample(calibration, args.max_pairs)
    report = calibrate(str(out), args.lang, calibration)
    report["calibrated_on"] = ("Quora held-out pairs" if args.lang == "en" else "LCQMC dev positives") + (
        f" within token edit rate 0.5, a seeded sample of at most {args.max_pairs}"
    )
    (out / "calibration.json").write_text(
        json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(json.dumps({k: v for k, v in report.items() if k != "examples"}, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
