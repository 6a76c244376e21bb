"""Phrase keys and the Bloom filter over them that lets a PPDB source rule out, in numpy and for a whole batch
of questions, the n-grams that are no phrase of its index before any string is built or SQLite is asked.

A phrase's key: a CRC-32 per token, folded left to right (mod 2**64) and mixed (splitmix64's finaliser).
Folding token hashes lets a batch of questions key all its n-grams at once (the PPDB source folds with
:data:`FOLD` and :func:`mix_keys`), and the index's phrases get the same keys from their space-separated
tokens (:func:`phrase_keys`). Stable across processes, unlike Python's salted hash.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator, Sequence

import numpy as np

FOLD = 0x100000001B3  # the 64-bit FNV prime: odd, so the fold loses nothing mod 2**64


def mix_keys(keys: np.ndarray) -> np.ndarray:
    """Folded token hashes (``uint64``) mixed into phrase keys (splitmix64's finaliser)."""
    keys = keys ^ (keys >> np.uint64(30))
    keys = keys * np.uint64(0xBF58476D1CE4E5B9)
    keys = keys ^ (keys >> np.uint64(27))
    keys = keys * np.uint64(0x94D049BB133111EB)
    return keys ^ (keys >> np.uint64(31))


def phrase_keys(phrases: Sequence[str]) -> np.ndarray:
    """The key of each phrase (tokens separated by single spaces), as the PPDB source computes it for a
    question's n-grams."""
    mask, keys = (1 << 64) - 1, []
    for phrase in phrases:
        key = 0
        for token in phrase.split(" "):
            key = (key * FOLD + zlib.crc32(token.encode())) & mask
        keys.append(key)
    return mix_keys(np.array(keys, dtype=np.uint64))


class PhraseFilter:
    """A Bloom filter over phrase keys, kept in memory: never a false negative, a few false positives (which
    the index lookup then answers). ``bits``: the filter's bytes (``uint8``, a power of two long)."""

    PROBES = 7

    def __init__(self, bits: np.ndarray):
        self.bits = bits
        self.mask = np.uint64(len(bits) * 8 - 1)

    @classmethod
    def empty(cls, phrases: int) -> PhraseFilter:
        """An empty filter sized for ``phrases`` phrases (at least 10 bits each)."""
        return cls(np.zeros(1 << max(10, math.ceil(math.log2(max(phrases, 1) * 10)) - 3), dtype=np.uint8))

    def _positions(self, keys: np.ndarray) -> Iterator[np.ndarray]:
        h1, h2 = keys & np.uint64(0xFFFFFFFF), (keys >> np.uint64(32)) | np.uint64(1)  # double hashing
        for i in range(self.PROBES):
            yield (h1 + np.uint64(i) * h2) & self.mask

    def add(self, keys: np.ndarray) -> None:
        """Add phrase ``keys`` (from :func:`phrase_keys`) to the filter."""
        for pos in self._positions(keys):
            np.bitwise_or.at(
                self.bits, pos >> np.uint64(3), np.left_shift(1, pos & np.uint64(7)).astype(np.uint8)
            )

    def may_contain(self, keys: np.ndarray) -> np.ndarray:
        """A boolean per key of ``keys``: False means certainly not in the index."""
        keep = np.ones(len(keys), dtype=bool)
        for pos in self._positions(keys):
            keep &= (self.bits[pos >> np.uint64(3)] >> (pos & np.uint64(7)).astype(np.uint8)) & 1 == 1
        return keep
