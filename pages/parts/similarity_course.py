"""The Similarity page's course section: the 2-feature dot products, the hand-made word vectors as an
editable table with how "apple" moves toward "orange" or toward "phone", and why attention uses softmax.
The numbers come from `viz_model.lessons.hand_example`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.parts.state import tr
from pages.parts.text import md
from pages.parts.widgets import chart
from viz_model import figures
from viz_model.lessons.hand_example import (
    HAND_SCENARIOS,
    HAND_WORDS,
    FeatureTableError,
    feature_vectors,
    hand_example,
    plane_moves,
    vector_pairs,
    why_softmax,
)
from viz_model.lessons.similarity import COURSE_2D_VECTORS, COURSE_FEATURES, COURSE_WORDS

TABLE_VERSION = "similarity.hand_version"  # bumped by "reset" to get a fresh editor


def weights_text(weights, words) -> str:
    """0.57 orange + 0.43 apple (the course's notation)."""
    return " + ".join(f"{w:.2f} {word}" for w, word in zip(weights, words))


def vector_text(v) -> str:
    return "(" + ", ".join(f"{x:.2f}" for x in v) + ")"


def two_feature_part() -> None:
    st.subheader(tr("similarity.two_features"))
    names = [f"{chr(ord('a') + i)} = {tuple(v)}" for i, v in enumerate(COURSE_2D_VECTORS)]
    pairs = vector_pairs(COURSE_2D_VECTORS)
    st.dataframe(
        {
            tr("similarity.col_pair"): [f"{names[p.first]} · {names[p.second]}" for p in pairs],
            tr("similarity.col_dot"): [round(p.dot, 2) for p in pairs],
            tr("similarity.col_scaled", d=len(COURSE_2D_VECTORS[0])): [round(p.scaled_dot, 2) for p in pairs],
            tr("similarity.col_cosine"): [round(p.cosine, 2) for p in pairs],
            tr("similarity.col_angle"): [f"{p.angle_degrees:.0f}°" for p in pairs],
        },
        hide_index=True,
        key="similarity.two_features",
    )
    st.caption(tr("similarity.two_features_caption"))


def _reset_table() -> None:
    st.session_state[TABLE_VERSION] = st.session_state.get(TABLE_VERSION, 0) + 1


def hand_part() -> None:
    st.subheader(tr("similarity.hand"))
    st.markdown(tr("similarity.hand_intro"))
    course = pd.DataFrame(
        [[float(x) for x in COURSE_WORDS[w]] for w in HAND_WORDS], index=list(HAND_WORDS), columns=list(COURSE_FEATURES)
    )
    version = st.session_state.get(TABLE_VERSION, 0)
    edited = st.data_editor(
        course,
        key=f"similarity.hand_table.{version}",
        width="content",
        column_config={f: st.column_config.NumberColumn(f, format="%.2f") for f in COURSE_FEATURES},
    )
    st.button(tr("similarity.reset"), key="similarity.reset", on_click=_reset_table, icon=":material/restart_alt:")
    try:
        vectors = feature_vectors(list(edited.index), list(edited.columns), edited.to_numpy(object).tolist())
    except FeatureTableError as err:
        st.warning(tr(f"similarity.bad_{err.code}", cells=md(", ".join(err.cells))), icon=":material/edit:")
        return
    example = hand_example(vectors)
    words = example.words
    i, j = words.index("apple"), words.index("orange")
    pair = example.moves.get("orange_pair")
    st.markdown(
        "#### "
        + tr("similarity.headline", cos=f"{example.cosine[i, j]:.2f}", weights=weights_text(pair.weights, pair.words))
    )
    shown = [figures.escape_label(w) for w in words]

    def word_map(where, name: str, matrix, title: str, signed: bool) -> None:
        with where:
            chart(
                figures.heatmaps(
                    matrix,
                    shown,
                    shown,
                    y_title=tr("similarity.axis_query_word"),
                    x_title=tr("similarity.axis_key_word"),
                    value_name=tr(f"similarity.value_{name}"),
                    signed=signed,
                    panel_titles=[title],
                    compact=True,
                ),
                key=f"similarity.hand_{name}",
            )

    left, right = st.columns(2)
    cosine = tr("similarity.measure_cosine")
    word_map(left, "cosine", example.cosine, cosine, signed=True)
    word_map(right, "softmax", example.softmax, tr("similarity.softmax_of", measure=cosine), signed=False)
    st.caption(tr("similarity.hand_matrix_caption"))

    st.markdown(f"**{tr('similarity.moves')}**")
    rows = [(name, example.moves[name]) for name, _, _ in HAND_SCENARIOS]
    st.dataframe(
        {
            tr("similarity.col_sentence"): [tr(f"similarity.scenario_{name}") for name, _ in rows],
            tr("similarity.col_focus"): [m.focus for _, m in rows],
            tr("similarity.col_softmax"): [weights_text(m.weights, m.words) for _, m in rows],
            tr("similarity.col_new"): [vector_text(m.new_vector) for _, m in rows],
            tr("similarity.col_similarities"): [weights_text(m.similarities, m.words) for _, m in rows],
            tr("similarity.col_plain"): [
                weights_text(m.sum_weights, m.words) if m.sum_weights is not None else tr("similarity.undefined")
                for _, m in rows
            ],
        },
        hide_index=True,
        key="similarity.moves",
    )
    st.caption(tr("similarity.moves_caption"))

    features = list(edited.columns)
    moves = [(tr(f"similarity.move_{label}"), start, end) for label, start, end in plane_moves(vectors, example)]
    chart(
        figures.vector_moves({w: vectors[w][:2] for w in words}, moves, x_title=features[0], y_title=features[1]),
        key="similarity.moves_plane",
    )
    st.caption(tr("similarity.plane_caption", x=md(features[0]), y=md(features[1])))


def why_softmax_part() -> None:
    st.subheader(tr("similarity.why_softmax"))
    cases = why_softmax()
    st.dataframe(
        {
            tr("similarity.col_words"): [c.words for c in cases],
            tr("similarity.col_scores"): [", ".join(f"{s:g}" for s in c.scores) for c in cases],
            tr("similarity.col_plain"): [
                tr("similarity.divide_by_zero") if c.plain is None else ", ".join(f"{w:.2f}" for w in c.plain)
                for c in cases
            ],
            tr("similarity.col_softmax"): [", ".join(f"{w:.2f}" for w in c.softmax) for c in cases],
        },
        hide_index=True,
        key="similarity.why_softmax",
    )
    st.caption(tr("similarity.why_softmax_caption"))


def course_part() -> None:
    two_feature_part()
    hand_part()
    why_softmax_part()
