"""Assembly: the suggestion source, paraphraser, scorers and filter chain a :class:`GeneratorConfig` names,
loaded and composed into a :class:`QuestionParaphraser` (whose presets call :func:`load_generator`)."""

from __future__ import annotations

from pathlib import Path

from paraguide.pipeline.config import GeneratorConfig
from paraguide.pipeline.generate import QuestionParaphraser
from paraguide.score.acceptance import FILE as ACCEPTANCE_FILE


def _calibrated(config: GeneratorConfig, given: float | None, scorer: str, check: str, option: str) -> float:
    """The threshold of a check on swaps (``check``, e.g. "--swap-check gemma-en"): the one ``given``
    (``option``), else the calibrated one of ``scorer`` for the use, else an error naming what to give."""
    from paraguide.score import default_threshold

    if given is not None:
        return given
    try:
        return default_threshold(scorer, config.use, config.lang)
    except ValueError:
        script = "calibrate_swap_check.py" if scorer == "paraphraser" else f"calibrate_{scorer}.py"
        raise ValueError(
            f"{check}: no calibrated threshold in {config.lang!r}; give {option} "
            f"(data_prep/{script} --lang {config.lang} --no-write reports one)"
        ) from None


def _paraphraser_threshold(config: GeneratorConfig, option: str, model: str) -> float:
    """The threshold of a check by the pretrained paraphraser's score (``--swap-check``, ``--guide-check``)."""
    return _calibrated(config, config.swap_threshold, "paraphraser", f"{option} {model}", "--swap-threshold")


def load_generator(config: GeneratorConfig, device=None) -> QuestionParaphraser:
    """The paraphraser, suggestion source, filters and thresholds ``config`` (already checked) names,
    composed; their description (what a run's summary records) is the generator's ``components``, and the
    files they read (whose content hashes a run records for --resume) its ``files``: ``{role: path}``."""
    from paraguide.model.causal import is_causal_folder
    from paraguide.model.paraphraser import Paraphraser, bundled_or_path, default_model_path
    from paraguide.score import FluencyScorer, bundled_fluency_path, default_threshold, load_scorer
    from paraguide.score import filters as F
    from paraguide.score.fluency import lm_path
    from paraguide.suggest import load_source

    model = bundled_or_path(config.model) if config.model else default_model_path(config.lang)
    paraphraser = None  # not loaded where no beam is a candidate (--nbest 0)
    # Before loading anything: the round trip needs the pretrained paraphraser's likelihood.
    if config.select == "round-trip" and not is_causal_folder(model):
        raise ValueError(
            f"--select round-trip needs the pretrained paraphraser (--model gemma-en, gemma-zh or an adapter "
            f"folder), not {model}; --select depth chooses without it"
        )
    if config.accept_above and not (is_causal_folder(model) and (Path(model) / ACCEPTANCE_FILE).is_file()):
        raise ValueError(
            f"--accept-above needs an acceptance model beside the pretrained paraphraser ({model} has no "
            f"{ACCEPTANCE_FILE}; gemma-en and gemma-en-dpo have one); --accept-above 0 turns it off"
        )
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
    filters = F.cheap_filters()
    if config.substitution:
        filters.append(F.Substitutes())
    if config.keep_content:  # what a rewrite can break that a swap cannot (docs/build.md)
        filters += [F.WellFormed(), F.KeepsQuestionType(), F.KeepsContent(), F.KeepsScope()]
    vocabulary = _vocabulary(config.lang, source)
    if vocabulary is not None:
        filters.append(F.KnownWords(vocabulary.knows))
    if config.qa:
        filters.append(F.AnswerNotLeaked())
    fluency, fluency_threshold = "off", None
    if config.fluency != "off":
        fluency = bundled_fluency_path(config.lang) if config.fluency == "bundled" else config.fluency
        fluency_scorer = FluencyScorer(fluency, lang=config.lang, dtype=config.dtype)
        fluency_threshold = config.fluency_threshold
        if (
            fluency_threshold is None and config.fluency != "bundled"
        ):  # an LM folder calibrated on its own scale
            fluency_threshold = fluency_scorer.threshold(config.use)
        if fluency_threshold is None:
            fluency_threshold = default_threshold("fluency", config.use, config.lang)
        filters.append(F.FluencyFilter(fluency_scorer, fluency_threshold))
    filters.append(F.SimilarityFilter(scorer, threshold))
    swap_threshold = None
    if config.swap_check != "off":  # last: the paraphraser scores only the swaps every other filter kept
        swap_threshold = _paraphraser_threshold(config, "--swap-check", config.swap_check)
        swap_scorer = _swap_scorer(config, model, paraphraser)
        filters.append(F.SwapLikelihood(swap_scorer, swap_threshold))
    gemma_lm = _GemmaLM(config)  # one copy of the pretrained LM for the swap fluency and the acceptance
    swap_fluency, swap_fluency_threshold = None, None
    if config.swap_fluency != "off":  # the threshold first: no LM loaded for an error
        swap_fluency_threshold = _calibrated(config, config.swap_fluency_threshold, "swap_fluency",
                                             f"--swap-fluency {config.swap_fluency}", "--swap-fluency-threshold")  # fmt: skip
        swap_fluency = gemma_lm.scorer(lm_path(config.swap_fluency), "total")
        filters.append(F.SwapFluency(swap_fluency, swap_fluency_threshold))
    acceptance = None
    if config.accept_above:  # last: the learnt acceptance scores only the rewrites every other filter kept
        acceptance = _acceptance(config, model, paraphraser, gemma_lm)
        filters.append(acceptance)
    guide_check = None
    if config.guide_check != "off":  # the same score, before generation: which suggestions guide a rewrite
        guide_threshold = _paraphraser_threshold(config, "--guide-check", config.guide_check)
        same_check = swap_threshold is not None and config.guide_check == config.swap_check
        guide_scorer = (
            swap_scorer if same_check else load_scorer(f"paraphraser:{config.guide_check}", lang=config.lang)
        )
        guide_check = (guide_scorer, guide_threshold)
    ranker, rank_threshold = None, None
    if config.rank != "off":
        ranker = scorer if config.rank == config.scorer else load_scorer(config.rank, lang=config.lang)
        rank_threshold = config.rank_threshold
        if rank_threshold is None:
            rank_threshold = default_threshold(config.rank, config.use, config.lang)
    same = ("lang", "top_k", "steps", "seed", "num_beams", "batch_size", "alternatives", "nbest", "in_place",
            "free", "guided", "reorder", "indirect", "select")  # fmt: skip
    generator = QuestionParaphraser(
        paraphraser,
        source,
        F.FilterChain(filters),
        ranker=ranker,
        rank_threshold=rank_threshold,
        guide_check=guide_check,
        **{name: getattr(config, name) for name in same},
    )
    reorder = _reorder_state(config)
    generator.components = {
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
        "keep_content": config.keep_content,
        "free": config.free,
        "guided": config.guided,
        "select": config.select,
        "reorder": reorder,
        "indirect": reorder is True and bool(config.indirect),
        "in_place": config.in_place,
        "nbest": config.nbest,
        "rank": config.rank,
        "rank_threshold": rank_threshold,
        "swap_check": str(swap_scorer.files[0].resolve()) if swap_threshold is not None else "off",
        "swap_threshold": swap_threshold,
        "swap_fluency": str(swap_fluency.files[0].resolve()) if swap_fluency is not None else "off",
        "swap_fluency_threshold": swap_fluency_threshold,
        "guide_check": str(guide_check[0].files[0].resolve()) if guide_check else "off",
        "guide_threshold": guide_check[1] if guide_check else None,
        "accept_above": config.accept_above,
    }
    parts = {
        "model": [model] if paraphraser else [],
        "source": getattr(source, "files", ()),
        "scorer": scorer.files,
        "ranker": ranker.files if ranker is not None and ranker is not scorer else (),
        "known words": vocabulary.files if vocabulary is not None and vocabulary is not source else (),
        "fluency LM": [fluency] if fluency != "off" else [],
        "swap check": swap_scorer.files if swap_threshold is not None else (),
        "swap fluency LM": swap_fluency.files if swap_fluency is not None else (),
        "acceptance model": [Path(model) / ACCEPTANCE_FILE] if acceptance is not None else [],
        "acceptance fluency LM": acceptance.fluency.files if acceptance is not None else [],
        "guide check": guide_check[0].files
        if guide_check and not (swap_threshold is not None and guide_check[0] is swap_scorer)
        else (),
    }
    generator.files = {
        role if len(paths) == 1 else f"{role} {n}": paths_n
        for role, paths in parts.items()
        for n, paths_n in enumerate(paths, start=1)
    }
    return generator


def _swap_scorer(config: GeneratorConfig, model: str, paraphraser):
    """``--swap-check``'s scorer; where it names the adapter the pipeline already loaded (the English
    presets: gemma-en both), that one, not a second copy in memory (the same weights, dtype and scores)."""
    from paraguide.model.paraphraser import bundled_or_path, resolve_dtype
    from paraguide.score import ParaphraserLikelihood, load_scorer

    same = (
        paraphraser is not None
        and Path(bundled_or_path(config.swap_check)).resolve() == Path(model).resolve()
        and paraphraser.dtype == resolve_dtype("auto", paraphraser.device)
    )
    if same:
        return ParaphraserLikelihood(config.swap_check, lang=config.lang, paraphraser=paraphraser)
    return load_scorer(f"paraphraser:{config.swap_check}", lang=config.lang)


class _GemmaLM:
    """The pretrained LMs the chain reads (``--swap-fluency``, the acceptance's fluency), each folder loaded
    once: 268 M parameters are not worth a second copy in memory, and the scores are the same."""

    def __init__(self, config: GeneratorConfig):
        self.config, self.loaded = config, {}

    def scorer(self, path, measure: str):
        from paraguide.score.fluency import FluencyScorer

        key = Path(path).resolve()
        scorer = FluencyScorer(path, lang=self.config.lang, measure=measure, dtype=self.config.dtype,
                               lm=self.loaded.get(key))  # fmt: skip
        self.loaded[key] = scorer.lm
        return scorer


def _acceptance(config: GeneratorConfig, model: str, paraphraser, gemma_lm: _GemmaLM):
    """``--accept-above``: the adapter's acceptance model (``acceptance.json`` beside it), read with the
    paraphraser's likelihood and the fluency of the pretrained LM it was fitted with (``lm-gemma-LANG``)."""
    from paraguide.score.acceptance import AcceptanceModel, LearntAcceptance
    from paraguide.score.fluency import BUNDLED

    learnt = AcceptanceModel.load(Path(model) / ACCEPTANCE_FILE)
    fluency = gemma_lm.scorer(BUNDLED / f"lm-gemma-{config.lang}", "logprob")
    return LearntAcceptance(learnt, paraphraser, fluency, config.accept_above, batch_size=config.batch_size)


def _reorder_state(config) -> str | bool:
    """What the summary says of --reorder: English reorderings read NLTK's tags, and without the tagger
    there are none (said, not hidden)."""
    from paraguide.text.pos import has_tagger

    if config.reorder and config.lang == "en" and not has_tagger("en"):
        return "off (NLTK's English tagger is not installed)"
    return config.reorder


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
