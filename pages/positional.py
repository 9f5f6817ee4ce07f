"""Positional encoding: the sinusoid curves, the positions × dimensions table, the dot product between
positions (it depends on the distance only), the course's d_model = 5 example, and the model's own encoding
of the current sentence marked on all of them."""

import streamlit as st

from pages.parts.cache import translate, translator
from pages.parts.controls import linked
from pages.parts.frame import frame
from pages.parts.minilm import positional_page
from pages.parts.model_picker import pretrained_picked
from pages.parts.positional import (
    COURSE_SECTION,
    SECTION,
    PositionalView,
    course_part,
    curves_part,
    similarity_part,
    table_part,
)
from pages.parts.state import sentence, tr
from pages.parts.widgets import explanation, page_title, sections, settings_area
from viz_model.lessons.positional_views import COURSE_D_MODEL, COURSE_WORDS, default_dims, positional_table

MAX_D_MODEL, MAX_LENGTH = 512, 200


def _set_course_example() -> None:
    st.session_state["d"] = COURSE_D_MODEL
    st.session_state["len"] = len(COURSE_WORDS)
    st.session_state[SECTION] = COURSE_SECTION  # and open the course's table, the button's point


def _set_model_size() -> None:
    st.session_state["d"] = translator().config.d_model


frame()
page_title("positional")
explanation("positional")
if pretrained_picked():  # MiniLM's learned positions beside the sinusoid
    positional_page()
    st.stop()
config = translator().config
text, direction = sentence()
result = None if translator().is_empty(text) else translate(text, direction)

with settings_area():
    left, middle, right = st.columns([2, 2, 2])
    d_model = linked(left.slider, tr("positional.d_model"), 4, MAX_D_MODEL, min(config.d_model, MAX_D_MODEL), key="d")
    length = linked(middle.slider, tr("positional.length"), 2, MAX_LENGTH, min(config.max_len, MAX_LENGTH), key="len")
    with right:
        st.button(
            tr("positional.course_button"),
            key="positional.course",
            on_click=_set_course_example,
            icon=":material/school:",
        )
        st.button(
            tr("positional.model_button", d=config.d_model),
            key="positional.model_size",
            on_click=_set_model_size,
            icon=":material/memory:",
            disabled=d_model == config.d_model,
        )

# Dimensions chosen for a larger d_model no longer exist; a stale or foreign value resets the choice.
if any(not isinstance(j, int) or j >= d_model for j in st.session_state.get("positional.dims") or []):
    st.session_state["positional.dims"] = default_dims(d_model)

# The model's encoding of this sentence can be marked when the page shows the model's d_model.
marked = result is not None and d_model == config.d_model
if result is None:
    st.info(tr("positional.no_sentence"), icon=":material/keyboard:")
elif not marked:
    st.info(tr("positional.other_d_model", d=config.d_model), icon=":material/info:")
sentence_rows = len(result.trace.source_tokens) if marked else 0
view = PositionalView(positional_table(d_model, length, sentence_rows), result)

# One view at a time: only the chosen one is drawn (a new sentence redraws one or two charts, not five).
sections(
    SECTION,
    {
        "positional.tab_curves": lambda: curves_part(view),
        "positional.tab_table": lambda: table_part(view),
        "positional.tab_similarity": lambda: similarity_part(view),
        COURSE_SECTION: course_part,
    },
)
