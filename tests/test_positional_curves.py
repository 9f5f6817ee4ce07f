"""The positional-encoding curves as continuous functions (issue 42, item 9): sampled finely between whole
positions from the formula, through the table's values at the whole positions, and drawn with the whole
positions marked."""

import math

import numpy as np
import pytest

from viz_model import figures
from viz_model.lessons.positional_views import CURVE_STEPS, encoding_curves
from viz_model.model.positional import sinusoidal_encoding


def by_hand(p: float, j: int, d_model: int) -> float:
    angle = p / 10000 ** ((j - j % 2) / d_model)  # column j = 2i (sin) or 2i + 1 (cos)
    return math.sin(angle) if j % 2 == 0 else math.cos(angle)


@pytest.mark.parametrize(
    "length,d_model,dims", [(40, 256, [0, 1, 6, 7, 254, 255]), (6, 5, [0, 1, 2, 3, 4]), (9, 8, [3])]
)
def test_the_curves_are_the_formula_between_positions(length, d_model, dims):
    x, values = encoding_curves(length, d_model, dims)
    assert x.shape == ((length - 1) * CURVE_STEPS + 1,) and values.shape == (len(x), len(dims))
    assert x[0] == 0 and x[-1] == length - 1
    np.testing.assert_allclose(np.diff(x), 1 / CURVE_STEPS)
    hand = np.array([[by_hand(p, j, d_model) for j in dims] for p in x])
    np.testing.assert_allclose(values, hand, atol=1e-12)
    assert not np.allclose(x, np.round(x))  # points between the whole positions


@pytest.mark.parametrize("length,d_model", [(40, 256), (200, 512), (6, 5), (2, 4), (123, 37)])
def test_the_curves_pass_exactly_through_the_table(length, d_model):
    dims = list(range(d_model))
    x, values = encoding_curves(length, d_model, dims)
    whole = slice(None, None, CURVE_STEPS)
    np.testing.assert_array_equal(x[whole], np.arange(length))
    np.testing.assert_array_equal(values[whole].astype(np.float32), sinusoidal_encoding(length, d_model))


def test_a_fast_dimension_is_smooth_not_a_zigzag():
    """d_model 256, dim 0 turns one radian per position: sampled at whole positions only, consecutive
    points jump by up to 2·sin(1/2) ≈ 0.96; on the curve no step exceeds one radian / CURVE_STEPS."""
    x, values = encoding_curves(40, 256, [0, 1])
    assert np.abs(np.diff(values, axis=0)).max() <= 1 / CURVE_STEPS + 1e-12
    assert values[:, 0].max() > 0.999 and values[:, 0].min() < -0.999  # its peaks are on the curve
    table = sinusoidal_encoding(40, 256)[:, 0]
    assert np.abs(np.diff(table)).max() > 0.9


def test_the_line_chart_marks_the_whole_positions_on_each_curve():
    x, values = encoding_curves(10, 16, [0, 5])
    table = sinusoidal_encoding(10, 16)
    series = {"dim 0": values[:, 0], "dim 5": values[:, 1]}
    points = {"dim 0": (np.arange(10), table[:, 0]), "dim 5": (np.arange(10), table[:, 5])}
    fig = figures.line_chart(x, series, x_title="p", y_title="PE", points=points, points_name="whole positions")
    lines = [t for t in fig.data if t.meta is None]
    dots = [t for t in fig.data if t.meta == "points"]
    assert [t.name for t in lines] == ["dim 0", "dim 5"] and len(lines[0].x) == len(x)
    assert [t.name for t in dots] == ["dim 0 · whole positions", "dim 5 · whole positions"]
    for line, dot, j in zip(lines, dots, (0, 5)):
        assert dot.legendgroup == line.legendgroup and dot.showlegend is False and dot.marker.color == line.line.color
        np.testing.assert_array_equal(dot.x, np.arange(10))
        np.testing.assert_allclose(dot.y, table[:, j], atol=1e-7)
        np.testing.assert_allclose(np.asarray(line.y)[::CURVE_STEPS], table[:, j], atol=1e-7)
