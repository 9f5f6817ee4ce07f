"""Head roles on the Attention heads page: the grid shows every head of the kind with the role computed on the
sentence, and under one head's heatmap the "what to look for" line states the numbers of its weights."""

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import decode, figure, open_app, set_widgets, translator
from viz_model.lessons.head_roles import head_roles

PAGE = "pages/attention.py"
TEXT, DIRECTION = "The animal didn't cross the street because it was too tired.", "en2zh"


def grid_cells(fig: dict) -> dict[tuple[int, int], tuple[str, str]]:
    """(layer, head) → (legend name, text) of every square in the roles grid."""
    cells = {}
    for trace in fig["data"]:
        for (layer, head), text in zip(decode(trace["customdata"]), trace["text"]):
            cells[int(layer), int(head)] = (trace["name"], text)
    return cells


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_roles_grid_shows_every_head_with_its_role_and_score(kind, lang):
    at = open_app(PAGE, text=TEXT, direction=DIRECTION, lang=lang)
    set_widgets(at, "attention", kind=kind, view="roles")
    trace = translator().translate(TEXT, DIRECTION).trace
    expected = {(r.layer, r.head): r for r in head_roles(trace) if r.kind == kind}
    layers = trace.attention_stack(kind).shape[0]
    assert len(expected) == layers * trace.attention(kind, 0).n_heads
    cells = grid_cells(figure(at, "attention.roles"))
    assert set(cells) == set(expected)
    for key, role in expected.items():
        name, text = cells[key]
        assert name == t(f"roles.{role.role}", lang)
        assert (f"{role.score:.2f}" in text) == (role.role != "unlabelled")


@pytest.mark.parametrize("lang, layer", [("en", 0), ("zh", 0), ("en", 2), ("zh", 1)])
def test_look_for_line_states_the_heads_own_numbers(lang, layer):
    at = open_app(PAGE, text=TEXT, direction=DIRECTION, lang=lang)
    head = 1
    set_widgets(at, "attention", kind="encoder_self", layer=layer, view="heads", head=head)
    trace = translator().translate(TEXT, DIRECTION).trace
    att = trace.attention("encoder_self", layer)
    _, keys = trace.axis_tokens("encoder_self")
    received = att.weights[head].mean(axis=0)  # each key's mean weight over the rows, by hand
    top = int(received.argmax())
    tag = keys.index("<2zh>")
    parked = int((att.weights[:, :, tag].mean(axis=1) >= 0.5).sum())
    line = next(m.value for m in at.markdown if t("roles.look_for", lang).split("**")[1] in m.value)
    line = line.replace("\\", "")
    assert f"{top}:{keys[top]}" in line and f"{received[top]:.2f}" in line
    parked_text = t("roles.look_parked", lang).format(parked=parked, n=att.n_heads, tag="<2zh>")
    assert parked_text in line
    role = next(r for r in head_roles(trace) if r.kind == "encoder_self" and r.layer == layer and r.head == head)
    assert t(f"roles.{role.role}", lang) in line and f"{role.score:.2f}" in line
    assert np.isclose(received.sum(), 1.0, atol=1e-5)  # rows are softmaxes: the shares are of one row's unit


@pytest.fixture(scope="module")
def minilm():
    from viz_model.model.pretrained import PretrainedEncoder, minilm_path

    return PretrainedEncoder.load(minilm_path())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_minilm_roles_and_look_for_line_come_from_its_own_attention(minilm, lang):
    """MiniLM's 6 × 12 heads in the grid, each with the role of the weights transformers returns
    (output_attentions), and the one-head line naming the key its rows give most, computed here by hand."""
    from tests.test_pretrained_views import reference
    from viz_model.lessons.head_roles import minilm_head_roles

    pieces, attention, _ = reference(minilm, TEXT)  # (L, H, S, S) from transformers itself
    labels = minilm.view(TEXT).labels
    at = open_app(PAGE, text=TEXT, lang=lang, model="minilm", mview="roles")
    expected = {(r.layer, r.head): r for r in minilm_head_roles(attention, labels)}
    cells = grid_cells(figure(at, "attention.roles_minilm"))
    assert set(cells) == set(expected) and len(cells) == attention.shape[0] * attention.shape[1]
    for key, role in expected.items():
        assert cells[key][0] == t(f"roles.{role.role}", lang)
    at = open_app(PAGE, text=TEXT, lang=lang, model="minilm", mview="heads")
    layer, head = 3, 1
    at.session_state["mlayer"], at.session_state["mhead"] = layer, head
    at.run()
    received = attention[layer, head].mean(axis=0)
    top = int(received.argmax())
    line = next(m.value for m in at.markdown if t("roles.look_for", lang).split("**")[1] in m.value)
    line = line.replace("\\", "")
    assert f"{top}:{labels[top]}" in line and f"{received[top]:.2f}" in line
