"""The report's figures (matplotlib, Agg backend: no display needed): the drop per band of each breakdown,
and the scores before and after retraining."""

from __future__ import annotations

import os
import warnings

NAMES = {"exact_match": "EM", "f1": "F1", "accuracy": "accuracy"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    # Chinese band names (question words) need a CJK font; without one they show as boxes, not an error.
    cjk = [f.name for f in font_manager.fontManager.ttflist
           if any(k in f.name for k in ("CJK", "WenQuanYi", "Hei", "Song", "Ming"))]  # fmt: skip
    plt.rcParams["font.sans-serif"] = cjk[:1] + list(plt.rcParams["font.sans-serif"])
    return plt, bool(cjk)


def _label(text: str, cjk: bool) -> str:
    # Without a CJK font a Chinese question word shows its gloss (pinyin and meaning) rather than boxes.
    from paraguide.evaluate.testset import ZH_QUESTION_WORDS

    return text if cjk or text.isascii() else ZH_QUESTION_WORDS.get(text, text)


def drop_plot(path: str | os.PathLike, title: str, metric: str, rows: dict[str, list[dict]]) -> None:
    """Bars of the drop of ``metric`` per band; ``rows``: run name -> breakdown rows (same bands)."""
    plt, cjk = _pyplot()
    runs = list(rows)
    bands = [r["band"] for r in rows[runs[0]]]
    width = 0.8 / len(runs)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.1 * len(bands) + 2), 3.6))
    for k, run in enumerate(runs):
        xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(bands))]
        bars = ax.bar(xs, [r["drop"][metric] for r in rows[run]], width, label=run)
        ax.bar_label(bars, fmt="%.1f", fontsize=7)
    ax.set_xticks(range(len(bands)))
    ax.set_xticklabels(
        [f"{_label(b, cjk)}\n(n={r['total']})" for b, r in zip(bands, rows[runs[0]], strict=True)], fontsize=8
    )
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel(f"{NAMES.get(metric, metric)} drop (points)")
    ax.set_title(title)
    if len(runs) > 1:
        ax.legend()
    _save(fig, plt, path)


def before_after_plot(path: str | os.PathLike, metric: str, results: dict[str, dict]) -> None:
    """``metric`` on the original and the paraphrased set, for each run (before and after retraining)."""
    plt, _ = _pyplot()
    sets = ("original", "paraphrased")
    fig, ax = plt.subplots(figsize=(4.8, 3.6))
    width = 0.8 / len(sets)
    for k, name in enumerate(sets):
        xs = [i + (k - 0.5) * width for i in range(len(results))]
        bars = ax.bar(xs, [r[name][metric] for r in results.values()], width, label=name)
        ax.bar_label(bars, fmt="%.1f", fontsize=8)
    ax.set_xticks(range(len(results)))
    ax.set_xticklabels(list(results))
    ax.set_ylabel(f"{NAMES.get(metric, metric)} (%)")
    ax.set_title(f"{NAMES.get(metric, metric)} before and after retraining")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2)
    _save(fig, plt, path)


def _save(fig, plt, path) -> None:
    from paraguide.data.io import atomic_write

    with warnings.catch_warnings(), atomic_write(path, "wb") as f:
        warnings.filterwarnings("ignore", message="Glyph .* missing")
        fig.tight_layout()
        fig.savefig(f, format="png", dpi=110)
    plt.close(fig)
