"""Decoding speed of the pretrained paraphraser: paraguide's own beam search (KV cache, output layer
restricted to the task's tokens, copy head, finished sentences leaving the batch) against transformers'
``generate`` (beam search, KV cache, the full 262k-row head, no copy head) on the same LoRA model, the same
prompts, the same beam size and length limit, in the same process, one after the other.

    python benchmarks/causal_decode_speed.py --adapter runs/gemma-mixed/checkpoint-N --n 64 --beams 4

Writes benchmarks/results/causal_decode_speed.json (machine, method, sentences/s of each, the ratio).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from causal_reading import questions  # noqa: E402
from machine import cpu_model  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--adapter", required=True, help="adapter folder or training checkpoint")
    ap.add_argument("--n", type=int, default=64, help="SQuAD dev questions")
    ap.add_argument("--beams", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--max-new-tokens", type=int, default=40)
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    ap.add_argument("--out", default=str(HERE / "results" / "causal_decode_speed.json"))
    args = ap.parse_args(argv)
    from paraguide.model.causal import encode_prompt
    from paraguide.model.causal_train import export_checkpoint
    from paraguide.model.paraphraser import CausalParaphraser

    adapter = Path(args.adapter)
    if (adapter / "trainable.safetensors").exists():
        tmp = Path(tempfile.mkdtemp())
        export_checkpoint(adapter, tmp)
        adapter = tmp
    torch.manual_seed(0)
    para = CausalParaphraser.from_pretrained(adapter, device="cpu", dtype=args.dtype)
    qs = questions("en", args.n, 13)
    para.paraphrase(qs[:2], num_beams=args.beams, max_new_tokens=4)  # warm-up
    start = time.perf_counter()
    ours = para.paraphrase(
        qs, num_beams=args.beams, batch_size=args.batch_size, max_new_tokens=args.max_new_tokens
    )
    ours_s = time.perf_counter() - start

    tok, lm = para.tokenizer, para.model.lm
    lm.eval()
    prompts = [encode_prompt(tok, q, max_tokens=para.model.config.max_prompt_tokens)[0] for q in qs]
    tok.padding_side = "left"
    start = time.perf_counter()
    theirs = []
    with torch.no_grad():
        for i in range(0, len(prompts), args.batch_size):
            batch = tok.pad({"input_ids": prompts[i : i + args.batch_size]}, return_tensors="pt")
            out = lm.generate(
                **batch, num_beams=args.beams, max_new_tokens=args.max_new_tokens, do_sample=False,
                early_stopping=False, length_penalty=1.0,
            )  # fmt: skip
            theirs += tok.batch_decode(out[:, batch["input_ids"].size(1) :], skip_special_tokens=True)
    theirs_s = time.perf_counter() - start
    result = {
        "machine": f"{cpu_model()}, {os.cpu_count()} cores, torch {torch.__version__}",
        "method": __doc__.strip().splitlines()[0:4],
        "questions": len(qs),
        "beams": args.beams,
        "batch_size": args.batch_size,
        "max_new_tokens": args.max_new_tokens,
        "dtype": args.dtype,
        "paraguide_sentences_per_s": round(len(qs) / ours_s, 3),
        "generate_sentences_per_s": round(len(qs) / theirs_s, 3),
        "speedup": round(theirs_s / ours_s, 2),
        "examples": [
            {"question": q, "paraguide": o[0].text, "generate": t.strip()}
            for q, o, t in list(zip(qs, ours, theirs, strict=True))[:5]
        ],
    }
    Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "examples"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
