"""Plotly figure builders for every page: one heatmap helper, one colour-scale policy, no Streamlit.

Colour-scale policy (the same on every page, so a colour means the same thing everywhere):
- attention weights and other values in [0, 1] (probabilities): sequential `WEIGHT_SCALE`, white = 0,
  from 0 to the largest value shown in the figure (a fixed 0–1 range would wash out long sentences);
- signed values (vectors, scores, differences of heads): diverging `SIGNED_SCALE`, white = 0, symmetric
  range ±max|value|, so red and blue of the same depth are equally far from zero.
All panels of one figure share one colour axis, hence one scale: that is what makes heads comparable.

Labels: text a user typed reaches the figures as token labels. Plotly renders a few HTML tags inside tick
and hover labels, so every label goes through `escape_label` (html.escape); tokens are also prefixed with
their position (`0:the`, `4:the`) because plotly merges repeated category labels on an axis.

Arrays go into figures as float32: plotly ≥ 6 sends them base64-encoded, which keeps the payload small;
`react_ready` turns the 1-D ones back into lists just before a figure is drawn (why is said there).
"""
from __future__ import annotations

import hashlib
import html
import json
import unicodedata
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

WEIGHT_SCALE = "Blues"
SIGNED_SCALE = "RdBu_r"
MASKED_COLOUR = "#c8c8c8"
HIGHLIGHT_COLOUR = "#d62728"
BACKGROUND_COLOUR = "#9aa5b1"
FONT = dict(family="Noto Sans, Noto Sans CJK SC, Microsoft YaHei, PingFang SC, sans-serif", size=14,
            color="#222222")
# What every figure's layout starts from. There is no plotly template (see react_ready): what the default
# one gave and these figures want is set here and in `_axis`.
LOOK = dict(font=FONT, plot_bgcolor="white", hoverlabel=dict(align="left"))
# Show each cell's value as text only when the matrix is small enough to read on a projector.
MAX_CELLS_WITH_VALUES = 230
TICK_PAD, TITLE_ROOM = 8, 30        # px: between tick labels and the plot; one line of axis title


def escape_label(text) -> str:
    """A label safe for plotly: `<b>` typed by a user stays the four characters `<b>`."""
    return html.escape(str(text), quote=False)


def text_width(text: str, size: float = FONT["size"]) -> float:
    """About how many px a label (escaped, as on an axis) takes in FONT: ~1 em for wide (CJK) characters,
    ~0.62 em for the others; on the generous side. Every figure's margins are computed from it (`_margins`),
    because plotly's automargin measures every tick label in the browser and then draws the figure again:
    a third of the time a heatmap takes to draw."""
    return size * sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.62 for ch in html.unescape(text))


def _tick_extent(labels: Sequence[str], angle: float) -> float:
    """px the tick labels reach away from their axis: their widest label, turned by `angle` degrees (90 for
    the horizontal labels of a y axis); no labels, just the padding."""
    if len(labels) == 0:
        return TICK_PAD
    widest = max(text_width(str(label)) for label in labels)
    turn = np.radians(abs(angle))
    return widest * np.sin(turn) + FONT["size"] * 1.2 * np.cos(turn) + TICK_PAD


def _number_labels(values) -> list[str]:
    """Strings at least as wide as the tick labels plotly writes on a numeric axis spanning `values`: its
    ends, with as many decimals as a tick step of a fifth of the range needs, and one digit of slack."""
    v = np.asarray(values, dtype=np.float64).ravel()
    v = v[np.isfinite(v)]
    if v.size == 0:
        return ["0.0"]
    lo, hi = float(v.min()), float(v.max())
    step = (hi - lo) / 5 or abs(hi) or 1.0
    decimals = max(0, -int(np.floor(np.log10(step))))
    return [f"{x:.{decimals}f}0" for x in (lo, hi)]


def _margins(y_labels: Sequence[str], x_labels: Sequence[str], x_angle: float = 0, top: int = 30,
             right: int = 10) -> dict:
    """Margins that fit the tick labels and one line of axis title on the left and below (see text_width)."""
    return dict(l=round(10 + _tick_extent(y_labels, 90) + TITLE_ROOM), r=right, t=top,
                b=round(_tick_extent(x_labels, x_angle) + TITLE_ROOM + 5))


def token_labels(tokens: Sequence[str]) -> list[str]:
    """Position-prefixed, escaped category labels: ["0:the", "1:cat", "2:the"]."""
    return [f"{i}:{escape_label(tok)}" for i, tok in enumerate(tokens)]


def values_fit(n: int, m: int, panels_across: int = 1, panels: int = 1) -> bool:
    """Whether each cell's value can be written in an n × m heatmap, `panels_across` such panels side by
    side and `panels` in all, and still be read on a projector: few cells, few columns across the figure."""
    return n * m <= MAX_CELLS_WITH_VALUES and m * panels_across <= 16 and panels <= 4


def colour_range(values: np.ndarray, signed: bool) -> tuple[float, float]:
    """(cmin, cmax) under the module's policy; NaN (masked) cells are ignored."""
    finite = np.asarray(values, dtype=np.float64)
    finite = finite[np.isfinite(finite)]
    if signed:
        top = float(np.max(np.abs(finite))) if finite.size else 1.0
        top = top if top > 0 else 1.0
        return -top, top
    top = float(np.max(finite)) if finite.size else 1.0
    return 0.0, top if top > 0 else 1.0


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


def heatmaps(Z, row_labels: Sequence[str], col_labels: Sequence[str], *, y_title: str, x_title: str,
             value_name: str, panel_titles: Sequence[str] | None = None, signed: bool = False,
             mask: np.ndarray | None = None, masked_text: str = "masked", show_values: bool | None = None,
             decimals: int = 2, zrange: tuple[float, float] | None = None, height: int | None = None,
             tick_labels: bool = True, title: str | None = None, compact: bool = False) -> go.Figure:
    """The one heatmap helper (after d2l's show_heatmaps): a grid of matrices sharing one colour scale.

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
        raise ValueError(f"{n}×{m} matrices need {n} row and {m} column labels, "
                         f"got {len(row_labels)} and {len(col_labels)}")
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (n, m):
            raise ValueError(f"mask shape {mask.shape} differs from the matrices' {(n, m)}")
        grid = np.where(mask[None, None], grid, np.float32("nan"))
    if show_values is None:
        show_values = values_fit(n, m, panels_across=C, panels=R * C)
    titles = [escape_label(p) for p in panel_titles] if panel_titles is not None else None
    rows, cols = list(row_labels), list(col_labels)
    hover = (f"{escape_label(y_title)}: %{{y}}<br>{escape_label(x_title)}: %{{x}}<br>"
             f"{escape_label(value_name)}: %{{z:.{max(decimals, 4)}f}}<extra></extra>")
    masked_hover = (f"{escape_label(y_title)}: %{{y}}<br>{escape_label(x_title)}: %{{x}}<br>"
                    f"{escape_label(masked_text)}<extra></extra>")
    gap = 1 if n * m <= 900 else 0
    every_token = tick_labels and max(n, m) <= 25          # dtick 1: every token named (plotly skips some)
    # The layout is written as one dict, not through make_subplots and update_* calls: building it that way
    # took most of a page's rerun (each update walks plotly's property tree), this is one validation pass.
    h_space = 0.04 if C > 1 else 0.02
    v_space = min(0.12, 0.3 / R) if R > 1 else 0.08
    width, tall = (1 - h_space * (C - 1)) / C, (1 - v_space * (R - 1)) / R
    # Margins from the labels (see text_width), not plotly's automargin.
    x_angle = -45 if m > 6 else 0
    margin = _margins(rows if tick_labels else [], cols if tick_labels else [], x_angle,
                      top=60 if titles or title else 30)
    cmin, cmax = zrange if zrange is not None else colour_range(grid, signed)
    colour_bar = dict(title=dict(text=escape_label(value_name), **(dict(side="right") if compact else {})),
                      thickness=12 if compact else 14, outlinewidth=0)
    traces, annotations = [], []
    layout = {"coloraxis": dict(colorscale=SIGNED_SCALE if signed else WEIGHT_SCALE, cmin=cmin, cmax=cmax,
                                colorbar=colour_bar)}            # one colour axis: one scale for all panels
    for r in range(R):
        for c in range(C):
            k = r * C + c + 1                                # plotly's subplot number, row by row
            suffix = "" if k == 1 else str(k)
            x0, y1 = c * (width + h_space), 1 - r * (tall + v_space)
            layout[f"xaxis{suffix}"] = dict(
                domain=[max(0.0, x0), min(1.0, x0 + width)], anchor=f"y{suffix}", type="category", ticks="",
                automargin=False, tickangle=x_angle, showticklabels=tick_labels,
                **(dict(dtick=1) if every_token else {}),
                **(dict(title=dict(text=escape_label(x_title))) if r == R - 1 and C <= 2 else {}))
            layout[f"yaxis{suffix}"] = dict(
                domain=[max(0.0, y1 - tall), min(1.0, y1)], anchor=f"x{suffix}", type="category", ticks="",
                automargin=False,
                autorange="reversed", showticklabels=tick_labels and c == 0,   # row labels once, on the left
                **(dict(dtick=1) if every_token else {}),
                **(dict(title=dict(text=escape_label(y_title))) if c == 0 else {}))
            if titles is not None and k <= len(titles):
                annotations.append(dict(text=titles[k - 1], x=x0 + width / 2, y=y1, xref="paper", yref="paper",
                                        xanchor="center", yanchor="bottom", showarrow=False, font=dict(size=13)))
            cell = dict(type="heatmap", x=cols, y=rows, z=grid[r, c], coloraxis="coloraxis", hovertemplate=hover,
                        hoverongaps=False, xgap=gap, ygap=gap, xaxis=f"x{suffix}", yaxis=f"y{suffix}")
            if show_values:
                cell.update(texttemplate=f"%{{z:.{decimals}f}}", textfont=dict(size=11))
            traces.append(cell)
            if mask is not None and not mask.all():
                overlay = np.where(mask, np.float32("nan"), np.float32(1))
                extra = dict(text=np.where(mask, "", "×"), texttemplate="%{text}",
                             textfont=dict(color="#666666")) if R * C <= 4 and n * m <= 1600 else {}
                traces.append(dict(type="heatmap", x=cols, y=rows, z=overlay, showscale=False, hoverongaps=False,
                                   colorscale=[[0, MASKED_COLOUR], [1, MASKED_COLOUR]], hovertemplate=masked_hover,
                                   xgap=gap, ygap=gap, xaxis=f"x{suffix}", yaxis=f"y{suffix}", **extra))
    if C > 2:                                   # one x title under the whole row, not C overlapping ones
        annotations.append(dict(text=escape_label(x_title), x=0.5, y=0, xref="paper", yref="paper",
                                yanchor="top", yshift=-(margin["b"] - TITLE_ROOM - 1), showarrow=False,
                                font=dict(size=13 if titles else 15)))
    panel_height = max(150, min(640, 30 * n + 150)) if R * C <= 4 else max(200, min(400, 18 * n + 110))
    layout.update(
        height=height or int(panel_height * R + 60), annotations=annotations,
        margin=margin,
        **LOOK, **(dict(title=dict(text=escape_label(title))) if title else {}))
    return go.Figure(data=traces, layout=layout)


def react_ready(fig: go.Figure) -> go.Figure:
    """`fig`, changed in place so that Plotly.react, handed a JSON copy of it, finds nothing to redraw.

    Streamlit's chart element hands plotly each new figure twice: it draws it, then a JSON copy of it (its
    theme step, which runs even with theme=None). Plotly.react compares the copy with what it has drawn and
    draws everything again, at the cost of the first draw, if any of these differ by identity, as every
    object of a copy does:
    - layout.template (an attribute of type "any"): dropped (null in a figure built unvalidated, which
      plotly.js treats the same); these figures set their colours and fonts
      themselves, and the default template was 7 KB of every chart's payload besides;
    - a 1-D typed array, which is how plotly.py sends a numpy array: 1-D numeric arrays become lists (NaN
      as null), which Plotly.react leaves to layout.datarevision; a 2-D one (heatmap z) arrives as a list of
      rows and passes as it is;
    - any data array, while layout.datarevision is unset: it is set to a digest of the traces, so equal
      figures carry equal revisions (Streamlit keeps an unchanged chart) and changed data a new one.
    On the beam-search tree the second hand-over took as long as the first draw (30–40 ms in headless
    Chromium); now it is ~10 ms of comparing.
    """
    fig.layout.template = None
    props = [trace.to_plotly_json() for trace in fig.data]      # one copy of each trace, for both steps
    for trace, trace_props in zip(fig.data, props):
        for path, vector in _numeric_vectors(trace_props):
            trace[path] = None                       # or plotly.py would store the list as an array again
            trace[path] = _plain_list(vector)
    fig.layout.datarevision = _digest(props)
    return fig


def _numeric_vectors(props: dict, prefix: str = ""):
    """(dotted path, array) for every 1-D numeric numpy array in a trace's properties."""
    for name, value in props.items():
        if isinstance(value, dict):
            yield from _numeric_vectors(value, f"{prefix}{name}.")
        elif isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "fiub":
            yield prefix + name, value


def _plain_list(vector: np.ndarray) -> list:
    """A numeric vector as a list for JSON: NaN as None, float32 values by their shortest repr (9.075, not
    the 9.074999809265137 that float() of a float32 gives)."""
    if vector.dtype.kind != "f":
        return vector.tolist()
    if vector.dtype == np.float32:
        vector = vector.astype(str).astype(np.float64)
    return np.where(np.isnan(vector), None, vector).tolist()


def _digest(traces: list[dict]) -> str:
    """A short hash of the traces' properties. A 1-D numeric array hashes as the list react_ready makes of
    it, so a figure digests the same before and after (react_ready is idempotent); other arrays by bytes."""
    def encode(value):
        if isinstance(value, np.ndarray):
            if value.dtype == object:
                return value.tolist()
            if value.ndim == 1 and value.dtype.kind in "fiub":
                return _plain_list(value)
            return [str(value.dtype), value.shape, value.tobytes().hex()]
        if isinstance(value, np.generic):
            return value.item()
        raise TypeError(f"cannot digest {type(value).__name__}")
    text = json.dumps(traces, default=encode, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def panel_values(fig: go.Figure) -> list[np.ndarray]:
    """The matrices of a `heatmaps` figure in panel order (masked overlays skipped): for tests and checks."""
    return [np.asarray(tr.z, dtype=np.float64) for tr in fig.data
            if isinstance(tr, go.Heatmap) and tr.coloraxis]


def _axis(title: str, **settings) -> dict:
    """A layout axis with an (escaped) title and light grid; the figure's margins make room for its labels
    (`_margins`, not plotly's automargin). Figures are built with their whole layout at once: plotly's
    update_* calls each walk the property tree, which made building figures most of a page's rerun."""
    return {"title": dict(text=escape_label(title)), "gridcolor": "#eeeeee", "zerolinecolor": "#cccccc",
            "ticks": "", "automargin": False, **settings}


def bar_chart(labels: Sequence[str], values: Sequence[float], *, x_title: str, y_title: str,
              value_format: str = ".3f", highlight: Sequence[bool] | None = None,
              horizontal: bool = True, height: int | None = None) -> go.Figure:
    """Bars in the given order (the first label at the top when horizontal)."""
    values = np.asarray(values, dtype=np.float32)
    colours = [HIGHLIGHT_COLOUR if h else "#1f77b4" for h in highlight] if highlight is not None else "#1f77b4"
    labels = list(labels)
    if horizontal:
        trace = go.Bar(x=values, y=labels, orientation="h", marker_color=colours,
                       texttemplate=f"%{{x:{value_format}}}", textposition="outside",
                       hovertemplate=f"%{{y}}: %{{x:{value_format}}}<extra></extra>")
    else:
        trace = go.Bar(x=labels, y=values, marker_color=colours, texttemplate=f"%{{y:{value_format}}}",
                       textposition="outside", hovertemplate=f"%{{x}}: %{{y:{value_format}}}<extra></extra>")
    category = dict(autorange="reversed", type="category") if horizontal else dict(type="category")
    numbers = _number_labels(np.append(values, 0))
    x_angle = 0 if horizontal or len(labels) <= 8 else -45
    if not horizontal:
        category["tickangle"] = x_angle
    margin = _margins(labels, numbers, right=30) if horizontal else _margins(numbers, labels, x_angle)
    return go.Figure(trace, layout=dict(
        height=height or (max(220, 34 * len(labels) + 100) if horizontal else 380),
        margin=margin, **LOOK,
        xaxis=_axis(x_title, **({} if horizontal else category)),
        yaxis=_axis(y_title, **(category if horizontal else {}))))


def scatter_map(coords: np.ndarray, labels: Sequence[str], highlight: np.ndarray, *,
                axis_titles: Sequence[str], others_name: str, highlight_name: str,
                highlight_labels: Sequence[str] | None = None, height: int = 560) -> go.Figure:
    """Points in 2-D or 3-D (coords (N, 2|3)); `highlight` (N,) bool marks the sentence's words.

    Every point's hover shows its (escaped) label; highlighted points are also written on the map.
    """
    coords = np.asarray(coords, dtype=np.float32)
    highlight = np.asarray(highlight, dtype=bool)
    labels = np.array([escape_label(s) for s in labels], dtype=object)
    three_d = coords.shape[1] == 3
    traces = []
    for chosen, name, style in ((~highlight, others_name, dict(size=4, color=BACKGROUND_COLOUR, opacity=0.5)),
                                (highlight, highlight_name, dict(size=9, color=HIGHLIGHT_COLOUR))):
        if not chosen.any():
            continue
        xyz = coords[chosen]
        text = labels[chosen]
        common = dict(name=escape_label(name), hovertext=text, hovertemplate="%{hovertext}<extra></extra>",
                      marker=style)
        if chosen is highlight:
            common.update(mode="markers+text", text=text, textposition="top center")
        else:
            common.update(mode="markers")
        if three_d:
            traces.append(go.Scatter3d(x=xyz[:, 0], y=xyz[:, 1], z=xyz[:, 2], **common))
        else:
            traces.append(go.Scatter(x=xyz[:, 0], y=xyz[:, 1], **common))
    axes = [_axis(a) for a in axis_titles]
    if three_d:                                  # 3-D scene axes have no automargin
        layout = dict(scene={name: {k: v for k, v in axis.items() if k != "automargin"}
                             for name, axis in zip(("xaxis", "yaxis", "zaxis"), axes)})
        # Plotly's default eye (1.25, 1.25, 1.25) puts the nearest corner's labels outside the figure.
        layout["scene"]["camera"] = dict(eye=dict(x=1.6, y=1.6, z=1.1))
    else:
        layout = dict(xaxis=axes[0], yaxis=axes[1])
    margin = dict(l=10, r=10, t=30, b=10) if three_d else _margins(_number_labels(coords[:, 1]),
                                                                     _number_labels(coords[:, 0]))
    return go.Figure(traces, layout=dict(height=height, margin=margin, **LOOK,
                                         legend=dict(orientation="h", y=1.02, yanchor="bottom"), **layout))


def matrix_frame(M, row_labels: Sequence[str], col_labels: Sequence[str] | None = None) -> pd.DataFrame:
    """A matrix (or vector, as one row) as a labelled table; labels are shown as plain text by st.dataframe."""
    M = np.atleast_2d(np.asarray(M, dtype=np.float64))
    cols = list(col_labels) if col_labels is not None else [str(j) for j in range(M.shape[1])]
    return pd.DataFrame(M, index=list(row_labels), columns=cols)


# ------------------------------------------------------------------------------ architecture diagram

def architecture(labels: dict[str, str], n_encoder_layers: int, n_decoder_layers: int) -> go.Figure:
    """The encoder–decoder Transformer as boxes and arrows (Vaswani et al. 2017, Figure 1).

    `labels` names the parts in the interface language: encoder, decoder, embedding, positional, self_attn,
    masked_self_attn, cross_attn, ffn, add_norm, linear, softmax, inputs, outputs, probabilities, layers
    ("{n}×"), memory (a newline allowed). Coordinates are in a fixed box; the figure holds no user text.
    """
    fig = go.Figure()
    enc, dec = (0.4, 4.0), (6.4, 10.0)                      # x spans of the two columns
    boxes = [  # (column, y0, y1, fill, label)
        (enc, 0.4, 1.0, "#fde2e4", labels["inputs"]),
        (enc, 1.3, 1.9, "#fff1c1", labels["embedding"] + " + " + labels["positional"]),
        (enc, 2.7, 3.5, "#ffd6a5", labels["self_attn"]),
        (enc, 3.7, 4.1, "#e9ecef", labels["add_norm"]),
        (enc, 4.5, 5.3, "#caffbf", labels["ffn"]),
        (enc, 5.5, 5.9, "#e9ecef", labels["add_norm"]),
        (dec, 0.4, 1.0, "#fde2e4", labels["outputs"]),
        (dec, 1.3, 1.9, "#fff1c1", labels["embedding"] + " + " + labels["positional"]),
        (dec, 2.7, 3.5, "#ffd6a5", labels["masked_self_attn"]),
        (dec, 3.7, 4.1, "#e9ecef", labels["add_norm"]),
        (dec, 4.5, 5.3, "#9bf6ff", labels["cross_attn"]),
        (dec, 5.5, 5.9, "#e9ecef", labels["add_norm"]),
        (dec, 6.3, 7.1, "#caffbf", labels["ffn"]),
        (dec, 7.3, 7.7, "#e9ecef", labels["add_norm"]),
        (dec, 8.6, 9.1, "#bdb2ff", labels["linear"]),
        (dec, 9.4, 9.9, "#bdb2ff", labels["softmax"]),
        (dec, 10.2, 10.8, "#fde2e4", labels["probabilities"]),
    ]
    for (x0, x1), y0, y1, fill, text in boxes:
        fig.add_shape(type="rect", x0=x0, y0=y0, x1=x1, y1=y1, fillcolor=fill, line=dict(color="#555555"))
        fig.add_annotation(x=(x0 + x1) / 2, y=(y0 + y1) / 2, text=escape_label(text), showarrow=False,
                           font=dict(size=13, color="#222222"))
    # The repeated blocks: dotted frames, the part's name above the frame's left corner, N× beside it.
    for (x0, x1), y1, n, name, side in ((enc, 6.2, n_encoder_layers, labels["encoder"], "left"),
                                       (dec, 8.0, n_decoder_layers, labels["decoder"], "right")):
        fig.add_shape(type="rect", x0=x0 - 0.25, y0=2.4, x1=x1 + 0.25, y1=y1,
                      line=dict(color="#333333", width=2, dash="dot"), fillcolor="rgba(0,0,0,0)")
        fig.add_annotation(x=x0 - 0.25, y=y1 + 0.05, text=f"<b>{escape_label(name)}</b>", showarrow=False,
                           xanchor="left", yanchor="bottom", font=dict(size=15, color="#222222"))
        fig.add_annotation(x=x0 - 0.35 if side == "left" else x1 + 0.35, y=(2.4 + y1) / 2,
                           xanchor="right" if side == "left" else "left", showarrow=False,
                           text=f"<b>{escape_label(labels['layers'].format(n=n))}</b>",
                           font=dict(size=16, color="#222222"))
    arrows = [(col, ya, yb) for col, spans in (
        (enc, ((1.0, 1.3), (1.9, 2.7), (3.5, 3.7), (4.1, 4.5), (5.3, 5.5))),
        (dec, ((1.0, 1.3), (1.9, 2.7), (3.5, 3.7), (4.1, 4.5), (5.3, 5.5), (5.9, 6.3), (7.1, 7.3),
               (7.7, 8.6), (9.1, 9.4), (9.9, 10.2)))) for ya, yb in spans]
    for (x0, x1), ya, yb in arrows:
        xm = (x0 + x1) / 2
        fig.add_annotation(x=xm, y=yb, ax=xm, ay=ya, xref="x", yref="y", axref="x", ayref="y", text="",
                           showarrow=True, arrowhead=2, arrowsize=1.2, arrowcolor="#444444")
    # The encoder's output feeds every decoder layer's cross-attention (as keys and values).
    fig.add_annotation(x=dec[0], y=4.9, ax=enc[1] + 0.25, ay=6.2, xref="x", yref="y", axref="x",
                       ayref="y", text="", showarrow=True, arrowhead=2, arrowsize=1.4, arrowwidth=2,
                       arrowcolor="#1b6ca8")
    memory = "<br>".join(escape_label(line) for line in labels["memory"].split("\n"))
    fig.add_annotation(x=(enc[1] + dec[0]) / 2 + 0.2, y=4.6, text=memory, showarrow=False,
                       font=dict(size=12, color="#1b6ca8"))
    fig.update_xaxes(range=[-0.6, 11.4], visible=False)
    fig.update_yaxes(range=[0.2, 11.6], visible=False)
    fig.update_layout(height=640, margin=dict(l=0, r=0, t=10, b=0), **LOOK,
                      showlegend=False, dragmode=False)
    return fig


# ------------------------------------------------------------------------------ lines and vectors

# Okabe–Ito colours: distinguishable with every common colour-vision deficiency.
DASHES = ("solid", "dash", "dot", "dashdot")
SERIES_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def line_chart(x, series: dict[str, Sequence[float]], *, x_title: str, y_title: str,
               marks: dict[str, tuple[Sequence[float], Sequence[float], Sequence[str]]] | None = None,
               marks_name: str | None = None, height: int = 420, dashed: bool = False) -> go.Figure:
    """One line per series over x (series names are legend entries). `dashed`: each line thinner than the
    one before and with its own dash pattern, so curves that coincide all stay visible. `marks` (same keys
    as `series`) adds, for a series, marked points (x, y, hover labels) drawn over its line in the same
    colour: e.g. the positions of the current sentence on a positional-encoding curve. Mark traces carry
    meta "marks"."""
    traces = []
    for i, (name, y) in enumerate(series.items()):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        traces.append(go.Scatter(x=np.asarray(x, dtype=np.float32), y=np.asarray(y, dtype=np.float32),
                                 mode="lines", name=escape_label(name),
                                 line=dict(color=colour, width=max(2, 7 - 2 * i), dash=DASHES[i % len(DASHES)])
                                 if dashed else dict(color=colour, width=2),
                                 legendgroup=str(i),
                                 hovertemplate=f"{escape_label(name)}<br>%{{x}}: %{{y:.4f}}<extra></extra>"))
        if marks and name in marks:
            mx, my, labels = marks[name]
            traces.append(go.Scatter(x=np.asarray(mx, dtype=np.float32), y=np.asarray(my, dtype=np.float32),
                                     mode="markers", legendgroup=str(i), meta="marks",
                                     name=escape_label(f"{name} · {marks_name}" if marks_name else name),
                                     showlegend=i == 0, hovertext=[escape_label(s) for s in labels],
                                     marker=dict(color=colour, size=9, symbol="circle",
                                                 line=dict(color="#222222", width=1.5)),
                                     hovertemplate="%{hovertext}: %{y:.4f}<extra></extra>"))
    all_y = np.concatenate([np.asarray(y, dtype=np.float64).ravel() for y in series.values()]
                           or [np.zeros(1)])
    return go.Figure(traces, layout=dict(xaxis=_axis(x_title), yaxis=_axis(y_title), height=height,
                                         margin=_margins(_number_labels(all_y), _number_labels(x)), **LOOK,
                                         legend=dict(orientation="h", y=1.02, yanchor="bottom")))


def mark_rows(fig: go.Figure, first: int, last: int, label: str, n_cols: int) -> go.Figure:
    """Frame rows first..last (category positions) of a one-panel `heatmaps` figure, e.g. the current
    sentence's positions in a table of all positions. Adds an outlined rectangle and a label."""
    fig.add_shape(type="rect", x0=-0.5, x1=n_cols - 0.5, y0=first - 0.5, y1=last + 0.5, xref="x", yref="y",
                  line=dict(color="#111111", width=3), fillcolor="rgba(0,0,0,0)")
    fig.add_annotation(x=n_cols - 0.5, y=first - 0.5, xref="x", yref="y", text=escape_label(label),
                       showarrow=False, xanchor="right", yanchor="bottom", bgcolor="rgba(255,255,255,0.85)",
                       font=dict(size=12, color="#111111"))
    return fig


def vector_moves(points: dict[str, Sequence[float]], moves: Sequence[tuple[str, Sequence[float],
                 Sequence[float]]], *, x_title: str, y_title: str, height: int = 520) -> go.Figure:
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
    traces.append(go.Scatter(x=xy[:, 0], y=xy[:, 1], mode="markers+text", meta="words",
                             text=[escape_label(w) for w in words], textposition="top center",
                             marker=dict(size=11, color=SERIES_COLOURS[0]), showlegend=False,
                             hovertemplate="%{text}: (%{x:.2f}, %{y:.2f})<extra></extra>"))
    for k, (label, start, end) in enumerate(moves):
        colour = SERIES_COLOURS[(k + 1) % len(SERIES_COLOURS)]
        arrows.append(dict(x=float(end[0]), y=float(end[1]), ax=float(start[0]), ay=float(start[1]),
                           xref="x", yref="y", axref="x", ayref="y", text="", showarrow=True, arrowhead=3,
                           arrowsize=1.4, arrowwidth=2.5, arrowcolor=colour))
        traces.append(go.Scatter(x=[float(end[0])], y=[float(end[1])], mode="markers", meta="move",
                                 name=escape_label(label), marker=dict(size=12, color=colour, symbol="diamond"),
                                 hovertemplate=f"{escape_label(label)}: (%{{x:.2f}}, %{{y:.2f}})<extra></extra>"))
    span = np.concatenate([xy, np.array([m[2] for m in moves], dtype=np.float32).reshape(-1, 2)]) \
        if moves else xy
    lo, hi = float(min(0.0, span.min())), float(span.max()) if span.size else 1.0
    pad = 0.15 * max(hi - lo, 1.0)
    span_settings = dict(range=[lo - pad, hi + pad], zerolinecolor="#999999")
    span_labels = _number_labels([lo - pad, hi + pad])              # both axes span the same range
    return go.Figure(traces, layout=dict(
        xaxis=_axis(x_title, **span_settings), yaxis=_axis(y_title, **span_settings, scaleanchor="x", scaleratio=1),
        annotations=arrows, height=height, margin=_margins(span_labels, span_labels),
        **LOOK,
        legend=dict(orientation="h", y=1.02, yanchor="bottom")))


# ------------------------------------------------------------------------------ beam search tree

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
    plotly is pinned): checking each node's text, hover text and outline colour one by one was three
    quarters of the build, ~7 ms of every new sentence on the Beam search page. A test rebuilds the figure
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
        xaxis=_axis(x_title, range=[-0.3, layout.n_steps + 0.9], dtick=1, zeroline=False),
        yaxis=_axis(y_title, range=[rows - 0.4, -0.8], showticklabels=False, showgrid=False, zeroline=False),
        height=height or int(max(360, min(1600, 56 * rows + 140))),
        margin=_margins([], [str(layout.n_steps)], top=40),
        **LOOK, legend=dict(orientation="h", y=1.01, yanchor="bottom"), dragmode="pan"))
