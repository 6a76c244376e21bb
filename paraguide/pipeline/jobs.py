"""The small jobs behind ``paraguide paraphrase``, ``suggest``, ``score`` and ``train-scorer``, callable from
Python: each reads its input, runs one component over it in batches, and writes JSONL or TSV as it goes."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from tqdm.auto import tqdm

from paraguide.data.io import atomic_write, check_output_file
from paraguide.data.pairs import Pair, read_pairs
from paraguide.data.questions import QuestionInput, read_qa, read_questions
from paraguide.model.rerank import MIN_EDIT, SELECTIONS
from paraguide.options import option
from paraguide.text.language import NO_WORD, has_cjk, has_word


@contextmanager
def _output(path: str | None, *inputs: str | None) -> Iterator:
    """``path`` opened for writing (a temporary file beside it, moved into place when the job succeeds: a
    crash never leaves half a file under its name, and an unwritable folder fails at once), or standard
    output. Writing over one of the job's ``inputs`` is refused."""
    if path is None:
        yield sys.stdout
        return
    check_output_file(path, inputs)
    with atomic_write(path) as f:
        yield f


def paraphrase_file(
    paraphraser,
    items: Sequence[QuestionInput],
    output: str | None = None,
    input_file: str | None = None,
    output_format: str = "jsonl",
    keep: Callable[[Sequence[QuestionInput], list[list]], list[list]] | None = None,
    **generation,
) -> list[list]:
    """Paraphrase ``items`` (``generation``: :meth:`Paraphraser.paraphrase`'s options) and write one JSONL
    line per item: the question, its suggestion and the paraphrases with score and suggestion inclusion
    (``output_format="text"``: the question and its suggestion in brackets, then each paraphrase after
    "->", for reading). The output is opened before generation starts, so an unwritable path fails at once
    (``input_file``: where ``items`` came from, which the output must not replace). ``keep(items,
    paraphrases)``: each item's paraphrases that are written and returned (default: all)."""
    with _output(output, input_file) as out:
        # A question without a word (emoji, symbols or punctuation alone) is not paraphrased: the model would
        # only spell out broken bytes. Its line says so and has no paraphrases.
        words = [has_word(it.question) for it in items]
        todo = [it for it, word in zip(items, words, strict=True) if word]
        done = iter(
            paraphraser.paraphrase(
                [it.question for it in todo],
                [it.suggestion for it in todo],
                matched=[it.replaces for it in todo],
                **generation,
            )
        )
        results = [next(done) if word else [] for word in words]
        if keep is not None:
            results = keep(items, results)
        for item, paraphrases, word in zip(items, results, words, strict=True):
            record = {
                "question": item.question,
                "suggestion": item.suggestion or "",
                "paraphrases": [
                    {k: v for k, v in p.as_dict().items() if k != "suggestion"} for p in paraphrases
                ],
            }
            if not word:
                record["not_paraphrased"] = NO_WORD
            if output_format == "text":
                out.write(f"{item.question}  [{item.suggestion or ''}]\n")
                out.writelines(f"  -> {p.text}\n" for p in paraphrases)
            else:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return results


def suggest_file(
    source,
    path: str,
    output: str | None = None,
    top_k: int = 10,
    batch_size: int = 1000,
    allow_empty: bool = False,
    lang: str | None = None,
) -> tuple[int, int]:
    """Suggestions for every question of ``path`` (a source that ``needs_context`` reads QA records: SQuAD
    JSON or JSONL with passage and answer), one JSONL line per question. Returns (questions with any
    suggestion, questions). A file without a question is an error unless ``allow_empty``; given ``lang``,
    so is one whose questions are mostly in the other language."""
    extra: dict[str, list] = {}
    if getattr(source, "needs_context", False):
        rows = read_qa(path, allow_empty=allow_empty, lang=lang)
        questions = [r.question for r in rows]
        extra = {
            "contexts": [r.context for r in rows],
            "answers": [r.answer for r in rows],
            "answer_starts": [r.answer_start for r in rows],
        }
    else:
        questions = [it.question for it in read_questions(path, allow_empty=allow_empty, lang=lang)]
    found = 0
    with (
        _output(output, path) as out,
        tqdm(total=len(questions), unit="q", desc=f"suggest ({source.name})", disable=None) as bar,
    ):
        for start in range(0, len(questions), batch_size):
            batch = questions[start : start + batch_size]
            more = {k: v[start : start + batch_size] for k, v in extra.items()}
            for question, suggestions in zip(batch, source.suggest(batch, top_k, **more), strict=True):
                found += bool(suggestions)
                record = {"question": question, "suggestions": [s.as_dict() for s in suggestions]}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            bar.update(len(batch))
    return found, len(questions)


def score_pairs(scorer, pairs: Sequence[Pair], batch_size: int = 1024) -> list[float]:
    """The scorer's score of every pair, in batches, with a progress bar."""
    scores: list[float] = []
    with tqdm(total=len(pairs), unit="pair", desc=f"score ({scorer.name})", disable=None) as bar:
        for start in range(0, len(pairs), batch_size):
            batch = pairs[start : start + batch_size]
            scores += scorer.score([(p.a, p.b) for p in batch])
            bar.update(len(batch))
    return scores


def score_file(
    scorer,
    path: str,
    fmt: str = "auto",
    output: str | None = None,
    batch_size: int = 1024,
    allow_empty: bool = False,
) -> dict | None:
    """Score every pair of ``path``; write one score per line to standard output, or ``score, a, b, label``
    TSV to ``output``. Returns ROC-AUC and the best-threshold accuracy when every pair is labelled and
    both labels occur, else None. Labels must be 0 or 1; a file without a pair is an error unless
    ``allow_empty``."""
    from paraguide.score import best_threshold_accuracy, roc_auc

    pairs = list(read_pairs(path, fmt, allow_empty=allow_empty))
    with _output(output, path) as out:  # opened first: an unwritable path fails before the scoring
        scores = score_pairs(scorer, pairs, batch_size)
        for pair, score in zip(pairs, scores, strict=True):
            if output:
                label = "" if pair.label is None else pair.label
                out.write(f"{score:.6f}\t{pair.a}\t{pair.b}\t{label}\n")
            else:
                out.write(f"{score:.6f}\n")
    labels = [p.label for p in pairs]
    if not pairs or None in labels or not 0 < sum(labels) < len(labels):
        return None
    accuracy, threshold = best_threshold_accuracy(scores, labels)
    return {
        "pairs": len(pairs),
        "roc_auc": roc_auc(scores, labels),
        "accuracy": accuracy,
        "threshold": threshold,
    }


def train_scorer(path: str, output_dir: str, config, fmt: str = "auto", overwrite: bool = False) -> int:
    """Train a sim scorer on the distinct positive pairs of ``path`` (prepare's JSONL repeats a pair per
    suggestion) into ``output_dir`` (a new or empty folder, or ``overwrite``); returns the number of pairs."""
    from dataclasses import asdict

    from paraguide.data.fingerprint import fingerprints
    from paraguide.data.io import no_records
    from paraguide.data.outdir import OutputDir
    from paraguide.score.sim import train_sim
    from paraguide.text.normalize import pair_key

    output = OutputDir.check(output_dir, "train-scorer", overwrite=overwrite, resumable=False)
    seen, pairs = set(), []
    for p in read_pairs(path, fmt):
        key = pair_key(p.a, p.b)
        if p.is_positive and key not in seen:
            seen.add(key)
            pairs.append((p.a, p.b))
    if not pairs:
        raise no_records(path, "positive question pairs")
    output.identify({**asdict(config), "format": fmt}, fingerprints({"pairs": path}))
    output.claim()  # before training: an unwritable folder is found now, not after
    train_sim(pairs, output_dir, config)
    output.finish()
    return len(pairs)


# ---- the commands' options: one dataclass per job (the CLI's options are generated from them) --------


PARAPHRASE_SELECTIONS = (*SELECTIONS, "checked")  # "checked": round trip with the checks and the fluency


def _lang_of(question: str) -> str:
    return "zh" if has_cjk(question) else "en"


def _by_language(texts: Sequence[str], score: Callable[[str, list[int]], Sequence]) -> list:
    """``score(lang, indices)`` called once per language present among ``texts``, its values put back in
    the texts' order."""
    out: list = [None] * len(texts)
    for lang in ("en", "zh"):
        at = [i for i, t in enumerate(texts) if _lang_of(t) == lang]
        for i, value in zip(at, score(lang, at) if at else [], strict=True):
            out[i] = value
    return out


def meaning_checks(items: Sequence[QuestionInput]) -> Callable[[Sequence[str], Sequence], list[bool]]:
    """Round trip's ``keeps`` for these inputs: :func:`paraguide.score.filters.keeps_meaning` (content,
    scope and question words, names and numbers kept, well formed, still a question), each question in its
    own language; the phrase each input's suggestion replaces may go."""
    from paraguide.score.filters import keeps_meaning
    from paraguide.text.normalize import normalize

    # the candidates carry the suggestion as the paraphraser normalised it
    replaced = {(it.question, normalize(it.suggestion)): it.replaces or "" for it in items if it.suggestion}

    def keeps(questions: Sequence[str], candidates: Sequence) -> list[bool]:
        def check(lang: str, at: list[int]) -> list[bool]:
            return keeps_meaning([questions[i] for i in at], [candidates[i].text for i in at],
                                 [candidates[i].suggestion for i in at],
                                 [replaced.get((questions[i], candidates[i].suggestion), "") for i in at],
                                 lang=lang)  # fmt: skip

        return _by_language(questions, check)

    return keeps


def checked_only(
    checks: Callable[[Sequence[str], Sequence], list[bool]], min_edit: float = MIN_EDIT
) -> Callable[[Sequence[QuestionInput], list[list]], list[list]]:
    """``paraphrase_file``'s ``keep`` for ``--checked-only``: each item's paraphrases that change at least
    ``min_edit`` of its question's tokens and pass ``checks`` (:func:`meaning_checks`), in order; the
    checks run once over every item's paraphrases."""
    from paraguide.text.edits import edit_rate

    def keep(items: Sequence[QuestionInput], paraphrases: list[list]) -> list[list]:
        flat = [(k, p) for k, ps in enumerate(paraphrases) for p in ps]
        passed = checks([items[k].question for k, _ in flat], [p for _, p in flat]) if flat else []
        out: list[list] = [[] for _ in paraphrases]
        for (k, p), ok in zip(flat, passed, strict=True):
            q = items[k].question
            if ok and edit_rate(q, p.text, _lang_of(q)) >= min_edit:
                out[k].append(p)
        return out

    return keep


def pretrained_fluency(dtype: str = "auto") -> Callable[[Sequence[str]], list[float]]:
    """Round trip's ``bonus``: each text's fluency under the bundled pretrained LM of its language (Gemma 3
    270M's mean log-probability per token, ``paraguide/models/lm-gemma-LANG``), each LM loaded when a text
    of its language first comes."""
    from paraguide.score.fluency import BUNDLED, FluencyScorer

    scorers = {}

    def bonus(texts: Sequence[str]) -> list[float]:
        def fluency(lang: str, at: list[int]) -> list[float]:
            if lang not in scorers:
                scorers[lang] = FluencyScorer(BUNDLED / f"lm-gemma-{lang}", lang=lang, dtype=dtype)
            return scorers[lang].fluency([texts[i] for i in at])

        return _by_language(texts, fluency)

    return bonus


@dataclass
class ParaphraseJob:
    """``paraguide paraphrase``: one question (with suggestions) or a file of them."""

    question: str | None = option("a question to paraphrase", positional=True)
    suggestion: list[str] | None = option("a suggestion to use (repeatable)", action="append")
    replaces: list[str] | None = option(
        "the question's phrase a --suggestion replaces (repeatable, one per --suggestion, in order)",
        action="append",
    )
    input: str | None = option("file of questions (txt, tsv or jsonl)")
    output: str | None = option("JSONL to write (default: standard output)")
    format: str = option(
        "jsonl (one record per input) or text (each question [suggestion], then its paraphrases after ->)",
        "jsonl",
        choices=("jsonl", "text"),
    )
    model: str | None = option(
        "model folder written by paraguide train, or a bundled one by name: en, zh, gemma-en, gemma-en-dpo "
        "(gemma-en tuned on blind readers' judgements: deeper rewrites that keep the question more often), "
        "gemma-zh (default: the bundled model for --lang)"
    )
    lang: str = option("bundled model to use without --model", "en", choices=("en", "zh"), shown=False)
    num_beams: int = option("beam size", 4)
    num_return: int = option("paraphrases per input", 1)
    batch_size: int = option("inputs per batch", 32)
    max_new_tokens: int = option("longest paraphrase in tokens", 48)
    no_repeat_ngram_size: int = option(
        "forbid repeating any n-gram of this many tokens (stops loops; default: 0, off)", 0, shown=False
    )
    by_score: bool = option(
        "rank beams by score alone (default: beams containing the suggestion first)", False
    )
    select: str = option(
        "beam: the most probable first; round-trip (the pretrained paraphraser): every beam ranked by how "
        "probable it is plus how well the question is written back from it, those that change at least "
        "--min-edit of the question's tokens first -- deeper rewrites that keep the question more often; "
        "checked: as round-trip, but among those the beams that pass the text-only meaning checks first "
        "(content, scope and question words, names and numbers kept, well formed), and the pretrained LM's "
        "fluency added to the score -- the ranking of the blind readings (docs/paraphraser.md)",
        "beam",
        choices=PARAPHRASE_SELECTIONS,
    )
    min_edit: float = option(
        "--select round-trip / checked: the token edit rate a rewrite must reach to rank first", MIN_EDIT
    )
    checked_only: bool = option(
        "with --select checked: write only the rewrites that change at least --min-edit of the question and "
        "pass the meaning checks, so that a question none of whose beams does gets no paraphrase (default: "
        "every question gets its first, as ranked)",
        False,
    )
    device: str | None = option("cpu, cuda, cuda:1 ... (default: cuda when available)")
    dtype: str = option(
        "auto: bfloat16 where the CPU/GPU computes it natively, else float32",
        "auto",
        choices=("auto", "float32", "bfloat16", "float16"),
    )
    allow_empty: bool = option("an input with no records is not an error: the outputs are empty", False)

    def items(self) -> list[QuestionInput]:
        """The inputs: the question with each suggestion, or the file's lines (ValueError if neither or both;
        DataError for a file without a question, unless --allow-empty, or -- with the bundled model of
        --lang -- one whose questions are mostly in the other language)."""
        if bool(self.question) == bool(self.input):
            raise ValueError("give either a question or --input FILE")
        if self.input:
            # --lang picks the bundled model only: a --model is whatever language it was trained on
            lang = None if self.model else self.lang
            return read_questions(self.input, allow_empty=self.allow_empty, lang=lang)
        suggestions = self.suggestion or [None]
        replaces = self.replaces or [None] * len(suggestions)
        if len(replaces) != len(suggestions):
            raise ValueError(f"{len(replaces)} --replaces for {len(suggestions)} --suggestion; give one each")
        return [QuestionInput(self.question, s, r) for s, r in zip(suggestions, replaces, strict=True)]

    def run(self) -> list[list]:
        """Load the model and write the paraphrases; returns them per input."""
        from paraguide.model.causal import is_causal_folder
        from paraguide.model.paraphraser import Paraphraser, bundled_or_path, default_model_path

        if self.checked_only and self.select != "checked":
            raise ValueError("--checked-only goes with --select checked")
        items = self.items()
        model = self.model or default_model_path(self.lang)
        ranking = {}
        if self.select != "beam":  # before loading: it needs the adapter's own likelihood
            if not is_causal_folder(bundled_or_path(model)):
                raise ValueError(
                    f"--select {self.select} needs the pretrained paraphraser (--model gemma-en, gemma-zh or "
                    f"an adapter folder), not {model}"
                )
            ranking = {"select": "round-trip", "min_edit": self.min_edit}
            if self.select == "checked":
                ranking |= {"keeps": meaning_checks(items), "bonus": pretrained_fluency(self.dtype)}
        paraphraser = Paraphraser.from_pretrained(model, device=self.device, dtype=self.dtype)
        return paraphrase_file(
            paraphraser,
            items,
            self.output,
            self.input,
            output_format=self.format,
            keep=checked_only(ranking["keeps"], self.min_edit) if self.checked_only else None,
            num_beams=self.num_beams,
            num_return_sequences=self.num_return,
            batch_size=self.batch_size,
            max_new_tokens=self.max_new_tokens,
            prefer_suggestion=not self.by_score,
            **ranking,
            # the small models' generate() takes it; the pretrained paraphraser's own search does not
            **({"no_repeat_ngram_size": self.no_repeat_ngram_size} if self.no_repeat_ngram_size else {}),
        )


@dataclass
class SuggestJob:
    """``paraguide suggest``: a source's suggestions for every question of a file."""

    source: str = option(
        "ppdb[:FILE] | wordnet[:FOLDER] | cilin[:FILE] | mined[:FILES] | interrogative | context | A&B "
        "(A's suggestions that B agrees with) | A|B (A's, then B's)",
        required=True,
    )
    input: str = option(
        "questions: text (one per line) or JSONL with 'question'; context: SQuAD JSON or JSONL", required=True
    )
    output: str | None = option("JSONL to write (default: standard output)")
    top_k: int = option("suggestions kept per question", 10)
    threshold: float = option("ppdb: lowest score kept", 0.25)
    relation: list[str] | None = option(
        "ppdb: keep only this entailment relation (repeatable), e.g. Equivalence, ForwardEntailment",
        action="append",
    )
    lang: str | None = option("language of the questions (default: en)", choices=("en", "zh"))
    batch_size: int = option("questions per batch", 1000)
    ner: str | None = option("context: an installed spaCy NER pipeline to type answers (default: rules)")
    allow_empty: bool = option("an input with no records is not an error: the outputs are empty", False)

    def run(self) -> tuple[int, int]:
        """Write the suggestions; returns (questions with any suggestion, questions). A --lang given is
        checked against the questions (a source such as cilin has its own language: no --lang, no check)."""
        from paraguide.suggest import load_source

        # every option goes to load_source, and each source takes those it uses
        options = dict(
            threshold=self.threshold, relations=self.relation, lang=self.lang or "en", ner=self.ner
        )
        source = load_source(self.source, **options)
        return suggest_file(
            source, self.input, self.output, self.top_k, self.batch_size, self.allow_empty, self.lang
        )


@dataclass
class ScoreJob:
    """``paraguide score``: a scorer's score of every pair of a file."""

    scorer: str = option(
        "sim[:FOLDER] | embedding[:FOLDER] | lexical[:MEASURE] | wmd[:SIM_FOLDER] | fluency[:LM_FOLDER]",
        required=True,
    )
    input: str = option("pairs file (format detected)", required=True)
    format: str = option("pair format: auto, quora, tsv, tsv-unlabelled, mrpc, jsonl", "auto", shown=False)
    output: str | None = option("TSV to write: score, a, b, label (default: scores on standard output)")
    lang: str = option(
        "tokenisation for lexical, bundled model for sim and fluency", "en", choices=("en", "zh")
    )
    batch_size: int = option("pairs per batch", 1024)
    allow_empty: bool = option("an input with no records is not an error: the outputs are empty", False)

    def run(self) -> dict | None:
        """Write the scores; returns ROC-AUC and best accuracy for labelled pairs, else None."""
        from paraguide.score import load_scorer

        scorer = load_scorer(self.scorer, lang=self.lang)
        return score_file(scorer, self.input, self.format, self.output, self.batch_size, self.allow_empty)
