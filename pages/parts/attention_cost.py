"""The Attention heads page's "Cost" view: operation counts of attention, a recurrent layer and a convolution
for this model's width, the sentence's own attention matrices, and both measured on this machine."""

from __future__ import annotations

import streamlit as st

from pages.parts.cache import attention_timings, translator
from pages.parts.state import tr
from pages.parts.widgets import chart
from viz_model import figures
from viz_model.lessons.attention_cost import KERNEL, LENGTHS, cost_rows


def cost_view(v) -> None:
    config = translator().config
    d, n = config.d_model, len(v.query_tokens)
    names = [tr(f"attention.cost_{name}_name") for name in ("attention", "recurrent", "convolution")]
    st.latex(
        rf"\text{{{names[0]}: }} O(n^2 \cdot d) \qquad \text{{{names[1]}: }} O(n \cdot d^2) \qquad"
        rf"\text{{{names[2]}: }} O(k \cdot n \cdot d^2),\ k = {KERNEL}"
    )
    rows = cost_rows(d, sorted({n, *LENGTHS}))
    st.dataframe(
        {
            "n": [r.n for r in rows],
            tr("attention.cost_attention"): [f"{r.attention_ops:,}" for r in rows],
            tr("attention.cost_recurrent"): [f"{r.recurrent_ops:,}" for r in rows],
            tr("attention.cost_convolution"): [f"{r.convolution_ops:,}" for r in rows],
            tr("attention.cost_weights"): [f"{r.weights:,}" for r in rows],
        },
        hide_index=True,
        key="attention.cost_table",
    )
    cells = n * len(v.key_tokens)
    S, T = len(v.trace.source_tokens), len(v.trace.target_tokens)
    per_head = config.n_encoder_layers * S * S + config.n_decoder_layers * (T * T + T * S)
    total = config.n_heads * per_head  # every head of every block: encoder S², decoder T², cross T·S
    st.markdown(tr("attention.cost_sentence", n=n, d=d, cells=f"{cells:,}", heads=config.n_heads, total=f"{total:,}"))
    measured = attention_timings()
    chart(
        figures.line_chart(
            list(LENGTHS),
            {
                tr("attention.cost_attention"): measured["attention"],
                tr("attention.cost_recurrent"): measured["recurrent"],
            },
            x_title="n",
            y_title=tr("attention.cost_ms"),
            height=360,
        ),
        key="attention.cost_measured",
        of_sentence=False,
    )
    st.caption(tr("attention.cost_caption", d=d))
