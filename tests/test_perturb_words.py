"""Part-of-speech perturbations (DuQM's lexical "part of speech"): a noun, verb, adjective or adverb replaced by
a related, different one, a number or a measure changed, a frequency adverb inserted; exact outputs on
hand-written English and Chinese questions, and the reasons they refuse."""

from __future__ import annotations

from paraguide.perturb.base import DIFFERENT, Perturbation, parse
from paraguide.perturb.resources import Resources
from paraguide.perturb.words import (
    InsertAdverb,
    ReplaceAdjective,
    ReplaceAdverb,
    ReplaceNoun,
    ReplaceNumeral,
    ReplaceQuantifier,
    ReplaceVerb,
    _digits,
    _nearby,
)

NO_HABIT = "no one, or what cannot be: no habit to ask about"


def run(op, lang: str, resources: Resources, questions: list[str]) -> list[str]:
    """Each question's perturbed form, or the reason it was refused."""
    results = op(lang, resources, seed=13).perturb(parse(questions, lang))
    return [r.perturbed if isinstance(r, Perturbation) else r.reason for r in results]


def test_english_nouns_and_verbs_become_kin_from_wordnet_and_the_corpus(en_resources):
    # kin: coordinated in the corpus ("cars and bikes") and meeting at a near hypernym in WordNet
    assert run(ReplaceNoun, "en", en_resources, [
        "Where can I rent a car in Delhi?",
        "What is the best guitar for beginners?",
        "Who wrote the book?",  # "book": ten senses, WordNet's first is not sure to be the one meant
        "Where do black holes come from?",  # "black hole": the noun of a compound is kept
        "What happened in 1990?",
    ]) == [
        "Where can I rent a bike in Delhi?",
        "What is the best drum for beginners?",
        "no related noun in WordNet",
        "no noun to replace",
        "no noun to replace",
    ]  # fmt: skip
    assert run(ReplaceVerb, "en", en_resources, [
        "How much water a day do I need to drink to lose weight?",
        "Is it okay to eat two meals a day?",  # a verb with an object: "drink two meals"
        "Why do I burp?",
        "Why do dogs throw up?",  # a phrasal verb
    ]) == [
        "How much water a day do I need to eat to lose weight?",
        "no related verb in WordNet",
        "no related verb in WordNet",
        "no verb to replace",
    ]  # fmt: skip


def test_english_adjectives_and_adverbs_come_from_contrasting_groups(en_resources):
    assert run(ReplaceAdjective, "en", en_resources, [
        "Does green tea help to lose weight?",
        "How do I learn Japanese by watching anime?",  # a language for a language, capitalised
        "Where do black holes come from?",  # no colour of "holes" is seen in the corpus
        "What is the best guitar for beginners?",
    ]) == [
        "Does white tea help to lose weight?",
        "How do I learn English by watching anime?",
        "no related adjective in the word groups",
        "no adjective to replace",
    ]  # fmt: skip
    assert run(ReplaceAdverb, "en", en_resources, [
        "Why does my cat always sleep?",
        "Is the river very deep?",
        "How often should I feed my cat?",  # "how sometimes" is no question
    ]) == [
        "Why does my cat usually sleep?",
        "Is the river slightly deep?",
        "no adverb to replace",
    ]  # fmt: skip


def test_english_numbers_keep_their_form_and_spare_names_and_one(en_resources):
    assert run(ReplaceNumeral, "en", en_resources, [
        "Is it okay to eat two meals a day?",
        "Who won two titles in 1,200 days?",
        "What happened in 1990?",  # a year: the next or the last
        "How much is 2.5 million dollars?",
        "How do I lose 10 pounds in a month?",
        "Which NFL team won Super Bowl 50?",  # a name's number
        "Is one enough?",  # "one" -> "two" would break the noun's number
    ]) == [
        "Is it okay to eat three meals a day?",
        "Who won two titles in 1,300 days?",
        "What happened in 1989?",
        "How much is 3.5 million dollars?",
        "How do I lose 20 pounds in a month?",
        "no number to change",
        "no number to change",
    ]  # fmt: skip


ASKED_UNIT = "a unit after how many / 几 / 多少: the same quantity asked"


def test_english_units_and_quantifiers(en_resources):
    assert run(ReplaceQuantifier, "en", en_resources, [
        "How do I lose 10 pounds in a month?",
        "How many hours of sleep do I need?",  # after "how many": the same quantity in another unit
        "Why do some people hate cats?",
        "What are some tips for writing?",  # not a subject's quantifier: "what are few tips"
        "How old is a 25 year old cat?",  # an age
    ]) == [
        "How do I lose 10 kilograms in a month?",
        ASKED_UNIT,  # "how many minutes" asks the same quantity
        "Why do many people hate cats?",
        "no measure or quantifier to replace",
        "no measure or quantifier to replace",
    ]  # fmt: skip


def test_english_frequency_adverbs_go_before_the_verb_or_the_adjective(en_resources):
    assert run(InsertAdverb, "en", en_resources, [
        "Why do I burp?",
        "Why does my dog bark at night?",  # "bark" tagged a noun
        "Does green tea help to lose weight?",
        "Is it safe to eat raw eggs?",  # a state: "always"
        "Why is the Dodo extinct?",
        "Why do I have 3 cats?",
        "When did the Normans conquer England?",
        "Why don't I sleep well?",
        "Why does my cat always sleep?",
        "Why do land breezes occur at night?",  # "breezes" tagged a verb
        # reading c judged these the same question with "sometimes": not always is asked already
        "Why do some people use Quora when Google could be used instead?",
        "Why does my question keep getting marked as needing improvement?",
    ]) == [
        "Why do I sometimes burp?",
        "Why does my dog sometimes bark at night?",
        "Does green tea always help to lose weight?",
        "Is it always safe to eat raw eggs?",
        "an adjective of a lasting state",
        "a verb of a state",
        "no why- or yes/no question in the present",
        "a negation or a frequency word already",
        "a negation or a frequency word already",
        "no verb or adjective after the subject",
        "a habit or a part of a group already (keep, tend, some)",
        "a habit or a part of a group already (keep, tend, some)",
    ]  # fmt: skip


def test_chinese_nouns_verbs_adjectives_and_adverbs(zh_resources):
    # a Cilin neighbour with the same head character, seen beside the question's words in LCQMC
    assert run(ReplaceNoun, "zh", zh_resources, ["我和女朋友的问题", "黄瓜怎么吃？", "什么东西是长方形的", "手机怎么连接电脑",
                                       "为什么打嗝"]) == [
        "我和男朋友的问题", "冬瓜怎么吃？", "什么东西是三角形的", "no related noun in Cilin", "no noun to replace",
    ]  # fmt: skip
    assert run(ReplaceVerb, "zh", zh_resources, ["月经期可以喝茶吗", "为什么喜欢你"]) == [
        "月经期可以喝酒吗",
        "no related verb in Cilin",
    ]
    assert run(ReplaceAdjective, "zh", zh_resources, ["红色鞋子配什么裤子好看", "黄瓜怎么吃？"]) == [
        "绿色鞋子配什么裤子好看",
        "no adjective to replace",
    ]
    assert run(
        ReplaceAdverb, "zh", zh_resources, ["为什么我总是和男朋友吵架", "为什么我会非常累", "有些什么功效"]
    ) == [
        "为什么我有时和男朋友吵架",
        "为什么我会有点累",
        "no adverb to replace",  # 有些 of "有些什么": "are there", no degree
    ]


def test_chinese_numbers_and_measures(zh_resources):
    questions = ["怀孕八个月能坐飞机吗", "血压130/100高吗", "苹果6多少钱", "跑5公里要多久", "三个小时能到吗",
                 "2018年春节是几号", "一束花多少钱", "第一次怎么办", "这两天怎么老是下雨", "离子烫几天能洗头"]  # fmt: skip
    assert run(ReplaceNumeral, "zh", zh_resources, questions) == [
        "怀孕九个月能坐飞机吗",
        "血压120/100高吗",  # not 100: a number before 高 is no count
        "no number to change",  # 苹果6: a model's number
        "跑6公里要多久",
        "四个小时能到吗",
        "2019年春节是几号",
        "no number to change",  # 一 reads as "a"
        "no number to change",  # an ordinal
        "no number to change",  # 这两天: "these days"
        "no number to change",
    ]
    assert run(ReplaceQuantifier, "zh", zh_resources, questions) == [
        "怀孕八周能坐飞机吗",
        "no measure or quantifier to replace",
        "no measure or quantifier to replace",
        "跑5米要多久",  # a neighbour on the scale, not 厘米
        "三分钟能到吗",
        "no measure or quantifier to replace",
        "一枝花多少钱",
        "no measure or quantifier to replace",
        "no measure or quantifier to replace",
        ASKED_UNIT,  # after 几: 几周 asks the same quantity
    ]


def test_chinese_frequency_adverbs(zh_resources):
    assert run(InsertAdverb, "zh", zh_resources, [
        "为什么打嗝", "宝宝为什么哭", "为什么我的手机不能上网", "打嗝怎么办", "为什么喜欢你", "手机屏幕碎了怎么办",
        "为什么经常头晕", "黄瓜怎么吃？", "为什么没人喜欢我？", "菠萝吃多为什么会舌头上火流血",
    ]) == [
        "为什么总是打嗝",
        "宝宝为什么经常哭",
        # reading c: 为什么老是不能水洗 / 为什么经常没人喜欢我 were read as the same question
        NO_HABIT,
        "经常打嗝怎么办",
        "no verb or adjective after the subject",  # 喜欢: a state
        "a frequency word or a finished event already",  # 了
        "a frequency word or a finished event already",
        "no why-question nor 怎么办",
        NO_HABIT,
        "会 asks about a tendency already",  # reading d: 经常会 adds little
    ]  # fmt: skip


def test_pairs_are_labelled_different_and_keep_the_rest_of_the_question(en_resources):
    [pair] = ReplaceNoun("en", en_resources, seed=13).perturb(
        parse(["Where can I rent a car in Delhi?"], "en")
    )
    assert (pair.label, pair.category, pair.subcategory, pair.operation) == (
        DIFFERENT, "lexical", "part_of_speech", "replace_noun",
    )  # fmt: skip
    assert [(c.start, c.old, c.new) for c in pair.changes] == [(19, "car", "bike")]
    # a sentence-initial word keeps its capital
    assert run(ReplaceQuantifier, "en", en_resources, ["Some people hate cats, why?"]) == [
        "Many people hate cats, why?"
    ]


def test_nearby_numbers_step_by_their_roundness():
    assert _nearby(130) == [120, 140] and _nearby(50) == [40, 60] and _nearby(7) == [6, 8]
    assert _nearby(1000) == [2000] and _nearby(2) == [3] and _nearby(9) == [8]
    assert _digits("1,200") == ["1,100", "1,300"] and _digits("2.5") == ["3.5"]
    assert _digits("1990") == ["1989", "1991"] and _digits("1000") == ["2000"]  # a year; a round count
    assert _digits("1") == [] and _digits("0") == [] and _digits("13800138000") == []  # a phone number


def test_day_is_neither_replaced_nor_a_replacement(en_resources, zh_resources):
    # 一天只吃两顿饭 -> 一周, 每天 -> 每小时 read implausible (blind reading a); 小时 -> 分钟 and 周 -> 个月 stay
    assert run(ReplaceQuantifier, "zh", zh_resources, ["为什么有人一天只吃两顿饭", "每天跑步5公里好吗", "三个小时能到吗", "怀孕八周能坐飞机吗", "多少个小时能到"]) == [
        "天 swapped with 小时 or 周 reads implausible",
        "每天跑步5米好吗",  # the distance is changed, never the day
        "三分钟能到吗",
        "怀孕八个月能坐飞机吗",
        ASKED_UNIT,
    ]  # fmt: skip
    assert run(ReplaceQuantifier, "en", en_resources, ["How many hours of sleep do I need?", "How much pounds can I lose?"]) == [
        ASKED_UNIT,
        ASKED_UNIT,
    ]  # fmt: skip


def test_english_person_of_another_age_or_register_is_refused(en_resources):
    # "Do girls ...?" / "Do women ...?" were read as one question (blind reading a); "a women" -> "a girls" too
    assert run(ReplaceNoun, "en", en_resources, [
        "Do girls love anal sex?",
        "How do I ask a girl out.",
        "Why do a women cheat?",
        "Where can I rent a car in Delhi?",
        "How do we control our emotions?",  # "feelings": also "feeling", of which an emotion is a kind
    ]) == [
        "a person of another age or register only",
        "a person of another age or register only",
        "a plural noun after a / an",
        "Where can I rent a bike in Delhi?",
        "no related noun in WordNet",
    ]  # fmt: skip
