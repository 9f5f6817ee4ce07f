"""Bars as plain HTML. Ranked (the Beam search node view's next tokens): every label and value written out in
order, each bar as long as its value on one scale, the first highlighted, markup in a label shown as text.
Cut (the Decoding lab's one step): both distributions kept, the line after the tokens that can be drawn."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from tests.app_harness import markup_grouped_bars
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


def test_cut_bars_keep_both_distributions_and_draw_the_cut_after_the_kept_tokens():
    before, after = [0.5, 0.3, 0.1997, 0.0003], [0.625, 0.375, 0.0, 0.0]
    markup = figures.cut_bars_html(
        ["猫", "<i>x</i>", "dog", "a"], before, after, 2, names=("p", "p cut"), cut_label="cut"
    )
    tokens, (shown_before, shown_after), cut = markup_grouped_bars(markup)
    assert tokens == ["猫", "<i>x</i>", "dog", "a"] and cut == 2  # markup in a token parsed back as text
    assert list(shown_before) == before and list(shown_after) == after
    root = ET.fromstring(f"<root>{markup.split('</style>', 1)[1]}</root>")
    widths = [float(i.get("style").split(";")[0].split(":")[1][:-1]) for i in root.iter("i")]
    assert widths == pytest.approx(
        [80.0, 100.0, 48.0, 60.0, 31.952, 0.0, 0.048, 0.0], abs=0.005
    )  # one scale: the largest
    written = ["".join(s.itertext()) for s in root.iter("span") if s.get("class") == "s0"]
    assert written == ["0.500", "0.300", "0.200", "3.0e-04"]  # a tail token's p is not written as 0.000
    assert ["".join(s.itertext()) for s in root.iter("span") if s.get("class") == "s1"] == ["0.625", "0.375", "0", "0"]
    greyed = [s.text for s in root.iter("span") if s.get("class") == "o"]
    assert greyed == ["dog", "a"]  # below the line: can no longer be drawn


def test_cut_bars_draw_no_line_when_every_token_shown_can_be_drawn_and_escape_their_names():
    markup = figures.cut_bars_html(["a", "b"], [0.6, 0.4], [0.6, 0.4], 2, names=("<b>p</b>", "q"), cut_label="c")
    assert markup_grouped_bars(markup)[2] is None and "<b>p" not in markup and "&lt;b&gt;p" in markup
    with pytest.raises(ValueError):
        figures.cut_bars_html(["a"], [0.6, 0.4], [0.6, 0.4], 1, names=("p", "q"), cut_label="c")


def test_grouped_bars_draw_each_series_in_its_colour_and_show_a_missing_value_as_none():
    series = [
        ("decoder", [0.6, 0.1], "#0072B2"),
        ("trigram", [None, 0.9], "#E69F00"),
        ("unigram", [0.01, 0.02], "#009E73"),
    ]
    markup = figures.grouped_bars_html(["我", "<b>"], series, cut_label="unused")
    labels, columns, cut = markup_grouped_bars(markup)
    assert labels == ["我", "<b>"] and cut is None
    np.testing.assert_array_equal(columns[1], [np.nan, 0.9])  # an unseen n-gram: no value, not 0
    root = ET.fromstring(f"<root>{markup.split('</style>', 1)[1]}</root>")
    assert ["".join(s.itertext()) for s in root.iter("span") if s.get("class") == "s1"] == ["–", "0.900"]
    widths = [float(i.get("style").split(";")[0].split(":")[1][:-1]) for i in root.iter("i")]
    assert widths == pytest.approx([66.67, 0.0, 1.11, 11.11, 100.0, 2.22], abs=0.01)  # one scale: the largest
    bars = [dict(part.split(":") for part in i.get("style").split(";"))["background"] for i in root.iter("i")]
    squares = [b.get("style").removeprefix("background:") for span in root.iter("span") for b in span.iter("b")]
    colours = [colour for _, _, colour in series]
    assert bars == colours * 2 and squares[-6:] == colours * 2  # each bar and value in its series' colour
