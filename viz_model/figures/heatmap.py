"""The one heatmap helper every matrix of the app goes through (after d2l's show_heatmaps), and what reads
or marks its panels; a matrix as a labelled table for st.dataframe."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .look import (
    GREY,
    INK,
    LABEL_BACKDROP,
    LOOK,
    MASKED_COLOUR,
    SIGNED_SCALE,
    TITLE_ROOM,
    TRANSPARENT,
    WEIGHT_SCALE,
    colour_range,
    escape_label,
    margins,
    values_fit,
)


def _as_grid(Z) -> np.ndarray:
    """(rows, cols, n, m) from (n, m), (panels, n, m) laid out in one row, or (rows, cols, n, m)."""
    Z = np.asarray(Z, dtype=np.float32)
    if Z.ndim == 2:
        return Z[None, None]
    if Z.ndim == 3:
        return Z[None]
    if Z.ndim == 4:
        return Z
    raise ValueError(f"heatmaps expects (n, m), (panels, n, m) or (rows, cols, n, m); got shape {Z.shape}")


# px a column needs for its label at 45° (its neighbour clears it by about a line); a 2-panel heatmap on a
# 1400-px projector has ~360 px a panel, so past ~16 columns across the figure labels stand upright instead.
SLANTED_COLUMNS = 16
EVERY_TOKEN_COLUMNS = 32  # columns across a figure that still leave each label a line's height at 90°


def column_label_angle(columns: int, panels_across: int = 1) -> int:
    """Column labels level for a few columns, at 45° for more, at 90° once the figure has more than
    SLANTED_COLUMNS columns across: two neighbours at 90° need only a line's height between them, at 45°
    about 1.4 lines, so standing labels never run into each other where slanted ones would."""
    if columns <= 6:
        return 0
    return -90 if columns * panels_across > SLANTED_COLUMNS else -45


def names_every_token(rows: int, columns_across: int) -> bool:
    """Whether the axes name every token (dtick 1; plotly would skip some): while the columns across the figure
    leave a line's height for each label. Past that plotly thins them itself, keeping about a line between the
    labels it shows."""
    return rows <= 25 and columns_across <= EVERY_TOKEN_COLUMNS


INDEX_TICKS = 16  # an index axis (dimensions, positions) is labelled at most about this many times a figure


def index_tick_step(labels: Sequence[str], panels_across: int = 1) -> int | None:
    """For labels that count up one by one ("0", "1", … "255": dimensions, positions) and are too many to
    name each, a round step (2, 4, 8, 16, …) that labels at most ~INDEX_TICKS of them across the figure
    (`panels_across` panels side by side share the width). 0, 16, 32, … reads better than the ~60 numbers
    plotly would squeeze in, and is a quarter of the labels to redraw on every rerun (on Step by step they
    were a third of what a new sentence redrew). None for any other labels, and for few enough to name each."""
    if len(labels) * panels_across <= EVERY_TOKEN_COLUMNS or not all(label.isdigit() for label in labels):
        return None
    first = int(labels[0])
    if [int(label) for label in labels] != list(range(first, first + len(labels))):
        return None
    step = 2
    while len(labels) * panels_across / step > INDEX_TICKS:
        step *= 2
    return step


def heatmaps(*args, **options) -> go.Figure:
    """The one heatmap helper: `heatmap_spec`'s figure (its arguments and docstring)."""
    # Built without plotly.py's validation (its own switch, as figures/tree.py and line_chart use it): checking
    # every cell array and label list was ~7 ms of each rerun that draws a heatmap, the Attention page's
    # largest cost after the model. tests/test_figures.py rebuilds these figures validated and requires the
    # same JSON, so a misspelt property still fails a test.
    return go.Figure(heatmap_spec(*args, **options), _validate=False)


def heatmap_spec(
    Z,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    y_title: str,
    x_title: str,
    value_name: str,
    panel_titles: Sequence[str] | None = None,
    signed: bool = False,
    mask: np.ndarray | None = None,
    masked_text: str = "masked",
    show_values: bool | None = None,
    decimals: int = 2,
    zrange: tuple[float, float] | None = None,
    height: int | None = None,
    tick_labels: bool = True,
    title: str | None = None,
    compact: bool = False,
) -> dict:
    """The plotly JSON (data and layout) of the one heatmap helper (after d2l's show_heatmaps): a grid of
    matrices sharing one colour scale.

    Z: (n, m), (panels, n, m) or (rows, cols, n, m); matrix rows are queries (y, top to bottom), columns
    keys (x). Labels are used as given (pass `token_labels(...)` for tokens). `mask` (n, m) is True where a
    query may look at a key; other cells are drawn grey, marked ×, and hover says `masked_text`.
    `panel_titles` run row by row over the grid. Returns a figure whose k-th heatmap trace with a colour
    axis is panel k (masked overlays come after their panel and have no colour axis). `show_values` (numbers
    in the cells) defaults to `values_fit`.
    """
    grid = _as_grid(Z)
    R, C, n, m = grid.shape
    if len(row_labels) != n or len(col_labels) != m:
        raise ValueError(
            f"{n}×{m} matrices need {n} row and {m} column labels, got {len(row_labels)} and {len(col_labels)}"
        )
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (n, m):
            raise ValueError(f"mask shape {mask.shape} differs from the matrices' {(n, m)}")
        grid = np.where(mask[None, None], grid, np.float32("nan"))
    if show_values is None:
        show_values = values_fit(n, m, panels_across=C, panels=R * C)
    titles = [escape_label(p) for p in panel_titles] if panel_titles is not None else None
    rows, cols = list(row_labels), list(col_labels)
    hover = (
        f"{escape_label(y_title)}: %{{y}}<br>{escape_label(x_title)}: %{{x}}<br>"
        f"{escape_label(value_name)}: %{{z:.{max(decimals, 4)}f}}<extra></extra>"
    )
    masked_hover = (
        f"{escape_label(y_title)}: %{{y}}<br>{escape_label(x_title)}: %{{x}}<br>"
        f"{escape_label(masked_text)}<extra></extra>"
    )
    gap = 1 if n * m <= 900 else 0
    every_token = tick_labels and names_every_token(n, m * C)
    column_step = index_tick_step(cols, C)  # e.g. every 16th of 256 dimensions, level
    shown_cols = cols[::column_step] if column_step else cols
    # The layout is written as one dict, not through make_subplots and update_* calls: each update walks
    # plotly's property tree, which would be most of a page's rerun; one dict is one validation pass.
    h_space = 0.04 if C > 1 else 0.02
    v_space = min(0.12, 0.3 / R) if R > 1 else 0.08
    width, tall = (1 - h_space * (C - 1)) / C, (1 - v_space * (R - 1)) / R
    # Margins from the labels (see text_width), not plotly's automargin.
    x_angle = 0 if column_step else column_label_angle(m, C)
    margin = margins(
        rows if tick_labels else [], shown_cols if tick_labels else [], x_angle, top=60 if titles or title else 30
    )
    cmin, cmax = zrange if zrange is not None else colour_range(grid, signed)
    colour_bar = dict(
        title=dict(text=escape_label(value_name), **(dict(side="right") if compact else {})),
        thickness=12 if compact else 14,
        outlinewidth=0,
        # A panel of a row or two is about 100 px tall: plotly's five ticks would write over each other.
        **(dict(nticks=3) if R == 1 and n <= 2 else {}),
    )
    traces, annotations = [], []
    layout = {
        "coloraxis": dict(
            colorscale=SIGNED_SCALE if signed else WEIGHT_SCALE, cmin=cmin, cmax=cmax, colorbar=colour_bar
        )
    }  # one colour axis: one scale for all panels
    for r in range(R):
        for c in range(C):
            k = r * C + c + 1  # plotly's subplot number, row by row
            suffix = "" if k == 1 else str(k)
            x0, y1 = c * (width + h_space), 1 - r * (tall + v_space)
            layout[f"xaxis{suffix}"] = dict(
                domain=[max(0.0, x0), min(1.0, x0 + width)],
                anchor=f"y{suffix}",
                type="category",
                ticks="",
                automargin=False,
                tickangle=x_angle,
                showticklabels=tick_labels,
                **(dict(dtick=1) if every_token else dict(tick0=0, dtick=column_step) if column_step else {}),
                **(dict(title=dict(text=escape_label(x_title))) if r == R - 1 and C == 1 else {}),
            )
            layout[f"yaxis{suffix}"] = dict(
                domain=[max(0.0, y1 - tall), min(1.0, y1)],
                anchor=f"x{suffix}",
                type="category",
                ticks="",
                automargin=False,
                autorange="reversed",
                showticklabels=tick_labels and c == 0,  # row labels once, on the left
                **(dict(dtick=1) if every_token else {}),
                **(dict(title=dict(text=escape_label(y_title))) if c == 0 and R == 1 else {}),
            )
            if titles is not None and k <= len(titles):
                annotations.append(
                    dict(
                        text=titles[k - 1],
                        x=x0 + width / 2,
                        y=y1,
                        xref="paper",
                        yref="paper",
                        xanchor="center",
                        yanchor="bottom",
                        showarrow=False,
                        font=dict(size=13),
                    )
                )
            cell = dict(
                type="heatmap",
                x=cols,
                y=rows,
                z=np.array(grid[r, c]),  # a copy: unvalidated, the figure would hold a view of the caller's array
                coloraxis="coloraxis",
                hovertemplate=hover,
                hoverongaps=False,
                xgap=gap,
                ygap=gap,
                xaxis=f"x{suffix}",
                yaxis=f"y{suffix}",
            )
            if show_values:
                cell.update(texttemplate=f"%{{z:.{decimals}f}}", textfont=dict(size=11))
            traces.append(cell)
            if mask is not None and not mask.all():
                overlay = np.where(mask, np.float32("nan"), np.float32(1))
                extra = (
                    dict(text=np.where(mask, "", "×"), texttemplate="%{text}", textfont=dict(color=GREY))
                    if R * C <= 4 and n * m <= 1600
                    else {}
                )
                traces.append(
                    dict(
                        type="heatmap",
                        x=cols,
                        y=rows,
                        z=overlay,
                        showscale=False,
                        hoverongaps=False,
                        colorscale=[[0, MASKED_COLOUR], [1, MASKED_COLOUR]],
                        hovertemplate=masked_hover,
                        xgap=gap,
                        ygap=gap,
                        xaxis=f"x{suffix}",
                        yaxis=f"y{suffix}",
                        **extra,
                    )
                )
    if C > 1:  # one x title under the whole row: C of them overlap once the panels are narrow (150 % zoom)
        annotations.append(
            dict(
                text=escape_label(x_title),
                x=0.5,
                y=0,
                xref="paper",
                yref="paper",
                yanchor="top",
                yshift=-(margin["b"] - TITLE_ROOM - 1),
                showarrow=False,
                font=dict(size=13 if titles else 15),
            )
        )
    if R > 1:  # one y title beside the whole grid: a row of panels is shorter than the title (the grid view)
        annotations.append(
            dict(
                text=escape_label(y_title),
                x=0,
                y=0.5,
                xref="paper",
                yref="paper",
                xanchor="left",
                xshift=-(margin["l"] - 1),
                textangle=-90,
                showarrow=False,
                font=dict(size=15),
            )
        )
    panel_height = max(150, min(640, 30 * n + 150)) if R * C <= 4 else max(200, min(400, 18 * n + 110))
    layout.update(
        height=height or int(panel_height * R + 60),
        **(dict(annotations=annotations) if annotations else {}),
        margin=margin,
        **LOOK,
        **(dict(title=dict(text=escape_label(title))) if title else {}),
    )
    return dict(data=traces, layout=layout)


def beside(panels: Sequence[go.Figure | dict], gap: float = 0.05) -> go.Figure:
    """One-panel `heatmaps` figures that share their rows (the same queries), side by side in one figure: each
    panel as wide as its columns, one colour scale over all of them, row labels once on the left. A decoder
    row's cross- and self-attention are one chart this way: a browser draws one figure far faster than two
    (every chart pays plotly's layout and font measuring once). A panel is a figure or its `heatmap_spec`:
    a spec is read as it is, where a figure is copied into JSON first (its arrays encoded)."""
    specs = [panel if isinstance(panel, dict) else panel.to_plotly_json() for panel in panels]
    if len({tuple(spec["data"][0]["y"]) for spec in specs}) != 1:
        raise ValueError("beside() needs panels with the same rows")
    rows = list(specs[0]["data"][0]["y"])
    columns = [list(spec["data"][0]["x"]) for spec in specs]
    across = sum(len(c) for c in columns)
    x_angle = column_label_angle(across)
    every_token = names_every_token(len(rows), across)
    values_shown = values_fit(len(rows), across)
    width = (1 - gap * (len(specs) - 1)) / across  # of the paper, a column
    colour_axes = [spec["layout"]["coloraxis"] for spec in specs]
    layout = {k: v for k, v in specs[0]["layout"].items() if not k.startswith(("xaxis", "yaxis", "annotations"))}
    layout["coloraxis"] = {
        **colour_axes[0],
        "cmin": min(c["cmin"] for c in colour_axes),
        "cmax": max(c["cmax"] for c in colour_axes),
    }
    layout["margin"] = margins(
        rows, [c for cols in columns for c in cols], x_angle, top=specs[0]["layout"]["margin"]["t"]
    )
    layout["height"] = max(spec["layout"]["height"] for spec in specs)
    traces, annotations, x0 = [], [], 0.0
    for k, (spec, cols) in enumerate(zip(specs, columns)):
        suffix = "" if k == 0 else str(k + 1)
        x1 = min(1.0, x0 + width * len(cols))
        xaxis = {key: v for key, v in spec["layout"]["xaxis"].items() if key not in ("dtick", "tick0")}
        layout[f"xaxis{suffix}"] = {
            **xaxis,
            "domain": [x0, x1],
            "anchor": f"y{suffix}",
            "tickangle": x_angle,
            **({"dtick": 1} if every_token else {}),
        }
        yaxis = {key: v for key, v in spec["layout"]["yaxis"].items() if key != "dtick" and (k == 0 or key != "title")}
        layout[f"yaxis{suffix}"] = {
            **yaxis,
            "anchor": f"x{suffix}",
            "showticklabels": k == 0 and yaxis["showticklabels"],
            **({"dtick": 1} if every_token else {}),
        }
        drawn = panels[k]["data"] if isinstance(panels[k], dict) else panels[k].data
        for trace, own in zip(spec["data"], drawn):
            # z as the panel's own array: the JSON form is plotly's encoded one, which panel_values cannot read
            trace = {**trace, "z": own["z"], "xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
            if not values_shown and trace.get("coloraxis"):
                trace.pop("texttemplate", None)
            traces.append(trace)
        for note in spec["layout"].get("annotations", []):  # a one-panel figure's only note is its title
            annotations.append({**note, "x": (x0 + x1) / 2})
        x0 = x1 + gap
    if annotations:
        layout["annotations"] = annotations
    return go.Figure(dict(data=traces, layout=layout), _validate=False)


def panel_values(fig: go.Figure) -> list[np.ndarray]:
    """The matrices of a `heatmaps` figure in panel order (masked overlays skipped): for tests and checks."""
    return [np.asarray(tr.z, dtype=np.float64) for tr in fig.data if isinstance(tr, go.Heatmap) and tr.coloraxis]


def mark_rows(fig: go.Figure, first: int, last: int, label: str, n_cols: int) -> go.Figure:
    """Frame rows first..last (category positions) of a one-panel `heatmaps` figure, e.g. the current
    sentence's positions in a table of all positions. Adds an outlined rectangle and a label."""
    fig.add_shape(
        type="rect",
        x0=-0.5,
        x1=n_cols - 0.5,
        y0=first - 0.5,
        y1=last + 0.5,
        xref="x",
        yref="y",
        line=dict(color=INK, width=3),
        fillcolor=TRANSPARENT,
    )
    fig.add_annotation(
        x=n_cols - 0.5,
        y=first - 0.5,
        xref="x",
        yref="y",
        text=escape_label(label),
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
        bgcolor=LABEL_BACKDROP,
        font=dict(size=12, color=INK),
    )
    return fig


def matrix_frame(M, row_labels: Sequence[str], col_labels: Sequence[str] | None = None) -> pd.DataFrame:
    """A matrix (or vector, as one row) as a labelled table; labels are shown as plain text by st.dataframe."""
    M = np.atleast_2d(np.asarray(M, dtype=np.float64))
    cols = list(col_labels) if col_labels is not None else [str(j) for j in range(M.shape[1])]
    return pd.DataFrame(M, index=list(row_labels), columns=cols)
