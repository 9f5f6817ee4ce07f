"""Export: file names from page, view and sentence; a heatmap's CSV holds exactly its matrices."""

import csv
import io

import numpy as np
import pytest

from viz_model import figures
from viz_model.figures.export import export_name, heatmap_csv


def test_export_name():
    assert export_name("attention", "heads", "Please buy an apple!") == "attention-heads-please-buy-an-apple"
    assert export_name("step", "block", "我爱你。") == "step-block-我爱你"
    assert export_name("", "", "") == "chart"
    assert "/" not in export_name("a/b", "../c", "<script>")


def test_heatmap_csv_equals_the_matrices():
    rng = np.random.default_rng(0)
    Z = rng.random((2, 3, 4)).astype(np.float32)
    mask = np.ones((3, 4), bool)
    mask[0, 3] = False
    fig = figures.heatmaps(
        Z,
        ["0:a", "1:<b>", "2:c"],
        ["w", "x", "y", "z"],
        y_title="q",
        x_title="k",
        value_name="v",
        panel_titles=["one", "two"],
        mask=mask,
    )
    rows = list(csv.reader(io.StringIO(heatmap_csv(fig))))
    assert rows[0] == ["one"] and rows[1] == ["", "w", "x", "y", "z"]
    assert [r[0] for r in rows[2:5]] == ["0:a", "1:<b>", "2:c"]
    first = np.array([[np.nan if x == "" else float(x) for x in r[1:]] for r in rows[2:5]])
    np.testing.assert_allclose(np.nan_to_num(first), np.where(mask, Z[0], 0), rtol=1e-6)
    assert rows[2][4] == ""  # masked: empty
    assert rows[6] == ["two"]
    assert heatmap_csv(figures.bar_chart(["a"], [1.0], x_title="x", y_title="y")) is None


@pytest.mark.apptest
def test_every_chart_on_a_page_has_its_svg_and_csv_downloads():
    from tests.app_harness import chart_keys, open_app

    at = open_app("pages/attention.py", text="I saw a saw.")
    downloads = sorted(d.proto.id.rsplit("-", 1)[-1] for d in at.get("download_button"))
    assert chart_keys(at) == ["attention.heads"] and downloads == ["attention.heads.csv", "attention.heads.svg"]
    spec = at.get("plotly_chart")[0].proto
    assert "attention-heads-i-saw-a-saw" in spec.config  # the toolbar's image (PNG) file name


@pytest.mark.apptest
def test_a_chart_that_does_not_show_the_sentence_keeps_one_name():
    """The architecture diagram is the same for every sentence: its file name (and so its plotly config)
    stays the same when the sentence changes, and the browser does not redraw it."""
    from tests.app_harness import open_app

    at = open_app("pages/home.py", text="I saw a saw.")
    config = at.get("plotly_chart")[0].proto.config
    assert '"home-architecture"' in config and "saw" not in config
    at.sidebar.text_input("text").set_value("The cat sat on the mat.").run()
    assert at.get("plotly_chart")[0].proto.config == config


def _csv_sections(text: str) -> list[list[list[str]]]:
    sections, current = [], []
    for row in csv.reader(io.StringIO(text)):
        if not row:
            sections.append(current)
            current = []
        else:
            current.append(row)
    return sections + [current]


@pytest.mark.apptest
def test_a_pages_csv_holds_the_models_attention_weights():
    """The CSV of the Attention page's charts, from the figures as drawn, against the model's own tensors:
    the heads heatmap (the head and the mean over heads) and the top-attended bar chart."""
    import plotly.graph_objects as go

    from tests.app_harness import figure, open_app, translator
    from viz_model.figures.export import figure_csv

    text = "I saw a saw."
    trace = translator().translate(text, "en2zh").trace
    attention = trace.attention("encoder_self", 0)
    at = open_app("pages/attention.py", text=text, layer="1")  # layer 1 named: the page may open on another
    head_panel, mean_panel = _csv_sections(figure_csv(go.Figure(figure(at, "attention.heads"))))
    for rows, expected in ((head_panel, attention.weights[0]), (mean_panel, attention.mean_weights)):
        numbers = np.array([[float(x) for x in r[1:]] for r in rows[2:]])
        np.testing.assert_allclose(numbers, expected, rtol=1e-5, atol=1e-6)
    at = open_app("pages/attention.py", text=text, layer="1", view="query", top="3")  # query token 1, head 1
    (bars,) = _csv_sections(figure_csv(go.Figure(figure(at, "attention.query_bars"))))
    values = sorted((float(r[0]) for r in bars[2:]), reverse=True)
    np.testing.assert_allclose(values, np.sort(attention.weights[0][1])[::-1][:3], rtol=1e-5, atol=1e-7)


def test_series_csv_equals_the_bars_and_lines_drawn():
    from viz_model.figures.export import figure_csv

    bars = figures.bar_chart(["0:<b>", "1:y"], [0.25, 0.75], x_title="token", y_title="weight")
    rows = list(csv.reader(io.StringIO(figure_csv(bars))))
    assert {tuple(r) for r in rows[2:]} in ({("0:<b>", "0.25"), ("1:y", "0.75")}, {("0.25", "0:<b>"), ("0.75", "1:y")})
    x = np.arange(4)
    lines = figures.line_chart(x, {"sin": np.sin(x), "cos": np.cos(x)}, x_title="pos", y_title="value")
    sections = _csv_sections(figure_csv(lines))
    by_name = {s[0][0]: np.array([[float(v) for v in r] for r in s[2:]]) for s in sections}
    np.testing.assert_allclose(by_name["sin"], np.c_[x, np.sin(x)], rtol=1e-6)
    np.testing.assert_allclose(by_name["cos"], np.c_[x, np.cos(x)], rtol=1e-6)


def test_has_csv_says_whether_figure_csv_writes_anything():
    import plotly.graph_objects as go

    from viz_model.figures.export import figure_csv, has_csv

    x = np.arange(3)
    examples = [
        figures.heatmaps(
            np.eye(2)[None].astype(np.float32), ["a", "b"], ["c", "d"], y_title="q", x_title="k", value_name="v"
        ),
        figures.bar_chart(["a"], [1.0], x_title="x", y_title="y"),
        figures.line_chart(x, {"sin": np.sin(x)}, x_title="pos", y_title="value"),
        go.Figure(go.Scatter(x=[], y=[], name="legend only")),
        go.Figure(),
    ]
    assert [has_csv(fig) for fig in examples] == [figure_csv(fig) is not None for fig in examples]
    assert [has_csv(fig) for fig in examples] == [True, True, True, False, False]


@pytest.mark.slow  # kaleido starts a headless browser to draw it (~5 s)
def test_figure_svg_is_the_chart_as_a_vector_image():
    from viz_model.figures.export import figure_svg  # kaleido is a requirement: missing, this fails

    fig = figures.heatmaps(
        np.eye(2)[None].astype(np.float32), ["0:苹果", "1:x"], ["a", "b"], y_title="q", x_title="k", value_name="v"
    )
    svg = figure_svg(fig).decode()
    assert svg.startswith("<svg") and "苹果" in svg and "</svg>" in svg
