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
