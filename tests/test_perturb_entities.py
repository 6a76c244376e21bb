"""Named-entity perturbations (DuQM's lexical "named entity"): a place, organization, person or product
replaced by another of its kind; exact outputs on hand-written English and Chinese questions, the reasons
they refuse, and WordNet's named instances where a WordNet read has them."""

from __future__ import annotations

from paraguide.perturb.base import DIFFERENT, Parsed, Perturbation, parse
from paraguide.perturb.entities import ReplaceLocation, ReplaceOrganization, ReplacePerson, ReplaceProduct
from paraguide.perturb.resources import Resources
from paraguide.suggest.lexicon import WordNet
from paraguide.text.entities import Entity


def run(op, lang: str, resources: Resources, questions: list[str]) -> list[str]:
    """Each question's perturbed form, or the reason it was refused."""
    results = op(lang, resources, seed=13).perturb(parse(questions, lang))
    return [r.perturbed if isinstance(r, Perturbation) else r.reason for r in results]


def test_english_places_organizations_and_people_of_the_same_class(en_resources):
    assert run(ReplaceLocation, "en", en_resources, [
        "What are the best hotels in Boston?",  # a US city for a US city
        "Is tipping necessary in Canada?",  # a country for a country
        "What is the capital of the United States?",  # "the United States" takes "the": left out
        "How many people live in New York City?",  # a longer name than any listed
    ]) == [
        "What are the best hotels in Phoenix?",
        "Is tipping necessary in Korea?",
        "no known location name",
        "no known location name",
    ]  # fmt: skip
    assert run(ReplaceOrganization, "en", en_resources, [
        "What skills do I need to get a job at Google?",
        "Is there an Apple store in Boston?",  # the article agrees
        "Who led the Broncos in sacks?",
        "Why do so many people easily Google things?",  # a verb
    ]) == [
        "What skills do I need to get a job at Twitter?",
        "Is there a Google store in Boston?",
        "Who led the Saints in sacks?",
        "no known organization name",
    ]  # fmt: skip
    assert run(ReplacePerson, "en", en_resources, [
        "Why do you support Donald Trump?",
        "How old was Peyton Manning in 2015?",  # a quarterback for a quarterback
        "Is Hillary Clinton honest?",  # a woman for a woman
        "What did Hillary Clinton say about her campaign?",  # "Hillary" tagged an adjective: a name's part
    ]) == [
        "Why do you support Nixon?",
        "How old was Drew Brees in 2015?",
        "Is Sarah Palin honest?",
        "no known person name",
    ]  # fmt: skip


def test_chinese_names_from_cilin_groups_and_jieba(zh_resources):
    assert run(
        ReplaceLocation,
        "zh",
        zh_resources,
        ["山西春节习俗是什么", "温州有什么好玩的地方？", "城市里哪里好玩"],
    ) == [
        "江西春节习俗是什么",  # provinces, the same shape first (山西 -> 江西 / 陕西 before 湖北)
        "杭州有什么好玩的地方？",
        "no known location name",  # jieba's "place" 城市 is a common word in Cilin
    ]
    assert run(
        ReplaceOrganization,
        "zh",
        zh_resources,
        ["北京邮电大学附近酒店有哪些", "清华大学怎么样", "支付宝怎么绑定"],
    ) == [
        "北京联合大学附近酒店有哪些",
        "中山大学怎么样",  # a university for a university
        "no known organization name",
    ]
    assert run(
        ReplacePerson, "zh", zh_resources, ["周润发电影全集", "支付宝怎么绑定", "刘亦菲的老公是谁"]
    ) == [
        "周杰伦电影全集",  # the same surname, a person LCQMC's questions speak of
        "no known person name",  # jieba's "person" 支付宝 has no surname
        "no known person name",  # no woman of her surname that the questions speak of
    ]


def test_products_need_a_product_type(en_resources):
    questions = ["How much does an iPhone 6 cost?"]
    assert run(ReplaceProduct, "en", en_resources, questions) == ["no product typing without --ner"]
    # with a spaCy pipeline's "product" entity, the model number moves
    start = questions[0].index("iPhone 6")
    entity = Entity("iPhone 6", "product", start, start + 8)
    typed = Parsed(questions[0], "en", parse(questions, "en")[0].tokens, [entity])
    [pair] = ReplaceProduct("en", en_resources, seed=13).perturb([typed])
    assert pair.perturbed == "How much does an iPhone 5 cost?" and pair.label == DIFFERENT
    assert (pair.category, pair.subcategory, pair.operation) == ("lexical", "named_entity", "replace_product")
    untyped = Parsed("Is it a Kindle?", "en", [], [Entity("Kindle", "product", 8, 14)])
    assert (
        ReplaceProduct("en", en_resources).perturb([untyped])[0].reason
        == "no model number in the product name"
    )


def test_wordnet_instances_are_used_where_the_index_has_them(tagger):
    """Open English WordNet's 2025 edition has no named instances; NLTK's WordNet has: Paris -> Berlin."""
    wn = WordNet.__new__(WordNet)
    wn._load(
        {
            "lemmas": {"paris": {"n": ["paris.n.01"]}, "berlin": {"n": ["berlin.n.01"]}},
            "synsets": {"paris.n.01": ["Paris"], "berlin.n.01": ["Berlin"], "capital.n.01": ["capital"]},
            "antonyms": {},
            "hypernyms": {},
            "instance_hypernyms": {"paris.n.01": ["capital.n.01"], "berlin.n.01": ["capital.n.01"]},
        }
    )
    resources = Resources("en")
    resources.wordnet = wn  # the cached lexicon, set by hand
    assert run(ReplaceLocation, "en", resources, ["Where is Paris?"]) == ["Where is Berlin?"]
