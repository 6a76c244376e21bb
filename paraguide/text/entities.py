"""Typed entities of a text, and the type of an answer, by rules that need no download.

English: regular expressions over numbers, number words, months and units type dates, years, times,
percentages, money, quantities, ordinals and numbers; runs of capitalised words are names, typed as person,
organization, location or other name by keyword lists (University, River), titles (Dr.) and a preceding
place preposition. Chinese: the same numeric types in Chinese forms (百分之三十, 5月4日, 三百元) and jieba's
name tags (nr, ns, nt, nz). A locally installed spaCy pipeline can type entities instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paraguide.text.stopwords import load_stopwords

ANSWER_TYPES = (
    "date", "year", "time", "percent", "money", "quantity", "ordinal", "number",
    "person", "organization", "location", "other_name", "other",
)  # fmt: skip
NAME_TYPES = ("person", "organization", "location", "other_name")

_MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
_NUMWORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen)"
_NUM = rf"(?:\d[\d,]*(?:\.\d+)?|{_NUMWORD}(?:[- ]{_NUMWORD})*)"
_SCALE = r"(?:\s(?:hundred|thousand|million|billion|trillion))?"
_UNIT = r"(?:km|kilometers?|kilometres?|miles?|m|meters?|metres?|cm|mm|feet|foot|ft|inches?|yards?|kg|kilograms?|g|grams?|tons?|tonnes?|pounds?|lbs?|ounces?|acres?|hectares?|square \w+|cubic \w+|liters?|litres?|gallons?|mph|km/h|degrees?|°[CF]?|watts?|kW|MW|GW|volts?|bytes?|MB|GB|years?|months?|weeks?|days?|hours?|minutes?|seconds?|people|persons|students|members|employees|soldiers|troops|species|copies|votes|times)"
# Numeric types, most specific first: the first pattern that matches a span types it.
_PATTERNS = [
    ("percent", rf"{_NUM}\s?(?:%|percent\b|per cent\b)"),
    (
        "money",
        rf"(?:[$£€¥]\s?{_NUM}{_SCALE}|{_NUM}{_SCALE}\s(?:dollars|euros|pounds sterling|pounds|yen|yuan|cents|francs|marks|rupees)\b)",
    ),
    (
        "date",
        rf"(?:{_MONTH}\.?\s\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s\d{{3,4}})?|\d{{1,2}}(?:st|nd|rd|th)?\s(?:of\s)?{_MONTH}(?:,?\s\d{{3,4}})?|{_MONTH}\s\d{{4}}|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}})\b",
    ),
    (
        "time",
        r"(?:\d{1,2}(?::\d{2})?\s?(?:a\.m\.|p\.m\.|am\b|pm\b)|\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b|\d{1,2}\so'clock)",
    ),
    ("year", r"\b(?:1\d{3}|20\d{2})s?\b"),
    ("quantity", rf"{_NUM}{_SCALE}[\s-]{_UNIT}\b"),
    (
        "ordinal",
        r"\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|twentieth|hundredth|last)\b",
    ),
    ("number", rf"\b{_NUM}{_SCALE}\b"),
]
_COMPILED = [(t, re.compile(p, re.IGNORECASE)) for t, p in _PATTERNS]

# Words that type a name: organization and location keywords, titles of persons.
_ORG = {
    "university", "college", "school", "institute", "company", "corporation", "corp", "inc", "ltd", "party",
    "association", "council", "church", "army", "navy", "committee", "league", "agency", "bank", "group",
    "society", "club", "foundation", "ministry", "department", "court", "congress", "parliament", "senate",
    "government", "union", "organization", "organisation", "federation", "academy", "museum", "hospital",
    "orchestra", "band", "team", "fc", "nations", "commission", "board", "office", "bureau", "administration",
    "authority", "institution", "press", "network", "airlines", "records", "studios",
}  # fmt: skip
_LOC = {
    "river", "mountain", "mountains", "mount", "city", "county", "island", "islands", "lake", "ocean", "sea",
    "street", "avenue", "road", "province", "kingdom", "republic", "state", "states", "valley", "bay",
    "coast", "desert", "forest", "park", "peninsula", "region", "district", "square", "bridge", "gulf",
    "strait", "canal", "harbor", "harbour", "north", "south", "east", "west", "america", "europe", "asia",
    "africa", "australia", "china", "india", "france", "germany", "england", "britain", "london", "paris",
    "california", "texas", "york", "japan", "russia", "italy", "spain", "canada", "mexico", "egypt", "rome",
    "greece",
}  # fmt: skip
_TITLES = {
    "mr", "mrs", "ms", "dr", "sir", "lord", "lady", "king", "queen", "prince", "princess", "president", "pope",
    "saint", "st", "general", "captain", "professor", "prof", "emperor", "duke", "bishop", "senator",
    "governor",
}  # fmt: skip
# Words before an answer that do not count for its type ("the 1920s", "about 300").
_LEADING = {
    "the", "a", "an", "about", "around", "approximately", "nearly", "almost", "over", "some", "roughly",
}  # fmt: skip
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
    ),
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
}


@dataclass(frozen=True)
class Entity:
    """A typed span of a text: its ``text``, ``type`` (one of :data:`ANSWER_TYPES` but "other") and
    character offsets ``start``, ``end`` (end exclusive)."""

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
    """Typed entities of a text by rules (or a spaCy NER pipeline): numbers, dates ... and names.

    ``lang``: "en" or "zh"; ``ner``: the name of a locally installed spaCy pipeline to use instead of the
    rules (nothing is downloaded)."""

    def __init__(self, lang: str = "en", ner: str | None = None):
        self.lang, self.nlp = lang, None
        if ner:
            import spacy

            self.nlp = spacy.load(ner)  # a locally installed pipeline; nothing is downloaded
        self.stopwords = load_stopwords(lang)

    def entities(self, text: str) -> list[Entity]:
        """The typed entities of ``text``, in text order."""
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
