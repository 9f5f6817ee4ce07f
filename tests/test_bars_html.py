"""Ranked bars as plain HTML (the Beam search node view's next tokens): every label and value written out in
order, each bar as long as its value on one scale, the first highlighted, markup in a label shown as text."""

import xml.etree.ElementTree as ET

import pytest

from viz_model import figures
from viz_model.figures.look import BAR_COLOUR, HIGHLIGHT_COLOUR


def rows(markup: str) -> list[dict]:
    root = ET.fromstring(f"<root>{markup.split('</style>', 1)[1]}</root>")
    grid = next(d for d in root.iter("div") if d.get("class") == "ranked-bars")
    cells = list(grid)
    out = []
    for rank, label, bar, value in zip(*[iter(cells)] * 4):
        style = dict(part.split(":") for part in bar.find("i").get("style").split(";"))
        out.append(
            dict(
                rank=rank.text,
                label=label.text,
                width=float(style["width"][:-1]),
                colour=style["background"],
                value=value.text,
            )
        )
    return out


def test_each_row_writes_its_rank_label_and_value_and_draws_its_bar_to_scale():
    shown = rows(
        figures.ranked_bars_html(
            ["伞", "带", "<b>x</b>"], [0.9134, 0.05, 0.0], title="p(next)", highlight=[True, False, False]
        )
    )
    assert [r["rank"] for r in shown] == ["1", "2", "3"]
    assert [r["label"] for r in shown] == ["伞", "带", "<b>x</b>"]  # parsed back: the markup was text
    assert [r["value"] for r in shown] == ["0.913", "0.050", "0.000"]
    assert [r["width"] for r in shown] == pytest.approx([91.34, 5.0, 0.0])  # probabilities read against 1
    assert [r["colour"] for r in shown] == [HIGHLIGHT_COLOUR, BAR_COLOUR, BAR_COLOUR]


def test_values_above_one_share_the_largest_as_their_scale():
    shown = rows(figures.ranked_bars_html(["a", "b"], [4.0, 1.0], title="count", value_format="g"))
    assert [r["width"] for r in shown] == pytest.approx([100.0, 25.0]) and [r["value"] for r in shown] == ["4", "1"]


def test_the_title_is_escaped_and_labels_must_match_values():
    markup = figures.ranked_bars_html(["a"], [0.5], title="<script>alert(1)</script>")
    assert "<script>" not in markup and "&lt;script&gt;" in markup and "\n\n" not in markup
    with pytest.raises(ValueError):
        figures.ranked_bars_html(["a", "b"], [0.5], title="t")
