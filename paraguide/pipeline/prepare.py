"""Build the paraphraser's training data from question pairs, as Gan & Ng (2019, §2.2) built theirs.

    pairs ─► positive labels ─► not identical ─► not duplicate ─► has words ─► min length ─► min similarity
          ─► held-out split by pair ─► both directions ─► suggestion (textrank | alignment), unique per
          source ─► a share of empty suggestions ─► train.jsonl + train.heldout.jsonl + train.stats.json

Each output line is ``{source, target, suggestion, method, lang, origin}``; the empty suggestion is the
empty string (the model's tokenizer maps it to its special empty token). ``origin`` is ``FILE:LINE``.

The slow part (tagging, TextRank, alignment) runs in a process pool, one task per distinct question or
pair, in input order, so the output is the same whatever the number of workers. Every dropped pair or
example is counted under the filter that dropped it; malformed lines stop the run, or with
``skip_bad`` are counted and listed in the report.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from tqdm.auto import tqdm

from paraguide.data.io import check_output_file, output_paths, write_json, write_jsonl
from paraguide.data.pairs import Pair, read_pairs
from paraguide.errors import BadRecords, DataError
from paraguide.options import option
from paraguide.suggest.alignment import AlignmentSuggester, occurs_in, replaced_phrase
from paraguide.suggest.textrank import TextRank
from paraguide.text.language import LanguageCheck, has_word
from paraguide.text.normalize import normalize, pair_key
from paraguide.text.pos import has_tagger
from paraguide.text.stopwords import load_stopwords
from paraguide.text.tokenize import check_lang, tokenize

METHODS = ("textrank", "alignment")
NO_SUGGESTION = ""  # an example's suggestion when it has none (the model's input then uses <empty>)

# The similarity floor's scorer: a paraguide scorer (``score(pairs)``, e.g. load_scorer("embedding")), or a
# function of the two sides of a batch of pairs; either returns one score per pair.
PairScorer = Callable[[list[str], list[str]], Sequence[float]]


@dataclass
class PrepareConfig:
    """How ``prepare`` turns question pairs into the paraphraser's training data (``paraguide prepare``'s
    options)."""

    lang: str = option("language", "en", choices=("en", "zh"))
    suggestions: str = option("how suggestions are found", "textrank", choices=("textrank", "alignment"))
    # Gan & Ng use each Quora pair in both directions; paralex-style corpora already list both.
    both_directions: bool = option(
        "use each pair as source->target only (default: both directions)", True, flag="--one-direction"
    )
    # Share of examples with the empty suggestion. The paper gives no number. About a fifth of Quora and
    # LCQMC examples have a target that adds no content word (nothing to suggest): 0.2 lets those natural
    # suggestion-free paraphrases fill the share, so almost no example is lost, while four examples in
    # five still teach the main use, following a suggestion.
    empty_share: float = option("share of examples given the empty suggestion", 0.2, metavar="X")
    heldout_share: float = option(
        "share of pairs held out for validation", 0.02, metavar="X", flag="--heldout"
    )
    lowercase: bool = option("keep the case (default: lower-case, as the paper)", True)
    min_tokens: int = option(
        "drop pairs with a question shorter than N tokens (paper: 7 for WikiAnswers)",
        0,
        metavar="N",
        shown=False,
    )
    min_similarity: float | None = option("drop pairs below this similarity", cli=False)
    seed: int = option("seed for the split and the empty suggestions", 13, shown=False)
    workers: int = option("processes (default: 0 = all CPU cores)", 0, shown=False)
    skip_bad: bool = option(
        "skip malformed lines (counted and listed in the report) instead of stopping", False
    )
    allow_empty: bool = option(
        "an input with no records is not an error: the outputs are empty (also: a file without a positive "
        "pair)",
        False,
    )
    format: str = option(
        "pair file format",
        "auto",
        choices=("auto", "quora", "tsv", "tsv-unlabelled", "mrpc", "jsonl", "paralex"),
    )
    stopwords: tuple[str, ...] = option(
        "stop words: 'spacy' (default), 'nltk' or a file, one word per line (repeatable)",
        ("spacy",),
        action="append",
        metavar="SOURCE",
    )
    window: int = option("TextRank co-occurrence window", 2)
    pos: tuple[str, ...] | None = option("TextRank: the POS tags of candidate words", cli=False)
    max_phrase: int = option("longest alignment phrase in tokens", 4)

    def check(self) -> None:
        """Raise ValueError naming the option that cannot work."""
        check_lang(self.lang)
        if self.suggestions not in METHODS:
            raise ValueError(f"suggestions must be one of {', '.join(METHODS)}, got {self.suggestions!r}")
        for name in ("empty_share", "heldout_share"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise ValueError(f"{name} must be in [0, 1), got {getattr(self, name)}")
        if self.min_tokens < 0:
            raise ValueError("min_tokens must be >= 0")


@dataclass
class Stage:
    """One filter of the corpus builder and how many examples it let in and out."""

    name: str
    inputs: int = 0
    dropped: int = 0

    @property
    def outputs(self) -> int:
        """Examples that passed."""
        return self.inputs - self.dropped


@dataclass
class _Example:
    source: str  # as written (lower-cased when configured)
    target: str
    origin: str
    candidates: list[tuple[str, tuple[str, ...]]]  # (text, lower-cased words), best first
    suggestion: str | None = None
    method: str = ""
    suggestion_tokens: int = 0
    matched: str = ""  # the source phrase the suggestion replaces ("" if none: new material)


@dataclass
class _Kept:
    pair: Pair
    a: str  # normalised, original case
    b: str
    key: tuple[str, str]
    info: object = None
    tokens: tuple[int, int] = (0, 0)


def heldout_fraction(key: tuple[str, str], seed: int) -> float:
    """A number in [0, 1) fixed by the order-free pair key and the seed: the split is by pair, stable
    across runs and machines, and a pair and its reverse always fall on the same side."""
    digest = hashlib.blake2b(f"{seed}\x00{key[0]}\x00{key[1]}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


# ---- the process-pool part ---------------------------------------------------------------------------

_worker: dict = {}


def _init_worker(config: PrepareConfig) -> None:
    stop = load_stopwords(config.lang, config.stopwords)
    if config.suggestions == "textrank":
        _worker["ranker"] = TextRank(config.lang, config.window, config.pos, stop)
    else:
        _worker["aligner"] = AlignmentSuggester(config.lang, config.max_phrase, stop)
    _worker["config"] = config


def _analyse_question(text: str):
    """TextRank task: (lower-cased tokens, key phrases as (text, words), best first)."""
    ranker: TextRank = _worker["ranker"]
    tokens = ranker.tag(text)
    words = tuple(t.text.lower() for t in tokens)
    return words, _texts(ranker.rank(tokens, text), _worker["config"])


def _analyse_pair(item: tuple[str, str, object]):
    """Alignment task: (token counts, candidates a->b, candidates b->a)."""
    a, b, alignment = item
    config: PrepareConfig = _worker["config"]
    aligner: AlignmentSuggester = _worker["aligner"]
    reverse = tuple(sorted((j, i) for i, j in alignment)) if alignment is not None else None
    spans_a, spans_b = aligner.spans(a, alignment), aligner.spans(b, alignment)
    forward = aligner.candidates(a, b, alignment, (spans_a, spans_b))
    backward = aligner.candidates(b, a, reverse, (spans_b, spans_a))
    return (len(spans_a), len(spans_b)), _texts(forward, config), _texts(backward, config)


def _matched(item: tuple[str, str, str]) -> str:
    """Replaced-phrase task: the source phrase an example's suggestion replaces ("" if none)."""
    source, target, suggestion = item
    config: PrepareConfig = _worker["config"]
    if not suggestion:
        return ""
    return replaced_phrase(source, target, suggestion, config.lang, config.max_phrase)


def _texts(phrases, config: PrepareConfig) -> list[tuple[str, tuple[str, ...]]]:
    """Candidates as (text as written, lower-cased words): small to send back from a worker."""
    return [(_case(p.text, config), p.words) for p in phrases]


def _case(text: str, config: PrepareConfig) -> str:
    return text.lower() if config.lowercase else text


def _map(fn, items: list, config: PrepareConfig, desc: str, progress: bool) -> list:
    workers = config.workers or os.cpu_count() or 1
    bar = dict(total=len(items), desc=desc, unit="pair" if fn is _analyse_pair else "q", disable=not progress)
    if workers == 1 or len(items) < 200:
        _init_worker(config)
        return [fn(x) for x in tqdm(items, **bar)]
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(workers, initializer=_init_worker, initargs=(config,)) as pool:
        return list(tqdm(pool.imap(fn, items, chunksize=64), **bar))


# ---- the pipeline ------------------------------------------------------------------------------------


def prepare(
    pair_files: Iterable[str | os.PathLike],
    out: str | os.PathLike,
    config: PrepareConfig | None = None,
    scorer: PairScorer | None = None,
    progress: bool = True,
) -> dict:
    """Build ``out`` (and its held-out split and stats report) from the pair files; returns the report."""
    config = config or PrepareConfig()
    config.check()
    if config.min_similarity is not None and scorer is None:
        raise ValueError("min_similarity needs a scorer")
    started = time.time()
    paths = output_paths(out)
    pair_files = [os.fspath(p) for p in pair_files]
    for path in paths.values():  # before the work: writable, and none of them an input
        check_output_file(path, pair_files)
    bad = BadRecords(skip=config.skip_bad)
    stages = {
        name: Stage(name)
        for name in (
            "labelled positive",
            "not identical",
            "not duplicate",
            "has words",
            "min length",
            "min similarity",
        )
    }

    # 1. Read, keep positives, drop identical and duplicate pairs (order-free, case-free keys).
    files: dict[str, dict] = {}
    kept: list[_Kept] = []
    seen: set[tuple[str, str]] = set()
    for path in pair_files:
        path = os.fspath(path)
        before = bad.count
        n = positives = 0
        language = LanguageCheck(path, config.lang)
        for pair in tqdm(
            read_pairs(path, config.format, bad, allow_empty=config.allow_empty),
            desc=f"read {Path(path).name}",
            unit="pair",
            disable=not progress,
        ):
            n += 1
            language.feed(pair.a)
            language.feed(pair.b)
            if not _keep(stages["labelled positive"], pair.is_positive):
                continue
            positives += 1
            a, b = normalize(pair.a), normalize(pair.b)
            key = pair_key(a, b)
            if not _keep(stages["not identical"], key[0] != key[1]):
                continue
            if not _keep(stages["not duplicate"], key not in seen):
                continue
            seen.add(key)
            # a side of emoji, symbols or punctuation alone teaches the model nothing but broken bytes
            if not _keep(stages["has words"], has_word(a) and has_word(b)):
                continue
            kept.append(_Kept(pair, a, b, key))
        language.done()
        if n and not positives and not config.allow_empty:
            raise DataError(path, "no positive pairs (label 1) in the file: prepare trains on paraphrases")
        files[path] = {"pairs_read": n, "bad_lines_skipped": bad.count - before}
    del seen

    # 2. Analyse (process pool): tokens and suggestion candidates.
    if config.suggestions == "textrank":
        distinct = list(dict.fromkeys(q for k in kept for q in (k.a, k.b)))
        results = dict(
            zip(distinct, _map(_analyse_question, distinct, config, "textrank", progress), strict=True)
        )
        for k in kept:
            k.info = (results[k.a], results[k.b])
            k.tokens = (len(results[k.a][0]), len(results[k.b][0]))
        del results
    else:
        items = [(k.a, k.b, k.pair.alignment) for k in kept]
        for k, (counts, forward, backward) in zip(
            kept, _map(_analyse_pair, items, config, "align", progress), strict=True
        ):
            k.tokens, k.info = counts, (forward, backward)

    # 3. Length and similarity floors.
    kept = [k for k in kept if _keep(stages["min length"], min(k.tokens) >= config.min_tokens)]
    if config.min_similarity is not None:
        scores: list[float] = []
        for i in range(0, len(kept), 1024):
            batch = kept[i : i + 1024]
            if hasattr(scorer, "score"):  # a paraguide scorer
                scores.extend(float(s) for s in scorer.score([(k.a, k.b) for k in batch]))
            else:
                scores.extend(float(s) for s in scorer([k.a for k in batch], [k.b for k in batch]))
        kept = [
            k
            for k, s in zip(kept, scores, strict=True)
            if _keep(stages["min similarity"], s >= config.min_similarity)
        ]
    else:
        stages["min similarity"].inputs = len(kept)

    # 4. Held-out split by pair, then examples in one or both directions.
    splits: dict[str, list[_Example]] = {"train": [], "heldout": []}
    pair_counts = Counter()
    for k in kept:
        split = "heldout" if heldout_fraction(k.key, config.seed) < config.heldout_share else "train"
        pair_counts[split] += 1
        splits[split].append(_example(k, forward=True, config=config))
        if config.both_directions:
            splits[split].append(_example(k, forward=False, config=config))

    # 5. One suggestion per example, never repeating a (source, suggestion) input; the empty share.
    selection = {}
    for name, examples in splits.items():
        selection[name] = _assign(examples, config, random.Random(f"{config.seed}:{name}"))
        splits[name] = [e for e in examples if e.suggestion is not None]
    # What each suggestion replaces in its source (the use-time sources know theirs): a model trained with
    # input_format "replace" learns to substitute it rather than insert the suggestion anywhere. One pool
    # for both splits.
    chosen = splits["train"] + splits["heldout"]
    items = [(e.source, e.target, e.suggestion) for e in chosen]
    for e, matched in zip(chosen, _map(_matched, items, config, "replaced phrases", progress), strict=True):
        e.matched = matched

    # 6. Write and report.
    for name in ("train", "heldout"):
        write_jsonl(paths[name], (_record(e, config) for e in splits[name]))
    report = _report(config, files, bad, stages, pair_counts, selection, splits, paths, time.time() - started)
    write_json(paths["stats"], report)
    return report


def _keep(stage: Stage, ok: bool) -> bool:
    stage.inputs += 1
    if not ok:
        stage.dropped += 1
    return ok


def _example(k: _Kept, forward: bool, config: PrepareConfig) -> _Example:
    source, target = (k.a, k.b) if forward else (k.b, k.a)
    source_out, target_out = _case(source, config), _case(target, config)
    if config.suggestions == "textrank":
        (src_words, _), (_, tgt_phrases) = k.info if forward else k.info[::-1]
        source_lower = source.lower()
        candidates = [
            (text, words)
            for text, words in tgt_phrases
            if not occurs_in(text, words, source_lower, list(src_words), config.lang)
        ]
    else:
        candidates = k.info[0] if forward else k.info[1]
    return _Example(source_out, target_out, k.pair.origin, candidates)


def _assign(examples: list[_Example], config: PrepareConfig, rng: random.Random) -> dict:
    """Give each example a suggestion, then make the empty share; returns the counts.

    - The best candidate not yet used for the same source (Gan & Ng: a source with k targets gets k
      distinct suggestions, so no (source, suggestion) input repeats).
    - Examples with no candidate (the target adds only stop words) can only be empty-suggestion
      examples; they fill the empty share first, as natural suggestion-free paraphrases, at most one per
      source. Any that are still needed are drawn at random from the others; extra no-candidate
      examples are dropped and counted.
    """
    used: dict[str, set[str]] = {}
    with_candidate, without = [], []
    dropped = Counter()
    for e in examples:
        taken = used.setdefault(e.source, set())
        choice = next(((text, words) for text, words in e.candidates if text not in taken), None)
        if choice is not None:
            taken.add(choice[0])
            e.suggestion, e.method, e.suggestion_tokens = choice[0], config.suggestions, len(choice[1])
            with_candidate.append(e)
        elif e.candidates:
            dropped["no distinct candidate for the source"] += 1
        else:
            without.append(e)

    share = config.empty_share
    rng.shuffle(without)
    empty_sources: set[str] = set()
    natural = []
    wanted = round(share * len(with_candidate) / (1 - share))
    for e in without:
        if len(natural) < wanted and e.source not in empty_sources:
            empty_sources.add(e.source)
            natural.append(e)
            e.suggestion, e.method = NO_SUGGESTION, "empty"
    dropped["no candidate, beyond the empty share"] = len(without) - len(natural)

    wanted = round(share * (len(with_candidate) + len(natural))) - len(natural)
    order = list(range(len(with_candidate)))
    rng.shuffle(order)
    replaced = 0
    for i in order:
        if replaced >= wanted:
            break
        e = with_candidate[i]
        if e.source not in empty_sources:
            empty_sources.add(e.source)
            e.suggestion, e.method = NO_SUGGESTION, "empty"
            replaced += 1
    return {
        "examples": len(examples),
        "with_candidate": len(with_candidate),
        "empty_from_no_candidate": len(natural),
        "empty_replacing_a_candidate": replaced,
        "dropped": {k: v for k, v in dropped.items() if v},
    }


def _record(e: _Example, config: PrepareConfig) -> dict:
    return {
        "source": e.source,
        "target": e.target,
        "suggestion": e.suggestion,
        "matched": e.matched,
        "method": e.method,
        "lang": config.lang,
        "origin": e.origin,
    }


def _report(config, files, bad, stages, pair_counts, selection, splits, paths, elapsed) -> dict:
    out = {
        "settings": asdict(config),
        "tagger": "n/a",
        "files": files,
        "pair_filters": [
            {"filter": s.name, "in": s.inputs, "out": s.outputs, "dropped": s.dropped}
            for s in stages.values()
        ],
        "pairs": {"train": pair_counts["train"], "heldout": pair_counts["heldout"]},
        "suggestion_selection": selection,
        "examples": {},
        "bad_lines": bad.as_dict(),
        "outputs": {name: str(p) for name, p in paths.items()},
        "elapsed_seconds": round(elapsed, 1),
    }
    if config.suggestions == "textrank":
        out["tagger"] = "pos" if has_tagger(config.lang) else "none (stop-word filter)"
    for name, examples in splits.items():
        n = len(examples)
        empty = sum(e.suggestion == NO_SUGGESTION for e in examples)
        lengths = Counter(e.suggestion_tokens for e in examples if e.suggestion)
        out["examples"][name] = {
            "count": n,
            "empty_suggestions": empty,
            "empty_share": round(empty / n, 4) if n else 0.0,
            "with_replaced_phrase": sum(bool(e.matched) for e in examples),
            "suggestion_tokens": {str(k): lengths[k] for k in sorted(lengths)},
            "mean_suggestion_tokens": round(
                sum(k * v for k, v in lengths.items()) / max(1, sum(lengths.values())), 3
            ),
        }
    return out


def format_report(report: dict) -> str:
    """A short human-readable summary of a prepare report."""
    lines = [f"{'pair filter':<22}{'in':>10}{'out':>10}{'dropped':>10}"]
    for f in report["pair_filters"]:
        lines.append(f"{f['filter']:<22}{f['in']:>10}{f['out']:>10}{f['dropped']:>10}")
    lines.append(f"pairs: train {report['pairs']['train']}, held-out {report['pairs']['heldout']}")
    for name, sel in report["suggestion_selection"].items():
        dropped = ", ".join(f"{k}: {v}" for k, v in sel["dropped"].items()) or "none"
        ex = report["examples"][name]
        lines.append(
            f"{name}: {sel['examples']} examples before suggestion selection, dropped ({dropped}); "
            f"written {ex['count']}, empty share {ex['empty_share']:.3f}, "
            f"mean suggestion length {ex['mean_suggestion_tokens']} tokens, "
            f"{ex['with_replaced_phrase']} with the source phrase they replace"
        )
    if report["bad_lines"]["skipped"]:
        lines.append(f"bad lines skipped: {report['bad_lines']['skipped']} (listed in the stats file)")
    lines.append(f"POS tagger: {report['tagger']}; {report['elapsed_seconds']} s")
    lines.append("wrote " + ", ".join(report["outputs"].values()))
    return "\n".join(lines)


def check_prepared(
    out: str | os.PathLike, lang: str, empty_share: float, disjoint_from: str | os.PathLike | None = None
) -> dict:
    """Verify a prepared output against the rules :func:`prepare` promises; returns counts per split and
    the failures (empty when every rule holds):

    every non-empty suggestion occurs in its target (token sequence; Chinese: substring) and not in its
    source; no suggestion is stop words alone; the empty share equals the setting within one point; no
    pair (or its reverse) on both sides of the split; no (source, suggestion) input repeats. With
    ``disjoint_from`` (another corpus's held-out JSONL, evaluated on instead of this one's own split): no
    pair of that file, in either direction, in the training split.
    """
    from paraguide.data.io import read_jsonl
    from paraguide.text.stopwords import is_stop_phrase

    paths = output_paths(out)
    stop = load_stopwords(lang)
    failures: Counter = Counter()
    keys: dict[str, set] = {}
    splits = {}
    for split in ("train", "heldout"):
        n = empty = 0
        inputs: Counter = Counter()
        keys[split] = set()
        for _, r in read_jsonl(paths[split]):
            n += 1
            keys[split].add(pair_key(r["source"], r["target"]))
            inputs[(r["source"], r["suggestion"])] += 1
            s = r["suggestion"]
            if s == NO_SUGGESTION:
                empty += 1
                continue
            words = tuple(t.lower() for t in tokenize(s, lang))
            in_target, in_source = (
                occurs_in(s, words, r[side].lower(), [t.lower() for t in tokenize(r[side], lang)], lang)
                for side in ("target", "source")
            )
            failures["suggestion not in its target"] += not in_target
            failures["suggestion in its source"] += in_source
            failures["suggestion is stop words alone"] += is_stop_phrase(words, stop)
        repeated = sum(c - 1 for c in inputs.values() if c > 1)
        share = empty / n if n else 0.0
        failures[f"{split}: repeated (source, suggestion) inputs"] += repeated
        failures[f"{split}: empty share off by more than one point"] += (
            n > 0 and abs(share - empty_share) > 0.01
        )
        splits[split] = {"examples": n, "empty_share": round(share, 4), "repeated_inputs": repeated}
    failures["pairs on both sides of the split"] += len(keys["train"] & keys["heldout"])
    result = {"splits": splits}
    if disjoint_from is not None:
        held = {pair_key(r["source"], r["target"]) for _, r in read_jsonl(disjoint_from)}
        trained_on = len(keys["train"] & held)
        failures[f"pairs of {disjoint_from} in the training split"] += trained_on
        result["disjoint_from"] = {
            "file": str(disjoint_from),
            "pairs": len(held),
            "pairs_trained_on": trained_on,
        }
    return result | {"failures": {k: v for k, v in failures.items() if v}}
