"""The sidebar's choice of model (our translator or MiniLM), the one guard a page calls to ask which is
picked (`pretrained_picked`), and the line a translator-only page shows while MiniLM is picked."""

from __future__ import annotations

import streamlit as st

from pages.parts.controls import choice
from pages.parts.state import catalogue_labels, tr
from viz_model.lessons.pretrained_views import MODELS

MODEL_KEY = "model"  # the sidebar's picker and the URL parameter (?model=minilm)


def model_picker() -> None:
    """The sidebar's choice of model, in the URL as ?model=minilm (the default, our translator, is left out)."""
    choice(
        st.radio,
        tr("pretrained.picker"),
        MODELS,
        MODEL_KEY,
        catalogue_labels("pretrained.model_{}"),
        help=tr("pretrained.picker_help"),
    )


def pretrained_picked() -> bool:
    return st.session_state.get(MODEL_KEY) == "minilm"


def translator_only(section: str) -> None:
    """One line on a page that stays on our translator (Beam search, Metrics) while MiniLM is picked."""
    if pretrained_picked():
        st.info(tr("pretrained.translator_only", page=tr(f"{section}.title")), icon=":material/info:")
