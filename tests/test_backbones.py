"""The copy head over local pretrained checkpoints (T5- and BART-shaped), fully fine-tuned or with LoRA."""

import dataclasses

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

from safetensors.torch import load_file  # noqa: E402
from tiny_checkpoints import make_bart, make_bert, make_t5  # noqa: E402
from toy_corpus import toy_texts, toy_train_config, write_toy_corpus  # noqa: E402

from paraguide.model.backbone import load_checkpoint_model, load_checkpoint_tokenizer  # noqa: E402
from paraguide.model.paraphraser import Paraphraser  # noqa: E402
from paraguide.model.tokenizer import EMPTY, SEP, model_input  # noqa: E402
from paraguide.model.train import TrainConfig, train  # noqa: E402

MAKERS = {"t5": make_t5, "bart": make_bart}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_toy_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module", params=sorted(MAKERS))
def checkpoint(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param)
    MAKERS[request.param](folder, toy_texts())
    return folder


def config(corpus, checkpoint, out, **kw):
    return toy_train_config(corpus, out, **{"backbone": str(checkpoint), **kw})


def same_where_both(old: torch.Tensor, new: torch.Tensor) -> bool:
    """Equal on the old tensor's extent (embeddings may have grown rows for the new tokens)."""
    return torch.equal(old, new[tuple(slice(0, n) for n in old.shape)].to(old.dtype))


def test_tokenizer_is_extended_and_the_question_keeps_its_tokens(checkpoint):
    tokenizer = load_checkpoint_tokenizer(checkpoint)
    sep, empty = tokenizer.convert_tokens_to_ids([SEP, EMPTY])
    assert sep != tokenizer.unk_token_id and empty != tokenizer.unk_token_id and sep != empty
    question = "how can i learn chess?"
    alone = tokenizer(question, add_special_tokens=False)["input_ids"]
    inside = tokenizer(model_input("best way", question), add_special_tokens=False)["input_ids"]
    assert inside[inside.index(sep) + 1 :] == alone  # copyable: the same ids as the question's own
    assert tokenizer(model_input(None, question), add_special_tokens=False)["input_ids"][:2] == [empty, sep]
    model = load_checkpoint_model(checkpoint, len(tokenizer))
    assert model.get_input_embeddings().num_embeddings >= len(tokenizer)


@pytest.mark.slow
def test_full_fine_tuning_learns_the_toy_task_and_reloads(corpus, checkpoint, tmp_path):
    result = train(config(corpus, checkpoint, tmp_path / "m", max_steps=200))
    assert result["suggestion_inclusion"] >= 0.9, result
    paraphraser = Paraphraser.from_pretrained(tmp_path / "m", device="cpu")
    [[best]] = paraphraser.paraphrase(["how can i learn chess?"], ["cheapest way"], num_beams=2)
    assert best.text == "what is the cheapest way to learn chess?" and best.includes_suggestion


@pytest.mark.slow
def test_lora_trains_adapters_copy_head_and_new_tokens_only(corpus, checkpoint, tmp_path):
    from paraguide.model.train import _build

    cfg = config(corpus, checkpoint, tmp_path / "m", lora=True, lora_r=8, max_steps=5)
    tokenizer = load_checkpoint_tokenizer(checkpoint)
    trainable = [n for n, p in _build(cfg, tokenizer).named_parameters() if p.requires_grad]
    assert any("lora_A" in n for n in trainable) and any("trainable_tokens" in n for n in trainable)
    assert {n for n in trainable if not ("lora_" in n or "trainable_tokens" in n)} == {
        "copy_query.weight",
        "copy_key.weight",
        "p_gen.weight",
        "p_gen.bias",
    }
    train(cfg)
    # Saved merged, as a plain model: the attention query/value projections (peft's default targets)
    # and the embeddings (the new tokens' rows) changed; nothing else did.
    before = load_file(checkpoint / "model.safetensors")
    after = {
        k.removeprefix("backbone."): v for k, v in load_file(tmp_path / "m" / "model.safetensors").items()
    }
    assert not any("lora" in k or "trainable_tokens" in k for k in after)
    changed = {k for k in before if not same_where_both(before[k], after[k])}
    projections = {
        k for k in changed if k.endswith(("q.weight", "v.weight", "q_proj.weight", "v_proj.weight"))
    }
    assert projections and changed - projections <= {"shared.weight", "model.shared.weight"}, changed
    embeddings = after.get("shared.weight", after.get("model.shared.weight"))
    original = before.get("shared.weight", before.get("model.shared.weight"))
    rows_changed = (embeddings[: len(original)] != original).any(-1).nonzero().flatten().tolist()
    assert rows_changed == [] or set(rows_changed) <= set(tokenizer.convert_tokens_to_ids([SEP, EMPTY]))


@pytest.mark.slow
def test_lora_learns_the_toy_task(corpus, checkpoint, tmp_path):
    # A random "pretrained" backbone gives LoRA less to build on than a real one: all linear layers.
    cfg = config(corpus, checkpoint, tmp_path / "m", lora=True, lora_r=8, lora_target_modules="all-linear")
    result = train(dataclasses.replace(cfg, lr=1e-2, max_steps=200))
    assert result["suggestion_inclusion"] >= 0.9, result
    paraphraser = Paraphraser.from_pretrained(tmp_path / "m", device="cpu")
    [[best]] = paraphraser.paraphrase(["how can i learn piano?"], ["easiest way"], num_beams=2)
    assert best.text == "what is the easiest way to learn piano?", best


def test_lora_without_a_backbone_is_refused(corpus, tmp_path):
    with pytest.raises(ValueError, match="lora needs a pretrained backbone"):
        TrainConfig(train_file=str(corpus), output_dir=str(tmp_path), lora=True)


def test_checkpoints_that_are_not_local_safe_seq2seq_folders_are_refused(checkpoint, tmp_path):
    with pytest.raises(FileNotFoundError, match="not a local folder"):
        load_checkpoint_tokenizer(tmp_path / "t5-small")
    pickled = tmp_path / "pickled"
    pickled.mkdir()
    (pickled / "config.json").write_text((checkpoint / "config.json").read_text())
    (pickled / "pytorch_model.bin").write_bytes(b"not loaded")
    with pytest.raises(
        ValueError,
        match=r"only pickled weights \(pytorch_model.bin\), no .safetensors file; paraguide never unpickles",
    ):
        load_checkpoint_model(pickled, 100)
    decoder_only = tmp_path / "gpt2"
    decoder_only.mkdir()
    (decoder_only / "config.json").write_text('{"model_type": "gpt2"}')
    (decoder_only / "model.safetensors").write_bytes(b"")
    with pytest.raises(
        ValueError, match="gpt2 is not an encoder-decoder .seq2seq. model, nor a BERT-type encoder"
    ):
        load_checkpoint_model(decoder_only, 100)


@pytest.mark.slow
def test_bert_encoder_checkpoint_warm_starts_encoder_and_decoder(corpus, tmp_path):
    # BERT2BERT (Rothe et al. 2020): a tiny BERT built here stands in for all-MiniLM-L6-v2.
    make_bert(tmp_path / "bert", toy_texts())
    result = train(config(corpus, tmp_path / "bert", tmp_path / "m", max_steps=150))
    assert result["suggestion_inclusion"] >= 0.9, result
    paraphraser = Paraphraser.from_pretrained(tmp_path / "m", device="cpu", dtype="float32")
    backbone = paraphraser.model.backbone
    assert type(backbone).__name__ == "EncoderDecoderModel"
    assert backbone.decoder.config.add_cross_attention and backbone.decoder.config.is_decoder
    [[best]] = paraphraser.paraphrase(["how can i learn chess?"], ["cheapest way"], num_beams=2)
    assert best.text == "what is the cheapest way to learn chess?" and best.includes_suggestion
    # save -> load: the same weights, the same outputs
    paraphraser.model.save_pretrained(tmp_path / "again")
    paraphraser.tokenizer.save_pretrained(tmp_path / "again")
    again = Paraphraser.from_pretrained(tmp_path / "again", device="cpu", dtype="float32")
    questions, suggestions = ["how can i learn piano?", "how can i learn rust?"], ["easiest way", None]
    first = paraphraser.paraphrase(questions, suggestions, num_beams=3, num_return_sequences=2)
    assert again.paraphrase(questions, suggestions, num_beams=3, num_return_sequences=2) == first


def test_shallow_decoder_takes_the_checkpoints_first_layers(tmp_path):
    # Deep encoder, shallow decoder (Kasai et al. 2021): the decoder is the checkpoint's first layer only.
    from safetensors.torch import load_file as load

    make_bert(tmp_path / "bert", toy_texts())
    tokenizer = load_checkpoint_tokenizer(tmp_path / "bert")
    model = load_checkpoint_model(tmp_path / "bert", len(tokenizer), decoder_layers=1)
    assert model.encoder.config.num_hidden_layers == 2 and model.decoder.config.num_hidden_layers == 1
    weights = load(str(tmp_path / "bert" / "model.safetensors"))
    name = "encoder.layer.0.attention.self.query.weight"
    key = next(k for k in weights if k.endswith(name))
    assert torch.equal(model.decoder.bert.get_parameter(name), weights[key])
    with pytest.raises(ValueError, match="decoder_layers needs a BERT-type --backbone"):
        TrainConfig(train_file="x", output_dir="y", decoder_layers=1)


def test_bert_tokenizer_ends_texts_with_sep(tmp_path):
    make_bert(tmp_path / "bert", toy_texts())
    tokenizer = load_checkpoint_tokenizer(tmp_path / "bert")
    assert tokenizer.eos_token == "[SEP]"  # a BERT text ends with [SEP]: so does a generated one
    ids = tokenizer("how can i learn chess?")["input_ids"]
    assert ids[0] == tokenizer.cls_token_id and ids[-1] == tokenizer.sep_token_id
