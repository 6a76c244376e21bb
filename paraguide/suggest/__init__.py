"""Suggestion sources: TextRank key phrases and phrase alignments (training data); PPDB, lexicons and
context chunks arrive with the suggestion-sources work."""

from paraguide.suggest.alignment import AlignmentSuggester, Phrase, monolingual_alignment, occurs_in
from paraguide.suggest.textrank import KeyPhrase, TextRank

__all__ = ["AlignmentSuggester", "KeyPhrase", "Phrase", "TextRank", "monolingual_alignment", "occurs_in"]
