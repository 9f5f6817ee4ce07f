"""The beam-search tree: its layout (viz_model.lessons.search_tree) and its figure (viz_model.figures)."""
import math

import pytest

from viz_model import figures
from viz_model.lessons.search_tree import ROOT, tree_layout
from viz_model.lessons.toy_search import beam_search, course_next_probs, greedy_search


@pytest.fixture(scope="module")
def record():
    return beam_search(course_next_probs, beam_width=2, max_len=4).record


def test_layout_has_one_node_per_candidate_and_keeps_places(record):
    full = tree_layout(record)
    assert len(full.candidates()) == record.candidates_scored
    assert full.nodes[0].id == ROOT and full.nodes[0].status == "root"
    place = {n.id: (n.x, n.y) for n in full.nodes}
    for s in range(len(record.steps)):
        part = tree_layout(record, upto=s)
        assert len(part.candidates()) == sum(len(st.candidates) for st in record.steps[: s + 1])
        assert all(place[n.id] == (n.x, n.y) for n in part.nodes)     # nodes do not move between steps
        assert all(child.x == parent.x + 1 for parent, child in part.edges())


def test_rows_follow_the_beam_and_pruned_candidates_fan_out_below_their_parent(record):
    from viz_model.lessons.search_tree import PRUNED_FAN

    layout = tree_layout(record)
    by_id = {n.id: n for n in layout.nodes}
    kids = {n.id: [c for p, c in layout.edges() if p.id == n.id] for n in layout.nodes}
    surviving_leaves = [n for n in layout.nodes if n.status != "pruned"
                        and not [c for c in kids[n.id] if c.status != "pruned"]]
    assert sorted(n.y for n in surviving_leaves) == list(range(len(surviving_leaves))) == \
        list(range(layout.n_rows))
    for node in layout.nodes:
        surviving = [c for c in kids[node.id] if c.status != "pruned"]
        if surviving:
            assert node.y == surviving[0].y                     # on its best-ranked surviving child's row
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
    drawn = [i for t in fig.data if (t.meta or "").startswith("nodes:") and t.meta != "nodes:root"
             for i in t.customdata]
    assert sorted(drawn) == sorted(n.id for n in layout.candidates())
    symbols = {t.meta: t.marker.symbol for t in fig.data if (t.meta or "").startswith("nodes:")}
    assert len(set(symbols.values())) == len(symbols)                    # shape differs, not only colour


def test_tree_figure_passes_plotlys_validation_and_comes_out_the_same(record):
    """The tree is built without plotly.py's validation (for speed); rebuilt with it, the same figure must
    come out: no property plotly would reject or change, in either interface language."""
    import plotly.graph_objects as go

    for names in ({k: k for k in ("root", "kept", "pruned", "finished", "best")},
                  {"root": "根", "kept": "保留", "pruned": "剪枝", "finished": "完成", "best": "<b>最佳</b>"}):
        fig = figures.react_ready(figures.search_tree(tree_layout(record), names=names, x_title="步",
                                                      y_title="rank", hover="{token} {p} {logp} {score} {status}"))
        sent = fig.to_plotly_json()
        assert sent["layout"].pop("template", None) is None              # react_ready's: no template
        validated = go.Figure(sent).to_plotly_json()                       # raises on an invalid property
        validated["layout"].pop("template", None)
        assert validated == sent
