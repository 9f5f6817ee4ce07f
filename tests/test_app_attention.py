"""Attention heads: every view's numbers equal the trace for the same sentence; the mask is drawn."""

import json

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import decode, figure, heatmap_panels, open_app, set_widgets, translator, x_title
from viz_model.figures import escape_label, token_labels
from viz_model.lessons.attention_notes import decoder_row_labels
from viz_model.lessons.attention_views import head_differences, top_attended

# The fixtures `at` and `trace` (tests/conftest.py) open PAGE on this sentence and trace it.
PAGE = "pages/attention.py"
TEXT, DIRECTION = "I saw a saw.", "en2zh"


def choose(at, **state):
    return set_widgets(at, "attention", **state)


def masked(weights, mask):
    return np.where(mask, weights, np.nan)


@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_one_head_and_mean(at, trace, kind):
    n_layers = len(trace.encoder_layers if kind == "encoder_self" else trace.decoder_layers)
    layer, head = n_layers - 1, 1
    choose(at, kind=kind, layer=layer, view="heads", head=head)
    att = trace.attention(kind, layer)
    fig = figure(at, "attention.heads")
    shown, mean = heatmap_panels(fig)
    np.testing.assert_allclose(shown, masked(att.weights[head], att.mask), atol=1e-6)
    np.testing.assert_allclose(mean, masked(att.mean_weights, att.mask), atol=1e-6)
    rows, cols = trace.axis_tokens(kind)
    if kind != "encoder_self":  # decoder rows: "read → predict"
        rows = decoder_row_labels(trace.target_tokens, trace.predicted_tokens)
    assert fig["data"][0]["y"] == token_labels(rows)  # position-prefixed, HTML-escaped
    assert fig["data"][0]["x"] == token_labels(cols)
    assert "Query (rows)" in fig["layout"]["yaxis"]["title"]["text"]
    assert "Key (columns)" in x_title(fig)
    overlays = [t for t in fig["data"] if not t.get("coloraxis")]
    if kind == "decoder_self":
        assert overlays and "masked" in overlays[0]["hovertemplate"]
        assert np.isnan(shown[0, 1]) and (np.isnan(shown) == ~att.mask).all()
    else:
        assert not overlays and not np.isnan(shown).any()


def test_compare_mode_shares_one_scale_and_shows_differences(at, trace):
    choose(at, kind="cross", layer=0, view="compare", compare=[0, 2, 3])
    att = trace.attention("cross", 0)
    fig = figure(at, "attention.compare_heads")
    panels = heatmap_panels(fig)
    assert len(panels) == 3
    for shown, h in zip(panels, [0, 2, 3]):
        np.testing.assert_allclose(shown, att.weights[h], atol=1e-6)
    assert {t.get("coloraxis") for t in fig["data"]} == {"coloraxis"}
    assert fig["layout"]["coloraxis"]["cmax"] == pytest.approx(float(att.weights[[0, 2, 3]].max()), rel=1e-5)
    diffs = heatmap_panels(figure(at, "attention.difference"))
    assert len(diffs) == len(head_differences(att.weights, [0, 2, 3])) > 0
    for shown, (_, _, expected) in zip(diffs, head_differences(att.weights, [0, 2, 3])):
        np.testing.assert_allclose(shown, expected, atol=1e-6)


def test_grid_of_all_layers_and_heads(at, trace):
    choose(at, kind="decoder_self", view="grid")
    stack = trace.attention_stack("decoder_self")
    panels = heatmap_panels(figure(at, "attention.grid"))
    assert len(panels) == stack.shape[0] * stack.shape[1]
    mask = trace.attention("decoder_self", 0).mask
    for k, shown in enumerate(panels):
        np.testing.assert_allclose(shown, masked(stack[k // stack.shape[1], k % stack.shape[1]], mask), atol=1e-6)


def test_one_query_token(at, trace):
    choose(at, kind="encoder_self", layer=0, view="query", query=2, query_head=1, top_k=3)
    att = trace.attention("encoder_self", 0)
    expected = top_attended(att.weights[1], 2, trace.source_tokens, k=3)
    bars = figure(at, "attention.query_bars")["data"][0]
    np.testing.assert_allclose(decode(bars["x"]), [a.weight for a in expected], atol=1e-6)
    assert bars["y"] == [f"{a.position}:{escape_label(a.token)}" for a in expected]
    table = at.dataframe[0].value
    assert table.iloc[:, 1].tolist() == [f"{a.position}:{a.token}" for a in expected]
    # The weights show four decimals on every row (1.0000 beside 0.0000, never "1" beside "0").
    columns = json.loads(at.dataframe[0].proto.columns)
    assert columns[t("attention.col_weight", "en")]["type_config"]["format"] == "%.4f"
    choose(at, query_head="mean")
    bars = figure(at, "attention.query_bars")["data"][0]
    assert decode(bars["x"])[0] == pytest.approx(att.mean_weights[2].max(), abs=1e-6)


def test_layer_selection_survives_a_kind_with_fewer_layers(at):
    choose(at, kind="encoder_self", layer=0, view="heads")
    assert figure(at, "attention.heads")


def test_controls_work_in_chinese(trace):
    at = open_app("pages/attention.py", text=TEXT, direction=DIRECTION, lang="zh")
    choose(at, kind="cross", layer=1, view="heads", head=0)
    (shown, _) = heatmap_panels(figure(at, "attention.heads"))
    np.testing.assert_allclose(shown, trace.attention("cross", 1).weights[0], atol=1e-6)
    fig = figure(at, "attention.heads")
    assert "查询" in fig["layout"]["yaxis"]["title"]["text"] and "键" in x_title(fig)


@pytest.mark.parametrize("kind", ["decoder_self", "cross"])
def test_decoder_rows_say_read_then_predict(kind):
    text = "I saw a saw."
    at = open_app("pages/attention.py", text=text)
    at.session_state["kind"] = kind
    at.run()
    assert not at.exception
    trace = translator().translate(text, "en2zh").trace
    expected = token_labels(decoder_row_labels(trace.target_tokens, trace.predicted_tokens))
    assert expected[0].startswith("0:&lt;bos&gt; → ")
    fig = figure(at, "attention.heads")
    assert fig["data"][0]["y"] == expected


def test_sink_note_from_the_data():
    from viz_model.lessons.attention_notes import attention_sink

    text = "I saw a saw."
    at = open_app("pages/attention.py", text=text)
    trace = translator().translate(text, "en2zh").trace
    for layer in range(3):
        at.session_state["layer"] = layer
        at.run()
        attention = trace.attention("encoder_self", layer)
        sink = attention_sink(attention.weights, trace.source_tokens, attention.mask)
        notes = [c.value for c in at.caption if "softmax" in c.value and "heads in layer" in c.value]
        if sink is None:
            assert notes == []
        else:
            assert len(notes) == 1 and f"{sink.heads} of {sink.n_heads} heads" in notes[0]
            assert f"{sink.mean_weight:.2f}" in notes[0]
    assert layer == 2


def test_the_grid_counts_positions_when_many_tokens_and_lists_them():
    text = "Please buy an apple and an orange."
    at = open_app("pages/attention.py", text=text)
    at.session_state["view"] = "grid"
    at.run()
    trace = translator().translate(text, "en2zh").trace
    fig = figure(at, "attention.grid")
    assert fig["data"][0]["x"] == [str(i) for i in range(len(trace.source_tokens))]
    listed = [c.value for c in at.caption if "Columns (keys)" in c.value]
    assert len(listed) == 1 and "apple" in listed[0]
    at = open_app("pages/attention.py", text="I love you")  # few tokens: named on the axes
    at.session_state["view"] = "grid"
    at.run()
    tokens = translator().translate("I love you", "en2zh").trace.source_tokens
    assert figure(at, "attention.grid")["data"][0]["x"] == token_labels(tokens)


def test_the_pronoun_view_ranks_the_heads_and_counts_those_parked_on_the_tag():
    """The course sentence's "it": the caption names the heads by the weight they give one word, ranked (no
    vote), and counts apart the heads parking at least half the weight on the direction tag."""
    from viz_model.lessons.coreference import pronoun_attention
    from viz_model.lessons.pretrained_views import COREFERENCE_SENTENCE

    at = open_app(PAGE, text=COREFERENCE_SENTENCE)
    choose(at, kind="encoder_self", view="pronoun")
    found = pronoun_attention(translator().translate(COREFERENCE_SENTENCE, "en2zh").trace)
    shown = [c.value.replace("\\", "") for c in at.caption]
    top = found.focus[0]
    line = f"layer {top.layer + 1} head {top.head + 1} → {top.word} {top.weight:.2f}"
    assert any(line in c and "ranked" in c for c in shown)
    assert any(f"{found.parked} of the {found.n_heads} heads park" in c and "<2zh>" in c for c in shown)
    assert not any(" × " in c for c in shown)
