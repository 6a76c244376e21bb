import pytest

pytest.importorskip("sentencepiece")
pytest.importorskip("transformers")

from paraguide.model.tokenizer import EMPTY, SEP, load_tokenizer, model_input, train_tokenizer  # noqa: E402

TEXTS = [
    "How can I learn Python quickly?",
    "What is the fastest way to learn Python?",
    "Why is the sky blue?",
    "What makes the sky look blue?",
    "How do I cook rice?",
    "为什么天空是蓝色的?",
    "怎样才能快速学会游泳",
] * 30


@pytest.fixture(scope="module")
def tokenizer_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("tok")
    train_tokenizer(TEXTS, path, vocab_size=400)
    return path


def test_model_input():
    assert model_input("fastest way", " how? ") == f"fastest way {SEP} how?"
    assert model_input(None, "how?") == model_input("  ", "how?") == f"{EMPTY} {SEP} how?"


def test_special_tokens_at_fixed_ids(tokenizer_dir):
    tok = load_tokenizer(tokenizer_dir)
    assert (tok.pad_token_id, tok.eos_token_id, tok.unk_token_id, tok.sep_token_id) == (0, 1, 2, 3)
    assert tok.convert_tokens_to_ids(EMPTY) == 4
    ids = tok(model_input("", "why is the sky blue?")).input_ids
    assert ids[0] == 4 and ids[1] == 3 and ids[-1] == 1


def test_question_tokens_are_the_same_inside_the_input(tokenizer_dir):
    tok = load_tokenizer(tokenizer_dir)
    for suggestion, question in [
        ("fastest way", "How can I learn Python quickly?"),
        ("", "为什么天空是蓝色的?"),
    ]:
        inside, alone = tok(model_input(suggestion, question)).input_ids, tok(question).input_ids
        assert inside[-len(alone) :] == alone


def test_lowercase_round_trip_and_no_unknowns(tokenizer_dir):
    tok = load_tokenizer(tokenizer_dir)
    ids = tok("How can I learn Python QUICKLY? 天空 ☃").input_ids
    assert tok.unk_token_id not in ids  # byte fallback
    assert tok.decode(ids, skip_special_tokens=True) == "how can i learn python quickly? 天空 ☃"


def test_saved_tokenizer_reloads_identically(tokenizer_dir, tmp_path):
    tok = load_tokenizer(tokenizer_dir)
    tok.save_pretrained(tmp_path)
    again = load_tokenizer(tmp_path)
    text = model_input("best way", "what is the fastest way to learn python?")
    assert again(text).input_ids == tok(text).input_ids
    assert (tokenizer_dir / "spiece.model").exists() and (tokenizer_dir / "tokenizer.json").exists()


def test_model_input_formats():
    from paraguide.model.tokenizer import model_input

    assert (
        model_input("fastest way", "how can i learn python?") == "fastest way <sep> how can i learn python?"
    )
    assert model_input(None, "why?") == "<empty> <sep> why?"
    assert (
        model_input("erected", "who built it?", "built", "replace")
        == "built <sep> erected <sep> who built it?"
    )
    assert (
        model_input("erected", "who built it?", None, "replace")
        == "<empty> <sep> erected <sep> who built it?"
    )
    assert model_input(" ", "why?", "", "replace") == "<empty> <sep> <empty> <sep> why?"
    with pytest.raises(ValueError, match="unknown input format 'markers'"):
        model_input("x", "why?", "y", "markers")
