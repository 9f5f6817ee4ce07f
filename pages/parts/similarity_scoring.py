"""The Similarity page's "Scoring functions" section: dot, scaled dot, bilinear and additive side by side for
one query token over the sentence, on encoder layer 1's input vectors (`viz_model.lessons.scoring`); and what
÷√d does to the sentence's softmax rows, measured (`viz_model.lessons.similarity.scaling_effect`)."""

from __future__ import annotations

import streamlit as st

from pages.parts.cache import translator
from pages.parts.controls import head_picker, token_index
from pages.parts.state import tr
from pages.parts.text import md
from pages.parts.widgets import chart, require_translation, whole_table_height
from viz_model import figures
from viz_model.lessons.scoring import SCORING_FUNCTIONS, head_scoring
from viz_model.lessons.similarity import scaling_effect


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


def scaling_effect_part(queries, keys, tokens: list[str]) -> None:
    """The ÷√d effect on these vectors: each row's largest softmax weight and entropy with and without the
    division, one line of means, then the table (one row per query token)."""
    effect = scaling_effect(queries, keys)
    means = effect.means()
    st.markdown(
        tr(
            "similarity.scaling_summary",
            scale=f"{effect.scale:.2f}",
            largest_plain=f"{means['largest_plain']:.2f}",
            largest_scaled=f"{means['largest_scaled']:.2f}",
            entropy_plain=f"{means['entropy_plain']:.2f}",
            entropy_scaled=f"{means['entropy_scaled']:.2f}",
            uniform=f"{effect.uniform_entropy:.2f}",
        )
    )
    number = st.column_config.NumberColumn(format="%.3f")
    columns = {
        "similarity.col_largest_plain": effect.largest_plain,
        "similarity.col_largest_scaled": effect.largest_scaled,
        "similarity.col_entropy_plain": effect.entropy_plain,
        "similarity.col_entropy_scaled": effect.entropy_scaled,
    }
    st.dataframe(
        {tr("similarity.col_query"): [f"{i}:{tok}" for i, tok in enumerate(tokens)]}
        | {tr(key): values.tolist() for key, values in columns.items()},
        hide_index=True,
        column_config={tr(key): number for key in columns},
        key="similarity.scaling",
        height=whole_table_height(len(tokens)),
    )
    st.caption(tr("similarity.scaling_caption", n=effect.n_keys, uniform=f"{effect.uniform_entropy:.2f}"))
