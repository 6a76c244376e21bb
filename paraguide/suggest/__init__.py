"""Suggestion sources. For training data: TextRank key phrases and phrase alignments. At use time, one
batch-first interface, ``source.suggest(questions, top_k)``: PPDB (and PPDB-like lists), WordNet and Cilin
synonyms, word pairs mined from paraphrase corpora, Chinese question words, adversarial context chunks
(which also take each question's context and answer), and their agreement (``A&B``) or union (``A|B``)."""

from pathlib import Path

from paraguide.suggest.agreement import Agreement, Union
from paraguide.suggest.alignment import AlignmentSuggester, Phrase, monolingual_alignment, occurs_in
from paraguide.suggest.base import Suggestion, SuggestionSource
from paraguide.suggest.context import ContextChunks, NearDistractor
from paraguide.suggest.interrogative import Interrogatives
from paraguide.suggest.lexicon import Cilin, WordNet
from paraguide.suggest.mined import default_corpora, mined_table
from paraguide.suggest.ppdb import PPDB, default_ppdb_path
from paraguide.suggest.textrank import KeyPhrase, TextRank

SOURCES = ("ppdb", "wordnet", "cilin", "mined", "interrogative", "context", "near")
# The synonyms a near-distractor source starts from: every sense of WordNet and PPDB (English), Cilin
# (Chinese); the distractor's sentence is the sense check. Not the mined pairs in Chinese: they pair words
# that occur together (卖 / 吃, 微信 / 加), which a passage says near anything (reading 2026-11-27zp).
NEAR_LEXICAL = {"en": "wordnet|ppdb", "zh": "cilin"}


def load_source(spec: str, **options) -> SuggestionSource:
    """A source from its spec.

    ``NAME[:PATH]``: ``ppdb[:FILE]`` (PPDB 2.0 rules, human labels or word pairs; English default: the
    shared data's PPDB synonym pairs), ``wordnet[:YAML_FOLDER]``, ``cilin[:FILE]``, ``mined[:FILE,...]``
    (word pairs mined from paraphrase corpora; default: the shared data's of the language),
    ``interrogative`` (question words swapped: a Chinese table, English what / which), ``context``. ``A&B``: the suggestions of A that B also
    makes (:class:`Agreement`); ``A|B``: A's suggestions, then B's (:class:`Union`); ``|`` binds looser
    than ``&``. Each source takes the ``options`` it uses: PPDB-like ones ``lang``, ``threshold``,
    ``relations`` ...; context ``lang`` and ``ner``; WordNet ``max_sense``; the others none.
    """
    if spec.split(":")[0] == "near":  # before | and &: they belong to its SPEC
        lang = options.get("lang", "en")
        lexical = load_source(spec.partition(":")[2] or NEAR_LEXICAL[lang], **{**options, "max_sense": None})
        return NearDistractor(lexical, lang=lang, ner=options.get("ner"))
    if "|" in spec:
        parts = [part.strip() for part in spec.split("|")]
        if "" in parts:
            raise ValueError(f"{spec!r}: a union needs two or more sources, as A|B")
        return Union(*(load_source(p, **options) for p in parts))
    if "&" in spec:
        parts = [part.strip() for part in spec.split("&")]
        if "" in parts or any(p.startswith(("context", "near")) for p in parts):
            raise ValueError(f"{spec!r}: agreement needs two or more lexical sources, as A&B")
        # WordNet takes synonyms from all its senses here: the other source is the sense check (a blind
        # reading found no loss against the first two senses, and more questions get a suggestion).
        sources = [load_source(p, **{**options, "max_sense": None}) for p in parts]
        return Agreement(*sources, lang=options.get("lang", "en"))
    name, _, path = spec.partition(":")
    lexical = {k: v for k, v in options.items() if k not in ("ner", "max_sense")}  # PPDB-like sources'
    if name == "mined":
        lang = options.get("lang", "en")
        corpora = path.split(",") if path else default_corpora(lang)
        source = PPDB(mined_table(corpora, lang), **lexical)
        source.name = "mined"
        source.files = tuple(Path(c) for c in corpora)  # what the word pairs were mined from
        return source
    if name == "ppdb":
        return PPDB(path or default_ppdb_path(options.get("lang", "en")), **lexical)
    if name == "wordnet":
        return WordNet(path or None, **{k: v for k, v in options.items() if k == "max_sense"})
    if name == "cilin":
        return Cilin(path or None)
    if name == "context":
        return ContextChunks(**{k: v for k, v in options.items() if k in ("lang", "ner")})
    if name == "interrogative":
        return Interrogatives(lang=options.get("lang", "zh"))
    raise ValueError(f"unknown suggestion source {name!r}; choose one of {', '.join(SOURCES)} (NAME[:PATH])")


__all__ = [
    "PPDB",
    "SOURCES",
    "Agreement",
    "AlignmentSuggester",
    "Cilin",
    "ContextChunks",
    "Interrogatives",
    "KeyPhrase",
    "NEAR_LEXICAL",
    "NearDistractor",
    "Phrase",
    "Suggestion",
    "SuggestionSource",
    "TextRank",
    "Union",
    "WordNet",
    "default_ppdb_path",
    "load_source",
    "monolingual_alignment",
    "occurs_in",
]
