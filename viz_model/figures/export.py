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


def _array(value) -> np.ndarray:
    """A heatmap's z as float64 (None, a masked cell, as NaN)."""
    array = np.asarray(value, dtype=object)
    return np.where(array == None, np.nan, array).astype(np.float64)  # noqa: E711 (elementwise)


def heatmap_panels(fig: go.Figure) -> list[tuple[str, list[str], list[str], np.ndarray]]:
    """(title, row labels, column labels, matrix) of each heatmap panel with a colour axis, in order."""
    titles = [a.text or "" for a in fig.layout.annotations]
    panels = [t for t in fig.data if t.type == "heatmap" and t.coloraxis]
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
