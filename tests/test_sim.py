"""The trainable sim scorer: it learns to separate paraphrases from other pairs, saves and loads, and the
command-line path works."""

import random

import pytest

pytest.importorskip("torch")

from paraguide.score import roc_auc  # noqa: E402
from paraguide.score.sim import SimConfig, SimScorer, train_sim  # noqa: E402

TOPICS = ["python", "chess", "guitar", "piano", "spanish", "cooking", "running", "painting", "french", "swimming",
          "drawing", "rust", "java", "singing", "dancing", "poker"]  # fmt: skip
TEMPLATES = [
    ("how can i learn {}?", "what is the best way to learn {}?"),
    ("how do i get better at {}?", "how can i improve at {}?"),
    ("is {} hard to learn?", "how difficult is {} for beginners?"),
]


def toy_pairs(seed=0):
    rng = random.Random(seed)
    return [
        (a.format(t), b.format(t))
        for t in TOPICS
        for a, b in TEMPLATES
        for _ in range(2)
        if rng.random() < 0.9
    ]


def evaluation_pairs():
    """Positives: a topic's two templates; negatives: the same templates on different topics."""
    pos = [(a.format(t), b.format(t)) for t in TOPICS for a, b in TEMPLATES]
    neg = [
        (a.format(t), b.format(TOPICS[(i + 3) % len(TOPICS)]))
        for i, t in enumerate(TOPICS)
        for a, b in TEMPLATES
    ]
    return pos + neg, [1] * len(pos) + [0] * len(neg)


@pytest.mark.slow
def test_sim_learns_to_separate_paraphrases_and_round_trips(tmp_path):
    pairs, labels = evaluation_pairs()
    config = SimConfig(dim=32, vocab_size=400, batch_size=16, megabatch=2, epochs=30, lr=0.01, margin=0.4)
    untrained = train_sim(toy_pairs(), tmp_path / "untrained", SimConfig(**{**config.__dict__, "epochs": 0}))
    import torch

    with torch.no_grad():
        before = [
            float((x * y).sum())
            for x, y in zip(
                untrained.encode([p[0] for p in pairs]), untrained.encode([p[1] for p in pairs]), strict=True
            )
        ]  # noqa: E501
    train_sim(toy_pairs(), tmp_path / "sim", config)
    scorer = SimScorer(tmp_path / "sim")
    after = scorer.score(pairs)
    assert roc_auc(after, labels) >= 0.95 > roc_auc(before, labels) + 0.1
    assert scorer.score([("how can i learn chess?", "how can i learn chess?")]) == [
        pytest.approx(1.0, abs=1e-3)
    ]
    # Saved in float16 and loaded back: the same scores from a fresh load.
    assert SimScorer(tmp_path / "sim").score(pairs[:5]) == pytest.approx(after[:5])


def test_train_scorer_and_score_commands(write, tmp_path, capsys):
    from paraguide.cli import main

    lines = (
        "".join(f"{a}\t{b}\t1\n" for a, b in toy_pairs())
        + "how can i learn chess?\twhy is the sky blue?\t0\n"
    )
    pairs = write("pairs.tsv", lines)
    out = tmp_path / "sim"
    args = ["train-scorer", "--pairs", str(pairs), "--output-dir", str(out), "--dim", "16", "--vocab-size", "400",
            "--epochs", "2", "--batch-size", "16"]  # fmt: skip
    assert main(args) == 0
    unique = len(set(toy_pairs()))  # duplicates once, the negative pair not at all
    assert f"trained on {unique} pairs" in capsys.readouterr().err
    assert {p.name for p in out.iterdir()} == {"model.safetensors", "config.json", "spiece.model", "run.json"}
    assert main(["score", "--scorer", f"sim:{out}", "--input", str(pairs)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(toy_pairs()) + 1
    assert main(["score", "--scorer", f"sim:{tmp_path / 'missing'}", "--input", str(pairs)]) == 1
    assert "no sim scorer at" in capsys.readouterr().err
