"""Pickle-free training checkpoints for the recipes (recipes/qa/run_qa.py, recipes/qm/run_qm.py).

``accelerator.save_state`` writes the optimizer, the scheduler, the RNG states and every object registered
for checkpointing with ``torch.save``, and ``load_state`` reads registered objects back with
``weights_only=False``: a checkpoint whose ``custom_checkpoint_0.pkl`` was replaced runs any code on
``--resume``. A recipe checkpoint is therefore tensors in safetensors files and everything else in JSON,
and reading one executes nothing:

    model.safetensors                    the weights (safetensors.torch.save_model)
    optimizer.safetensors, optimizer.json  the optimizer's state dict: its tensors, and the rest as JSON
    scheduler.json                       the learning-rate scheduler's state dict
    scaler.json                          fp16's gradient scaler (only with --mixed_precision fp16)
    rng-<rank>.safetensors, rng-<rank>.json  each process's Python, NumPy, torch (and CUDA) RNG states
    <state file>                         the recipe's own state (step, losses, run identity), JSON

    save_training_state(accelerator, folder, model, optimizer, scheduler, "state.json", state)
    state = load_training_state(accelerator, folder, model, optimizer, scheduler, "state.json")

A folder holding any pickle (``.pkl``, ``.bin``, ``.pt`` ...: an older recipe checkpoint written by
``accelerator.save_state``, or a planted file) is refused by name before anything in it is opened.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import numpy as np
import torch

from paraguide.data.io import write_json
from paraguide.errors import ParaguideError
from paraguide.model.safe_weights import PICKLE_SUFFIXES, PICKLE_WEIGHTS

MODEL = "model.safetensors"


class CheckpointStateError(ParaguideError):
    """A training checkpoint that must not or cannot be resumed from; the message names the folder."""


# ------------------------------------------------------------------------------- state dict <-> JSON


def to_json(obj, tensors: dict[str, torch.Tensor]):
    """``obj`` (a state dict: dicts, lists, tuples, numbers, strings, tensors, NumPy arrays) as JSON, its
    tensors moved into ``tensors`` under a number the JSON keeps. Dict keys may be strings or numbers (an
    optimizer's state is keyed by parameter index), so dicts and tuples are written as tagged lists and
    come back as they were. Anything else is a TypeError: nothing is ever pickled."""
    if isinstance(obj, torch.Tensor):
        name = str(len(tensors))
        tensors[name] = obj.detach().cpu().contiguous()
        return {"tensor": name}
    if isinstance(obj, np.ndarray):
        return {"ndarray": obj.tolist(), "dtype": str(obj.dtype)}
    if isinstance(obj, np.generic):
        return obj.item()
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, list):
        return [to_json(v, tensors) for i, v in enumerate(obj)]
    if isinstance(obj, tuple):
        return {"tuple": [to_json(v, tensors) for i, v in enumerate(obj)]}
    if isinstance(obj, dict):
        for k in obj:
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise TypeError(f"a state dict key {k!r} of type {type(k).__name__} cannot be saved as JSON")
        return {"dict": [[k, to_json(v, tensors)] for k, v in obj.items()]}
    raise TypeError(f"a {type(obj).__name__} in a state dict cannot be saved without pickle")


def from_json(obj, tensors: dict[str, torch.Tensor]):
    """The inverse of :func:`to_json`; ValueError for anything it does not write."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, list):
        return [from_json(v, tensors) for v in obj]
    if isinstance(obj, dict) and len(obj) == 1 and "tensor" in obj:
        if obj["tensor"] not in tensors:
            raise ValueError(f"tensor {obj['tensor']!r} is not in the safetensors file")
        return tensors[obj["tensor"]]
    if isinstance(obj, dict) and set(obj) == {"ndarray", "dtype"}:
        return np.array(obj["ndarray"], dtype=np.dtype(obj["dtype"]))
    if isinstance(obj, dict) and len(obj) == 1 and isinstance(obj.get("tuple"), list):
        return tuple(from_json(v, tensors) for v in obj["tuple"])
    if isinstance(obj, dict) and len(obj) == 1 and isinstance(obj.get("dict"), list):
        items = obj["dict"]
        if not all(isinstance(kv, list) and len(kv) == 2 and isinstance(kv[0], (str, int)) for kv in items):
            raise ValueError("a malformed dict entry")
        return {k: from_json(v, tensors) for k, v in items}
    raise ValueError(f"unexpected JSON value {str(obj)[:80]}")


def _save_part(folder: Path, name: str, obj) -> None:
    from safetensors.torch import save_file

    tensors: dict[str, torch.Tensor] = {}
    encoded = to_json(obj, tensors)
    if tensors:
        save_file(tensors, str(folder / f"{name}.safetensors"))
    write_json(folder / f"{name}.json", encoded, indent=None)


def _load_part(folder: Path, name: str):
    from safetensors.torch import load_file

    tensors = (
        load_file(str(folder / f"{name}.safetensors")) if (folder / f"{name}.safetensors").exists() else {}
    )
    return from_json(json.loads((folder / f"{name}.json").read_text(encoding="utf-8")), tensors)


# ------------------------------------------------------------------------------------------- RNG


def rng_state() -> dict:
    state = {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


# ------------------------------------------------------------------------------------ save and load


def pickled_files(folder: str | os.PathLike) -> list[str]:
    """The names of the files under ``folder`` that may be pickles (by name or suffix), sorted; none is
    opened."""
    folder = Path(folder)
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.name in PICKLE_WEIGHTS or p.suffix.lower() in PICKLE_SUFFIXES
    )


def save_training_state(accelerator, folder: Path, model, optimizer, scheduler, state_file: str, state: dict):
    """Write the checkpoint into ``.NAME`` beside ``folder``, then rename it to ``folder``: a save killed
    half-way never has the final name, so a resumed run never reads half of one (as paraguide train's
    save_state_atomically). All processes call it: each writes its RNG states, the main one the rest
    (the model and optimizer are the same on every process under DDP)."""
    from safetensors.torch import save_model

    writing = folder.parent / f".{folder.name}"
    if accelerator.is_main_process:
        shutil.rmtree(writing, ignore_errors=True)
        writing.mkdir(parents=True)
    accelerator.wait_for_everyone()
    _save_part(writing, f"rng-{accelerator.process_index}", rng_state())
    if accelerator.is_main_process:
        save_model(accelerator.unwrap_model(model), str(writing / MODEL))
        _save_part(writing, "optimizer", optimizer.state_dict())
        _save_part(writing, "scheduler", scheduler.state_dict())
        if accelerator.scaler is not None:
            _save_part(writing, "scaler", accelerator.scaler.state_dict())
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        write_json(writing / state_file, state)
        if folder.exists():  # from a run that went further before it was resumed from an older checkpoint
            shutil.rmtree(folder)
        os.replace(writing, folder)
    accelerator.wait_for_everyone()


def check_checkpoint_state(folder: Path, state_file: str) -> dict:
    """The checkpoint's state (``state_file``), after checking that nothing in the folder is a pickle (the
    files named, none opened) and that the parts are there. CheckpointStateError otherwise."""
    pickled = pickled_files(folder)
    if pickled:
        raise CheckpointStateError(
            f"{folder}: refusing to resume from a checkpoint holding pickled files ({', '.join(pickled)}); "
            "a recipe checkpoint is safetensors and JSON only and is never unpickled (a pickle can run any "
            "code when opened). Remove that checkpoint to resume from an older one, or start again with "
            "--overwrite_output_dir"
        )
    missing = [
        n for n in (MODEL, "optimizer.json", "scheduler.json", state_file) if not (folder / n).is_file()
    ]
    if missing:
        raise CheckpointStateError(f"{folder}: not a complete recipe checkpoint (no {', '.join(missing)})")
    try:
        state = json.loads((folder / state_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CheckpointStateError(f"{folder / state_file}: unreadable checkpoint state: {e}") from None
    if not isinstance(state, dict):
        raise CheckpointStateError(f"{folder / state_file}: not a checkpoint state (a JSON object)")
    return state


def load_training_state(accelerator, folder: Path, model, optimizer, scheduler, state_file: str) -> dict:
    """Restore what :func:`save_training_state` wrote (after :func:`check_checkpoint_state`) into the
    prepared ``model``, ``optimizer`` and ``scheduler`` and this process's RNG; returns the recipe's state.
    A process count that differs from the saved run's keeps the fresh RNG of a process with no saved one
    (only dropout draws from it: the recipes' batch order depends on the seed and step alone)."""
    from safetensors.torch import load_model

    state = check_checkpoint_state(folder, state_file)
    try:
        load_model(accelerator.unwrap_model(model), str(folder / MODEL), strict=True)
        optimizer.load_state_dict(_load_part(folder, "optimizer"))
        scheduler.load_state_dict(_load_part(folder, "scheduler"))
        if accelerator.scaler is not None and (folder / "scaler.json").is_file():
            accelerator.scaler.load_state_dict(_load_part(folder, "scaler"))
        if (folder / f"rng-{accelerator.process_index}.json").is_file():
            set_rng_state(_load_part(folder, f"rng-{accelerator.process_index}"))
    except Exception as e:  # safetensors, torch and our own reader raise their own types
        raise CheckpointStateError(f"{folder}: cannot restore the checkpoint: {e}") from None
    return state
