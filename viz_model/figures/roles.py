"""The grid of heads coloured by role: one square a head (layers down, heads across), its role and score
written in it, the rule on hover. Each square carries (layer, head) so a click can open that head."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from .look import DARK, LOOK, ROLE_COLOURS, axis_layout, escape_label, legend_on_top


@dataclass(frozen=True)
class RoleCell:
    layer: int  # 0-based
    head: int  # 0-based
    role: str  # a key of ROLE_COLOURS
    score: float  # in [0, 1]
    hover: str  # what the square says on hover (already in the interface language)


CELL_PX = 86  # a square's side: room for a role's name and its score on two lines


def role_grid(
    cells: Sequence[RoleCell], role_labels: dict[str, str], *, y_title: str, x_title: str, n_layers: int, n_heads: int
) -> go.Figure:
    """One scatter trace per role present (so the legend names the colours), square markers on an integer
    grid: layer i at y = i (first layer on top), head h at x = h. customdata = (layer, head) of each square."""

    # Twelve heads across leave a square too narrow for "previous token" on one line: one word a line.
    def cell_label(role: str) -> str:
        label = escape_label(role_labels.get(role, role))
        return label.replace(" ", "<br>") if n_heads > 6 else label

    traces = []
    for role in ROLE_COLOURS:
        chosen = [c for c in cells if c.role == role]
        if not chosen:
            continue
        traces.append(
            go.Scatter(
                x=[c.head + 1 for c in chosen],
                y=[c.layer + 1 for c in chosen],
                mode="markers+text",
                name=role_labels.get(role, role),
                marker=dict(symbol="square", size=CELL_PX - 6, color=ROLE_COLOURS[role], line=dict(width=0)),
                # A head with no role shows no number: how near it came to one is on hover.
                text=[cell_label(role) + ("" if role == "unlabelled" else f"<br>{c.score:.2f}") for c in chosen],
                textfont=dict(color=DARK, size=12),
                customdata=[[c.layer, c.head] for c in chosen],
                hovertext=[escape_label(c.hover) for c in chosen],
                hovertemplate="%{hovertext}<extra></extra>",
            )
        )
    height = CELL_PX * n_layers + 150
    fig = go.Figure(traces)
    fig.update_layout(
        **LOOK,
        height=height,
        width=None,
        margin=dict(l=70, r=20, t=80, b=50),
        legend=legend_on_top(height),
        clickmode="event+select",
        dragmode=False,
        xaxis=axis_layout(x_title, tickvals=list(range(1, n_heads + 1)), range=[0.4, n_heads + 0.6], showgrid=False),
        yaxis=axis_layout(y_title, tickvals=list(range(1, n_layers + 1)), range=[n_layers + 0.6, 0.4], showgrid=False),
    )
    return fig
