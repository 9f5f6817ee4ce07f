"""The Similarity page's "Scoring functions" section: dot, scaled dot, bilinear and additive side by side for
one query token over the sentence, on encoder layer 1's input vectors (`viz_model.lessons.scoring`)."""

from __future__ import annotations

import streamlit as st

from pages.parts.cache import translator
from pages.parts.controls import head_picker, token_index
from pages.parts.state import tr
from pages.parts.text import md
from pages.parts.widgets import chart, require_translation
from viz_model import figures
from viz_model.lessons.scoring import SCORING_FUNCTIONS, head_scoring


def scoring_part() -> None:
    result = require_translation()
    if result is None:
        return
    attention = result.trace.attention("encoder_self", 0)
    tokens = result.trace.source_labels or result.trace.source_tokens
    left, right = st.columns(2)
    query = token_index(left, tr("similarity.scoring_query"), tokens, "query")
    head = head_picker(attention.n_heads, right)
    found = head_scoring(attention, translator().attention_parameters("encoder_self", 0), head, query)
    labels = figures.token_labels(tokens)
    names = [tr(f"similarity.fn_{name}") for name in SCORING_FUNCTIONS]
    st.caption(
        tr(
            "similarity.scoring_caption",
            token=md(f"{query}:{tokens[query]}"),
            h=head + 1,
            d=attention.query_input.shape[1],
        )
    )
    chart(
        figures.heatmaps(
            [found.weights[name] for name in SCORING_FUNCTIONS],
            names,
            labels,
            y_title=tr("similarity.scoring_axis"),
            x_title=tr("axis.key_source"),
            value_name=tr("similarity.value_softmax"),
            panel_titles=[tr("similarity.scoring_weights")],
        ),
        key="similarity.scoring_weights",
    )
    # st.dataframe shows text as it is: the table's columns take the tokens unescaped
    st.dataframe(
        figures.matrix_frame(
            [found.scores[name] for name in SCORING_FUNCTIONS], names, [f"{i}:{tok}" for i, tok in enumerate(tokens)]
        ),
        key="similarity.scoring_scores",
    )
    st.caption(tr("similarity.scoring_scores_caption"))
    st.markdown(tr("similarity.scoring_bilinear", h=head + 1))
    dims = [str(j) for j in range(found.bilinear_matrix.shape[0])]
    chart(
        figures.heatmaps(
            found.bilinear_matrix,
            dims,
            dims,
            y_title="x",
            x_title="q",
            value_name=tr("step.value"),
            signed=True,
            show_values=False,
            panel_titles=["W = W_K W_Qᵀ / √d_k"],
        ),
        key="similarity.scoring_bilinear",
    )
    st.markdown(tr("similarity.scoring_additive", h=len(found.additive_v)))
    hidden = [str(i) for i in range(len(found.additive_v))]
    chart(
        figures.heatmaps(
            [found.additive_w, found.additive_u],
            hidden,
            dims,
            y_title=tr("similarity.hidden"),
            x_title=tr("axis.dimension"),
            value_name=tr("step.value"),
            signed=True,
            show_values=False,
            panel_titles=["W", "U"],
        ),
        key="similarity.scoring_wu",
    )
    chart(
        figures.heatmaps(
            found.additive_v[None],
            ["v"],
            hidden,
            y_title="",
            x_title=tr("similarity.hidden"),
            value_name=tr("step.value"),
            signed=True,
            panel_titles=["v"],
            compact=True,
        ),
        key="similarity.scoring_v",
    )
