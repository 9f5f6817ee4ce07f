"""The Positional encoding page's views of one sinusoidal table: the curves, the positions × dimensions table,
the dot product between positions, and the course's d_model = 5 example, with the model's own encoding of the
current sentence marked where the table has the model's width."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from pages.parts.controls import language_switched
from pages.parts.i18n import t
from pages.parts.state import lang, tr
from pages.parts.widgets import chart, settings_area, vectors_chart
from viz_model import figures
from viz_model.lessons.positional_views import (
    PositionalTable,
    course_table,
    default_dims,
    distance_curves,
    encoding_curves,
    position_similarity,
)
from viz_model.model.translator import Translation

SECTION = "section"  # the page's sections control: its session-state key and URL parameter
COURSE_SECTION = "positional.tab_course"  # the section of the course's d_model = 5 table


@dataclass
class PositionalView:
    """The table the page draws (viz_model.lessons.positional_views.positional_table) and the sentence marked
    on it when its width is the model's."""

    table: PositionalTable
    result: Translation | None  # the translation of the current sentence, if any

    def __post_init__(self):
        self.pe, self.L, self.d_model, self.S = (
            self.table.pe,
            self.table.length,
            self.table.d_model,
            self.table.sentence_rows,
        )
        self.marked = self.S > 0
        self.positions = np.arange(self.L)
        self.token_labels = figures.token_labels(self.result.trace.source_labels) if self.result is not None else []
        self.position_labels = [str(p) for p in self.positions]


def dimension_names(d_model: int) -> list[str]:
    """ "dim 4 · sin, i = 2" for every column: which function and which frequency index it has. The language
    is read once: the picker formats all d_model options on every rerun."""
    language = lang()
    return [
        t("positional.dim_name", language, j=j, fn="sin" if j % 2 == 0 else "cos", i=j // 2) for j in range(d_model)
    ]


def curves_part(v: PositionalView) -> None:
    st.subheader(tr("positional.curves"))
    names = dimension_names(v.d_model)
    if language_switched("positional.dims") and "positional.dims" in st.session_state:
        st.session_state["positional.dims"] = st.session_state["positional.dims"]  # shown under the new labels
    dims = settings_area().multiselect(
        tr("positional.dims"),
        range(v.d_model),
        default=default_dims(v.d_model),
        key="positional.dims",
        format_func=names.__getitem__,
        max_selections=8,
        placeholder=tr("common.choose"),  # Streamlit's own is English in either interface language
    )
    if not dims:
        st.info(tr("positional.pick_dims"))
        return
    # Each column is a continuous function of the position, drawn finely between the whole positions (read
    # at those only, a fast dimension looks like a zigzag), with the table's values at the whole positions.
    x, values = encoding_curves(v.L, v.d_model, dims)
    series = {names[j]: values[:, k] for k, j in enumerate(dims)}
    points = {names[j]: (v.positions, v.pe[:, j]) for j in dims}
    marks = None
    if v.marked:  # the sentence's own encoding, one dot per token on each curve
        sentence_pe = v.result.trace.source_positional  # (S, d_model)
        marks = {names[j]: (np.arange(v.S), sentence_pe[:, j], v.token_labels) for j in dims}
    chart(
        figures.line_chart(
            x,
            series,
            x_title=tr("positional.axis_position"),
            y_title=tr("positional.axis_pe"),
            marks=marks,
            marks_name=tr("positional.marks_name"),
            points=points,
            points_name=tr("positional.points_name"),
            point_size=6 if v.L <= 60 else 4 if v.L <= 120 else 3,  # dots that stay apart on a long table
        ),
        key="positional.curves",
    )
    st.caption(tr("positional.curves_caption"))


def table_part(v: PositionalView) -> None:
    st.subheader(tr("positional.table"))
    fig = figures.heatmaps(
        v.pe,
        v.position_labels,
        [str(j) for j in range(v.d_model)],
        y_title=tr("positional.axis_position_rows"),
        x_title=tr("axis.dimension"),
        value_name=tr("positional.value_pe"),
        signed=True,
        show_values=v.L * v.d_model <= 60,
        decimals=3,
        tick_labels=True,
    )
    if v.marked:
        figures.mark_rows(fig, 0, v.S - 1, tr("positional.sentence_rows", n=v.S), v.d_model)
    chart(fig, key="positional.heatmap")
    st.caption(tr("positional.table_caption"))
    if v.marked:
        st.markdown(f"**{tr('positional.sentence_pe')}**")
        vectors_chart(
            v.result.trace.source_positional, v.token_labels, tr("positional.value_pe"), "positional.sentence"
        )
        st.caption(tr("positional.sentence_pe_caption"))


def similarity_part(v: PositionalView) -> None:
    st.subheader(tr("positional.similarity"))
    similarity = position_similarity(v.pe)
    chart(
        figures.heatmaps(
            similarity,
            v.position_labels,
            v.position_labels,
            y_title=tr("positional.axis_query_position"),
            x_title=tr("positional.axis_key_position"),
            value_name=tr("positional.value_dot"),
            signed=True,
            show_values=v.L <= 12,
            decimals=1,
        ),
        key="positional.similarity",
    )
    curves = distance_curves(similarity)
    width = len(next(iter(curves.values())))
    chart(
        figures.line_chart(
            np.arange(width),
            {tr("positional.from_position", p=p): v for p, v in curves.items()},
            x_title=tr("positional.axis_distance"),
            y_title=tr("positional.value_dot"),
            height=340,
            dashed=True,
        ),
        key="positional.distance",
    )
    st.caption(tr("positional.similarity_caption", half=v.d_model / 2))


def course_part() -> None:
    st.subheader(tr("positional.course"))
    course, rows, columns = course_table()
    st.dataframe(
        figures.matrix_frame(course, rows, columns),
        key="positional.course_table",
    )
    st.caption(tr("positional.course_caption"))
