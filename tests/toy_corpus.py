"""A toy paraphrase corpus: rewrite a question with the suggested phrase, copying the rare topic word."""

import json
import random

THINGS = [
    "python",
    "java",
    "rust",
    "chess",
    "guitar",
    "piano",
    "spanish",
    "french",
    "cooking",
    "running",
    "painting",
    "swimming",
]
WAYS = ["fastest way", "best way", "easiest way", "cheapest way", "quickest method", "simplest method"]


def write_toy_corpus(folder):
    """'how can i learn X?' -> 'what is the <way> to learn X?' with the way as the suggestion."""
    rng = random.Random(0)
    rows = []
    for _ in range(400):
        thing, way = rng.choice(THINGS), rng.choice(WAYS)
        rows.append(
            {
                "source": f"how can i learn {thing}?",
                "target": f"what is the {way} to learn {thing}?",
                "suggestion": way,
                "method": "textrank",
                "lang": "en",
                "origin": "synthetic",
            }
        )
    for name, part in (("train.jsonl", rows[:360]), ("train.heldout.jsonl", rows[360:])):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in part))
    return folder / "train.jsonl"


def toy_texts() -> list[str]:
    return [f"how can i learn {t}?" for t in THINGS] + [
        f"what is the {w} to learn {t}?" for w in WAYS for t in THINGS
    ]


ADJECTIVES = ["big", "cheap", "old", "new", "quiet", "busy"]
REPLACEMENTS = ["large", "modern", "famous", "small", "ancient"]


def write_replace_corpus(folder):
    """'which A city has B food?' with one of A, B (the example's "matched") replaced by the suggestion.
    The suggestion fits either place, so only the matched phrase says which word goes: a model that
    ignores it is right half the time."""
    rng = random.Random(1)
    rows = []
    for _ in range(600):
        a, b = rng.sample(ADJECTIVES, 2)
        new = rng.choice(REPLACEMENTS)
        source = f"which {a} city has {b} food?"
        matched = rng.choice([a, b])
        target = source.replace(f" {matched} ", f" {new} ")
        rows.append(
            dict(source=source, target=target, suggestion=new, matched=matched, method="x", lang="en")
        )
    for name, part in (("train.jsonl", rows[:560]), ("train.heldout.jsonl", rows[560:])):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in part))
    return folder / "train.jsonl"


def toy_train_config(corpus, out, **kw):
    """A quick TrainConfig for the toy corpus: small batches, a high learning rate, no dropout, rare
    checkpoints; ``kw`` overrides or adds (size, backbone ...)."""
    from paraguide.model.train import TrainConfig

    base = dict(train_file=str(corpus), output_dir=str(out), batch_size=16, lr=3e-3, warmup_steps=10, dropout=0.0,
                eval_examples=16, save_every=1000, eval_every=1000)  # fmt: skip
    return TrainConfig(**{**base, **kw})
