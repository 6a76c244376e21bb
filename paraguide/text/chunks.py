"""Noun- and verb-phrase chunks of a text (a chunk grammar over POS tags; Chinese: jieba's parts of speech
mapped onto the same grammar), and the sentence spans of a context."""

from __future__ import annotations

import re

# A noun-phrase / verb-phrase grammar over Penn Treebank tags (CoNLL-2000 chunk F1 in docs/suggest.md).
GRAMMAR = r"""
NP: {<PDT>?<DT|PRP\$|POS>?<CD|JJ.*|VBN|VBG|NN.*>*<NN.*|CD>}
    {<PRP|EX|WP>}
VP: {<MD|TO>?<RB.*>*<VB.*>+(<RB.*>*<VB.*>+)*}
"""


def chunk(text: str, lang: str = "en", tagged: list | None = None) -> list[tuple[str, str, int, int]]:
    """``(phrase, label, start token, end token)`` noun (NP) and verb (VP) phrases of ``text`` in ``lang``;
    ``tagged``: its ``pos_tag`` tokens when the caller already has them."""
    import nltk

    from paraguide.text.pos import pos_tag

    tagged = tagged if tagged is not None else pos_tag(text, lang)
    if lang == "zh":  # jieba flags to the Penn-style tags the grammar knows
        zh = {
            "n": "NN",
            "v": "VB",
            "a": "JJ",
            "m": "CD",
            "q": "NN",
            "r": "PRP",
            "p": "IN",
            "d": "RB",
            "t": "NN",
        }
        tags = [zh.get(t.tag[:1], t.tag[:1].upper() or "X") for t in tagged]
    else:
        tags = [t.tag for t in tagged]
    tree = nltk.RegexpParser(GRAMMAR).parse(list(zip(range(len(tagged)), tags, strict=True)))
    out = []
    for node in tree:
        if isinstance(node, nltk.Tree) and node.label() in ("NP", "VP"):
            idx = [i for i, _ in node.leaves()]
            words = [tagged[i].text for i in idx]
            phrase = "".join(words) if lang == "zh" else " ".join(words)
            out.append((phrase, node.label(), idx[0], idx[-1] + 1))
    return out


def sentences(text: str, lang: str = "en") -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the sentences of ``text`` (a context) in language ``lang``."""
    splitter = r"(?<=[。！？!?])" if lang == "zh" else r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(])"
    spans, start = [], 0
    for m in re.finditer(splitter, text):
        if m.end() > start:
            spans.append((start, m.start() if lang != "zh" else m.end()))
            start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]
