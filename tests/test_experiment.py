"""Experiments on the model (viz_model/model/experiment.py): heads switched off and positions taken away,
checked against independent computations (a forward hook written here, a permutation by hand)."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest
import torch

from viz_model.model.experiment import Experiment, experiment
from viz_model.model.translator import Translator

TEXT = "The animal didn't cross the street because it was too tired."


@pytest.fixture(scope="module")
def model_and_ids():
    translator = Translator.load()
    model = translator.model.eval()
    source = torch.tensor([translator.encode(TEXT, "en2zh").ids])
    result = translator.translate(TEXT, "en2zh")
    tokenizer = translator.tokenizer
    target = torch.tensor([[tokenizer.bos_id] + tokenizer.ids(result.output_tokens)])
    return model, source, target


@contextmanager
def head_zeroed_by_hook(model, kind: str, layer: int, head: int):
    """The oracle of a head switched off: inside the block, a forward pre-hook on that attention block's W^O
    zeroes the head's d_k columns of the concatenation."""
    stack = model.encoder_layers if kind == "encoder_self" else model.decoder_layers
    block = stack[layer].self_attention if kind != "cross" else stack[layer].cross_attention
    d_k = model.config.d_head

    def zero_head(module, inputs):
        (concat,) = inputs
        concat = concat.clone()
        concat[..., head * d_k : (head + 1) * d_k] = 0
        return (concat,)

    handle = block.w_o.register_forward_pre_hook(zero_head)
    try:
        yield
    finally:
        handle.remove()


def logits(model, source, target):
    with torch.no_grad():
        return model(source, target)


def test_an_empty_experiment_reproduces_the_model_exactly(model_and_ids):
    model, source, target = model_and_ids
    plain = logits(model, source, target)
    with experiment(Experiment()):
        assert torch.equal(logits(model, source, target), plain)
    gates = {("encoder_self", 0): torch.ones(model.config.n_heads)}
    with experiment(Experiment(gates=gates)):
        assert torch.equal(logits(model, source, target), plain)


@pytest.mark.parametrize("kind, layer, head", [("encoder_self", 1, 2), ("decoder_self", 0, 0), ("cross", 2, 3)])
def test_one_head_off_equals_zeroing_its_slice_before_w_o(model_and_ids, kind, layer, head):
    """The oracle: a forward pre-hook on that block's W^O zeroes the head's d_k columns of the concatenation."""
    model, source, target = model_and_ids
    with head_zeroed_by_hook(model, kind, layer, head):
        expected = logits(model, source, target)
    gate = torch.ones(model.config.n_heads)
    gate[head] = 0
    with experiment(Experiment(gates={(kind, layer): gate})):
        shown = logits(model, source, target)
    torch.testing.assert_close(shown, expected, atol=1e-5, rtol=0)
    assert not torch.allclose(shown, logits(model, source, target), atol=1e-4)  # it did change something


def test_every_head_off_changes_the_output(model_and_ids):
    model, source, target = model_and_ids
    H = model.config.n_heads
    gates = {
        (kind, i): torch.zeros(H)
        for kind, n in (("encoder_self", 3), ("decoder_self", 3), ("cross", 3))
        for i in range(n)
    }
    with experiment(Experiment(gates=gates)):
        off = logits(model, source, target)
    assert (off.argmax(-1) != logits(model, source, target).argmax(-1)).any()


def test_batched_gates_equal_one_run_per_row(model_and_ids):
    model, source, target = model_and_ids
    H = model.config.n_heads
    rows = torch.ones(H, H) - torch.eye(H)  # row h: head h off
    with experiment(Experiment(gates={("cross", 1): rows})):
        batched = logits(model, source.expand(H, -1), target.expand(H, -1))
    for h in range(H):
        with experiment(Experiment(gates={("cross", 1): rows[h]})):
            torch.testing.assert_close(batched[h : h + 1], logits(model, source, target), atol=1e-5, rtol=0)


def test_mean_mode_replaces_a_head_by_its_mean_over_positions(model_and_ids):
    model, source, target = model_and_ids
    block = model.encoder_layers[0].self_attention
    d_k, head = model.config.d_head, 1

    def mean_head(module, inputs):
        (concat,) = inputs
        concat = concat.clone()
        part = concat[..., head * d_k : (head + 1) * d_k]
        concat[..., head * d_k : (head + 1) * d_k] = part.mean(dim=1, keepdim=True)
        return (concat,)

    handle = block.w_o.register_forward_pre_hook(mean_head)
    try:
        expected = logits(model, source, target)
    finally:
        handle.remove()
    gate = torch.ones(model.config.n_heads)
    gate[head] = 0
    with experiment(Experiment(gates={("encoder_self", 0): gate}, mode="mean")):
        torch.testing.assert_close(logits(model, source, target), expected, atol=1e-5, rtol=0)


def test_without_positions_a_shuffled_sentence_gives_the_same_vectors_permuted(model_and_ids):
    """No positional encoding: the encoder is blind to order, its outputs for shuffled tokens are the
    originals shuffled (to float precision); with positions they are not."""
    model, source, _ = model_and_ids
    order = torch.randperm(source.size(1), generator=torch.Generator().manual_seed(3))
    with torch.no_grad(), experiment(Experiment(positions=False)):
        memory, _, _ = model.encode(source)
        shuffled, _, _ = model.encode(source[:, order])
    torch.testing.assert_close(shuffled, memory[:, order], atol=1e-5, rtol=0)
    with torch.no_grad():
        memory, _, _ = model.encode(source)
        shuffled, _, _ = model.encode(source[:, order])
    assert (shuffled - memory[:, order]).abs().max() > 1e-2


def test_an_experiment_stays_in_its_own_thread(model_and_ids):
    """Another session's run (another thread) never sees this one's switched-off heads."""
    model, source, target = model_and_ids
    plain = logits(model, source, target)
    seen = {}

    def other_session():
        seen["logits"] = logits(model, source, target)

    with experiment(Experiment(gates={("cross", 0): torch.zeros(model.config.n_heads)})):
        thread = threading.Thread(target=other_session)
        thread.start()
        thread.join()
    assert torch.equal(seen["logits"], plain)


@pytest.mark.parametrize("kind, layer", [("encoder_self", 1), ("decoder_self", 2), ("cross", 0)])
def test_hard_attention_equals_one_hot_weights_computed_by_a_hook(model_and_ids, kind, layer):
    """The oracle: a forward hook recomputes the block's output from its own W_Q, W_K, W_V, W_O with the
    softmax row replaced by a one-hot at its largest weight, and returns that instead."""
    model, source, target = model_and_ids
    stack = model.encoder_layers if kind == "encoder_self" else model.decoder_layers
    block = stack[layer].cross_attention if kind == "cross" else stack[layer].self_attention
    H, d_k = model.config.n_heads, model.config.d_head

    def hard_output(module, args, kwargs, output):
        query, key_value = args[0], args[1] if args[1] is not None else args[0]
        allowed = args[2] if len(args) > 2 else kwargs.get("allowed")
        B, Tq, _ = query.shape
        q = module.w_q(query).view(B, Tq, H, d_k).transpose(1, 2)
        k = module.w_k(key_value).view(B, -1, H, d_k).transpose(1, 2)
        v = module.w_v(key_value).view(B, -1, H, d_k).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / d_k**0.5
        if allowed is not None:
            scores = scores.masked_fill(~allowed, float("-inf"))
        chosen = scores.argmax(-1, keepdim=True)  # the softmax's largest weight is the largest score's
        heads = torch.gather(v[:, :, None].expand(-1, -1, Tq, -1, -1), 3, chosen[..., None].expand(-1, -1, -1, 1, d_k))
        concat = heads[:, :, :, 0].transpose(1, 2).reshape(B, Tq, H * d_k)
        return module.w_o(concat), output[1]

    handle = block.register_forward_hook(hard_output, with_kwargs=True)
    try:
        expected = logits(model, source, target)
    finally:
        handle.remove()
    with experiment(Experiment(hard=frozenset({(kind, layer)}))):
        shown = logits(model, source, target)
    torch.testing.assert_close(shown, expected, atol=1e-4, rtol=0)
    assert not torch.allclose(shown, logits(model, source, target), atol=1e-3)  # it did change something
