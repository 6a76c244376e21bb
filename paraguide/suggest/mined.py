"""Word pairs mined from paraphrase corpora: where two real paraphrases differ by one word between the same
words on both sides ("送**男朋友**什么礼物" / "送**男友**什么礼物"), the two words are a candidate pair, counted
over the corpus. ``mined`` (default for Chinese: LCQMC and BQ train positives; for English: the Quora
positives) is a PPDB-like source over that table (``word1 word2`` lines, cached under
``$PARAGUIDE_CACHE/mined/``).

Alone it is noisy (the context decides: "名字" / "动漫", "动物" / "十二生肖" come from pairs that are
paraphrases as wholes); as the partner of a lexicon (``cilin&mined``, suggest.Agreement) it confirms the
lexicon's synonyms that people really swap in questions (blind readings: docs/suggest.md, docs/build.md).
"""

from __future__ import annotations

import difflib
import hashlib
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from paraguide.data.fingerprint import file_sha256
from paraguide.data.io import atomic_write
from paraguide.data.shared import cache_dir, find_shared
from paraguide.text.tokenize import tokenize

# The corpora a language's `mined` source reads when none is given (shared data, train splits only).
DEFAULT_CORPORA = {
    "zh": ("lcqmc/train.tsv.gz", "bq_corpus/train.tsv.gz"),
    "en": ("quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz",),
}
VERSION = 1  # of the mining rule: a new one rebuilds the cached tables


def mine(pairs: Iterable[tuple[str, str]], lang: str) -> Counter:
    """``(word, other) -> count`` over paraphrase ``pairs`` in ``lang``, both directions: one word replaced by one word,
    with at least one word kept on each side of it (the two questions agree around the swap)."""
    counts: Counter = Counter()
    for a, b in pairs:
        x = [t.lower() for t in tokenize(a, lang)]
        y = [t.lower() for t in tokenize(b, lang)]
        matcher = difflib.SequenceMatcher(None, x, y, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            swap = op == "replace" and i2 - i1 == 1 and j2 - j1 == 1
            inside = i1 > 0 and i2 < len(x) and j2 < len(y)
            if swap and inside and any(c.isalnum() for c in x[i1] + y[j1]):
                counts[x[i1], y[j1]] += 1
                counts[y[j1], x[i1]] += 1
    return counts


def default_corpora(lang: str) -> list[Path]:
    """The shared data's paraphrase corpora that ``lang``'s ``mined`` source reads; a ValueError naming them
    where they are missing."""
    found = [find_shared(name) for name in DEFAULT_CORPORA.get(lang, ())]
    if not found or None in found:
        wanted = ", ".join(DEFAULT_CORPORA.get(lang, ())) or "none"
        raise ValueError(
            f"mined needs paraphrase pairs: --source mined:FILE[,FILE...] (default for {lang}: {wanted} in "
            "the shared data; set PARAGUIDE_SHARED_DATA)"
        )
    return found


def mined_table(corpora: Sequence[str | os.PathLike], lang: str, min_count: int = 1) -> Path:
    """The word-pair file of ``corpora`` (positive pairs in ``lang``, of any format :func:`read_pairs`
    reads; pairs seen at least ``min_count`` times), built once and cached; rebuilt when a corpus file
    changes."""
    from paraguide.data.pairs import read_pairs

    paths = [Path(p) for p in corpora]
    stamp = ";".join(f"{p.resolve()}:{file_sha256(p)}" for p in paths)  # rebuilt when a corpus changes
    digest = hashlib.sha1(f"v{VERSION}:{lang}:{min_count}:{stamp}".encode()).hexdigest()[:12]
    table = cache_dir("mined") / f"{lang}-{digest}.txt"
    if not table.exists():
        positives = (
            (p.a, p.b) for path in paths for p in read_pairs(path) if p.label is None or p.label == 1
        )
        counts = mine(positives, lang)
        lines = sorted(f"{a} {b}\n" for (a, b), n in counts.items() if n >= min_count and a < b)
        with atomic_write(table) as f:
            f.writelines(lines)
    return table
