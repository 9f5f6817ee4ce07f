"""The figure helpers: labels, the colour-scale policy, masked cells, escaping of user text."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from tests.figure_checks import assert_sends_what_plotly_would_validate
from viz_model import figures
from viz_model.figures.heatmap import index_tick_step


def test_token_labels_are_positional_and_escaped():
    assert figures.token_labels(["the", "<b>x</b>", "the"]) == ["0:the", "1:&lt;b&gt;x&lt;/b&gt;", "2:the"]


def test_colour_policy():
    assert figures.colour_range(np.array([[0.1, 0.6], [np.nan, 0.2]]), signed=False) == (0.0, 0.6)
    assert figures.colour_range(np.array([-3.0, 1.0]), signed=True) == (-3.0, 3.0)
    assert figures.colour_range(np.zeros(3), signed=True) == (-1.0, 1.0)


def test_heatmap_grid_shares_one_colour_axis_and_keeps_values():
    Z = np.random.default_rng(0).random((2, 3, 4, 5)).astype(np.float32)
    fig = figures.heatmaps(
        Z,
        figures.token_labels("abcd"),
        figures.token_labels("vwxyz"),
        y_title="Query (rows)",
        x_title="Key (columns)",
        value_name="weight",
        panel_titles=[str(i) for i in range(6)],
    )
    panels = figures.panel_values(fig)
    assert len(panels) == 6
    np.testing.assert_array_equal(panels[4], Z[1, 1])
    assert {tr.coloraxis for tr in fig.data} == {"coloraxis"}
    assert fig.layout.coloraxis.cmax == pytest.approx(float(Z.max()))
    # A grid of rows writes its row title once beside it: a row of panels is shorter than the title.
    assert fig.layout.yaxis.title.text is None and fig.layout.yaxis4.title.text is None
    assert [a.text for a in fig.layout.annotations if a.textangle == -90] == ["Query (rows)"]
    assert "Key (columns)" in [a.text for a in fig.layout.annotations]  # one title under a wide grid
    two = figures.heatmaps(Z[0, :2], ["a", "b", "c", "d"], list("vwxyz"), y_title="Q", x_title="K", value_name="w")
    # Two panels side by side share one title too: two of them ran into each other at 150 % zoom.
    assert two.layout.xaxis.title.text is None and two.layout.xaxis2.title.text is None
    assert [a.text for a in two.layout.annotations] == ["K"]
    one = figures.heatmaps(Z[0, 0], ["a", "b", "c", "d"], list("vwxyz"), y_title="Q", x_title="K", value_name="w")
    assert one.layout.xaxis.title.text == "K" and not one.layout.annotations


def test_numbers_in_cells_only_where_they_can_be_read():
    """One panel of a 15-token sentence is written out, three such panels side by side are not: each cell
    would be a third as wide. The heatmap helper follows the same rule when not told otherwise."""
    assert figures.values_fit(15, 15) and not figures.values_fit(16, 16)
    assert figures.values_fit(5, 5, panels_across=3) and not figures.values_fit(8, 8, panels_across=3)
    labels = [str(i) for i in range(8)]
    one = figures.heatmaps(np.ones((8, 8)), labels, labels, y_title="q", x_title="k", value_name="w")
    three = figures.heatmaps(np.ones((3, 8, 8)), labels, labels, y_title="q", x_title="k", value_name="w")
    assert one.data[0].texttemplate and not any(trace.texttemplate for trace in three.data)


def test_masked_cells_are_drawn_apart():
    Z = np.tril(np.full((3, 3), 0.5, dtype=np.float32))
    mask = np.tril(np.ones((3, 3), dtype=bool))
    fig = figures.heatmaps(
        Z, ["a", "b", "c"], ["a", "b", "c"], y_title="q", x_title="k", value_name="w", mask=mask, masked_text="masked"
    )
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
    labels = {k: k.upper() for k in figures.ARCHITECTURE_PARTS}
    labels["layers"] = "{n}x"
    fig = figures.architecture(labels, 3, 2)
    texts = {a.text for a in fig.layout.annotations}
    assert {"CROSS_ATTN", "MASKED_SELF_ATTN", "<b>3x</b>", "<b>2x</b>", "<b>ENCODER</b>"} <= texts


def test_a_figure_rebuilt_unvalidated_from_its_json_is_the_same_figure():
    """The Home page caches the architecture diagram as JSON and rebuilds it unvalidated on every rerun."""
    labels = {k: k.upper() for k in figures.ARCHITECTURE_PARTS}
    labels["layers"] = "{n}x"
    fig = figures.architecture(labels, 3, 2)
    props = fig.to_plotly_json()
    rebuilt = figures.unvalidated(props)
    assert json.loads(rebuilt.to_json()) == json.loads(fig.to_json())  # key order aside
    # what the page does to it works on the rebuilt figure as on a validated one
    figures.react_ready(figures.for_presentation(rebuilt))
    assert min(a.font.size for a in rebuilt.layout.annotations) >= figures.PRESENTATION_TEXT
    assert rebuilt.layout.template is None or not rebuilt.layout.template.to_plotly_json()


def test_a_column_is_wide_enough_for_its_longest_text():
    assert figures.column_width(["a", "bb"], least=90) == 90
    long = "Ineedhelpwithmyhomework"
    assert figures.column_width(["a", long], least=90) >= figures.text_width(long) + 16
    assert figures.column_width([], least=90) == 90


def test_margins_come_from_the_labels_not_from_plotly_automargin():
    # automargin made the browser measure every tick label and draw each figure twice.
    short = figures.heatmaps(np.eye(2), ["0:a", "1:b"], ["0:a", "1:b"], y_title="q", x_title="k", value_name="w")
    long = figures.heatmaps(
        np.eye(2), ["0:苹果手机很好", "1:b"], ["0:a", "1:b"], y_title="q", x_title="k", value_name="w"
    )
    wider = figures.text_width("苹果手机很好") - figures.text_width("a")
    assert long.layout.margin.l - short.layout.margin.l == pytest.approx(wider, abs=1)
    assert figures.text_width("苹果") > figures.text_width("ab")
    assert figures.text_width("&lt;") == figures.text_width("<")  # escaped labels show one character
    built = [
        short,
        figures.bar_chart(["0:a", "1:b"], [0.2, 0.8], x_title="p", y_title="t"),
        figures.bar_chart(list("abcdefghij"), np.ones(10), x_title="t", y_title="p", horizontal=False),
        figures.line_chart(np.arange(5), {"s": np.arange(5.0) * 100}, x_title="x", y_title="y"),
        figures.scatter_map(
            np.random.default_rng(0).random((5, 2)),
            list("abcde"),
            np.eye(5)[0] > 0,
            axis_titles=["1", "2"],
            others_name="o",
            highlight_name="h",
        ),
    ]
    for fig in built:
        axes = [v for k, v in fig.layout.to_plotly_json().items() if k.startswith(("xaxis", "yaxis"))]
        assert axes and all(axis.get("automargin") is False for axis in axes)


def _sent(fig) -> dict:
    """The figure as Streamlit sends it to the browser."""
    return json.loads(fig.to_json())


def test_react_ready_leaves_nothing_for_plotly_react_to_redraw_on_a_copy():
    """What Plotly.react compares by identity (see `react_ready`): no template, 1-D arrays as plain lists
    (NaN as null), a data revision; the numbers drawn stay the same, 2-D heatmap values stay an array."""
    xs = np.array([0, 1, np.nan, 1, 2], dtype=np.float32)
    line = go.Figure(
        [
            go.Scatter(
                x=xs,
                y=np.array([0.1, 9.075, 3, 4, 5], dtype=np.float32),
                customdata=np.arange(5),
                marker=dict(size=np.array([3.0, 4, 5, 6, 7])),
            )
        ],
        layout=dict(template="plotly"),  # a template, as plotly.py's default would give (figures/look.py sets none)
    )
    assert "template" in _sent(line)["layout"]
    sent = _sent(figures.react_ready(line))
    assert "template" not in sent["layout"] and sent["layout"]["datarevision"]
    trace = sent["data"][0]
    assert trace["x"] == [0.0, 1.0, None, 1.0, 2.0] and trace["y"] == [0.1, 9.075, 3.0, 4.0, 5.0]
    assert trace["customdata"] == [0, 1, 2, 3, 4] and trace["marker"]["size"] == [3.0, 4.0, 5.0, 6.0, 7.0]
    heat = figures.react_ready(
        figures.heatmaps(np.eye(3), list("abc"), list("abc"), y_title="q", x_title="k", value_name="w")
    )
    np.testing.assert_array_equal(figures.panel_values(heat)[0], np.eye(3))
    assert "bdata" in _sent(heat)["data"][0]["z"]  # still sent compactly


def test_data_revision_follows_the_data_only():
    def figure(values, title="t"):
        return figures.react_ready(figures.line_chart(np.arange(3), {"a": values}, x_title=title, y_title="y"))

    first = figure(np.array([1.0, 2.0, 3.0]))
    assert figure(np.array([1.0, 2.0, 3.0])).layout.datarevision == first.layout.datarevision
    assert figure(np.array([1.0, 2.0, 3.0]), title="other").layout.datarevision == first.layout.datarevision
    assert figure(np.array([1.0, 2.0, 3.5])).layout.datarevision != first.layout.datarevision
    assert figures.react_ready(first).layout.datarevision == first.layout.datarevision  # idempotent


def _font_sizes(node, inside_font=False):
    """Every font size in a figure's JSON (marker sizes and the like left out)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "size" and inside_font and isinstance(value, (int, float)):
                yield value
            else:
                yield from _font_sizes(value, key.endswith("font"))
    elif isinstance(node, list):
        for value in node:
            yield from _font_sizes(value, False)


@pytest.mark.parametrize(
    "build",
    [
        lambda: figures.heatmaps(
            np.eye(3), ["a", "b", "c"], ["a", "b", "c"], y_title="q", x_title="k", value_name="w", panel_titles=["one"]
        ),
        lambda: figures.heatmaps(
            np.ones((2, 3, 3)),
            ["a", "b", "c"],
            ["a", "b", "c"],
            y_title="q",
            x_title="k",
            value_name="w",
            panel_titles=["one", "two"],
        ),
        lambda: figures.bar_chart(["a", "b"], [0.3, 0.7], x_title="w", y_title="k"),
    ],
)
def test_presentation_makes_every_text_at_least_16px(build):
    fig = figures.for_presentation(build())
    sizes = list(_font_sizes(fig.to_plotly_json()))
    assert sizes and min(sizes) >= figures.look.PRESENTATION_TEXT >= 16
    layout = fig.to_plotly_json()["layout"]
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")):
            assert axis["tickfont"]["size"] >= 16


def test_over_long_token_labels_are_shortened_in_the_middle():
    from viz_model.figures.look import LABEL_CHARS, token_labels

    long = "a" * 500 + "→<unk>"
    label = token_labels([long, "cat"])[0]
    assert label.startswith("0:aaa") and label.endswith("→&lt;unk&gt;") and "…" in label
    assert len(label.replace("&lt;", "<").replace("&gt;", ">")) <= LABEL_CHARS + 2
    assert token_labels(["qwertyzebra→<unk>"]) == ["0:qwertyzebra→&lt;unk&gt;"]


def test_line_chart_built_unvalidated_is_the_figure_plotly_would_validate():
    """line_chart skips plotly.py's validation for speed; rebuilt with it, the figure must be the same (a
    misspelt property would raise here)."""
    x = np.arange(6)
    marks = {"sin": (np.arange(3), np.sin(np.arange(3)), ["0:a", "1:<b>", "2:c"])}
    for dashed in (False, True):
        fig = figures.react_ready(
            figures.line_chart(
                x,
                {"sin": np.sin(x), "cos": np.cos(x)},
                x_title="pos",
                y_title="value",
                marks=marks,
                marks_name="sentence",
                dashed=dashed,
            )
        )
        assert fig.to_plotly_json()["layout"].get("template") is None
        assert_sends_what_plotly_would_validate(fig)


@pytest.mark.parametrize(
    "shape, options",
    [
        ((3, 4), {}),
        ((2, 3, 3), dict(panel_titles=["h1", "<h2>"], signed=True, show_values=True)),
        ((2, 2, 3, 3), dict(panel_titles=list("abcd"), title="grid", decimals=3)),
        ((3, 3), dict(mask=np.tril(np.ones((3, 3), dtype=bool)), masked_text="future", zrange=(0.0, 1.0))),
        ((13, 13), dict(mask=np.tril(np.ones((13, 13), dtype=bool)), tick_labels=False, compact=True)),
    ],
)
def test_heatmaps_built_unvalidated_are_the_figure_plotly_would_validate(shape, options):
    """heatmaps skips plotly.py's validation for speed; rebuilt with it, the figure must send the same JSON
    (a misspelt property or a value of the wrong kind would raise or differ here)."""
    Z = np.random.default_rng(0).random(shape).astype(np.float32)
    n, m = shape[-2:]
    fig = figures.heatmaps(
        Z,
        [f"{i}:q" for i in range(n)],
        [f"{j}:<k>" for j in range(m)],
        y_title="q",
        x_title="k",
        value_name="w",
        **options,
    )
    assert fig.data and all(isinstance(t, go.Heatmap) for t in fig.data)
    assert len(figures.panel_values(fig)) == int(np.prod(shape[:-2]))
    assert_sends_what_plotly_would_validate(fig)
    # the figure holds copies: changing it leaves the caller's matrices alone
    before = Z.copy()
    fig.data[0].z[0][0] = -1.0
    assert np.array_equal(Z, before)


@pytest.mark.parametrize(
    "panels, columns, angle, every_token",
    [
        (1, 5, 0, True),
        (1, 12, -45, True),
        (2, 8, -45, True),
        (2, 15, -90, True),
        (1, 30, -90, True),
        (2, 20, -90, False),
    ],
)
def test_column_labels_stand_up_before_they_would_collide(panels, columns, angle, every_token):
    """Two panels of a 15-token sentence ran their 45° labels into each other on a 1400-px screen: past 16
    columns across a figure they stand at 90°, and every token is named only while each has a line's room."""
    labels = [f"{i}:tok" for i in range(columns)]
    fig = figures.heatmaps(
        np.zeros((panels, 4, columns)), list("abcd"), labels, y_title="q", x_title="k", value_name="w"
    )
    axes = [fig.layout[name] for name in ("xaxis", "xaxis2")[:panels]]
    assert {ax.tickangle or 0 for ax in axes} == {angle}
    assert {ax.dtick == 1 for ax in axes} == {every_token}


@pytest.mark.parametrize(
    "panels, columns, first, step",
    [(1, 256, 0, 16), (1, 64, 0, 4), (2, 64, 0, 8), (1, 40, 1, 4), (1, 33, 0, 4), (1, 32, 0, None), (2, 16, 0, None)],
)
def test_an_axis_that_counts_is_labelled_at_round_steps(panels, columns, first, step):
    """The 256 dimensions of Step by step's inputs, labelled one by one, came out as ~60 upright numbers
    redrawn on every new sentence: an axis whose labels count 0, 1, 2, … is labelled every 2nd, 4th, 8th…
    column (at most 16 labels across the figure), level; fewer columns are each named as before."""
    labels = [str(first + j) for j in range(columns)]
    fig = figures.heatmaps(
        np.zeros((panels, 3, columns)), list("abc"), labels, y_title="q", x_title="dimension", value_name="v"
    )
    axes = [fig.layout[name] for name in ("xaxis", "xaxis2")[:panels]]
    if step is None:
        assert all(ax.dtick == 1 for ax in axes)
    else:
        assert all(ax.dtick == step and ax.tick0 == 0 and ax.tickangle == 0 for ax in axes)
        assert columns * panels / step <= 16 < columns * panels / (step / 2)
    assert_sends_what_plotly_would_validate(fig)


def test_only_labels_that_count_one_by_one_are_thinned():
    assert index_tick_step([str(j) for j in range(0, 128, 2)]) is None  # every other number: not an index
    assert index_tick_step([f"{j}:tok" for j in range(64)]) is None  # tokens are all named or left to plotly
    assert index_tick_step([str(j) for j in range(5, 69)]) == 4


def test_a_line_charts_marks_have_one_legend_entry_of_their_own():
    """The sentence's dots on every curve are one legend entry, after the curves, that shows or hides them all."""
    x = np.arange(6)
    marks = {name: (np.arange(3), np.zeros(3), ["0:a", "1:b", "2:c"]) for name in ("sin", "cos")}
    fig = figures.line_chart(
        x, {"sin": np.sin(x), "cos": np.cos(x)}, x_title="pos", y_title="v", marks=marks, marks_name="this sentence"
    )
    dots = [t for t in fig.data if t.meta == "marks"]
    assert len(dots) == 2 and {t.legendgroup for t in dots} == {"marks"}
    assert [t.name for t in dots if t.showlegend is not False] == ["this sentence"]
    assert all(t.legendrank > (line.legendrank or 1000) for t in dots for line in fig.data if t.meta != "marks")


@pytest.mark.parametrize("height", [300, 420, 640])
def test_a_legend_on_top_sits_below_the_toolbar_band(height):
    """A two-row legend at paper y = 1.02 ran under plotly's toolbar whenever the mouse was over the chart
    (the Positional encoding curves): the line chart's legend hangs from just below the toolbar's band,
    in the figure's own (container) coordinates, and plotly makes room for it above the plot."""
    from viz_model.figures.look import TOOLBAR_PX

    x = np.arange(40)
    series = {f"dim {k} · sin (i = {k})": np.sin(x / (k + 1)) for k in range(8)}
    fig = figures.line_chart(x, series, x_title="pos", y_title="PE", height=height)
    legend = fig.layout.legend
    assert legend.orientation == "h" and legend.yref == "container" and legend.yanchor == "top"
    assert legend.y * height == pytest.approx(height - TOOLBAR_PX)  # its top edge, in px from the bottom
    assert_sends_what_plotly_would_validate(fig)


def test_a_shaded_tables_cells_follow_the_weight_scale():
    from plotly.colors import hex_to_rgb, label_rgb

    from viz_model.figures.look import WEIGHT_SCALE

    def rgb(colour: str) -> str:
        return label_rgb(hex_to_rgb(colour)) if colour.startswith("#") else colour.replace(" ", "")

    cells = figures.weight_cells(np.array([[0.0, 0.2], [0.4, 0.8]]))
    assert cells.shape == (2, 2)
    lowest, highest = WEIGHT_SCALE[0][1], WEIGHT_SCALE[-1][1]

    def background(cell: str) -> str:
        return rgb(cell.split(";")[0].removeprefix("background-color: "))

    assert background(cells[0, 0]) == rgb(lowest)  # 0: the scale's lightest
    assert background(cells[1, 1]) == rgb(highest)  # the largest weight: the darkest
    assert cells[1, 1].endswith("color: #ffffff") and cells[0, 0].endswith("color: #222222")


def test_a_one_or_two_row_heatmaps_colour_bar_has_room_for_its_ticks():
    def bar(n: int) -> dict:
        rows = [str(i) for i in range(n)]
        values = np.linspace(-1, 1, n * 4).reshape(n, 4)
        fig = figures.heatmaps(values, rows, list("wxyz"), y_title="", x_title="", value_name="ln p", signed=True)
        return fig.to_dict()["layout"]["coloraxis"]["colorbar"]

    assert bar(1)["nticks"] == 3 and bar(2)["nticks"] == 3
    assert "nticks" not in bar(6)  # a taller panel keeps plotly's own ticks
