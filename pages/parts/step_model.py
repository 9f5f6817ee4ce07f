"""The Step by step page's main mode: one head's attention for one query token with the model's real numbers,
each step of the arithmetic drawn from the trace and recomputed by hand against it."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.parts.cache import translator
from pages.parts.controls import attention_controls, head_picker, token_index
from pages.parts.minilm import step_page
from pages.parts.model_picker import pretrained_picked
from pages.parts.state import tr
from pages.parts.step_block import block_part
from pages.parts.step_by_step import matrix_chart
from pages.parts.widgets import (
    axis_titles,
    chart,
    folded,
    require_translation,
    sections,
    settings_area,
    whole_table_height,
)
from viz_model import figures
from viz_model.lessons.attention_step import attention_step, ranked_keys, step_difference


def model_mode() -> None:
    if pretrained_picked():  # one MiniLM head's arithmetic from its captured Q and K
        step_page()
        return
    result = require_translation()
    if result is None:
        return
    with settings_area():
        kind, layer = attention_controls()
        attention = result.trace.attention(kind, layer)
        query_tokens, key_tokens = result.trace.axis_tokens(kind)
        left, right = st.columns(2)
        head = head_picker(attention.n_heads, left)
        query = token_index(right, tr("step.query_token"), query_tokens, "query")
    step = attention_step(attention, translator().attention_parameters(kind, layer), head, query)
    d_model, d_k = step.x_query.shape[1], step.q.shape[1]
    keys = figures.token_labels(key_tokens)
    query_label = figures.token_labels(query_tokens)[query]
    y_title, x_title = axis_titles(kind)
    dims = [str(j) for j in range(d_model)]
    head_dims = [str(j) for j in range(d_k)]

    def inputs_part() -> None:
        st.subheader(tr("step.s1"))
        matrix_chart(
            np.vstack([step.x_query, step.x_keys]),
            [tr("step.x_query", token=query_label)] + keys,
            dims,
            "step.x",
            tr("axis.token_rows"),
            tr("axis.dimension"),
        )
        note = tr("step.s1_note_cross") if kind == "cross" else tr("step.s1_note_ln")
        st.caption(tr("step.s1_caption", note=note))

    def projections_part() -> None:
        st.subheader(tr("step.s2", h=head + 1, d_k=d_k))
        matrix_chart(step.q, [f"q ({query_label})"], head_dims, "step.q", y_title, tr("axis.dimension"))
        matrix_chart(
            np.stack([step.k, step.v]),
            keys,
            head_dims,
            "step.kv",
            x_title,
            tr("axis.dimension"),
            titles=["k = x·W_K + b", "v = x·W_V + b"],
        )
        st.caption(tr("step.s2_caption", d_k=d_k, h=head + 1, c0=head * d_k, c1=(head + 1) * d_k - 1))
        folded(
            "q, k, v",
            "step.qkv",
            lambda: st.dataframe(
                figures.matrix_frame(
                    np.vstack([step.q, step.k, step.v]),
                    [f"q {query_label}"] + [f"k {k}" for k in keys] + [f"v {k}" for k in keys],
                    head_dims,
                ),
                key="step.qkv_table",
            ),
        )

    def scores_part() -> None:
        st.subheader(tr("step.s3"))
        masked, allowed = tr("step.masked"), step.allowed[0]

        def cells(values) -> list[str]:
            return [f"{x:.4f}" if a else masked for x, a in zip(values, allowed)]

        st.dataframe(
            {
                tr("step.col_key"): [f"{j}:{tok}" for j, tok in enumerate(key_tokens)],
                tr("step.col_score"): cells(step.scores[0]),
                tr("step.col_scaled", scale=step.scale): cells(step.scaled[0]),
                tr("step.col_weight"): cells(step.weights[0]),
            },
            hide_index=True,
            key="step.scores_table",
            height=whole_table_height(len(key_tokens)),
        )
        chart(
            figures.bar_chart(
                keys,
                step.weights[0],
                x_title=tr("step.weights_chart"),
                y_title=x_title,
                value_format=".3f",
                highlight=~allowed,
            ),
            key="step.weights",
        )
        st.caption(tr("step.s3_caption", query=query, layer=layer + 1, h=head + 1))

    def weighted_sum_part() -> None:
        st.subheader(tr("step.s4"))
        matrix_chart(
            np.vstack([step.weighted_values[0], step.z]),
            [f"α·v {k}" for k in keys] + [tr("step.z")],
            head_dims,
            "step.weighted",
            x_title,
            tr("axis.dimension"),
        )
        st.caption(tr("step.s4_caption"))
        # The sum with the real weights, largest first (positions only: no user text goes into LaTeX).
        order = ranked_keys(step)
        terms = " + ".join(f"{step.weights[0, j]:.2f}\\,v_{{{j}}}" for j in order[:5])
        st.latex(f"z_{{{query}}} = {terms}" + (" + \\dots" if len(order) > 5 else ""))

    def output_part() -> None:
        st.subheader(tr("step.s5"))
        matrix_chart(
            np.vstack([step.concat, step.output]),
            [tr("step.concat"), tr("step.output")],
            dims,
            "step.output",
            tr("step.value"),
            tr("axis.dimension"),
        )
        st.caption(tr("step.s5_caption", n=attention.n_heads, d=d_model))

    # One step at a time, like a slide a teacher clicks through; only the open step is drawn (a new sentence
    # redraws one or two charts instead of six).
    sections(
        "section",
        {
            "step.tab_inputs": inputs_part,
            "step.tab_projections": projections_part,
            "step.tab_scores": scores_part,
            "step.tab_weighted_sum": weighted_sum_part,
            "step.tab_output": output_part,
            "step.tab_block": lambda: block_part(result.trace, kind, layer),
        },
    )
    # Every step recomputed by hand (viz_model.lessons.attention_step) against the model's own tensors.
    diff = step_difference(step, attention)
    if diff < 1e-3:
        st.success(tr("step.check_ok", diff=diff), icon=":material/check_circle:")
    else:
        st.error(tr("step.check_bad", diff=diff))
