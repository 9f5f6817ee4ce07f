"""Small heatmaps as a plain HTML grid of shaded cells: the Beam search node view's cross- and self-attention.

Drawn by plotly, those two panels took ~120 ms of the browser's main thread on every rerun, the largest part
of what kept the view above 1.5× the minimal page (docs/performance.md); a grid of a few hundred shaded boxes
costs a few milliseconds. It reads as the plotly heatmaps do: colours from `look.weight_cells` (WEIGHT_SCALE
from 0 to the panel's largest weight), masked cells grey with ×, the weights written in the cells when
`values_fit` says they can be read, and each cell's tooltip naming its row, column and weight. Every text is
escaped (a token is shown as typed, never read as markup).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .heatmap import column_label_angle
from .look import FONT, GREY, INK, MASKED_COLOUR, WEIGHT_SCALE, colour_range, values_fit, weight_cells

CELL_EM = 2.6  # a cell's width at most, in the text's em: "0.12" and a little air


@dataclass(frozen=True)
class HeatPanel:
    values: np.ndarray  # (n, m) weights, NaN where masked
    rows: Sequence[str]  # n row labels (queries)
    columns: Sequence[str]  # m column labels (keys)
    title: str
    y_title: str
    x_title: str


def _cell(value: float, css: str, tip: str, written: bool, masked_text: str, decimals: int) -> str:
    if np.isnan(value):
        return f'<div class="x m" title="{tip}&#10;{html.escape(masked_text)}">×</div>'
    text = format(value, f".{decimals}f") if written else ""
    return f'<div class="x" style="{css}" title="{tip}: {value:.4f}" data-v="{value:.7g}">{text}</div>'


def _legend(values: np.ndarray, value_name: str) -> str:
    low, high = colour_range(values, signed=False)
    stops = ", ".join(f"{colour} {position * 100:.0f}%" for position, colour in WEIGHT_SCALE)
    return (
        f'<div class="hm-legend"><span>{low:g}</span><i style="background:linear-gradient(to right, {stops})">'
        f"</i><span>{high:.2f}</span> <span>{html.escape(value_name)}</span></div>"
    )


def _panel(panel: HeatPanel, across: int, value_name: str, masked_text: str, decimals: int) -> str:
    values = np.asarray(panel.values, dtype=np.float64)
    n, m = values.shape
    if len(panel.rows) != n or len(panel.columns) != m:
        raise ValueError(f"{n}×{m} values need {n} row and {m} column labels")
    written = values_fit(n, m, panels_across=across, panels=across)
    styles = weight_cells(values)
    # Level only while every label fits its cell (a few short ones); standing otherwise, as plotly's would.
    standing = column_label_angle(m, across) != 0 or max(len(c) for c in panel.columns) > 4
    heads = "".join(
        f'<div class="c{" s" if standing else ""}" title="{html.escape(col)}">{html.escape(col)}</div>'
        for col in panel.columns
    )
    y_title, x_title, value = (html.escape(t) for t in (panel.y_title, panel.x_title, value_name))
    cells = []
    for i, row in enumerate(map(html.escape, panel.rows)):
        cells.append(f'<div class="r" title="{row}">{row}</div>')
        for j, col in enumerate(map(html.escape, panel.columns)):
            tip = f"{y_title}: {row}&#10;{x_title}: {col}&#10;{value}"
            cells.append(_cell(values[i, j], styles[i, j], tip, written, masked_text, decimals))
    return (
        f'<figure class="hm-panel"><figcaption>{html.escape(panel.title)}</figcaption>'
        f'<div class="hm-grid" style="grid-template-columns:1.4em max-content repeat({m}, minmax(0, {CELL_EM}em))">'
        f'<div class="yt" style="grid-row:2 / span {n}">{html.escape(panel.y_title)}</div>'
        f'<div class="corner"></div>{heads}{"".join(cells)}</div>'
        f'<div class="xt">{html.escape(panel.x_title)}</div>{_legend(values, value_name)}</figure>'
    )


def heatmaps_html(
    panels: Sequence[HeatPanel], *, value_name: str, masked_text: str, size: int = 14, decimals: int = 2
) -> str:
    """The panels side by side (wrapping onto a new line when the page is narrow), each with its title, its
    row and column labels and axis titles, and its colour legend from 0 to its largest weight."""
    style = (
        f".hm{{display:flex;flex-wrap:wrap;gap:1rem 2rem;font-family:{FONT['family']};font-size:{size}px;"
        f"color:{INK};margin:0 0 0.5rem}}.hm-panel{{margin:0;flex:1 1 20em;min-width:0}}"
        f".hm-panel figcaption{{font-weight:600;margin-bottom:0.3em}}"
        f".hm-grid{{display:grid;gap:1px;align-items:stretch}}"
        f".hm .yt{{grid-column:1;writing-mode:vertical-rl;text-orientation:sideways;transform:rotate(180deg);"
        f"text-align:center;color:{GREY};white-space:nowrap;overflow:hidden}}"
        f".hm .corner{{grid-column:2}}.hm .c{{align-self:end;text-align:center;overflow:hidden;"
        f"text-overflow:ellipsis;white-space:nowrap;padding-bottom:2px}}"
        f".hm .c.s{{writing-mode:vertical-rl;text-orientation:sideways;transform:rotate(180deg);max-height:9em;"
        f"justify-self:center;text-align:left}}"
        f".hm .r{{grid-column:2;text-align:right;padding-right:0.4em;max-width:10em;overflow:hidden;"
        f"text-overflow:ellipsis;white-space:nowrap;align-self:center}}"
        f".hm .x{{min-height:1.7em;display:flex;align-items:center;justify-content:center;"
        f"font-variant-numeric:tabular-nums}}.hm .x.m{{background:{MASKED_COLOUR};color:{GREY}}}"
        f".hm .xt{{text-align:center;color:{GREY};margin-top:0.3em}}"
        f".hm-legend{{display:flex;align-items:center;gap:0.4em;color:{GREY};margin-top:0.3em}}"
        f".hm-legend i{{display:inline-block;width:8em;height:0.8em;border:1px solid {MASKED_COLOUR}}}"
    )
    body = "".join(_panel(p, len(panels), value_name, masked_text, decimals) for p in panels)
    return f'<style>{style}</style><div class="hm">{body}</div>'
