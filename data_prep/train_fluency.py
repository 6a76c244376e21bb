#!/usr/bin/env python
"""Train the bundled question LMs (fluency filter) and calibrate their threshold.

English: the questions of the Quora union (pairs of Quora's held-out split left out), SQuAD v1.1 train and
KQA Pro's crowd-written paraphrases (WikiAnswers is left out: the sample here is lemmatised, not fluent).
Chinese: LCQMC train, BQ train and DuReader-robust's train sample. SQuAD dev, DuReader-robust dev and
LCQMC test, the evaluation sets, are never used.

Calibration (never seen in training): real paraphrase pairs -- Quora's held-out pairs (en), LCQMC dev
positives (zh) -- each scored as (original, paraphrase) and as (original, corrupted paraphrase), the
corruptions a small paraphraser makes: an inserted word or fragment, a duplicated word, two neighbouring
words swapped, a deleted word, a mangled word. Reported: ROC-AUC of real vs corrupted, per corruption and
for both measures (SLOR and mean log-probability); the threshold of each use keeps a share of the real
paraphrases (test set 90 %, augmentation and adversarial 95 %), and the share of corruptions it drops.

    python data_prep/train_fluency.py en [--shared ../shared/data] [--out paraguide/models/lm-en]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

from paraguide.data.pairs import read_pairs
from paraguide.data.squad import SquadReader
from paraguide.model.train import keep_freed_memory
from paraguide.pipeline.prepare import heldout_fraction
from paraguide.score.fluency import FluencyConfig, FluencyScorer, train_fluency_lm
from paraguide.score.metrics import roc_auc
from paraguide.text.edits import edit_rate
from paraguide.text.normalize import normalize, pair_key
from paraguide.text.tokenize import tokenize_spans

ROOT = Path(__file__).resolve().parents[1]
KEEP = {"testset": 0.90, "augment": 0.95, "adversarial": 0.95}  # share of real paraphrases kept
CORRUPTIONS = ("insert_word", "insert_fragment", "duplicate", "swap", "delete", "mangle")


def corpus(lang: str, shared: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """(training questions, calibration pairs)."""
    texts: list[str] = []
    calibration: list[tuple[str, str]] = []
    if lang == "en":
        for p in read_pairs(shared / "quora_paraphrase_pairs" / "quora_pos_union_dedup.tsv.gz"):
            a, b = normalize(p.a), normalize(p.b)
            # The held-out split of `paraguide prepare` (seed 13, 2 %): the paraphraser never trained on it.
            if heldout_fraction(pair_key(a, b), 13) < 0.02:
                calibration.append((a, b))
            else:
                texts += [a, b]
        texts += [
            normalize(r["question"])
            for r in SquadReader(shared / "squad_v1.1" / "train-v1.1.reconstructed.json.gz")
        ]
        for split in ("dev", "test"):
            texts += [
                normalize(p.b) for p in read_pairs(shared / "kqapro_question_paraphrases" / f"{split}.tsv.gz")
            ]
    else:
        for name in ("lcqmc/train.tsv.gz", "bq_corpus/train.tsv.gz"):
            for p in read_pairs(shared / name):
                texts += [normalize(p.a), normalize(p.b)]
        texts += [
            normalize(r["question"]) for r in SquadReader(shared / "dureader_robust" / "demo_train.json")
        ]
        calibration = [
            (normalize(p.a), normalize(p.b)) for p in read_pairs(shared / "lcqmc" / "dev.tsv") if p.label == 1
        ]
    held = {t for pair in calibration for t in pair}
    texts = [t for t in dict.fromkeys(texts) if t and t not in held]
    return texts, calibration


def corrupt(text: str, kind: str, lang: str, rng: random.Random, donors: list[str]) -> str | None:
    """One corruption of ``text`` (None when it does not apply). Edits are made on the token spans of the
    text itself, so what is not corrupted keeps its spacing and punctuation (no tokenisation artefact such
    as "quora ?" may tell a corrupted text from a real one)."""
    spans = tokenize_spans(text, lang)
    words = [i for i, t in enumerate(spans) if any(ch.isalnum() for ch in t.text)]
    if len(words) < 3:
        return None
    space = "" if lang == "zh" else " "
    # piece i: the whitespace before token i, then the token; the tail after the last token kept apart
    pieces = [[text[spans[i - 1].end if i else 0 : t.start], t.text] for i, t in enumerate(spans)]
    tail = text[spans[-1].end :]
    if kind in ("insert_word", "insert_fragment"):
        donor = [
            t.text for t in tokenize_spans(rng.choice(donors), lang) if any(ch.isalnum() for ch in t.text)
        ]
        if not donor:
            return None
        n = 1 if kind == "insert_word" else min(len(donor), rng.randint(2, 3))
        s = rng.randrange(len(donor) - n + 1)
        at = rng.choice(words[1:])
        pieces.insert(at, [space, space.join(donor[s : s + n])])
    elif kind == "duplicate":
        i = rng.choice(words)
        pieces.insert(i + 1, [space, spans[i].text])
    elif kind == "swap":
        pairs = [i for i in words if i + 1 in words and spans[i].text.lower() != spans[i + 1].text.lower()]
        if not pairs:
            return None
        i = rng.choice(pairs)
        pieces[i][1], pieces[i + 1][1] = pieces[i + 1][1], pieces[i][1]
    elif kind == "delete":
        del pieces[rng.choice(words[1:])]
    elif kind == "mangle":
        long = [i for i in words if len(spans[i].text) >= (2 if lang == "zh" else 5)]
        if not long:
            return None
        i = rng.choice(long)
        w = spans[i].text
        k = rng.randrange(1, len(w))
        # a piece repeated ("plaguegue") or letters moved ("samarkand" -> "samrkanda")
        pieces[i][1] = (
            w[:k] + w[max(0, k - 2) : k] + w[k:] if rng.random() < 0.5 else w[:k] + w[k + 1 :] + w[k - 1]
        )
    corrupted = "".join(ws + t for ws, t in pieces) + tail
    return corrupted if corrupted != text else None


NEAR = 0.5  # calibration pairs: real paraphrases at most this token edit rate from their original


def calibrate(scorer_path: str, lang: str, pairs: list[tuple[str, str]], seed: int = 13) -> dict:
    # The filter compares a candidate with the question it was made from, and the paraphraser's candidates
    # are near edits (median token edit rate 0.24-0.31 on SQuAD dev): real paraphrases as near to their
    # original are the population its threshold must keep. Far ones (different wording throughout) spread
    # the score much wider and would set a threshold that lets broken near edits through.
    pairs = [(a, b) for a, b in pairs if edit_rate(a, b, lang) <= NEAR]
    rng = random.Random(seed)
    donors = [b for _, b in pairs]
    real, bad, kinds, of = list(pairs), [], [], []
    for n, (a, b) in enumerate(pairs):
        kind = CORRUPTIONS[n % len(CORRUPTIONS)]
        c = corrupt(b, kind, lang, rng, donors)
        if c is not None:
            bad.append((a, c))
            kinds.append(kind)
            of.append(n)
    report: dict = {"pairs": len(real), "corrupted": len(bad), "max_edit_rate": NEAR, "measures": {}}
    for measure in ("slor", "logprob"):
        scorer = FluencyScorer(scorer_path, lang=lang, measure=measure)
        r, c = np.array(scorer.score(real)), np.array(scorer.score(bad))
        entry = {
            "roc_auc": round(roc_auc(list(r) + list(c), [1] * len(r) + [0] * len(c)), 4),
            "by_corruption": {},
        }
        for kind in CORRUPTIONS:
            ck = c[np.array(kinds) == kind]
            if len(ck):
                entry["by_corruption"][kind] = round(
                    roc_auc(list(r) + list(ck), [1] * len(r) + [0] * len(ck)), 4
                )
        for use, keep in KEEP.items():
            t = float(np.quantile(r, 1 - keep))
            entry[use] = {
                "threshold": round(t, 4),
                "real_kept": round(float((r >= t).mean()), 4),
                "corrupted_dropped": round(float((c < t).mean()), 4),
            }
        entry["median_real"] = round(float(np.median(r)), 4)
        entry["median_corrupted"] = round(float(np.median(c)), 4)
        report["measures"][measure] = entry
    examples = []
    scorer = FluencyScorer(scorer_path, lang=lang)
    for k in range(0, len(bad), max(1, len(bad) // 6))[:6]:
        (a, b), (_, c) = real[of[k]], bad[k]
        s = scorer.score([(a, b), (a, c)])
        examples.append(
            {
                "original": a,
                "paraphrase": b,
                "paraphrase_score": round(s[0], 3),
                "corruption": kinds[k],
                "corrupted": c,
                "corrupted_score": round(s[1], 3),
            }
        )
    report["examples"] = examples
    return report


def write_thresholds(lang: str, report: dict, source: str) -> None:
    path = ROOT / "paraguide" / "score" / "thresholds.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    entry = {"calibrated_on": source, "measure": "slor"}
    for use in KEEP:
        m = report["measures"]["slor"][use]
        entry[use] = m["threshold"]
        entry[f"{use}_real_kept_corrupted_dropped"] = [m["real_kept"], m["corrupted_dropped"]]
    table["thresholds"].setdefault("fluency", {})[lang] = entry
    path.write_text(json.dumps(table, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_card(out: Path, lang: str, report: dict) -> None:
    """The LM's README: data, settings, curve, calibration (from curve.json and calibration.json)."""
    config = json.loads((out / "config.json").read_text())
    curve = json.loads((out / "curve.json").read_text()) if (out / "curve.json").exists() else {}
    size = (out / "model.safetensors").stat().st_size / 1e6
    data = {
        "en": "the questions of the Quora union (`quora_pos_union_dedup.tsv.gz`, pairs of `paraguide prepare`'s "
        "held-out split left out), SQuAD v1.1 train (reconstructed) and KQA Pro's crowd-written paraphrases",
        "zh": "a seeded sample of the questions of LCQMC train, BQ train and DuReader-robust's train sample",
    }[lang]
    lines = [
        f"# paraguide fluency LM: lm-{lang}",
        "",
        f"A GPT-2-shaped causal language model of questions ({config['n_layer']} layers, d {config['n_embd']}, "
        f"{config['n_head']} heads, SentencePiece vocabulary {config['vocab_size']}, fp16 safetensors, {size:.1f} MB) "
        "with the unigram table SLOR needs. `paraguide score --scorer fluency` and the `fluency` filter of "
        "`build-testset` / `augment` score a candidate as SLOR(candidate) − SLOR(original): 0 reads as well as "
        "the original, below the threshold is dropped (paraguide/score/fluency.py).",
        "",
        "## Data",
        f"{curve.get('training_questions', '?'):,} distinct questions: {data}. SQuAD dev, DuReader-robust dev "
        "and LCQMC test (the evaluation sets) and the calibration pairs below were never trained on.",
        "",
        "## Reproduce",
        "```bash",
        f"python data_prep/train_fluency.py {lang}",
        "```",
        "",
        f"Settings: `{json.dumps(config)}`",
        "",
        "## Training curve (held-out loss per token)",
        "",
        "| step | epoch | train loss | held-out loss | seconds |",
        "|---|---|---|---|---|",
        *[
            f"| {p['step']} | {p['epoch']} | {p['train_loss']} | {p['heldout_loss']} | {p['seconds']} |"
            for p in curve.get("curve", [])
        ],
        "",
        f"## Calibration ({report['calibrated_on']}: {report['pairs']} real paraphrase pairs, "
        f"{report['corrupted']} corrupted)",
        "",
        "Each real pair scored as (original, paraphrase) and as (original, corrupted paraphrase). ROC-AUC of real "
        "vs corrupted, overall and per corruption:",
        "",
        "| measure | all | " + " | ".join(CORRUPTIONS) + " |",
        "|---|---|" + "---|" * len(CORRUPTIONS),
    ]
    for measure, m in report["measures"].items():
        lines.append(
            f"| {measure} | {m['roc_auc']} | "
            + " | ".join(str(m["by_corruption"].get(k, "")) for k in CORRUPTIONS)
            + " |"
        )
    m = report["measures"]["slor"]
    lines += [
        "",
        "Thresholds (SLOR difference; `paraguide/score/thresholds.json`), each keeping a share of the real paraphrases:",
        "",
        "| use | threshold | real kept | corrupted dropped |",
        "|---|---|---|---|",
        *[
            f"| {use} | {m[use]['threshold']} | {m[use]['real_kept']:.1%} | {m[use]['corrupted_dropped']:.1%} |"
            for use in KEEP
        ],
        "",
        "## Examples (from the calibration set)",
        "",
        *[
            f"- {e['original']} → {e['paraphrase']} (**{e['paraphrase_score']}**); {e['corruption']}: "
            f"{e['corrupted']} (**{e['corrupted_score']}**)"
            for e in report["examples"]
        ],
        "",
    ]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lang", choices=("en", "zh"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--out", help="default: paraguide/models/lm-LANG")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--vocab-size", type=int, help="default: 4000 (en), 6000 (zh: characters need room)")
    ap.add_argument("--calibrate-only", action="store_true", help="calibrate the LM already in --out")
    ap.add_argument(
        "--max-questions",
        type=int,
        help="train on a seeded random sample of this many questions (default: all for en, 160000 for zh: "
        "one epoch of those takes about 30 minutes on two CPU cores)",
    )
    args = ap.parse_args()
    out = Path(args.out or ROOT / "paraguide" / "models" / f"lm-{args.lang}")
    texts, calibration = corpus(args.lang, Path(args.shared))
    limit = args.max_questions or (160_000 if args.lang == "zh" else None)
    if limit and len(texts) > limit:
        texts = random.Random(13).sample(texts, limit)
    print(f"{len(texts)} training questions, {len(calibration)} calibration pairs", file=sys.stderr)
    if not args.calibrate_only:
        keep_freed_memory()  # each step's vocabulary-sized logits: reuse freed memory, not fresh pages
        rng = random.Random(13)
        heldout = rng.sample([t for pair in calibration for t in pair], min(2000, 2 * len(calibration)))
        vocab = args.vocab_size or (4000 if args.lang == "en" else 6000)
        config = FluencyConfig(
            epochs=args.epochs, vocab_size=vocab, lowercase=args.lang == "en", eval_every=250
        )
        _, curve = train_fluency_lm(
            texts, out, config, heldout=heldout, log=lambda p: print(json.dumps(p), file=sys.stderr)
        )
        (out / "curve.json").write_text(
            json.dumps({"training_questions": len(texts), "curve": curve}, indent=1) + "\n"
        )
    report = calibrate(str(out), args.lang, calibration)
    source = "Quora held-out pairs" if args.lang == "en" else "LCQMC dev positives"
    source += f" within token edit rate {NEAR}"
    report["calibrated_on"] = source
    (out / "calibration.json").write_text(
        json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    write_thresholds(args.lang, report, source)
    write_card(out, args.lang, report)
    print(json.dumps({k: v for k, v in report.items() if k != "examples"}, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
