"""Shared test setup: offline, and the shared datasets when they are beside the checkout.

Helpers that tests import (ROOT, SHARED, shared) live in helpers.py; this file keeps fixtures and setup."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import SHARED

os.environ.setdefault("HF_HUB_OFFLINE", "1")

# NLTK's tagger data lives in shared data; point NLTK at it unless the user already did.
if (SHARED / "nltk_data").is_dir():
    os.environ.setdefault("NLTK_DATA", str(SHARED / "nltk_data"))


@pytest.fixture
def write(tmp_path):
    """write(name, text or bytes) -> path of a file in the test's temporary folder."""

    def _write(name: str, content) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write


# The shared files the perturbation operations read, by language (and, for English, NLTK's POS tagger): one Resources per language for the whole
# test session (each lexicon loads once, on first use), and every test that uses one skips, naming the file,
# when any of them is missing.
PERTURB_FILES = {
    "en": (
        "nltk_data/corpora/words.zip",
        "open_english_wordnet/yaml",
        "en_lexical_constraints/ppdb_synonyms.txt",
        "en_lexical_constraints/wordnet_antonyms.txt",
        "squad_v1.1/train-v1.1.reconstructed.json.gz",
        "quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz",
    ),
    "zh": (
        "zh_cilin/hit_cilin_extended.utf8.txt",
        "zh_cilin/antonym.txt",
        "lcqmc/train.tsv.gz",
        "pycorrector_confusion/same_pinyin.txt",
    ),
}


def _resources(lang: str):
    from helpers import en_tagger, shared

    from paraguide.perturb.resources import Resources

    for path in PERTURB_FILES[lang]:
        shared(path)
    if lang == "en":
        en_tagger()
    return Resources(lang)


@pytest.fixture(scope="session")
def tagger():
    """NLTK's English POS tagger is there (the test skips, saying so, where it is not)."""
    from helpers import en_tagger

    en_tagger()


@pytest.fixture(scope="session")
def en_resources():
    """The English perturbation lexicons (paraguide.perturb.resources.Resources), shared by all tests."""
    return _resources("en")


@pytest.fixture(scope="session")
def zh_resources():
    """The Chinese perturbation lexicons, shared by all tests."""
    return _resources("zh")
