"""Bars, lines, points in a plane or a space, and arrows for how attention moves a word's vector."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .look import (
    BACKGROUND_COLOUR,
    BAR_COLOUR,
    DARK,
    DASHES,
    HIGHLIGHT_COLOUR,
    LOOK,
    MID_GREY,
    SERIES_COLOURS,
    arrow,
    axis_layout,
    escape_label,
    legend_on_top,
    margins,
    number_labels,
)


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    x_title: str,
    y_title: str,
    value_format: str = ".3f",
    highlight: Sequence[bool] | None = None,
    horizontal: bool = True,
    height: int | None = None,
) -> go.Figure:
    """Bars in the given order (the first label at the top when horizontal)."""
    values = np.asarray(values, dtype=np.float32)
    colours = [HIGHLIGHT_COLOUR if h else BAR_COLOUR for h in highlight] if highlight is not None else BAR_COLOUR
    labels = list(labels)
    if horizontal:
        trace = go.Bar(
            x=values,
            y=labels,
            orientation="h",
            marker_color=colours,
            texttemplate=f"%{{x:{value_format}}}",
            textposition="outside",
            hovertemplate=f"%{{y}}: %{{x:{value_format}}}<extra></extra>",
        )
    else:
        trace = go.Bar(
            x=labels,
            y=values,
            marker_color=colours,
            texttemplate=f"%{{y:{value_format}}}",
            textposition="outside",
            hovertemplate=f"%{{x}}: %{{y:{value_format}}}<extra></extra>",
        )
    category = dict(autorange="reversed", type="category") if horizontal else dict(type="category")
    # Room past the longest bar for its value, written outside it (else plotly clips that label).
    low, high = float(np.nanmin(np.append(values, 0))), float(np.nanmax(np.append(values, 0)))
    value_range = dict(range=[low * 1.25, high * 1.25]) if high > low else {}
    numbers = number_labels(np.append(values, 0))
    x_angle = 0 if horizontal or len(labels) <= 8 else -45
    if not horizontal:
        category["tickangle"] = x_angle
    margin = margins(labels, numbers, right=30) if horizontal else margins(numbers, labels, x_angle)
    return go.Figure(
        trace,
        layout=dict(
            height=height or (max(220, 34 * len(labels) + 100) if horizontal else 380),
            margin=margin,
            **LOOK,
            xaxis=axis_layout(x_title, **(value_range if horizontal else category)),
            yaxis=axis_layout(y_title, **(category if horizontal else value_range)),
        ),
    )


def line_chart(
    x,
    series: dict[str, Sequence[float]],
    *,
    x_title: str,
    y_title: str,
    marks: dict[str, tuple[Sequence[float], Sequence[float], Sequence[str]]] | None = None,
    marks_name: str | None = None,
    points: dict[str, tuple[Sequence[float], Sequence[float]]] | None = None,
    points_name: str = "",
    point_size: int = 6,
    height: int = 420,
    dashed: bool = False,
) -> go.Figure:
    """One line per series over x (series names are legend entries). `dashed`: each line thinner than the
    one before and with its own dash pattern, so curves that coincide all stay visible. `marks` (same keys
    as `series`) adds, for a series, marked points (x, y, hover labels) drawn over its line in the same
    colour: e.g. the positions of the current sentence on a positional-encoding curve. Mark traces carry
    meta "marks". `points` (same keys) adds small dots (x, y) of the line's colour that come and go with
    it, e.g. the whole positions on a curve sampled finely between them; their traces carry meta "points"
    and are named "<series> · <points_name>"."""
    # Plain dicts, built unvalidated: plotly.py's validation of a few hundred points per curve cost more
    # than everything else on the Positional encoding page (the figure is what plotly.py would build).
    traces = []
    first_marked = next((name for name in series if marks and name in marks), None)  # its dots take the legend
    for i, (name, y) in enumerate(series.items()):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        traces.append(
            dict(
                type="scatter",
                x=np.asarray(x, dtype=np.float32),
                y=np.asarray(y, dtype=np.float32),
                mode="lines",
                name=escape_label(name),
                line=dict(color=colour, width=max(2, 7 - 2 * i), dash=DASHES[i % len(DASHES)])
                if dashed
                else dict(color=colour, width=2),
                legendgroup=str(i),
                # ~: no trailing zeros (x = 3 reads "3", a point between positions "2.25")
                hovertemplate=f"{escape_label(name)}<br>%{{x:.3~f}}: %{{y:.4f}}<extra></extra>",
            )
        )
        if points and name in points:
            px, py = points[name]
            traces.append(
                dict(
                    type="scatter",
                    x=np.asarray(px, dtype=np.float32),
                    y=np.asarray(py, dtype=np.float32),
                    mode="markers",
                    meta="points",
                    name=escape_label(f"{name} · {points_name}" if points_name else name),
                    legendgroup=str(i),  # hidden and shown with its line
                    showlegend=False,
                    marker=dict(color=colour, size=point_size, symbol="circle"),
                    hovertemplate=f"{escape_label(name)}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
                )
            )
        if marks and name in marks:
            mx, my, labels = marks[name]
            traces.append(
                dict(
                    type="scatter",
                    x=np.asarray(mx, dtype=np.float32),
                    y=np.asarray(my, dtype=np.float32),
                    mode="markers",
                    # One legend entry for the dots of every curve, after the curves: clicking it shows or
                    # hides them all (the dots take their curve's colour; hover names each point).
                    legendgroup="marks",
                    legendrank=1001,
                    meta="marks",
                    name=escape_label(marks_name or name),
                    showlegend=name == first_marked,
                    hovertext=[escape_label(s) for s in labels],
                    marker=dict(color=colour, size=9, symbol="circle", line=dict(color=DARK, width=1.5)),
                    hovertemplate="%{hovertext}: %{y:.4f}<extra></extra>",
                )
            )
    all_y = np.concatenate([np.asarray(y, dtype=np.float64).ravel() for y in series.values()] or [np.zeros(1)])
    layout = dict(
        xaxis=axis_layout(x_title),
        yaxis=axis_layout(y_title),
        height=height,
        margin=margins(number_labels(all_y), number_labels(x)),
        **LOOK,
        legend=legend_on_top(height),
    )
    return go.Figure(dict(data=traces, layout=layout), _validate=False)


def _grouped(labels, series, *, y_title: str, height: int, values_shown: bool, headroom: float) -> dict:
    """Bars side by side for each label: `series` is (name, values, colour) in order. The figure's dict."""
    traces = [
        dict(type="bar", x=labels, y=np.asarray(values, dtype=np.float32), name=escape_label(name),
             marker_color=colour, hovertemplate=f"{escape_label(name)}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
             **(dict(text=[f"{v:.2f}" if v >= 0.005 else "" for v in values], textposition="outside")
                if values_shown else {}))
        for name, values, colour in series
    ]  # fmt: skip
    top = max([max(values, default=0.0) for _, values, _ in series] + [0.01])
    angle = -45 if len(labels) > 8 else 0
    layout = dict(
        barmode="group",
        height=height,
        margin=margins(number_labels([0, top]), labels, angle),
        **LOOK,
        xaxis=axis_layout("", type="category", tickangle=angle),
        yaxis=axis_layout(y_title, range=[0, top * headroom]),
        legend=legend_on_top(height),
    )
    return dict(data=traces, layout=layout)


def cut_bars(
    labels: Sequence[str],
    before: Sequence[float],
    after: Sequence[float],
    kept: int,
    *,
    names: tuple[str, str],
    y_title: str,
    cut_label: str,
    height: int = 380,
) -> go.Figure:
    """A next-token distribution before and after sampling cuts it: two bars per token (most probable first),
    `before` grey and `after` in colour, and a dashed line after the first `kept` tokens, which are the ones
    that can still be drawn (temperature keeps the order, top-k and top-p keep a prefix of it)."""
    labels = [escape_label(x) for x in labels]
    series = [(names[0], before, MID_GREY), (names[1], after, BAR_COLOUR)]
    figure = _grouped(labels, series, y_title=y_title, height=height, values_shown=True, headroom=1.2)
    if 0 < kept < len(labels):
        figure["layout"]["shapes"] = [
            dict(type="line", xref="x", yref="paper", x0=kept - 0.5, x1=kept - 0.5, y0=0, y1=1,
                 line=dict(color=DARK, width=2, dash="dash"))
        ]  # fmt: skip
        figure["layout"]["annotations"] = [
            dict(xref="x", yref="paper", x=kept - 0.5, y=0.98, text=escape_label(cut_label), showarrow=False,
                 xanchor="left", yanchor="top", xshift=4, font=dict(color=DARK))
        ]  # fmt: skip
    return go.Figure(figure, _validate=False)


def grouped_bars(
    labels: Sequence[str], series: dict[str, Sequence[float]], *, y_title: str, height: int = 380
) -> go.Figure:
    """Several values per label side by side (one colour per series, in the palette's order)."""
    coloured = [
        (name, values, SERIES_COLOURS[i % len(SERIES_COLOURS)]) for i, (name, values) in enumerate(series.items())
    ]
    labels = [escape_label(x) for x in labels]
    figure = _grouped(labels, coloured, y_title=y_title, height=height, values_shown=False, headroom=1.1)
    return go.Figure(figure, _validate=False)


def scatter_map(
    coords: np.ndarray,
    labels: Sequence[str],
    highlight: np.ndarray,
    *,
    axis_titles: Sequence[str],
    others_name: str,
    highlight_name: str,
    highlight_labels: Sequence[str] | None = None,
    height: int = 560,
) -> go.Figure:
    """Points in 2-D or 3-D (coords (N, 2|3)); `highlight` (N,) bool marks the sentence's words.

    Every point's hover shows its (escaped) label; highlighted points are also written on the map.
    """
    coords = np.asarray(coords, dtype=np.float32)
    highlight = np.asarray(highlight, dtype=bool)
    labels = np.array([escape_label(s) for s in labels], dtype=object)
    three_d = coords.shape[1] == 3
    traces = []
    for chosen, name, style in (
        (~highlight, others_name, dict(size=4, color=BACKGROUND_COLOUR, opacity=0.5)),
        (highlight, highlight_name, dict(size=9, color=HIGHLIGHT_COLOUR)),
    ):
        if not chosen.any():
            continue
        xyz = coords[chosen]
        text = labels[chosen]
        common = dict(
            name=escape_label(name), hovertext=text, hovertemplate="%{hovertext}<extra></extra>", marker=style
        )
        if chosen is highlight:
            common.update(mode="markers+text", text=text, textposition="top center")
        else:
            common.update(mode="markers")
        if three_d:
            traces.append(go.Scatter3d(x=xyz[:, 0], y=xyz[:, 1], z=xyz[:, 2], **common))
        else:
            traces.append(go.Scatter(x=xyz[:, 0], y=xyz[:, 1], **common))
    axes = [axis_layout(a) for a in axis_titles]
    if three_d:  # 3-D scene axes have no automargin
        layout = dict(
            scene={
                name: {k: v for k, v in axis.items() if k != "automargin"}
                for name, axis in zip(("xaxis", "yaxis", "zaxis"), axes)
            }
        )
        # Plotly's default eye (1.25, 1.25, 1.25) puts the nearest corner's labels outside the figure.
        layout["scene"]["camera"] = dict(eye=dict(x=1.6, y=1.6, z=1.1))
    else:
        layout = dict(xaxis=axes[0], yaxis=axes[1])
    margin = (
        dict(l=10, r=10, t=30, b=10) if three_d else margins(number_labels(coords[:, 1]), number_labels(coords[:, 0]))
    )
    return go.Figure(
        traces,
        layout=dict(height=height, margin=margin, **LOOK, legend=legend_on_top(height), **layout),
    )


def vector_moves(
    points: dict[str, Sequence[float]],
    moves: Sequence[tuple[str, Sequence[float], Sequence[float]]],
    *,
    x_title: str,
    y_title: str,
    height: int = 520,
) -> go.Figure:
    """Words as points in a 2-D feature plane and arrows for how attention moves some of them.

    points: word -> (x, y); moves: (label, from (x, y), to (x, y)). Arrow k has colour SERIES_COLOURS[k+1];
    its end point is a marker named `label` (trace meta "move") so the figure's numbers can be read back.
    """
    traces, arrows = [], []
    # Words at the same point share one label ("and, an"), or their labels would print over each other.
    groups: dict[tuple[float, float], list[str]] = {}
    for word, point in points.items():
        groups.setdefault((float(point[0]), float(point[1])), []).append(str(word))
    words = [", ".join(g) for g in groups.values()]
    xy = np.array(list(groups), dtype=np.float32).reshape(-1, 2)
    traces.append(
        go.Scatter(
            x=xy[:, 0],
            y=xy[:, 1],
            mode="markers+text",
            meta="words",
            text=[escape_label(w) for w in words],
            textposition="top center",
            marker=dict(size=11, color=SERIES_COLOURS[0]),
            showlegend=False,
            hovertemplate="%{text}: (%{x:.2f}, %{y:.2f})<extra></extra>",
        )
    )
    for k, (label, start, end) in enumerate(moves):
        colour = SERIES_COLOURS[(k + 1) % len(SERIES_COLOURS)]
        arrows.append(arrow(start, end, colour, head=3, size=1.4, width=2.5))
        traces.append(
            go.Scatter(
                x=[float(end[0])],
                y=[float(end[1])],
                mode="markers",
                meta="move",
                name=escape_label(label),
                marker=dict(size=12, color=colour, symbol="diamond"),
                hovertemplate=f"{escape_label(label)}: (%{{x:.2f}}, %{{y:.2f}})<extra></extra>",
            )
        )
    span = np.concatenate([xy, np.array([m[2] for m in moves], dtype=np.float32).reshape(-1, 2)]) if moves else xy
    lo, hi = float(min(0.0, span.min())), float(span.max()) if span.size else 1.0
    pad = 0.15 * max(hi - lo, 1.0)
    span_settings = dict(range=[lo - pad, hi + pad], zerolinecolor=MID_GREY)
    span_labels = number_labels([lo - pad, hi + pad])  # both axes span the same range
    return go.Figure(
        traces,
        layout=dict(
            xaxis=axis_layout(x_title, **span_settings),
            yaxis=axis_layout(y_title, **span_settings, scaleanchor="x", scaleratio=1),
            annotations=arrows,
            height=height,
            margin=margins(span_labels, span_labels),
            **LOOK,
            legend=legend_on_top(height),
        ),
    )
