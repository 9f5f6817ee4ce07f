"""Notes computed from attention weights: the sink token most heads favour, decoder rows as read → predict."""

import numpy as np

from viz_model.lessons.attention_notes import attention_sink, decoder_row_labels


def test_sink_found_when_most_heads_favour_one_key():
    weights = np.full((4, 3, 3), 0.1)
    weights[:3, :, 0] = 0.8  # three of four heads pour 0.8 onto key 0
    weights[3, :, 1] = 0.8  # the fourth onto key 1
    found = attention_sink(weights, ["<2zh>", "cat", "."])
    assert found.token == "<2zh>" and found.heads == 3 and found.n_heads == 4
    assert abs(found.mean_weight - 0.8) < 1e-12


def test_no_sink_when_heads_disagree_or_weight_is_spread():
    weights = np.zeros((4, 2, 4))
    for h in range(4):
        weights[h, :, h] = 1.0  # every head its own key
    assert attention_sink(weights, list("abcd")) is None
    flat = np.full((4, 2, 4), 0.25)  # uniform rows: no key stands out enough
    flat[:, :, 0] += 0.01
    assert attention_sink(flat, list("abcd")) is None


def test_masked_keys_are_averaged_over_the_rows_that_see_them():
    weights = np.array([[[1.0, 0.0], [0.5, 0.5]]] * 2)  # causal: row 0 sees key 0 only
    mask = np.array([[True, False], [True, True]])
    found = attention_sink(weights, ["<bos>", "我"], mask)
    assert found.token == "<bos>" and found.mean_weight == 0.75


def test_decoder_rows_read_one_token_and_predict_the_next():
    assert decoder_row_labels(["<bos>", "我", "看见"], ["我", "看见", "<eos>"]) == [
        "<bos> → 我",
        "我 → 看见",
        "看见 → <eos>",
    ]
