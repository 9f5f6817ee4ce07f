"""Step by step: one head's attention for one query token with the model's real numbers, the course's
Thinking Machines example and a toy layer whose vectors the user can type."""
import numpy as np
import pandas as pd
import streamlit as st

from pages.cache import translator
from pages.frame import frame
from pages.state import labeller, sentence, tr
from pages.widgets import (
    attention_controls,
    axis_titles,
    chart,
    dependent_index,
    explanation,
    folded,
    page_title,
    require_translation,
    sections,
)
from viz_model import figures
from viz_model.lessons.attention_step import (
    attention_arithmetic,
    attention_step,
    step_difference,
    toy_attention,
    toy_inputs,
)
from viz_model.model.tokenizer import SPECIAL_TOKENS

COURSE_QK = pd.DataFrame([[4.0, 4, 4, 4], [7, 7, 7, 7], [6, 6, 6, 6]], index=["q1", "k1", "k2"],
                         columns=["1", "2", "3", "4"])   # q1·k1 = 112, q1·k2 = 96 (course §3)
COURSE_V = pd.DataFrame([[1.0, 0], [0, 1]], index=["v1", "v2"], columns=["1", "2"])
COURSE_D_K = 64


def numbers(values, digits: int = 2) -> str:
    return ", ".join(f"{v:.{digits}f}" for v in values)


def edited(frame_: pd.DataFrame) -> np.ndarray:
    """A data_editor table as numbers; a cleared cell counts as 0."""
    return frame_.apply(pd.to_numeric, errors="coerce").fillna(0.0).to_numpy(dtype=np.float64)


def matrix_chart(M, row_labels, col_labels, key, y_title, x_title, signed=True, decimals=2, titles=None):
    chart(figures.heatmaps(M, row_labels, col_labels, y_title=y_title, x_title=x_title,
                           value_name=tr("step.value"), signed=signed, decimals=decimals, panel_titles=titles),
          key=key)


def model_mode() -> None:
    result = require_translation()
    if result is None:
        return
    kind, layer = attention_controls("step")
    attention = result.trace.attention(kind, layer)
    H = attention.n_heads
    query_tokens, key_tokens = result.trace.axis_tokens(kind)
    left, right = st.columns(2)
    head = left.segmented_control(tr("common.head"), range(H), key="step.head", default=0,
                                  format_func=lambda h: str(h + 1))
    head = head or 0
    query = dependent_index(right.selectbox, tr("step.query_token"), len(query_tokens), "step.query",
                            context=(kind, tuple(query_tokens)), format_func=lambda i: f"{i}:{query_tokens[i]}")
    step = attention_step(attention, translator().attention_parameters(kind, layer), head, query)
    d_model, d_k = step.x_query.shape[0], step.q.shape[0]
    keys = figures.token_labels(key_tokens)
    query_label = figures.token_labels(query_tokens)[query]
    y_title, x_title = axis_titles(kind)
    dims = [str(j) for j in range(d_model)]
    head_dims = [str(j) for j in range(d_k)]

    def inputs_part() -> None:
        st.subheader(tr("step.s1"))
        matrix_chart(np.vstack([step.x_query, step.x_keys]),
                     [tr("step.x_query", token=query_label)] + keys, dims, "step.x", tr("axis.token_rows"),
                     tr("axis.dimension"))
        note = tr("step.s1_note_cross") if kind == "cross" else tr("step.s1_note_ln")
        st.caption(tr("step.s1_caption", note=note))

    def projections_part() -> None:
        st.subheader(tr("step.s2", h=head + 1, d_k=d_k))
        matrix_chart(step.q[None], [f"q ({query_label})"], head_dims, "step.q", y_title, tr("axis.dimension"))
        matrix_chart(np.stack([step.k, step.v]), keys, head_dims, "step.kv", x_title, tr("axis.dimension"),
                     titles=["k = x·W_K + b", "v = x·W_V + b"])
        st.caption(tr("step.s2_caption", d_k=d_k, h=head + 1, c0=head * d_k, c1=(head + 1) * d_k - 1))
        folded("q, k, v", "step.qkv", lambda: st.dataframe(figures.matrix_frame(
            np.vstack([step.q, step.k, step.v]),
            [f"q {query_label}"] + [f"k {k}" for k in keys] + [f"v {k}" for k in keys], head_dims),
            key="step.qkv_table"))

    def scores_part() -> None:
        st.subheader(tr("step.s3"))
        masked = tr("step.masked")
        st.dataframe({tr("step.col_key"): [f"{j}:{tok}" for j, tok in enumerate(key_tokens)],
                      tr("step.col_score"): [f"{s:.4f}" if a else masked for s, a in zip(step.scores, step.allowed)],
                      tr("step.col_scaled", scale=step.scale): [f"{s:.4f}" if a else masked
                                                                for s, a in zip(step.scaled, step.allowed)],
                      tr("step.col_weight"): [f"{w:.4f}" if a else masked
                                              for w, a in zip(step.weights, step.allowed)]},
                     hide_index=True, key="step.scores_table")
        chart(figures.bar_chart(keys, step.weights, x_title=tr("step.weights_chart"), y_title=x_title,
                                value_format=".3f", highlight=~step.allowed), key="step.weights")
        st.caption(tr("step.s3_caption", query=query, layer=layer + 1, h=head + 1))

    def weighted_sum_part() -> None:
        st.subheader(tr("step.s4"))
        matrix_chart(np.vstack([step.weighted_values, step.z]), [f"α·v {k}" for k in keys] + [tr("step.z")],
                     head_dims, "step.weighted", x_title, tr("axis.dimension"))
        st.caption(tr("step.s4_caption"))
        # The sum with the real weights, largest first (positions only: no user text goes into LaTeX).
        order = [j for j in np.argsort(-step.weights, kind="stable") if step.allowed[j]]
        terms = " + ".join(f"{step.weights[j]:.2f}\\,v_{{{j}}}" for j in order[:5])
        st.latex(f"z_{{{query}}} = {terms}" + (" + \\dots" if len(order) > 5 else ""))

    def output_part() -> None:
        st.subheader(tr("step.s5"))
        matrix_chart(np.vstack([step.concat, step.output]), [tr("step.concat"), tr("step.output")], dims,
                     "step.output", tr("step.value"), tr("axis.dimension"))
        st.caption(tr("step.s5_caption", n=H, d=d_model))

    # One step at a time, like a slide a teacher clicks through; only the open step is drawn (a new sentence
    # redraws one or two charts instead of six).
    sections("step.tab", {"step.tab_inputs": inputs_part, "step.tab_projections": projections_part,
                          "step.tab_scores": scores_part, "step.tab_weighted_sum": weighted_sum_part,
                          "step.tab_output": output_part})
    # Every step recomputed by hand (viz_model.lessons.attention_step) against the model's own tensors.
    diff = step_difference(step, attention)
    if diff < 1e-3:
        st.success(tr("step.check_ok", diff=diff), icon=":material/check_circle:")
    else:
        st.error(tr("step.check_bad", diff=diff))


def course_mode() -> None:
    st.markdown(tr("step.course_intro"))
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{tr('step.course_qk')}**")
        qk = edited(st.data_editor(COURSE_QK, key="step.course_qk", width="stretch"))
    with right:
        st.markdown(f"**{tr('step.course_v')}**")
        v = edited(st.data_editor(COURSE_V, key="step.course_v", width="stretch"))
    scale_dim = st.number_input(tr("step.scale_dim"), min_value=4, max_value=4096, value=COURSE_D_K,
                                key="step.course_d_k")
    result = attention_arithmetic(qk[:1], qk[1:], v, scale_dim=int(scale_dim))
    show_arithmetic(result, ["q1"], ["k1", "k2"], "step.course")


def show_arithmetic(result, query_labels, key_labels, key) -> None:
    """The steps of a small attention_arithmetic result as one summary line and small heatmaps."""
    st.markdown("#### " + tr("step.result_line", scores=numbers(result.scores[0], 0 if np.allclose(
        result.scores[0], np.round(result.scores[0])) else 2), scale=round(result.scale, 3),
        scaled=numbers(result.scaled[0]), weights=numbers(result.weights[0])))
    y_title, x_title = tr("axis.query_rows"), tr("axis.key_cols")
    panels = np.stack([result.scores, result.scaled])
    matrix_chart(panels, query_labels, key_labels, f"{key}.scores", y_title, x_title,
                 titles=[tr("step.toy_scores"), tr("step.toy_scaled")])
    matrix_chart(result.weights, query_labels, key_labels, f"{key}.weights", y_title, x_title, signed=False,
                 titles=[tr("step.toy_weights_table")])
    dims = [str(j + 1) for j in range(result.output.shape[1])]
    matrix_chart(result.output, query_labels, dims, f"{key}.output", y_title, tr("axis.dimension"),
                 titles=[tr("step.toy_output")])


def toy_mode() -> None:
    c1, c2, c3, c4 = st.columns(4)
    n = c1.slider(tr("step.toy_words"), 2, 6, 3, key="step.toy_n")
    d_model = c2.slider(tr("step.toy_d_model"), 4, 6, 4, key="step.toy_d_model")
    d_k = c3.slider(tr("step.toy_d_k"), 2, d_model, 2, key="step.toy_d_k")
    seed = c4.number_input(tr("step.toy_seed"), 0, 9999, 0, key="step.toy_seed")
    text, _ = sentence()
    words = [w for w in translator().tokenizer.split(text)[0] if w not in SPECIAL_TOKENS] if text.strip() else []
    labels = [f"{i}:{w}" for i, w in enumerate((words + [f"w{j}" for j in range(n)])[:n])]
    x, w_q, w_k, w_v = toy_inputs(n, d_model, d_k, int(seed))
    dims = [str(j + 1) for j in range(d_model)]
    st.markdown(f"**{tr('step.toy_x')}**")
    x = edited(st.data_editor(pd.DataFrame(x, index=labels, columns=dims),
                              key=f"step.toy_x.{n}.{d_model}.{d_k}.{seed}", width="stretch"))
    toy = toy_attention(x, w_q, w_k, w_v)
    shown = [figures.escape_label(s) for s in labels]
    head_dims = [str(j + 1) for j in range(d_k)]
    st.markdown(f"**{tr('step.toy_weights')}**")
    matrix_chart(np.stack([w_q, w_k, w_v]), dims, head_dims, "step.toy_w", tr("axis.dimension"),
                 tr("axis.dimension"), titles=["W_Q", "W_K", "W_V"])
    st.markdown(f"**{tr('step.toy_qkv')}**")
    matrix_chart(np.stack([toy.q, toy.k, toy.v]), shown, head_dims, "step.toy_qkv", tr("step.word"),
                 tr("axis.dimension"), titles=["Q", "K", "V"])
    show_arithmetic(toy.arithmetic, shown, shown, "step.toy")


frame()
page_title("step")
explanation("step")
mode = st.segmented_control(tr("step.mode"), ("model", "course", "toy"), key="step.mode", default="model",
                            format_func=labeller("step.mode_{}")) or "model"
{"model": model_mode, "course": course_mode, "toy": toy_mode}[mode]()
