"""Adversarial suggestions from the context (Gan & Ng §3.1.2): phrases near a distractor answer.

For a question with its context and answer:

1. type the answer -- date, year, time, percent, money, quantity, ordinal, number, person, organization,
   location, other name, or other -- with rules that need no download (a spaCy NER pipeline instead, when
   one is installed and named: ``ContextChunks(ner="en_core_web_sm")``);
2. find the context's entities of the same type that share no word with the answer (the distractors);
3. take the sentences that hold them, chunk them into noun and verb phrases (NLTK's tagger + a chunk
   grammar; Chinese: jieba's parts of speech), and keep phrases of at least 2 words that do not overlap
   the answer or the distractor and share no content word with the answer, ranked by their distance to
   the distractor (nearest first, score 1 / (1 + tokens between)).

A paraphrase that uses such a phrase pulls the question towards the distractor's sentence: an adversarial
test of whether a QA model reads the question or matches words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from paraguide.suggest.base import Suggestion
from paraguide.text.match import contains
from paraguide.text.stopwords import is_word, load_stopwords
from paraguide.text.tokenize import tokenize

ANSWER_TYPES = (
    "date", "year", "time", "percent", "money", "quantity", "ordinal", "number",
    "person", "organization", "location", "other_name", "other",
)  # fmt: skip
NAME_TYPES = ("person", "organization", "location", "other_name")

_MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"  # noqa: E501
_NUMWORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen)"  # noqa: E501
_NUM = rf"(?:\d[\d,]*(?:\.\d+)?|{_NUMWORD}(?:[- ]{_NUMWORD})*)"
_SCALE = r"(?:\s(?:hundred|thousand|million|billion|trillion))?"
_UNIT = r"(?:km|kilometers?|kilometres?|miles?|m|meters?|metres?|cm|mm|feet|foot|ft|inches?|yards?|kg|kilograms?|g|grams?|tons?|tonnes?|pounds?|lbs?|ounces?|acres?|hectares?|square \w+|cubic \w+|liters?|litres?|gallons?|mph|km/h|degrees?|°[CF]?|watts?|kW|MW|GW|volts?|bytes?|MB|GB|years?|months?|weeks?|days?|hours?|minutes?|seconds?|people|persons|students|members|employees|soldiers|troops|species|copies|votes|times)"  # noqa: E501
# Numeric types, most specific first: the first pattern that matches a span types it.
_PATTERNS = [
    ("percent", rf"{_NUM}\s?(?:%|percent\b|per cent\b)"),
    (
        "money",
        rf"(?:[$£€¥]\s?{_NUM}{_SCALE}|{_NUM}{_SCALE}\s(?:dollars|euros|pounds sterling|pounds|yen|yuan|cents|francs|marks|rupees)\b)",
    ),  # noqa: E501
    (
        "date",
        rf"(?:{_MONTH}\.?\s\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s\d{{3,4}})?|\d{{1,2}}(?:st|nd|rd|th)?\s(?:of\s)?{_MONTH}(?:,?\s\d{{3,4}})?|{_MONTH}\s\d{{4}}|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}})\b",
    ),  # noqa: E501
    (
        "time",
        r"(?:\d{1,2}(?::\d{2})?\s?(?:a\.m\.|p\.m\.|am\b|pm\b)|\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b|\d{1,2}\so'clock)",
    ),  # noqa: E501
    ("year", r"\b(?:1\d{3}|20\d{2})s?\b"),
    ("quantity", rf"{_NUM}{_SCALE}[\s-]{_UNIT}\b"),
    (
        "ordinal",
        r"\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|twentieth|hundredth|last)\b",
    ),  # noqa: E501
    ("number", rf"\b{_NUM}{_SCALE}\b"),
]
_COMPILED = [(t, re.compile(p, re.IGNORECASE)) for t, p in _PATTERNS]

_ORG = {
    "university",
    "college",
    "school",
    "institute",
    "company",
    "corporation",
    "corp",
    "inc",
    "ltd",
    "party",
    "association",
    "council",
    "church",
    "army",
    "navy",
    "committee",
    "league",
    "agency",
    "bank",
    "group",
    "society",
    "club",
    "foundation",
    "ministry",
    "department",
    "court",
    "congress",
    "parliament",
    "senate",
    "government",
    "union",
    "organization",
    "organisation",
    "federation",
    "academy",
    "museum",
    "hospital",
    "orchestra",
    "band",
    "team",
    "fc",
    "nations",
    "commission",
    "board",
    "office",
    "bureau",
    "administration",
    "authority",
    "institution",
    "press",
    "network",
    "airlines",
    "records",
    "studios",
}  # noqa: E501
_LOC = {
    "river",
    "mountain",
    "mountains",
    "mount",
    "city",
    "county",
    "island",
    "islands",
    "lake",
    "ocean",
    "sea",
    "street",
    "avenue",
    "road",
    "province",
    "kingdom",
    "republic",
    "state",
    "states",
    "valley",
    "bay",
    "coast",
    "desert",
    "forest",
    "park",
    "peninsula",
    "region",
    "district",
    "square",
    "bridge",
    "gulf",
    "strait",
    "canal",
    "harbor",
    "harbour",
    "north",
    "south",
    "east",
    "west",
    "america",
    "europe",
    "asia",
    "africa",
    "australia",
    "china",
    "india",
    "france",
    "germany",
    "england",
    "britain",
    "london",
    "paris",
    "california",
    "texas",
    "york",
    "japan",
    "russia",
    "italy",
    "spain",
    "canada",
    "mexico",
    "egypt",
    "rome",
    "greece",
}  # noqa: E501
_TITLES = {
    "mr",
    "mrs",
    "ms",
    "dr",
    "sir",
    "lord",
    "lady",
    "king",
    "queen",
    "prince",
    "princess",
    "president",
    "pope",
    "saint",
    "st",
    "general",
    "captain",
    "professor",
    "prof",
    "emperor",
    "duke",
    "bishop",
    "senator",
    "governor",
}  # noqa: E501
_LEADING = {
    "the",
    "a",
    "an",
    "about",
    "around",
    "approximately",
    "nearly",
    "almost",
    "over",
    "some",
    "roughly",
}
_PLACE_PREPOSITIONS = {"in", "at", "from", "to", "near", "across", "into", "throughout"}

# Chinese: numbers, dates and money in Chinese forms.
_ZH_NUM = r"[\d０-９一二三四五六七八九十百千万亿零〇两几]+"
_ZH_PATTERNS = [
    ("percent", rf"(?:百分之{_ZH_NUM}|{_ZH_NUM}(?:\.\d+)?[%％])"),
    ("money", rf"{_ZH_NUM}(?:\.\d+)?(?:多)?(?:元|块|美元|英镑|欧元|日元|人民币|万元|亿元)"),
    ("date", rf"(?:{_ZH_NUM}年)?{_ZH_NUM}月(?:{_ZH_NUM}[日号])?|{_ZH_NUM}[日号]"),
    ("year", rf"{_ZH_NUM}年(?:代)?"),
    ("time", rf"{_ZH_NUM}[点时](?:{_ZH_NUM}分)?|(?:上午|下午|凌晨|晚上|中午)"),
    ("ordinal", rf"第{_ZH_NUM}"),
    (
        "quantity",
        rf"{_ZH_NUM}(?:\.\d+)?(?:多)?(?:公里|千米|米|厘米|公斤|千克|克|吨|平方公里|平方米|亩|升|度|岁|个|人|名|次|天|小时|分钟|秒|周|月|年)",
    ),  # noqa: E501
    ("number", rf"{_ZH_NUM}(?:\.\d+)?"),
]
_ZH_COMPILED = [(t, re.compile(p)) for t, p in _ZH_PATTERNS]
_ZH_NAME_FLAGS = {
    "nr": "person",
    "nrfg": "person",
    "nrt": "person",
    "ns": "location",
    "nt": "organization",
    "nz": "other_name",
}  # noqa: E501

# A noun-phrase / verb-phrase grammar over Penn Treebank tags (CoNLL-2000 chunk F1 in docs/suggest.md).
GRAMMAR = r"""
NP: {<PDT>?<DT|PRP\$|POS>?<CD|JJ.*|VBN|VBG|NN.*>*<NN.*|CD>}
    {<PRP|EX|WP>}
VP: {<MD|TO>?<RB.*>*<VB.*>+(<RB.*>*<VB.*>+)*}
"""


@dataclass(frozen=True)
class Entity:
    text: str
    type: str
    start: int  # character offsets in the text
    end: int


def _name_type(span: str, before: str) -> str:
    words = [w.strip(".,").lower() for w in span.split()]
    if any(w in _ORG for w in words):
        return "organization"
    if any(w in _LOC for w in words):
        return "location"
    if words and words[0] in _TITLES:
        return "person"
    if before.lower() in _PLACE_PREPOSITIONS:
        return "location"
    if 2 <= len(words) <= 3 and all(w.isalpha() for w in words):
        return "person"
    return "other_name"


class EntityFinder:
    """Typed entities of a text by rules (or a spaCy NER pipeline): numbers, dates ... and names."""

    def __init__(self, lang: str = "en", ner: str | None = None):
        self.lang, self.nlp = lang, None
        if ner:
            import spacy

            self.nlp = spacy.load(ner)  # a locally installed pipeline; nothing is downloaded
        self.stopwords = load_stopwords(lang)

    def entities(self, text: str) -> list[Entity]:
        if self.nlp is not None:
            return self._spacy(text)
        if self.lang == "zh":
            return self._zh(text)
        found: list[Entity] = []
        taken = [False] * len(text)
        for kind, pattern in _COMPILED:
            for m in pattern.finditer(text):
                if m.end() > m.start() and not any(taken[m.start() : m.end()]):
                    found.append(Entity(m.group(0), kind, m.start(), m.end()))
                    taken[m.start() : m.end()] = [True] * (m.end() - m.start())
        # Names: runs of capitalised words (inner "of", "the", "and", "de" allowed), not sentence-initial
        # function words; typed by keywords, titles and a preceding place preposition.
        for m in re.finditer(
            r"\b[A-Z](?:\.|[\w'’-]*)(?:\s+(?:(?:of|the|and|de|von|van|du|la|for)\s+)*[A-Z](?:\.|[\w'’-]*))*",
            text,
        ):
            start, end, span = m.start(), m.end(), m.group(0).rstrip(".")
            end = start + len(span)
            first = span.split()[0]
            if first.lower() in self.stopwords:  # "The", "In" at a sentence start
                rest = span[len(first) :].lstrip()
                if not rest:
                    continue
                start, span = end - len(rest), rest
            if any(taken[start:end]):
                continue
            before = text[:start].split()[-1] if text[:start].split() else ""
            if " " not in span and (not before or before[-1] in ".!?"):
                continue  # one capitalised word opening a sentence: more likely an ordinary word
            found.append(Entity(span, _name_type(span, before), start, end))
        return sorted(found, key=lambda e: e.start)

    def _zh(self, text: str) -> list[Entity]:
        from paraguide.text.pos import pos_tag

        found, taken = [], [False] * len(text)
        for kind, pattern in _ZH_COMPILED:
            for m in pattern.finditer(text):
                if not any(taken[m.start() : m.end()]):
                    found.append(Entity(m.group(0), kind, m.start(), m.end()))
                    taken[m.start() : m.end()] = [True] * (m.end() - m.start())
        for t in pos_tag(text, "zh"):
            kind = _ZH_NAME_FLAGS.get(t.tag)
            if kind and len(t.text) > 1 and not any(taken[t.start : t.end]):
                found.append(Entity(t.text, kind, t.start, t.end))
        return sorted(found, key=lambda e: e.start)

    def _spacy(self, text: str) -> list[Entity]:
        mapping = {
            "DATE": "date", "TIME": "time", "PERCENT": "percent", "MONEY": "money", "QUANTITY": "quantity",
            "ORDINAL": "ordinal", "CARDINAL": "number", "PERSON": "person", "ORG": "organization",
            "GPE": "location", "LOC": "location", "FAC": "location",
        }  # fmt: skip
        out = []
        for ent in self.nlp(text).ents:
            kind = mapping.get(ent.label_, "other_name")
            if kind == "date" and re.fullmatch(r"(?:1\d{3}|20\d{2})s?", ent.text):
                kind = "year"
            out.append(Entity(ent.text, kind, ent.start_char, ent.end_char))
        return out

    def answer_type(self, answer: str) -> str:
        """The type of an answer: the type of an entity covering (nearly) all of it, else "other"."""
        answer = answer.strip()
        if self.lang == "en":  # "the 1920s", "about 300": leading function words do not count
            words = answer.split()
            while len(words) > 1 and words[0].lower() in _LEADING:
                words = words[1:]
            answer = " ".join(words)
        for e in self.entities(answer):
            if len(e.text) >= 0.6 * len(answer):
                return e.type
        if self.lang == "en" and answer[:1].isupper() and answer.split()[0].lower() not in self.stopwords:
            return _name_type(answer, "")
        return "other"


def chunk(text: str, lang: str = "en", tagged: list | None = None) -> list[tuple[str, str, int, int]]:
    """``(phrase, label, start token, end token)`` noun and verb phrases of ``text``; ``tagged``: its
    ``pos_tag`` tokens when the caller already has them."""
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
    """Character spans of the sentences of a context."""
    splitter = r"(?<=[。！？!?])" if lang == "zh" else r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(])"
    spans, start = [], 0
    for m in re.finditer(splitter, text):
        if m.end() > start:
            spans.append((start, m.start() if lang != "zh" else m.end()))
            start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


class ContextChunks:
    """``ContextChunks().suggest(questions, contexts=[...], answers=[...])``: adversarial suggestions."""

    name = "context"

    def __init__(self, lang: str = "en", ner: str | None = None, min_words: int = 2):
        self.lang, self.min_words = lang, min_words
        self.finder = EntityFinder(lang, ner)

    def _content(self, text: str) -> set[str]:
        """Words that count for overlap: not stop words; Chinese single characters (年, 的, 个: units and
        particles) do not count either."""
        words = {w.lower() for w in tokenize(text, self.lang)} - self.finder.stopwords
        return {w for w in words if is_word(w) and (self.lang != "zh" or len(w) > 1)}

    def distractors(self, context: str, answer: str, answer_start: int | None = None) -> list[Entity]:
        """Entities of the answer's type in the context that share no word with the answer."""
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
        if contexts is None or answers is None:
            raise ValueError("context suggestions need each question's context and answer")
        starts = answer_starts or [None] * len(questions)
        results = []
        for question, context, answer, start in zip(questions, contexts, answers, starts, strict=True):
            results.append(self._one(question, context, answer, start)[:top_k] if top_k else self._one(question, context, answer, start))  # fmt: skip
        return results

    def _one(self, question: str, context: str, answer: str, answer_start: int | None) -> list[Suggestion]:
        if answer_start is None or context[answer_start : answer_start + len(answer)] != answer:
            found = context.find(answer)
            answer_start = found if found >= 0 else None
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
