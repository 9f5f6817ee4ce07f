"""Step by step: one head's attention for one query token with the model's real numbers, the course's
Thinking Machines example and a toy layer whose vectors the user can type."""

import streamlit as st

from pages.parts.controls import choice
from pages.parts.frame import frame
from pages.parts.state import catalogue_labels, tr
from pages.parts.step_by_step import course_mode, toy_mode
from pages.parts.step_model import model_mode
from pages.parts.step_norms import norms_mode
from pages.parts.widgets import explanation, page_title, settings_area

frame()
page_title("step")
explanation("step")
with settings_area():
    mode = choice(
        st.segmented_control,
        tr("step.mode"),
        ("model", "course", "toy", "norms"),
        "mode",
        catalogue_labels("step.mode_{}"),
    )
{"model": model_mode, "course": course_mode, "toy": toy_mode, "norms": norms_mode}[mode]()
