import math

import numpy as np
import pytest

from viz_model.lessons.positional_views import default_dims, distance_curves, distance_profiles, position_similarity
from viz_model.model.positional import sinusoidal_encoding


def hand_loop(length, d_model):
    pe = [[0.0] * d_model for _ in range(length)]
    for pos in range(length):
        for j in range(d_model):
            i2 = j - j % 2  # the "2i" of the formula for column j
            angle = pos / 10000 ** (i2 / d_model)
            pe[pos][j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return np.array(pe)


@pytest.mark.parametrize("length,d_model", [(6, 5), (10, 8), (3, 1), (50, 64), (7, 33)])
def test_matches_the_formula_written_out(length, d_model):
    pe = sinusoidal_encoding(length, d_model)
    assert pe.shape == (length, d_model) and pe.dtype == np.float32
    np.testing.assert_allclose(pe, hand_loop(length, d_model), atol=1e-6)


def test_course_example_d5_six_words():
    # "when you play game of thrones", d_model = 5, pos from 0
    pe = sinusoidal_encoding(6, 5)
    np.testing.assert_array_equal(pe[0], [0, 1, 0, 1, 0])
    # pos 1: sin(1), cos(1), sin(1/10000^0.4), cos(1/10000^0.4), sin(1/10000^0.8)  (last column is a sin)
    w = [1.0, 10000**-0.4, 10000**-0.8]
    expected = [math.sin(w[0]), math.cos(w[0]), math.sin(w[1]), math.cos(w[1]), math.sin(w[2])]
    np.testing.assert_allclose(pe[1], expected, atol=1e-6)
    assert [round(float(x), 2) for x in pe[1]] == [0.84, 0.54, 0.03, 1.0, 0.0]


def test_similarity_depends_only_on_distance():
    pe = sinusoidal_encoding(40, 128)
    sim = position_similarity(pe)
    assert sim.shape == (40, 40)
    np.testing.assert_allclose(np.diag(sim), 64.0, rtol=1e-5)  # |PE[p]|² = d/2 for even d
    for distance in (1, 3, 10):
        diagonal = np.diag(sim, k=distance)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-3)
    # and it decreases with distance near the diagonal
    assert sim[0, 0] > sim[0, 1] > sim[0, 5]


def test_distance_profiles():
    profiles = distance_profiles(np.arange(16.0).reshape(4, 4), [0, 2])
    assert profiles[2].tolist() == [10, 11]


def test_default_dims_pair_each_sin_with_its_cos():
    assert default_dims(128) == [0, 1, 6, 7, 126, 127]
    assert default_dims(5) == [0, 1, 3, 4]


def test_distance_curves_start_at_three_places_and_agree():
    curves = distance_curves(position_similarity(sinusoidal_encoding(40, 64)))
    assert sorted(curves) == [0, 10, 20] and {len(v) for v in curves.values()} == {20}
    np.testing.assert_allclose(curves[10], curves[0], atol=1e-3)  # it depends on the distance only
