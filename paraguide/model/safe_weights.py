"""Which weight files paraguide opens: safetensors only. A checkpoint folder whose weights are pickles
(``pytorch_model.bin``, ``.pt`` ...) or another framework's format is refused before anything in it is
opened, because unpickling a file can run any code. The paraphraser, ``--backbone`` and the recipes all
refuse through :func:`pickle_refusal`, so the rule and its message live here once.
"""

from __future__ import annotations

import os
from pathlib import Path

# Weights that are pickles (or other frameworks' formats): never opened, named in the refusal.
PICKLE_WEIGHTS = ("pytorch_model.bin", "pytorch_model.bin.index.json", "tf_model.h5", "model.ckpt.index",
                  "flax_model.msgpack")  # fmt: skip
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pickle", ".h5", ".msgpack")

CONVERT = (
    "Convert it once, in a session you trust: `AutoModel.from_pretrained(path).save_pretrained(path)` "
    "(safetensors is the default)"
)


def has_safetensors(folder: str | os.PathLike) -> bool:
    return any(Path(folder).glob("*.safetensors"))


def pickled_weights(folder: str | os.PathLike) -> list[str]:
    """The names of the folder's pickle / other-framework weight files, sorted (nothing is opened)."""
    return sorted(
        p.name for p in Path(folder).iterdir() if p.name in PICKLE_WEIGHTS or p.suffix in PICKLE_SUFFIXES
    )


def pickle_refusal(folder: str | os.PathLike) -> str | None:
    """None when the folder holds safetensors weights; else why it cannot be loaded (its pickled files
    named, or that it has no weights at all), without the folder's name: the caller's error names it."""
    if has_safetensors(folder):
        return None
    pickled = pickled_weights(folder)
    if not pickled:
        return "no weights (no .safetensors file)"
    return (
        f"only pickled weights ({', '.join(pickled)}), no .safetensors file; paraguide never unpickles a "
        f"checkpoint (a pickle can run any code when opened). {CONVERT}"
    )
