"""The pretrained paraphraser's training corpus: ``paraguide prepare`` outputs (cased) of several pair
corpora, kept only where the pair keeps the question, mixed into one multilingual train/held-out pair.

Why filter: Quora's "duplicates" often simplify or drop a constraint ("which company provides train
service in fresno?" ~ "what is the best company ..."); a model trained on them learns to lose content.
A pair is kept when it is not the same words again (case, spaces and punctuation aside) and, in both
directions,
  - the numbers agree (the same multiset of digit runs),
  - English: the capitalised words past the first agree (names), and the lengths are within 1.6x,
  - the bundled sim scorer of the language scores it at least its calibrated augmentation threshold
    (docs/score.md; all-MiniLM-L6-v2 would be the stronger judge, but takes ~20x longer on 2 CPU cores).

    python data_prep/causal_corpus.py --en runs/gemma_corpus/quora/train.jsonl:40000 \
        --en runs/gemma_corpus/kqapro/train.jsonl:12000 --zh runs/gemma_corpus/zh/train.jsonl:30000 \
        --out runs/gemma_corpus/mixed/train.jsonl

``--controls`` keeps the pairs that lose a content or scope word too, and labels each pair with a control
code instead (faithful or loose, and how deep it rewrites), which the prompt carries: generation then asks
for "faithful, large", a kind the pairs seldom are (paraguide.model.causal.control_code).

FILE:N takes at most N examples of FILE's training rows (seeded sample, before filtering); the held-out
rows of each FILE (``.heldout.jsonl`` beside it) are filtered the same way and pooled.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

from paraguide.data.io import read_jsonl
from paraguide.model.causal import control_code
from paraguide.score import default_threshold, load_scorer
from paraguide.score.filters import Candidate, KeepsContent, KeepsScope
from paraguide.text.edits import edit_rate

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
WORD_CHARS = re.compile(r"[\W_]+")
NAME = re.compile(r"(?<=\s)[A-Z][\w'’-]*")


def numbers_agree(a: str, b: str) -> bool:
    return Counter(NUMBER.findall(a)) == Counter(NUMBER.findall(b))


def names_agree(a: str, b: str) -> bool:
    """Capitalised words after the first word (names, acronyms) the same, case-folded, as sets."""
    return {w.lower() for w in NAME.findall(a)} == {w.lower() for w in NAME.findall(b)}


def same_words(a: str, b: str) -> bool:
    """The same text once case, spaces and punctuation are set aside ("观赏的近义词是什么" ~ "...是什么?"):
    such a pair teaches nothing but copying."""
    return WORD_CHARS.sub("", a.lower()) == WORD_CHARS.sub("", b.lower())


def keeps_question(
    r: dict, lang: str, keeps_content: int | None = None, keeps_scope: bool = False
) -> str | None:
    """Why the pair is dropped, or None. ``keeps_content``: also drop a pair whose target loses a content
    word of its source or adds more than that many (paraguide's KeepsContent filter, as a rewrite is judged):
    Quora's duplicates often drop a constraint, and a model trained on them drops constraints too.
    ``keeps_scope``: also drop a pair whose scope words differ either way (KeepsScope: number, quantity,
    negation, modality, person, tense), the changes blind readers rejected most in the model's rewrites."""
    a, b = r["source"], r["target"]
    if same_words(a, b):
        return "same words"
    if keeps_scope:
        s, m = r.get("suggestion") or "", r.get("matched") or ""
        pair = [Candidate(a, b, s, None, lang, matched=m), Candidate(b, a, m, None, lang, matched=s)]
        why = next((w for w in KeepsScope().reasons(pair) if w), None)
        if why:
            return "scope " + ("twice" if why.endswith("twice") else why.split(":")[0].split()[0])
    if keeps_content is not None:
        c = Candidate(a, b, r.get("suggestion") or "", None, lang, matched=r.get("matched") or "")
        why = KeepsContent(keeps_content).reasons([c])[0]
        if why:
            return "content " + why.split()[0]
    if not numbers_agree(a, b):
        return "numbers differ"
    if lang == "en":
        if not names_agree(a, b):
            return "names differ"
        la, lb = len(a.split()), len(b.split())
        if max(la, lb) > 1.6 * min(la, lb):
            return "length ratio over 1.6"
    return None


def load(spec: str, seed: int) -> tuple[list[dict], list[dict]]:
    path, _, n = spec.partition(":")
    rows = [r for _, r in read_jsonl(path)]
    random.Random(f"{seed}:{path}").shuffle(rows)
    if n:
        rows = rows[: int(n)]
    heldout = Path(path.replace(".jsonl", ".heldout.jsonl"))
    held = [r for _, r in read_jsonl(heldout)] if heldout.exists() else []
    return rows, held


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--en", action="append", default=[], help="English prepare output FILE[:N]")
    ap.add_argument("--zh", action="append", default=[], help="Chinese prepare output FILE[:N]")
    ap.add_argument("--out", required=True, help="train JSONL to write (and .heldout.jsonl, .stats.json)")
    ap.add_argument("--heldout-per-lang", type=int, default=300, help="held-out examples kept per language")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument(
        "--keeps-content",
        type=int,
        metavar="N",
        help="drop pairs that lose a content word or add more than N (KeepsContent)",
    )
    ap.add_argument(
        "--keeps-scope", action="store_true", help="drop pairs whose scope words differ (KeepsScope)"
    )
    ap.add_argument(
        "--controls",
        action="store_true",
        help="keep the pairs the two filters above would drop, and label every pair with its control code "
        "(paraguide.model.causal.control_code: faithful = it passes KeepsContent(1) and KeepsScope both "
        "ways; the depth from its token edit rate) instead",
    )
    args = ap.parse_args(argv)
    if args.controls and (args.keeps_content is not None or args.keeps_scope):
        ap.error("--controls labels what --keeps-content / --keeps-scope would drop: use one or the other")
    train, held, stats = [], [], {}
    for lang, specs in (("en", args.en), ("zh", args.zh)):
        scorer = load_scorer("sim", lang=lang)
        floor = default_threshold("sim", "augment", lang)
        lang_held = []
        for spec in specs:
            rows, hrows = load(spec, args.seed)
            for part, dest in ((rows, train), (hrows, lang_held)):
                counts = Counter()
                kept = []
                for r in part:
                    why = keeps_question(r, lang, args.keeps_content, args.keeps_scope)
                    counts[why or "kept by rules"] += 1
                    if why is None:
                        if args.controls:
                            faithful = keeps_question(r, lang, 1, True) is None
                            r = {
                                **r,
                                "control": control_code(faithful, edit_rate(r["source"], r["target"], lang)),
                            }
                            counts[r["control"]] += 1
                        kept.append(r)
                scores = scorer.score([(r["source"], r["target"]) for r in kept]) if kept else []
                for r, s in zip(kept, scores, strict=True):
                    if s >= floor:
                        dest.append({**r, "lang": lang})
                        counts["kept"] += 1
                    else:
                        counts[f"similarity under {floor}"] += 1
                stats[f"{spec} ({'train' if part is rows else 'held-out'})"] = dict(counts)
                print(spec, "train" if part is rows else "held-out", dict(counts), file=sys.stderr)
        random.Random(args.seed).shuffle(lang_held)
        held += lang_held[: args.heldout_per_lang]
    random.Random(args.seed).shuffle(train)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for r in train:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(out.with_name(out.stem + ".heldout.jsonl"), "w", encoding="utf-8") as f:
        for r in held:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    stats["written"] = {"train": len(train), "heldout": len(held),
                        "train_by_lang": dict(Counter(r["lang"] for r in train))}  # fmt: skip
    out.with_name(out.stem + ".stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(stats["written"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
