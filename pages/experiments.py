"""Experiments: change the model on the typed sentence and watch what happens: switch heads off (presets:
a whole layer, every head parked on the direction tag, every head of a role), every head's importance, and
word order taken away (no positional encoding, words shuffled)."""

import streamlit as st

from pages.parts.experiments import hard_part, importance_part, order_part, switch_off_part
from pages.parts.frame import frame
from pages.parts.model_picker import translator_only
from pages.parts.state import sentence
from pages.parts.widgets import explanation, page_title, require_translation, sections

frame()
page_title("experiments")
explanation("experiments")
translator_only("experiments")  # switching heads off is our model's: MiniLM does not translate
result = require_translation()
if result is None:
    st.stop()
text, direction = sentence()
sections(
    "section",
    {
        "experiments.tab_off": lambda: switch_off_part(text, direction, result),
        "experiments.tab_importance": lambda: importance_part(text, direction),
        "experiments.tab_order": lambda: order_part(text, direction),
        "experiments.tab_hard": lambda: hard_part(text, direction, result),
    },
)
