"""Step by step: its numbers equal the Attention page's heatmap; the course example's numbers come out."""

import numpy as np
import pytest

from tests.app_harness import SHORT, chart_keys, decode, figure, heatmap_panels, open_app, open_section, translator
from viz_model.lessons.attention_step import attention_step


@pytest.mark.parametrize(
    "kind, layer, head, query", [("encoder_self", 0, 0, 1), ("decoder_self", 1, 3, 2), ("cross", 1, 2, 1)]
)
def test_step_weights_equal_the_attention_heatmap(kind, layer, head, query):
    text = "I saw a saw."
    at = open_app("pages/attention.py", text=text)
    for key, value in dict(kind=kind, layer=layer, view="heads", head=head).items():
        at.session_state[SHORT.get(key, key)] = value
    at.run()
    row = heatmap_panels(figure(at, "attention.heads"))[0][query]
    at.switch_page("pages/step_by_step.py").run()
    for key, value in dict(kind=kind, layer=layer, head=head, query=query).items():
        at.session_state[SHORT.get(key, key)] = value
    open_section(at, "section", "step.tab_scores")
    weights = decode(figure(at, "step.weights")["data"][0]["x"]).astype(np.float64)
    np.testing.assert_allclose(weights, np.nan_to_num(row), atol=1e-5)
    assert at.success  # recomputation agrees with the model's trace
    # the concatenated heads × W^O panel is the layer's real output for this token
    trace = translator().translate(text, "en2zh").trace
    open_section(at, "section", "step.tab_output")
    assert at.success
    concat, output = heatmap_panels(figure(at, "step.output"))[0]
    np.testing.assert_allclose(output, trace.attention(kind, layer).output[query], atol=1e-4)
    params = translator().attention_parameters(kind, layer)
    step = attention_step(trace.attention(kind, layer), params, head, query)
    open_section(at, "section", "step.tab_projections")
    (q,) = heatmap_panels(figure(at, "step.q"))[0]
    np.testing.assert_allclose(q, step.q[0], atol=1e-4)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_course_example_numbers(lang):
    at = open_app("pages/step_by_step.py", text="Thinking machines", lang=lang)
    at.session_state["mode"] = "course"
    at.run()
    assert not at.exception
    line = [m.value for m in at.markdown if m.value.startswith("####")][0]
    assert "112, 96" in line and "÷ 8" in line and "14.00, 12.00" in line and "0.88, 0.12" in line
    scores, scaled = heatmap_panels(figure(at, "step.course.scores"))
    np.testing.assert_allclose(scores[0], [112, 96])
    np.testing.assert_allclose(scaled[0], [14, 12])
    (weights,) = heatmap_panels(figure(at, "step.course.weights"))
    np.testing.assert_allclose(weights[0], [0.8808, 0.1192], atol=1e-4)


def test_toy_mode_sizes_and_seed():
    at = open_app("pages/step_by_step.py", text="Thinking machines")
    at.session_state["mode"] = "toy"
    at.session_state["step.toy_n"] = 5
    at.session_state["step.toy_d_model"] = 6
    at.session_state["step.toy_d_k"] = 3
    at.run()
    assert not at.exception
    (weights,) = heatmap_panels(figure(at, "step.toy.weights"))
    assert weights.shape == (5, 5)
    np.testing.assert_allclose(weights.sum(axis=1), 1, atol=1e-6)
    q, k, v = heatmap_panels(figure(at, "step.toy_qkv"))
    assert q.shape == (5, 3)


def test_toy_mode_without_a_sentence():
    at = open_app("pages/step_by_step.py", text="")
    at.session_state["mode"] = "toy"
    at.run()
    assert not at.exception and figure(at, "step.toy.weights")


def test_each_step_is_a_tab_and_only_the_open_one_is_drawn():
    at = open_app("pages/step_by_step.py", text="I saw a saw.")
    drawn = {
        "step.tab_inputs": ["step.x"],
        "step.tab_projections": ["step.kv", "step.q"],
        "step.tab_scores": ["step.weights"],
        "step.tab_weighted_sum": ["step.weighted"],
        "step.tab_output": ["step.output"],
    }
    assert chart_keys(at) == drawn["step.tab_inputs"]  # the first step is open at first
    for tab, keys in drawn.items():
        assert chart_keys(open_section(at, "section", tab)) == keys
        assert at.success  # the check under the tabs, on every step


@pytest.mark.parametrize("page, prefix", [("pages/step_by_step.py", "step"), ("pages/attention.py", "attention")])
def test_query_token_stays_valid_when_the_kind_changes(page, prefix):
    """Pick a late source token, switch to an attention kind with fewer query rows: the page keeps working
    and the query is a valid row; a stale value of another type (what a browser once left) is ignored."""
    from tests.app_harness import errors

    at = open_app(page, text="Please buy an apple and an orange.")
    if prefix == "attention":
        at.session_state["view"] = "query"
    at.session_state["kind"] = "encoder_self"
    at.session_state["query"] = 8
    at.run()
    assert errors(at) == []
    # Rows valid for the encoder, past the decoder's end. (Values no option ever had, a stale wire label
    # such as "4:apple" or -1, are Streamlit's to check now that the widget is URL-bound: it compares what
    # the browser or the URL sends with the current options; AppTest cannot send such a value.)
    for stale in (8, 7):
        at.session_state["kind"] = "decoder_self"
        at.session_state["query"] = stale
        at.run()
        assert errors(at) == [] and not at.exception
        n_rows = len(
            translator().translate("Please buy an apple and an orange.", "en2zh").trace.axis_tokens("decoder_self")[0]
        )
        assert 0 <= at.session_state["query"] < n_rows


def test_the_query_token_starts_on_the_first_word():
    """Position 0 is the direction tag, whose input vector is nearly blank (its embedding all but cancels
    the position-0 encoding): the page opens on position 1, the first word, and its q is that word's."""
    text = "The cat sat on the mat."
    at = open_app("pages/step_by_step.py", text=text)
    assert at.selectbox(key="query").value == 1
    layer = at.selectbox(key="layer").value
    trace = translator().translate(text, "en2zh").trace
    step = attention_step(
        trace.attention("encoder_self", layer), translator().attention_parameters("encoder_self", layer), 0, 1
    )
    np.testing.assert_allclose(
        decode(figure(open_section(at, "section", "step.tab_projections"), "step.q")["data"][0]["z"])[0],
        step.q[0],
        atol=1e-5,
    )


@pytest.mark.parametrize("kind, layer", [("encoder_self", 0), ("cross", 2)])
def test_block_section_shows_the_traced_block(kind, layer):
    from viz_model.lessons.block_view import trace_block_view

    text = "I saw a saw."
    at = open_app("pages/step_by_step.py", text=text)
    at.session_state["kind"] = kind
    at.session_state["layer"] = layer
    open_section(at, "section", "step.tab_block")
    trace = translator().translate(text, "en2zh").trace
    view = trace_block_view(translator().model, trace, kind, layer)
    part = view.cross_attention if kind == "cross" else view.attention
    x, out, added = heatmap_panels(figure(at, "step.block_add"))
    np.testing.assert_allclose(x, part.residual_input, atol=1e-5)
    np.testing.assert_allclose(out, part.sublayer_output, atol=1e-5)
    np.testing.assert_allclose(added, part.normalised_input, atol=1e-5)
    stats = at.dataframe[0].value
    np.testing.assert_allclose(stats.iloc[:, 1].to_numpy(float), part.mean, atol=1e-4)
    np.testing.assert_allclose(stats.iloc[:, 2].to_numpy(float), part.sigma, atol=1e-4)
    standardised, normed = heatmap_panels(figure(at, "step.block_norm"))
    np.testing.assert_allclose(normed, part.model_output, atol=1e-5)
    (hidden,) = heatmap_panels(figure(at, "step.block_ffn"))
    np.testing.assert_allclose(hidden, view.ffn_hidden, atol=1e-5)
    assert any(f"{view.relu_zero_share:.0%}" in c.value for c in at.caption)
    output = heatmap_panels(figure(at, "step.block_output"))[-1]
    np.testing.assert_allclose(output, view.output, atol=1e-5)


def test_the_page_opens_on_a_layer_whose_heads_look_at_words():
    """A head parked on the direction tag makes every step show 1.00 on the tag and 0.00 on the words: the
    layer picker opens on the model's first encoder layer in which no one token draws most heads (on the
    app's opening sentence), and so does Attention heads, which shares it."""
    from pages.parts.state import DEFAULT_TEXT
    from viz_model.lessons.attention_notes import attention_sink, first_layer_without_sink

    trace = translator().translate(DEFAULT_TEXT, "en2zh").trace
    opening = first_layer_without_sink(trace)
    for page in ("pages/step_by_step.py", "pages/attention.py"):
        at = open_app(page, text=DEFAULT_TEXT)
        assert at.selectbox(key="layer").value == opening
    sinks = [attention_sink(trace.attention("encoder_self", i).weights, trace.source_tokens) for i in range(3)]
    assert all(sinks[:opening]) and (sinks[opening] is None or not any(sinks[opening:]))
