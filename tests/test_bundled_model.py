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
        FileNotFoundError, match=r"no bundled paraphraser for 'fr' \(bundled: en, zh\); pass --model"
    ):
        default_model_path("fr")
