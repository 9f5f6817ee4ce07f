"""The beam-search tree, drawn from a `viz_model.lessons.search_tree.TreeLayout`."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from viz_model.lessons.search_tree import PRUNED_FAN

from .look import (
    BLACK,
    BLUE,
    GREEN,
    INK,
    LIGHT_GREY,
    LOOK,
    MID_GREY,
    ORANGE,
    TEXT_HALO,
    WHITE,
    axis_layout,
    escape_label,
    margins,
    text_width,
)

# Status -> (colour, marker symbol): colour and shape both differ, so no colour vision is needed to tell
# them apart; the best path is drawn in a fourth colour with thick edges.
TREE_STYLE = {
    "root": (BLACK, "diamond"),
    "kept": (BLUE, "circle"),
    "finished": (GREEN, "square"),
    "pruned": (MID_GREY, "x"),
}


BEST_PATH_COLOUR = ORANGE


MAX_STEPS_WITH_PROBS = 14  # beyond this many steps, node labels show the token only

# Label geometry: the labels of kept and finished nodes never overlap each other, nor a pruned node's marker,
# at any plot width of at least TREE_PLOT_WIDTH px (the main column at 1400 × 900, and at 150 % zoom, less the
# figure's margins): each label is at most one step wide, less a gap (tokens shortened in the middle to fit),
# and each row tall enough for a label above its marker and the pruned fan below it (`tree_geometry`).
TREE_PLOT_WIDTH = 640
LABEL_SIZE = 12  # px, the labels' font size unless the caller asks for more (presentation mode)
LINE_HEIGHT = 1.25  # em
LABEL_GAP = 6  # px between two labels, or a label and a marker
MARKER, PRUNED_MARKER = 13, 9
X_RANGE_PAD = (0.3, 0.9)  # steps of room left of the root and right of the last step
Y_RANGE_PAD = (0.4, 0.8)  # rows of room below the last row and above the first


@dataclass(frozen=True)
class TreeGeometry:
    row_px: float  # px between two rows
    step_px: float  # px between two steps, at TREE_PLOT_WIDTH
    with_probs: bool  # labels carry the probability on a second line
    labels: dict  # node id -> label lines (escaped), for the nodes that show a label
    size: int  # font size, px

    def label_height(self, lines: int) -> float:
        return lines * self.size * LINE_HEIGHT


def probability_label(p: float) -> str:
    """A node's probability in two decimals, or "<0.01" where two decimals would print a misleading 0.00."""
    return f"{p:.2f}" if p >= 0.005 else "<0.01"


def _labelled(node) -> bool:
    return node.status in ("kept", "finished") and bool(node.token)


def _fit(token: str, room: float, size: float) -> str:
    """`token`, or its start and end around an ellipsis, or its first character, or nothing (the hover box
    still names it): the longest of these at most `room` px wide."""
    shortened = [token[: (k + 1) // 2] + "…" + token[len(token) - k // 2 :] for k in range(len(token) - 1, 0, -1)]
    for label in [token, *shortened, token[:1]]:
        if text_width(escape_label(label), size) <= room:
            return label
    return ""


def tree_geometry(layout, size: int = LABEL_SIZE, plot_width: float = TREE_PLOT_WIDTH) -> TreeGeometry:
    """Row height, step width and each node's label lines, chosen so that no two labels overlap."""
    step_px = plot_width / (layout.n_steps + sum(X_RANGE_PAD))
    room = step_px - LABEL_GAP
    with_probs = layout.n_steps <= MAX_STEPS_WITH_PROBS and text_width("<0.01", size) <= room
    labels = {}
    for n in layout.nodes:
        if _labelled(n):
            token = escape_label(_fit(n.token, room, size))
            if token:
                labels[n.id] = [token, probability_label(n.prob)] if with_probs else [token]
    label_h = (2 if with_probs else 1) * size * LINE_HEIGHT
    # A row holds, from its marker up: half a marker, the label, a gap; the rows above a pruned fan also
    # hold the fan (PRUNED_FAN of a row) and half a pruned marker below the parent's row.
    row_px = max(56.0, (MARKER / 2 + label_h + LABEL_GAP + PRUNED_MARKER / 2) / (1 - PRUNED_FAN))
    return TreeGeometry(row_px, step_px, with_probs, labels, size)


def label_boxes(layout, geometry: TreeGeometry, plot_width: float = TREE_PLOT_WIDTH) -> list[tuple]:
    """(node id, left, right, top, bottom) in px of each label as plotly places it ("top center": centred
    above the marker), for a plot `plot_width` px wide; y grows downwards."""
    step_px = plot_width / (layout.n_steps + sum(X_RANGE_PAD))
    boxes = []
    for n in layout.nodes:
        lines = geometry.labels.get(n.id)
        if not lines:
            continue
        width = max(text_width(line, geometry.size) for line in lines)
        cx, cy = (n.x + X_RANGE_PAD[0]) * step_px, (n.y + Y_RANGE_PAD[1]) * geometry.row_px
        bottom = cy - MARKER / 2
        boxes.append((n.id, cx - width / 2, cx + width / 2, bottom - geometry.label_height(len(lines)), bottom))
    return boxes


def marker_boxes(layout, geometry: TreeGeometry, plot_width: float = TREE_PLOT_WIDTH) -> list[tuple]:
    """(node id, left, right, top, bottom) in px of each node's marker."""
    step_px = plot_width / (layout.n_steps + sum(X_RANGE_PAD))
    out = []
    for n in layout.nodes:
        r = (PRUNED_MARKER if n.status == "pruned" else MARKER) / 2
        cx, cy = (n.x + X_RANGE_PAD[0]) * step_px, (n.y + Y_RANGE_PAD[1]) * geometry.row_px
        out.append((n.id, cx - r, cx + r, cy - r, cy + r))
    return out


def search_tree(
    layout, *, names: dict[str, str], x_title: str, y_title: str, hover: str, size: int = LABEL_SIZE
) -> go.Figure:
    """A beam-search tree from a `search_tree.TreeLayout`: edges, then one node trace per status.

    names: legend text for "root", "kept", "pruned", "finished", "best". hover: a template with
    {token}, {p}, {logp}, {score}, {status} placeholders for the node's hover box. Node traces carry
    meta "nodes:<status>" and customdata = node ids, so a test can count and identify the nodes drawn.
    Tokens come from the model's vocabulary but are still escaped.

    Built without plotly.py's validation (`_validate=False`, plotly.py's own switch, though a private one:
    plotly is pinned): checking each node's text, hover text and outline colour one by one is most of the
    build, paid on every new sentence of the Beam search page. A test rebuilds the figure
    with validation on (it must pass and come out the same), so a misspelt property still fails there.
    """
    traces = []
    nodes = layout.nodes
    geometry = tree_geometry(layout, size)
    for best in (False, True):
        xs, ys = [], []
        for parent, child in layout.edges():
            if (parent.best and child.best) == best:
                xs += [parent.x, child.x, np.nan]  # NaN breaks the line between edges
                ys += [parent.y, child.y, np.nan]
        if xs:
            # float32 arrays, like every figure's numbers (react_ready makes the 1-D ones lists when drawn).
            traces.append(
                go.Scatter(
                    x=np.array(xs, dtype=np.float32),
                    y=np.array(ys, dtype=np.float32),
                    mode="lines",
                    hoverinfo="skip",
                    meta="edges",
                    name=escape_label(names["best"]),
                    showlegend=best,
                    line=dict(color=BEST_PATH_COLOUR if best else LIGHT_GREY, width=5 if best else 1.2),
                    _validate=False,
                )
            )
    for status in ("root", "pruned", "kept", "finished"):
        chosen = [n for n in nodes if n.status == status]
        if not chosen:
            continue
        colour, symbol = TREE_STYLE[status]
        # Narrow steps: the token alone (its probability is in the hover box), shortened to fit if need be.
        texts = ["<br>".join(geometry.labels.get(n.id, [""])) for n in chosen]
        hovers = [
            hover.format(
                token=escape_label(n.token) or "·",
                p=f"{n.prob:.3f}",
                logp=f"{n.cumulative_log_prob:.3f}",
                score=f"{n.score:.3f}",
                status=escape_label(names[status]),
            )
            for n in chosen
        ]
        show_text = status != "pruned"  # pruned ones: hover only (they fan out tightly)
        traces.append(
            go.Scatter(
                x=np.array([n.x for n in chosen], dtype=np.float32),
                y=np.array([n.y for n in chosen], dtype=np.float32),
                customdata=np.array([n.id for n in chosen]),
                mode="markers+text" if show_text else "markers",
                text=texts if show_text else None,
                textposition="top center",
                # A halo of the paper's colour: an edge that passes behind a label does not cross out its token.
                textfont=dict(size=size, color=INK, shadow=TEXT_HALO),
                hovertext=hovers,
                hovertemplate="%{hovertext}<extra></extra>",
                meta=f"nodes:{status}",
                name=escape_label(names[status]),
                marker=dict(
                    color=colour,
                    symbol=symbol,
                    size=PRUNED_MARKER if status == "pruned" else MARKER,
                    line=dict(
                        color=[BEST_PATH_COLOUR if n.best and status != "root" else WHITE for n in chosen],
                        width=[3 if n.best else 1 for n in chosen],
                    ),
                ),
                _validate=False,
            )
        )
    rows = max(layout.n_rows, 1)
    margin = margins([], [str(layout.n_steps)], top=40)
    # Rows of geometry.row_px: the tree grows downwards with the beam, however many rows (the page scrolls).
    plot_height = (rows - 1 + sum(Y_RANGE_PAD)) * geometry.row_px
    return go.Figure(
        traces,
        _validate=False,
        layout=dict(
            xaxis=axis_layout(
                x_title, range=[-X_RANGE_PAD[0], layout.n_steps + X_RANGE_PAD[1]], dtick=1, zeroline=False
            ),
            yaxis=axis_layout(
                y_title,
                range=[rows - 1 + Y_RANGE_PAD[0], -Y_RANGE_PAD[1]],
                showticklabels=False,
                showgrid=False,
                zeroline=False,
            ),
            height=math.ceil(max(360, plot_height + margin["t"] + margin["b"])),
            margin=margin,
            **LOOK,
            legend=dict(orientation="h", y=1.01, yanchor="bottom"),
            dragmode="pan",
        ),
    )
