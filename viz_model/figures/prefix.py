"""A decoder prefix's attention in one layer: where it looked in the source and in what it had written."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .heatmap import beside, heatmap_spec
from .heatmap_html import HeatPanel, heatmaps_html
from .look import escape_label, short_label

PREFIX_KINDS = ("cross", "decoder_self")


def _labels(tokens) -> list[str]:
    """ "0:the", "1:cat": position-prefixed and shortened, not escaped (each builder escapes for its own)."""
    return [f"{i}:{short_label(tok)}" for i, tok in enumerate(tokens)]


def _prefix_matrices(trace, layer: int):
    """(kind, weights (T, keys) the mean of the heads with NaN where masked, row labels, column labels)."""
    rows = _labels(trace.target_tokens)
    for kind, columns in zip(PREFIX_KINDS, (trace.source_labels, trace.target_tokens)):
        weights = trace.attention(kind, layer).weights.mean(0).astype(np.float64)  # (T, keys)
        if kind == "decoder_self":
            weights = np.where(np.tril(np.ones_like(weights, bool)), weights, np.nan)
        yield kind, weights, rows, _labels(columns)


def prefix_attention(trace, layer: int, *, titles: dict, axes: dict, value_name: str) -> go.Figure:
    """The trace's cross- and masked self-attention in decoder `layer`, the mean of the heads, as one `beside`
    figure whose rows are the prefix's tokens. titles: kind -> panel title; axes: kind -> (y title, x title),
    for the kinds in PREFIX_KINDS. One figure, not two: a browser draws it far faster (`beside`). The figure
    a download of the node view's attention is drawn from (the page shows `prefix_attention_html`)."""
    panels = []
    for kind, weights, rows, columns in _prefix_matrices(trace, layer):
        y_title, x_title = axes[kind]
        panels.append(
            heatmap_spec(
                np.nan_to_num(weights),
                [escape_label(r) for r in rows],
                [escape_label(c) for c in columns],
                y_title=y_title,
                x_title=x_title,
                value_name=value_name,
                panel_titles=[titles[kind]],
                mask=~np.isnan(weights) if kind == "decoder_self" else None,
            )
        )
    return beside(panels)


def prefix_attention_html(
    trace, layer: int, *, titles: dict, axes: dict, value_name: str, masked_text: str, size: int = 14
) -> str:
    """The same two panels as shaded HTML grids (`heatmaps_html`): what the Beam search node view shows."""
    panels = [
        HeatPanel(weights, rows, columns, titles[kind], *axes[kind])
        for kind, weights, rows, columns in _prefix_matrices(trace, layer)
    ]
    return heatmaps_html(panels, value_name=value_name, masked_text=masked_text, size=size)
