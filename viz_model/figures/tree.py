"""The beam-search tree, drawn from a `viz_model.lessons.search_tree.TreeLayout`."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .look import LOOK, axis_layout, escape_label, margins

# Status -> (colour, marker symbol): colour and shape both differ, so no colour vision is needed to tell
# them apart; the best path is drawn in a fourth colour with thick edges.
TREE_STYLE = {"root": ("#000000", "diamond"), "kept": ("#0072B2", "circle"),
              "finished": ("#009E73", "square"), "pruned": ("#999999", "x")}


BEST_PATH_COLOUR = "#E69F00"


MAX_STEPS_WITH_PROBS = 14    # beyond this many steps, node labels show the token only


def search_tree(layout, *, names: dict[str, str], x_title: str, y_title: str, hover: str,
                height: int | None = None) -> go.Figure:
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
    for best in (False, True):
        xs, ys = [], []
        for parent, child in layout.edges():
            if (parent.best and child.best) == best:
                xs += [parent.x, child.x, np.nan]        # NaN breaks the line between edges
                ys += [parent.y, child.y, np.nan]
        if xs:
            # float32 arrays, like every figure's numbers (react_ready makes the 1-D ones lists when drawn).
            traces.append(go.Scatter(x=np.array(xs, dtype=np.float32), y=np.array(ys, dtype=np.float32),
                                     mode="lines", hoverinfo="skip", meta="edges",
                                     name=escape_label(names["best"]), showlegend=best,
                                     line=dict(color=BEST_PATH_COLOUR if best else "#c4c4c4",
                                               width=5 if best else 1.2), _validate=False))
    for status in ("root", "pruned", "kept", "finished"):
        chosen = [n for n in nodes if n.status == status]
        if not chosen:
            continue
        colour, symbol = TREE_STYLE[status]
        # Long searches leave ~30 px per step: then the token alone (its probability is in the hover box).
        texts = [(escape_label(n.token) if layout.n_steps > MAX_STEPS_WITH_PROBS
                  else f"{escape_label(n.token)}<br>{n.prob:.2f}") if n.token else "" for n in chosen]
        hovers = [hover.format(token=escape_label(n.token) or "·", p=f"{n.prob:.3f}",
                               logp=f"{n.cumulative_log_prob:.3f}", score=f"{n.score:.3f}",
                               status=escape_label(names[status])) for n in chosen]
        show_text = status != "pruned"               # pruned ones: hover only (they fan out tightly)
        traces.append(go.Scatter(
            x=np.array([n.x for n in chosen], dtype=np.float32),
            y=np.array([n.y for n in chosen], dtype=np.float32),
            customdata=np.array([n.id for n in chosen]),
            mode="markers+text" if show_text else "markers", text=texts if show_text else None,
            textposition="top center", textfont=dict(size=12, color="#111111"),
            hovertext=hovers, hovertemplate="%{hovertext}<extra></extra>", meta=f"nodes:{status}",
            name=escape_label(names[status]),
            marker=dict(color=colour, symbol=symbol, size=9 if status == "pruned" else 13,
                        line=dict(color=[BEST_PATH_COLOUR if n.best and status != "root" else "#ffffff"
                                         for n in chosen], width=[3 if n.best else 1 for n in chosen])),
            _validate=False))
    rows = max(layout.n_rows, 1)
    return go.Figure(traces, _validate=False, layout=dict(
        xaxis=axis_layout(x_title, range=[-0.3, layout.n_steps + 0.9], dtick=1, zeroline=False),
        yaxis=axis_layout(y_title, range=[rows - 0.4, -0.8], showticklabels=False, showgrid=False, zeroline=False),
        height=height or int(max(360, min(1600, 56 * rows + 140))),
        margin=margins([], [str(layout.n_steps)], top=40),
        **LOOK, legend=dict(orientation="h", y=1.01, yanchor="bottom"), dragmode="pan"))
