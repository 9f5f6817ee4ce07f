"""Heatmaps that share their rows, drawn side by side as one figure (a decoder row's cross- and
self-attention): the same numbers, labels and titles as the separate figures, one colour scale over both."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from tests.figure_checks import assert_sends_what_plotly_would_validate
from viz_model import figures
from viz_model.figures.export import heatmap_csv, heatmap_panels


def panel(Z, rows, cols, title, **options):
    return figures.heatmaps(
        Z, rows, cols, y_title="query", x_title=f"key of {title}", value_name="w", panel_titles=[title], **options
    )


@pytest.fixture
def cross_and_self():
    rng = np.random.default_rng(1)
    rows = figures.token_labels(["<bos>", "猫", "坐"])
    cross = rng.random((3, 7)).astype(np.float32) * 0.6
    own = np.tril(rng.random((3, 3))).astype(np.float32)
    mask = np.tril(np.ones((3, 3), bool))
    left = panel(cross, rows, figures.token_labels(["the", "cat", "sat", "on", "the", "mat", "."]), "cross")
    right = panel(own, rows, figures.token_labels(["<bos>", "猫", "坐"]), "<self>", mask=mask)
    return left, right, cross, own, mask


def test_side_by_side_keeps_each_panels_numbers_labels_and_title(cross_and_self):
    left, right, cross, own, mask = cross_and_self
    fig = figures.beside([left, right])
    values = figures.panel_values(fig)
    assert np.allclose(values[0], cross) and np.allclose(values[1][mask], own[mask])
    assert np.isnan(values[1][~mask]).all()  # the future is still masked
    panels = heatmap_panels(fig)
    assert [p[0] for p in panels] == ["cross", "<self>"]
    assert panels[0][2] == heatmap_panels(left)[0][2] and panels[1][2] == heatmap_panels(right)[0][2]
    assert panels[0][1] == panels[1][1] == heatmap_panels(left)[0][1]
    assert heatmap_csv(fig) == heatmap_csv(left) + "\n" + heatmap_csv(right)


def test_side_by_side_is_one_row_of_panels_as_wide_as_their_columns_with_one_colour_scale(cross_and_self):
    left, right, *_ = cross_and_self
    fig = figures.beside([left, right])
    first, second = fig.layout.xaxis.domain, fig.layout.xaxis2.domain
    assert 0 <= first[0] < first[1] < second[0] < second[1] <= 1
    assert (first[1] - first[0]) / (second[1] - second[0]) == pytest.approx(7 / 3)
    assert fig.layout.yaxis.showticklabels and not fig.layout.yaxis2.showticklabels
    assert fig.layout.yaxis.title.text == "query" and not fig.layout.yaxis2.title.text
    assert [t.xaxis for t in fig.data] == ["x", "x2", "x2"]  # the mask's overlay stays on its panel
    assert {t.coloraxis for t in fig.data if t.coloraxis} == {"coloraxis"}
    scale = fig.layout.coloraxis
    assert scale.cmin == 0 and scale.cmax == pytest.approx(max(np.nanmax(v) for v in figures.panel_values(fig)))
    titles = [a.x for a in fig.layout.annotations]
    assert titles == pytest.approx([sum(first) / 2, sum(second) / 2])
    assert_sends_what_plotly_would_validate(fig)


def test_panels_with_other_rows_are_refused(cross_and_self):
    left, *_ = cross_and_self
    other = panel(np.zeros((2, 2)), ["0:a", "1:b"], ["0:a", "1:b"], "other")
    with pytest.raises(ValueError):
        figures.beside([left, other])
    assert isinstance(figures.beside([left]), go.Figure)


def test_panels_given_as_their_specs_make_the_same_figure():
    rng = np.random.default_rng(2)
    rows, cols = figures.token_labels(["<bos>", "猫"]), figures.token_labels(["the", "cat", "."])
    options = dict(y_title="query", x_title="key", value_name="w")
    left, right = rng.random((2, 3)), np.tril(rng.random((2, 2)))
    mask = np.tril(np.ones((2, 2), bool))
    from_figures = figures.beside(
        [
            figures.heatmaps(left, rows, cols, panel_titles=["a"], **options),
            figures.heatmaps(right, rows, rows, panel_titles=["b"], mask=mask, **options),
        ]
    )
    from_specs = figures.beside(
        [
            figures.heatmap_spec(left, rows, cols, panel_titles=["a"], **options),
            figures.heatmap_spec(right, rows, rows, panel_titles=["b"], mask=mask, **options),
        ]
    )
    # The same but for a default template a figure's copy carries (react_ready drops it before it is drawn).
    sent = [json.loads(fig.to_json()) for fig in (from_specs, from_figures)]
    for figure_json in sent:
        figure_json["layout"].pop("template", None)
    assert sent[0] == sent[1]
