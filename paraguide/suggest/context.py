"""Adversarial suggestions from the context (Gan & Ng §3.1.2): phrases near a distractor answer.

For a question with its context and answer:

1. type the answer -- date, year, time, percent, money, quantity, ordinal, number, person, organization,
   location, other name, or other -- with rules that need no download (:mod:`paraguide.text.entities`; a
   spaCy NER pipeline instead, when one is installed and named: ``ContextChunks(ner="en_core_web_sm")``);
2. find the context's entities of the same type that share no word with the answer (the distractors);
3. take the sentences that hold them, chunk them into noun and verb phrases (:mod:`paraguide.text.chunks`),
   and keep phrases of at least 2 words that do not overlap the answer or the distractor and share no
   content word with the answer, ranked by their distance to the distractor (nearest first, score
   1 / (1 + tokens between)).

A paraphrase that uses such a phrase pulls the question towards the distractor's sentence: an adversarial
test of whether a QA model reads the question or matches words.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from paraguide.arguments import texts
from paraguide.suggest.base import Suggestion, SuggestionSource
from paraguide.text.chunks import GRAMMAR, chunk, sentences
from paraguide.text.entities import ANSWER_TYPES, NAME_TYPES, Entity, EntityFinder
from paraguide.text.match import contains
from paraguide.text.stopwords import is_word
from paraguide.text.substitute import lemmas
from paraguide.text.tokenize import tokenize, tokenize_spans

# Answer typing and entities live in paraguide.text.entities, chunking in paraguide.text.chunks; their names
# stay importable from here.
__all__ = [
    "ANSWER_TYPES",
    "GRAMMAR",
    "NAME_TYPES",
    "ContextChunks",
    "Entity",
    "NearDistractor",
    "EntityFinder",
    "chunk",
    "sentences",
]


def _passages(questions, contexts, answers, answer_starts, what: str) -> tuple[list[str], Sequence]:
    """The questions and each one's answer offset (None where unknown); ValueError naming ``what`` when the
    contexts or answers are missing: a context source reads each question's passage and answer."""
    questions = texts(questions, "questions")
    if contexts is None or answers is None:
        raise ValueError(f"{what} need each question's context and answer")
    return questions, answer_starts or [None] * len(questions)


def _answer_start(context: str, answer: str, start: int | None) -> int | None:
    """The answer's character offset: ``start`` where the answer is there, else its first occurrence (None
    where it is nowhere)."""
    if start is None or context[start : start + len(answer)] != answer:
        start = context.find(answer)
    return start if start >= 0 else None


class ContextChunks:
    """Adversarial suggestions: ``ContextChunks().suggest(questions, contexts=[...], answers=[...])``.

    ``lang``: "en" or "zh"; ``ner``: a locally installed spaCy pipeline to type entities with instead of the
    rules; ``min_words``: the fewest words a suggested phrase has."""

    name = "context"
    needs_context = True  # suggest() takes each question's passage and answer

    def __init__(self, lang: str = "en", ner: str | None = None, min_words: int = 2, finder=None):
        self.lang, self.min_words = lang, min_words
        self.finder = finder or EntityFinder(lang, ner)  # ``finder``: one built already (its pipeline loaded)
        self.files = (Path(ner),) if ner and Path(ner).exists() else ()  # a local spaCy pipeline

    def _content(self, text: str) -> set[str]:
        """Words that count for overlap: not stop words; Chinese single characters (年, 的, 个: units and
        particles) do not count either."""
        words = {w.lower() for w in tokenize(text, self.lang)} - self.finder.stopwords
        return {w for w in words if is_word(w) and (self.lang != "zh" or len(w) > 1)}

    def distractors(self, context: str, answer: str, answer_start: int | None = None) -> list[Entity]:
        """Entities of the answer's type in ``context`` that share no word with ``answer`` and do not overlap it
        at ``answer_start`` (its character offset, when known)."""
        kind = self.finder.answer_type(answer)
        if kind == "other":
            return []
        words = self._content(answer)
        out = []
        for e in self.finder.entities(context):
            if e.type != kind or words & self._content(e.text):
                continue
            if answer_start is not None and e.start < answer_start + len(answer) and answer_start < e.end:
                continue
            out.append(e)
        return out

    def suggest(
        self,
        questions: Sequence[str],
        top_k: int | None = None,
        contexts: Sequence[str] | None = None,
        answers: Sequence[str] | None = None,
        answer_starts: Sequence[int | None] | None = None,
    ) -> list[list[Suggestion]]:
        """Ranked suggestions for each question, best first (at most ``top_k``). ``contexts`` and ``answers``
        (required): each question's context and answer; ``answer_starts``: the answers' character offsets
        in their contexts, where known (else the answer's first occurrence)."""
        questions, starts = _passages(questions, contexts, answers, answer_starts, "context suggestions")
        results = []
        for question, context, answer, start in zip(questions, contexts, answers, starts, strict=True):
            results.append(self._one(question, context, answer, start)[:top_k] if top_k else self._one(question, context, answer, start))  # fmt: skip
        return results

    def _one(self, question: str, context: str, answer: str, answer_start: int | None) -> list[Suggestion]:
        answer_start = _answer_start(context, answer, answer_start)
        from paraguide.text.pos import pos_tag

        answer_words = self._content(answer)
        sentence_spans = sentences(context, self.lang)
        parsed: dict[tuple[int, int], tuple[list[tuple[int, int]], list]] = {}  # each sentence tagged once
        best: dict[str, Suggestion] = {}
        for entity in self.distractors(context, answer, answer_start):
            s_start, s_end = next(((s, e) for s, e in sentence_spans if s <= entity.start < e), (0, len(context)))  # fmt: skip
            if (s_start, s_end) not in parsed:
                sentence = context[s_start:s_end]
                tagged = pos_tag(sentence, self.lang)
                parsed[s_start, s_end] = (
                    [(t.start, t.end) for t in tagged],
                    chunk(sentence, self.lang, tagged),
                )
            spans, chunks = parsed[s_start, s_end]
            e_tokens = [
                i for i, (a, b) in enumerate(spans) if a < entity.end - s_start and entity.start - s_start < b
            ]
            if not e_tokens:
                continue
            for phrase, label, i, j in chunks:
                if j - i < self.min_words:
                    continue
                c_start, c_end = s_start + spans[i][0], s_start + spans[j - 1][1]
                if answer_start is not None and c_start < answer_start + len(answer) and answer_start < c_end:
                    continue  # overlaps the answer itself
                if answer_words & self._content(phrase) or contains(phrase, answer, self.lang):
                    continue  # would leak the answer
                if i <= e_tokens[-1] and e_tokens[0] < j:
                    continue  # the distractor itself would change what is asked
                distance = max(0, i - e_tokens[-1] - 1, e_tokens[0] - j)
                score = round(1 / (1 + distance), 4)
                if phrase not in best or best[phrase].score < score:
                    best[phrase] = Suggestion(
                        phrase, entity.text, None, score, self.name, f"{entity.type} {label}"
                    )
        return sorted(best.values(), key=lambda s: (-s.score, s.text))


# Units: WordNet puts "minute" and "second" in one synset ("moment"), and a passage that counts seconds near a
# distractor offers it for "minutes" -- another question ("in the last three minutes" -> "seconds", reading
# 2026-11-27zo). A unit is never swapped, nor swapped in.
_UNITS = frozenset(
    ["second", "minute", "hour", "day", "week", "month", "year", "decade", "century", "millennium", "inch",
     "foot", "feet", "yard", "mile", "metre", "meter", "kilometre", "kilometer", "centimetre", "centimeter",
     "millimetre", "millimeter", "acre", "hectare", "gram", "kilogram", "pound", "ounce", "ton", "tonne",
     "litre", "liter", "gallon", "degree", "percent", "dollar", "cent", "euro"]
)  # fmt: skip
# Chinese: Cilin puts 时间 and 年月 together ("领取时间" -> "领取年月" asks for a month, reading 2026-11-27zp).
_UNITS_ZH = frozenset(
    ["秒", "秒钟", "分", "分钟", "小时", "钟头", "天", "日", "号", "周", "星期", "礼拜", "月", "月份", "年",
     "年份", "年月", "年代", "世纪", "时间", "日期", "时候", "米", "公里", "千米", "厘米", "毫米", "里", "亩",
     "公顷", "克", "千克", "公斤", "斤", "两", "吨", "升", "毫升", "元", "块", "角", "度", "岁"]
)  # fmt: skip


class NearDistractor:
    """Adversarial swaps (Gan & Ng §3.2, their figure 8: "In what year did Doctor Who begin *being shown* in
    HDTV?" -> "Since what year has Doctor Who *been televised* in HDTV?", the words the context uses near
    the wrong year 1963): a word of the question replaced by a synonym the context says near a same-type
    distractor, and not in the answer's sentence.

    ``lexical``: where the synonyms come from (English: WordNet, all senses, and PPDB; Chinese: Cilin and
    the mined pairs -- the context is the sense check here, and the generator's filters the rest). Each
    suggestion keeps the question's span, so the generator puts it in place like any synonym (inflected
    like the word it replaces): the question still asks the same thing, in the words of the distractor's
    sentence -- the string match an extractive QA model leans on, pointed at the wrong answer. Scored by
    the nearest distance to the distractor, 1 / (1 + tokens between)."""

    name = "near"
    needs_context = True

    def __init__(self, lexical: SuggestionSource, lang: str = "en", ner: str | None = None, finder=None):
        self.lexical, self.lang = lexical, lang
        self.chunks = ContextChunks(lang, ner, finder=finder)
        self.files = tuple(getattr(lexical, "files", ())) + self.chunks.files

    def suggest(
        self,
        questions: Sequence[str],
        top_k: int | None = None,
        contexts: Sequence[str] | None = None,
        answers: Sequence[str] | None = None,
        answer_starts: Sequence[int | None] | None = None,
    ) -> list[list[Suggestion]]:
        """Ranked suggestions for each question, nearest first (at most ``top_k``); ``contexts`` and
        ``answers`` are required, ``answer_starts`` as for :class:`ContextChunks`."""
        questions, starts = _passages(
            questions, contexts, answers, answer_starts, "near-distractor suggestions"
        )
        synonyms = self.lexical.suggest(questions)
        results = []
        for found, context, answer, start in zip(synonyms, contexts, answers, starts, strict=True):
            kept = self._one(found, context, answer, start) if found else []
            results.append(kept[:top_k] if top_k else kept)
        return results

    def _one(self, found: list[Suggestion], context: str, answer: str, start: int | None) -> list[Suggestion]:
        start = _answer_start(context, answer, start)
        spans = sentences(context, self.lang)
        answer_words: set[str] = set()
        if start is not None:
            a, b = next(((s, e) for s, e in spans if s <= start < e), (0, len(context)))
            answer_words = {k for t in tokenize(context[a:b], self.lang) for k in self._keys(t)}
        candidates = [
            s
            for s in found
            if s.span is not None
            and s.matched
            and not self._same_word(s.matched, s.text)
            and not self._unit(s)
        ]
        best: dict[tuple[str, str], Suggestion] = {}
        tagged: dict[int, list] = {}  # each distractor sentence's tokens (offsets only: no tagger), once
        for entity in self.chunks.distractors(context, answer, start):
            a, b = next(((s, e) for s, e in spans if s <= entity.start < e), (0, len(context)))
            tokens = tagged.setdefault(a, tokenize_spans(context[a:b], self.lang))
            at = [i for i, t in enumerate(tokens) if t.start < entity.end - a and entity.start - a < t.end]
            if not at:
                continue
            where: dict[str, list[int]] = {}
            for i, t in enumerate(tokens):
                for k in self._keys(t.text):
                    where.setdefault(k, []).append(i)
            for s in candidates:
                # its content words (a stop word, "out" of "set out", is said everywhere)
                keys = [k for k in map(self._keys, tokenize(s.text, self.lang)) if k]
                if not keys or any(not k & where.keys() or k & answer_words for k in keys):
                    continue  # not said near the distractor, or said in the answer's sentence too
                positions = [i for k in keys for key in k & where.keys() for i in where[key]]
                distance = min(max(0, i - at[-1] - 1, at[0] - i - 1) for i in positions)  # tokens between
                score = round(1 / (1 + distance), 4)
                key = (s.matched.lower(), s.text.lower())
                if key not in best or best[key].score < score:
                    best[key] = Suggestion(
                        s.text, s.matched, s.span, score, self.name, f"{entity.type} near {entity.text!r}"
                    )
        return sorted(best.values(), key=lambda s: (-s.score, s.text))

    def _keys(self, word: str) -> frozenset[str]:
        """What a word is matched by: its lemmas (English), the word itself (Chinese); nothing for a stop
        word or punctuation."""
        word = word.lower()
        if word in self.chunks.finder.stopwords or not is_word(word):
            return frozenset()
        return lemmas(word) if self.lang == "en" and word.isalpha() else frozenset([word])

    def _unit(self, s: Suggestion) -> bool:
        """Does the suggestion or the phrase it replaces name a unit (of time, length, weight, money ...)?"""
        if self.lang != "en":
            # a unit, or a count of one (几天, 多少年)
            return any(w.removeprefix("多少").removeprefix("几") in _UNITS_ZH for w in (s.matched, s.text))
        words = tokenize(f"{s.matched} {s.text}", self.lang)
        return any(self._keys(w) & _UNITS for w in words)

    def _same_word(self, matched: str, text: str) -> bool:
        """Another form of the same word ("proved" -> "proven", "justify" -> "justification", "center" ->
        "centre"): no synonym, and the in-place swap would only change its form."""
        a, b = matched.lower(), text.lower()
        if self.lang != "en":
            return a == b
        if self._keys(a) & self._keys(b):
            return True
        common = len(os.path.commonprefix([a, b]))
        return common >= 4 and common >= 0.6 * min(len(a), len(b))
