"""One block with the model's numbers: LayerNorm redone by hand equals the model's and torch's."""

import numpy as np
import pytest
import torch

from viz_model.lessons.block_view import block_view, layer_norm_parameters
from viz_model.model.translator import Translator


@pytest.fixture(scope="module")
def translator():
    return Translator.load()


@pytest.mark.parametrize("stack, layer", [("encoder", 0), ("decoder", 1)])
def test_add_and_norm_by_hand_equals_the_model(translator, stack, layer):
    trace = translator.translate("I saw a saw.", "en2zh").trace
    layer_trace = (trace.encoder_layers if stack == "encoder" else trace.decoder_layers)[layer]
    norms = layer_norm_parameters(translator.model, stack, layer)
    view = block_view(layer_trace, norms)
    parts = [view.attention, view.feed_forward] + ([view.cross_attention] if stack == "decoder" else [])
    assert (view.cross_attention is None) == (stack == "encoder")
    for part, name in zip(parts, ["self_attention", "feed_forward", "cross_attention"]):
        assert part.difference < 1e-4
        np.testing.assert_allclose(part.standardised.mean(-1), 0, atol=1e-5)
        np.testing.assert_allclose(part.standardised.var(-1), 1, atol=1e-2)
        # post-LN: LayerNorm reads the residual sum x + sublayer(x)
        np.testing.assert_allclose(part.normalised_input, part.residual_input + part.sublayer_output, atol=1e-5)
        gamma, beta, eps = norms[name]
        oracle = torch.nn.functional.layer_norm(
            torch.tensor(part.normalised_input), (len(gamma),), torch.tensor(gamma), torch.tensor(beta), eps
        ).numpy()
        np.testing.assert_allclose(part.recomputed, oracle, atol=1e-4)
    np.testing.assert_array_equal(view.output, layer_trace.output)
    assert 0 < view.relu_zero_share < 1
    assert view.ffn_hidden.shape[1] == translator.config.d_ff


@pytest.mark.parametrize(
    "kind, stack", [("encoder_self", "encoder"), ("decoder_self", "decoder"), ("cross", "decoder")]
)
def test_trace_block_view_picks_the_block_of_the_attention_kind(translator, kind, stack):
    from viz_model.lessons.block_view import trace_block_view

    trace = translator.translate("I saw a saw.", "en2zh").trace
    view = trace_block_view(translator.model, trace, kind, 1)
    layer_trace = (trace.encoder_layers if stack == "encoder" else trace.decoder_layers)[1]
    np.testing.assert_array_equal(view.output, layer_trace.output)
    assert (view.cross_attention is None) == (stack == "encoder")
