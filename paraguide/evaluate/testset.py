"""A test set as ``paraguide build-testset`` wrote it: the original and paraphrased sets (SQuAD JSON, or a
pair file), ``id_map.json`` and ``provenance.jsonl``, read into one :class:`Item` per paraphrase with what
the report breaks the drop down by."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from paraguide.data.io import open_text, read_jsonl
from paraguide.data.pairs import read_pairs
from paraguide.data.squad import read_squad
from paraguide.errors import DataError
from paraguide.evaluate.predictions import _first

QA_FILES = ("original.json", "paraphrased.json")
TRAP_FILES = (
    "original.json",
    "trap.json",
)  # paraguide perturb --trap: the trap set stands for the paraphrased
QM_SUFFIXES = (".tsv", ".jsonl")
WH_WORDS = ("what", "which", "who", "whom", "whose", "when", "where", "why", "how")
# Chinese question words, with a gloss for plots drawn without a CJK font; the earliest in the question (the
# longest at one place) names its type.
ZH_QUESTION_WORDS = {
    "为什么": "weishenme (why)", "为何": "weihe (why)", "为啥": "weisha (why)", "怎么样": "zenmeyang (how is)",
    "怎么": "zenme (how)", "如何": "ruhe (how)", "怎样": "zenyang (how)", "什么": "shenme (what)",
    "啥": "sha (what)", "哪里": "nali (where)", "哪儿": "nar (where)", "哪个": "nage (which)", "哪": "na (which)",
    "谁": "shei (who)", "多少": "duoshao (how many)", "多久": "duojiu (how long)", "多长": "duochang (how long)",
    "几": "ji (how many)", "是否": "shifou (whether)", "能否": "nengfou (whether can)", "吗": "ma (yes/no)",
}  # fmt: skip


def question_type(question: str, lang: str) -> str:
    """The question word: English the first wh-word (``how many`` and ``how much`` kept whole), Chinese the
    earliest question word; ``other`` when there is none."""
    if lang == "zh":
        found = [(question.find(w), -len(w), w) for w in ZH_QUESTION_WORDS if w in question]
        return min(found)[2] if found else "other"
    words = re.findall(r"[a-z]+", question.lower())
    for i, word in enumerate(words):
        if word in WH_WORDS:
            if word == "how" and i + 1 < len(words) and words[i + 1] in ("many", "much"):
                return f"how {words[i + 1]}"
            return word
    return "other"


@dataclass
class Item:
    """One paraphrased question (QM: pair) and its original: their ids, texts and provenance."""

    id: str
    original_id: str
    original: str
    paraphrase: str
    similarity: float | None = None
    source: str = "unknown"
    step: int | None = None
    category: str | None = None


@dataclass
class TestSet:
    """A build folder: ``qa`` sets (answers per id) or ``qm`` sets (labels per 1-based line), one item per
    paraphrase. ``similarity_key``: the provenance score used as the paraphrase similarity."""

    folder: str
    task: str
    lang: str
    original_path: str
    paraphrased_path: str
    original: dict[str, list[str]] | dict[str, int]
    paraphrased: dict[str, list[str]] | dict[str, int]
    items: list[Item]
    similarity_key: str | None = None
    categories: dict[str, str] = field(default_factory=dict)  # QM: original line -> category

    @property
    def id_map(self) -> dict[str, str]:
        return {item.id: item.original_id for item in self.items}


def squad_references(path: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """``{id: answer texts}`` (``[]`` for a question marked ``is_impossible``) and ``{id: question}``;
    questions with no answers that are not marked no-answer are a :class:`DataError`."""
    records, _ = read_squad(path)
    references, questions, unanswered = {}, {}, []
    for r in records:
        qid = str(r["id"])
        texts = [a["text"] for a in r["answers"]]
        if not texts and not r.get("is_impossible"):
            unanswered.append(qid)
        references[qid], questions[qid] = texts, r["question"]
    if unanswered:
        raise DataError(path, f"{len(unanswered)} of {len(records)} questions have no answers, a test set "
                              f"needs them (SQuAD 2.0 no-answer questions carry is_impossible: true) "
                              f"(first: {_first(unanswered)})", field="answers")  # fmt: skip
    return references, questions


def pair_labels(path: str) -> tuple[dict[str, int], dict[str, tuple[str, str]], dict[str, str]]:
    """``{line: label}``, ``{line: (a, b)}`` and ``{line: category}`` (JSONL ``category`` fields) of a pair
    file, lines counted from 1 over its pairs; a pair without a label is a :class:`DataError`."""
    labels, texts, categories = {}, {}, {}
    for n, pair in enumerate(read_pairs(path, labels=None), start=1):
        if pair.label is None:
            line = int(pair.origin.rsplit(":", 1)[1]) if pair.origin else None
            raise DataError(path, "pair without a label: a test set needs its gold labels", line=line)
        labels[str(n)], texts[str(n)] = pair.label, (pair.a, pair.b)
    if path.endswith(".jsonl"):
        for n, (_, obj) in enumerate(read_jsonl(path), start=1):
            if obj.get("category") is not None:
                categories[str(n)] = str(obj["category"])
    return labels, texts, categories


def _find(folder: Path, stem: str) -> str:
    for suffix in QM_SUFFIXES:
        if (folder / f"{stem}{suffix}").is_file():
            return str(folder / f"{stem}{suffix}")
    raise DataError(str(folder), f"no {stem}.json, {stem}.tsv or {stem}.jsonl: not a build-testset folder")


def _read_id_map(path: str) -> dict[str, str]:
    if not os.path.isfile(path):
        raise DataError(path, "file not found (the build folder's id map)")
    with open_text(path) as f:
        try:
            obj = json.load(f)
        except json.JSONDecodeError as e:
            raise DataError(path, f"not JSON: {e.msg} (column {e.colno})", line=e.lineno) from None
    if not isinstance(obj, dict):
        raise DataError(path, "the id map must be a JSON object {new id: original id}")
    return {str(k): str(v) for k, v in obj.items()}


def _run(folder: Path) -> dict:
    """The build's ``run.json`` (empty when there is none: a test set put together by hand). A run that has
    not finished is a :class:`DataError`: its files hold part of the questions, or none yet."""
    path = folder / "run.json"
    try:
        with open(path, encoding="utf-8") as f:
            run = json.load(f)
    except (OSError, ValueError):
        return {}
    if not isinstance(run, dict):
        return {}
    if not run.get("finished"):
        raise DataError(str(path), f"the paraguide {run.get('job', '')} run in {folder} has not finished (a "
                                   "crash, or still running): finish it with the same command plus --resume, "
                                   "then evaluate")  # fmt: skip
    return run


def _lang(run: dict) -> str | None:
    try:
        return run["config"]["lang"]
    except (KeyError, TypeError):
        return None


def _similarity_key(provenance: dict[str, dict]) -> str | None:
    # The first score that is not the fluency filter's: the similarity scorer the build selected by.
    for record in provenance.values():
        for key in record.get("scores") or {}:
            if key != "fluency":
                return key
    return None


def read_testset(folder: str | os.PathLike, lang: str | None = None) -> TestSet:
    """Read a build folder (``lang``: default the build's, from ``run.json``, else English)."""
    root = Path(folder)
    if not root.is_dir():
        raise DataError(str(root), "not a folder (the output folder of paraguide build-testset)")
    run = _run(root)
    lang = lang or _lang(run) or "en"
    id_map_path = str(root / "id_map.json")
    qa_files = QA_FILES if (root / QA_FILES[1]).is_file() else TRAP_FILES  # a perturb --trap folder
    if all((root / name).is_file() for name in qa_files):
        task = "qa"
        original_path, paraphrased_path = (str(root / name) for name in qa_files)
        original, original_q = squad_references(original_path)
        paraphrased, paraphrased_q = squad_references(paraphrased_path)
        categories: dict[str, str] = {}
    else:
        task = "qm"
        original_path, paraphrased_path = _find(root, "original"), _find(root, "paraphrased")
        original, original_pairs, categories = pair_labels(original_path)
        paraphrased, paraphrased_pairs, _ = pair_labels(paraphrased_path)
        if len(original) != len(paraphrased):
            raise DataError(paraphrased_path, f"{len(paraphrased)} pairs, but {original_path} has "
                                              f"{len(original)}: the two sets must match line by line")  # fmt: skip
    id_map = _read_id_map(id_map_path)
    if task == "qa":
        unknown = [k for k in id_map if k not in paraphrased]
        unknown_old = [v for v in id_map.values() if v not in original]
        where_new, where_old = paraphrased_path, original_path
    else:
        # Pairs: the key is a line of the written files (the value, the pair number in the build's input).
        unknown = [k for k in id_map if k not in paraphrased]
        unknown_old, where_new, where_old = [], paraphrased_path, original_path
    if unknown or unknown_old:
        ids, where = (unknown, where_new) if unknown else (unknown_old, where_old)
        raise DataError(id_map_path, f"{len(ids)} of its {len(id_map)} entries name questions that are not in "
                                     f"{where} (first: {_first(ids)})")  # fmt: skip
    if len(id_map) != len(paraphrased):
        missing = [k for k in paraphrased if k not in id_map]
        raise DataError(id_map_path, f"{len(missing)} questions of {paraphrased_path} are not in the id map "
                                     f"(first: {_first(missing)})")  # fmt: skip

    provenance: dict[str, dict] = {}
    provenance_path = root / "provenance.jsonl"
    if provenance_path.is_file():
        for _, record in read_jsonl(provenance_path, None):
            key = str(record.get("id", ""))
            if task == "qm":
                key = key.split(":")[0]  # "LINE:side"; a pair with both sides paraphrased: its first record
            provenance.setdefault(key, record)
    similarity_key = _similarity_key(provenance)

    items = []
    for new, old in id_map.items():
        if task == "qa":
            texts = original_q[old], paraphrased_q[new]
            old_key = old
        else:
            old_key = new  # the written original file holds line N's original on its line N
            (a0, b0), (a1, b1) = original_pairs[new], paraphrased_pairs[new]
            texts = (a0, a1) if a0 != a1 or b0 == b1 else (b0, b1)
        record = provenance.get(new, {})
        score = (record.get("scores") or {}).get(similarity_key) if similarity_key else None
        step = record.get("step")
        items.append(
            Item(
                id=new,
                original_id=old_key,
                original=record.get("original", texts[0]),
                paraphrase=record.get("paraphrase", texts[1]),
                similarity=float(score) if isinstance(score, (int, float)) else None,
                source=str(record.get("suggestion_source") or "unknown"),
                step=int(step) if isinstance(step, int) else None,
                category=categories.get(old_key),
            )
        )
    return TestSet(str(root), task, lang, original_path, paraphrased_path, original, paraphrased, items,
                   similarity_key, categories)  # fmt: skip
