"""Make a `paraguide train` folder written before run identity (no run.json; checkpoints holding the step
alone; best/ as a save_pretrained folder) resumable by the current code: run.json is recorded from the
original command's options and the current content of its files, each checkpoint gets early stopping's best
as of its step (from metrics.jsonl), and best/ becomes best/model-STEP.safetensors. Give the options of the
command that started the run (--resume is not needed):

    python data_prep/migrate_train_run.py runs/models/en -- --train-file data/quora/train.jsonl \
        --output-dir runs/models/en --size small --epochs 8 --patience 4 ...

then continue with that command plus --resume. The files must be the ones the run started with: the record
takes their content as it is now.
"""

import json
import sys
from pathlib import Path

from paraguide.cli import _from_args, build_parser
from paraguide.data.outdir import OutputDir
from paraguide.model.train import STATE, TrainConfig, _default_heldout, run_inputs

if sys.argv[1:2] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)
if len(sys.argv) < 3 or "--" not in sys.argv:
    sys.exit(__doc__)
out = Path(sys.argv[1])
argv = sys.argv[sys.argv.index("--") + 1 :]
args = build_parser().parse_args(["train", *argv])
config = _from_args(TrainConfig, args)
heldout = config.heldout_file or _default_heldout(config.train_file)
heldout = heldout if Path(heldout).exists() else None
metrics = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines() if x.strip()]


def best_until(step):
    best = None
    for m in metrics:
        if m["step"] > step:
            break
        if best is None or m["heldout_loss"] < best["heldout_loss"]:
            best = {"step": m["step"], "heldout_loss": m["heldout_loss"], "waited": 0}
        else:
            best = {**best, "waited": best["waited"] + 1}
    return best


if config.patience:
    for ckpt in sorted(out.glob("checkpoint-*")):
        state = json.loads((ckpt / STATE).read_text())
        state["best"] = best_until(state["step"])
        (ckpt / STATE).write_text(json.dumps(state))
        print(ckpt, state)
    old = out / "best" / "model.safetensors"
    if old.exists():
        from safetensors.torch import save_model

        from paraguide.model.copy import CopyGenerator

        best = json.loads((out / "best" / "best.json").read_text())
        model = CopyGenerator.from_pretrained(str(out / "best"))
        save_model(model, str(out / "best" / f"model-{best['step']}.safetensors"))
        for name in ("model.safetensors", "config.json", "generation_config.json"):
            (out / "best" / name).unlink(missing_ok=True)
        print("best ->", f"model-{best['step']}.safetensors")
run = OutputDir(out, "train")
run.identify(config.identity(), run_inputs(config, heldout))
run.record()
print("wrote", out / "run.json")
