"""Positional encoding: the sinusoid curves, the positions × dimensions table, the dot product between
positions (it depends on the distance only), the course's d_model = 5 example, and the model's own encoding
of the current sentence marked on all of them."""
import numpy as np
import streamlit as st

from pages.cache import translate, translator
from pages.controls import linked
from pages.frame import frame
from pages.pretrained_parts import positional_page, pretrained_picked
from pages.state import sentence, tr
from pages.widgets import chart, explanation, page_title, sections
from viz_model import figures
from viz_model.lessons.positional_views import default_dims, distance_curves, position_similarity
from viz_model.model.positional import sinusoidal_encoding

COURSE_WORDS = ("when", "you", "play", "game", "of", "thrones")
COURSE_D_MODEL = 5
MAX_D_MODEL, MAX_LENGTH = 512, 200


def _set_course_example() -> None:
    st.session_state["d"] = COURSE_D_MODEL
    st.session_state["len"] = len(COURSE_WORDS)


def _set_model_size() -> None:
    st.session_state["d"] = translator().config.d_model


def dimension_name(j: int, d_model: int) -> str:
    """"dim 4 · sin, i = 2" : which function and which frequency index column j has."""
    return tr("positional.dim_name", j=j, fn="sin" if j % 2 == 0 else "cos", i=j // 2)


frame()
page_title("positional")
explanation("positional")
if pretrained_picked():                  # MiniLM's learned positions beside the sinusoid
    positional_page()
    st.stop()
config = translator().config
text, direction = sentence()
result = None if translator().is_empty(text) else translate(text, direction)

left, middle, right = st.columns([2, 2, 2])
d_model = linked(left.slider, tr("positional.d_model"), 4, MAX_D_MODEL, min(config.d_model, MAX_D_MODEL),
                 key="d")
length = linked(middle.slider, tr("positional.length"), 2, MAX_LENGTH, min(config.max_len, MAX_LENGTH),
                key="len")
with right:
    st.button(tr("positional.course_button"), key="positional.course", on_click=_set_course_example,
              icon=":material/school:")
    st.button(tr("positional.model_button", d=config.d_model), key="positional.model_size",
              on_click=_set_model_size, icon=":material/memory:", disabled=d_model == config.d_model)

# Dimensions chosen for a larger d_model no longer exist; a stale or foreign value resets the choice.
if any(not isinstance(j, int) or j >= d_model for j in st.session_state.get("positional.dims") or []):
    st.session_state["positional.dims"] = default_dims(d_model)

# The model's encoding of this sentence can be marked when the page shows the model's d_model.
marked = result is not None and d_model == config.d_model
if result is None:
    st.info(tr("positional.no_sentence"), icon=":material/keyboard:")
elif not marked:
    st.info(tr("positional.other_d_model", d=config.d_model), icon=":material/info:")
S = len(result.trace.source_tokens) if result is not None else 0
L = max(length, S) if marked else length
pe = sinusoidal_encoding(L, d_model)                         # (L, d_model)
positions = np.arange(L)
token_labels = figures.token_labels(result.trace.source_labels) if result is not None else []
position_labels = [str(p) for p in positions]


def curves_part() -> None:
    st.subheader(tr("positional.curves"))
    dims = st.multiselect(tr("positional.dims"), range(d_model), default=default_dims(d_model),
                          key="positional.dims", format_func=lambda j: dimension_name(j, d_model), max_selections=8)
    if not dims:
        st.info(tr("positional.pick_dims"))
        return
    series = {dimension_name(j, d_model): pe[:, j] for j in dims}
    marks = ({dimension_name(j, d_model): (np.arange(S), result.trace.source_positional[:, j], token_labels)
              for j in dims} if marked else None)
    chart(figures.line_chart(positions, series, x_title=tr("positional.axis_position"),
                             y_title=tr("positional.axis_pe"), marks=marks,
                             marks_name=tr("positional.marks_name")), key="positional.curves")
    st.caption(tr("positional.curves_caption"))


def table_part() -> None:
    st.subheader(tr("positional.table"))
    fig = figures.heatmaps(pe, position_labels, [str(j) for j in range(d_model)],
                           y_title=tr("positional.axis_position_rows"), x_title=tr("axis.dimension"),
                           value_name=tr("positional.value_pe"), signed=True, show_values=L * d_model <= 60,
                           decimals=3, tick_labels=True)
    if marked:
        figures.mark_rows(fig, 0, S - 1, tr("positional.sentence_rows", n=S), d_model)
    chart(fig, key="positional.heatmap")
    st.caption(tr("positional.table_caption"))
    if marked:
        st.markdown(f"**{tr('positional.sentence_pe')}**")
        chart(figures.heatmaps(result.trace.source_positional, token_labels, [str(j) for j in range(d_model)],
                               y_title=tr("axis.token_rows"), x_title=tr("axis.dimension"),
                               value_name=tr("positional.value_pe"), signed=True, show_values=False),
              key="positional.sentence")
        st.caption(tr("positional.sentence_pe_caption"))


def similarity_part() -> None:
    st.subheader(tr("positional.similarity"))
    similarity = position_similarity(pe)
    chart(figures.heatmaps(similarity, position_labels, position_labels,
                           y_title=tr("positional.axis_query_position"), x_title=tr("positional.axis_key_position"),
                           value_name=tr("positional.value_dot"), signed=True, show_values=L <= 12, decimals=1),
          key="positional.similarity")
    curves = distance_curves(similarity)
    width = len(next(iter(curves.values())))
    chart(figures.line_chart(np.arange(width), {tr("positional.from_position", p=p): v for p, v in curves.items()},
                             x_title=tr("positional.axis_distance"), y_title=tr("positional.value_dot"), height=340,
                             dashed=True),
          key="positional.distance")
    st.caption(tr("positional.similarity_caption", half=d_model / 2))


def course_part() -> None:
    st.subheader(tr("positional.course"))
    course = sinusoidal_encoding(len(COURSE_WORDS), COURSE_D_MODEL)
    st.dataframe(figures.matrix_frame(np.round(course, 4), [f"{i}: {w}" for i, w in enumerate(COURSE_WORDS)],
                                      [f"{j} ({'sin' if j % 2 == 0 else 'cos'})" for j in range(COURSE_D_MODEL)]),
                 key="positional.course_table")
    st.caption(tr("positional.course_caption"))


# One view at a time: only the chosen one is drawn (a new sentence redraws one or two charts, not five).
sections("section", {"positional.tab_curves": curves_part, "positional.tab_table": table_part,
                            "positional.tab_similarity": similarity_part, "positional.tab_course": course_part})
