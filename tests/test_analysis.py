"""viz_model.analysis against independent references: the model's own trace, hand-computed numbers."""
import numpy as np
import pytest

from tests.app_harness import translator
from viz_model import analysis
from viz_model.model.trace import ATTENTION_KINDS


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
                step = analysis.attention_step(att, params, head, query)
                np.testing.assert_allclose(step.q, att.q[head, query], atol=1e-4)
                np.testing.assert_allclose(step.k, att.k[head], atol=1e-4)
                np.testing.assert_allclose(step.v, att.v[head], atol=1e-4)
                np.testing.assert_allclose(step.scores, att.scores[head, query], atol=1e-3)
                np.testing.assert_allclose(step.weights, att.weights[head, query], atol=1e-5)
                np.testing.assert_allclose(step.z, att.head_outputs[head, query], atol=1e-4)
                np.testing.assert_allclose(step.concat, att.concat[query], atol=1e-4)
                np.testing.assert_allclose(step.output, att.output[query], atol=1e-4)
                assert step.weights.sum() == pytest.approx(1.0)
                assert (step.weights[~step.allowed] == 0).all()


def test_step_difference_is_small_for_the_model_and_catches_a_wrong_number(result):
    att = result.trace.attention("cross", 1)
    step = analysis.attention_step(att, translator().attention_parameters("cross", 1), 2, 1)
    assert analysis.step_difference(step, att) < 1e-3
    step.output = step.output + np.eye(len(step.output))[3] * 0.5          # one wrong entry in W^O's product
    assert analysis.step_difference(step, att) == pytest.approx(0.5, abs=1e-3)


def test_causal_mask_in_the_step(result):
    att = result.trace.attention("decoder_self", 0)
    step = analysis.attention_step(att, translator().attention_parameters("decoder_self", 0), 0, 0)
    assert step.allowed.tolist() == [True] + [False] * (len(step.allowed) - 1)
    assert step.weights[0] == pytest.approx(1.0) and np.isneginf(step.scaled[1:]).all()


def test_top_attended_orders_by_weight_and_skips_masked():
    weights = np.array([[0.2, 0.5, 0.3], [0.6, 0.4, 0.0]])
    mask = np.array([[True, True, True], [True, True, False]])
    top = analysis.top_attended(weights, 0, ["a", "b", "c"], k=2)
    assert [(a.position, a.token) for a in top] == [(1, "b"), (2, "c")]
    assert [a.position for a in analysis.top_attended(weights, 1, ["a", "b", "c"], k=5, mask=mask)] == [0, 1]


def test_head_differences():
    w = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
    (diff,) = analysis.head_differences(w, [1, 3])
    assert diff[:2] == (3, 1) and (diff[2] == 12).all()
    assert len(analysis.head_differences(w, [0, 1, 2])) == 2
    with pytest.raises(ValueError):
        analysis.head_differences(w, [0])


def test_course_example_through_the_toy_layer():
    """Thinking Machines: identity weights pass the course's q and k through; 112, 96 → 14, 12 → 0.88/0.12."""
    x = np.array([[4.0, 4, 4, 4], [7, 7, 7, 7], [6, 6, 6, 6]])
    toy = analysis.toy_attention(x, np.eye(4), np.eye(4), np.eye(4), scale_dim=64)
    a = toy.arithmetic
    np.testing.assert_allclose(a.scores[0, 1:], [112, 96])
    np.testing.assert_allclose(a.scaled[0, 1:], [14, 12])
    assert a.scale == 8


def test_toy_inputs_are_seeded_and_small():
    x1, *w1 = analysis.toy_inputs(3, 4, 2, seed=7)
    x2, *w2 = analysis.toy_inputs(3, 4, 2, seed=7)
    assert x1.shape == (3, 4) and w1[0].shape == (4, 2)
    np.testing.assert_array_equal(x1, x2)
    assert np.array_equal(np.round(x1, 1), x1)


def test_model_card_rows_come_from_the_card():
    card = {"config": {"n_encoder_layers": 2, "n_decoder_layers": 5, "n_heads": 3, "d_model": 12},
            "parameters": 1234567, "evaluation": {"test_bleu_en2zh": 41.26}}
    rows = dict(analysis.model_card_rows(card))
    assert rows["card_layers"] == "2 + 5" and rows["card_parameters"] == "1,234,567"
    assert rows["card_bleu_en2zh"] == "41.3" and rows["card_bleu_zh2en"] == "not_measured"
    assert rows["card_norm"] == "norm_post"


def test_neighbours_and_encoder_input(result):
    model = translator()
    emb = model.embedding_matrix()
    ids = result.source.ids[1:2]
    (found,) = analysis.sentence_neighbours(emb, model.tokenizer.vocab, ids, k=3)
    assert len(found) == 3 and found[0].cosine >= found[1].cosine >= found[2].cosine
    assert model.tokenizer.vocab[ids[0]] not in [n.token for n in found]
    scaled, pe, total = analysis.encoder_input_parts(result.trace)
    np.testing.assert_allclose(total, result.trace.source_input, atol=1e-4)
    np.testing.assert_allclose(scaled, emb[result.source.ids] * result.trace.embedding_scale, atol=1e-4)


def test_vocabulary_map_shape():
    coords, ratio = analysis.vocabulary_map(translator().embedding_matrix(), 3)
    assert coords.shape == (len(translator().tokenizer), 3) and 0 < ratio.sum() <= 1
