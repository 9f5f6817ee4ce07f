"""The figure helpers: labels, the colour-scale policy, masked cells, escaping of user text."""
import json

import numpy as np
import pytest

from viz_model import figures


def test_token_labels_are_positional_and_escaped():
    assert figures.token_labels(["the", "<b>x</b>", "the"]) == ["0:the", "1:&lt;b&gt;x&lt;/b&gt;", "2:the"]


def test_colour_policy():
    assert figures.colour_range(np.array([[0.1, 0.6], [np.nan, 0.2]]), signed=False) == (0.0, 0.6)
    assert figures.colour_range(np.array([-3.0, 1.0]), signed=True) == (-3.0, 3.0)
    assert figures.colour_range(np.zeros(3), signed=True) == (-1.0, 1.0)


def test_heatmap_grid_shares_one_colour_axis_and_keeps_values():
    Z = np.random.default_rng(0).random((2, 3, 4, 5)).astype(np.float32)
    fig = figures.heatmaps(Z, figures.token_labels("abcd"), figures.token_labels("vwxyz"), y_title="Query (rows)",
                           x_title="Key (columns)", value_name="weight", panel_titles=[str(i) for i in range(6)])
    panels = figures.panel_values(fig)
    assert len(panels) == 6
    np.testing.assert_array_equal(panels[4], Z[1, 1])
    assert {tr.coloraxis for tr in fig.data} == {"coloraxis"}
    assert fig.layout.coloraxis.cmax == pytest.approx(float(Z.max()))
    assert fig.layout.yaxis.title.text == "Query (rows)" and fig.layout.yaxis4.title.text == "Query (rows)"
    assert "Key (columns)" in [a.text for a in fig.layout.annotations]   # one title under a wide grid
    two = figures.heatmaps(Z[0, :2], ["a", "b", "c", "d"], list("vwxyz"), y_title="Q", x_title="K", value_name="w")
    assert two.layout.xaxis.title.text == "K" and two.layout.xaxis2.title.text == "K"


def test_masked_cells_are_drawn_apart():
    Z = np.tril(np.full((3, 3), 0.5, dtype=np.float32))
    mask = np.tril(np.ones((3, 3), dtype=bool))
    fig = figures.heatmaps(Z, ["a", "b", "c"], ["a", "b", "c"], y_title="q", x_title="k", value_name="w",
                           mask=mask, masked_text="masked")
    (main,) = figures.panel_values(fig)
    assert np.isnan(main[0, 2]) and main[2, 0] == 0.5
    overlay = [tr for tr in fig.data if not tr.coloraxis][0]
    assert "masked" in overlay.hovertemplate
    assert np.asarray(overlay.text)[0, 2] == "×"


def test_user_html_never_reaches_plotly_unescaped():
    labels = figures.token_labels(["<b>bold</b>", "<script>alert(1)</script>"])
    fig = figures.heatmaps(np.eye(2), labels, labels, y_title="<i>q</i>", x_title="k", value_name="w")
    spec = fig.to_json()
    assert "<b>bold" not in spec and "<script>" not in spec and "<i>q" not in spec
    assert "&lt;b&gt;bold" in json.loads(spec)["data"][0]["y"][0]


def test_shape_errors_are_clear():
    with pytest.raises(ValueError, match="labels"):
        figures.heatmaps(np.eye(3), ["a"], ["a", "b", "c"], y_title="q", x_title="k", value_name="w")


def test_architecture_names_the_parts():
    labels = {k: k.upper() for k in ("encoder", "decoder", "embedding", "positional", "self_attn",
                                      "masked_self_attn", "cross_attn", "ffn", "add_norm", "linear", "softmax",
                                      "inputs", "outputs", "probabilities", "memory")}
    labels["layers"] = "{n}x"
    fig = figures.architecture(labels, 3, 2)
    texts = {a.text for a in fig.layout.annotations}
    assert {"CROSS_ATTN", "MASKED_SELF_ATTN", "<b>3x</b>", "<b>2x</b>", "<b>ENCODER</b>"} <= texts
