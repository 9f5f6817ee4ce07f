"""Small heatmaps as shaded HTML grids (the Beam search node view's attention): every cell shaded as the plotly
heatmaps shade it, its full value kept, its weight written where the plotly heatmap would write it, masked
cells grey with ×, and markup in a label or title shown as text."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from plotly.colors import sample_colorscale

from tests.app_harness import markup_heatmaps
from viz_model import figures
from viz_model.figures.heatmap_html import HeatPanel, heatmaps_html
from viz_model.figures.look import WEIGHT_SCALE


def parsed(markup: str) -> ET.Element:
    return ET.fromstring(f"<root>{markup.split('</style>', 1)[1]}</root>")


def test_cells_keep_the_values_shaded_on_the_weight_scale_and_masked_cells_are_grey():
    weights = np.array([[1.0, np.nan], [0.25, 0.75]])
    markup = heatmaps_html(
        [HeatPanel(weights, ["0:a", "1:b"], ["0:a", "1:b"], "self", "query", "key")], value_name="w", masked_text="m"
    )
    (values,) = markup_heatmaps(markup)
    np.testing.assert_array_equal(np.isnan(values), np.isnan(weights))
    np.testing.assert_allclose(values[~np.isnan(values)], weights[~np.isnan(weights)])
    cells = [c for c in parsed(markup).iter("div") if c.get("class", "").split()[:1] == ["x"]]
    assert [c.text for c in cells] == ["1.00", "×", "0.25", "0.75"]  # 2 × 2: few enough to write each
    assert "m" in cells[1].get("class").split() and "m" in cells[1].get("title")
    # The shade of a cell is WEIGHT_SCALE at its share of the panel's largest weight, as in the plotly heatmaps.
    expected = sample_colorscale(WEIGHT_SCALE, [0.25])[0]
    assert f"background-color: {expected}" in cells[2].get("style")
    assert "0.2500" in cells[2].get("title") and "query: 1:b" in cells[2].get("title")


def test_a_wide_panel_writes_no_numbers_and_stands_its_column_labels():
    weights = np.random.default_rng(0).random((3, 12))
    markup = heatmaps_html(
        [HeatPanel(weights, list("abc"), [f"{i}:w" for i in range(12)], "cross", "q", "k")] * 2,
        value_name="w",
        masked_text="m",
    )
    root = parsed(markup)
    assert all(not c.text for c in root.iter("div") if c.get("class", "").split()[:1] == ["x"])
    heads = [c for c in root.iter("div") if c.get("class", "").split()[:1] == ["c"]]
    assert len(heads) == 24 and all(c.get("class") == "c s" for c in heads)
    for panel in markup_heatmaps(markup):
        np.testing.assert_allclose(panel, weights, rtol=1e-6)


def test_markup_in_labels_and_titles_is_text():
    hostile = '<img src=x onerror="alert(1)">'
    markup = heatmaps_html(
        [HeatPanel(np.ones((1, 1)), [hostile], [hostile], hostile, hostile, hostile)],
        value_name=hostile,
        masked_text=hostile,
    )
    assert "<img" not in markup
    root = parsed(markup)
    assert root.find(".//figcaption").text == hostile  # parsed back: the markup was text
    assert not list(root.iter("img"))


def test_labels_must_match_the_values():
    with pytest.raises(ValueError):
        heatmaps_html([HeatPanel(np.ones((2, 2)), ["a"], ["a", "b"], "t", "q", "k")], value_name="w", masked_text="m")


def test_the_prefix_panels_show_token_labels_once_escaped():
    """The node view's labels are the tokens as typed: "<bos>" reads <bos>, not &lt;bos&gt;."""

    class Trace:  # the two attentions a trace gives `prefix_attention_html`, (heads, T, keys)
        target_tokens = ["<bos>", "猫"]
        source_labels = ["<2zh>", "cat", "<eos>"]

        def attention(self, kind, layer):
            keys = 3 if kind == "cross" else 2
            return type("A", (), {"weights": np.full((2, 2, keys), 1 / keys, dtype=np.float32)})()

    texts = dict(titles={"cross": "c", "decoder_self": "s"}, axes={k: ("q", "k") for k in figures.PREFIX_KINDS})
    root = parsed(figures.prefix_attention_html(Trace(), 0, value_name="w", masked_text="m", **texts))
    rows = [c.text for c in root.iter("div") if c.get("class") == "r"]
    assert rows == ["0:<bos>", "1:猫"] * 2
