"""Accept a paraphraser's rewrite by how likely a careful reader is to judge it fluent and the same
question: a logistic regression over what can be measured of the rewrite, fitted on blind readings.

The filters before it check what can be named (a content word lost, a question word brought in, a scope
word changed), and half of the rewrites they let through are still judged wrong: a role reversed, a
qualifier bent, a phrase fronted onto another verb. No single score separates those (ROC-AUC 0.53-0.73,
docs/build.md), but together they do better: the pretrained paraphraser's log-probability of the rewrite
given the question (``fwd``) and of the question given the rewrite (``bwd``: the round trip's back half),
Gemma's fluency of the rewrite (absolute, and against the question's), the token edit rate, whether a
suggestion guided it, and each text-only meaning check's verdict (``meaning_filters``). The weights are
fitted by ``benchmarks/rewrite_ranking.py`` on the judged raw rewrites of the ``causal_reading`` sheets and
kept as JSON beside the adapter (``acceptance.json``); ``benchmarks/rewrite_acceptance.py`` measures the
result on the rewrites builds accepted, which it was not fitted on.

    model = AcceptanceModel.load("paraguide/models/gemma-en/acceptance.json")
    chain = FilterChain([..., LearntAcceptance(model, paraphraser, FluencyScorer(lm, measure="logprob"), 0.6)])
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from paraguide.score.filters import Candidate, Filter, meaning_filters

FILE = "acceptance.json"  # the model's name beside the adapter it was fitted for


def feature_names() -> tuple[str, ...]:
    """Every feature a model may use: the scores, and ``pass_<name>`` for each meaning check."""
    checks = (f"pass_{f.name}" for f in meaning_filters())
    return ("bwd", "edit", "fluency", "fluency_abs", "fwd", "guided", *checks)


@dataclass
class AcceptanceModel:
    """P(good) = sigmoid(intercept + coef . (x - mean) / scale) over the named ``features``; ``fitted``
    says on what (readings, items), for the record."""

    features: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    fitted: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.features) - set(feature_names()))
        if unknown:
            raise ValueError(f"unknown features {', '.join(unknown)}; known: {', '.join(feature_names())}")
        for name in ("mean", "scale", "coef"):
            if len(getattr(self, name)) != len(self.features):
                raise ValueError(
                    f"{name} has {len(getattr(self, name))} values for {len(self.features)} features"
                )
        if any(s <= 0 for s in self.scale):
            raise ValueError("every scale must be positive")

    @classmethod
    def load(cls, path: str | os.PathLike) -> AcceptanceModel:
        """Read a model (JSON); a missing, unreadable or malformed file is a ValueError naming it and the field."""
        path = Path(path)
        if path.is_dir():
            path = path / FILE
        if not path.is_file():
            raise ValueError(
                f"{path}: no acceptance model (benchmarks/rewrite_ranking.py --model-out writes one)"
            )
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: not a JSON acceptance model ({e})") from None
        names = ("features", "mean", "scale", "coef", "intercept")
        missing = [n for n in names if n not in data]
        if missing:
            raise ValueError(f"{path}: field {missing[0]!r} is missing")
        try:
            return cls(list(data["features"]), [float(v) for v in data["mean"]], [float(v) for v in data["scale"]],
                       [float(v) for v in data["coef"]], float(data["intercept"]), dict(data.get("fitted", {})))  # fmt: skip
        except (TypeError, ValueError) as e:
            raise ValueError(f"{path}: {e}") from None

    def save(self, path: str | os.PathLike) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")

    def probability(self, feats: dict[str, Sequence[float]]) -> list[float]:
        """P(good) of each row of ``feats`` (feature -> one value per rewrite)."""
        missing = [n for n in self.features if n not in feats]
        if missing:
            raise ValueError(f"feature {missing[0]!r} is missing")
        rows = len(feats[self.features[0]]) if self.features else 0
        out = []
        for k in range(rows):
            z = self.intercept + sum(
                c * (float(feats[n][k]) - m) / s
                for n, m, s, c in zip(self.features, self.mean, self.scale, self.coef, strict=True)
            )
            out.append(1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z)))
        return out


def features(
    paraphraser,
    fluency,
    questions: Sequence[str],
    rewrites: Sequence[str],
    suggestions: Sequence[str] | None = None,
    matched: Sequence[str] | None = None,
    lang: str = "en",
    batch_size: int = 32,
) -> dict[str, list[float]]:
    """The features of :func:`feature_names` for each rewrite of its question: ``paraphraser`` has
    ``log_likelihood(sources, targets)`` (the pretrained paraphraser), ``fluency`` is a
    :class:`~paraguide.score.fluency.FluencyScorer` (``measure="logprob"``: Gemma's mean log-probability per
    token); ``suggestions[i]`` guided rewrite i ("" or None: free), whose words may come in and those of
    ``matched[i]`` go."""
    from paraguide.text.edits import edit_rate

    n = len(questions)
    suggestions = [s or "" for s in suggestions] if suggestions is not None else [""] * n
    matched = [m or "" for m in matched] if matched is not None else [""] * n
    if not len(rewrites) == len(suggestions) == len(matched) == n:
        raise ValueError(f"{n} questions but {len(rewrites)} rewrites, {len(suggestions)} suggestions, "
                         f"{len(matched)} matched")  # fmt: skip
    out = {"edit": [edit_rate(q, p, lang) for q, p in zip(questions, rewrites, strict=True)],
           "guided": [float(bool(s)) for s in suggestions]}  # fmt: skip
    for f in meaning_filters():
        batch = [Candidate(q, p, s, lang=lang, matched=m)
                 for q, p, s, m in zip(questions, rewrites, suggestions, matched, strict=True)]  # fmt: skip
        out["pass_" + f.name] = [float(r is None) for r in f.reasons(batch)]
    absolute = fluency.fluency(list(questions) + list(rewrites)) if n else []
    out["fluency_abs"] = list(absolute[n:])
    out["fluency"] = [b - a for a, b in zip(absolute[:n], absolute[n:], strict=True)]
    out["fwd"] = paraphraser.log_likelihood(questions, rewrites, batch_size=batch_size) if n else []
    out["bwd"] = paraphraser.log_likelihood(rewrites, questions, batch_size=batch_size) if n else []
    return out


class LearntAcceptance(Filter):
    """Drop a paraphraser's rewrite whose learnt probability of being judged fluent and the same question
    (:class:`AcceptanceModel`) is below ``threshold``; the probability is kept in
    ``candidate.scores["acceptance"]`` and the round trip it computed on the way (forward + backward, as
    ``select="round-trip"`` ranks) in ``scores["round_trip"]``. Only the paraphraser's rewrites are scored
    (``meta["origin"]`` "paraphraser", or none given): an in-place swap or a reordering passes unscored --
    the model was fitted on rewrites, and readers accept those far more often."""

    name = "acceptance"

    def __init__(self, model: AcceptanceModel, paraphraser, fluency, threshold: float, batch_size: int = 32):
        self.model, self.paraphraser, self.fluency = model, paraphraser, fluency
        self.threshold, self.batch_size = threshold, batch_size

    def reasons(self, candidates):
        scored = [c for c in candidates if c.meta.get("origin", "paraphraser") == "paraphraser"]
        judged: dict[int, str | None] = {}
        for lang in sorted({c.lang for c in scored}):
            batch = [c for c in scored if c.lang == lang]
            feats = features(self.paraphraser, self.fluency, [c.source for c in batch], [c.text for c in batch],
                             [c.suggestion for c in batch], [c.matched for c in batch], lang=lang,
                             batch_size=self.batch_size)  # fmt: skip
            for k, (c, p) in enumerate(zip(batch, self.model.probability(feats), strict=True)):
                c.scores["acceptance"] = round(p, 4)
                c.scores["round_trip"] = round(feats["fwd"][k] + feats["bwd"][k], 4)
                judged[id(c)] = None if p >= self.threshold else f"P(good) {p:.3f} < {self.threshold}"
        return [judged.get(id(c)) for c in candidates]
