"""Attention heads: per-head heatmaps with the mean, compare mode with differences, the all-heads grid, and
one query token's top attended keys."""

import streamlit as st

from pages.parts.attention import (
    LayerView,
    compare_view,
    follow_shared_view,
    grid_view,
    heads_view,
    layer_notes,
    pronoun_view,
    query_view,
    share_view,
)
from pages.parts.attention_cost import cost_view
from pages.parts.controls import attention_controls, choice
from pages.parts.frame import frame
from pages.parts.head_roles import look_for, roles_view
from pages.parts.minilm_attention import attention_page
from pages.parts.model_picker import pretrained_picked
from pages.parts.state import catalogue_labels, tr
from pages.parts.widgets import explanation, page_title, require_translation, settings_area, slide_row

VIEWS = {
    "heads": heads_view,
    "roles": roles_view,
    "compare": compare_view,
    "grid": grid_view,
    "query": query_view,
    "pronoun": pronoun_view,
    "cost": cost_view,
}

frame()
page_title("attention")
explanation("attention")
if pretrained_picked():  # MiniLM's encoder heads (pages/parts/minilm_attention.py)
    attention_page()
    st.stop()
result = require_translation()
if result is None:
    st.stop()

with settings_area():
    kind, layer = attention_controls()
layer_view = LayerView(result.trace, kind, layer)
follow_shared_view("view", "mview")  # MiniLM's ?mview=pronoun opens the same view here
view = choice(
    slide_row("view", VIEWS, unit="view").segmented_control,
    tr("attention.view"),
    tuple(VIEWS),
    "view",
    catalogue_labels("attention.view_{}"),
)
share_view(view, "mview")
shown = VIEWS[view](layer_view)
if view == "heads":  # what to look for in the head shown
    look_for(layer_view, shown)
if view not in ("pronoun", "roles", "cost"):
    layer_notes(layer_view)
