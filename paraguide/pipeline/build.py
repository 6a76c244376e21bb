"""The main job: paraphrased test sets (``build_testset``) and augmented training data (``augment``) for QA
(SQuAD format) and QM (question pairs), English and Chinese.

    config = BuildConfig(squad="dev-v1.1.json", out="runs/testset")
    summary = build_testset(config)

Both jobs stream the input in chunks of ``chunk_size`` questions through one :class:`QuestionParaphraser`
(suggestions -> paraphraser -> filters -> a seeded choice) and write each chunk as it is done
(:mod:`paraguide.pipeline.shards`): under ``accelerate launch`` the chunks are shared among the processes,
and ``resume=True`` continues a killed run. When every chunk is done, the main process merges the shards in
input order into the final files, so the files are the same for any number of processes, in one go or
resumed.

Test set outputs (OUTDIR): ``paraphrased.json`` + ``original.json`` (SQuAD: the same questions, the
paraphrased ones with new ids; contexts and answers untouched) or ``paraphrased.<tsv|jsonl>`` +
``original.<tsv|jsonl>`` (pairs, labels kept); ``id_map.json`` (new id -> original id); ``provenance.jsonl``
(one line per paraphrase: original, paraphrase, suggestion, its source, scores, step); ``accounting.jsonl``
(every input question: selected, or the stage and reason it fell out); ``summary.json`` (counts per stage,
which add up to the input questions). Augmentation writes ``train.json`` / ``train.<tsv|jsonl>`` instead.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from tqdm.auto import tqdm

from paraguide.data.io import atomic_write, write_json
from paraguide.data.pairs import Pair, detect_format, write_pairs
from paraguide.data.squad import SquadReader, SquadWriter
from paraguide.pipeline.generate import Item, QuestionParaphraser, stage_names
from paraguide.pipeline.inputs import InputReport, count_questions, pair_items, squad_items, unique_id
from paraguide.pipeline.shards import WORK, ShardWriter, file_fingerprint, prepare_run, read_done

# The synonyms of a lexicon that a second, differently built source also offers (suggest.Agreement):
# English, WordNet's that PPDB's synonym pairs hold; Chinese, Cilin's that people swap in LCQMC and BQ
# paraphrase pairs (suggest.mined), then question words swapped for equivalents (suggest.interrogative).
DEFAULT_SOURCE = {"en": "interrogative|wordnet&ppdb", "zh": "interrogative|cilin&mined"}


# Named presets (TextAttack's recipes): what a candidate may be and how it is judged.
#   substitute: the suggestion replaces the phrase it matched and the rest of the question stays
#     (filters.Substitutes); the candidate is the question with the suggestion put in place (inflected),
#     and the paraphraser is not run (nbest 0): blind readers accepted about one in seven of its beams
#     under this preset against about half of the in-place candidates. Suggestions are ranked by
#     all-MiniLM-L6-v2's similarity of the question with the suggestion in place, those below 0.96
#     dropped (over the readings' 431 judged PPDB-agreed synonyms, 57 % accepted in all and 63 % of the 69 %
#     at or above 0.96; every what/which swap scores above 0.98); similarity by the same embedding.
#     Readings of SQuAD dev: docs/build.md.
#     Chinese (LANG_PRESETS): all-MiniLM-L6-v2 is English-only, so suggestions are ranked by the bundled
#     question LM (fluency) and similarity is the bundled sim scorer at 0.5 -- its calibrated 0.9522 drops
#     nearly every Cilin synonym, right or wrong; the agreement of two sources is the sense check.
#   rewrite: the paraphraser's best beam, free to rewrite; similarity by the bundled sim scorer. Adversarial
#     (context-chunk) suggestions use it: a context chunk replaces no phrase.
PRESETS = {
    "substitute": {
        "scorer": "embedding",
        "substitution": True,
        "in_place": True,
        "nbest": 0,
        "rank": "embedding",
        "rank_threshold": 0.96,
    },
    "rewrite": {
        "scorer": "sim",
        "substitution": False,
        "in_place": False,
        "nbest": 1,
        "rank": "off",
        "rank_threshold": None,
    },
}
LANG_PRESETS = {
    ("substitute", "zh"): {"scorer": "sim", "threshold": 0.5, "rank": "fluency", "rank_threshold": None},
}
DEFAULT_PRESET = {"en": "substitute", "zh": "substitute"}


@dataclass
class BuildConfig:
    """Everything a test-set or augmentation run depends on (``--resume`` checks it did not change)."""

    out: str
    squad: str | None = None  # a SQuAD-format file (SQuAD, DuReader-robust) ...
    pairs: str | None = None  # ... or a question-pair file (LCQMC, BQ, Quora-style TSV, MRPC, JSONL)
    pairs_format: str = "auto"
    side: str = "a"  # pairs: paraphrase side a, b or both
    lang: str = "en"
    adversarial: bool = False  # context chunks near a same-type distractor; the adversarial threshold
    source: str | None = None  # ppdb:FILE | wordnet[:DIR] | cilin[:FILE] | context | none (default by lang)
    model: str | None = None  # paraphraser folder (default: the bundled model of `lang`)
    # What a candidate may be and how it is judged: a named preset (PRESETS; default by language and use,
    # DEFAULT_PRESET) fills every option below left at None.
    preset: str | None = None
    scorer: str | None = None
    threshold: float | None = None  # default: the scorer's calibrated threshold for this use
    # The fluency filter's question LM: off, bundled (the LM of `lang`) or a folder. Off by default: two
    # blind readings of SQuAD dev test sets found no gain from it yet (docs/build.md).
    fluency: str = "off"
    fluency_threshold: float | None = None  # default: the LM's calibrated threshold for this use
    # Substitution: the suggestion must replace its matched phrase and the rest of the question stay
    # (filters.Substitutes); the question with the suggestion in place is a candidate beside the
    # paraphraser's best `nbest` beams (0: the paraphraser is not run); suggestions ranked by a scorer's
    # similarity in place ("off" or a scorer spec), those below `rank_threshold` (default: the scorer's
    # calibrated one) dropped.
    substitution: bool | None = None
    in_place: bool | None = None
    nbest: int | None = None
    rank: str | None = None
    rank_threshold: float | None = None
    top_k: int = 3  # suggestions tried per question and step
    steps: int = 1
    num_beams: int = 4
    batch_size: int = 32
    chunk_size: int = 64  # questions per unit of work (and of resumption)
    seed: int = 0
    dtype: str = "auto"
    ner: str | None = None  # context source: an installed spaCy NER pipeline (default: rules)
    # augmentation
    n: int | None = None  # accepted paraphrases to sample (default: every accepted one)
    per_question: int = 1  # augment: at most this many distinct accepted paraphrases of one question
    mode: str | None = None  # augment: "ppdb" (lexical suggestions) or "context" (adversarial)
    paraphrases_only: bool = False  # augment: write the paraphrases alone, without the original data
    # how to run (not part of the results)
    resume: bool = False
    overwrite: bool = False
    quiet: bool = False  # no progress bar
    device: str | None = None
    examples: int = 5  # before/after examples in the summary

    def __post_init__(self) -> None:
        if self.preset is None and self.lang in DEFAULT_PRESET:
            self.preset = "rewrite" if self.use == "adversarial" else DEFAULT_PRESET[self.lang]
        if self.preset not in PRESETS:
            return  # check() says so
        preset = {**PRESETS[self.preset], **LANG_PRESETS.get((self.preset, self.lang), {})}
        # A threshold belongs to its scorer: a scorer or ranker given takes its own calibrated one.
        given = {"threshold": self.scorer is not None, "rank_threshold": self.rank is not None}
        for name, value in preset.items():
            if getattr(self, name) is None and not given.get(name):
                setattr(self, name, value)

    def check(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown --preset {self.preset!r}; choose {' or '.join(PRESETS)}")
        if (self.squad is None) == (self.pairs is None):
            raise ValueError("give exactly one input: --squad FILE or --pairs FILE")
        if self.lang not in DEFAULT_SOURCE:
            raise ValueError(f"unknown language {self.lang!r}; choose en or zh")
        if self.adversarial and self.pairs:
            raise ValueError("--adversarial needs QA data (--squad): its suggestions come from the context")
        if self.mode not in (None, "ppdb", "context"):
            raise ValueError(f"unknown --mode {self.mode!r}; choose ppdb or context")
        if self.nbest > self.num_beams:
            raise ValueError(f"--nbest ({self.nbest}) cannot exceed --num-beams ({self.num_beams})")
        for name in ("top_k", "steps", "num_beams", "batch_size", "chunk_size"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
        if self.nbest < 0:
            raise ValueError("--nbest must be at least 0")
        if self.nbest == 0 and not self.in_place:
            raise ValueError(
                "--nbest 0 (no paraphraser beams; the substitute preset's) needs --in-place candidates: "
                "give --nbest N to use the paraphraser's beams"
            )
        if self.n is not None and self.n < 1:
            raise ValueError("--n must be at least 1")
        if self.per_question < 1:
            raise ValueError("--per-question must be at least 1")

    @property
    def use(self) -> str:
        """Which calibrated threshold applies: testset, augment or adversarial."""
        if self.adversarial or self.mode == "context":
            return "adversarial"
        return "augment" if self.mode else "testset"

    def source_spec(self) -> str:
        if self.source:
            return self.source
        return "context" if self.use == "adversarial" else DEFAULT_SOURCE[self.lang]


# ---- components ------------------------------------------------------------------------------------


def load_generator(config: BuildConfig, device=None) -> tuple[QuestionParaphraser, dict]:
    """The paraphraser, suggestion source, filters and threshold of a run, and their description."""
    from paraguide.model.paraphraser import Paraphraser, default_model_path
    from paraguide.score import FluencyScorer, bundled_fluency_path, default_threshold, load_scorer
    from paraguide.score.filters import (
        AnswerNotLeaked,
        ContainsSuggestion,
        DiffersFromSource,
        FilterChain,
        FluencyFilter,
        KeepsNames,
        KnownWords,
        LengthRatio,
        SimilarityFilter,
        StillAQuestion,
        Substitutes,
    )
    from paraguide.suggest import load_source

    model = config.model or default_model_path(config.lang)
    paraphraser = None  # not loaded where no beam is a candidate (--nbest 0)
    if config.nbest:
        paraphraser = Paraphraser.from_pretrained(model, device=device or config.device, dtype=config.dtype)
    spec = config.source_spec()
    source = None
    if spec != "none":
        source = load_source(spec, lang=config.lang, ner=config.ner)  # each source takes what it uses
    scorer = load_scorer(config.scorer, lang=config.lang)
    threshold = config.threshold
    if threshold is None:
        threshold = default_threshold(config.scorer, config.use, config.lang)
    filters = [DiffersFromSource(), ContainsSuggestion(), LengthRatio(), StillAQuestion(), KeepsNames()]
    if config.substitution:
        filters.append(Substitutes())
    vocabulary = _vocabulary(config.lang, source)
    if vocabulary is not None:
        filters.append(KnownWords(vocabulary.knows))
    if config.squad:
        filters.append(AnswerNotLeaked())
    fluency, fluency_threshold = "off", None
    if config.fluency != "off":
        fluency = bundled_fluency_path(config.lang) if config.fluency == "bundled" else config.fluency
        fluency_threshold = config.fluency_threshold
        if fluency_threshold is None:
            fluency_threshold = default_threshold("fluency", config.use, config.lang)
        filters.append(FluencyFilter(FluencyScorer(fluency, lang=config.lang), fluency_threshold))
    filters.append(SimilarityFilter(scorer, threshold))
    ranker, rank_threshold = None, None
    if config.rank != "off":
        ranker = scorer if config.rank == config.scorer else load_scorer(config.rank, lang=config.lang)
        rank_threshold = config.rank_threshold
        if rank_threshold is None:
            rank_threshold = default_threshold(config.rank, config.use, config.lang)
    generator = QuestionParaphraser(
        paraphraser,
        source,
        FilterChain(filters),
        lang=config.lang,
        top_k=config.top_k,
        steps=config.steps,
        seed=config.seed,
        num_beams=config.num_beams,
        batch_size=config.batch_size,
        alternatives=config.per_question - 1 if config.mode else 0,
        nbest=config.nbest,
        in_place=config.in_place,
        ranker=ranker,
        rank_threshold=rank_threshold,
    )
    described = {
        "model": str(Path(model).resolve()) if paraphraser else "none (--nbest 0)",
        "source": spec,
        "scorer": config.scorer,
        "threshold": threshold,
        "use": config.use,
        "dtype": str(paraphraser.dtype).removeprefix("torch.") if paraphraser else None,
        "known_words": "wordnet" if vocabulary is not None else "off",
        "fluency": str(Path(fluency).resolve()) if fluency != "off" else "off",
        "fluency_threshold": fluency_threshold,
        "substitution": config.substitution,
        "in_place": config.in_place,
        "nbest": config.nbest,
        "rank": config.rank,
        "rank_threshold": rank_threshold,
    }
    return generator, described


def _vocabulary(lang: str, source):
    """English: WordNet (the source itself when it is WordNet), for the known-words filter; None where there
    is none (Chinese, or no WordNet data: the filter is then left out, and the summary says so)."""
    from paraguide.suggest import Agreement, WordNet

    if lang != "en":
        return None
    if isinstance(source, Agreement):
        source = source.first
    if isinstance(source, WordNet):
        return source
    try:
        return WordNet()
    except FileNotFoundError:
        return None


def _run_config(config: BuildConfig, job: str, described: dict) -> dict:
    """What --resume compares: the input, the components and every option that changes the output."""
    skip = {"out", "resume", "overwrite", "quiet", "device", "examples", "squad", "pairs", "model"}
    options = {k: v for k, v in asdict(config).items() if k not in skip}
    inputs = file_fingerprint(config.squad or config.pairs)
    size = None  # no model is loaded with --nbest 0
    if config.nbest:
        size = (Path(described["model"]) / "model.safetensors").stat().st_size
    return {"job": job, "input": inputs, **options, **described, "model_size": size}


# ---- running chunks ----------------------------------------------------------------------------------


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class _Progress:
    """questions/s and acceptance so far, on the main process. Also when stderr is no terminal (a job under
    nohup or a scheduler writes its log to a file): then a line every 30 s rather than a live bar."""

    def __init__(self, total: int | None, desc: str, enabled: bool):
        live = sys.stderr.isatty()
        self.bar = tqdm(
            total=total,
            desc=desc,
            unit="q",
            disable=not enabled,
            smoothing=0.05,
            mininterval=0.1 if live else 30,
        )
        self.seen = self.selected = 0

    def update(self, outcomes: list[dict], scale: int = 1) -> None:
        self.seen += len(outcomes)
        self.selected += sum(o["status"] == "selected" for o in outcomes)
        self.bar.update(len(outcomes) * scale)
        self.bar.set_postfix(accepted=f"{self.selected / max(1, self.seen):.1%}", refresh=False)

    def close(self) -> None:
        self.bar.close()


def _state():
    """The process group: one process, or those started by ``accelerate launch`` / ``torchrun``. Without a GPU
    it must be told it is on CPU, or processes started by torchrun each think they are alone."""
    import torch
    from accelerate import PartialState

    return PartialState(cpu=not torch.cuda.is_available())


def _start(config: BuildConfig, job: str):
    """The process group, the components and the run's work folder with the chunks already done (called
    once the input has been checked)."""
    state = _state()
    generator, described = load_generator(config, device=state.device)
    run_config = _run_config(config, job, described)
    if state.is_main_process:  # checks OUTDIR and the configuration once, before anyone writes
        prepare_run(config.out, run_config, config.resume, config.overwrite)
    state.wait_for_everyone()
    work = Path(config.out) / WORK
    done = read_done(work)  # read by every process before any writes (chunk ownership is by number)
    state.wait_for_everyone()
    return state, generator, described, work, done


def _items(config: BuildConfig, report: InputReport) -> Iterator[Item]:
    if config.squad:
        for _, item in squad_items(config.squad, report):
            yield item
    else:
        for _, items in pair_items(config.pairs, config.side, config.pairs_format):
            report.questions += len(items)
            yield from items


# ---- the test set ------------------------------------------------------------------------------------


def build_testset(config: BuildConfig) -> dict:
    """Paraphrase every question once (or drop it, saying why) and write the test set; returns the
    summary (also written as OUTDIR/summary.json)."""
    started = time.perf_counter()
    config.check()
    total = count_questions(config.squad, config.pairs, config.side, config.pairs_format)
    state, generator, described, work, done = _start(config, "testset")
    rank, world = state.process_index, state.num_processes
    report = InputReport()
    bar = _Progress(total, "build-testset", not config.quiet and state.is_main_process)
    processed = 0
    with ShardWriter(work, rank) as writer:
        for index, chunk in enumerate(_chunks(_items(config, report), config.chunk_size)):
            if index % world != rank:
                continue
            if index in done:
                bar.bar.update(len(chunk) * world)
                continue
            outcomes = generator(chunk)
            writer.write_chunk(index, outcomes)
            processed += len(chunk)
            bar.update(outcomes, world)
    bar.close()
    state.wait_for_everyone()
    if not state.is_main_process:
        return {}
    outcomes = _collect(read_done(work))
    summary = _write_testset(config, outcomes, described, generator, report)
    _write_timing(config, processed, time.perf_counter() - started, world)
    return summary


def _collect(done: dict[int, list[dict]]) -> dict[str, dict]:
    outcomes: dict[str, dict] = {}
    for chunk in sorted(done):
        for outcome in done[chunk]:
            if outcome["key"] in outcomes:
                raise RuntimeError(f"question {outcome['key']} was written twice (shards of another run?)")
            outcomes[outcome["key"]] = outcome
    return outcomes


def _write_testset(
    config: BuildConfig, outcomes: dict[str, dict], described: dict, generator, report
) -> dict:
    out = Path(config.out)
    accounting, provenance, id_map = [], [], {}
    if config.squad:
        reader = SquadReader(config.squad)
        taken = set(outcomes)  # every input id (all were processed), so new ids never collide
        with (
            SquadWriter(out / "paraphrased.json") as para,
            SquadWriter(out / "original.json") as orig,
        ):
            for record in reader:
                key = str(record["id"])
                outcome = _outcome(outcomes, key, config.squad)
                accounting.append(_account(key, outcome))
                if outcome["status"] != "selected":
                    continue
                new_id = unique_id(key, "para", taken)
                id_map[new_id] = record["id"]
                para.write({**record, "id": new_id, "question": outcome["paraphrase"]})
                orig.write(record)
                provenance.append(_provenance(new_id, record["id"], record["question"], outcome))
            para.header = orig.header = dict(reader.header)
        files = ["paraphrased.json", "original.json"]
    else:
        files = _write_pair_testset(config, outcomes, accounting, provenance, id_map)
    return _finish(config, outcomes, accounting, provenance, id_map, files, described, generator, report)


def _write_pair_testset(config, outcomes, accounting, provenance, id_map) -> list[str]:
    out = Path(config.out)
    fmt = _pair_format(config)
    para_pairs, orig_pairs = [], []
    for n, (pair, items) in enumerate(pair_items(config.pairs, config.side, config.pairs_format)):
        results = [_outcome(outcomes, it.key, config.pairs) for it in items]
        for it, outcome in zip(items, results, strict=True):
            accounting.append(_account(it.key, outcome))
        if not all(o["status"] == "selected" for o in results):
            continue
        texts = {it.key[-1]: o["paraphrase"] for it, o in zip(items, results, strict=True)}
        para_pairs.append(Pair(texts.get("a", pair.a), texts.get("b", pair.b), pair.label))
        orig_pairs.append(pair)
        id_map[str(len(para_pairs))] = n + 1  # line in the written files -> pair number in the input
        for it, outcome in zip(items, results, strict=True):
            original = pair.a if it.key.endswith(":a") else pair.b
            provenance.append(_provenance(f"{len(para_pairs)}:{it.key[-1]}", it.key, original, outcome))
    write_pairs(out / f"paraphrased.{fmt}", para_pairs, fmt)
    write_pairs(out / f"original.{fmt}", orig_pairs, fmt)
    return [f"paraphrased.{fmt}", f"original.{fmt}"]


def _pair_format(config: BuildConfig) -> str:
    """Pairs are written as JSONL when they came as JSONL, else as TSV."""
    return "jsonl" if detect_format(config.pairs) == "jsonl" else "tsv"


def _outcome(outcomes: dict, key: str, path: str) -> dict:
    if key not in outcomes:
        raise RuntimeError(f"question {key} of {path} has no result: the run is incomplete (--resume it)")
    return outcomes[key]


def _account(key: str, outcome: dict) -> dict:
    if outcome["status"] == "selected":
        return {"id": key, "status": "selected", "step": outcome["step"]}
    return {"id": key, "status": "dropped", "stage": outcome["stage"], "reason": outcome["reason"]}


def _provenance(new_id, original_id, original: str, outcome: dict) -> dict:
    keep = ("suggestion", "matched", "suggestion_source", "relation", "scores", "step")
    record = {"id": new_id, "original_id": original_id, "original": original}
    record["paraphrase"] = outcome["paraphrase"]
    record.update({k: outcome[k] for k in keep})
    record["origin"] = outcome.get("origin", "paraphraser")  # or "in_place" (BuildConfig.in_place)
    record["steps"] = [{k: s[k] for k in ("suggestion", "paraphrase", "scores")} for s in outcome["steps"]]
    return record


def _finish(config, outcomes, accounting, provenance, id_map, files, described, generator, report) -> dict:
    out = Path(config.out)
    with atomic_write(out / "accounting.jsonl") as f:
        for row in accounting:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    with atomic_write(out / "provenance.jsonl") as f:
        for row in provenance:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    write_json(out / "id_map.json", id_map)
    summary = _summary(config, accounting, outcomes, len(provenance), described, generator)
    summary["input_check"] = report.as_dict()
    summary["files"] = [*files, "id_map.json", "provenance.jsonl", "accounting.jsonl", "summary.json"]
    summary["examples"] = _examples(provenance, config.examples, config.seed)
    write_json(out / "summary.json", summary)
    return summary


def _summary(config, accounting, outcomes, written, described, generator) -> dict:
    stages = stage_names(generator.filters)
    fell_out = Counter(row["stage"] for row in accounting if row["status"] == "dropped")
    selected = sum(row["status"] == "selected" for row in accounting)
    total = len(accounting)
    # Augmentation adds two stages: "not_processed" (n reached before the question's turn) and
    # "sampling" (accepted, but beyond the n sampled).
    order = [s for s in ("not_processed",) if fell_out.get(s)] + list(stages[:-1])
    order += [s for s in ("sampling",) if fell_out.get(s)]
    # A funnel: how many questions reached each stage (a question that fell out at stage S reached S).
    reached, remaining = {}, total - fell_out.get("not_processed", 0)
    for stage in stages[:-1]:
        reached[stage] = remaining
        remaining -= fell_out.get(stage, 0)
    reached["selected"] = selected
    drops = Counter()
    for o in outcomes.values():
        drops.update(o.get("candidate_drops", {}))
    steps = Counter(row["step"] for row in accounting if row["status"] == "selected")
    origins = Counter(o.get("origin", "paraphraser") for o in outcomes.values() if o["status"] == "selected")
    return {
        "job": "augment" if config.mode else ("adversarial testset" if config.adversarial else "testset"),
        "input": config.squad or config.pairs,
        "input_questions": total,
        "selected": selected,
        "acceptance": round(selected / max(1, total), 4),
        "written": written,
        "fell_out": {stage: fell_out.get(stage, 0) for stage in order},
        "reached": reached,
        "candidates": {
            "generated": sum(o.get("candidates", 0) for o in outcomes.values() if o["status"] == "dropped")
            + sum(
                sum(s["candidates"] for s in o["steps"])
                for o in outcomes.values()
                if o["status"] == "selected"
            ),
            "dropped_by": {s: drops.get(s, 0) for s in stages[1:-1]},
        },
        "selected_at_step": {str(k): v for k, v in sorted(steps.items())},
        "selected_by_origin": dict(sorted(origins.items())),
        "components": described,
        "seed": config.seed,
    }


def _examples(provenance: list[dict], k: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    picked = rng.sample(provenance, min(k, len(provenance)))
    return [
        {"original": p["original"], "paraphrase": p["paraphrase"], "suggestion": p["suggestion"]}
        for p in picked
    ]


def _write_timing(config: BuildConfig, processed: int, seconds: float, world: int) -> None:
    """Speed of this invocation (kept out of summary.json, whose content must not depend on timing)."""
    write_json(
        Path(config.out) / "timing.json",
        {
            "processes": world,
            "questions_processed_by_main_process": processed,
            "seconds": round(seconds, 1),
            "questions_per_minute": round(60 * processed * world / max(seconds, 1e-9), 1),
        },
    )


# ---- augmentation ------------------------------------------------------------------------------------


def augment(config: BuildConfig) -> dict:
    """Paraphrase training questions in a seeded random order until ``n`` are accepted, then write them
    with the original training data (or alone). Returns the summary (also OUTDIR/summary.json)."""
    from accelerate.utils import gather_object

    started = time.perf_counter()
    config.mode = config.mode or "ppdb"
    config.check()
    report = InputReport()
    # Read (and checked) once, before any work: the order is a permutation, so the questions are held
    # (their contexts shared, not copied).
    items = list(_items(config, report))
    state, generator, described, work, done = _start(config, "augment")
    rank, world = state.process_index, state.num_processes
    order = list(range(len(items)))
    random.Random(config.seed).shuffle(order)
    chunks = [order[i : i + config.chunk_size] for i in range(0, len(order), config.chunk_size)]
    target = config.n or math.inf
    accepted = {c: paraphrase_count(done[c], config.per_question) for c in done}

    def enough() -> bool:
        total = 0
        for c in range(len(chunks)):
            if c not in accepted:
                return False
            total += accepted[c]
            if total >= target:
                return True
        return True

    pending = [c for c in range(len(chunks)) if c not in done]
    bar = _Progress(len(items), "augment", not config.quiet and state.is_main_process)
    bar.bar.update(sum(len(chunks[c]) for c in done))
    processed = 0
    with ShardWriter(work, rank) as writer:
        for start in range(0, len(pending), world):
            if enough():
                break
            group = pending[start : start + world]
            mine = []
            if rank < len(group):
                c = group[rank]
                outcomes = generator([items[i] for i in chunks[c]])
                writer.write_chunk(c, outcomes)
                processed += len(outcomes)
                bar.update(outcomes, len(group))
                mine = [(c, paraphrase_count(outcomes, config.per_question))]
            for c, k in gather_object(mine):
                accepted[c] = k
    bar.close()
    state.wait_for_everyone()
    if not state.is_main_process:
        return {}
    summary = _write_augmented(config, items, chunks, read_done(work), described, generator, report)
    _write_timing(config, processed, time.perf_counter() - started, world)
    return summary


def paraphrase_count(outcomes: list[dict], per_question: int) -> int:
    """How many paraphrases these outcomes give towards ``--n``: up to ``per_question`` per selected question
    (the accepted one and its alternatives), as :func:`_write_augmented` takes them."""
    return sum(
        min(per_question, 1 + len(o.get("alternatives", ()))) for o in outcomes if o["status"] == "selected"
    )


def _write_augmented(config, items, chunks, done, described, generator, report) -> dict:
    out = Path(config.out)
    target = config.n or math.inf
    chosen: dict[str, list[dict]] = {}  # original key -> its paraphrases: the first `n` in the seeded order
    accounting_by_key: dict[str, dict] = {}
    outcomes: dict[str, dict] = {}
    # Chunks in the seeded order up to the one where the n-th paraphrase was accepted; chunks done beyond
    # it (other processes were busy with them when n was reached) count as not processed, so the files do
    # not depend on the number of processes.
    taken_so_far = 0
    for c in range(len(chunks)):
        if c not in done or taken_so_far >= target:
            break
        for outcome in done[c]:
            outcomes[outcome["key"]] = outcome
            row = _account(outcome["key"], outcome)
            if outcome["status"] == "selected":
                if taken_so_far < target:
                    others = [
                        {**a, "steps": [*outcome["steps"][:-1], a]} for a in outcome.get("alternatives", [])
                    ]
                    mine = [outcome, *others][: config.per_question]
                    chosen[outcome["key"]] = mine[: int(min(len(mine), target - taken_so_far))]
                    taken_so_far += len(chosen[outcome["key"]])
                    row["paraphrases"] = len(chosen[outcome["key"]])
                else:
                    row = {
                        "id": outcome["key"],
                        "status": "dropped",
                        "stage": "sampling",
                        "reason": "accepted beyond --n",
                    }
            accounting_by_key[outcome["key"]] = row
    for item in items:
        accounting_by_key.setdefault(
            item.key,
            {
                "id": item.key,
                "status": "dropped",
                "stage": "not_processed",
                "reason": "--n reached before its turn",
            },
        )
    accounting = [accounting_by_key[item.key] for item in items]
    provenance, id_map = [], {}
    taken = {item.key for item in items}
    if config.squad:
        reader = SquadReader(config.squad)
        with SquadWriter(out / "train.json") as writer:
            for record in reader:
                key = str(record["id"])
                if not config.paraphrases_only:
                    writer.write(record)
                for outcome in chosen.get(key, ()):
                    new_id = unique_id(key, "para", taken)
                    id_map[new_id] = record["id"]
                    writer.write({**record, "id": new_id, "question": outcome["paraphrase"]})
                    provenance.append(_provenance(new_id, record["id"], record["question"], outcome))
            writer.header = dict(reader.header)
        files = ["train.json"]
    else:
        fmt = _pair_format(config)
        rows = []
        for n, (pair, its) in enumerate(pair_items(config.pairs, config.side, config.pairs_format)):
            if not config.paraphrases_only:
                rows.append(pair)
            for it in its:  # each accepted paraphrase of a side makes one new pair, the label kept
                for outcome in chosen.get(it.key, ()):
                    text = outcome["paraphrase"]
                    a, b = (text, pair.b) if it.key.endswith(":a") else (pair.a, text)
                    rows.append(Pair(a, b, pair.label))
                    id_map[str(len(rows))] = n + 1
                    original = pair.a if it.key.endswith(":a") else pair.b
                    provenance.append(_provenance(str(len(rows)), it.key, original, outcome))
        write_pairs(out / f"train.{fmt}", rows, fmt)
        files = [f"train.{fmt}"]
    return _finish(config, outcomes, accounting, provenance, id_map, files, described, generator, report)


def format_summary(summary: dict, out: str) -> str:
    """What the CLI prints at the end: counts per stage, where the files are, a few before/after examples."""
    total = summary["input_questions"]
    lines = [
        f"{summary['job']}: {summary['selected']} of {total} questions selected "
        f"({summary['acceptance']:.1%}); {summary['written']} written",
        "questions that fell out, by stage:",
    ]
    for stage, count in summary["fell_out"].items():
        if count:
            lines.append(f"  {stage:<22} {count:>8}")
    lines.append(f"  {'selected':<22} {summary['selected']:>8}")
    located = summary["input_check"]["answer_offsets_located"]
    if located:
        lines.append(
            f"answer offsets located in the context (wrong or -1; files keep them as given): {located}"
        )
    if summary["input_check"].get("empty_answers"):
        lines.append(f"empty answer texts (kept, not used): {summary['input_check']['empty_answers']}")
    lines.append(f"files in {out}: {', '.join(summary['files'])}")
    if summary["examples"]:
        lines.append("examples (original -> paraphrase [suggestion]):")
        for e in summary["examples"]:
            lines.append(f"  {e['original']}\n    -> {e['paraphrase']}  [{e['suggestion']}]")
    return "\n".join(lines)
