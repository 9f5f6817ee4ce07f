"""Ranked values as plain HTML bars: the Beam search node view's next-token top 10.

Ten bars drawn by plotly cost that view as much of the browser's time as its whole search tree
(docs/performance.md); ten rows of text with a box each cost next to nothing, and the numbers are written
out beside them as the plotly bars wrote them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from .look import BAR_COLOUR, FONT, GREY, GRID_COLOUR, HIGHLIGHT_COLOUR, INK, LIGHT_GREY

BAR_PX = 18  # a bar's height; a row is a little taller


def ranked_bars_html(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str,
    highlight: Sequence[bool] | None = None,
    value_format: str = ".3f",
    size: int = 14,
) -> str:
    """One row a label, top to bottom as given: its rank, the label, a bar and the value written out.

    Bars are drawn on one scale from 0 to max(1, the largest value), so probabilities are read against 1.
    `highlight` colours a row's bar as the figures' highlight (the model's own choice). Every text is
    escaped (a token is shown as typed, never read as markup), and the result has no blank line: a page can
    put it in a Markdown block as raw HTML."""
    values = [float(v) for v in values]
    if len(values) != len(labels):
        raise ValueError(f"{len(labels)} labels for {len(values)} values")
    highlight = list(highlight) if highlight is not None else [False] * len(values)
    scale = max([1.0, *values])
    rows = []
    for rank, (label, value, lit) in enumerate(zip(labels, values, highlight), start=1):
        text, number = html.escape(str(label)), format(value, value_format)
        share = max(0.0, value) / scale * 100
        colour = HIGHLIGHT_COLOUR if lit else BAR_COLOUR
        rows.append(
            f'<div class="n">{rank}</div><div class="t" title="{text}">{text}</div>'
            f'<div class="b"><i style="width:{share:.2f}%;background:{colour}"></i></div>'
            f'<div class="v">{number}</div>'
        )
    style = (
        f".ranked-bars{{display:grid;grid-template-columns:max-content minmax(2em,max-content) 1fr max-content;"
        f"gap:4px 10px;align-items:center;font-family:{FONT['family']};font-size:{size}px;color:{INK};"
        f"margin:0 0 0.5rem}}.ranked-bars .n{{color:{GREY};text-align:right}}"
        f".ranked-bars .t{{max-width:14em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}}"
        f".ranked-bars .b{{height:{BAR_PX}px;background:{GRID_COLOUR};border-left:1px solid {LIGHT_GREY}}}"
        f".ranked-bars .b i{{display:block;height:100%}}.ranked-bars .v{{font-variant-numeric:tabular-nums}}"
        f".ranked-bars-title{{font-family:{FONT['family']};font-size:{size}px;color:{GREY};margin:0.25rem 0}}"
    )
    return (
        f"<style>{style}</style>"
        f'<div class="ranked-bars-title">{html.escape(title)}</div>'
        f'<div class="ranked-bars">{"".join(rows)}</div>'
    )
