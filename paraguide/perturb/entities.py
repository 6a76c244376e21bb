"""Named-entity perturbations (DuQM's lexical "named entity", E12-E15; label N): a place, organization, person
or product replaced by another real one of the same kind ("山西春节习俗" -> "陕西春节习俗", "hotels in
Boston" -> "hotels in Chicago"): the question asks about another thing."""

from __future__ import annotations

import random
import re
from functools import cached_property
from typing import ClassVar

from paraguide.perturb.base import DIFFERENT, Change, Operation, Parsed, Perturbation, Skip, register

# English names by class, for when WordNet has no named instances (Open English WordNet's 2025 edition has
# none): a name is replaced by another of its class only. Names of two kinds (Washington, Georgia, Jordan,
# Cambridge, Columbia, Tesla) and names that take "the" (the United States) are left out.
EN_NAMES = {
    "location": {
        "country": (
            "America", "Canada", "Mexico", "Brazil", "Argentina", "Chile", "England", "Britain", "Ireland",
            "Scotland", "France", "Germany", "Italy", "Spain", "Portugal", "Greece", "Poland", "Sweden",
            "Norway", "Denmark", "Finland", "Switzerland", "Austria", "Russia", "Ukraine", "Turkey", "Egypt",
            "Israel", "Iran", "Iraq", "India", "Pakistan", "Bangladesh", "China", "Japan", "Korea", "Vietnam",
            "Thailand", "Indonesia", "Malaysia", "Singapore", "Australia", "Nigeria", "Kenya", "Ethiopia",
        ),
        "us_state": (
            "California", "Texas", "Florida", "Ohio", "Michigan", "Illinois", "Pennsylvania", "Virginia",
            "Massachusetts", "Arizona", "Colorado", "Oregon", "Nevada", "Utah", "Alabama", "Kentucky",
            "Tennessee", "Minnesota", "Wisconsin", "Missouri", "Louisiana", "Indiana", "Iowa", "Kansas",
            "Oklahoma", "Connecticut", "Maryland", "Hawaii", "Alaska", "New Jersey", "North Carolina",
        ),
        "us_city": (
            "Chicago", "Boston", "Los Angeles", "San Francisco", "Seattle", "Miami", "Dallas", "Houston",
            "Atlanta", "Philadelphia", "Denver", "San Diego", "Las Vegas", "Detroit", "Phoenix", "Austin",
        ),
        "world_city": (
            "London", "Paris", "Berlin", "Rome", "Madrid", "Vienna", "Prague", "Amsterdam", "Warsaw", "Moscow",
            "Istanbul", "Cairo", "Dubai", "Tokyo", "Beijing", "Shanghai", "Hong Kong", "Seoul", "Bangkok",
            "Sydney", "Melbourne", "Toronto", "Vancouver", "Montreal",
        ),
        "indian_city": (
            "Delhi", "Mumbai", "Bangalore", "Hyderabad", "Chennai", "Kolkata", "Pune", "Ahmedabad", "Jaipur",
            "Lucknow", "Chandigarh", "Kochi",
        ),
        "continent": ("Africa", "Asia", "Europe", "North America", "South America", "Antarctica"),
    },
    "organization": {
        "company": (
            "Google", "Microsoft", "Apple", "Amazon", "Facebook", "IBM", "Intel", "Samsung", "Sony", "Netflix",
            "Twitter", "Uber", "Oracle", "Adobe", "Yahoo", "Infosys", "Wipro", "Accenture", "Deloitte",
        ),
        "university": (
            "Harvard", "Yale", "Stanford", "Princeton", "MIT", "Oxford", "Berkeley", "Caltech", "UCLA", "NYU",
            "Cornell",
        ),
        "nfl_team": (
            "Broncos", "Panthers", "Patriots", "Steelers", "Cowboys", "Packers", "Seahawks", "Raiders",
            "Chiefs", "Colts", "Ravens", "49ers", "Cardinals", "Vikings", "Saints",
        ),
        "party": ("Democrats", "Republicans"),
    },
    "person": {  # full names, or one name that is only one person's; women apart from men ("her")
        "us_president": ("Obama", "Trump", "Reagan", "Lincoln", "Nixon", "Barack Obama", "Donald Trump",
                         "Bill Clinton", "George W. Bush", "Ronald Reagan", "Abraham Lincoln", "John F. Kennedy"),
        "us_politician_woman": ("Hillary Clinton", "Michelle Obama", "Sarah Palin", "Nancy Pelosi"),
        "indian_politician": ("Narendra Modi", "Rahul Gandhi", "Arvind Kejriwal", "Jawaharlal Nehru"),
        "entrepreneur": ("Elon Musk", "Bill Gates", "Steve Jobs", "Mark Zuckerberg", "Jeff Bezos",
                         "Warren Buffett", "Larry Page"),
        "scientist": ("Einstein", "Darwin", "Galileo", "Edison", "Albert Einstein", "Isaac Newton",
                      "Charles Darwin", "Nikola Tesla", "Thomas Edison", "Stephen Hawking"),
        "composer": ("Mozart", "Beethoven", "Bach", "Chopin", "Frédéric Chopin", "Handel", "Haydn",
                     "Schubert", "Tchaikovsky"),
        "writer": ("Shakespeare", "Dickens", "Tolkien", "Hemingway", "Orwell", "Tolstoy", "Mark Twain"),
        "writer_woman": ("Jane Austen", "J.K. Rowling", "Virginia Woolf", "Agatha Christie"),
        "painter": ("Picasso", "Van Gogh", "Rembrandt", "Monet", "Michelangelo", "Leonardo da Vinci"),
        "quarterback": ("Peyton Manning", "Cam Newton", "Tom Brady", "Aaron Rodgers", "Drew Brees"),
    },
}  # fmt: skip
# jieba's dictionary flags of each type, and Cilin's classes whose "#" groups are names of a kind (Di:
# countries, provinces, capitals; Dm: institutions; Cb: cities; Af: leaders).
ZH_FLAGS = {"location": ("ns",), "organization": ("nt",), "person": ("nr", "nrfg", "nrt")}
ZH_NAME_CLASSES = ("Di", "Dm", "Cb", "Af", "Be")
# Common Chinese surnames: a jieba "person" without one is mostly no name (小兔子, 双子座, 支付宝).
ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔"
    "钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
MIN_ZH_QUESTIONS = 5  # a name seen fewer times in LCQMC's questions is no one a person asks about
TOP = 3


class _ReplaceEntity(Operation):
    """A named entity of one type replaced by another of its class (see the subclasses)."""

    subcategory = "named_entity"
    label = DIFFERENT
    entity_type: ClassVar[str]

    def __init__(self, lang: str, resources=None, seed: int = 13):
        super().__init__(lang, resources, seed)
        self._found: dict[str, list[str]] = {}  # per name: its replacements, the lexicons read once

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        targets = self._english(q) if self.lang == "en" else self._chinese(q)
        if not targets:
            return Skip(f"no known {self.entity_type} name")
        start, old, news = rng.choice(targets)
        new = rng.choice(news[:TOP] if self.lang == "zh" else news)
        changes = [Change(start, old, new)]
        before = q.text[:start].rstrip().rsplit(" ", 1)[-1]
        if self.lang == "en" and before.lower() in ("a", "an"):  # "a Samsung TV" -> "an Apple TV"
            article = "an" if new[:1].lower() in "aeiou" else "a"
            article = article.capitalize() if before[:1].isupper() else article
            at = q.text.rstrip().rfind(before, 0, start)
            changes += [Change(at, before, article)] if article != before else []
        return self.make(q, changes)

    # English
    def _english(self, q: Parsed) -> list[tuple[int, str, list[str]]]:
        """Names of the type: runs of proper-noun tokens that are a name of WordNet's instances or of
        :data:`EN_NAMES`, with the other names of its class not in the question."""
        out = []
        tokens = q.tokens
        i = 0
        while i < len(tokens):
            if tokens[i].tag not in ("NNP", "NNPS"):
                i += 1
                continue
            j = i
            while j < len(tokens) and tokens[j].tag in ("NNP", "NNPS"):
                j += 1
            name = q.text[tokens[i].start : tokens[j - 1].end]
            # a name whose neighbour is capitalised is part of a longer one ("Hillary" + "Clinton" tagged
            # apart); one after an adverb, a modal or "to" is a verb ("easily Google it")
            before = tokens[i - 1] if i else None
            after = tokens[j] if j < len(tokens) else None
            longer = (
                before is not None
                and before.text[:1].isupper()
                and i > 1
                or after
                and after.text[:1].isupper()
            )
            verb = before is not None and before.tag in ("RB", "MD", "TO")
            # no candidate sharing a word with the question: "Hillary and Trump" -> "Hillary and Clinton"
            words = set(q.text.split())
            news = [n for n in self._en_kin(name) if not words & set(n.split())]
            if news and not longer and not verb:
                out.append((tokens[i].start, name, news))
            i = j
        return out

    def _en_kin(self, name: str) -> list[str]:
        if name not in self._found:  # WordNet's classes where it has named instances, else the lists
            found = self._wordnet_kin(name)
            for names in EN_NAMES[self.entity_type].values() if not found else ():
                if name in names:
                    found += [n for n in names if n != name and n not in found]
            self._found[name] = found
        return self._found[name]

    def _wordnet_kin(self, name: str) -> list[str]:
        """Other instances of the classes of ``name``'s WordNet instance sense (Paris -> Berlin, both
        national capitals), where the WordNet read has named instances (NLTK's does; Open English
        WordNet's 2025 edition has none)."""
        wn = self.res.wordnet
        if not wn.instance_hypernyms:
            return []
        out: list[str] = []
        for synset in wn.lemmas.get(name.lower(), {}).get("n", []):
            if name not in wn.synsets.get(synset, []):
                continue
            for cls in wn.instance_hypernyms.get(synset, []):
                for other in wn.instances.get(cls, []):
                    out += [m for m in wn.synsets.get(other, [])[:1] if m != name and m not in out]
        return out

    # Chinese
    def _chinese(self, q: Parsed) -> list[tuple[int, str, list[str]]]:
        flags = ZH_FLAGS[self.entity_type]
        out = []
        for token in q.tokens:
            if token.tag in flags and len(token.text) >= 2 and self._zh_name(token.text):
                news = [n for n in self._zh_kin(token.text, token.tag) if n not in q.text]
                if news:
                    out.append((token.start, token.text, news))
        return out

    def _zh_name(self, word: str) -> bool:
        """Whether a word jieba flags as a name of this type is one. jieba flags 城市, 东西, 明白, 支付宝
        as names; Cilin has the common words in its synonym groups. A place must be in one of Cilin's
        groups of names (provinces, capitals, countries, cities); a person is in Cilin's group of leaders
        or not in Cilin at all, and has a common surname; an organization is not a common word."""
        codes = self.res.cilin_codes.get(word, [])
        named = [c for c in codes if c[:2] in ZH_NAME_CLASSES and c.endswith(("#", "@"))]
        if self.entity_type == "location":
            return bool(named) and len(named) == len(codes)
        if self.entity_type == "person":
            if codes:
                return all(c[:2] == "Af" for c in codes)  # Cilin's leaders
            return word[0] in ZH_SURNAMES and len(word) <= 3 and word in self._people
        return len(named) == len(codes)

    def _zh_kin(self, word: str, flag: str) -> list[str]:
        """Names of the same kind: the other members of its Cilin name groups (山西 -> 陕西: provinces),
        else (persons, organizations) jieba's dictionary names of the same flag and length sharing the
        surname (周杰伦 -> 周星驰) or the last two characters (北京邮电大学 -> 南京邮电大学); names by
        :meth:`_zh_name`, seen in LCQMC's questions; those of the same length sharing a character in place
        first (山西 -> 陕西 before 湖北), then the commonest in questions."""
        if word in self._found:
            return self._found[word]
        res = self.res
        found = {w for c in res.cilin_codes.get(word, []) for w in res.cilin_groups[c] if w != word}
        if self.entity_type == "organization":  # a university for a university (not 神学院 for 清华大学)
            found = {w for w in found if w[-2:] == word[-2:]}
        if not found and self.entity_type == "person":
            shaped = self._by_shape.get((flag, len(word)), ())
            people = self._people
            found = {w for w in shaped if w[0] == word[0] and w not in res.cilin_codes and w in people}
            women, men = self._genders  # a woman for a woman, a man for a man, where the questions say
            found -= men if word in women else women if word in men else set()
        elif not found and self.entity_type == "organization" and len(word) >= 4:
            found = {w for w in self._by_shape.get((flag, len(word)), ()) if w[-2:] == word[-2:]}
        kin = []
        for w in found:
            if w == word or res.jieba_flags.get(w) != flag or not self._zh_name(w) or w in word or word in w:
                continue
            seen = res.zh_count(w)
            if seen >= MIN_ZH_QUESTIONS:
                kin.append((not _alike(w, word), -seen, w))
        self._found[word] = [w for *_, w in sorted(kin)]
        return self._found[word]

    @cached_property
    def _people(self) -> frozenset[str]:
        """The two- and three-character strings LCQMC's questions speak of as people (周星驰的电影,
        武则天的儿子): a jieba "person" never seen so is mostly a thing (金元宝, 黄花梨, 高梁)."""
        return self._seen_before(ZH_PERSON_CONTEXTS)

    @cached_property
    def _genders(self) -> tuple[frozenset[str], frozenset[str]]:
        """People LCQMC's questions give a husband (women) and a wife (men): "刘亦菲的老公" is no
        question to turn into "刘德华的老公"."""
        return self._seen_before(("的老公", "的丈夫", "的男朋友")), self._seen_before(
            ("的老婆", "的妻子", "的女朋友")
        )

    def _seen_before(self, contexts: tuple[str, ...]) -> frozenset[str]:
        pattern = "|".join(contexts)
        text = self.res.zh_questions
        return frozenset(
            m for n in (2, 3) for m in re.findall(rf"(?=([\u4e00-\u9fff]{{{n}}})(?:{pattern}))", text)
        )

    @cached_property
    def _by_shape(self) -> dict[tuple[str, int], list[str]]:
        """jieba's dictionary names of this type by flag and length."""
        shapes: dict[tuple[str, int], list[str]] = {}
        flags = ZH_FLAGS[self.entity_type]
        for w, f in self.res.jieba_flags.items():
            if f in flags and self.res.jieba_freq.get(w, 0) >= 5:
                shapes.setdefault((f, len(w)), []).append(w)
        return shapes


# What LCQMC's questions say of people (_ReplaceEntity._people).
ZH_PERSON_CONTEXTS = (
    "的老婆", "的老公", "的妻子", "的丈夫", "的女朋友", "的男朋友", "的女儿", "的儿子", "的父亲", "的母亲",
    "的歌", "的电影", "的电视剧", "的作品", "的小说", "的演唱会", "主演", "演唱", "唱的", "演的", "写的",
)  # fmt: skip


def _alike(a: str, b: str) -> bool:
    """Same length and a character in the same place (山西, 陕西; 成龙, 成X)."""
    return len(a) == len(b) and any(x == y for x, y in zip(a, b, strict=True))


@register
class ReplaceLocation(_ReplaceEntity):
    """A place replaced by another of its kind (DuQM E12: 山西春节习俗是什么 -> 陕西春节习俗是什么): in
    English a country, US state, city or continent from WordNet's named instances or a built-in list of
    such classes ("Boston" -> "Chicago", never a country for a city); in Chinese another member of its
    HIT Cilin name group (provinces, capitals, countries) or a jieba place name of the same shape. Label
    N: the question is about another place."""

    name = "replace_location"
    entity_type = "location"


@register
class ReplaceOrganization(_ReplaceEntity):
    """An organization replaced by another of its kind (DuQM E13: 北京邮电大学附近酒店 -> 南京邮电大学附近
    酒店): a company, university, team or party of the same class ("Google" -> "Microsoft", "Broncos" ->
    "Patriots"); in Chinese a member of its Cilin name group or a jieba organization name of the same
    shape. Label N."""

    name = "replace_organization"
    entity_type = "organization"


@register
class ReplacePerson(_ReplaceEntity):
    """A person replaced by another of the same kind (DuQM E14: 陈龙的妻子是谁 -> 成龙的妻子是谁): a
    president by a president, a composer by a composer ("Chopin" -> "Mozart"); in Chinese a member of the
    person's Cilin name group (leaders) or a jieba person name of the same length sharing a character in
    place (the surname: 周杰伦 -> 周X). Label N: another person."""

    name = "replace_person"
    entity_type = "person"


@register
class ReplaceProduct(_ReplaceEntity):
    """A product's model changed (DuQM E15: iphone 6多少钱 -> iphone6s多少钱): the number of an entity typed
    "product" moves to a neighbour ("iPhone 6" -> "iPhone 5"). Products are typed only by a spaCy NER
    pipeline (``--ner``); paraguide's rules and jieba have no product type, so without one every question
    is a Skip("no product typing without --ner"). Label N: another product."""

    name = "replace_product"
    entity_type = "product"

    def perturb_one(self, q: Parsed, rng: random.Random) -> Perturbation | Skip:
        products = [e for e in q.entities if e.type == "product"]
        if not products:
            return Skip("no product typing without --ner")
        found = []
        for e in products:
            for m in re.finditer(r"(?<![\d.])\d{1,3}(?![\d.])", e.text):
                value = int(m.group(0))
                news = [str(v) for v in (value - 1, value + 1) if v >= 1 and len(str(v)) == len(m.group(0))]
                found += [(e.start + m.start(), m.group(0), news)] if news else []
        if not found:
            return Skip("no model number in the product name")
        start, old, news = rng.choice(found)
        return self.make(q, [Change(start, old, rng.choice(news))])
