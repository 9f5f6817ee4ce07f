"""viz_model.lessons.attention_step against independent references: the model's own trace and the course's
hand-computed numbers."""

import numpy as np
import pytest

from tests.app_harness import translator
from viz_model.lessons.attention_step import (
    attention_arithmetic,
    attention_step,
    course_attention_example,
    ranked_keys,
    step_difference,
    toy_attention,
    toy_inputs,
    toy_labels,
)
from viz_model.lessons.similarity import softmax
from viz_model.model.trace import ATTENTION_KINDS


def r2(x):
    return np.round(np.asarray(x, dtype=float), 2).tolist()


@pytest.fixture(scope="module")
def result():
    return translator().translate("I saw a saw.", "en2zh")


@pytest.mark.parametrize("kind", ATTENTION_KINDS)
def test_attention_step_matches_the_models_trace(result, kind):
    """Recomputed from x and W in float64, every step equals what the torch forward pass recorded."""
    model = translator()
    n_layers = model.config.n_encoder_layers if kind == "encoder_self" else model.config.n_decoder_layers
    for layer in {0, n_layers - 1}:
        att = result.trace.attention(kind, layer)
        params = model.attention_parameters(kind, layer)
        for head in {0, att.n_heads - 1}:
            for query in {0, att.weights.shape[1] - 1}:
                step = attention_step(att, params, head, query)
                np.testing.assert_allclose(step.q[0], att.q[head, query], atol=1e-4)  # one query: row 0
                np.testing.assert_allclose(step.k, att.k[head], atol=1e-4)
                np.testing.assert_allclose(step.v, att.v[head], atol=1e-4)
                np.testing.assert_allclose(step.scores[0], att.scores[head, query], atol=1e-3)
                np.testing.assert_allclose(step.weights[0], att.weights[head, query], atol=1e-5)
                np.testing.assert_allclose(step.z[0], att.head_outputs[head, query], atol=1e-4)
                np.testing.assert_allclose(step.concat[0], att.concat[query], atol=1e-4)
                np.testing.assert_allclose(step.output[0], att.output[query], atol=1e-4)
                assert step.weights.sum() == pytest.approx(1.0)
                assert (step.weights[~step.allowed] == 0).all()


def test_step_difference_is_small_for_the_model_and_catches_a_wrong_number(result):
    att = result.trace.attention("cross", 1)
    step = attention_step(att, translator().attention_parameters("cross", 1), 2, 1)
    assert step_difference(step, att) < 1e-3
    step.output = step.output + np.eye(step.output.shape[-1])[3] * 0.5  # one wrong entry in W^O's product
    assert step_difference(step, att) == pytest.approx(0.5, abs=1e-3)


def test_causal_mask_in_the_step(result):
    att = result.trace.attention("decoder_self", 0)
    step = attention_step(att, translator().attention_parameters("decoder_self", 0), 0, 0)
    assert step.allowed[0].tolist() == [True] + [False] * (step.allowed.shape[1] - 1)
    assert step.weights[0, 0] == pytest.approx(1.0) and np.isneginf(step.scaled[0, 1:]).all()


def test_thinking_machines():
    a = course_attention_example()
    assert a.scores.tolist() == [[112.0, 96.0]]
    assert a.scale == 8.0
    assert a.scaled.tolist() == [[14.0, 12.0]]
    assert r2(a.weights) == [[0.88, 0.12]]
    assert r2(a.z) == [[0.88, 0.12]]  # z1 = 0.88 v1 + 0.12 v2 with v1 = (1,0), v2 = (0,1)
    np.testing.assert_allclose(a.weighted_values.sum(axis=1), a.z)


def test_attention_arithmetic_matches_formula():
    rng = np.random.default_rng(2)
    q, k, v = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    a = attention_arithmetic(q, k, v)
    assert a.weighted_values.shape == (3, 5, 2)
    np.testing.assert_allclose(a.scaled, q @ k.T / 2)
    np.testing.assert_allclose(a.z, softmax(q @ k.T / 2) @ v)
    with pytest.raises(ValueError):
        attention_arithmetic(q, k, v, scale_dim=2)


def test_course_example_through_the_toy_layer():
    """Thinking Machines: identity weights pass the course's q and k through; 112, 96 → 14, 12 → 0.88/0.12."""
    x = np.array([[4.0, 4, 4, 4], [7, 7, 7, 7], [6, 6, 6, 6]])
    toy = toy_attention(x, np.eye(4), np.eye(4), np.eye(4), scale_dim=64)
    a = toy
    np.testing.assert_allclose(a.scores[0, 1:], [112, 96])
    np.testing.assert_allclose(a.scaled[0, 1:], [14, 12])
    assert a.scale == 8


def test_toy_inputs_are_seeded_and_small():
    x1, *w1 = toy_inputs(3, 4, 2, seed=7)
    x2, *w2 = toy_inputs(3, 4, 2, seed=7)
    assert x1.shape == (3, 4) and w1[0].shape == (4, 2)
    np.testing.assert_array_equal(x1, x2)
    assert np.array_equal(np.round(x1, 1), x1)


def test_one_record_for_the_model_and_for_hand_made_vectors(result):
    """A head of the model, redone by hand, and the same q, k, v through attention_arithmetic give the same
    weights and z: both are AttentionStep, the model's with m = 1 query."""
    att = result.trace.attention("encoder_self", 0)
    step = attention_step(att, translator().attention_parameters("encoder_self", 0), 1, 2)
    again = attention_arithmetic(step.q, step.k, step.v)
    assert type(again) is type(step) and step.weights.shape == again.weights.shape == (1, att.weights.shape[2])
    np.testing.assert_allclose(again.weights, step.weights, atol=1e-9)
    np.testing.assert_allclose(again.z, step.z, atol=1e-9)


def test_ranked_keys_skip_masked_keys(result):
    att = result.trace.attention("decoder_self", 0)
    step = attention_step(att, translator().attention_parameters("decoder_self", 0), 0, 2)
    order = ranked_keys(step)
    assert sorted(order) == [0, 1, 2]  # the causal mask hides keys 3…
    assert list(step.weights[0, order]) == sorted(step.weights[0, :3], reverse=True)


def test_toy_labels_take_the_sentences_words_first():
    assert toy_labels(["apple", "<eos>", "and"], 3) == ["0:apple", "1:and", "2:w0"]
    assert toy_labels(["a", "b", "c", "d"], 2) == ["0:a", "1:b"]
