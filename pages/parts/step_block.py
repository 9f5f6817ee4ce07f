"""The Step by step page's "Add & Norm and FFN" section: one Transformer block from the trace
(`viz_model.lessons.block_view`): x, the attention output, x + attention, each token's mean and σ, the
standardised values, LayerNorm by hand against the model's, the FFN's hidden units after ReLU, the output."""

from __future__ import annotations

import streamlit as st

from pages.parts.cache import translator
from pages.parts.state import tr
from pages.parts.widgets import vectors_chart
from viz_model import figures
from viz_model.lessons.block_view import trace_block_view


def _heatmap(panels, rows, key: str, titles, x_title: str | None = None) -> None:
    vectors_chart(panels, rows, tr("step.value"), key, x_title, panel_titles=titles)


def block_part(trace, kind: str, layer: int) -> None:
    view = trace_block_view(translator().model, trace, kind, layer)
    attention = view.cross_attention if kind == "cross" else view.attention
    rows = figures.token_labels(trace.axis_tokens(kind)[0])
    st.subheader(tr("step.block_add", layer=layer + 1))
    _heatmap(
        [attention.residual_input, attention.sublayer_output, attention.normalised_input],
        rows,
        "step.block_add",
        ["x", tr("step.block_attention_out"), "x + " + tr("step.block_attention_out")],
    )
    st.caption(tr("step.block_add_caption"))
    st.subheader(tr("step.block_norm"))
    tokens = trace.axis_tokens(kind)[0]  # st.dataframe shows text as it is: not escaped
    st.dataframe(
        {
            tr("step.col_token"): [f"{i}:{tok}" for i, tok in enumerate(tokens)],
            tr("step.col_mean"): attention.mean.round(4),
            tr("step.col_sigma"): attention.sigma.round(4),
        },
        hide_index=True,
        key="step.block_stats",
    )
    _heatmap(
        [attention.standardised, attention.model_output],
        rows,
        "step.block_norm",
        ["(z − mean) / σ", "LayerNorm = γ·(z − mean)/σ + β"],
    )
    st.caption(tr("step.block_norm_caption", diff=f"{attention.difference:.1e}"))
    st.subheader(tr("step.block_ffn", d_ff=view.ffn_hidden.shape[1]))
    _heatmap([view.ffn_hidden], rows, "step.block_ffn", [tr("step.block_hidden")], tr("step.block_unit"))
    st.caption(tr("step.block_ffn_caption", share=f"{view.relu_zero_share:.0%}"))
    st.subheader(tr("step.block_output"))
    ffn = view.feed_forward
    _heatmap(
        [ffn.sublayer_output, ffn.normalised_input, view.output],
        rows,
        "step.block_output",
        ["FFN(x)", "x + FFN(x)", tr("step.block_output_title")],
    )
    st.caption(tr("step.block_output_caption", diff=f"{ffn.difference:.1e}"))
