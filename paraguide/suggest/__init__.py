"""Suggestion sources. For training data: TextRank key phrases and phrase alignments. At use time, one
batch-first interface, ``source.suggest(questions, top_k)``: PPDB (and PPDB-like lists), WordNet and Cilin
synonyms, and adversarial context chunks (which also take each question's context and answer)."""

from paraguide.suggest.alignment import AlignmentSuggester, Phrase, monolingual_alignment, occurs_in
from paraguide.suggest.base import Suggestion, SuggestionSource
from paraguide.suggest.context import ContextChunks
from paraguide.suggest.lexicon import Cilin, WordNet
from paraguide.suggest.ppdb import PPDB
from paraguide.suggest.textrank import KeyPhrase, TextRank

SOURCES = ("ppdb", "wordnet", "cilin", "context")


def load_source(spec: str, **options) -> SuggestionSource:
    """A source from ``NAME[:PATH]``: ``ppdb:FILE`` (PPDB 2.0 rules, human labels or word pairs),
    ``wordnet[:YAML_FOLDER]``, ``cilin[:FILE]``. ``options`` go to the source (e.g. ``threshold``)."""
    name, _, path = spec.partition(":")
    if name == "ppdb":
        if not path:
            raise ValueError("ppdb needs its file: --source ppdb:PATH")
        return PPDB(path, **options)
    if name == "wordnet":
        return WordNet(path or None)
    if name == "cilin":
        return Cilin(path or None)
    if name == "context":
        return ContextChunks(**options)
    raise ValueError(f"unknown suggestion source {name!r}; choose one of {', '.join(SOURCES)} (NAME[:PATH])")


__all__ = [
    "PPDB",
    "SOURCES",
    "AlignmentSuggester",
    "Cilin",
    "ContextChunks",
    "KeyPhrase",
    "Phrase",
    "Suggestion",
    "SuggestionSource",
    "TextRank",
    "WordNet",
    "load_source",
    "monolingual_alignment",
    "occurs_in",
]
