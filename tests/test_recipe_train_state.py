"""recipes/train_state.py: state dicts to safetensors + JSON and back without pickle (issue 32, item 3)."""

from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest
from helpers import ROOT

torch = pytest.importorskip("torch")
sys.path.insert(0, str(ROOT))

from recipes.train_state import from_json, rng_state, set_rng_state, to_json  # noqa: E402


def test_an_optimizer_and_scheduler_state_round_trip_through_json_and_tensors():
    from transformers import get_linear_schedule_with_warmup

    model = torch.nn.Linear(3, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.1)
    scheduler = get_linear_schedule_with_warmup(optimizer, 1, 10)
    model(torch.ones(1, 3)).sum().backward()
    optimizer.step()
    scheduler.step()
    for state in (optimizer.state_dict(), scheduler.state_dict()):
        tensors = {}
        encoded = to_json(state, tensors)
        back = from_json(json.loads(json.dumps(encoded)), tensors)
        assert _same(back, state)


def test_rng_states_are_restored():
    saved = rng_state()
    tensors = {}
    encoded = to_json(saved, tensors)
    first = (random.random(), float(np.random.rand()), float(torch.rand(1)))
    set_rng_state(from_json(encoded, tensors))
    assert (random.random(), float(np.random.rand()), float(torch.rand(1))) == first


def test_anything_but_plain_data_is_refused_both_ways():
    with pytest.raises(TypeError, match="without pickle"):
        to_json({"f": object()}, {})
    with pytest.raises(ValueError):
        from_json({"__reduce__": ["os.system", "touch x"]}, {})
    with pytest.raises(ValueError, match="not in the safetensors file"):
        from_json({"tensor": "7"}, {})


def _same(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b
