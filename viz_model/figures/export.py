"""Export for slides: a file name made of the page, the view and the sentence, and a heatmap chart's
matrices as CSV (the numbers the chart draws, masked cells empty)."""

from __future__ import annotations

import csv
import html
import io
import re

import numpy as np
import plotly.graph_objects as go

MAX_NAME_WORDS = 6


def export_name(page: str, view: str, sentence: str) -> str:
    """`attention-heads-please-buy-an-apple`: lower-case, letters, digits (any script) and dashes only."""

    def slug(text: str) -> str:
        return "-".join(re.findall(r"\w+", text.lower(), flags=re.UNICODE)[:MAX_NAME_WORDS])

    return "-".join(part for part in (slug(page), slug(view), slug(sentence)) if part) or "chart"


def decoded(value):
    """plotly's typed-array form ({dtype, bdata, shape}, as a figure's JSON carries numpy arrays) as an
    array; anything else as it is."""
    if isinstance(value, dict) and "bdata" in value:
        import base64

        data = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        if isinstance(shape, str):
            shape = [int(part) for part in shape.split(",")]
        return data.reshape(shape) if shape else data
    return value


def _array(value) -> np.ndarray:
    """A heatmap's z as float64 (None, a masked cell, as NaN)."""
    array = np.asarray(decoded(value), dtype=object)
    return np.where(array == None, np.nan, array).astype(np.float64)  # noqa: E711 (elementwise)


def heatmap_panels(fig: go.Figure) -> list[tuple[str, list[str], list[str], np.ndarray]]:
    """(title, row labels, column labels, matrix) of each heatmap panel with a colour axis, in order."""
    titles = [a.text or "" for a in fig.layout.annotations]
    panels = _panel_traces(fig)
    out = []
    for i, trace in enumerate(panels):
        title = html.unescape(titles[i]) if len(titles) >= len(panels) else f"panel {i + 1}"
        rows = [html.unescape(str(y)) for y in (trace.y if trace.y is not None else [])]
        cols = [html.unescape(str(x)) for x in (trace.x if trace.x is not None else [])]
        out.append((title, rows, cols, _array(trace.z)))
    return out


def heatmap_csv(fig: go.Figure) -> str | None:
    """Every heatmap panel of `fig` as CSV (a title line, a header of column labels, one line per row with
    its label; blank line between panels); None when the figure has no heatmap."""
    panels = heatmap_panels(fig)
    if not panels:
        return None
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for k, (title, rows, cols, matrix) in enumerate(panels):
        if k:
            writer.writerow([])
        writer.writerow([title])
        writer.writerow([""] + cols)
        for label, row in zip(rows, np.atleast_2d(matrix)):
            writer.writerow([label] + ["" if np.isnan(x) else repr(float(x)) for x in row])
    return buffer.getvalue()


def _values(value) -> list:
    """A trace's x, y or z (a list, a numpy array, or plotly's {dtype, bdata} form) as a flat list."""
    if value is None:
        return []
    return np.asarray(decoded(value), dtype=object).ravel().tolist()


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return html.unescape(str(value))


SERIES_TYPES = ("bar", "scatter", "scatter3d", "scattergl")


def series_csv(fig: go.Figure) -> str | None:
    """Every bar, line or point series of `fig` (no heatmap) as CSV: per series a title line (its name),
    a header of the axis titles and one line per point (its x, y and, in 3-D, z); blank line between series.
    Series without data (legend-only markers) are left out; None when nothing is left."""
    axes = [fig.layout.xaxis.title.text or "x", fig.layout.yaxis.title.text or "y", "z"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    written = 0
    for trace in _series_traces(fig):
        columns = [_values(trace.x), _values(trace.y)] + ([_values(trace.z)] if trace.type == "scatter3d" else [])
        if written:
            writer.writerow([])
        writer.writerow([html.unescape(str(trace.name or trace.meta or f"series {written + 1}"))])
        writer.writerow([html.unescape(str(a)) for a in axes[: len(columns)]])
        for row in zip(*columns):
            writer.writerow([_cell(v) for v in row])
        written += 1
    return buffer.getvalue() if written else None


def figure_csv(fig: go.Figure) -> str | None:
    """The numbers a chart draws, as CSV: its heatmap matrices if it has any, else its series."""
    return heatmap_csv(fig) or series_csv(fig)


def has_csv(fig: go.Figure) -> bool:
    """Whether `figure_csv(fig)` writes anything, without writing it (a page offers the CSV on every rerun
    but writes it only when it is downloaded)."""
    return bool(_panel_traces(fig)) or any(True for _ in _series_traces(fig))


def _panel_traces(fig: go.Figure) -> list:
    """The heatmap traces with a colour axis: the panels heatmap_csv writes."""
    return [t for t in fig.data if t.type == "heatmap" and t.coloraxis]


def _series_traces(fig: go.Figure):
    """The bar, line and point traces with data: the series series_csv writes (legend-only markers left out)."""
    for trace in fig.data:
        if trace.type in SERIES_TYPES and (len(_values(trace.x)) > 0 or len(_values(trace.y)) > 0):
            yield trace


SVG_WIDTH = 1200  # px: a chart drawn full width has no width of its own; the slide's


def use_system_chromium() -> None:
    """Let kaleido draw with the system's Chromium (Debian's), which works offline, rather than look for
    a Chrome of its own."""
    import os

    if "BROWSER_PATH" not in os.environ and os.path.exists("/usr/bin/chromium"):
        os.environ["BROWSER_PATH"] = "/usr/bin/chromium"


def figure_svg(fig: go.Figure) -> bytes:
    """The figure as SVG, drawn by plotly.js itself in a headless Chromium (kaleido, with the system's
    Chromium): the same drawing as on the page, as a vector image for slides."""
    import plotly.io as pio

    use_system_chromium()
    return pio.to_image(fig, format="svg", width=fig.layout.width or SVG_WIDTH, height=fig.layout.height)
