"""Pack what a lent GPU machine needs to train the causal paraphraser's adapters (data_prep/gpu/train.py).

Why a pack: the GPU machine reaches no network and takes at most 64 MiB a call, while Gemma 3 270M's GGUF
is 253 MB and its tokenizer 33 MB. The training loss only ever scores the corpus's own tokens (the
restricted output layer, paraguide/model/causal.py), so a base whose embedding keeps just those rows
(renumbered) computes exactly the same loss; the LoRA and copy-head tensors trained on it fit the full
base unchanged, and only the adapter's ``vocab_ids`` are mapped back. So the pack holds:

- ``corpus.safetensors``: the corpus encoded here by the same code the CPU training uses (prompt ids,
  copyable flags, target ids; renumbered), each example's language and split;
- ``base-N.safetensors``: every GGUF tensor's *quantized* bytes as stored (the embedding's kept rows
  only), named as transformers names them, split into parts that each fit one call;
- ``base.json``: each tensor's GGUF type and shape, the kept token ids, and the base's config with the
  smaller vocabulary.

``--verify`` de-quantizes the pack here and checks it against the cached base that paraguide uses on a CPU
(:mod:`paraguide.model.pretrained`): the same numbers, tensor for tensor, or it fails.

    python data_prep/gpu/pack.py --train runs/gemma_corpus/v2/train.jsonl --out .gpu --verify
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

# GGUF names -> transformers' Gemma 3 names (what transformers' own GGUF loader maps them to).
LAYER = {
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "attn_q_norm": "self_attn.q_norm",
    "attn_k_norm": "self_attn.k_norm",
    "attn_norm": "input_layernorm",
    "post_attention_norm": "post_attention_layernorm",
    "ffn_norm": "pre_feedforward_layernorm",
    "post_ffw_norm": "post_feedforward_layernorm",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def hf_name(gguf_name: str) -> str:
    if gguf_name == "token_embd.weight":
        return "model.embed_tokens.weight"
    if gguf_name == "output_norm.weight":
        return "model.norm.weight"
    _, layer, kind, leaf = gguf_name.split(".")
    return f"model.layers.{layer}.{LAYER[kind]}.{leaf}"


def dequantize_pack(pack: Path, *more: Path) -> dict[str, torch.Tensor]:
    """The pack's tensors in float32, as transformers holds them (shared by --verify and the GPU side).
    ``more``: other folders holding some of the parts (the pack travels in pieces)."""
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize
    from safetensors.numpy import load_file

    meta = json.loads((pack / "base.json").read_text())
    raw = {}
    for part in meta["parts"]:
        where = [d / part for d in (pack, *more) if (d / part).exists()]
        if not where:
            raise SystemExit(f"pack part {part} is in none of {[str(d) for d in (pack, *more)]}")
        raw.update(load_file(where[0]))
    state = {}
    for name, info in meta["tensors"].items():
        qtype = GGMLQuantizationType(info["type"])
        values = dequantize(raw[name], qtype).reshape(info["shape"]).astype(np.float32)
        # llama.cpp stores Gemma's RMSNorm weights as 1 + w; transformers keeps w.
        if name.endswith("norm.weight"):
            values = values - 1.0
        state[name] = torch.from_numpy(np.ascontiguousarray(values))
    return state


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", required=True, help="corpus JSONL (its .heldout.jsonl beside it)")
    ap.add_argument("--out", required=True, help="folder to write the pack to")
    ap.add_argument("--backbone", default="gemma-3-270m")
    ap.add_argument("--part-mb", type=float, default=27.0, help="largest base part, in MB")
    ap.add_argument(
        "--verify", action="store_true", help="check the de-quantized pack against the cached base"
    )
    args = ap.parse_args(argv)

    from gguf import GGUFReader
    from safetensors.numpy import save_file
    from transformers import AutoTokenizer

    from paraguide.data.io import read_jsonl
    from paraguide.model.causal_train import CausalTrainConfig, encode_rows, output_vocabulary
    from paraguide.model.pretrained import base_info, cache_root, resolve_base, sha256_file

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base_folder = resolve_base(args.backbone)
    info = base_info(base_folder)
    tokenizer = AutoTokenizer.from_pretrained(base_folder, local_files_only=True, trust_remote_code=False)
    config = CausalTrainConfig(train_file=args.train, output_dir=str(out))
    heldout_path = args.train.replace(".jsonl", ".heldout.jsonl")
    rows = [r for _, r in read_jsonl(args.train)]
    held = [r for _, r in read_jsonl(heldout_path)]
    examples = encode_rows(tokenizer, rows + held, config)
    kept = sorted(set(output_vocabulary(examples, tokenizer)) | {0, 1, 2, 3})
    if len(kept) > 65535:
        raise SystemExit(f"{len(kept)} kept token ids do not fit the pack's 16-bit ids")
    new_id = np.full(len(tokenizer), -1, dtype=np.int64)
    new_id[kept] = np.arange(len(kept))

    def flat(lists):
        offsets = np.zeros(len(lists) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(x) for x in lists])
        return np.concatenate([np.asarray(x, dtype=np.int64) for x in lists]), offsets

    prompt, prompt_off = flat([e.prompt for e in examples])
    copy, _ = flat([e.copy for e in examples])
    target, target_off = flat([e.target for e in examples])
    save_file(
        {
            # Renumbered ids fit 16 bits (the kept vocabulary is far under 65,536 rows): half the bytes.
            "prompt": new_id[prompt].astype(np.uint16),
            "copy": copy.astype(np.uint8),
            "prompt_offsets": prompt_off.astype(np.int32),
            "target": new_id[target].astype(np.uint16),
            "target_offsets": target_off.astype(np.int32),
            "lang": np.asarray([r.get("lang") == "zh" for r in rows + held], dtype=np.uint8),
            "heldout": np.asarray([0] * len(rows) + [1] * len(held), dtype=np.uint8),
        },
        out / "corpus.safetensors",
    )

    gguf = sorted((cache_root() / "gguf").glob("*.gguf"))
    if len(gguf) != 1 or sha256_file(gguf[0]) != info.get("gguf_sha256"):
        raise SystemExit(f"no single GGUF with the base's SHA-256 under {cache_root() / 'gguf'}")
    reader = GGUFReader(gguf[0])
    tensors, parts, current, size = {}, [], {}, 0
    for t in reader.tensors:
        name = hf_name(t.name)
        data = np.asarray(t.data)
        shape = [int(x) for x in reversed(t.shape)]  # GGUF lists the fastest dimension first
        if name == "model.embed_tokens.weight":
            data = data[kept]
            shape = [len(kept), shape[1]]
        tensors[name] = {"type": int(t.tensor_type), "shape": shape}
        if size + data.nbytes > args.part_mb * 1e6 and current:
            parts.append(current)
            current, size = {}, 0
        current[name] = np.ascontiguousarray(data)
        size += data.nbytes
    parts.append(current)
    names = []
    for i, part in enumerate(parts):
        names.append(f"base-{i + 1}.safetensors")
        save_file(part, out / names[-1])
    hf_config = json.loads(Path(base_folder, "config.json").read_text())
    hf_config.pop("quantization_config", None)
    hf_config["vocab_size"] = len(kept)
    for key in ("bos_token_id", "eos_token_id", "pad_token_id", "unk_token_id"):
        if isinstance(hf_config.get(key), int):
            hf_config[key] = int(new_id[hf_config[key]])
    (out / "base.json").write_text(
        json.dumps(
            {
                "parts": names,
                "tensors": tensors,
                "kept_ids": kept,
                "config": hf_config,
                "gguf_sha256": info.get("gguf_sha256"),
                "train": args.train,
                "examples": {"train": len(rows), "heldout": len(held)},
            }
        )  # fmt: skip
    )
    for p in sorted(out.iterdir()):
        print(f"{p.name}: {p.stat().st_size / 1e6:.1f} MB", file=sys.stderr)
    print(f"{len(rows)} train + {len(held)} held-out examples, {len(kept)} kept token ids", file=sys.stderr)

    if args.verify:
        from safetensors.torch import load_file

        cached = load_file(Path(base_folder, "model.safetensors"))
        mine = dequantize_pack(out)
        for name, value in mine.items():
            ref = cached[name]
            if name == "model.embed_tokens.weight":
                ref = ref[torch.as_tensor(kept)]
            if ref.shape != value.shape or not torch.equal(ref, value):
                diff = (ref - value).abs().max().item() if ref.shape == value.shape else "shape"
                raise SystemExit(f"verify: {name} differs from the cached base ({diff})")
        print(f"verify: all {len(mine)} tensors equal the cached base", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
