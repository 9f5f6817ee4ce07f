"""The beam-search tree: its layout (viz_model.lessons.search_tree) and its figure (viz_model.figures)."""

import math
from collections import Counter

import pytest

from tests.figure_checks import assert_sends_what_plotly_would_validate
from viz_model import figures
from viz_model.lessons.search_tree import ROOT, tree_layout
from viz_model.lessons.toy_search import beam_search, course_next_probs, greedy_search
from viz_model.model.translator import SearchSettings


@pytest.fixture(scope="module")
def record():
    return beam_search(course_next_probs, beam_width=2, max_len=4).record


def test_layout_has_one_node_per_candidate_and_keeps_the_order_of_its_rows(record):
    full = tree_layout(record)
    assert len(full.candidates()) == record.candidates_scored
    assert full.nodes[0].id == ROOT and full.nodes[0].status == "root"
    order = sorted(full.nodes, key=lambda n: n.y)
    for s in range(len(record.steps)):
        part = tree_layout(record, upto=s)
        assert len(part.candidates()) == sum(len(st.candidates) for st in record.steps[: s + 1])
        assert all(child.x == parent.x + 1 for parent, child in part.edges())
        # Replayed step by step, no node changes places with another (ties: a parent and the child on its row)
        y = {n.id: n.y for n in part.nodes}
        shown = [n.id for n in order if n.id in y]
        assert all(y[a] <= y[b] for a, b in zip(shown, shown[1:]))
        # ... and the rows in use are 0, 1, 2, …: the tree is as tall as the beam at that step
        rows = sorted({n.y for n in part.nodes if n.status != "pruned"})
        assert rows == [float(i) for i in range(part.n_rows)]


def test_the_first_step_is_as_tall_as_its_beam():
    """With the shipped model, the four candidates of step 1 for "The animal didn't cross the street because
    it was too tired." sat on rows 0, 10, 11 and 12 of the whole search's layout, 500–800 px apart on the
    page; each step now numbers only the rows it uses."""
    record = beam_search(course_next_probs, beam_width=3, max_len=4).record
    first = tree_layout(record, upto=0)
    kept = [n for n in first.candidates() if n.status != "pruned"]
    assert sorted(n.y for n in kept) == [0.0, 1.0, 2.0] and first.n_rows == 3
    assert tree_layout(record).n_rows > first.n_rows  # the whole search needs more rows than its first step


def test_rows_follow_the_beam_and_pruned_candidates_fan_out_below_their_parent(record):
    from viz_model.lessons.search_tree import PRUNED_FAN

    layout = tree_layout(record)
    by_id = {n.id: n for n in layout.nodes}
    kids = {n.id: [c for p, c in layout.edges() if p.id == n.id] for n in layout.nodes}
    surviving_leaves = [
        n for n in layout.nodes if n.status != "pruned" and not [c for c in kids[n.id] if c.status != "pruned"]
    ]
    assert sorted(n.y for n in surviving_leaves) == list(range(len(surviving_leaves))) == list(range(layout.n_rows))
    for node in layout.nodes:
        surviving = [c for c in kids[node.id] if c.status != "pruned"]
        if surviving:
            assert node.y == surviving[0].y  # on its best-ranked surviving child's row
        for child in kids[node.id]:
            if child.status == "pruned":
                assert by_id[node.id].y < child.y <= node.y + PRUNED_FAN


def test_best_path_is_the_course_answer(record):
    best = [n.token for n in tree_layout(record).nodes if n.best and n.id != ROOT]
    assert best == ["A", "C", "B", "<eos>"]
    assert math.isclose(record.hypotheses[0].prob, 0.054)
    assert math.isclose(greedy_search(course_next_probs, 4).prob, 0.048)


def test_tree_figure_draws_every_node_with_its_status(record):
    layout = tree_layout(record, upto=1)
    names = {k: k for k in ("root", "kept", "pruned", "finished", "best")}
    fig = figures.search_tree(layout, names=names, x_title="step", y_title="rank", hover="{token}")
    drawn = [
        i for t in fig.data if (t.meta or "").startswith("nodes:") and t.meta != "nodes:root" for i in t.customdata
    ]
    assert sorted(drawn) == sorted(n.id for n in layout.candidates())
    symbols = {t.meta: t.marker.symbol for t in fig.data if (t.meta or "").startswith("nodes:")}
    assert len(set(symbols.values())) == len(symbols)  # shape differs, not only colour


def test_tree_figure_passes_plotlys_validation_and_comes_out_the_same(record):
    """The tree is built without plotly.py's validation (for speed); rebuilt with it, the same figure must
    come out: no property plotly would reject or change, in either interface language."""
    for names in (
        {k: k for k in ("root", "kept", "pruned", "finished", "best")},
        {"root": "根", "kept": "保留", "pruned": "剪枝", "finished": "完成", "best": "<b>最佳</b>"},
    ):
        fig = figures.react_ready(
            figures.search_tree(
                tree_layout(record),
                names=names,
                x_title="步",
                y_title="rank",
                hover="{token} {p} {logp} {score} {status}",
            )
        )
        assert fig.to_plotly_json()["layout"].get("template") is None  # react_ready's: no template
        assert_sends_what_plotly_would_validate(fig)


def _overlaps(a, b, gap: float = 0.0) -> bool:
    """Two (id, left, right, top, bottom) boxes overlap (closer than `gap`)."""
    return a[1] < b[2] + gap and b[1] < a[2] + gap and a[3] < b[4] + gap and b[3] < a[4] + gap


def _assert_labels_apart(layout, size):
    from viz_model.figures.tree import label_boxes, marker_boxes, tree_geometry

    geometry = tree_geometry(layout, size)
    boxes = label_boxes(layout, geometry)
    assert len(boxes) == len(geometry.labels)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not _overlaps(a, b), (a, b, geometry.labels[a[0]], geometry.labels[b[0]])
        for m in marker_boxes(layout, geometry):
            assert m[0] == a[0] or not _overlaps(a, m), (a, m)
    fig = figures.search_tree(
        layout,
        names={k: k for k in ("root", "kept", "pruned", "finished", "best")},
        x_title="step",
        y_title="rank",
        hover="{token}",
        size=size,
    )
    rows = max(layout.n_rows, 1)
    y_span = fig.layout.yaxis.range[0] - fig.layout.yaxis.range[1]
    plot_height = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    assert plot_height / y_span >= geometry.row_px - 1e-6 and rows <= y_span  # the rows as laid out
    texts = {i: t for trace in fig.data if trace.text is not None for i, t in zip(trace.customdata, trace.text)}
    assert {i: t.split("<br>") for i, t in texts.items() if t} == geometry.labels  # the labels drawn


def _siblings(prefix):
    """A toy model whose first step offers two near-equal, same-looking siblings, 橙色 and 橙子."""
    table = {
        (): {"橙色": 0.34, "橙子": 0.33, "我": 0.2, "<eos>": 0.13},
        ("橙色",): {"的": 0.5, "橙子": 0.3, "<eos>": 0.2},
        ("橙子",): {"汁": 0.5, "的": 0.3, "<eos>": 0.2},
    }
    return table.get(tuple(prefix), {"很好吃的水果": 0.4, "chocolate-covered": 0.35, "<eos>": 0.25})


@pytest.mark.parametrize("size", [12, 16])
@pytest.mark.parametrize("width", [1, 2, 4, 8])
def test_tree_labels_never_overlap_on_toy_trees(width, size):
    for next_probs, steps in ((_siblings, 6), (course_next_probs, 4)):
        record = beam_search(next_probs, beam_width=width, max_len=steps).record
        for upto in (0, None):
            _assert_labels_apart(tree_layout(record, upto), size)


@pytest.mark.parametrize(
    "text, direction",
    [
        ("Please buy an apple and an orange.", "en2zh"),
        ("我看见了一把锯子。", "zh2en"),
        ("The policeman will open the black umbrella and the teacher will eat this small mango.", "en2zh"),
    ],
)
def test_tree_labels_never_overlap_on_the_models_trees(text, direction):
    from tests.app_harness import translator

    for width in (2, 5, 8):
        record = translator().search(text, direction, SearchSettings(beam_width=width))
        _assert_labels_apart(tree_layout(record), 12)
        _assert_labels_apart(tree_layout(record), 16)


def test_a_tiny_probability_is_not_printed_as_zero():
    from viz_model.figures.tree import probability_label

    assert [probability_label(p) for p in (0.96, 0.006, 0.004, 1e-9)] == ["0.96", "0.01", "<0.01", "<0.01"]


# ---- the same tree as SVG, the node view's: every node a link ----------------------------------------------
SVG = "{http://www.w3.org/2000/svg}"


def _svg_tree(layout, href, selected=None, names=None):
    import xml.etree.ElementTree as ET

    names = names or {k: k for k in ("root", "kept", "pruned", "finished", "best")}
    svg = figures.search_tree_svg(
        layout, names=names, x_title="step", y_title="rank", hover="{token}<br>p = {p}", href=href, selected=selected
    )
    assert "\n" not in svg  # one line: a Markdown block keeps it whole
    return svg, ET.fromstring(svg)  # well-formed XML: nothing in it unescaped


def test_svg_tree_links_every_node_but_the_root_to_its_own_place(record):
    from viz_model.lessons.beam_node import node_at, node_places

    layout = tree_layout(record)
    places = node_places(record)
    _, root = _svg_tree(layout, lambda i: f"?nstep={places[i][0] + 1}&nrank={places[i][1] + 1}")
    links = root.findall(f".//{SVG}a")
    assert sorted(int(a.get("data-node")) for a in links) == sorted(n.id for n in layout.candidates())
    for a in links:
        step, rank = (int(v.split("=")[1]) - 1 for v in a.get("href")[1:].split("&"))
        assert node_at(record, step, rank).hypothesis == int(a.get("data-node"))
        node = next(n for n in layout.nodes if n.id == int(a.get("data-node")))
        assert a.find(f"{SVG}title").text == f"{node.token}\np = {node.prob:.3f}"  # the hover box, two lines
    # Shapes differ by status (no colour vision needed): circles kept, squares finished, an x pruned, one
    # of each in the legend too.
    from viz_model.figures.tree_svg import MARK_CLASS

    counts = Counter(n.status for n in layout.nodes)
    assert {a.get("class") for a in links} == {f"node-{s}" for s in counts if s != "root"}
    marks = {
        status: [el for el in root if el.get("class", "").split(" ")[0] == cls] for status, cls in MARK_CLASS.items()
    }
    assert len(marks["kept"]) == counts["kept"] + 1 and {el.tag for el in marks["kept"]} == {f"{SVG}circle"}
    assert len(marks["finished"]) == counts["finished"] + 1 and {el.tag for el in marks["finished"]} == {f"{SVG}rect"}
    crosses = "".join(el.get("d") for el in marks["pruned"])
    assert {el.tag for el in marks["pruned"]} == {f"{SVG}path"} and crosses.count("M") == counts["pruned"] + 1
    # The best path's nodes, and only they, are outlined in its colour.
    outlined = sum("o" in el.get("class").split() for el in marks["kept"] + marks["finished"])
    assert outlined == sum(n.best for n in layout.candidates() if n.status != "pruned")


def test_svg_tree_rings_the_open_node_and_shows_typed_markup_as_text(record):
    layout = tree_layout(record)
    chosen = layout.candidates()[3]
    _, root = _svg_tree(layout, lambda i: "?a=1&b=<2>", selected=chosen.id)
    rings = root.findall(f".//{SVG}circle[@class='ring']")
    assert len(rings) == 1
    ringed = next(a for a in root.findall(f".//{SVG}a") if a.find(f"{SVG}circle[@class='ring']") is not None)
    assert int(ringed.get("data-node")) == chosen.id and ringed.get("href") == "?a=1&b=<2>"
    hostile = {"root": "<script>alert(1)</script>", "kept": "k", "pruned": "p", "finished": "f", "best": "&"}
    svg, root = _svg_tree(layout, lambda i: None, names=hostile)
    assert "<script>" not in svg and root.findall(f".//{SVG}a") == []  # no link without an href
    assert "<script>alert(1)</script>" in [t.text for t in root.iter(f"{SVG}text")]  # the legend, as typed


def test_svg_tree_draws_the_labels_the_figure_draws(record):
    """The same labels as the plotly tree (whose placement the overlap tests check)."""
    import html

    from viz_model.figures.tree import tree_geometry

    layout = tree_layout(record)
    _, root = _svg_tree(layout, lambda i: "?")
    drawn = sorted(t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label")
    labels = tree_geometry(layout).labels.values()  # escaped for plotly: as plain text, unescaped
    assert drawn == sorted(html.unescape(line) for lines in labels for line in lines)
