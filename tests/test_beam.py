"""paraguide's own beam search (finished sentences leave the batch) against transformers' generate."""

import pytest

torch = pytest.importorskip("torch")

from paraguide.model import beam  # noqa: E402
from paraguide.model.beam import beam_search, supports  # noqa: E402
from paraguide.model.copy import build_model  # noqa: E402
from paraguide.model.incremental import IncrementalBartDecoder  # noqa: E402
from paraguide.model.paraphraser import Paraphraser, default_model_path  # noqa: E402
from paraguide.model.tokenizer import model_input  # noqa: E402

pytestmark = pytest.mark.slow  # every test decodes with the bundled model or compares with generate

QUESTIONS = [
    ("fastest way", "how can i learn python quickly?"),
    (None, "why is the sky blue?"),
    ("inventor", "who invented the telephone?"),
    ("fluently", "how do i improve my english speaking skills so that i can talk to people at work?"),
    ("best place", "where can i buy cheap books online?"),
    (None, "what is the meaning of life?"),
]


@pytest.fixture(scope="module")
def english():
    return Paraphraser.from_pretrained(default_model_path("en"), device="cpu", dtype="float32")


def batch(paraphraser, pairs):
    texts = [model_input(s, q) for s, q in pairs]
    return paraphraser.tokenizer(texts, padding=True, return_tensors="pt")


@pytest.mark.parametrize(
    "settings",
    [
        dict(num_beams=4, max_new_tokens=48),
        dict(num_beams=3, max_new_tokens=48, length_penalty=0.6),
        dict(num_beams=4, max_new_tokens=12, min_new_tokens=12),  # every output forced to 12 tokens
        dict(num_beams=4, max_new_tokens=5),  # cut at the maximum length
    ],
)
def test_same_hypotheses_and_scores_as_generate(english, settings):
    enc = batch(english, QUESTIONS)
    k, penalty = settings["num_beams"], settings.get("length_penalty", 1.0)
    with torch.no_grad():
        ref = english.model.generate(
            enc["input_ids"],
            attention_mask=enc["attention_mask"],
            num_return_sequences=k,
            output_scores=True,
            return_dict_in_generate=True,
            **settings,
        )
    found = beam_search(english.model, enc["input_ids"], enc["attention_mask"], **settings)
    assert [len(beams) for beams in found] == [k] * len(QUESTIONS)
    for i, beams in enumerate(found):
        for j, h in enumerate(beams):
            expected = ref.sequences[i * k + j, 1:].tolist()
            # generate pads finished hypotheses with the end-of-sequence token
            assert expected[: len(h.tokens)] == h.tokens and set(expected[len(h.tokens) :]) <= {1}
            assert h.log_prob / len(h.tokens) ** penalty == pytest.approx(
                ref.sequences_scores[i * k + j].item(), abs=1e-4
            )
    if "min_new_tokens" in settings:
        assert all(len(h.tokens) == 12 for beams in found for h in beams)


def test_a_sentence_gets_the_same_beams_alone_as_in_a_batch(english):
    together = beam_search(english.model, **_inputs(batch(english, QUESTIONS)))
    for i, pair in enumerate(QUESTIONS):
        alone = beam_search(english.model, **_inputs(batch(english, [pair])))[0]
        assert [h.tokens for h in alone] == [h.tokens for h in together[i]]
        assert [h.log_prob for h in alone] == pytest.approx([h.log_prob for h in together[i]], abs=1e-4)


@pytest.mark.parametrize("group", [1, 2, 3])
def test_decided_sentences_leave_in_groups_without_changing_any_result(english, monkeypatch, group):
    # Decided sentences leave so that the live sentences stay a multiple of the group (down to the last
    # few); those kept to fill a group must neither change the others' beams nor be reported twice.
    enc = _inputs(batch(english, QUESTIONS))
    expected = beam_search(english.model, **enc)  # the default groups of 4: nothing is kept to fill here
    live = []
    step = IncrementalBartDecoder.step
    monkeypatch.setattr(beam, "LEAVE_IN_GROUPS_OF", group)
    monkeypatch.setattr(
        IncrementalBartDecoder, "step", lambda d, t: live.append(t.numel() // 4) or step(d, t)
    )
    found = beam_search(english.model, **enc)
    assert [[h.tokens for h in b] for b in found] == [[h.tokens for h in b] for b in expected]
    for a, b in zip(found, expected, strict=True):
        assert [h.log_prob for h in a] == pytest.approx([h.log_prob for h in b], abs=1e-4)
    assert live[0] == len(QUESTIONS) and live == sorted(live, reverse=True) and len(set(live)) > 1
    assert all(n <= group or n % group == 0 or n == len(QUESTIONS) for n in live)


def _inputs(enc):
    return {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"]}


@pytest.mark.parametrize("use_copy", [True, False])
def test_one_decoding_step_gives_the_top_of_the_full_distribution(use_copy):
    # The incremental decoder and the candidate mixing against the model's forward pass, over three steps
    # (so the self-attention cache is used and reordered), with two beams per sentence.
    torch.manual_seed(0)
    model = build_model("tiny", vocab_size=60, use_copy=use_copy, dropout=0.0).eval()
    with torch.no_grad():
        model.p_gen.bias.fill_(-1.0)  # copying matters: repeated source tokens must come out once
    # repeated tokens, padding, and the end-of-sequence token (1) in the source
    x = torch.tensor([[11, 12, 11, 13, 1], [21, 21, 21, 1, 0], [5, 6, 7, 8, 1]])
    mask = (x != 0).long()
    beams = 2
    history = torch.tensor([[0, 12, 11], [0, 13, 13], [0, 21, 30], [0, 22, 1], [0, 5, 6], [0, 7, 8]])
    with torch.no_grad():
        encoder = model.get_encoder()(input_ids=x, attention_mask=mask).last_hidden_state
        keys, same = model.source_side(encoder, x) if use_copy else (None, None)
        decoder = IncrementalBartDecoder(model.backbone, encoder, mask, beams)
        swap = torch.tensor([1, 0, 2, 3, 5, 4])  # after each step rows continue each other's history
        order = torch.arange(6)  # the history each decoder row holds
        for t in range(history.size(1)):
            full = model(
                input_ids=x.repeat_interleave(beams, 0),
                attention_mask=mask.repeat_interleave(beams, 0),
                decoder_input_ids=history[:, : t + 1],
            ).logits[:, -1]
            states, logits = decoder.step(history[order, t])
            for banned in (None, 1):
                expected = full.clone()
                if banned is not None:
                    expected[:, banned] = -float("inf")
                values, ids = model.next_token_candidates(
                    logits, states, encoder, mask, x, 8, banned=banned, keys=keys, same=same
                )
                top = expected[order].topk(8)
                assert torch.equal(ids, top.indices)
                assert torch.allclose(values, top.values, atol=1e-5)
            decoder.reorder(swap)
            order = order[swap]
        # Sentences leave: the last two rows' sentence is dropped, the others go on unchanged.
        keep = torch.tensor([0, 1])
        decoder.reorder(torch.tensor([0, 1, 2, 3]), keep)
        states, logits = decoder.step(torch.tensor([4, 4, 4, 4]))
        full = model(
            input_ids=x[keep].repeat_interleave(beams, 0),
            attention_mask=mask[keep].repeat_interleave(beams, 0),
            decoder_input_ids=torch.cat([history[order[:4]], torch.full((4, 1), 4)], 1),
        ).logits[:, -1]
        values, ids = model.next_token_candidates(
            logits,
            states,
            encoder[keep],
            mask[keep],
            x[keep],
            8,
            keys=keys[keep] if use_copy else None,
            same=same[keep] if use_copy else None,
        )
        assert torch.equal(ids, full.topk(8).indices)


def test_without_copy_same_as_generate():
    torch.manual_seed(1)
    model = build_model("tiny", vocab_size=80, use_copy=False, dropout=0.0).eval()
    x = torch.tensor([[11, 12, 13, 14, 1], [21, 22, 1, 0, 0]])
    mask = (x != 0).long()
    with torch.no_grad():
        ref = model.generate(x, attention_mask=mask, num_beams=3, num_return_sequences=3, max_new_tokens=6)
    found = beam_search(model, x, mask, num_beams=3, max_new_tokens=6)
    for i, beams in enumerate(found):
        for j, h in enumerate(beams):
            expected = ref[i * 3 + j, 1:].tolist()
            assert expected[: len(h.tokens)] == h.tokens


def test_generation_configs_it_leaves_to_generate(english):
    assert supports(english.model)
    english.model.generation_config.no_repeat_ngram_size = 3
    try:
        assert not supports(english.model)
    finally:
        english.model.generation_config.no_repeat_ngram_size = 0
    # arguments at their defaults (as the command line passes them) and min_new_tokens keep it
    assert supports(english.model, no_repeat_ngram_size=0, min_new_tokens=5, early_stopping=False)
    assert not supports(english.model, no_repeat_ngram_size=2)
    assert not supports(english.model, output_attentions=False)  # not one it knows: generate
    # Greedy search, sampling and extra generate arguments go through generate, and still work.
    for kwargs in (dict(num_beams=1), dict(do_sample=True, num_beams=1), dict(no_repeat_ngram_size=2)):
        out = english.paraphrase(["how can i learn python quickly?"], ["fastest way"], **kwargs)
        assert out[0][0].text and out[0][0].score < 0


def test_paraphrase_takes_the_own_search_with_arguments_at_their_defaults(english, monkeypatch):
    # `paraguide paraphrase` always passes no_repeat_ngram_size (0 unless asked): still the own search.
    calls = []
    search = beam.beam_search
    monkeypatch.setattr(beam, "beam_search", lambda *a, **kw: calls.append(1) or search(*a, **kw))
    english.paraphrase(["why is the sky blue?"], no_repeat_ngram_size=0, min_new_tokens=2)
    assert calls == [1]
    english.paraphrase(["why is the sky blue?"], no_repeat_ngram_size=2)
    assert calls == [1]


def test_paraphrase_scores_are_the_mean_log_probability_of_each_output(english):
    # The beam path and generate's path (pushed there by an extra argument) agree on texts and scores;
    # generate's padding after a short output must not count as generated tokens.
    questions, suggestions = [q for _, q in QUESTIONS], [s for s, _ in QUESTIONS]
    own = english.paraphrase(questions, suggestions, num_return_sequences=4)
    via_generate = english.paraphrase(questions, suggestions, num_return_sequences=4, output_attentions=False)
    for a, b in zip(own, via_generate, strict=True):
        assert [p.text for p in a] == [p.text for p in b]
        assert [p.score for p in a] == pytest.approx([p.score for p in b], abs=1e-4)
