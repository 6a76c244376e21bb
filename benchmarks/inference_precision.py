"""What the pretrained models' inference shortcuts cost and buy: the paraphraser with its LoRA update folded
into the base weights (in float32, before the cast to bfloat16 -- what ``CausalParaphraser.from_pretrained``
does) against peft's unmerged layers, and the Gemma fluency LM in bfloat16 against float32. Same inputs,
same process, one after the other, each timed twice (this machine's timings vary by up to a third).

Agreement is measured against the float32 unmerged paraphraser: the top beam and the set of 4 beams of each
question, and each beam's mean log-probability (teacher-forced) under the float32 model.

    python benchmarks/inference_precision.py --n 64 --lang en

Writes benchmarks/results/inference_precision_<lang>.json (machine, method, seconds, agreement).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from causal_reading import questions  # noqa: E402
from machine import cpu_model  # noqa: E402


def _quantiles(diffs: list[float]) -> dict:
    diffs = sorted(diffs)
    return {"median": round(statistics.median(diffs), 4), "p90": round(diffs[int(0.9 * (len(diffs) - 1))], 4),
            "max": round(diffs[-1], 4)}  # fmt: skip


def paraphraser(qs: list[str], lang: str, beams: int) -> dict:
    from paraguide.model.causal import load_adapter
    from paraguide.model.paraphraser import CausalParaphraser

    def build(fold: bool, dtype: str) -> CausalParaphraser:
        model, tokenizer = load_adapter(Path(HERE.parent, "paraguide", "models", f"gemma-{lang}"))
        if fold:
            model.lm.merge_adapter()
        return CausalParaphraser(model, tokenizer, "cpu", dtype)

    runs = {}
    for name, fold, dtype in [("float32", False, "float32"), ("bfloat16 unmerged", False, "bfloat16"),
                              ("bfloat16 folded", True, "bfloat16")]:  # fmt: skip
        para = build(fold, dtype)
        para.paraphrase(qs[:2], num_beams=beams, max_new_tokens=4)  # warm-up
        beam_s, ll_s = [], []
        for _ in range(2):
            start = time.perf_counter()
            found = para.paraphrase(qs, num_beams=beams, num_return_sequences=beams, batch_size=32)
            beam_s.append(round(time.perf_counter() - start, 2))
            sources = [q for q, r in zip(qs, found, strict=True) for _ in r]
            texts = [p.text for r in found for p in r]
            start = time.perf_counter()
            fwd = para.log_likelihood(sources, texts)
            back = para.log_likelihood(texts, sources)
            ll_s.append(round(time.perf_counter() - start, 2))
        if name == "float32":
            ref32 = para  # scores every variant's beams
        runs[name] = {"found": found, "sources": sources, "texts": texts, "ll": fwd + back,
                      "beam_s": beam_s, "likelihood_s": ll_s}  # fmt: skip
    reference = runs["float32"]
    out = {}
    for name, r in runs.items():
        ll32 = r["ll"]  # the float32 model's own beams: scored above already
        if name != "float32":
            ll32 = ref32.log_likelihood(r["sources"], r["texts"]) + ref32.log_likelihood(
                r["texts"], r["sources"]
            )
        out[name] = {
            "beam_search_s": r["beam_s"],
            "likelihood_fwd_and_back_s": r["likelihood_s"],
            "top_beam_as_float32": sum(
                a[0].text == b[0].text for a, b in zip(r["found"], reference["found"], strict=True)
            ),
            "beam_set_as_float32": sum(
                {p.text for p in a} == {p.text for p in b}
                for a, b in zip(r["found"], reference["found"], strict=True)
            ),  # fmt: skip
            "abs_log_likelihood_diff_to_float32": _quantiles(
                [abs(x - y) for x, y in zip(r["ll"], ll32, strict=True)]
            ),
        }
    return out


def fluency(qs: list[str], lang: str) -> dict:
    from paraguide.score.fluency import BUNDLED, PretrainedLM

    out, values = {}, {}
    for dtype in ("float32", "bfloat16"):
        lm = PretrainedLM.from_pretrained(BUNDLED / f"lm-gemma-{lang}", dtype=dtype)
        lm.mean_log_prob(qs[:2])  # warm-up
        seconds = []
        for _ in range(2):
            start = time.perf_counter()
            values[dtype] = lm.mean_log_prob(qs)
            seconds.append(round(time.perf_counter() - start, 2))
        out[dtype] = {"seconds": seconds}
        del lm
    diffs = [abs(a - b) for a, b in zip(values["float32"], values["bfloat16"], strict=True)]
    out["bfloat16"]["abs_diff_to_float32"] = _quantiles(diffs)
    out["float32"]["sd_of_values"] = round(statistics.stdev(values["float32"]), 3)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", default="en", choices=["en", "zh"])
    ap.add_argument("--n", type=int, default=64, help="questions for the paraphraser (the LM reads 200)")
    ap.add_argument("--beams", type=int, default=4)
    ap.add_argument("--seed", type=int, default=13, help="seed of the question sample")
    ap.add_argument("--out", default=None, help="default: benchmarks/results/inference_precision_<lang>.json")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    qs = questions(args.lang, max(args.n, 200), args.seed)
    result = {
        "machine": f"{cpu_model()}, {os.cpu_count()} cores, torch {torch.__version__}",
        "method": __doc__.strip().split("\n\n")[0:2],
        "lang": args.lang,
        "questions": {"paraphraser": args.n, "fluency_lm": len(qs)},
        "beams": args.beams,
        "paraphraser": paraphraser(qs[: args.n], args.lang, args.beams),
        "fluency_lm": fluency(qs, args.lang),
    }
    out = Path(args.out or HERE / "results" / f"inference_precision_{args.lang}.json")
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
