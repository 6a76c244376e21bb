"""TrapMaker: one trap per question (distractor, change of the question, statement, insertion), the entity
pool of a file."""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Iterable, Sequence

from paraguide.perturb.base import Parsed, Skip, parse
from paraguide.perturb.trap.chinese import (
    _ZH_AFTER_NAME,
    _ZH_END,
    _ZH_OPPOSITES,
    _ZH_PLACE_LISTS,
    _render_zh,
    _zh_fill,
    zh_frame,
)
from paraguide.perturb.trap.english import (
    _NAME_PARTICLES,
    _NO_ANTONYM,
    _PLACE_PREFIXES,
    _en_fill,
    _lemmas,
    _render_en,
    en_frame,
)
from paraguide.perturb.trap.records import (
    AMOUNT_TYPES,
    NUMERIC_TYPES,
    POSITIONS,
    TIME_TYPES,
    Frame,
    Inserted,
    Mutation,
    Trap,
)
from paraguide.perturb.trap.values import (
    YEAR,
    _affinity,
    _against,
    _name_shape,
    _near,
    _near_year,
    _number_form,
    _overlaps_text,
    _plain_name,
    _rank,
    _strip_possessive,
    _time_shape,
    _unit,
    _value,
    _whole,
    _zh_number_like,
    _zh_person,
    shift_number,
)
from paraguide.suggest.context import ContextChunks
from paraguide.text.entities import NAME_TYPES, Entity, EntityFinder

# What a name's last word says about it ("Denver Broncos": a bronco is an animal, so no person; "Moscone
# Center": a place), from WordNet's classes of nouns. Open English WordNet puts workers under "causal agent"
# beside "person", not under it.
_WN_ROOTS = (("person", "person"), ("causal agent", "person"), ("animal", "animal"),
             ("organization", "organization"),
             ("location", "location"), ("region", "location"), ("body of water", "location"),
             ("geological formation", "location"), ("event", "event"), ("artifact", "artifact"),
             ("group", "group"))  # fmt: skip


class NameClasses:
    """WordNet's class (person, animal, organization, location, event, artifact, group, other) of a name's
    last word, or None when WordNet does not know it as a noun ("Manning"): its proper-noun sense when it
    has one spelt so ("Gray": a person), else its first sense ("Bowl": an artifact)."""

    def __init__(self, wordnet):
        self.wn = wordnet
        self.roots = {}
        for lemma, kind in _WN_ROOTS:
            first = wordnet.lemmas.get(lemma, {}).get("n", [])
            if first:
                self.roots.setdefault(first[0], kind)
        self._classes: dict[str, str] = {}
        self._words: dict[str, str | None] = {}

    def synset_class(self, synset: str) -> str:
        if synset not in self._classes:
            seen, frontier, found = {synset}, [synset], "other"
            while frontier and found == "other":
                hits = [self.roots[s] for s in frontier if s in self.roots]
                if hits:
                    found = min(hits, key=[k for _, k in _WN_ROOTS].index)
                    break
                parents = []
                for s in frontier:
                    for p in self.wn.hypernyms.get(s, []) + self.wn.instance_hypernyms.get(s, []):
                        if p not in seen:
                            seen.add(p)
                            parents.append(p)
                frontier = parents
            self._classes[synset] = found
        return self._classes[synset]

    def word_class(self, word: str) -> str | None:
        """The class of a name's word (its proper-noun sense first), None for a word WordNet does not know."""
        if word not in self._words:
            found = None
            for lemma in [word.lower(), *self.wn.lemmatize(word, "n")]:
                senses = self.wn.lemmas.get(lemma, {}).get("n", [])
                if not senses:
                    continue
                proper = [s for s in senses if word in self.wn.synsets.get(s, [])]
                found = self.synset_class(proper[0] if proper else senses[0])
                break
            self._words[word] = found
        return self._words[word]

    def name_class(self, name: str) -> str | None:
        words = re.findall(r"[A-Za-z]+", name)
        return self.word_class(words[-1]) if words else None


# The trap maker ---------------------------------------------------------------------------------------


class _CachedFinder(EntityFinder):
    """An entity finder that keeps each passage's entities: a passage is asked once per question and once
    for the file's pool."""

    def __init__(self, lang: str, ner: str | None = None):
        super().__init__(lang, ner)
        self._cache: dict[str, list[Entity]] = {}

    def entities(self, text: str) -> list[Entity]:
        if text not in self._cache:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[text] = super().entities(text)
        return self._cache[text]


def rng_for_question(seed: int, qid: str) -> random.Random:
    """The random choices for one question: the same whatever else the file holds."""
    return random.Random(zlib.crc32(f"{seed}\x00trap\x00{qid}".encode()))


class EntityPool:
    """The file's entities by type (each text once, in file order, with the number of passages it is found
    in): distractors for a passage that holds no other entity of the answer's type."""

    def __init__(self):
        self.by_type: dict[str, list[str]] = {}
        self.passages: dict[tuple[str, str], int] = {}

    def add(self, entities: Iterable[Entity]) -> None:
        """The entities of one passage."""
        for key in dict.fromkeys((e.type, e.text) for e in entities):
            if key not in self.passages:
                self.passages[key] = 0
                self.by_type.setdefault(key[0], []).append(key[1])
            self.passages[key] += 1


class TrapMaker:
    """Trap sentences for questions on their passages, and the passage with the trap put in.

    ``lang``: en or zh; ``seed``: the choice of the distractor and the mutation (per question id);
    ``ner``: a locally installed spaCy pipeline for entities (default: paraguide's rules);
    ``resources``: a :class:`paraguide.perturb.resources.Resources` for the antonym lexicons."""

    def __init__(self, lang: str, seed: int = 13, ner: str | None = None, resources=None):
        self.lang, self.seed = lang, seed
        self.finder = _CachedFinder(lang, ner)
        self.chunks = ContextChunks(
            lang, ner, finder=self.finder
        )  # its distractors() read the cached entities
        self.ner = ner
        self._word_cache: dict[str, frozenset[str]] = {}
        if resources is None:
            from paraguide.perturb.resources import Resources

            resources = Resources(lang)
        self.res = resources
        self._classes: NameClasses | None = None

    def name_class(self, name: str) -> str:
        """What kind of thing a name is by its last word (English, WordNet's classes: "Denver Broncos" an
        animal, "Moscone Center" a location), "unknown" for a word WordNet does not know ("Manning");
        Chinese: always "unknown"."""
        if self.lang != "en":
            return "unknown"
        if self._classes is None:
            self._classes = NameClasses(self.res.wordnet)
        return self._classes.name_class(name) or "unknown"

    def name_group(self, name: str) -> str:
        """:meth:`name_class`, with the classes a person's name may show taken together as "person":
        unknown to WordNet ("Edison"), a person's word ("Miller"), or a word of no class that is rarely
        written in lower case ("Tesla": a unit to WordNet)."""
        found = self.name_class(name)
        words = name.split()
        if (
            found in ("unknown", "person")
            or found == "other"
            and words
            and words[-1].lower() not in self.res.en_lowercase_words
        ):
            return "person"
        return found

    def wanted_class(self, frame: Frame, answer: str) -> str:
        """The kind of name the question asks for: its wh-noun's class ("which *team*": an organization;
        "what *song*": "other", a class too broad to check), a person for who, a location for where, else
        the answer's own ("unknown" when its last word says nothing)."""
        if self.lang != "en":
            return "unknown"
        if frame.noun and self.res.wordnet.lemmatize(frame.noun, "n"):
            return self.name_class(frame.noun)
        if frame.wh in ("who", "whom"):  # a person, unless the answer says otherwise ("Denver Broncos")
            found = self.name_class(answer)
            return found if found not in ("unknown", "person", "other") else "person"
        if frame.wh == "where":
            return "location"
        found = self.name_class(answer)
        return "unknown" if found == "other" else found

    def class_fits(self, wanted: str, name: str, kind: str = "") -> bool:
        """Whether ``name`` is of the kind ``wanted``. A person: a name WordNet does not know or whose last
        word is a person's ("Miller"), of two to four capitalised words ("Jim Gray", not "CBS" or "Pro
        Bowl"); unknown: a name whose last word is unknown or a person's as well; else the same class."""
        found = self.name_class(name)
        if wanted == "person":
            words = name.split()
            return (
                self.name_group(name) == "person"  # WordNet here holds no proper names ("Tesla": a unit)
                and not self._adjectival(name)  # "Roman Catholic"
                and 2 <= len(words) <= 4
                and not any(w.isupper() and len(w) > 1 for w in words)  # "Denver QB"
                and not any(w in _NAME_PARTICLES for w in words)  # "Normans of Edessa"
                # a plural common noun last is a team's name ("Arizona Cardinals"), not a person's
                and not any(
                    lemma != words[-1].lower() for lemma in self.res.wordnet.lemmatize(words[-1], "n")
                )
            )
        if wanted == "unknown":
            return found in ("unknown", "person")
        if wanted in ("location", "organization") and kind == wanted:
            # most places' names are unknown to WordNet ("Milan"): the finder's type, from the passage, decides
            if wanted == "location" and (name.isupper() or " " in name and self._given_name(name)):
                return False  # "AFC", "John Lawrence Daly": no place
            return found in (wanted, "unknown")
        return found == wanted

    def zh_kind(self, word: str) -> tuple[str, frozenset[str]]:
        """Chinese: what HIT Cilin says a name is. "proper" with its lists of places ('#' groups of cities,
        countries, capitals, rivers: "上海" and "广州" share one), "common" for any other word Cilin holds
        (a common word jieba tagged as a name: "顾客", "上市", "老公"; a generic place: "首都", "王国"),
        "unknown" for a word Cilin does not hold (most persons' and brands' names)."""
        codes = self.res.cilin_codes.get(word, [])
        if not codes:
            return "unknown", frozenset()
        lists = frozenset(c for c in codes if c.endswith("#") and c.startswith(_ZH_PLACE_LISTS))
        if lists and not any(c.endswith("=") for c in codes):  # "县城" also has synonyms: a generic word
            return "proper", lists
        return "common", frozenset()

    def zh_names_alike(self, a: str, b: str, kind: str) -> bool:
        """Chinese: whether name ``b`` can stand for name ``a`` (of finder type ``kind``): two places of one
        of Cilin's lists; two persons' names Cilin does not hold, each a common surname and one to three
        characters ("李亚鹏", not "傲娇" or "朱先生"); two other names Cilin does not hold that end alike
        ("双鱼座" / "天蝎座", "华山医院" / "协和医院"). Never two that share two characters ("亚马逊河",
        "亚马孙河": one river)."""
        if len(set(a) & set(b)) >= 2 or len(b) < 2:
            return False
        (ka, la), (kb, lb) = self.zh_kind(a), self.zh_kind(b)
        if ka != kb or kb == "common":
            return False
        if ka == "proper":
            specific_a, specific_b = la - {"Cb25A11#"}, lb - {"Cb25A11#"}  # Cilin's long list of any places
            if specific_a and specific_b:
                return bool(specific_a & specific_b)  # a provincial capital for one, not a province
            return bool(la & lb)
        if kind == "person":
            return all(_zh_person(n) and self._zh_name_word(n) for n in (a, b))
        return len(a) >= 3 and len(b) >= 3 and a[-1] == b[-1]

    def _zh_name_word(self, name: str) -> bool:
        """A name jieba's dictionary does not hold as a common word, whole or by its first two characters
        ("许配给" is "许配" + 给, no person)."""
        flags = self.res.jieba_flags
        return all(flags.get(part, "nr").startswith("n") and flags.get(part, "nr") not in ("n", "ng", "nx")
                   for part in {name, name[:2]})  # fmt: skip

    def _given_name(self, name: str) -> bool:
        """English: a name whose first word is a given name of NLTK's word list ("Walter Reed", not "Nieuwe
        Maas" or "San Diego"); Chinese: always."""
        first = name.split()[0]
        return self.lang != "en" or first in self.res.en_words and first not in _PLACE_PREFIXES

    def _adjectival(self, name: str) -> bool:
        """A name with a word WordNet knows as an adjective ("Han Chinese", "Roman Catholic"): a people,
        a faith or a language more often than a person or a place (English only)."""
        return self.lang == "en" and any(
            "a" in self.res.wordnet.lemmas.get(w.lower(), {}) for w in name.split()
        )

    def kind_known(self, kind: str, wanted: str) -> bool:
        """Whether the question or the answer says what kind of name is asked for: a name typed only as
        "other name" by its capitals ("Frontex") takes a distractor of any kind ("Frankfurt") otherwise, and
        WordNet's classes below "other" (songs, languages, names) are too many to tell apart."""
        if self.lang != "en":
            return True
        return wanted != "other" and (kind != "other_name" or wanted != "unknown")

    # what the question becomes
    def frame(self, q: Parsed) -> Frame | Skip:
        return en_frame(q) if self.lang == "en" else zh_frame(q)

    def _fill(self, frame: Frame, entity: str, kind: str) -> str | None:
        return _en_fill(frame, entity, kind) if self.lang == "en" else _zh_fill(frame, entity, kind)

    def statement(
        self, q: Parsed, frame: Frame, distractor: str, kind: str, mutation: Mutation | None = None
    ) -> str | None:
        """The trap sentence: ``frame`` with ``distractor`` (of type ``kind``) in its slot, as the slot holds
        it ("in 1856", "45 touchdowns"), and ``mutation`` applied; None when the distractor does not fit."""
        fill = self._fill(frame, distractor, kind)
        if fill is None:
            return None
        return (
            _render_en(q, frame, fill, mutation)
            if self.lang == "en"
            else _render_zh(q, frame, fill, mutation)
        )

    def _words(self, text: str) -> frozenset[str]:
        """Content words (ContextChunks': no stop words, no single Chinese characters), kept per text: the
        file's pool is compared with every question."""
        if text not in self._word_cache:
            self._word_cache[text] = frozenset(self.chunks._content(text))
        return self._word_cache[text]

    def _name_ok(self, text: str) -> bool:
        """A name fit to put in a sentence. English: every word capitalised but a name's own particles (of,
        the, de), no contraction or coordination ("We've", "Chromecast and Roku"), and a first word that is
        no dictionary word (LemmInflect's lexicon holds no proper nouns): a capitalised common word is most
        often a sentence's first word or an adjective taken for a name ("Polish", "Future", "Like the
        Lombardi Trophy", "Linebacker Luke Kuechly"). Chinese: at least two characters."""
        if self.lang == "zh":
            return len(text) >= 2
        words = text.split()
        if not words or re.search(r"['’&]", text) or "and" in words or len(text) < 3 or text.endswith("."):
            return False  # "St", "Mr."
        if any(not p[:1].isupper() and w not in _NAME_PARTICLES for w in words for p in w.split("-")):
            return False  # "French-styled"
        first = words[0].strip(".,").lower()
        if _lemmas(first) or first in self.finder.stopwords or first in self.res.en_lowercase_words:
            return False  # "Despite Denver", "Pro Bowl", "New Orleans"
        # a lone word WordNet knows as an adjective is a people's or language's name ("British", "Arabic")
        return not (len(words) == 1 and "a" in self.res.wordnet.lemmas.get(first, {}))

    def make(
        self,
        qid: str,
        question: str,
        context: str,
        answers: Sequence[dict],
        pool: EntityPool | None = None,
        parsed: Parsed | None = None,
    ) -> Trap | Skip:
        """The trap for one question (``answers``: SQuAD answers with valid offsets; the first one types the
        answer), or why there is none."""
        if not answers:
            return Skip("no answer")
        answer = answers[0]["text"]
        kind = self.finder.answer_type(answer)
        if kind == "other":
            return Skip("answer of no known entity type")
        q = parsed or parse([question], self.lang, self.ner, self.finder)[0]
        frame = self.frame(q)
        if isinstance(frame, Skip):
            return frame
        if kind not in frame.types:
            return Skip("question word and answer type disagree")
        if frame.pattern == "subject" and kind in TIME_TYPES:
            return Skip("a time as the subject")  # "2018 resulted in the suspension of ..." (trap reading b)
        if kind == "person" and re.fullmatch(r"\s*\S+\s*是谁[？?]?\s*", question):
            return Skip("who someone is")  # 项昊是谁 -> "吴锦源是陈乔恩": two people said to be one
        rng = rng_for_question(self.seed, qid)
        answer_texts = [a["text"] for a in answers]
        answer_words = frozenset().union(*(self._words(a) for a in answer_texts))
        question_words = self._words(question)
        question_years = YEAR.findall(question)
        question_months = set(re.findall(r"(?<!\d)(\d{1,2})月", question))

        wanted = self.wanted_class(frame, answer) if kind in NAME_TYPES else ""
        if kind in NAME_TYPES and not self.kind_known(kind, wanted):
            return Skip("a name of no known kind")
        if kind in NAME_TYPES and self.lang == "zh" and self.zh_kind(answer)[0] == "common":
            return Skip("an answer jieba took for a name")

        def fits(text: str) -> bool:
            words = self._words(text)
            if not words or words & (answer_words | question_words):
                return False  # the answer itself, or a thing the question names
            if re.match(r"0\d", text):
                return False  # "000" of "100 000" cut in two
            if kind in TIME_TYPES and not _near_year(text, answer):
                return False  # "1017" for "1912"
            if kind in NAME_TYPES and (not self._name_ok(text) or not self.class_fits(wanted, text, kind)):
                return False  # a team for a team, a person for a person
            if kind in NAME_TYPES and self.lang == "zh" and not self.zh_names_alike(answer, text, kind):
                return False
            if kind in TIME_TYPES and YEAR.search(text) and question_years:
                return False  # "2016年端午节是2003年6月27日": a date of another year contradicts the question
            if (
                kind in TIME_TYPES
                and question_months
                and set(re.findall(r"(?<!\d)(\d{1,2})月", text)) - question_months
            ):
                return False  # "2017年6月六级考试时间是8月10日": a date in another month than the question's
            if kind in TIME_TYPES and _time_shape(text) != _time_shape(answer):
                return False  # "479号" for "4月5日", "716年7月13日" for "2017年6月23日"
            if kind in ("number", "quantity", "money") and not _near(_value(text), _value(answer)):
                return False  # "2013" for a height of 180
            if kind == "number" and self.lang == "zh" and not _zh_number_like(text, answer):
                return False  # "105" for a phone number, "16两", "07"
            if any(_overlaps_text(text, a, self.lang) for a in answer_texts):
                return False
            if kind in NUMERIC_TYPES and _number_form(text) != _number_form(answer):
                return False  # "355" for "4.7", "two million" for "six"
            if kind in ("quantity", "money", "percent") and _unit(text) != _unit(answer):
                return False  # "21.3 ft" for "30.5 °C"
            return self._fill(frame, text, kind) is not None

        # 1. the distractor: an entity of the answer's type in the passage (else in the file), the ones that
        #    look most like the answer first (a year for a year, a two-word name for a two-word name)
        found = self.chunks.distractors(context, answer, answers[0]["answer_start"])
        found = [e for e in found if _whole(context, e)]
        if kind == "person":  # "the Pittsburgh Steelers": a team the entity finder took for a person
            found = [
                e for e in found if not re.search(r"\bthe\s+$", context[max(0, e.start - 4) : e.start], re.I)
            ]
        in_passage = list(dict.fromkeys(_strip_possessive(e.text, self.lang) for e in found))
        in_passage = [t for t in in_passage if fits(t)]
        source = "passage"
        if not in_passage:
            if kind in NAME_TYPES and (kind != "person" or wanted != "person"):
                return Skip("no other name of the answer's kind in the passage")  # only a person is safe
            source = "file"
            in_passage = [
                t
                for t in (pool.by_type.get(kind, []) if pool else [])
                if t not in context
                and (
                    kind not in NAME_TYPES
                    or pool.passages[kind, t] >= 2
                    and _plain_name(t)
                    and self._given_name(t)
                    and not question_years  # "Saul Bellow explored Ohio territory in 1747" (trap reading b)
                )
                and fits(t)
            ]  # a name from another article: one found in two passages at least, plain words, in no year
            if not in_passage:
                return Skip("no distractor of the answer's type")
        distractor = self._closest(answer, in_passage, rng)
        # 2. the mutation: the trap must not be about what the question asks
        mutation = self._mutation(q, frame, context, answer_texts, distractor, rng, kind)
        if mutation is None:
            return Skip("nothing in the question to change")
        if (kind in TIME_TYPES or kind in NUMERIC_TYPES and mutation.kind == "antonym") and _against(
            mutation, distractor, answer
        ):
            # "the second market opened in 1834" when the first opened in 1835, "Season 3 aired in 2014"
            # after Season 2's 2017 (a blind reading found these absurd): a time on the number's side
            ordered = [t for t in in_passage if not _against(mutation, t, answer)]
            if not ordered:
                return Skip("no time or amount on the change's side of the answer")
            distractor = self._closest(answer, ordered, rng)
        sentence = self.statement(q, frame, distractor, kind, mutation)
        return Trap(sentence, distractor, kind, source, mutation, frame.pattern)

    def _mutation(
        self,
        q: Parsed,
        frame: Frame,
        context: str,
        answers: Sequence[str],
        distractor: str,
        rng: random.Random,
        kind_of_answer: str = "",
    ) -> Mutation | None:
        """One change of the question's words the statement keeps: a number shifted, else an adjective
        replaced by its antonym, else a name by another of its type, shape and kind from the passage (in
        that order of safety: a changed number cannot leave the statement true of what the question asks, a
        name of the wrong kind reads badly)."""
        spans = [p for p in frame.parts if isinstance(p, tuple)]

        def copied(start: int, end: int) -> bool:
            return any(a <= start and end <= b for a, b in spans)

        entities = [e for e in q.entities if copied(e.start, e.end)]
        numbers = []
        for e in entities:
            after = next((t for t in q.tokens if t.start >= e.end), None)
            if e.type == "ordinal" and after is not None and after.tag in ("VBN", "VBD"):
                continue  # "first published" -> "second published" is no English
            if re.search(r"[A-Za-z]", q.text[max(0, e.start - 1) : e.start] + q.text[e.end : e.end + 1]):
                continue  # a model or a product's number ("苹果7128g", "max2017"): another name, not a number
            if e.type != "ordinal" and _rank(e.text) == 1 and kind_of_answer in AMOUNT_TYPES:
                continue  # a rate per one ("一个身份证可以认证几个", "1千焦等于多少大卡"): the answer scales with it
            if e.type in NUMERIC_TYPES and _whole(q.text, e):  # not one end of "2012-13"
                decade = re.fullmatch(r"\d{3}0", e.text) and re.match(r"['’]s\b", q.text[e.end :])
                new = (
                    shift_number(e.text + "s", rng)[:-1] if decade else shift_number(e.text, rng)
                )  # "1950's"
                if new and new != e.text and distractor not in new:
                    numbers.append(Mutation(e.start, e.text, new, "number"))
        if numbers:
            return rng.choice(numbers)
        antonyms = [m for m in self._antonyms(q) if copied(m.start, m.start + len(m.old))]
        if antonyms:
            return rng.choice(antonyms)
        if self.lang == "zh":
            return self._zh_name_mutation(q, entities, context, answers, distractor, rng)
        taken = (
            self._words(q.text)
            | self._words(distractor)
            | frozenset().union(*(self._words(a) for a in answers))
        )
        typed = self._typed_names(context)
        names = []
        for e in entities:
            old = _strip_possessive(e.text, self.lang)
            kinds = typed.get(old)
            if e.type not in NAME_TYPES or not kinds or not self._name_ok(old):
                continue
            if self.lang == "en" and (" " not in old or self._adjectival(old)):
                continue  # a lone capitalised word ("MVP", "Warsaw" -> "Russian"): too often of another kind
            options = sorted(
                t
                for t, ks in typed.items()
                if ks == kinds
                and t != old
                and self._name_ok(t)
                and not self._words(t) & taken
                and _name_shape(t) == _name_shape(old)
                and self.name_group(t) == self.name_group(old)
                and not self._adjectival(t)  # "Li Tan" -> "Han Chinese"
            )
            if options:
                names.append(Mutation(e.start, old, rng.choice(options), "entity"))
        return rng.choice(names) if names else None

    def _closest(self, answer: str, candidates: list[str], rng: random.Random) -> str:
        """One of the candidates that look most like the answer (:func:`_affinity`), chosen by ``rng``."""
        score = {t: _affinity(answer, t, self.lang) for t in candidates}
        best = max(score.values())
        return rng.choice([t for t in candidates if score[t] == best])

    def _typed_names(self, context: str) -> dict[str, set[str]]:
        """The passage's names and the types its entities give them: more context types a name ("in San
        Francisco": a place) than the question does."""
        typed: dict[str, set[str]] = {}
        for p in self.finder.entities(context):
            if p.type in NAME_TYPES:
                typed.setdefault(_strip_possessive(p.text, self.lang), set()).add(p.type)
        return typed

    def _zh_name_mutation(self, q, entities, context, answers, distractor, rng) -> Mutation | None:
        """Chinese: a name of the question replaced by one of its kind (:meth:`zh_names_alike`) from the
        passage, else, for a place, a common one from its Cilin list ("重庆" -> "广州")."""
        typed = self._typed_names(context)
        used = [q.text, distractor, *answers]

        def free(t: str) -> bool:
            return not any(t in u or len(set(t) & set(u)) >= 2 for u in used)

        names = []
        for e in entities:
            if e.type not in NAME_TYPES or self.zh_kind(e.text)[0] == "common" or e.type == "other_name":
                continue  # a brand or a title jieba calls nz is too often no name of a kind
            after = q.text[e.end : e.end + 1]
            known = self.res.jieba_flags.get(e.text, "").startswith("nr")  # a name of jieba's dictionary
            if (
                e.type == "person"
                and not known
                and after
                and after not in _ZH_AFTER_NAME
                and not after.isascii()
            ):
                continue  # "赵启|平和谁": a name jieba guessed may be cut short
            options = sorted(
                t
                for t, ks in typed.items()
                if e.type in ks and free(t) and self.zh_names_alike(e.text, t, e.type)
            )
            kind, lists = self.zh_kind(e.text)
            if not options and kind == "proper":
                freq = self.res.jieba_freq
                siblings = {w for code in lists for w in self.res.cilin_groups.get(code, [])}
                options = sorted(
                    w
                    for w in siblings
                    if freq.get(w, 0) >= 1000 and free(w) and self.zh_names_alike(e.text, w, e.type)
                )
            if options:
                names.append(Mutation(e.start, e.text, rng.choice(options), "entity"))
        return rng.choice(names) if names else None

    def _antonyms(self, q: Parsed) -> list[Mutation]:
        out = []
        if self.lang == "en":
            from lemminflect import getInflection, getLemma

            for t in q.tokens:
                if t.tag not in ("JJ", "JJR", "JJS") or not t.text.isalpha() or not t.text.islower():
                    continue
                if t.text.lower() in _NO_ANTONYM:
                    continue
                lemma = (getLemma(t.text, "ADJ") or (t.text,))[0]
                for other in self.res.wordnet_first_antonyms.get((lemma, "a"), []):
                    if " " in other or self.res.en_word_freq.get(other, 0) < 200:
                        continue  # "unbroken", "unfavourable": rare words read as made up
                    new = other if t.tag == "JJ" else (getInflection(other, t.tag) or (None,))[0]
                    if new and self.res.en_word_freq.get(new, 0) >= 5:  # "earliest" -> "middlest" is none
                        out.append(Mutation(t.start, t.text, new, "antonym"))
                        break
        else:
            # the antonym list is loose ("一般" / "专科") and a one-character adjective is often part of a name
            # ("志高空调"): only common opposites, as a superlative (最高) or before 的
            for i, t in enumerate(q.tokens):
                word = t.text
                before = q.tokens[i - 1].text if i else ""
                after = q.tokens[i + 1].text if i + 1 < len(q.tokens) else ""
                if word in _ZH_OPPOSITES and (
                    word.startswith("最") or before in ("最", "更", "很", "比较") or after == "的"
                ):
                    out.append(Mutation(t.start, word, _ZH_OPPOSITES[word], "antonym"))
        return out

    # where the trap goes
    def insert(self, context: str, answers: Sequence[dict], sentence: str, position: str,
               plausible: Sequence[dict] | None = None) -> Inserted | Skip:  # fmt: skip
        """``context`` with ``sentence`` put in at ``position`` ("end": after the passage, as AddSent;
        "before_answer": right before the sentence holding the first answer), answer offsets shifted."""
        from paraguide.text.chunks import sentences

        if position == "end":
            if self.lang == "en":
                sep = "" if not context or context[-1].isspace() else " "
            else:
                sep = "" if not context or context[-1] in _ZH_END or context[-1].isspace() else "。"
            at, text = len(context), sep + sentence
            offset = at + len(sep)
        elif position == "before_answer":
            first = answers[0]["answer_start"]
            at = next((s for s, e in sentences(context, self.lang) if s <= first < e), None)
            if at is None:
                return Skip("the answer's sentence was not found")
            text = sentence + (" " if self.lang == "en" else "")
            offset = at
        else:
            raise ValueError(f"position must be one of {', '.join(POSITIONS)}, not {position!r}")
        new_context = context[:at] + text + context[at:]

        def shift(items: Sequence[dict]) -> list[dict] | Skip:
            out = []
            for a in items:
                start, length = a["answer_start"], len(a["text"])
                if start < at < start + length:
                    return Skip("an answer spans the trap's place")
                moved = {**a, "answer_start": start + len(text) if start >= at else start}
                if new_context[moved["answer_start"] : moved["answer_start"] + length] != a["text"]:
                    raise RuntimeError(f"answer {a['text']!r} lost its offset after the trap was put in")
                out.append(moved)
            return out

        shifted = shift(answers)
        if isinstance(shifted, Skip):
            return shifted
        other = None
        if plausible is not None:
            other = shift(plausible)
            if isinstance(other, Skip):
                return other
        return Inserted(new_context, offset, shifted, other)

    # Algorithm 1, selection only
    def same_type_count(self, context: str, answers: Sequence[dict]) -> tuple[str, int]:
        """The answer's type and m, the number of distinct entities of that type in the passage, the answer
        counted once ("1 < m < k" keeps the question)."""
        answer = answers[0]["text"]
        kind = self.finder.answer_type(answer)
        if kind == "other":
            return kind, 0
        others = {e.text for e in self.chunks.distractors(context, answer, answers[0]["answer_start"])}
        return kind, 1 + len(others)
