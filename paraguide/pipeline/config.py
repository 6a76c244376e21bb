"""The options of the main job, each documented once (``field(metadata={"help": ...})``, which the CLI reads):
:class:`GeneratorConfig` says what the paraphrase generator is (a named preset fills what is left unset),
:class:`BuildConfig` adds the input, the output folder and how the run goes."""

from __future__ import annotations

from dataclasses import dataclass

from paraguide.data.pairs import label_set as parse_label_set
from paraguide.options import option

# The synonyms of a lexicon that a second, differently built source also offers (suggest.Agreement), after
# question words swapped for equivalents (suggest.interrogative): English, WordNet's that PPDB's synonym
# pairs hold; Chinese, Cilin's that people swap in LCQMC and BQ paraphrase pairs (suggest.mined).
DEFAULT_SOURCE = {"en": "interrogative|wordnet&ppdb", "zh": "interrogative|cilin&mined"}

# Named presets (TextAttack's recipes): what a candidate may be and how it is judged (docs/build.md).
#   substitute: the suggestion replaces the phrase it matched and the rest of the question stays
#     (filters.Substitutes); the candidate is the question with the suggestion put in place (inflected),
#     and the paraphraser is not run (nbest 0): blind readers accepted far more of these than of its beams.
#     Suggestions are ranked by all-MiniLM-L6-v2's similarity of the question with the suggestion in place,
#     those below 0.96 dropped. Chinese (LANG_PRESETS): all-MiniLM-L6-v2 is English-only, so suggestions are
#     ranked by the bundled question LM and similarity is the bundled sim scorer at 0.5 (its calibrated
#     threshold drops nearly every Cilin synonym, right or wrong; two sources agreeing is the sense check).
#     The question reordered with its own words (text.reorder; an object question made passive, perturb.voice)
#     is a candidate too, taken first when it passes:
#     blind readers judged 86-89 % of those good, and the default's output 80 % against 75 % without them
#     (readings 2026-11-26f/g; Chinese 92 %). An English synonym swap must also pass the swap check
#     (--swap-check gemma-en, score.likelihood): the pretrained paraphraser's readiness to write it, against
#     copying the question, at its calibrated threshold; of the swaps that pass, its most ready one is
#     chosen (readings 2026-11-27ze/zf: synonym swaps 20 of 32 before, 16 of 20 after; the whole set 84 %
#     -> 93 %, selected 51.6 % -> 46.0 %); and the swap fluency check (--swap-fluency lm-gemma-en,
#     score.filters.SwapFluency): a swap that makes the question much less likely under the pretrained LM
#     ("refuse to" -> "reject to") is dropped (held-out judged swaps: 67.9 % -> 77.5 % good, 77 of 290
#     dropped; docs/score.md). Where nothing else passes but a question-word swap, English asks
#     the question as an indirect one (--indirect: "Can you tell me when X began?"; readings 2026-11-27zi/zj:
#     38 of 40, 32 of 35 and 46 of 47 good; selected 46.0 % -> 69.3 %), Chinese too (你知道X吗, 谁知道X, 有谁知道X吗,
#     我想知道X; reading 2026-11-27zn: 121 of 125 indirect questions accepted; LCQMC selected 57.5 % -> 73.3 %,
#     question-word-only 59.9 % -> 11.9 %). Chinese selects for depth (--select depth): a reordering that
#     changes function words only (什么是X -> X是什么) or a synonym is taken before a question-word swap
#     (什么 -> 啥), the narrowest perturbation (readers accept those nearly always).
#   adversarial (the --adversarial default, source near): substitute's in-place swap, the synonym one the
#     context says near a same-type distractor and not in the answer's sentence (suggest.NearDistractor; Gan &
#     Ng's figure 8: "being shown" -> "been televised", the words near the wrong year); no reorderings, no
#     indirect question (they keep the question's words: nothing adversarial in them).
#   rewrite: the paraphraser's best beam, free to rewrite; similarity by the bundled sim scorer. Context-chunk
#     suggestions (--source context) use it: a context chunk replaces no phrase. Readers accepted 5-12.5 %
#     of its adversarial questions (docs/build.md).
#   paraphrase: the pretrained paraphraser (gemma-zh; English: gemma-en-dpo since reading 2026-12-07p, before it
#     gemma-en) rewrites each question freely (English) and with each of its top suggestions (Chinese; all 4
#     beams, English: deeper rewrites are rarely the first beam; Chinese, the best 2: its lower beams read
#     worse, reading 2026-11-26c), beside the in-place swaps; a rewrite must keep the question's type, content
#     words (filters.KeepsContent) and scope words (filters.KeepsScope) and pass similarity; the question
#     reordered (text.reorder: a phrase moved, a question word fronted, "What is the name of X" -> "What is X
#     called") is a candidate too, and an accepted reordering that changes more than function words is chosen
#     first (--reorder; readers accepted about 90 % of those against 47 % of the paraphraser's rewrites:
#     readings 2026-11-26e/f), else, English, by round trip (--select round-trip: the paraphraser ranks its
#     beams by how readily it writes each and writes the question back from it, and of the accepted candidates
#     that change at least 0.14 of the question's tokens the best round trip is chosen; reading 2026-11-28a:
#     68 % fluent and the same question against 65 % for the deepest of 4 beams, median edit 0.19 against 0.17),
#     Chinese, the one that changes the question most (--select depth; a question-word-only or
#     function-word-only change only when nothing else passed). English drops a paraphraser rewrite whose learnt
#     probability of being judged fluent and the same question is below 0.75 (--accept-above, score.acceptance)
#     and checks its swaps as substitute does (--swap-check gemma-en); readings 2026-12-06b-f, two samples:
#     50-53 % -> 74-81 % fluent and the same question, selected 74-76 % -> 49-54 %; with the indirect question
#     its checks now let through as the fallback (reading 2026-12-06h): 81-85 %, selected 70-77 %,
#     question-word-only 15-17 % -> 7 %. On 3,000 questions with stricter readers (readings 2026-12-06i, i2):
#     72.7 % at 0.7, about 77.5 % at 0.75 (the rewrites scored 0.70-0.75 read 44 % good, what the questions take
#     instead 80 %), selected 73.5 % -> 70.9 %. Since 2026-12-06 (reading l) English asks the paraphraser for
#     the free rewrite alone, 4 beams (--no-guided --num-beams 4): the suggestions give their in-place swaps
#     only -- a guided rewrite was chosen for 2 % of the questions and read 50 % good --, twice as fast (3,000
#     questions: 3,070 s -> 1,613 s; 1,028 s with the round trip written for the beams that pass alone and no
#     beams where a reordering settles the question); 156 of 3,000 choices change, 71 % good against 60 %. Blind
#     readings of its rewrites and each filter's precision: docs/build.md.
ACCEPT_ABOVE = 0.75  # English paraphrase: the learnt acceptance's threshold (score.acceptance; docs/build.md)
PRESETS: dict[str, dict] = {
    "substitute": {
        "scorer": "embedding",
        "substitution": True,
        "in_place": True,
        "nbest": 0,
        "rank": "embedding",
        "rank_threshold": 0.96,
        "free": False,
        "guided": True,
        "keep_content": False,
        "reorder": True,
        "indirect": True,
        "select": "first",
        "num_beams": 4,
        "swap_check": "gemma-{lang}",
        "swap_fluency": "lm-gemma-{lang}",
        "guide_check": "off",
        "accept_above": 0.0,
    },
    "rewrite": {
        "scorer": "sim",
        "substitution": False,
        "in_place": False,
        "nbest": 1,
        "rank": "off",
        "rank_threshold": None,
        "free": False,
        "guided": True,
        "keep_content": False,
        "reorder": False,
        "indirect": False,
        "select": "first",
        "num_beams": 4,
        "swap_check": "off",
        "swap_fluency": "off",
        "guide_check": "off",
        "accept_above": 0.0,
    },
    "paraphrase": {
        "model": "gemma-{lang}",
        "scorer": "embedding",
        "substitution": False,
        "in_place": True,
        "nbest": 4,
        "rank": "embedding",
        "rank_threshold": 0.96,
        "free": True,
        "guided": False,  # English: the free rewrite alone (reading 2026-12-06l); Chinese: guided too
        "keep_content": True,
        "reorder": True,
        "indirect": True,
        "select": "round-trip",
        "num_beams": 4,  # 8 until reading 2026-12-06l: half the time, as good
        "swap_check": "gemma-{lang}",  # English: in-place swaps 72 % -> 88 % good (reading 2026-12-06c)
        "swap_fluency": "lm-gemma-{lang}",
        "guide_check": "off",
        "accept_above": ACCEPT_ABOVE,
    },
}
PRESETS["adversarial"] = {**PRESETS["substitute"], "reorder": False, "indirect": False}
LANG_PRESETS = {
    # English rewrites by the adapter tuned on readers' judgements (DPO), read by its own acceptance model
    # (fitted on readings 2026-12-07d-o); the swap check stays gemma-en's, calibrated. Reading 2026-12-07p
    # (200 new SQuAD dev questions, both on one sheet, two readers a part): 137 selected against 125, 79.6 %
    # fluent and the same question against 79.2 %, question-word-only 7.3 % against 12.8 %.
    ("paraphrase", "en"): {"model": "gemma-en-dpo"},
    ("substitute", "zh"): {
        "scorer": "sim",
        "threshold": 0.5,
        "rank": "fluency",
        "rank_threshold": None,
        "select": "depth",
        "swap_check": "off",
        "swap_fluency": "off",
    },
    ("paraphrase", "zh"): {
        "scorer": "sim",
        "rank": "fluency",
        "rank_threshold": None,
        "nbest": 2,
        "guided": True,  # its guided rewrites were not read apart; 0.2 s a question already
        "select": "depth",  # the round trip reads safer and shallower in Chinese (reading 2026-11-28b)
        "num_beams": 4,
        "swap_check": "off",
        "swap_fluency": "off",
        "accept_above": 0.0,  # no acceptance model for gemma-zh: no Chinese reading to fit one on yet
    },
}
LANG_PRESETS["adversarial", "zh"] = {**LANG_PRESETS["substitute", "zh"], "select": "first"}
SELECTIONS = ("first", "depth", "round-trip")
DEFAULT_PRESET = {"en": "substitute", "zh": "substitute"}
USES = ("testset", "augment", "adversarial")


@dataclass
class GeneratorConfig:
    """What a :class:`~paraguide.pipeline.generate.QuestionParaphraser` is made of. ``use`` picks the
    calibrated thresholds (testset, augment or adversarial) and the default source and preset; options left
    at None come from the preset."""

    lang: str = option("language: en or zh", "en")
    use: str = option(
        "testset, augment or adversarial: which calibrated thresholds apply", "testset", cli=False
    )
    qa: bool = option("the items carry answers (the answer-leak filter runs)", False, cli=False)
    source: str | None = option(
        "suggestion source (see below; default: interrogative|wordnet&ppdb for en, interrogative|cilin&mined "
        "for zh, near if adversarial)"
    )
    model: str | None = option(
        "paraphraser folder or bundled name (en, zh, gemma-en, gemma-zh; default: the preset's, else the "
        "bundled small model of --lang)"
    )
    preset: str | None = option(
        "substitute (the default): the suggestion replaces its phrase, in place or by the paraphraser, and the "
        "rest stays; adversarial (the --adversarial default): a synonym the context says near a same-type "
        "distractor put in place (--source near); rewrite (--source context's default): the paraphraser's "
        "free rewrite; paraphrase: the pretrained "
        "paraphraser's free rewrites (and, in Chinese, suggestion-guided ones) beside the in-place swaps and "
        "reorderings, the deepest change that passes chosen. The options below left unset come from it"
    )
    scorer: str | None = option(
        "similarity scorer: sim, embedding, wmd, lexical:MEASURE (default: the preset's)"
    )
    threshold: float | None = option(
        "similarity threshold (default: the scorer's calibrated one for the use)"
    )
    fluency: str = option(
        "fluency filter: off, bundled (the question LM of --lang) or an LM folder; off by default, since two "
        "blind readings found no gain from it yet (docs/build.md)",
        "off",
    )
    fluency_threshold: float | None = option(
        "fluency threshold: SLOR(paraphrase) - SLOR(question) below it is dropped (default: the LM's "
        "calibrated one for the use)"
    )
    swap_check: str | None = option(
        "drop a synonym swap the pretrained paraphraser would not write: off, or its adapter (gemma-en, "
        "gemma-zh, a folder); the paraphraser's log-probability of the swapped question given the question, "
        "minus that of copying it, below --swap-threshold is dropped, and of the swaps that pass the one it "
        "writes most readily is chosen (default: the preset's; English substitute and paraphrase: gemma-en)"
    )
    swap_threshold: float | None = option(
        "threshold of --swap-check and --guide-check (default: its calibrated one for the use, docs/build.md)"
    )
    swap_fluency: str | None = option(
        "drop a synonym swap that makes the question much less likely under the pretrained LM: off, or the "
        "LM's folder (lm-gemma-en, lm-gemma-zh, a folder); the swapped question's log-probability minus the "
        "question's below --swap-fluency-threshold is dropped -- a word that does not fit its phrase ('refuse "
        "to' -> 'reject to') or a rare word for a common one ('condition' -> 'stipulation'), which the swap "
        "check lets through (default: the preset's; English substitute and paraphrase: lm-gemma-en)"
    )
    swap_fluency_threshold: float | None = option(
        "threshold of --swap-fluency (default: its calibrated one for the use, docs/score.md)"
    )
    guide_check: str | None = option(
        "guide the paraphraser only by suggestions the pretrained paraphraser would put in place: off, or its "
        "adapter (gemma-en, a folder); a suggestion whose in-place question scores below --swap-threshold "
        "(--swap-check's score) guides no rewrite, nor one that only respells its phrase (colour for color), "
        "the others guide one in the order of that score; the in-place candidates are as without it "
        "(default: the preset's: off)"
    )
    substitution: bool | None = option(
        "drop a paraphrase that keeps the phrase its suggestion replaces, loses another content word of the "
        "question or adds one from nowhere (--no-substitution: don't)"
    )
    in_place: bool | None = option(
        "also offer the question with the suggestion put in place (inflected) as a candidate "
        "(--no-in-place: don't)"
    )
    nbest: int | None = option(
        "the paraphraser's best N beams of each suggestion are candidates; 0: the paraphraser is not run, the "
        "in-place candidates alone (default: the preset's)"
    )
    rank: str | None = option(
        "rank suggestions by this scorer's similarity with the suggestion in place (off, embedding, sim ...) "
        "and drop those below --rank-threshold (default: the preset's)"
    )
    rank_threshold: float | None = option(
        "threshold of --rank (default: the preset's, or that scorer's calibrated one when --rank is given)"
    )
    free: bool | None = option(
        "also ask the paraphraser for a free rewrite (no suggestion) of each question (default: the preset's)"
    )
    guided: bool | None = option(
        "ask the paraphraser to rewrite the question under each suggestion (--no-guided: a suggestion gives "
        "its in-place candidate alone, and the paraphraser writes only the free rewrite: fewer beams to decode; "
        "default: the preset's)"
    )
    keep_content: bool | None = option(
        "drop a rewrite that is not well formed (two questions; ends on an added preposition), asks another "
        "kind of question (when -> why), loses a content word of the question or adds one (a rephrasing "
        "frame's words aside: reason, way, location ...), or changes its scope words (number, quantity, "
        "negation, modality, person, tense) (default: the preset's)"
    )
    reorder: bool | None = option(
        "also offer the question with its phrases reordered as people do "
        "(a fronted phrase moved to the end, a question word left at the end fronted, a preposition "
        "stranded, 'What is the name of X' -> 'What is X called', a closing 'after ...' fronted, an object "
        "question made passive; 什么是X <-> X是什么), "
        "and choose an accepted reordering first; English needs NLTK's tagger (default: the preset's)"
    )
    indirect: bool | None = option(
        "with --reorder, also offer the question asked as an indirect one ('When did X begin?' -> "
        "'Can you tell me when X began?'; 这是什么意思 -> 你知道这是什么意思吗), chosen only where nothing else "
        "passes but a question-word swap (default: the preset's)"
    )
    select: str | None = option(
        "which accepted candidate: first (in-place, then the source's order, then seeded), depth (the one "
        "that changes the question most; question-word-only swaps last) or round-trip (the pretrained "
        "paraphraser ranks its beams by round trip, and of the accepted candidates that change enough of the "
        "question it takes the one it writes most readily and writes the question back from most readily) "
        "(default: the preset's; Chinese substitute: depth)"
    )
    accept_above: float | None = option(
        "drop a rewrite of the pretrained paraphraser whose learnt probability of being judged fluent and the "
        "same question is below this (score.acceptance: a logistic regression over the paraphraser's round "
        "trip, Gemma's fluency, the edit rate and the meaning checks, fitted on blind readings; the model is "
        "the adapter's acceptance.json); in-place swaps and reorderings are not scored; 0: off (default: the "
        f"preset's: English paraphrase {ACCEPT_ABOVE}, else off)"
    )
    top_k: int = option("suggestions tried per question and step", 3, minimum=1)
    steps: int = option("iterations: each paraphrases the previous step's output", 1, minimum=1)
    num_beams: int | None = option(
        "beam size (default: the preset's: 4; English paraphrase: ranked by round trip)", minimum=1
    )
    batch_size: int = option("paraphraser batch size", 32, minimum=1)
    seed: int = option("seed of every random choice", 0)
    dtype: str = option(
        "the paraphraser's and the pretrained LM's (Gemma fluency): auto (bfloat16 where native), float32, "
        "bfloat16, float16",
        "auto",
    )
    ner: str | None = option("context source: an installed spaCy NER pipeline (default: rules)")
    alternatives: int = option("other accepted paraphrases kept per question (augmentation)", 0, cli=False)
    device: str | None = option("cpu, cuda, cuda:1 ... (default: accelerate's choice)")

    def __post_init__(self) -> None:
        self.resolve()

    def resolve(self) -> None:
        """Fill the options left at None from the preset (default: by language and use)."""
        if self.preset is None and self.lang in DEFAULT_PRESET:
            self.preset = DEFAULT_PRESET[self.lang]
            if self.use == "adversarial":  # context chunks replace no phrase: the paraphraser weaves them in
                self.preset = "rewrite" if (self.source or "").startswith("context") else "adversarial"
        if self.preset not in PRESETS:
            return  # check() says so
        preset = {**PRESETS[self.preset], **LANG_PRESETS.get((self.preset, self.lang), {})}
        # A threshold belongs to its scorer: a scorer or ranker given takes its own calibrated one.
        given = {"threshold": self.scorer is not None, "rank_threshold": self.rank is not None}
        for name, value in preset.items():
            if getattr(self, name) is None and not given.get(name):
                setattr(self, name, value.format(lang=self.lang) if isinstance(value, str) else value)

    def check(self) -> None:
        """Raise ValueError naming the option that cannot work."""
        if self.lang not in DEFAULT_SOURCE:  # first: without a language there is no default preset either
            raise ValueError(f"unknown language {self.lang!r}; choose en or zh")
        if self.preset not in PRESETS:
            raise ValueError(f"unknown --preset {self.preset!r}; choose {' or '.join(PRESETS)}")
        if self.use not in USES:
            raise ValueError(f"unknown use {self.use!r}; choose {', '.join(USES)}")
        if self.select not in SELECTIONS:
            raise ValueError(f"unknown --select {self.select!r}; choose {' or '.join(SELECTIONS)}")
        if self.free and not self.nbest:
            raise ValueError("--free (a free rewrite of each question) needs the paraphraser: give --nbest N")
        if self.nbest and not (self.guided or self.free):
            raise ValueError(
                "--no-guided without --free leaves the paraphraser nothing to write: give --free"
            )
        if self.nbest and not self.guided and (self.source or "").startswith("context"):
            raise ValueError(
                "--source context: a context chunk replaces no phrase, only a rewrite guided by it weaves it "
                "in: give --guided"
            )
        if not self.guided and self.guide_check != "off":
            raise ValueError(
                "--guide-check picks the suggestions that guide the paraphraser: give --guided (English "
                "--preset paraphrase does not guide it)"
            )
        if self.nbest > self.num_beams:
            raise ValueError(f"--nbest ({self.nbest}) cannot exceed --num-beams ({self.num_beams})")
        for name in ("top_k", "steps", "num_beams", "batch_size"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
        if self.nbest < 0:
            raise ValueError("--nbest must be at least 0")
        if not 0 <= self.accept_above < 1:
            raise ValueError(f"--accept-above must be a probability in [0, 1), got {self.accept_above}")
        if self.accept_above and not self.nbest:
            raise ValueError(
                "--accept-above scores the paraphraser's rewrites: give --nbest N and --model gemma-en"
            )
        if self.select == "round-trip" and not self.nbest:
            raise ValueError(
                "--select round-trip scores candidates with the pretrained paraphraser: give --nbest N and "
                "--model gemma-en / gemma-zh (or --preset paraphrase)"
            )
        if self.nbest == 0 and not self.in_place:
            raise ValueError(
                "--nbest 0 (no paraphraser beams; the substitute preset's) needs --in-place candidates: "
                "give --nbest N to use the paraphraser's beams"
            )

    def source_spec(self) -> str:
        """The suggestion source: as given, else the default for the language and use."""
        if self.source:
            return self.source
        return "near" if self.use == "adversarial" else DEFAULT_SOURCE[self.lang]


@dataclass(kw_only=True)
class BuildConfig(GeneratorConfig):
    """Everything a test-set or augmentation run depends on (``--resume`` checks it did not change).

    >>> BuildConfig(squad="dev-v1.1.json", out="runs/testset")  # doctest: +SKIP
    """

    out: str = option("output folder", cli=False)
    squad: str | None = option("input: SQuAD-format JSON (SQuAD v1.1/2.0, DuReader-robust), .gz ok")
    pairs: str | None = option("input: question pairs (LCQMC/BQ/Quora-style TSV, MRPC or JSONL; labels kept)")
    pairs_format: str = option("pair file format: auto, tsv, tsv-unlabelled, quora, mrpc, jsonl", "auto")
    side: str = option("pairs: which question to paraphrase: a, b or both", "a")
    label_set: str = option("labels a pair file may hold, comma-separated", "0,1")
    skip_bad: bool = option(
        "skip records that cannot be used (answers not in their context, bad lines of a pair file) and list "
        "them in summary.json",
        False,
    )
    adversarial: bool = option(
        "context-chunk suggestions near same-type distractors and the adversarial threshold", False
    )
    chunk_size: int = option("questions per unit of work and of resumption", 64, minimum=1)
    # augmentation
    n: int | None = option("accepted paraphrases to add (default: every accepted one)", augment=True)
    per_question: int = option(
        "at most this many distinct accepted paraphrases of one question", 1, augment=True
    )
    mode: str | None = option(
        "ppdb: lexical suggestions (--source) and the augmentation threshold; context: adversarial "
        "suggestions and threshold (default: ppdb)",
        augment=True,
    )
    paraphrases_only: bool = option(
        "write the paraphrases alone, not merged with the input", False, augment=True
    )
    # how to run (not part of the results)
    resume: bool = option("continue an interrupted run in OUTDIR (the same command plus --resume)", False)
    overwrite: bool = option("discard a previous run in OUTDIR and start again", False)
    quiet: bool = option("no progress bar", False)
    examples: int = option("before/after examples to print and keep in the summary", 5, minimum=0)
    # not part of the results either: an input it lets through has no records, and the outputs are empty
    allow_empty: bool = option("an input with no records is not an error: the outputs are empty", False)

    def __post_init__(self) -> None:
        if self.out is None:
            raise TypeError("BuildConfig needs out (the output folder)")
        # derived, not set by users: which thresholds apply, answers, alternatives
        if self.adversarial or self.mode == "context":
            self.use = "adversarial"
        else:
            self.use = "augment" if self.mode else "testset"
        self.qa = self.squad is not None
        self.alternatives = self.per_question - 1 if self.mode else 0
        super().__post_init__()

    def check(self) -> None:
        """Raise ValueError naming the option that cannot work (the input, mode and counts too)."""
        if (self.squad is None) == (self.pairs is None):
            raise ValueError("give exactly one input: --squad FILE or --pairs FILE")
        if self.adversarial and self.pairs:
            raise ValueError("--adversarial needs QA data (--squad): its suggestions come from the context")
        if self.mode not in (None, "ppdb", "context"):
            raise ValueError(f"unknown --mode {self.mode!r}; choose ppdb or context")
        try:
            parse_label_set(self.label_set)
        except ValueError:
            problem = f"comma-separated integers (e.g. 0,1), got {self.label_set!r}"
            raise ValueError(f"--label-set: {problem}") from None
        super().check()
        if self.chunk_size < 1:
            raise ValueError("--chunk-size must be at least 1")
        if self.n is not None and self.n < 1:
            raise ValueError("--n must be at least 1")
        if self.per_question < 1:
            raise ValueError("--per-question must be at least 1")

    def generator_config(self) -> GeneratorConfig:
        """The generator's part of this configuration."""
        names = GeneratorConfig.__dataclass_fields__
        return GeneratorConfig(**{name: getattr(self, name) for name in names})
