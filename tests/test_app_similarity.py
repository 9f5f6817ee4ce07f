"""Similarity page: every matrix equals viz_model's for the same sentence (embeddings, a layer's output, one
head's q·k = that head's attention), the course's hand example shows cos(apple, orange) = 0.71 and the
softmax weights 0.57/0.43 (and every other worked number of course §2), and editing the table updates
everything or explains what is wrong."""

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import (
    SENTENCES,
    assert_user_text_escaped,
    chart_keys,
    decode,
    errors,
    figure,
    heatmap_panels,
    open_app,
    open_section,
    set_widgets,
    table,
    translator,
    x_title,
)
from viz_model.figures import token_labels
from viz_model.lessons.similarity import similarity_matrices

# The fixtures `at` and `trace` (tests/conftest.py) open PAGE on this sentence and trace it.
PAGE = "pages/similarity.py"
TEXT, DIRECTION = "Please buy an apple and an orange.", "en2zh"
TABLE = "similarity.hand_table.0"
MEASURES = ("dot", "cosine", "scaled_dot")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(SENTENCES))
def test_renders(name, lang):
    text, direction = SENTENCES[name]
    at = open_app(PAGE, text=text, direction=direction, lang=lang)
    assert errors(at) == []
    assert chart_keys(at) == ([] if name == "empty" else ["similarity.dot"])  # the first view's only
    if name == "empty":
        assert at.info  # the friendly prompt, no empty charts
    assert_user_text_escaped(at)
    if name == "html":
        labels = figure(at, "similarity.dot")["data"][0]["y"]
        assert all("<" not in label for label in labels) and "&lt;" in "".join(labels)
    if name != "empty":
        for measure in MEASURES[1:]:
            assert chart_keys(view(at, measure, lang)) == [f"similarity.{measure}"]
        assert chart_keys(view(at, "softmax", lang)) == ["similarity.softmax"]
        assert_user_text_escaped(at)
    # The course example is its own section, which runs only when chosen (and needs no sentence).
    open_section(at, "section", "similarity.tab_course", lang)
    assert chart_keys(at) == ["similarity.hand_cosine", "similarity.hand_softmax", "similarity.moves_plane"]


def test_the_chosen_section_survives_a_language_switch():
    at = open_section(
        open_app(PAGE, text=TEXT, direction=DIRECTION, lang="en"), "section", "similarity.tab_course", "en"
    )
    at.session_state["lang"] = "zh"
    at.run()
    assert errors(at) == []
    sections = at.button_group(key="section")  # one row of buttons, in the new language
    assert sections.options == [t(f"similarity.tab_{name}", "zh") for name in ("sentence", "scoring", "course")]
    assert sections.value == at.session_state["section"] == "similarity.tab_course"  # a stable name
    assert chart_keys(at) == ["similarity.hand_cosine", "similarity.hand_softmax", "similarity.moves_plane"]


def choose(at, **state):
    return set_widgets(at, "similarity", **state)


def view(at, name, lang="en"):
    """Choose the figure section `name` (a measure, or "softmax") of the sentence section."""
    return open_section(at, "measure", f"similarity.view_{name}", lang)


def shown(at):
    """The matrices shown: one figure per measure (a section each), then their softmaxes as one figure of three
    panels, MEASURES order; the dot product's section, the first, is left chosen."""
    softmax_panels = heatmap_panels(figure(view(at, "softmax"), "similarity.softmax"))
    matrices = {m: heatmap_panels(figure(view(at, m), f"similarity.{m}")) for m in reversed(MEASURES)}
    assert len(softmax_panels) == len(MEASURES) and all(len(panels) == 1 for panels in matrices.values())
    return {m: matrices[m][0] for m in MEASURES} | {f"{m}_softmax": panel for m, panel in zip(MEASURES, softmax_panels)}


def check(panels, expected):
    for m in MEASURES:
        np.testing.assert_allclose(panels[m], expected.matrix(m), rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(panels[f"{m}_softmax"], expected.softmax[m], atol=1e-6)


def test_embeddings(at, trace):
    choose(at, source="embedding")
    E = trace.source_embeddings
    check(shown(at), similarity_matrices(E, E))
    fig = figure(at, "similarity.dot")
    # The softmax section says how flat the scaled rows are, from the numbers drawn.
    scaled = similarity_matrices(E, E).softmax["scaled_dot"]
    flat = f"between {scaled.min():.3f} and {scaled.max():.3f}, close to the uniform 1/n = {1 / scaled.shape[1]:.3f}"
    assert any(flat in c.value for c in view(at, "softmax").caption)
    view(at, "dot")
    assert fig["data"][0]["y"] == token_labels(trace.source_tokens)
    assert "Query (rows)" in fig["layout"]["yaxis"]["title"]["text"]
    assert "Key (columns)" in x_title(fig)


def test_each_measure_has_its_own_colour_scale(at, trace):
    """Dot products grow with the vectors' lengths where cosines stay within ±1: one scale would wash one out."""
    choose(at, source="embedding")
    panels = shown(at)
    for measure in MEASURES:
        fig = figure(view(at, measure), f"similarity.{measure}")
        top = np.abs(panels[measure]).max()
        assert fig["layout"]["coloraxis"]["cmin"] == pytest.approx(-top, rel=1e-6)
        assert fig["layout"]["coloraxis"]["cmax"] == pytest.approx(top, rel=1e-6)
        assert t(f"similarity.value_{measure}", "en") in fig["data"][0]["hovertemplate"]
        assert "texttemplate" in fig["data"][0]  # a short sentence, one panel: numbers written


def test_the_three_softmaxes_share_one_colour_scale(at, trace):
    """So their sharpness can be compared: 0 (white) to the largest weight of the three, and ÷√d flattens
    the rows (each row's largest weight is smaller for the scaled dot product than for the plain one)."""
    choose(at, source="embedding")
    panels = shown(at)
    fig = figure(view(at, "softmax"), "similarity.softmax")
    colour_axis = fig["layout"]["coloraxis"]
    assert {d["coloraxis"] for d in fig["data"]} == {"coloraxis"}
    assert colour_axis["cmin"] == 0
    assert colour_axis["cmax"] == pytest.approx(max(panels[f"{m}_softmax"].max() for m in MEASURES), rel=1e-6)
    assert (panels["scaled_dot_softmax"].max(axis=1) < panels["dot_softmax"].max(axis=1)).all()


def test_hidden_states_of_a_layer(at, trace):
    layer = len(trace.encoder_layers) - 1
    choose(at, source="hidden", layer=layer)
    H = trace.encoder_layers[layer].output
    check(shown(at), similarity_matrices(H, H))


def test_q_and_k_of_a_head_give_its_attention(at, trace):
    choose(at, source="qk", layer=0, head=1)
    attention = trace.attention("encoder_self", 0)
    panels = shown(at)
    check(panels, similarity_matrices(attention.q[1], attention.k[1]))
    np.testing.assert_allclose(panels["dot"], attention.scores[1], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(panels["scaled_dot"], attention.scaled_scores[1], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(panels["scaled_dot_softmax"], attention.weights[1], atol=1e-5)


@pytest.fixture(scope="module")
def course():
    return open_section(open_app(PAGE, text=TEXT, direction=DIRECTION), "section", "similarity.tab_course")


def test_course_numbers(course):
    at = course
    words = ["apple", "orange", "phone", "and", "an"]
    fig = figure(at, "similarity.hand_cosine")
    (cosine,) = heatmap_panels(fig)
    assert fig["data"][0]["y"] == words and fig["data"][0]["texttemplate"] == "%{z:.2f}"
    assert round(cosine[0, 1], 2) == 0.71 and round(cosine[2, 0], 2) == 0.71 and cosine[3, 4] == pytest.approx(1)
    assert cosine[1, 2] == 0 and cosine[0, 3] == 0
    headline = [m.value for m in at.markdown if m.value.startswith("####")]
    assert any("cos(apple, orange) = 0.71" in h and "0.57 orange + 0.43 apple" in h for h in headline)
    moves = table(at, "similarity.col_focus")
    softmax, plain = t("similarity.col_softmax", "en"), t("similarity.col_plain", "en")
    assert moves[softmax].tolist()[0] == "0.57 orange + 0.43 apple"
    assert moves[plain].tolist()[0] == "0.58 orange + 0.42 apple"
    assert moves[softmax].tolist()[1] == "0.40 orange + 0.30 apple + 0.15 and + 0.15 an"
    assert moves[softmax].tolist()[3] == "0.57 apple + 0.43 phone"
    pairs = table(at, "similarity.col_pair")
    assert pairs.iloc[:, 1].tolist() == [12, 3, 0]
    assert pairs.iloc[:, 2].tolist() == [8.49, 2.12, 0]
    assert pairs.iloc[:, 3].tolist() == [0.97, 0.24, 0]
    assert pairs.iloc[:, 4].tolist() == ["14°", "76°", "90°"]
    why = table(at, "similarity.col_scores").astype(str).to_numpy().tolist()
    assert why[0][2:] == ["0.58, 0.42", "0.57, 0.43"] and why[1][3] == "0.88, 0.12"
    assert "zero" in why[1][2]


def move_ends(at):
    fig = figure(at, "similarity.moves_plane")
    return [(float(decode(t["x"])[0]), float(decode(t["y"])[0])) for t in fig["data"] if t.get("meta") == "move"]


def test_apple_moves_toward_orange_and_toward_phone(course):
    (fruit, phone, orange) = move_ends(course)
    # 0.57·apple + 0.43·orange = (1.14, 2.43) and 0.57·apple + 0.43·phone = (2.86, 1.14) (Tech, Fruitness)
    assert fruit == pytest.approx((1.145, 2.43), abs=0.01) and phone == pytest.approx((2.86, 1.145), abs=0.01)
    assert orange[1] > orange[0]


def test_editing_the_table_updates_everything_and_bad_cells_are_explained():
    at = open_section(open_app(PAGE, text=""), "section", "similarity.tab_course")
    at.session_state[TABLE] = {"edited_rows": {1: {"Tech": 3.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert errors(at) == [] and not at.warning
    (cosine,) = heatmap_panels(figure(at, "similarity.hand_cosine"))
    assert cosine[0, 1] == pytest.approx(1.0)  # orange = (3,3,0) is now apple's direction
    assert any("cos(apple, orange) = 1.00" in m.value for m in at.markdown)
    for edit, words in (
        ({0: {"Tech": 0.0, "Fruitness": 0.0}}, "apple"),
        ({2: {"Other": None}}, "phone · Other"),
        ({1: {"Tech": float("nan")}}, "orange · Tech"),
        ({3: {"Fruitness": "abc"}}, "and · Fruitness"),
    ):
        at.session_state[TABLE] = {"edited_rows": edit, "added_rows": [], "deleted_rows": []}
        at.run()
        assert errors(at) == []
        assert at.warning and words in at.warning[0].value
        assert [el for el in at.get("plotly_chart") if "hand_cosine" in el.proto.id] == []
    at.button(key="similarity.reset").click().run()
    (cosine,) = heatmap_panels(figure(at, "similarity.hand_cosine"))
    assert round(cosine[0, 1], 2) == 0.71 and not at.warning


@pytest.mark.parametrize("head, query", [(0, 0), (2, 3)])
def test_scoring_functions_section_shows_viz_models_numbers(head, query):
    from viz_model.lessons.scoring import SCORING_FUNCTIONS, head_scoring

    at = open_app(PAGE, text=TEXT, direction=DIRECTION)
    at.session_state["query"] = query
    at.session_state["head"] = head
    open_section(at, "section", "similarity.tab_scoring")
    trace = translator().translate(TEXT, DIRECTION).trace
    attention = trace.attention("encoder_self", 0)
    found = head_scoring(attention, translator().attention_parameters("encoder_self", 0), head, query)
    (weights,) = heatmap_panels(figure(at, "similarity.scoring_weights"))
    np.testing.assert_allclose(weights, [found.weights[n] for n in SCORING_FUNCTIONS], atol=1e-5)
    table = at.dataframe[0].value
    np.testing.assert_allclose(
        table.to_numpy(dtype=float), [found.scores[n] for n in SCORING_FUNCTIONS], rtol=1e-5, atol=1e-5
    )
    (bilinear,) = heatmap_panels(figure(at, "similarity.scoring_bilinear"))
    np.testing.assert_allclose(bilinear, found.bilinear_matrix, atol=1e-6)
    w, u = heatmap_panels(figure(at, "similarity.scoring_wu"))
    np.testing.assert_allclose(w, found.additive_w, atol=1e-6)
    np.testing.assert_allclose(u, found.additive_u, atol=1e-6)
