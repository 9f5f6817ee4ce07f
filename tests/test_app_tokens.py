"""Tokens & embeddings: the numbers on the page are viz_model's numbers for the same sentence."""

import numpy as np
import pytest

from tests.app_harness import chart_keys, decode, figure, heatmap_panels, open_app, open_section, translator
from viz_model.lessons.embeddings import encoder_input_parts, vocabulary_map
from viz_model.model.tokenizer import SPECIAL_TOKENS


@pytest.fixture(
    scope="module", params=[("Please buy an apple and an orange.", "en2zh"), ("我看见了一把锯子。", "zh2en")]
)
def case(request):
    text, direction = request.param
    return open_app("pages/tokens.py", text=text, direction=direction), translator().translate(text, direction)


def test_tokenization_table(case):
    at, result = case
    table = open_section(at, "section", "tokens.tab_tokenization").dataframe[0].value
    assert table.iloc[:, 1].tolist() == result.source.tokens
    assert table.iloc[:, 2].tolist() == result.source.ids


def test_embedding_heatmap_is_the_embedding_table_rows(case):
    at, result = case
    (z,) = heatmap_panels(figure(open_section(at, "section", "tokens.tab_embeddings"), "tokens.embeddings"))
    np.testing.assert_allclose(z, translator().embedding_matrix()[result.source.ids], atol=1e-6)


def test_encoder_input_panels(case):
    at, result = case
    panels = heatmap_panels(figure(open_section(at, "section", "tokens.tab_input"), "tokens.input"))
    assert len(panels) == len(encoder_input_parts(result.trace))
    for shown, expected in zip(panels, encoder_input_parts(result.trace)):
        np.testing.assert_allclose(shown, expected, atol=1e-4)
    np.testing.assert_allclose(panels[2], result.trace.source_input, atol=1e-4)


def test_vocabulary_map_and_highlight(case):
    at, result = case
    fig = figure(open_section(at, "section", "tokens.tab_map"), "tokens.map")
    coords, _ = vocabulary_map(translator().embedding_matrix(), 2)
    highlighted = fig["data"][-1]
    words = [t for t in result.source.tokens[1:-1] if t != "<unk>"]
    assert sorted(set(highlighted["hovertext"])) == sorted(set(words))
    vocab = translator().tokenizer.vocab
    i = vocab.index(words[0])
    k = list(highlighted["hovertext"]).index(words[0])
    assert decode(highlighted["x"])[k] == pytest.approx(coords[i, 0], abs=1e-5)


def test_3d_map():
    at = open_section(open_app("pages/tokens.py", text="I saw a saw."), "section", "tokens.tab_map")
    at.segmented_control(key="dims").set_value(3).run()  # as a click does
    assert figure(at, "tokens.map")["data"][0]["type"] == "scatter3d"
    # the choice survives a visit to another tab (Streamlit forgets the value of a widget not drawn)
    open_section(at, "section", "tokens.tab_input")
    assert figure(open_section(at, "section", "tokens.tab_map"), "tokens.map")["data"][0]["type"] == "scatter3d"


def test_neighbours_table(case):
    at, result = case
    table = open_section(at, "section", "tokens.tab_neighbours").dataframe[0].value
    words = [t for t in result.source.tokens if t not in SPECIAL_TOKENS]
    assert table.iloc[:, 0].tolist() == [
        f"{i}:{t}" for i, t in enumerate(result.source.tokens) if t not in SPECIAL_TOKENS
    ] and len(table) == len(words)


def test_one_section_at_a_time():
    # Each section is a tab; only the open one is drawn, so a new sentence redraws one chart, not three.
    at = open_app("pages/tokens.py", text="I saw a saw.")
    assert chart_keys(at) == [] and len(at.dataframe) == 1  # the tokenization table opens first
    for tab, keys in {
        "tokens.tab_embeddings": ["tokens.embeddings"],
        "tokens.tab_map": ["tokens.map"],
        "tokens.tab_neighbours": [],
        "tokens.tab_input": ["tokens.input"],
    }.items():
        assert chart_keys(open_section(at, "section", tab)) == keys
