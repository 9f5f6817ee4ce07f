"""Positional encoding page: the curves, the table and the position similarities equal viz_model.model.positional,
and the model's own encoding of the current sentence (trace.source_positional) is what the page marks."""

import numpy as np
import pytest

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
    translator,
)
from viz_model.lessons.positional_views import CURVE_STEPS, position_similarity
from viz_model.model.positional import sinusoidal_encoding

# The fixtures `at` and `trace` (tests/conftest.py) open PAGE on this sentence and trace it.
PAGE = "pages/positional.py"
TEXT, DIRECTION = "I saw a saw.", "en2zh"
# chosen section -> the charts it draws (the model's own encoding of the sentence is added on the table section)
SECTIONS = {
    "positional.tab_curves": ["positional.curves"],
    "positional.tab_table": ["positional.heatmap"],
    "positional.tab_similarity": ["positional.distance", "positional.similarity"],
    "positional.tab_course": [],
}


def on_section(at, section, lang="en"):
    return open_section(at, "section", section, lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(SENTENCES))
def test_renders(name, lang):
    text, direction = SENTENCES[name]
    at = open_app(PAGE, text=text, direction=direction, lang=lang)
    assert errors(at) == []
    for section, charts in SECTIONS.items():
        on_section(at, section, lang)
        # The encoding does not need a sentence; without one nothing is marked and a prompt says why.
        expected = charts + ["positional.sentence"] if section.endswith("table") and name != "empty" else charts
        assert chart_keys(at) == sorted(expected), section
        if name == "empty":
            assert at.info
        assert_user_text_escaped(at)


def test_the_sentence_is_marked_with_the_models_own_encoding(at, trace):
    config = translator().config
    S = len(trace.source_tokens)
    (table,) = heatmap_panels(figure(on_section(at, "positional.tab_table"), "positional.heatmap"))
    assert table.shape == (max(config.max_len, S), config.d_model)
    np.testing.assert_allclose(table, sinusoidal_encoding(table.shape[0], config.d_model), atol=1e-6)
    np.testing.assert_allclose(table[:S], trace.source_positional, atol=1e-6)  # the framed rows
    shapes = figure(at, "positional.heatmap")["layout"]["shapes"]
    assert shapes and shapes[0]["y0"] == -0.5 and shapes[0]["y1"] == S - 0.5
    (sentence,) = heatmap_panels(figure(at, "positional.sentence"))
    np.testing.assert_allclose(sentence, trace.source_positional, atol=1e-7)
    curves = figure(on_section(at, "positional.tab_curves"), "positional.curves")["data"]
    lines = [c for c in curves if c.get("meta") is None]  # sampled finely between the whole positions
    points = [c for c in curves if c.get("meta") == "points"]  # the whole positions
    marks = [c for c in curves if c.get("meta") == "marks"]
    assert len(lines) == len(points) == len(marks) > 0
    for line, point, mark in zip(lines, points, marks):
        j = int(line["name"].split()[1])  # "dim 6 · sin (i = 3)"
        np.testing.assert_allclose(decode(line["y"])[::CURVE_STEPS], table[:, j], atol=1e-6)
        np.testing.assert_allclose(decode(point["y"]), table[:, j], atol=1e-6)
        np.testing.assert_allclose(decode(mark["y"]), trace.source_positional[:, j], atol=1e-6)
        np.testing.assert_array_equal(decode(mark["x"]), np.arange(S))


def test_similarity_depends_on_the_distance(at):
    (similarity,) = heatmap_panels(figure(on_section(at, "positional.tab_similarity"), "positional.similarity"))
    L, d = similarity.shape[0], translator().config.d_model
    np.testing.assert_allclose(similarity, position_similarity(sinusoidal_encoding(L, d)), rtol=1e-5, atol=1e-3)
    profiles = [decode(c["y"]) for c in figure(at, "positional.distance")["data"]]
    assert len(profiles) >= 2
    for other in profiles[1:]:
        np.testing.assert_allclose(other, profiles[0], atol=1e-3)  # the same curve from every start
    assert profiles[0][0] == pytest.approx(d / 2, rel=1e-5)


def test_course_example_and_controls(at):
    at.button(key="positional.course").click().run()
    assert errors(at) == []
    (table,) = heatmap_panels(figure(on_section(at, "positional.tab_table"), "positional.heatmap"))
    np.testing.assert_allclose(table, sinusoidal_encoding(6, 5), atol=1e-7)
    assert chart_keys(at) == ["positional.heatmap"]  # another d_model: the model's PE is not marked
    assert any("d_model" in i.value for i in at.info)
    course = on_section(at, "positional.tab_course").dataframe[0].value
    assert course.shape == (6, 5) and course.index[0] == "0: when"
    np.testing.assert_allclose(course.to_numpy(), np.round(sinusoidal_encoding(6, 5), 4))
    on_section(at, "positional.tab_curves")
    at.multiselect(key="positional.dims").set_value([0, 4]).run()
    lines = [c for c in figure(at, "positional.curves")["data"] if c.get("meta") is None]
    assert len(lines) == 2
    np.testing.assert_allclose(decode(lines[1]["y"])[::CURVE_STEPS], sinusoidal_encoding(6, 5)[:, 4], atol=1e-7)
    # the chosen dimensions survive a visit to another section (Streamlit forgets undrawn widgets' values)
    on_section(at, "positional.tab_similarity")
    curves = figure(on_section(at, "positional.tab_curves"), "positional.curves")["data"]
    assert len([c for c in curves if c.get("meta") is None]) == 2
    at.button(key="positional.model_size").click().run()
    assert "positional.sentence" in chart_keys(on_section(at, "positional.tab_table"))
