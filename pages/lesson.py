"""Lesson: the course as a guided path on the typed sentence. Ten steps in the course's order, each with its
text, a link to the view it is about (every setting in the link), a "what to look for" line computed on the
sentence, and a question answered before the model's numbers are revealed; the session's score."""

import streamlit as st

from pages.parts.frame import frame
from pages.parts.lesson import step_part
from pages.parts.model_picker import translator_only
from pages.parts.state import sentence
from pages.parts.widgets import explanation, page_title, require_translation

frame()
page_title("lesson", has_settings=False)
explanation("lesson")
translator_only("lesson")  # the lesson reads our translator: MiniLM has no decoder, beam or translation
result = require_translation()
if result is None:
    st.stop()
text, direction = sentence()
step_part(text, direction, result)
