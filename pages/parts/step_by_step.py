"""The Step by step page's hand-sized modes: the course's Thinking Machines example with editable vectors, and a
toy layer whose inputs the user can type; both are `viz_model.lessons.attention_step.AttentionStep` records."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from pages.parts.cache import translator
from pages.parts.state import sentence, tr
from pages.parts.widgets import chart
from viz_model import figures
from viz_model.lessons.attention_step import (
    COURSE_D_K,
    COURSE_K,
    COURSE_Q,
    COURSE_V,
    attention_arithmetic,
    toy_attention,
    toy_inputs,
    toy_labels,
)


def numbers(values, digits: int = 2) -> str:
    return ", ".join(f"{v:.{digits}f}" for v in values)


def edited(frame_: pd.DataFrame) -> np.ndarray:
    """A data_editor table as numbers; a cleared cell counts as 0."""
    return frame_.apply(pd.to_numeric, errors="coerce").fillna(0.0).to_numpy(dtype=np.float64)


def matrix_chart(M, row_labels, col_labels, key, y_title, x_title, signed=True, decimals=2, titles=None):
    chart(
        figures.heatmaps(
            M,
            row_labels,
            col_labels,
            y_title=y_title,
            x_title=x_title,
            value_name=tr("step.value"),
            signed=signed,
            decimals=decimals,
            panel_titles=titles,
        ),
        key=key,
    )


def course_mode() -> None:
    st.markdown(tr("step.course_intro"))
    course_qk = pd.DataFrame(
        [*COURSE_Q, *COURSE_K], index=["q1", "k1", "k2"], columns=[str(j + 1) for j in range(len(COURSE_Q[0]))]
    )  # q1·k1 = 112, q1·k2 = 96
    course_v = pd.DataFrame(COURSE_V, index=["v1", "v2"], columns=[str(j + 1) for j in range(len(COURSE_V[0]))])
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{tr('step.course_qk')}**")
        qk = edited(st.data_editor(course_qk, key="step.course_qk", width="stretch"))
    with right:
        st.markdown(f"**{tr('step.course_v')}**")
        v = edited(st.data_editor(course_v, key="step.course_v", width="stretch"))
    scale_dim = st.number_input(
        tr("step.scale_dim"), min_value=4, max_value=4096, value=COURSE_D_K, key="step.course_d_k"
    )
    result = attention_arithmetic(qk[:1], qk[1:], v, scale_dim=int(scale_dim))
    show_arithmetic(result, ["q1"], ["k1", "k2"], "step.course")


def show_arithmetic(result, query_labels, key_labels, key) -> None:
    """The steps of a small AttentionStep (attention_arithmetic, toy_attention) as one summary line and
    small heatmaps."""
    st.markdown(
        "#### "
        + tr(
            "step.result_line",
            scores=numbers(result.scores[0], 0 if np.allclose(result.scores[0], np.round(result.scores[0])) else 2),
            scale=round(result.scale, 3),
            scaled=numbers(result.scaled[0]),
            weights=numbers(result.weights[0]),
        )
    )
    y_title, x_title = tr("axis.query_rows"), tr("axis.key_cols")
    panels = np.stack([result.scores, result.scaled])
    matrix_chart(
        panels,
        query_labels,
        key_labels,
        f"{key}.scores",
        y_title,
        x_title,
        titles=[tr("step.toy_scores"), tr("step.toy_scaled")],
    )
    matrix_chart(
        result.weights,
        query_labels,
        key_labels,
        f"{key}.weights",
        y_title,
        x_title,
        signed=False,
        titles=[tr("step.toy_weights_table")],
    )
    dims = [str(j + 1) for j in range(result.z.shape[1])]
    matrix_chart(
        result.z, query_labels, dims, f"{key}.output", y_title, tr("axis.dimension"), titles=[tr("step.toy_output")]
    )


def toy_mode() -> None:
    c1, c2, c3, c4 = st.columns(4)
    n = c1.slider(tr("step.toy_words"), 2, 6, 3, key="step.toy_n")
    d_model = c2.slider(tr("step.toy_d_model"), 4, 6, 4, key="step.toy_d_model")
    d_k = c3.slider(tr("step.toy_d_k"), 2, d_model, 2, key="step.toy_d_k")
    seed = c4.number_input(tr("step.toy_seed"), 0, 9999, 0, key="step.toy_seed")
    text, _ = sentence()
    labels = toy_labels(translator().tokenizer.split(text)[0] if text.strip() else [], n)
    x, w_q, w_k, w_v = toy_inputs(n, d_model, d_k, int(seed))
    dims = [str(j + 1) for j in range(d_model)]
    st.markdown(f"**{tr('step.toy_x')}**")
    x = edited(
        st.data_editor(
            pd.DataFrame(x, index=labels, columns=dims), key=f"step.toy_x.{n}.{d_model}.{d_k}.{seed}", width="stretch"
        )
    )
    toy = toy_attention(x, w_q, w_k, w_v)
    shown = [figures.escape_label(s) for s in labels]
    head_dims = [str(j + 1) for j in range(d_k)]
    st.markdown(f"**{tr('step.toy_weights')}**")
    matrix_chart(
        np.stack([w_q, w_k, w_v]),
        dims,
        head_dims,
        "step.toy_w",
        tr("axis.dimension"),
        tr("axis.dimension"),
        titles=["W_Q", "W_K", "W_V"],
    )
    st.markdown(f"**{tr('step.toy_qkv')}**")
    matrix_chart(
        np.stack([toy.q, toy.k, toy.v]),
        shown,
        head_dims,
        "step.toy_qkv",
        tr("step.word"),
        tr("axis.dimension"),
        titles=["Q", "K", "V"],
    )
    show_arithmetic(toy, shown, shown, "step.toy")
