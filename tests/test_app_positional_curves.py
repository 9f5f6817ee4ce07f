"""Positional encoding page (issue 42, item 9): the curves are drawn as continuous functions through the
table's values, with the whole positions and the sentence's tokens marked; the course example's button opens
the course's table."""

import numpy as np

from tests.app_harness import chart_keys, decode, errors, figure, open_section, translator
from viz_model.lessons.positional_views import CURVE_STEPS, encoding_curves
from viz_model.model.positional import sinusoidal_encoding

# The fixtures `at` and `trace` (tests/conftest.py) open PAGE on this sentence and trace it.
PAGE = "pages/positional.py"
TEXT, DIRECTION = "I saw a saw.", "en2zh"


def test_the_curves_are_continuous_through_the_table(at, trace):
    config = translator().config
    curves = figure(open_section(at, "section", "positional.tab_curves"), "positional.curves")["data"]
    lines = [c for c in curves if c.get("meta") is None]
    points = [c for c in curves if c.get("meta") == "points"]
    marks = [c for c in curves if c.get("meta") == "marks"]
    assert len(lines) == len(points) == len(marks) > 0
    L = max(config.max_len, len(trace.source_tokens))
    table = sinusoidal_encoding(L, config.d_model)
    dims = [int(line["name"].split()[1]) for line in lines]  # "dim 6 · sin (i = 3)"
    x, values = encoding_curves(L, config.d_model, dims)
    for k, (line, point, mark) in enumerate(zip(lines, points, marks)):
        j = dims[k]
        line_x, line_y = decode(line["x"]), decode(line["y"])
        np.testing.assert_allclose(line_x, x, atol=1e-6)  # finely sampled, not only at whole positions
        assert len(line_x) == (L - 1) * CURVE_STEPS + 1
        np.testing.assert_allclose(line_y, values[:, k], atol=1e-6)
        np.testing.assert_allclose(line_y[::CURVE_STEPS], table[:, j], atol=1e-6)
        np.testing.assert_array_equal(decode(point["x"]), np.arange(L))  # the whole positions, marked
        np.testing.assert_allclose(decode(point["y"]), table[:, j], atol=1e-6)
        assert point["legendgroup"] == line["legendgroup"]
        np.testing.assert_array_equal(decode(mark["x"]), np.arange(len(trace.source_tokens)))  # the tokens
        np.testing.assert_allclose(decode(mark["y"]), trace.source_positional[:, j], atol=1e-6)


def test_the_course_button_opens_the_course_table(at):
    for section in ("positional.tab_curves", "positional.tab_similarity"):
        open_section(at, "section", section)
        at.button(key="positional.course").click().run()
        assert errors(at) == []
        assert at.session_state["section"] == "positional.tab_course"
        assert at.query_params["section"] == "tab_course"  # a link to this view opens it too
        assert at.slider(key="d").value == 5 and at.slider(key="len").value == 6
        assert chart_keys(at) == []  # the course's table, not a chart
        (course,) = [df.value for df in at.dataframe]
        assert course.shape == (6, 5) and course.index[0] == "0: when"
        np.testing.assert_allclose(course.to_numpy(), np.round(sinusoidal_encoding(6, 5), 4))
