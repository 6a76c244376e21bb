#!/usr/bin/env python
"""Time to paraphrase every SQuAD v1.1 dev question (10,570) with the bundled English paraphraser.

Beam search 4, at most 48 new tokens, batches of 64, the empty suggestion (a free paraphrase of each
question), the default dtype (bfloat16 where the hardware computes it natively) on the default device
(the GPU when there is one). Model loading is excluded. Side by side: paraguide's own beam search
(``paraguide.model.beam``, what ``Paraphraser.paraphrase`` uses) and transformers' ``generate`` for the same
search (forced by passing a generation argument the own search does not take), in the same process,
on the same inputs; the ratio is own / generate.

    python benchmarks/squad_dev_paraphrase.py [--squad ../shared/data/squad_v1.1/dev-v1.1.json.gz]

Writes benchmarks/results/squad_dev_paraphrase_<device>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

import torch
from machine import cpu_model  # benchmarks/machine.py, beside this script

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paraguide.data.squad import read_squad  # noqa: E402
from paraguide.model.paraphraser import Paraphraser, default_model_path  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--squad", default=str(ROOT.parent / "shared/data/squad_v1.1/dev-v1.1.json.gz"))
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--limit", type=int, help="only the first N questions (a quick look)")
    ap.add_argument("--skip-generate", action="store_true", help="time the own beam search only")
    args = ap.parse_args()
    if not os.path.exists(args.squad):
        sys.exit(f"no SQuAD dev file at {args.squad}")

    questions = [r["question"] for r in read_squad(args.squad)[0]][: args.limit]
    paraphraser = Paraphraser.from_pretrained(default_model_path("en"))
    device = paraphraser.device
    paraphraser.paraphrase(questions[:64], batch_size=args.batch_size)  # warm-up, not timed

    def timed(**kwargs) -> tuple[list, dict]:
        if device.type == "cuda":
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        started = time.perf_counter()
        out = paraphraser.paraphrase(questions, batch_size=args.batch_size, **kwargs)
        if device.type == "cuda":
            torch.cuda.synchronize()
        seconds = time.perf_counter() - started
        figures = {"seconds": round(seconds, 1), "questions_per_s": round(len(questions) / seconds, 1)}
        # The process's peak so far: loading, warm-up and this part (and the parts before it).
        figures["peak_rss_mb_so_far"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        if device.type == "cuda":
            figures["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20)
        return out, figures

    result = {}
    own, result["paraguide_beam_search"] = timed()
    print(f"own beam search: {result['paraguide_beam_search']['seconds']} s", flush=True)
    if not args.skip_generate:
        # any argument the own search leaves to generate
        via_generate, result["transformers_generate"] = timed(output_attentions=False)
        result["ratio"] = round(result["transformers_generate"]["seconds"] / result["paraguide_beam_search"]["seconds"], 2)  # fmt: skip
        same = sum(a[0].text == b[0].text for a, b in zip(own, via_generate, strict=True))
        result["identical_outputs"] = round(same / len(questions), 4)
        print(f"generate: {result['transformers_generate']['seconds']} s", flush=True)
    result["identical_to_source"] = round(
        sum(o[0].text == q.lower().strip() for o, q in zip(own, questions, strict=True)) / len(questions), 4
    )
    name = torch.cuda.get_device_name() if device.type == "cuda" else cpu_model()
    record = {
        "machine": {
            "device": name,
            "cores": os.cpu_count(),
            "threads": torch.get_num_threads(),
            "python": platform.python_version(),
            "torch": torch.__version__,
        },  # fmt: skip
        "method": __doc__.split("    python")[0].strip(),
        "command": "python benchmarks/squad_dev_paraphrase.py " + " ".join(sys.argv[1:]),
        "settings": {
            "questions": len(questions),
            "batch_size": args.batch_size,
            "num_beams": 4,
            "max_new_tokens": 48,
            "dtype": str(paraphraser.dtype).removeprefix("torch."),
        },  # fmt: skip
        **result,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    out = ROOT / "benchmarks" / "results" / f"squad_dev_paraphrase_{device.type}.json"
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    print(f"written {out}")


if __name__ == "__main__":
    main()
