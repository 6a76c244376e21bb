"""The bundled default paraphrasers (paraguide/models/<lang>), as a user meets them with no --model."""

import pytest

pytest.importorskip("torch")

from paraguide.model.paraphraser import Paraphraser, default_model_path  # noqa: E402


def test_bundled_english_model_uses_the_suggestion():
    # The example, then three more; the model card measures ~90 % inclusion on held-out data.
    paraphraser = Paraphraser.from_pretrained(default_model_path("en"), device="cpu")
    questions = [
        "how can i learn python quickly?",
        "why is the sky blue?",
        "how do i improve my english speaking skills?",
        "who invented the telephone?",
    ]
    suggestions = ["fastest way", "what makes", "fluently", "inventor"]
    results = [r[0] for r in paraphraser.paraphrase(questions, suggestions, num_beams=4)]
    assert results[0].includes_suggestion and "python" in results[0].text
    assert sum(r.includes_suggestion for r in results) >= 3


def test_bundled_chinese_model_paraphrases():
    # Measured on held-out LCQMC: 79 % suggestion inclusion (model card); here only that it loads and writes.
    paraphraser = Paraphraser.from_pretrained(default_model_path("zh"), device="cpu")
    out = paraphraser.paraphrase(["怎样才能快速学会游泳", "手机电池不耐用怎么办"], num_beams=4)
    assert all(r[0].text and any("\u4e00" <= ch <= "\u9fff" for ch in r[0].text) for r in out)


def test_missing_bundled_model_says_what_to_do():
    with pytest.raises(
        FileNotFoundError, match=r"no bundled paraphraser for 'fr' \(bundled: en, zh\); pass --model"
    ):
        default_model_path("fr")
