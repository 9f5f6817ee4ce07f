"""The Step by step page's "Norms" mode: post-LN against pre-LN (the two orders, and the size of this model's
residual stream sublayer by sublayer) and layer norm against batch norm on the typed sentence's vectors."""

from __future__ import annotations

import streamlit as st

from pages.parts.cache import norm_batches, translator
from pages.parts.state import tr
from pages.parts.text import md
from pages.parts.widgets import chart, heading, require_translation, vectors_chart
from viz_model import figures
from viz_model.lessons.norms import compare_norms, stream_sizes

SHOWN = 8  # tokens and features listed in the statistics tables
ORDERS = (
    r"\text{post-LN: } x \leftarrow \mathrm{LN}(x + F(x)) \qquad"
    r"\text{pre-LN: } x \leftarrow x + F(\mathrm{LN}(x))"
)


def norms_mode() -> None:
    result = require_translation()
    if result is None:
        return
    post_or_pre(result.trace)
    layer_or_batch(result.trace)


def post_or_pre(trace) -> None:
    heading(tr("step.norms_order"))
    st.latex(ORDERS)
    st.graphviz_chart(orders_diagram())
    used = "pre" if translator().config.norm_first else "post"
    st.markdown(tr(f"step.norms_uses_{used}"))
    sizes = stream_sizes(trace)
    names = [
        f"{tr(f'step.norms_{stack}')} {layer + 1} · {tr(f'step.norms_sub_{name}')}"
        for stack, layer, name in sizes.labels
    ]
    chart(
        figures.line_chart(
            list(range(1, len(names) + 1)),
            {tr("step.norms_before"): sizes.before_norm, tr("step.norms_after"): sizes.after_norm},
            x_title=tr("step.norms_sublayer"),
            y_title=tr("step.norms_size"),
            marks={
                tr("step.norms_before"): (list(range(1, len(names) + 1)), sizes.before_norm, names),
            },
            marks_name=tr("step.norms_points"),
            height=360,
        ),
        key="step.norms_stream",
    )
    st.caption(tr("step.norms_stream_caption", enc=f"{sizes.input_size[0]:.1f}", dec=f"{sizes.input_size[1]:.1f}"))


def orders_diagram() -> str:
    """The two orders of one sublayer as a graph: post-LN normalises the sum, pre-LN the sublayer's input."""
    x, sub, norm, add, out = (tr(f"step.norms_box_{name}") for name in ("x", "sublayer", "norm", "add", "out"))
    residual = tr("step.norms_box_residual")

    def chain(name: str, title: str, order: list[str], add_at: int) -> str:
        nodes = "; ".join(f'{name}{i} [label="{label}"]' for i, label in enumerate(order))
        edges = " -> ".join(f"{name}{i}" for i in range(len(order)))
        return (
            f'subgraph cluster_{name} {{ label="{title}"; {nodes}; {edges}; '
            f'{name}0 -> {name}{add_at} [style=dashed, label="{residual}"]; }}'
        )

    post = chain("post", "post-LN", [x, sub, add, norm, out], 2)
    pre = chain("pre", "pre-LN", [x, norm, sub, add, out], 3)
    return f'digraph {{ rankdir=LR; node [shape=box, fontname="sans-serif"]; {post} {pre} }}'


def layer_or_batch(trace) -> None:
    heading(tr("step.norms_which"))
    batch, other = norm_batches()
    found = compare_norms(trace, batch, other)
    tokens = figures.token_labels(found.tokens)
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{tr('step.norms_layer_stats')}**")
        st.dataframe(
            {
                tr("step.norms_token"): [f"{i}:{tok}" for i, tok in enumerate(found.tokens[:SHOWN])],
                "μ": [round(float(m), 4) for m in found.layer_mean[:SHOWN]],
                "σ": [round(float(s), 4) for s in found.layer_std[:SHOWN]],
            },
            hide_index=True,
            key="step.norms_layer_table",
        )
    with right:
        st.markdown(f"**{tr('step.norms_batch_stats', n=len(batch) + 1, tokens=found.batch_tokens)}**")
        st.dataframe(
            {
                tr("step.norms_feature"): list(range(SHOWN)),
                "μ": [round(float(m), 4) for m in found.batch_mean[:SHOWN]],
                "σ": [round(float(s), 4) for s in found.batch_std[:SHOWN]],
            },
            hide_index=True,
            key="step.norms_batch_table",
        )
    vectors_chart(
        [found.layer_normed, found.batch_normed],
        tokens,
        tr("step.value"),
        "step.norms_vectors",
        panel_titles=[tr("step.norms_layer_panel"), tr("step.norms_batch_panel")],
    )
    st.markdown(tr("step.norms_shift", shift=f"{found.batch_shift:.3f}", word=md(found.tokens[1])))
