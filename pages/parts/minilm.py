"""The pretrained encoder (MiniLM), picked in the sidebar: the one guard a page calls (`pretrained_picked`),
the model's view of the sidebar's sentence or one line why there is none (`model_view`), and the views of
the Tokens, Positional encoding, Similarity and Step by step pages on it. The numbers come from
viz_model.lessons.pretrained_views; the Attention heads page's views are in pages/parts/minilm_attention.py."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.parts.cache import apple_contrast, pretrained, pretrained_positions, pretrained_view, translator
from pages.parts.controls import choice, dependent_index, token_index
from pages.parts.i18n import t
from pages.parts.state import lang, sentence, tr, use_sentence
from pages.parts.text import md
from pages.parts.widgets import chart, sections, vectors_chart, whole_table_height
from viz_model import figures
from viz_model.lessons.pretrained_views import (
    APPLE_TEXTS,
    APPLE_WORD,
    ENGLISH_EXAMPLE,
    head_step,
    reads_english,
)
from viz_model.lessons.similarity import similarity_matrices
from viz_model.model.pretrained import EncoderView, PretrainedError


def show_pretrained_error(err: PretrainedError) -> None:
    """One friendly message naming the directory and the problem, no traceback."""
    st.error(
        f"**{tr('pretrained.error_title')}**  \n" + tr("pretrained.error", path=md(err.path), problem=md(err.problem)),
        icon=":material/error:",
    )


def or_message(compute):
    """compute(), or None after the friendly message when the pretrained model cannot be loaded.

    Every MiniLM view starts here, and the first one in a server loads MiniLM: seconds, mostly importing
    transformers, while the page would otherwise sit unchanged. The spinner says what is loading; Streamlit
    shows it only past half a second, so a loaded model shows none."""
    try:
        with st.spinner(tr("pretrained.loading")):
            return compute()
    except PretrainedError as err:
        show_pretrained_error(err)
        return None


def model_view() -> EncoderView | None:
    """The pretrained encoder's view of the sidebar's sentence, or None after one line saying why there is
    none: the model cannot be loaded, the text is empty, or it is not English (with an English example)."""
    text, _ = sentence()
    if or_message(pretrained) is None:
        return None
    if translator().is_empty(text):
        st.info(tr("common.empty_prompt"), icon=":material/keyboard:")
        return None
    if not reads_english(text):
        st.info(tr("pretrained.english_only"), icon=":material/translate:")
        st.button(
            ENGLISH_EXAMPLE,
            key="pretrained.english_example",
            on_click=use_sentence,
            args=(ENGLISH_EXAMPLE, "en2zh"),
            icon=":material/east:",
        )
        return None
    return pretrained_view(text)


def tokens_page() -> None:
    view = model_view()
    if view is None:
        return
    labels = figures.token_labels(view.labels)

    def pieces_part() -> None:
        st.dataframe(
            {
                tr("tokens.col_position"): list(range(len(view.pieces))),
                tr("pretrained.col_piece"): view.pieces,
                tr("pretrained.col_shown"): view.labels,
                tr("tokens.col_id"): view.ids,
                tr("pretrained.col_special"): ["✓" if s else "" for s in view.special],
            },
            hide_index=True,
            key="tokens.minilm_pieces",
            height=whole_table_height(len(view.pieces)),
        )
        st.caption(tr("pretrained.pieces_caption"))

    def vectors_part() -> None:
        layer = layer_slider(view)
        vectors_chart(view.hidden_states[layer], labels, tr("tokens.value_vector"), "tokens.minilm_vectors")
        st.caption(tr("pretrained.vectors_caption", d=view.embeddings.shape[1]))

    sections("msection", {"pretrained.tab_pieces": pieces_part, "pretrained.tab_vectors": vectors_part})
    st.caption(tr("pretrained.tokens_translator_only"))


def layer_slider(view: EncoderView) -> int:
    """Which vectors: the input (0) or the output of a layer (1..L), by its number in the URL parameter
    "vlayer" (its label is in words: a `choice`)."""
    layers = range(view.n_layers + 1)
    return choice(st.segmented_control, tr("pretrained.vector_layer"), layers, "vlayer", layer_label, required=True)


def layer_label(layer: int, language: str) -> str:
    """Hidden state `layer`: 0 is the input (embeddings), then the output of each layer."""
    return t("pretrained.input", language) if layer == 0 else t("pretrained.after_layer", language, layer=layer)


def layer_name(layer: int) -> str:
    return layer_label(layer, lang())


def positional_page() -> None:
    compared = or_message(pretrained_positions)
    if compared is None:
        return
    n, d = compared.learned.shape
    st.info(tr("pretrained.learned_vs_fixed", d=d), icon=":material/info:")
    positions = [str(p) for p in range(n)]

    def table_part() -> None:
        chart(
            figures.heatmaps(
                compared.learned,
                positions,
                [str(j) for j in range(d)],
                y_title=tr("positional.axis_position_rows"),
                x_title=tr("axis.dimension"),
                value_name=tr("positional.value_pe"),
                signed=True,
                show_values=False,
                zrange=(-compared.colour_limit, compared.colour_limit),
                title=tr("pretrained.learned_table", n=n - 1),
            ),
            key="positional.minilm_table",
        )
        st.caption(tr("pretrained.positions_table_caption"))

    def cosine_part() -> None:
        chart(
            figures.heatmaps(
                compared.cosines,
                positions,
                positions,
                y_title=tr("positional.axis_query_position"),
                x_title=tr("positional.axis_key_position"),
                value_name=tr("pretrained.value_cosine"),
                signed=True,
                show_values=False,
                panel_titles=[tr("pretrained.learned_cosine"), tr("pretrained.sinusoid_cosine", d=d)],
            ),
            key="positional.minilm_cosine",
        )
        st.caption(tr("pretrained.positions_cosine_caption"))

    # One chart a rerun: the table alone is 40 × 384 numbers.
    sections("msection", {"pretrained.tab_learned": table_part, "pretrained.tab_position_cosine": cosine_part})


def similarity_page() -> None:
    def sentence_part() -> None:
        view = model_view()
        if view is None:
            return
        layer = layer_slider(view)
        vectors = view.hidden_states[layer]
        labels = figures.token_labels(view.labels)
        chart(
            figures.heatmaps(
                similarity_matrices(vectors, vectors).matrix("cosine"),
                labels,
                labels,
                y_title=tr("axis.query_rows"),
                x_title=tr("axis.key_cols"),
                signed=True,
                value_name=tr("pretrained.value_cosine"),
            ),
            key="similarity.minilm_cosine",
        )
        st.caption(tr("pretrained.similarity_caption", layer=layer_name(layer)))

    def apple_part() -> None:
        cosine = or_message(apple_contrast)
        if cosine is None:
            return
        chart(
            figures.line_chart(
                np.arange(len(cosine)),
                {tr("pretrained.apple_series", word=APPLE_WORD): cosine},
                x_title=tr("pretrained.apple_axis"),
                y_title=tr("pretrained.value_cosine"),
                height=360,
            ),
            key="similarity.minilm_apple",
        )
        st.caption(
            tr(
                "pretrained.apple_caption",
                word=APPLE_WORD,
                a=md(APPLE_TEXTS[0]),
                b=md(APPLE_TEXTS[1]),
                first=f"{cosine[0]:.4f}",
                last=f"{cosine[-1]:.4f}",
            )
        )

    sections("msection", {"pretrained.tab_sentence": sentence_part, "pretrained.tab_apple": apple_part})


def step_page() -> None:
    view = model_view()
    if view is None:
        return
    st.caption(tr("pretrained.step_scope"))
    left, middle, right = st.columns(3)
    layer = dependent_index(
        left.selectbox, tr("common.layer"), view.n_layers, "mlayer", format_func=lambda i: str(i + 1)
    )
    head = dependent_index(middle.selectbox, tr("common.head"), view.n_heads, "mhead", format_func=lambda h: str(h + 1))
    query = token_index(right, tr("step.query_token"), view.labels, "mquery")
    step = head_step(view, layer, head, query)
    keys = figures.token_labels(view.labels)
    st.dataframe(
        {
            tr("step.col_key"): [f"{j}:{label}" for j, label in enumerate(view.labels)],
            tr("step.col_score"): step.scores.round(4),
            tr("step.col_scaled", scale=step.scale): step.scaled.round(4),
            tr("step.col_weight"): step.weights.round(4),
            tr("pretrained.col_reported"): step.reported.round(4),
        },
        hide_index=True,
        key="step.minilm_scores",
        height=whole_table_height(len(view.labels)),
    )
    chart(
        figures.bar_chart(keys, step.weights, x_title=tr("step.weights_chart"), y_title=tr("axis.key_cols")),
        key="step.minilm_weights",
    )
    st.caption(tr("pretrained.step_caption", d_k=step.q.shape[0], query=md(keys[query]), layer=layer + 1, h=head + 1))
    if step.difference < 1e-4:
        st.success(tr("pretrained.step_check", diff=f"{step.difference:.1e}"), icon=":material/check_circle:")
    else:
        st.error(tr("pretrained.step_check", diff=f"{step.difference:.1e}"))
