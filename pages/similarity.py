"""Similarity: dot, cosine and scaled-dot matrices between the sentence's tokens (embeddings, an encoder
layer's output, or one head's queries against its keys) with their softmax rows; and the course's hand-made
word vectors as an editable table, with how "apple" moves toward "orange" or toward "phone"."""

from collections.abc import Callable

import numpy as np
import streamlit as st

from pages.parts.cache import translator
from pages.parts.controls import choice, head_picker, layer_picker
from pages.parts.frame import frame
from pages.parts.minilm import similarity_page
from pages.parts.model_picker import pretrained_picked
from pages.parts.similarity_course import course_part
from pages.parts.similarity_scoring import scaling_effect_part, scoring_part
from pages.parts.state import catalogue_labels, tr
from pages.parts.widgets import (
    axis_titles,
    chart,
    explanation,
    lead,
    page_title,
    require_translation,
    sections,
    settings_area,
)
from viz_model import figures
from viz_model.lessons.embeddings import SIMILARITY_SOURCES, similarity_vectors
from viz_model.lessons.similarity import SimilarityMatrices, similarity_matrices

MAX_TOKENS_WITH_VALUES = 8  # numbers in the cells of three panels across


def sentence_part() -> None:
    if pretrained_picked():  # MiniLM's vectors and the apple contrast on a real model
        similarity_page()
        return
    result = require_translation()
    if result is None:
        return
    trace = result.trace
    config = translator().config
    with settings_area():
        left, middle, right = st.columns([3, 1, 2])
        source = choice(
            left.segmented_control,
            tr("similarity.source"),
            SIMILARITY_SOURCES,
            "source",
            catalogue_labels("similarity.source_{}"),
            default="embedding",
        )
        layer = head = 0
        if source != "embedding":
            layer = layer_picker(middle, config.n_encoder_layers)
        if source == "qk":
            head = head_picker(config.n_heads, right)
    queries, keys = similarity_vectors(trace, source, layer, head)
    matrices = similarity_matrices(queries, keys)
    labels = figures.token_labels(trace.source_labels)
    y_title, x_title = axis_titles("encoder_self")
    lead(tr(f"similarity.source_caption_{source}", layer=layer + 1, h=head + 1, d=queries.shape[1]))
    measures = SimilarityMatrices.MEASURES
    titles = [tr(f"similarity.measure_{m}") for m in measures]

    def measure_part(measure: str, title: str) -> Callable[[], None]:
        # One measure at a time, full width: its numbers stay readable in longer sentences, and a teacher
        # steps through the three as the course does. Each has its own colour scale (signed, ±max|value|).
        def draw() -> None:
            lead(
                f"**{title}**: "
                + tr(f"similarity.measure_{measure}_caption", scale=f"{matrices.scale:.2f}", d=queries.shape[1])
            )
            if not figures.values_fit(len(labels), len(labels)):
                lead(tr("similarity.hover_for_values"))
            chart(
                figures.heatmaps(
                    matrices.matrix(measure),
                    labels,
                    labels,
                    y_title=y_title,
                    x_title=x_title,
                    signed=True,
                    value_name=tr(f"similarity.value_{measure}"),
                ),
                key=f"similarity.{measure}",
            )
            if measure == "scaled_dot":  # what ÷√d does to these rows' softmax, measured
                scaling_effect_part(queries, keys, trace.source_labels)

        return draw

    def softmax_part() -> None:
        # The three row softmaxes side by side on one scale, where it shows that ÷√d flattens the rows.
        readable = len(labels) <= MAX_TOKENS_WITH_VALUES  # three panels across: numbers only if they fit
        scaled = matrices.softmax["scaled_dot"]
        lead(
            tr(
                "similarity.softmax_rows_caption",
                scale=f"{matrices.scale:.2f}",
                low=f"{scaled.min():.3f}",
                high=f"{scaled.max():.3f}",
                uniform=f"{1 / scaled.shape[1]:.3f}",
            )
        )
        if not readable:
            lead(tr("similarity.hover_for_values"))
        chart(
            figures.heatmaps(
                np.stack([matrices.softmax[m] for m in measures]),
                labels,
                labels,
                y_title=y_title,
                x_title=x_title,
                value_name=tr("similarity.value_softmax"),
                show_values=readable,
                panel_titles=titles,
            ),
            key="similarity.softmax",
        )
        scaling_effect_part(queries, keys, trace.source_labels)

    # Drawn only while its section is chosen: one figure per new sentence, not all four.
    views = {f"similarity.view_{m}": measure_part(m, title) for m, title in zip(measures, titles)}
    sections("measure", {**views, "similarity.view_softmax": softmax_part})
    if source == "qk":
        st.info(tr("similarity.qk_is_attention", layer=layer + 1, h=head + 1), icon=":material/link:")


frame()
page_title("similarity")
explanation("similarity")
sections(
    "section",
    {
        "similarity.tab_sentence": sentence_part,
        "similarity.tab_scoring": scoring_part,
        "similarity.tab_course": course_part,
    },
)
