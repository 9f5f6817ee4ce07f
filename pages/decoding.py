"""Decoding lab: teacher forcing (training) beside free running (translating) on the typed sentence, every
decoding strategy on it (greedy, beam, seeded sampling with temperature, top-k and top-p), and one step's
next-token distribution before and after sampling cuts it."""

import streamlit as st

from pages.parts.decoding import cut_part, forcing_part, ngram_part, strategies_part
from pages.parts.frame import frame
from pages.parts.model_picker import translator_only
from pages.parts.state import sentence
from pages.parts.widgets import explanation, page_title, require_translation, sections

frame()
page_title("decoding")
explanation("decoding")
translator_only("decoding")  # decoding is our model's: MiniLM does not write text
result = require_translation()
if result is None:
    st.stop()
text, direction = sentence()
sections(
    "section",
    {
        "decoding.tab_forcing": lambda: forcing_part(text, direction),
        "decoding.tab_strategies": lambda: strategies_part(text, direction),
        "decoding.tab_cut": lambda: cut_part(text, direction),
        "decoding.tab_ngram": lambda: ngram_part(text, direction, result),
    },
)
