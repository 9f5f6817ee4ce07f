"""Issue 42 items 7 and 8 on the pages: the Tokens page's PCA axes carry their share of the variance, its
neighbours section shows the neighbours in context (the encoder's last layer, this sentence) beside the noisy
input-embedding ones, and the Similarity page shows what ÷√d does to the sentence's softmax rows, measured."""

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import all_text, figure, open_app, open_section, set_widgets, tables, translator
from viz_model.lessons.embeddings import contextual_neighbours, similarity_vectors, vocabulary_map
from viz_model.lessons.similarity import scaling_effect

pytestmark = pytest.mark.apptest

TEXT, DIRECTION = "Please buy an apple and an orange.", "en2zh"
COLUMNS = ("largest_plain", "largest_scaled", "entropy_plain", "entropy_scaled")


@pytest.fixture(scope="module")
def trace():
    return translator().translate(TEXT, DIRECTION).trace


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pca_axes_carry_the_explained_variance_ratio(lang):
    at = open_section(
        open_app("pages/tokens.py", text=TEXT, direction=DIRECTION, lang=lang), "section", "tokens.tab_map"
    )
    _, ratio = vocabulary_map(translator().embedding_matrix(), 2)
    layout = figure(at, "tokens.map")["layout"]
    for i, axis in enumerate(("xaxis", "yaxis")):
        assert layout[axis]["title"]["text"] == t("tokens.pc_share", lang, i=i + 1, share=float(ratio[i]))
        assert f"{ratio[i]:.1%}" in layout[axis]["title"]["text"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_neighbours_in_context_are_shown_and_are_the_lessons(trace, lang):
    at = open_section(
        open_app("pages/tokens.py", text=TEXT, direction=DIRECTION, lang=lang), "section", "tokens.tab_neighbours"
    )
    first = t("tokens.neighbour", lang, i=1)
    embedding_table, context_table = [df.value for df in at.dataframe if first in df.value.columns]
    assert len(embedding_table) == len(context_table)
    positions, found = contextual_neighbours(trace, k=3)
    assert context_table.iloc[:, 0].tolist() == [f"{p}:{trace.source_tokens[p]}" for p in positions]
    for j in range(3):
        column = context_table[t("tokens.neighbour", lang, i=j + 1)].tolist()
        assert column == [f"{n[j].position}:{n[j].token}  ({n[j].cosine:.2f})" for n in found]
    text = all_text(at)
    d, layers = translator().config.d_model, translator().config.n_encoder_layers
    assert t("tokens.neighbours_noisy", lang, d=d) in text
    assert t("tokens.context_neighbours_caption", lang, layer=layers) in text


def summary(effect, lang):
    means = effect.means()
    return t(
        "similarity.scaling_summary",
        lang,
        scale=f"{effect.scale:.2f}",
        uniform=f"{effect.uniform_entropy:.2f}",
        **{name: f"{means[name]:.2f}" for name in COLUMNS},
    )


@pytest.mark.parametrize(
    "source, layer, view, lang",
    [
        ("embedding", 0, "scaled_dot", "en"),
        ("hidden", 2, "scaled_dot", "en"),
        ("hidden", 2, "softmax", "zh"),
        ("qk", 0, "softmax", "en"),
    ],
)
def test_sqrt_d_effect_is_measured_on_the_sentence(trace, source, layer, view, lang):
    at = open_app("pages/similarity.py", text=TEXT, direction=DIRECTION, lang=lang)
    layer = min(layer, len(trace.encoder_layers) - 1)
    set_widgets(at, "similarity", source=source, **({} if source == "embedding" else {"layer": layer}))
    open_section(at, "measure", f"similarity.view_{view}", lang)
    effect = scaling_effect(*similarity_vectors(trace, source, layer, 0))
    (shown,) = tables(at, "similarity.col_largest_plain", lang)
    assert shown.iloc[:, 0].tolist() == [f"{i}:{tok}" for i, tok in enumerate(trace.source_labels)]
    for name in COLUMNS:
        np.testing.assert_allclose(shown[t(f"similarity.col_{name}", lang)], getattr(effect, name), atol=1e-9)
    assert any(summary(effect, lang) == m.value for m in at.markdown)
