"""A decoder prefix's attention in one layer: where it looked in the source and in what it had written."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .heatmap import beside, heatmap_spec
from .look import token_labels

PREFIX_KINDS = ("cross", "decoder_self")


def prefix_attention(trace, layer: int, *, titles: dict, axes: dict, value_name: str) -> go.Figure:
    """The trace's cross- and masked self-attention in decoder `layer`, the mean of the heads, as one `beside`
    figure whose rows are the prefix's tokens. titles: kind -> panel title; axes: kind -> (y title, x title),
    for the kinds in PREFIX_KINDS. One figure, not two: a browser draws it far faster (`beside`)."""
    rows = token_labels(trace.target_tokens)
    panels = []
    for kind, columns in zip(PREFIX_KINDS, (trace.source_labels, trace.target_tokens)):
        weights = trace.attention(kind, layer).weights.mean(0)  # (T, keys)
        y_title, x_title = axes[kind]
        panels.append(
            heatmap_spec(
                weights,
                rows,
                token_labels(columns),
                y_title=y_title,
                x_title=x_title,
                value_name=value_name,
                panel_titles=[titles[kind]],
                mask=np.tril(np.ones_like(weights, bool)) if kind == "decoder_self" else None,
            )
        )
    return beside(panels)
