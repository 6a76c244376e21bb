"""The copy-mechanism model on tiny tasks that a tiny model learns in seconds on a CPU."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from paraguide.model.copy import CopyGenerator, build_model, shift_right, smoothed_nll  # noqa: E402

SEP, EMPTY, EOS = 3, 4, 1
VOCAB = 2000


def copy_batch(g, n, length):
    """Random sequences of rare tokens (each id seen a handful of times in training); target = input."""
    x = torch.randint(10, VOCAB, (n, length), generator=g)
    eos = torch.full((n, 1), EOS)
    return torch.cat([x, eos], 1), torch.cat([x, eos], 1)


def suggestion_batch(g, n, length=6, empty_share=0.2):
    """'<s> <sep> q' -> q with its last token replaced by the suggestion s; '<empty> <sep> q' -> q."""
    q = torch.randint(10, VOCAB, (n, length), generator=g)
    s = torch.randint(10, VOCAB, (n, 1), generator=g)
    empty = torch.rand(n, generator=g) < empty_share
    target = q.clone()
    target[:, -1] = torch.where(empty, q[:, -1], s[:, 0])
    suggestion = torch.where(empty[:, None], torch.full_like(s, EMPTY), s)
    x = torch.cat([suggestion, torch.full((n, 1), SEP), q, torch.full((n, 1), EOS)], 1)
    return x, torch.cat([target, torch.full((n, 1), EOS)], 1), s[:, 0], empty


def train(model, make_batch, steps, seed=0):
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(steps):
        x, y = make_batch(g)[:2]
        loss = model(input_ids=x, attention_mask=torch.ones_like(x), labels=y).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model.eval()


def greedy(model, x, max_new_tokens=10):
    return model.generate(
        x, attention_mask=torch.ones_like(x), max_new_tokens=max_new_tokens, do_sample=False
    )


def exact_copies(model):
    x, y = copy_batch(torch.Generator().manual_seed(999), 200, 6)
    return (greedy(model, x)[:, 1 : 1 + y.size(1)] == y).all(1).float().mean().item()


@pytest.mark.slow
def test_copy_learns_rare_tokens_where_the_same_model_without_copy_does_not():
    def batches(g):
        return copy_batch(g, 32, int(torch.randint(5, 9, (1,), generator=g)))

    torch.manual_seed(0)
    with_copy = train(build_model("tiny", vocab_size=VOCAB, use_copy=True, dropout=0.0), batches, 150)
    torch.manual_seed(0)
    without = train(build_model("tiny", vocab_size=VOCAB, use_copy=False, dropout=0.0), batches, 150)
    assert exact_copies(with_copy) >= 0.8
    assert exact_copies(without) <= 0.05


@pytest.mark.slow
def test_output_uses_the_suggestion():
    torch.manual_seed(0)
    model = train(build_model("tiny", vocab_size=VOCAB, dropout=0.0), lambda g: suggestion_batch(g, 32), 250)
    x, y, s, empty = suggestion_batch(torch.Generator().manual_seed(7), 200)
    out = greedy(model, x)
    included = [bool((out[i] == s[i]).any()) for i in range(len(x)) if not empty[i]]
    assert sum(included) / len(included) >= 0.9
    # With the empty suggestion the question comes back as it is.
    kept = (out[empty][:, 1 : 1 + y.size(1)] == y[empty]).all(1).float().mean().item()
    assert kept >= 0.9


def test_distribution_masking_and_loss():
    torch.manual_seed(0)
    model = build_model("tiny", vocab_size=50).eval()
    x = torch.tensor([[11, 12, 13, 1], [21, 22, 1, 0]])
    mask = (x != 0).long()
    y = torch.tensor([[13, 12, 1], [22, 1, -100]])
    out = model(input_ids=x, attention_mask=mask, labels=y)
    assert out.logits.shape == (2, 3, 50)
    assert torch.allclose(out.logits.exp().sum(-1), torch.ones(2, 3), atol=1e-5)
    assert out.loss.item() == pytest.approx(smoothed_nll(out.logits, y).item())
    # Padding is never copied: with p_gen forced to 0 all mass is on the real source tokens.
    with torch.no_grad():
        model.p_gen.bias.fill_(-1e4)
        probs = model(input_ids=x, attention_mask=mask, labels=y).logits.exp()
    assert probs[1, :, 0].max().item() < 1e-6
    assert probs[1, :, [21, 22, 1]].sum(-1).min().item() > 0.999


def test_loss_and_gradients_equal_the_mixture_written_out():
    # P(w) = p_gen P_vocab(w) + (1 - p_gen) sum_{i: x_i = w} a_i built densely (one-hot source), against the
    # model's log-space version, with a token repeated in the source and as the label, and padding.
    torch.manual_seed(0)
    model = build_model("tiny", vocab_size=40, dropout=0.0).eval()
    x = torch.tensor([[11, 12, 11, 13, 1], [21, 22, 1, 0, 0]])
    mask = (x != 0).long()
    y = torch.tensor([[11, 12, 11, 1], [22, 21, 1, -100]])
    decoder_input_ids = shift_right(y, 0, 0)

    def dense_loss():
        out = model.backbone(
            input_ids=x, attention_mask=mask, decoder_input_ids=decoder_input_ids, output_hidden_states=True
        )
        encoder = out.encoder_last_hidden_state
        keys, _ = model.source_side(encoder, x)
        attn, gate = model._copy_attention(out.decoder_hidden_states[-1], encoder, keys, mask)
        p_gen = torch.sigmoid(gate)
        copied = attn @ torch.nn.functional.one_hot(x, 40).float()
        probs = p_gen * out.logits.float().softmax(-1) + (1 - p_gen) * copied
        return smoothed_nll(probs.log(), y, 0.1)

    def grads(loss):
        model.zero_grad()
        loss.backward()
        return [p.grad.clone() for p in (model.copy_query.weight, model.copy_key.weight, model.p_gen.weight)]

    ours = model(input_ids=x, attention_mask=mask, labels=y, label_smoothing=0.1).loss
    reference = dense_loss()
    assert ours.item() == pytest.approx(reference.item(), abs=1e-5)
    for a, b in zip(grads(ours), grads(dense_loss()), strict=True):
        assert torch.allclose(a, b, atol=1e-5)


def test_smoothed_nll_by_hand():
    log_probs = torch.log(torch.tensor([[[0.5, 0.25, 0.25]]]))
    labels = torch.tensor([[0]])
    assert smoothed_nll(log_probs, labels).item() == pytest.approx(-torch.log(torch.tensor(0.5)).item())
    expected = 0.9 * -torch.log(torch.tensor(0.5)) - 0.1 * log_probs.mean()
    assert smoothed_nll(log_probs, labels, 0.1).item() == pytest.approx(expected.item())
    assert smoothed_nll(log_probs, torch.tensor([[-100]])).item() == 0.0


def test_shift_right():
    labels = torch.tensor([[5, 6, 1], [7, 1, -100]])
    assert shift_right(labels, 0, 0).tolist() == [[0, 5, 6], [0, 7, 1]]


@pytest.mark.slow
def test_save_load_gives_identical_generations(tmp_path):
    torch.manual_seed(0)
    model = train(build_model("tiny", vocab_size=VOCAB, dropout=0.0), lambda g: copy_batch(g, 16, 5), 20)
    x, _ = copy_batch(torch.Generator().manual_seed(3), 4, 5)
    model.save_pretrained(tmp_path)
    assert (tmp_path / "model.safetensors").exists()
    again = CopyGenerator.from_pretrained(tmp_path).eval()
    for kwargs in ({"do_sample": False}, {"num_beams": 3, "num_return_sequences": 2, "do_sample": False}):
        a = model.generate(x, attention_mask=torch.ones_like(x), max_new_tokens=8, **kwargs)
        b = again.generate(x, attention_mask=torch.ones_like(x), max_new_tokens=8, **kwargs)
        assert torch.equal(a, b)
    assert b.shape[0] == 8  # 4 inputs x 2 returned sequences


def test_unknown_size():
    with pytest.raises(ValueError, match="unknown model size 'huge'"):
        build_model("huge")
