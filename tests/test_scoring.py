"""The four scoring functions: the bilinear one with the model's own matrices is the head's q·k/√d_k."""

import numpy as np

from viz_model.lessons.scoring import SCORING_FUNCTIONS, compare_scoring
from viz_model.lessons.similarity import additive_score


def test_four_functions_score_every_key_and_weights_sum_to_one():
    rng = np.random.default_rng(1)
    x, q = rng.normal(size=(5, 8)), rng.normal(size=8)
    w_q, w_k = rng.normal(size=(8, 4)), rng.normal(size=(8, 4))
    found = compare_scoring(q, x, w_q, w_k)
    assert tuple(found.scores) == SCORING_FUNCTIONS
    for name in SCORING_FUNCTIONS:
        assert found.scores[name].shape == (5,)
        assert abs(found.weights[name].sum() - 1) < 1e-12
    np.testing.assert_allclose(found.scores["dot"], [xi @ q for xi in x])
    np.testing.assert_allclose(found.scores["scaled_dot"], found.scores["dot"] / np.sqrt(8))
    # bilinear with W = W_K W_Qᵀ/√d_k equals the head's scaled dot product of projections (no biases)
    np.testing.assert_allclose(found.scores["bilinear"], (x @ w_k) @ (q @ w_q) / np.sqrt(4), atol=1e-12)
    np.testing.assert_allclose(
        found.scores["additive"], additive_score(x, q, found.additive_w, found.additive_u, found.additive_v)
    )


def test_bilinear_equals_the_models_own_head_scores():
    from viz_model.model.translator import Translator

    translator = Translator.load()
    attention = translator.translate("I saw a saw.", "en2zh").trace.attention("encoder_self", 0)
    p = translator.attention_parameters("encoder_self", 0)
    d_k = attention.q.shape[-1]
    head, query = 1, 2
    cols = slice(head * d_k, (head + 1) * d_k)
    x = attention.query_input.astype(np.float64)
    found = compare_scoring(x[query], x, p["W_Q"][:, cols], p["W_K"][:, cols])
    # the model adds biases to q and k; with them the bilinear form gives the model's scaled scores
    q = x[query] @ p["W_Q"][:, cols] + p["b_q"][cols]
    k = x @ p["W_K"][:, cols] + p["b_k"][cols]
    np.testing.assert_allclose(k @ q / np.sqrt(d_k), attention.scaled_scores[head, query], atol=1e-3)
    no_bias = (x @ p["W_K"][:, cols]) @ (x[query] @ p["W_Q"][:, cols]) / np.sqrt(d_k)
    np.testing.assert_allclose(found.scores["bilinear"], no_bias, atol=1e-6)


def test_head_scoring_reads_the_traced_layer_and_the_heads_columns():
    from viz_model.lessons.scoring import head_scoring
    from viz_model.model.translator import Translator

    translator = Translator.load()
    attention = translator.translate("I saw a saw.", "en2zh").trace.attention("encoder_self", 0)
    p = translator.attention_parameters("encoder_self", 0)
    d_k = attention.q.shape[-1]
    found = head_scoring(attention, p, 1, 2)
    x = attention.query_input.astype(np.float64)
    w_q, w_k = (p[name][:, d_k : 2 * d_k].astype(np.float64) for name in ("W_Q", "W_K"))
    expected = compare_scoring(x[2], x, w_q, w_k)
    for name in SCORING_FUNCTIONS:
        np.testing.assert_allclose(found.scores[name], expected.scores[name], atol=1e-9)
    assert found.bilinear_matrix.shape == (x.shape[1], x.shape[1])
