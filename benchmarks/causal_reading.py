"""A blind reading of the pretrained paraphraser's rewrites (issue "A pretrained paraphraser").

    python benchmarks/causal_reading.py sheet --adapter paraguide/models/gemma-en \
        --adapter-zh paraguide/models/gemma-zh --n 100 --tag 2026-11-26a
    (a helper who sees only the sheet writes the judgements TSV)
    python benchmarks/causal_reading.py score --tag 2026-11-25a
    (a second reader of the same sheet, TAG_judgements_second.tsv: that reader's rows and the two
    readers' agreement, Cohen's kappa per column, in the result too)

Random SQuAD v1.1 dev questions (English) and DuReader-robust dev questions (Chinese; ``--zh-questions
lcqmc``: LCQMC test's), seeded: the first
``--n`` of a seeded shuffle get a free rewrite (no suggestion); the first ``--n`` of the same shuffle that
the language's default lexical source has a suggestion for (English wordnet&ppdb, Chinese cilin&mined)
get a suggestion-guided one (its first suggestion); beam 4, best beam. The sheet shows
the original and its two rewrites in a shuffled order with no labels; the key keeps which is which and the
token edit rate. The reader judges each rewrite: fluent (y/n), same question and answer (y/n), natural
rephrasing rather than a word swap (y/n). ``--adapter`` takes an adapter folder or a training checkpoint; ``--compare NAME=FOLDER`` puts another
adapter's rewrites of the same questions on the same sheet, unlabelled, scored apart as ``@NAME``;
``--rerank NAME=WEIGHT`` each adapter's ``--rerank-beams`` beams ranked by round trip
(``paraguide.model.rerank``; tag 2026-11-27b: ``--langs en --n 100 --seed 61 --rerank rt=1 --rerank floor=0``),
scored as ``@NAME`` for the base adapter and ``@NAME-SYSTEM`` for a ``--compare`` one. ``--guided-ranked``
(English) adds a third kind, ``guided-ranked``: rewrites of the first ``--n`` questions of the same shuffle
that the default has a synonym for, guided by the synonym it would put in place (wordnet&ppdb, ranked by
all-MiniLM-L6-v2's similarity of the question with it in place, at least 0.96) rather than by the source's
first suggestion, whose wrong senses ("vino" for wine, "cosmonaut" for astronauts) no adapter can write
well (tag 2026-11-28f). ``--rerank NAME=WEIGHT:F`` adds F x the pretrained LM's fluency of each beam to
its score (tag 2026-11-29a: ``--compare r2=runs/gemma-en-rules2/best.safetensors --langs en --n 100 --seed
229 --rerank rt=1 --rerank rtf=1:1 --skip-beam``); ``NAME=WEIGHT:F:keeps`` ranks first the beams that pass
the text-only meaning checks (``paraguide.score.filters.keeps_meaning``: content, scope and question words,
names, length), ``F`` 0 for none of the fluency. ``--guided-placed`` adds the kind ``guided-placed``: the
same first suggestions given as they stand in place ("situated" for WordNet's "situate", as the builders
give them since 2026-11-29); ``--guided-checked`` the kind ``guided-checked``: the first ``--n`` questions
that have a synonym the default would put in place *and* its swap check passes (``--swap-check gemma-en``
at the test-set threshold), up to ``--guided-suggestions`` of them as they stand in place, all their beams
ranked together; ``--no-free`` leaves the free rewrites out (tag 2026-11-29f: ``--compare
r2b=runs/gemma-en-rules2b/best.safetensors --langs en --n 100 --seed 401 --rerank rtkf=1:1:keeps --skip-beam
--dedupe --no-free --guided-placed --guided-checked --guided-suggestions 3``).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from reading import read_judgements, write_sheet  # noqa: E402

SHARED = HERE.parent.parent / "shared" / "data"
RESULTS = HERE / "results"
COLUMNS = ["fluent", "same", "rephrased"]
SOURCES = {"en": "wordnet&ppdb", "zh": "cilin&mined"}
KINDS = ("free", "guided", "guided-placed", "guided-ranked", "guided-checked")
MIN_EDIT = 0.14  # the measure: a rewrite is good when fluent, the same question and this deep


def _good(judged: dict, item: dict) -> bool:
    """The issue's measure for one judged item of the key."""
    return judged["fluent"] and judged["same"] and item["edit_rate"] >= MIN_EDIT


def ranked_suggestions(pool: list[str], n: int, chunk: int = 200) -> dict[int, tuple[str, str]]:
    """The first ``n`` questions of ``pool`` that the English default has a synonym for, each with it:
    wordnet&ppdb's suggestions put in place and ranked by all-MiniLM-L6-v2's similarity to the question, the
    best at 0.96 or more (``data_prep/rule_corpus.py``'s ``swapped``, which the rules2 stage trained on)."""
    sys.path.insert(0, str(HERE.parent / "data_prep"))
    from rule_corpus import swapped

    out: dict[int, tuple[str, str]] = {}
    for start in range(0, len(pool), chunk):
        for k, options in enumerate(swapped(pool[start : start + chunk], top=1), start):
            if options and len(out) < n:
                out[k] = (options[0][0].text, options[0][0].matched)  # the source's text, as it was read
        if len(out) >= n:
            break
    return out


def checked_suggestions(
    pool: list[str], n: int, k: int = 1, chunk: int = 200, respell: bool = False
) -> dict[int, list[tuple]]:
    """The first ``n`` questions of ``pool`` that the English default would put a synonym in place in, each
    with up to ``k`` of its synonyms, best first: ``ranked_suggestions``' swaps (all-MiniLM-L6-v2 >= 0.96)
    that also pass the default's swap check (``--swap-check gemma-en``: how readily the bundled adapter
    writes the swapped question, at its calibrated test-set threshold), ordered by it -- the suggestions
    whose sense fits the question, which is what a guided rewrite can build on. ``respell``: not one that
    only respells its phrase ("licenced" for "licensed"), as ``--guide-check`` since 2026-11-29g."""
    sys.path.insert(0, str(HERE.parent / "data_prep"))
    from rule_corpus import swapped

    from paraguide.score import default_threshold, load_scorer
    from paraguide.text.edits import respelling

    check = load_scorer("paraphraser:gemma-en", lang="en")
    threshold = default_threshold("paraphraser", "testset", "en")
    out: dict[int, list[tuple]] = {}
    for start in range(0, len(pool), chunk):
        options = swapped(pool[start : start + chunk], top=12)
        pairs = [(pool[j], p.text) for j, opts in enumerate(options, start) for _, p in opts]
        scores = iter(check.score(pairs)) if pairs else iter(())
        for j, opts in enumerate(options, start):
            kept = sorted(((next(scores), s, p) for s, p in opts), key=lambda x: -x[0])
            # the synonym as it stands in the question ("situated"): what the paraphraser's prompt gets
            kept = [
                (p.phrase, s.matched)
                for v, s, p in kept
                if v >= threshold and not (respell and respelling(s.matched, p.phrase))
            ][:k]
            if kept and len(out) < n:
                out[j] = kept
        if len(out) >= n:
            break
    return out


def questions(lang: str, n: int, seed: int, zh: str = "dureader") -> list[str]:
    """A seeded sample of SQuAD v1.1 dev questions (English), of DuReader-robust dev's or of LCQMC test's
    first questions (Chinese, ``zh``: Cilin and the mined pairs suggest for only 49 of DuReader-robust dev's
    1,417 questions)."""
    from paraguide.data.pairs import read_pairs
    from paraguide.data.squad import SquadReader

    if lang == "zh" and zh == "lcqmc":
        qs = sorted({pair.a.strip() for pair in read_pairs(SHARED / "lcqmc/test.tsv")})
    else:
        path = SHARED / ("squad_v1.1/dev-v1.1.json.gz" if lang == "en" else "dureader_robust/dev.json")
        qs = sorted({r["question"].strip() for r in SquadReader(path)})
    return random.Random(f"{seed}:{lang}").sample(qs, n if n is not None else len(qs))


def paths(tag: str) -> dict[str, Path]:
    stem = RESULTS / f"causal_reading_{tag}"
    return {k: Path(f"{stem}{suffix}") for k, suffix in
            (("sheet", "_sheet.md"), ("key", "_key.json"), ("judgements", "_judgements.tsv"),
             ("second", "_judgements_second.tsv"), ("result", ".json"))}  # fmt: skip


def _load(folder: str):
    """An adapter folder, a training checkpoint or a run's best.safetensors, as a Paraphraser."""
    from paraguide.model.causal_train import export_best, export_checkpoint
    from paraguide.model.paraphraser import Paraphraser

    adapter = Path(folder)
    if (adapter / "trainable.safetensors").exists() or adapter.name == "best.safetensors":
        tmp = Path(tempfile.mkdtemp())
        if adapter.name == "best.safetensors":
            export_best(adapter.parent, tmp)
        else:
            export_checkpoint(adapter, tmp)
        adapter = tmp
    return Paraphraser.from_pretrained(adapter)


def _guided(model, qs: list[str], at: dict[int, list[tuple[str, str]]], **decode):
    """``model``'s rewrites of the questions ``at`` names (index -> [(suggestion, matched), ...]), guided:
    each question's candidates under every one of its suggestions, in one list."""
    flat = [(k, s, m) for k, options in at.items() for s, m in options]
    beams = iter(model.paraphrase([qs[k] for k, _, _ in flat], suggestions=[s for _, s, _ in flat],
                                  matched=[m for _, _, m in flat], **decode))  # fmt: skip
    return [[c for _ in options for c in next(beams)] for options in at.values()]


def most_probable(cands: list[list], n: int) -> list[list]:
    """Each question's candidates cut to the ``n`` most probable beams of each prompt (suggestion), in
    their order: the n-best of a wider beam search, so that one sheet can read what more beams buy."""
    out = []
    for cs in cands:
        kept = set()
        for s in dict.fromkeys(c.suggestion for c in cs):
            mine = [i for i, c in enumerate(cs) if c.suggestion == s]
            kept.update(sorted(mine, key=lambda i: -cs[i].score)[:n])
        out.append([c for i, c in enumerate(cs) if i in kept])
    return out


@functools.cache
def _pretrained_fluency(lang: str):
    from paraguide.score.fluency import BUNDLED, FluencyScorer

    return FluencyScorer(BUNDLED / f"lm-gemma-{lang}")


@functools.cache
def _bundled_fluency():
    """The bundled pretrained LMs' fluency (``paraguide.pipeline.jobs.pretrained_fluency``, float32 as every
    reading), loaded once for every ``NAME=WEIGHT:F`` ranking of a sheet."""
    from paraguide.pipeline.jobs import pretrained_fluency

    return pretrained_fluency("float32")


def _fluency_bonus(weight: float):
    """``round_trip``'s ``bonus`` for ``NAME=WEIGHT:F``: ``F`` x each rewrite's fluency under the bundled
    pretrained LM of its language."""
    return lambda texts: [weight * v for v in _bundled_fluency()(texts)]


def _keeps(matched: dict[tuple[str, str], str]):
    """``round_trip``'s ``keeps``: ``paraguide.pipeline.jobs.meaning_checks``, with each guided question's
    replaced phrase (``matched``: (question, suggestion) -> phrase) allowed to go."""
    from paraguide.data.questions import QuestionInput
    from paraguide.pipeline.jobs import meaning_checks

    return meaning_checks([QuestionInput(q, s, m) for (q, s), m in matched.items()])


def learnt_choice(
    model: dict, para, questions: list[str], cands: list[list], matched: dict, min_edit: float
) -> list[list]:
    """Each question's candidates ranked as round trip groups them (the suggestion used, enough changed),
    each group by the probability of "good" a ranking learnt from the judgements gives
    (benchmarks/rewrite_ranking.py: ``--rerank NAME=learnt:RESULT.json``), its round-trip features from
    ``para``, the adapter whose beams they are (fit the ranking with ``rewrite_ranking.py --adapter`` of it)."""
    from rewrite_ranking import learnt_probability

    from paraguide.score.acceptance import features
    from paraguide.text.edits import edit_rate

    flat = [(i, c) for i, options in enumerate(cands) for c in options]
    feats = features(para, _pretrained_fluency("en"), [questions[i] for i, _ in flat], [c.text for _, c in flat],
                     [c.suggestion or "" for _, c in flat],
                     [matched.get((questions[i], c.suggestion or ""), "") for i, c in flat], lang="en")  # fmt: skip
    prob = learnt_probability(model, feats)
    ranked = [[] for _ in questions]
    for (i, c), pr in zip(flat, prob, strict=True):
        ranked[i].append((pr, c))
    for q, options in zip(questions, ranked, strict=True):
        uses = any(c.includes_suggestion for _, c in options)
        options.sort(key=lambda o: (uses and not o[1].includes_suggestion, edit_rate(q, o[1].text, "en") < min_edit,
                                    -o[0]))  # fmt: skip
    return [[c for _, c in options] for options in ranked]


def make_sheet(args) -> None:
    from paraguide.model.rerank import round_trip
    from paraguide.suggest import load_source
    from paraguide.text.edits import edit_rate

    systems = {"base": {"en": _load(args.adapter)}}
    if args.adapter_zh and "zh" in args.langs:
        systems["base"]["zh"] = _load(args.adapter_zh)
    systems["base"].setdefault("zh", systems["base"]["en"])
    for spec in args.compare:
        name, _, folder = spec.partition("=")
        model = _load(folder)
        systems[name] = {"en": model, "zh": model}
    rng = random.Random(args.seed)
    lines = ["# Reading sheet", "", "For each original question, judge every rewrite below it:",
             "fluent (y/n), same question with the same answer (y/n), natural rephrasing rather than a one-word "
             "swap (y/n). Write one TSV line per rewrite: item, fluent, same, rephrased, note.", ""]  # fmt: skip
    key, item = {}, 0
    for lang in args.langs.split(","):
        pool = questions(lang, None, args.seed, args.zh_questions)
        if args.exclude:  # questions a stage was trained on (data_prep/preference_corpus.py writes them)
            seen = set(Path(args.exclude).read_text(encoding="utf-8").splitlines())
            pool = [q for q in pool if q not in seen]
        source = load_source(SOURCES[lang], lang=lang)
        found = source.suggest(pool, top_k=1)
        # kind -> {question index: (suggestion, matched)}: the source's first suggestion, and (--guided-ranked)
        # the one the English default puts in place (ranked by all-MiniLM-L6-v2, >= 0.96)
        # (--guided-checked) up to --guided-suggestions of those that also pass the default's swap check;
        # each question index -> [(suggestion, matched), ...]
        firsts = ((k, [(f[0].text, f[0].matched)]) for k, f in enumerate(found) if f)
        first = dict(itertools.islice(firsts, args.n))
        guided = {} if args.no_first else {"guided": first}
        if args.guided_ranked and lang == "en":
            guided["guided-ranked"] = {k: [v] for k, v in ranked_suggestions(pool, args.n).items()}
        if args.guided_placed:
            # the same first suggestions, as they stand in place ("situated", not "situate")
            from paraguide.text.substitute import place

            guided["guided-placed"] = {}
            for k in first:
                f = found[k][0]
                p = place(pool[k], [(f.span, f.text)], lang)[0] if f.span is not None and f.matched else None
                guided["guided-placed"][k] = [(p.phrase if p else f.text, f.matched)]
        if args.guided_checked and lang == "en":
            guided["guided-checked"] = checked_suggestions(
                pool, args.n, args.guided_suggestions, respell=args.no_respellings
            )
        qs = pool[: max([args.n - 1, *(k for g in guided.values() for k in g)]) + 1]
        written = {}  # (system, kind) -> {k: text}
        for system, models in systems.items() if not args.skip_beam else ():
            model = models[lang]
            if not args.no_free:
                free = model.paraphrase(qs[: args.n], num_beams=args.beams)
                written[system, "free"] = {k: (b[0].text, None) for k, b in enumerate(free)}
            for kind, at in guided.items():  # the best beam under the first suggestion
                beams = _guided(model, qs, {k: v[:1] for k, v in at.items()}, num_beams=args.beams)
                written[system, kind] = {
                    k: (b[0].text, b[0].suggestion) for k, b in zip(at, beams, strict=True)
                }
        for system, models in systems.items() if args.rerank else ():
            # each adapter's n-best, chosen by round trip (paraguide.model.rerank): NAME for the base
            # adapter's, NAME-SYSTEM for a --compare one's
            model, nb = models[lang], args.rerank_beams
            beams = {}
            if not args.no_free:
                free = model.paraphrase(qs[: args.n], num_beams=nb, num_return_sequences=nb)
                beams["free"] = (list(range(args.n)), free)
            for kind, at in guided.items():
                beams[kind] = (list(at), _guided(model, qs, at, num_beams=nb, num_return_sequences=nb))
            for spec in args.rerank:
                name, _, weights = spec.partition("=")
                weight, fluent, checks, first = (weights.split(":") + ["", "", ""])[:4]
                name = name if system == "base" else f"{name}-{system}"
                if weight == "learnt":
                    learnt = json.loads(Path(fluent).read_text(encoding="utf-8"))["learnt_model"]
                pick = dict(
                    lang=lang,
                    min_edit=args.min_edit,
                    weight=float(weight or 1) if weight != "learnt" else 1.0,
                )
                for kind, (at, cands) in beams.items():
                    if first:  # NAME=WEIGHT:F:CHECKS:N: only each prompt's N most probable beams compete
                        cands = most_probable(cands, int(first))
                    matched = (
                        {(qs[k], s): m for k in at for s, m in guided[kind][k]} if kind in guided else {}
                    )
                    if weight == "learnt":  # NAME=learnt:RESULT.json: the ranking learnt from the judgements
                        chosen = learnt_choice(
                            learnt, model, [qs[k] for k in at], cands, matched, args.min_edit
                        )
                        written[name, kind] = {
                            k: (c[0].text, c[0].suggestion) for k, c in zip(at, chosen, strict=True)
                        }
                        continue
                    # NAME=WEIGHT:F: each score gains F x the pretrained LM's fluency
                    bonus = _fluency_bonus(float(fluent)) if fluent and float(fluent) else None
                    # NAME=WEIGHT:F:keeps: the beams that pass the text-only meaning checks first
                    keeps = _keeps(matched) if checks == "keeps" else None
                    chosen = round_trip(model, [qs[k] for k in at], cands, keeps=keeps, bonus=bonus, **pick)
                    written[name, kind] = {
                        k: (c[0].text, c[0].suggestion) for k, c in zip(at, chosen, strict=True)
                    }
                    # --top: the next distinct rewrites of each prompt, as NAME#2, NAME#3 ...
                    nth = {}  # k -> [(text, its suggestion), ...], each text once, in rank order
                    for k, cs in zip(at, chosen, strict=True):
                        distinct = {}
                        for c in cs:
                            distinct.setdefault(c.text, c.suggestion)
                        nth[k] = list(distinct.items())
                    for j in range(1, args.top):
                        written[f"{name}#{j + 1}", kind] = {k: nth[k][j] for k in at if len(nth[k]) > j}
        for k, q in enumerate(qs):
            rewrites = [(system, kind, *texts[k]) for (system, kind), texts in written.items() if k in texts]
            if not rewrites:
                continue
            rng.shuffle(rewrites)
            lines += [f"## {lang}-{k + 1}", "", f"Original: {q}", ""]
            shown = {}  # --dedupe: text -> its item; the sheet shows no suggestion, so one text is one judgement
            for system, kind, text, s in rewrites:
                # the phrase a guided prompt said the suggestion replaces ("Instead of:"), which a stage
                # trained on the judgements (data_prep/preference_corpus.py) must be prompted with again
                m = next((m for s2, m in guided.get(kind, {}).get(k, []) if s2 == s), "") if s else ""
                if args.dedupe and text in shown:
                    key[shown[text]].setdefault("also", []).append(
                        {"kind": kind, "system": system, "suggestion": s, "matched": m}
                    )
                    continue
                item += 1
                shown[text] = str(item)
                lines.append(f"- item {item}: {text}")
                key[str(item)] = {"lang": lang, "kind": kind, "system": system, "original": q, "rewrite": text,
                                  "suggestion": s, "matched": m, "edit_rate": round(edit_rate(q, text, lang), 4)}  # fmt: skip
            lines.append("")
    p = paths(args.tag)
    write_sheet(str(p["sheet"]), str(p["key"]), lines, key)


def _rows(key: dict, judged: dict) -> dict:
    """The reading's rows (language/kind@system) from one reader's judgements of the key's items."""
    # an item that stands for several systems' identical rewrite (--dedupe) counts once for each
    judged = {f"{i}/{n}": judged[i] for i, k in key.items() for n in range(1 + len(k.get("also", [])))}
    key = {f"{i}/{n}": {**k, **extra} for i, k in key.items()
           for n, extra in enumerate([{}, *k.get("also", [])])}  # fmt: skip
    result = {}
    systems = sorted({k.get("system", "base") for k in key.values()})
    for lang in ("en", "zh"):
        for system, kind in ((s, k) for s in systems for k in KINDS):
            items = [i for i, k in key.items()
                     if k["lang"] == lang and k["kind"] == kind and k.get("system", "base") == system]  # fmt: skip
            if not items:
                continue
            rates = sorted(key[i]["edit_rate"] for i in items)
            good = [i for i in items if judged[i]["fluent"] and judged[i]["same"]]
            result[f"{lang}/{kind}" + ("" if system == "base" else f"@{system}")] = {
                "items": len(items),
                "fluent": round(sum(judged[i]["fluent"] for i in items) / len(items), 3),
                "same": round(sum(judged[i]["same"] for i in items) / len(items), 3),
                "rephrased": round(sum(judged[i]["rephrased"] for i in items) / len(items), 3),
                "fluent_and_same": round(len(good) / len(items), 3),
                "fluent_and_same_edit_rate_ge_0.14": round(
                    sum(_good(judged[i], key[i]) for i in items) / len(items), 3
                ),
                "identical_to_original": round(sum(key[i]["edit_rate"] == 0 for i in items) / len(items), 3),
                "edit_rate_median": round(statistics.median(rates), 4),
                "edit_rate_quartiles": [round(q, 4) for q in statistics.quantiles(rates, n=4)]
                if len(rates) > 1
                else rates,
            }
    return result


def agreement(key: dict, first: dict, second: dict) -> dict:
    """How far two readers of the same sheet agree, item by item: the share of items they judge alike and
    Cohen's kappa (agreement beyond what each reader's own rate of y gives by chance), per column and for
    "good" (fluent and the same question, with edit rate >= 0.14: the issue's measure)."""
    from sklearn.metrics import cohen_kappa_score

    items = sorted(key, key=int)
    verdicts = {column: ([first[i][column] for i in items], [second[i][column] for i in items])
                for column in COLUMNS}  # fmt: skip
    verdicts["good"] = tuple([_good(j[i], key[i]) for i in items] for j in (first, second))
    out = {}
    for column, (a, b) in verdicts.items():
        # kappa is undefined (nan) when both readers give one answer throughout; agreement is then total
        kappa = cohen_kappa_score(a, b) if len({*a, *b}) > 1 else 1.0
        out[column] = {
            "agree": round(sum(x == y for x, y in zip(a, b, strict=True)) / len(items), 3),
            "kappa": round(float(kappa), 3),
            "first_yes": round(sum(a) / len(items), 3),
            "second_yes": round(sum(b) / len(items), 3),
        }
    return {"items": len(items), **out}


def score(args) -> None:
    """Score the judgements; where a second reader judged the same sheet (``TAG_judgements_second.tsv``, the
    same columns), the result also holds that reader's rows and the two readers' agreement."""
    p = paths(args.tag)
    key = json.loads(p["key"].read_text(encoding="utf-8"))
    judged = read_judgements(str(p["judgements"]), key, COLUMNS, set(COLUMNS))
    result = _rows(key, judged)
    if p["second"].exists():
        second = read_judgements(str(p["second"]), key, COLUMNS, set(COLUMNS))
        result["second_reader"] = _rows(key, second)
        result["agreement"] = agreement(key, judged, second)
    p["result"].write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sheet")
    s.add_argument("--adapter", required=True, help="adapter folder or checkpoint (English, or both)")
    s.add_argument("--adapter-zh", help="the Chinese adapter, where it is another one")
    s.add_argument(
        "--skip-beam",
        action="store_true",
        help="with --rerank: only the round trip's rewrites, not each adapter's best beam",
    )
    s.add_argument("--compare", action="append", default=[], metavar="NAME=FOLDER",
                   help="another adapter (folder, checkpoint or a run's best.safetensors) whose rewrites of the "
                   "same questions join the sheet, scored apart as @NAME")  # fmt: skip
    s.add_argument("--rerank", action="append", default=[], metavar="NAME=WEIGHT[:FLUENCY[:keeps]]",
                   help="also the base adapter's n-best (--rerank-beams) chosen by round trip with this weight "
                   "on the backward score (paraguide.model.rerank; 0: the most probable that changes "
                   "--min-edit), and FLUENCY x the pretrained LM's fluency of the rewrite, the beams that pass the "
                   "text-only meaning checks first with :keeps, only each prompt's N most probable of the beams with :N "
                   "(NAME=1:1:keeps:8 beside --rerank-beams 16); scored apart as @NAME")  # fmt: skip
    s.add_argument(
        "--dedupe",
        action="store_true",
        help="show a rewrite that several systems wrote of one question once (scored for each)",
    )
    s.add_argument("--rerank-beams", type=int, default=8, help="beams (and candidates) for --rerank")
    s.add_argument("--top", type=int, default=1,
                   help="with --rerank: each ranking's first N distinct rewrites of a prompt (NAME#2 ... for the "
                   "others): judged side by side, they make preference pairs (data_prep/preference_corpus.py); "
                   "use one suggestion per question (--guided-suggestions 1) so that they share a prompt")  # fmt: skip
    s.add_argument("--guided-ranked", action="store_true",
                   help="English: also n rewrites guided by the synonym the default would put in place "
                   "(ranked by all-MiniLM-L6-v2, >= 0.96) rather than the source's first; kind guided-ranked")  # fmt: skip
    s.add_argument("--guided-checked", action="store_true",
                   help="English: also n rewrites guided by the synonyms the default would put in place and its "
                   "swap check passes (--swap-check gemma-en at the test-set threshold), up to "
                   "--guided-suggestions of them, all their beams ranked together; kind guided-checked")  # fmt: skip
    s.add_argument("--no-free", action="store_true", help="no free rewrites: only the guided kinds")
    s.add_argument("--exclude", help="a file of questions (one a line) the sample leaves out: those a compared "
                   "stage was trained on")  # fmt: skip
    s.add_argument("--no-first", action="store_true",
                   help="no rewrites guided by the source's first suggestion (kind guided)")  # fmt: skip
    s.add_argument("--guided-placed", action="store_true",
                   help="also the guided rewrites with the same first suggestions given as they stand in place "
                   "(inflected like the words they replace, as the builders give them since 2026-11-29); kind "
                   "guided-placed")  # fmt: skip
    s.add_argument("--no-respellings", action="store_true",
                   help="--guided-checked: not a suggestion that only respells its phrase (colour for color)")  # fmt: skip
    s.add_argument("--guided-suggestions", type=int, default=1,
                   help="--guided-checked: suggestions per question whose rewrites compete (best swap check first)")  # fmt: skip
    s.add_argument("--min-edit", type=float, default=MIN_EDIT, help="--rerank: the token edit rate to reach")
    s.add_argument("--langs", default="en,zh", help="which languages' questions (en, zh or both)")
    s.add_argument("--n", type=int, default=50, help="questions per language")
    s.add_argument("--zh-questions", choices=["dureader", "lcqmc"], default="dureader",
                   help="Chinese questions from DuReader-robust dev or LCQMC test (first questions)")  # fmt: skip
    s.add_argument("--beams", type=int, default=4)
    s.add_argument("--seed", type=int, default=13)
    s.add_argument("--tag", required=True)
    c = sub.add_parser("score")
    c.add_argument("--tag", required=True)
    args = ap.parse_args(argv)
    (make_sheet if args.cmd == "sheet" else score)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
