"""The search-tree layout, the reference lookup and the page computations added for pages 3, 6, 7, 8."""
import math

import numpy as np
import pytest

from viz_model import analysis, figures
from viz_model.references import find_reference, normalise
from viz_model.search_tree import ROOT, tree_layout
from viz_model.toy_search import beam_search, course_next_probs, greedy_search


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
    from viz_model.search_tree import PRUNED_FAN

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


def test_reference_lookup():
    assert find_reference("please buy an apple and an orange.", "en2zh") == "请买一个苹果和一个橙子。"
    assert find_reference("我看见了一把锯子。", "zh2en") == "I saw a saw."
    assert find_reference("  I  saw a saw. ", "en2zh") == "我看见了一把锯子。"
    assert find_reference("qwzx blorf", "en2zh") is None
    assert find_reference("", "en2zh") is None
    assert normalise("ＡＢ，c") == "ab,c"


def test_course_hand_example_numbers():
    vectors = {w: np.array(v, float) for w, v in
               {"apple": (2, 2, 0), "orange": (0, 3, 0), "phone": (4, 0, 0), "and": (0, 0, 2), "an": (0, 0, 3)}.items()}
    example = analysis.hand_example(vectors)
    i, j = example.words.index("apple"), example.words.index("orange")
    assert round(example.cosine[i, j], 2) == 0.71
    assert np.round(example.moves["orange_pair"].weights, 2).tolist() == [0.57, 0.43]
    assert np.round(example.moves["orange_pair"].sum_weights, 2).tolist() == [0.58, 0.42]
    assert np.round(example.moves["orange_sentence"].weights, 2).tolist() == [0.40, 0.30, 0.15, 0.15]
    assert np.round(example.moves["apple_phone"].weights, 2).tolist() == [0.57, 0.43]
    fruit, phone = example.moves["apple_fruit"].new_vector, example.moves["apple_phone"].new_vector
    assert fruit[1] > 2 > fruit[0] and phone[0] > 2 > phone[1]          # toward Fruitness / toward Tech


@pytest.mark.parametrize("rows, code", [([["x", 1], [0, 3]], "not_number"), ([[float("nan"), 1], [0, 3]], "not_number"),
                                        ([[None, 1], [0, 3]], "not_number"), ([[0, 0], [0, 3]], "zero_vector")])
def test_bad_tables_raise_a_named_error(rows, code):
    with pytest.raises(analysis.FeatureTableError) as err:
        analysis.feature_vectors(["apple", "orange"], ["Tech", "Fruitness"], rows)
    assert err.value.code == code


def test_two_feature_pairs():
    pairs = analysis.vector_pairs([(1, 4), (0, 3), (3, 0)])
    assert [round(p.dot) for p in pairs] == [12, 3, 0]
    assert [round(p.scaled_dot, 2) for p in pairs] == [8.49, 2.12, 0]
    assert [round(p.cosine, 2) for p in pairs] == [0.97, 0.24, 0]
    assert [round(p.angle_degrees) for p in pairs] == [14, 76, 90]


def test_similarity_matrices_of_q_and_k_are_attention():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(3, 8)), rng.normal(size=(4, 8))
    m = analysis.similarity_matrices(q, k)
    np.testing.assert_allclose(m.scaled_dot, q @ k.T / math.sqrt(8))
    np.testing.assert_allclose(m.softmax["scaled_dot"].sum(axis=1), 1)


def test_metric_helpers():
    rows = analysis.ngram_rows(list(analysis.COURSE_BLEU_CANDIDATE), [list(analysis.COURSE_BLEU_REFERENCE)], 1)
    assert sum(r.clipped for r in rows) == 4 and sum(r.count for r in rows) == 5
    assert analysis.scientific(10**40) == (1.0, 40) and analysis.scientific(5 * 10**5) == (5.0, 5)
    profiles = analysis.distance_profiles(np.arange(16.0).reshape(4, 4), [0, 2])
    assert profiles[2].tolist() == [10, 11]


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
