"""The look every figure shares: colours, font, labels, margins, and the last step before a figure is drawn.

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
import math
import unicodedata
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.colors import get_colorscale, sample_colorscale

# No default template: every figure here sets its own colours and fonts, and `react_ready` drops the template
# before a figure is drawn. With a default one, each figure built copied it (about 2 ms, and most of a
# `to_plotly_json` copy), several times a rerun. Loading Streamlit sets its own default ("streamlit"); the app
# imports this module after Streamlit, so this one stands there (elsewhere a figure is only slower to build).
pio.templates.default = None

# The one palette. Every colour a figure uses is named here (a test walks every page's figures and checks
# it): the Okabe–Ito colours, distinguishable with every common colour-vision deficiency, their light tints
# for filled boxes, greys for ink, grids and masks; and two colour scales, a one-hue sequential one and a
# blue–red diverging one (both safe without red–green vision; Okabe & Ito 2008, ColorBrewer).
BLUE, ORANGE, GREEN, PURPLE = "#0072B2", "#E69F00", "#009E73", "#CC79A7"
SKY, VERMILLION, YELLOW, BLACK = "#56B4E9", "#D55E00", "#F0E442", "#000000"
WHITE, TRANSPARENT, LABEL_BACKDROP = "#ffffff", "rgba(0,0,0,0)", "rgba(255,255,255,0.85)"
TEXT_HALO = ", ".join(["0 0 2px #ffffff"] * 4)  # CSS text-shadow: white around each glyph
INK, DARK, GREY, MID_GREY, LIGHT_GREY = "#111111", "#222222", "#555555", "#999999", "#c4c4c4"
GRID_COLOUR, ZERO_COLOUR = "#eeeeee", "#cccccc"


def tint(colour: str, amount: float = 0.75) -> str:
    """`colour` mixed with white (amount 1 = white): a palette colour light enough to write on."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


# The scales are written out as plotly.py expands their names ([[position, colour], ...]): figures are
# built without plotly.py's validation, and plotly.js has scales of the same names in other colours.
WEIGHT_SCALE = get_colorscale("Blues")


SIGNED_SCALE = get_colorscale("RdBu_r")


MASKED_COLOUR = "#c8c8c8"


HIGHLIGHT_COLOUR = VERMILLION


BACKGROUND_COLOUR = "#9aa5b1"


BAR_COLOUR = BLUE


DASHES = ("solid", "dash", "dot", "dashdot")


SERIES_COLOURS = (BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION, YELLOW, BLACK)


# A head's role (viz_model.lessons.head_roles), one colour each, in the grid of heads; a head with no role is
# grey, so the eye goes to the heads that do something recognisable.
ROLE_COLOURS = {
    "parks": BACKGROUND_COLOUR,
    "previous": BLUE,
    "next": SKY,
    "self": PURPLE,
    "broad": YELLOW,
    "aligned": GREEN,
    "monotone": ORANGE,
    "pronoun": VERMILLION,
    "unlabelled": "#e3e6ea",
}


# The architecture diagram's boxes, by part: light tints of the palette (each box also names its part).
PART_FILLS = {
    "io": tint(VERMILLION, 0.8),
    "embedding": tint(YELLOW, 0.7),
    "attention": tint(ORANGE, 0.7),
    "add_norm": GRID_COLOUR,
    "ffn": tint(GREEN, 0.75),
    "cross": tint(SKY, 0.7),
    "output": tint(PURPLE, 0.7),
}


def palette() -> set[str]:
    """Every colour a figure may use, lower-case: the named colours above, their tints in PART_FILLS, and
    the colours of the two scales (as plotly expands them)."""
    named = {
        value
        for name, value in globals().items()
        if name.isupper() and isinstance(value, str) and (value.startswith("#") or value.startswith("rgb"))
    }
    named |= set(SERIES_COLOURS) | set(PART_FILLS.values()) | set(ROLE_COLOURS.values())
    for scale in (WEIGHT_SCALE, SIGNED_SCALE):
        named |= {colour for _, colour in scale}
    return {colour.lower().replace(" ", "") for colour in named}


FONT = dict(family="Noto Sans, Noto Sans CJK SC, Microsoft YaHei, PingFang SC, sans-serif", size=14, color=DARK)


# What every figure's layout starts from. There is no plotly template (see react_ready): what the default
# one gave and these figures want is set here and in `axis_layout`.
LOOK = dict(font=FONT, plot_bgcolor=WHITE, hoverlabel=dict(align="left"))

TOOLBAR_PX = 34  # the band at a chart's top right where plotly's toolbar shows while the mouse is over it


def legend_on_top(height: int) -> dict:
    """A horizontal legend across the top of a `height`-px figure, just below the toolbar's band; plotly
    makes room for it above the plot. Placed at paper y = 1.02 instead, a legend that filled the width ran
    under the toolbar's icons whenever the mouse was over the chart (the Positional encoding curves)."""
    return dict(orientation="h", yref="container", y=1 - TOOLBAR_PX / height, yanchor="top", x=0, xanchor="left")


# Show each cell's value as text only when the matrix is small enough to read on a projector.
MAX_CELLS_WITH_VALUES = 230


TICK_PAD, TITLE_ROOM = 8, 30  # px: between tick labels and the plot; one line of axis title


def arrow(
    start: tuple[float, float], end: tuple[float, float], colour: str, head: int = 2, size: float = 1.2, width=None
) -> dict:
    """A plotly annotation drawing an arrow from start to end, both in data coordinates (width None: plotly's)."""
    style = {} if width is None else {"arrowwidth": width}
    return dict(
        x=float(end[0]),
        y=float(end[1]),
        ax=float(start[0]),
        ay=float(start[1]),
        xref="x",
        yref="y",
        axref="x",
        ayref="y",
        text="",
        showarrow=True,
        arrowhead=head,
        arrowsize=size,
        arrowcolor=colour,
        **style,
    )


def escape_label(text) -> str:
    """A label safe for plotly: `<b>` typed by a user stays the four characters `<b>`."""
    return html.escape(str(text), quote=False)


def text_width(text: str, size: float = FONT["size"]) -> float:
    """About how many px a label (escaped, as on an axis) takes in FONT: ~1 em for wide (CJK) characters,
    ~0.62 em for the others; on the generous side. Every figure's margins are computed from it (`margins`),
    because plotly's automargin measures every tick label in the browser and then draws the figure again:
    a third of the time a heatmap takes to draw."""
    return size * sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.62 for ch in html.unescape(text))


TABLE_CELL_PADDING = 16  # px a data grid's cell pads its text with, 8 each side


def column_width(texts, least: int) -> int:
    """px for a table column that must show each of `texts` whole (text_width's generous estimate plus the
    cell's padding), and at least `least`."""
    return max(least, math.ceil(max(map(text_width, texts), default=0)) + TABLE_CELL_PADDING)


def _tick_extent(labels: Sequence[str], angle: float) -> float:
    """px the tick labels reach away from their axis: their widest label, turned by `angle` degrees (90 for
    the horizontal labels of a y axis); no labels, just the padding."""
    if len(labels) == 0:
        return TICK_PAD
    widest = max(text_width(str(label)) for label in labels)
    turn = np.radians(abs(angle))
    return widest * np.sin(turn) + FONT["size"] * 1.2 * np.cos(turn) + TICK_PAD


def number_labels(values) -> list[str]:
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


def margins(
    y_labels: Sequence[str], x_labels: Sequence[str], x_angle: float = 0, top: int = 30, right: int = 10
) -> dict:
    """Margins that fit the tick labels and one line of axis title on the left and below (see text_width)."""
    return dict(
        l=round(10 + _tick_extent(y_labels, 90) + TITLE_ROOM),
        r=right,
        t=top,
        b=round(_tick_extent(x_labels, x_angle) + TITLE_ROOM + 5),
    )


LABEL_CHARS = 24  # a longer token (an unknown word as typed, e.g. 500 letters) is shortened in the middle


def short_label(text: str, limit: int = LABEL_CHARS) -> str:
    """ "aaaa…aaaa→<unk>": the start and the end of an over-long label, so it fits beside a chart."""
    if len(text) <= limit:
        return text
    tail = limit // 2 - 1
    return text[: limit - tail - 1] + "…" + text[-tail:]


def token_labels(tokens: Sequence[str]) -> list[str]:
    """Position-prefixed, escaped category labels: ["0:the", "1:cat", "2:the"]; over-long ones shortened."""
    return [f"{i}:{escape_label(short_label(tok))}" for i, tok in enumerate(tokens)]


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


def weight_cells(values: np.ndarray) -> np.ndarray:
    """CSS for each cell of a table shaded like a weight heatmap (WEIGHT_SCALE from 0 to the largest value,
    `colour_range`'s policy): its background, and white text where the cell is dark. A shaded table draws in
    a fraction of a chart's browser time, for a few rows a chart would show."""
    values = np.asarray(values, dtype=np.float64)
    low, high = colour_range(values, signed=False)
    share = np.clip((np.nan_to_num(values) - low) / (high - low), 0.0, 1.0)
    backgrounds = sample_colorscale(WEIGHT_SCALE, share.ravel().tolist())
    css = [
        f"background-color: {colour}; color: {WHITE if s > 0.55 else DARK}"
        for colour, s in zip(backgrounds, share.ravel(), strict=True)
    ]
    return np.array(css, dtype=object).reshape(values.shape)


def axis_layout(title: str, **settings) -> dict:
    """A layout axis with an (escaped) title and light grid; the figure's margins make room for its labels
    (`margins`, not plotly's automargin). Figures are built with their whole layout at once: plotly's
    update_* calls each walk the property tree, which made building figures most of a page's rerun."""
    return {
        "title": dict(text=escape_label(title)),
        "gridcolor": GRID_COLOUR,
        "zerolinecolor": ZERO_COLOUR,
        "ticks": "",
        "automargin": False,
        **settings,
    }


def unvalidated(props: dict) -> go.Figure:
    """A figure from its plotly JSON (`fig.to_plotly_json()`) without plotly.py's validation, which checked it
    when it was first built. A cached Figure is rebuilt, and validated again, every time the cache copies it
    (for the architecture diagram's many annotations and shapes, tens of milliseconds a rerun); its JSON is
    copied in well under a millisecond. `_validate` is plotly.py's own switch (figures/tree.py uses it too)."""
    return go.Figure(props, _validate=False)


def react_ready(fig: go.Figure) -> go.Figure:
    """`fig`, changed in place so that Plotly.react, handed a JSON copy of it, finds nothing to redraw.

    Streamlit's chart element hands plotly each new figure twice: it draws it, then a JSON copy of it (its
    theme step, which runs even with theme=None). Plotly.react compares the copy with what it has drawn and
    draws everything again, at the cost of the first draw, if any of these differ by identity, as every
    object of a copy does:
    - layout.template (an attribute of type "any"): dropped (null in a figure built unvalidated, which
      plotly.js treats the same); these figures set their colours and fonts
      themselves, and the default template would add 7 KB to every chart's payload besides;
    - a 1-D typed array, which is how plotly.py sends a numpy array: 1-D numeric arrays become lists (NaN
      as null), which Plotly.react leaves to layout.datarevision; a 2-D one (heatmap z) arrives as a list of
      rows and passes as it is;
    - any data array, while layout.datarevision is unset: it is set to a digest of the traces, so equal
      figures carry equal revisions (Streamlit keeps an unchanged chart) and changed data a new one.
    Unprepared, the second hand-over costs as much as the first draw (on the beam-search tree, the largest
    figure); prepared, it costs only the comparison.
    """
    fig.layout.template = None
    props = [trace.to_plotly_json() for trace in fig.data]  # one copy of each trace, for both steps
    for trace, trace_props in zip(fig.data, props):
        for path, vector in _numeric_vectors(trace_props):
            trace[path] = None  # or plotly.py would store the list as an array again
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


PRESENTATION_TEXT = 16  # px: the least size of any text in a figure shown in presentation mode


def for_presentation(fig: go.Figure, least: int = PRESENTATION_TEXT) -> go.Figure:
    """`fig`, changed in place so that every text in it (cell numbers, tick labels, titles, annotations,
    legend) is at least `least` px: read from the back of a classroom. The one place that sets it."""

    def grow(font) -> None:
        font.size = max(font.size or 0, least)

    grow(fig.layout.font)
    for trace in fig.data:
        if "textfont" in trace:
            grow(trace.textfont)
    fig.for_each_xaxis(lambda axis: grow(axis.tickfont))
    fig.for_each_yaxis(lambda axis: grow(axis.tickfont))
    for annotation in fig.layout.annotations:
        grow(annotation.font)
    return fig
