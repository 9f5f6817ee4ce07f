"""Issue 42 items 7 and 8, the lessons: what ÷√d does to softmax rows, measured (largest weight, entropy in
bits), and nearest neighbours among a sentence's contextual vectors (the encoder's last-layer outputs)."""

import math

import numpy as np
import pytest
import torch

from tests.app_harness import translator
from viz_model.lessons.embeddings import contextual_neighbours, word_positions
from viz_model.lessons.similarity import entropy_bits, scaling_effect


def test_entropy_in_bits_by_hand():
    np.testing.assert_allclose(entropy_bits([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]), [0.0, 1.0])
    assert entropy_bits([0.25, 0.25, 0.25, 0.25]) == pytest.approx(2.0)
    # 0.9, 0.1: −(0.9 log₂ 0.9 + 0.1 log₂ 0.1) = 0.4690
    assert entropy_bits([0.9, 0.1]) == pytest.approx(0.4689955935892812)


def test_scaling_effect_by_hand():
    # q = (2, 0); keys (2, 0) and (0, 2): dot = (4, 0), scaled by √2 = (2.828…, 0).
    effect = scaling_effect([[2.0, 0.0]], [[2.0, 0.0], [0.0, 2.0]])
    p_plain = math.exp(4) / (math.exp(4) + 1)  # 0.98201
    p_scaled = math.exp(4 / math.sqrt(2)) / (math.exp(4 / math.sqrt(2)) + 1)  # 0.94417
    assert effect.largest_plain[0] == pytest.approx(p_plain)
    assert effect.largest_scaled[0] == pytest.approx(p_scaled)

    def h(p):
        return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))

    assert effect.entropy_plain[0] == pytest.approx(h(p_plain))
    assert effect.entropy_scaled[0] == pytest.approx(h(p_scaled))
    assert effect.scale == pytest.approx(math.sqrt(2)) and effect.n_keys == 2 and effect.uniform_entropy == 1.0


def test_scaling_effect_against_torch_softmax():
    rng = np.random.default_rng(3)
    queries, keys = rng.normal(size=(5, 64)) * 2, rng.normal(size=(7, 64)) * 2
    effect = scaling_effect(queries, keys)
    scores = torch.tensor(queries) @ torch.tensor(keys).T
    for weights, largest, entropy in (
        (torch.softmax(scores, dim=-1), effect.largest_plain, effect.entropy_plain),
        (torch.softmax(scores / 8.0, dim=-1), effect.largest_scaled, effect.entropy_scaled),
    ):
        np.testing.assert_allclose(largest, weights.max(dim=-1).values.numpy(), rtol=1e-10)
        expected = torch.special.entr(weights).sum(-1) / math.log(2)  # −Σ p ln p, in bits
        np.testing.assert_allclose(entropy, expected.numpy(), atol=1e-10)
    # Long random vectors: ÷√d visibly flattens the rows.
    means = effect.means()
    assert means["largest_scaled"] < means["largest_plain"] and means["entropy_scaled"] > means["entropy_plain"]
    assert means["largest_plain"] == pytest.approx(effect.largest_plain.mean())


def test_contextual_neighbours_are_cosines_of_the_last_encoder_layer():
    trace = translator().translate("Please buy an apple and an orange.", "en2zh").trace
    positions, found = contextual_neighbours(trace, k=3)
    assert positions == word_positions(trace.source_tokens)
    H = trace.encoder_layers[-1].output[positions].astype(np.float64)
    unit = H / np.linalg.norm(H, axis=1, keepdims=True)
    cos = unit @ unit.T
    for row, (p, near) in enumerate(zip(positions, found)):
        others = [j for j in np.argsort(-cos[row], kind="stable") if j != row][:3]
        assert [n.position for n in near] == [positions[j] for j in others]
        assert [n.token for n in near] == [trace.source_tokens[positions[j]] for j in others]
        np.testing.assert_allclose([n.cosine for n in near], cos[row, others], atol=1e-9)
        assert p not in [n.position for n in near]
    # another layer is another answer
    first, _ = contextual_neighbours(trace, k=2, layer=0)
    assert first == positions
