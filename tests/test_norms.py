"""Post-LN against pre-LN and layer norm against batch norm: the Norms view's numbers against torch's own
LayerNorm and BatchNorm1d and the trace's own stream."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.app_harness import decode, errors, figure, open_app, translator
from viz_model.lessons.head_notes import load_reference_sentences
from viz_model.lessons.norms import compare_norms, encoder_inputs, stream_sizes

TEXT, DIRECTION = "The little girl put her new red umbrella next to the old wooden door.", "en2zh"


def batches():
    rows = encoder_inputs(translator(), load_reference_sentences())
    return rows[:8], rows[8:]


def test_layer_norm_and_batch_norm_equal_torchs():
    trace = translator().translate(TEXT, DIRECTION).trace
    batch, other = batches()
    found = compare_norms(trace, batch, other)
    x = torch.as_tensor(found.x)
    expected = torch.nn.LayerNorm(x.shape[1], elementwise_affine=False, dtype=torch.float64)(x)
    np.testing.assert_allclose(found.layer_normed, expected.numpy(), atol=1e-6)
    # Batch norm in training mode normalises each feature over the batch's tokens (no running statistics).
    stacked = torch.as_tensor(np.concatenate([found.x, *batch]))
    norm = torch.nn.BatchNorm1d(x.shape[1], affine=False, track_running_stats=False, dtype=torch.float64)
    normed = norm.train()(stacked)[: len(found.x)]
    np.testing.assert_allclose(found.batch_normed, normed.numpy(), atol=1e-6)
    assert found.batch_shift > 0.01  # other batch partners, other values
    again = compare_norms(trace, other, batch)
    np.testing.assert_allclose(again.layer_normed, found.layer_normed)  # per token: the batch does not matter


def test_encoder_inputs_are_the_traces():
    trace = translator().translate(TEXT, DIRECTION).trace
    (x,) = encoder_inputs(translator(), [(TEXT, DIRECTION)])
    np.testing.assert_allclose(x, trace.source_input, atol=1e-5)


def test_stream_sizes_follow_the_trace():
    trace = translator().translate(TEXT, DIRECTION).trace
    sizes = stream_sizes(trace)
    config = translator().config
    assert len(sizes.labels) == 2 * config.n_encoder_layers + 3 * config.n_decoder_layers
    first = trace.encoder_layers[0].sublayers["self_attention"]
    residual_sum = first.input + first.sublayer_output  # post-LN: what the norm receives
    assert sizes.before_norm[0] == pytest.approx(float(np.linalg.norm(residual_sum, axis=1).mean()), rel=1e-4)


@pytest.mark.apptest
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_norms_view(lang):
    at = open_app("pages/step_by_step.py", text=TEXT, lang=lang, mode="norms")
    assert errors(at) == []
    sizes = stream_sizes(translator().translate(TEXT, DIRECTION).trace)
    line = figure(at, "step.norms_stream")["data"][0]

    np.testing.assert_allclose(decode(line["y"]), sizes.before_norm, rtol=1e-5)
    (diagram,) = at.get("graphviz_chart")  # the two orders drawn: the norm after the sum, or before the sublayer
    spec = diagram.proto.spec
    assert "post-LN" in spec and "pre-LN" in spec and spec.count("->") >= 10
