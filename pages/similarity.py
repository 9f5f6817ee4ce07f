"""Similarity: dot, cosine and scaled-dot matrices between the sentence's tokens (embeddings, an encoder
layer's output, or one head's queries against its keys) with their softmax rows; and the course's hand-made
word vectors as an editable table, with how "apple" moves toward "orange" or toward "phone"."""
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from pages.cache import translator
from pages.frame import frame
from pages.state import labeller, tr
from pages.widgets import axis_titles, chart, explanation, md, page_title, require_translation, sections
from viz_model import figures
from viz_model.lessons.embeddings import SIMILARITY_SOURCES, similarity_vectors
from viz_model.lessons.hand_example import (
    HAND_SCENARIOS,
    FeatureTableError,
    feature_vectors,
    hand_example,
    vector_pairs,
)
from viz_model.lessons.similarity import (
    COURSE_2D_VECTORS,
    COURSE_FEATURES,
    COURSE_WORDS,
    SimilarityMatrices,
    similarity_matrices,
    softmax,
    sum_normalise,
)

HAND_WORDS = ("apple", "orange", "phone", "and", "an")      # the table's rows, in the brief's order
TABLE_VERSION = "similarity.hand_version"                    # bumped by "reset" to get a fresh editor
MAX_TOKENS_WITH_VALUES = 8                                   # numbers in the cells of three panels across


def weights_text(weights, words) -> str:
    """0.57 orange + 0.43 apple (the course's notation)."""
    return " + ".join(f"{w:.2f} {word}" for w, word in zip(weights, words))


def vector_text(v) -> str:
    return "(" + ", ".join(f"{x:.2f}" for x in v) + ")"


def sentence_part() -> None:
    result = require_translation()
    if result is None:
        return
    trace = result.trace
    config = translator().config
    left, middle, right = st.columns([3, 1, 2])
    source = left.segmented_control(tr("similarity.source"), SIMILARITY_SOURCES, key="similarity.source",
                                    default="embedding", format_func=labeller("similarity.source_{}"))
    source = source or "embedding"
    layer = head = 0
    if source != "embedding":
        layer = middle.selectbox(tr("common.layer"), range(config.n_encoder_layers), key="similarity.layer",
                                 format_func=lambda i: str(i + 1))
    if source == "qk":
        head = right.segmented_control(tr("common.head"), range(config.n_heads), key="similarity.head",
                                       default=0, format_func=lambda h: str(h + 1)) or 0
    queries, keys = similarity_vectors(trace, source, layer, head)
    matrices = similarity_matrices(queries, keys)
    labels = figures.token_labels(trace.source_labels)
    y_title, x_title = axis_titles("encoder_self")
    st.caption(tr(f"similarity.source_caption_{source}", layer=layer + 1, h=head + 1, d=queries.shape[1]))
    measures = SimilarityMatrices.MEASURES
    titles = [tr(f"similarity.measure_{m}") for m in measures]

    def measure_part(measure: str, title: str) -> Callable[[], None]:
        # One measure at a time, full width: its numbers stay readable in longer sentences, and a teacher
        # steps through the three as the course does. Each has its own colour scale (signed, ±max|value|).
        def draw() -> None:
            st.caption(f"**{title}**: " +
                       tr(f"similarity.measure_{measure}_caption", scale=f"{matrices.scale:.2f}", d=queries.shape[1]))
            if not figures.values_fit(len(labels), len(labels)):
                st.caption(tr("similarity.hover_for_values"))
            chart(figures.heatmaps(matrices.matrix(measure), labels, labels, y_title=y_title, x_title=x_title,
                                   signed=True, value_name=tr(f"similarity.value_{measure}")),
                  key=f"similarity.{measure}")
        return draw

    def softmax_part() -> None:
        # The three row softmaxes side by side on one scale, where it shows that ÷√d flattens the rows.
        readable = len(labels) <= MAX_TOKENS_WITH_VALUES       # three panels across: numbers only if they fit
        st.caption(tr("similarity.softmax_rows_caption", scale=f"{matrices.scale:.2f}"))
        if not readable:
            st.caption(tr("similarity.hover_for_values"))
        chart(figures.heatmaps(
            np.stack([matrices.softmax[m] for m in measures]), labels, labels, y_title=y_title, x_title=x_title,
            value_name=tr("similarity.value_softmax"), show_values=readable, panel_titles=titles),
            key="similarity.softmax")

    # Drawn only while its section is chosen: one figure per new sentence, not all four.
    views = {f"similarity.view_{m}": measure_part(m, title) for m, title in zip(measures, titles)}
    sections("similarity.view", {**views, "similarity.view_softmax": softmax_part})
    if source == "qk":
        st.info(tr("similarity.qk_is_attention", layer=layer + 1, h=head + 1), icon=":material/link:")


def two_feature_part() -> None:
    st.subheader(tr("similarity.two_features"))
    names = [f"{chr(ord('a') + i)} = {tuple(v)}" for i, v in enumerate(COURSE_2D_VECTORS)]
    pairs = vector_pairs(COURSE_2D_VECTORS)
    st.dataframe({tr("similarity.col_pair"): [f"{names[p.first]} · {names[p.second]}" for p in pairs],
                  tr("similarity.col_dot"): [round(p.dot, 2) for p in pairs],
                  tr("similarity.col_scaled", d=len(COURSE_2D_VECTORS[0])): [round(p.scaled_dot, 2)
                                                                             for p in pairs],
                  tr("similarity.col_cosine"): [round(p.cosine, 2) for p in pairs],
                  tr("similarity.col_angle"): [f"{p.angle_degrees:.0f}°" for p in pairs]},
                 hide_index=True, key="similarity.two_features")
    st.caption(tr("similarity.two_features_caption"))


def _reset_table() -> None:
    st.session_state[TABLE_VERSION] = st.session_state.get(TABLE_VERSION, 0) + 1


def hand_part() -> None:
    st.subheader(tr("similarity.hand"))
    st.markdown(tr("similarity.hand_intro"))
    course = pd.DataFrame([[float(x) for x in COURSE_WORDS[w]] for w in HAND_WORDS], index=list(HAND_WORDS),
                          columns=list(COURSE_FEATURES))
    version = st.session_state.get(TABLE_VERSION, 0)
    edited = st.data_editor(course, key=f"similarity.hand_table.{version}", width="content",
                            column_config={f: st.column_config.NumberColumn(f, format="%.2f")
                                           for f in COURSE_FEATURES})
    st.button(tr("similarity.reset"), key="similarity.reset", on_click=_reset_table,
              icon=":material/restart_alt:")
    try:
        vectors = feature_vectors(list(edited.index), list(edited.columns), edited.to_numpy(object).tolist())
    except FeatureTableError as err:
        st.warning(tr(f"similarity.bad_{err.code}", cells=md(", ".join(err.cells))), icon=":material/edit:")
        return
    example = hand_example(vectors)
    words = example.words
    i, j = words.index("apple"), words.index("orange")
    pair = example.moves.get("orange_pair")
    st.markdown("#### " + tr("similarity.headline", cos=f"{example.cosine[i, j]:.2f}",
                             weights=weights_text(pair.weights, pair.words)))
    shown = [figures.escape_label(w) for w in words]
    left, right = st.columns(2)
    with left:
        chart(figures.heatmaps(
            example.cosine, shown, shown, y_title=tr("similarity.axis_query_word"),
            x_title=tr("similarity.axis_key_word"), value_name=tr("similarity.value_cosine"), signed=True,
            panel_titles=[tr("similarity.measure_cosine")], compact=True), key="similarity.hand_cosine")
    with right:
        chart(figures.heatmaps(
            example.softmax, shown, shown, y_title=tr("similarity.axis_query_word"),
            x_title=tr("similarity.axis_key_word"), value_name=tr("similarity.value_softmax"),
            panel_titles=[tr("similarity.softmax_of", measure=tr("similarity.measure_cosine"))],
            compact=True),
            key="similarity.hand_softmax")
    st.caption(tr("similarity.hand_matrix_caption"))

    st.markdown(f"**{tr('similarity.moves')}**")
    rows = [(name, example.moves[name]) for name, _, _ in HAND_SCENARIOS]
    st.dataframe({tr("similarity.col_sentence"): [tr(f"similarity.scenario_{name}") for name, _ in rows],
                  tr("similarity.col_focus"): [m.focus for _, m in rows],
                  tr("similarity.col_softmax"): [weights_text(m.weights, m.words) for _, m in rows],
                  tr("similarity.col_new"): [vector_text(m.new_vector) for _, m in rows],
                  tr("similarity.col_similarities"): [weights_text(m.similarities, m.words) for _, m in rows],
                  tr("similarity.col_plain"): [weights_text(m.sum_weights, m.words) if m.sum_weights is not None
                                               else tr("similarity.undefined") for _, m in rows]},
                 hide_index=True, key="similarity.moves")
    st.caption(tr("similarity.moves_caption"))

    features = list(edited.columns)
    moves = [(tr(f"similarity.move_{label}"), vectors[word][:2], example.moves[scenario].new_vector[:2])
             for label, word, scenario in (("apple_fruit", "apple", "apple_fruit"),
                                           ("apple_phone", "apple", "apple_phone"),
                                           ("orange", "orange", "orange_pair"))]
    chart(figures.vector_moves({w: vectors[w][:2] for w in words}, moves, x_title=features[0],
                               y_title=features[1]), key="similarity.moves_plane")
    st.caption(tr("similarity.plane_caption", x=md(features[0]), y=md(features[1])))


def plain_weights(scores) -> str:
    """Scores divided by their sum, or the reason that cannot be done (they sum to 0)."""
    try:
        return ", ".join(f"{w:.2f}" for w in sum_normalise(scores))
    except ZeroDivisionError:
        return tr("similarity.divide_by_zero")


def why_softmax_part() -> None:
    st.subheader(tr("similarity.why_softmax"))
    cases = [("orange / apple", (1.0, 0.71)), ("orange / motorcycle", (1.0, -1.0))]
    st.dataframe({tr("similarity.col_words"): [words for words, _ in cases],
                  tr("similarity.col_scores"): [", ".join(f"{s:g}" for s in scores) for _, scores in cases],
                  tr("similarity.col_plain"): [plain_weights(scores) for _, scores in cases],
                  tr("similarity.col_softmax"): [", ".join(f"{w:.2f}" for w in softmax(np.array(scores)))
                                                 for _, scores in cases]},
                 hide_index=True, key="similarity.why_softmax")
    st.caption(tr("similarity.why_softmax_caption"))


def course_part() -> None:
    two_feature_part()
    hand_part()
    why_softmax_part()


frame()
page_title("similarity")
explanation("similarity")
sections("similarity.tab", {"similarity.tab_sentence": sentence_part, "similarity.tab_course": course_part})
