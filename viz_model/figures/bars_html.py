"""Bars as plain HTML: ranked values (the Beam search node view's next-token top 10) and several values a
label (the Decoding lab's distribution before and after sampling cuts it, and its n-grams beside the decoder).

Ten bars drawn by plotly cost that view as much of the browser's time as its whole search tree
(docs/performance.md); ten rows of text with a box each cost next to nothing, and the numbers are written
out beside them as the plotly bars wrote them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from .look import BAR_COLOUR, DARK, FONT, GREY, GRID_COLOUR, HIGHLIGHT_COLOUR, INK, LIGHT_GREY, MID_GREY

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
    return (
        f"<style>{_style('ranked-bars', size)}</style>"
        f'<div class="ranked-bars-title">{html.escape(title)}</div>'
        f'<div class="ranked-bars">{"".join(rows)}</div>'
    )


def grouped_bars_html(
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None], str]],
    *,
    cut_after: int | None = None,
    cut_label: str = "",
    size: int = 14,
) -> str:
    """Several values a label, one row a label in the order given: its rank, the label, one bar a series
    (stacked in the row, each in its colour) and the values written out in the same order, each after a
    square of its colour, under a legend.
    `series`: (name, values, colour) each; a value None (nothing to show, e.g. an unseen n-gram) is no bar
    and "–". `cut_after` k: a dashed line labelled `cut_label` after the first k rows, and the rows below it
    greyed (none when k is 0 or covers every row).

    All bars share one scale, from 0 to the largest value, so the series compare along a row. Each value's
    `data-v` holds its full value (nan for None). Every text is escaped; no blank line (see above)."""
    columns = [[None if v is None else float(v) for v in values] for _, values, _ in series]
    colours = [colour for _, _, colour in series]  # inline: two figures on a page never share a rule
    if any(len(column) != len(labels) for column in columns):
        raise ValueError(f"{len(labels)} labels for {[len(c) for c in columns]} values")
    scale = max([v for column in columns for v in column if v is not None] + [1e-12])
    cut = cut_after if cut_after is not None and 0 < cut_after < len(labels) else None
    rows = []
    for rank, (label, *values) in enumerate(zip(labels, *columns), start=1):
        if cut is not None and rank == cut + 1:
            rows.append(f'<div class="cut">{html.escape(cut_label)}</div>')
        text, out = html.escape(str(label)), ' class="o"' if cut is not None and rank > cut else ""
        bars = "".join(f'<i class="s{k}" style="width:{max(0.0, v or 0.0) / scale * 100:.2f}%;background:{c}"></i>'
                       for k, (v, c) in enumerate(zip(values, colours)))  # fmt: skip
        written = "".join(
            f'<span class="s{k}" data-v="{float("nan") if v is None else v!r}"><b style="background:{c}"></b>'
            f"{_probability(v)}</span>"
            for k, (v, c) in enumerate(zip(values, colours))
        )
        rows.append(
            f'<div class="n">{rank}</div><div class="t" title="{text}"><span{out}>{text}</span></div>'
            f'<div class="b">{bars}</div><div class="v">{written}</div>'
        )
    swatches = "".join(
        f'<span><b style="background:{colour}"></b>{html.escape(name)}</span>' for name, _, colour in series
    )
    bar_px = max(5, round((BAR_PX + 2) / max(len(series), 1)))
    style = _style("grouped-bars", size) + (
        f".grouped-bars .b{{height:auto;background:none}}.grouped-bars .b i{{height:{bar_px}px}}"
        f".grouped-bars .v span{{margin-left:0.7em}}.grouped-bars .o{{color:{GREY}}}"
        f".grouped-bars .v b{{display:inline-block;width:0.55em;height:0.55em;margin-right:0.25em}}"
        f".grouped-bars .cut{{grid-column:1/-1;border-top:2px dashed {DARK};color:{DARK};padding-top:2px}}"
        f".grouped-bars-title span{{margin-right:1.2em;white-space:nowrap}}"
        f".grouped-bars-title b{{display:inline-block;width:0.9em;height:0.9em;margin-right:0.35em;"
        f"vertical-align:-0.1em}}"
    )  # fmt: skip
    return (
        f'<style>{style}</style><div class="grouped-bars-title">{swatches}</div>'
        f'<div class="grouped-bars">{"".join(rows)}</div>'
    )


def cut_bars_html(
    labels: Sequence[str],
    before: Sequence[float],
    after: Sequence[float],
    kept: int,
    *,
    names: tuple[str, str],
    cut_label: str,
    size: int = 14,
) -> str:
    """A next-token distribution before and after sampling cuts it (most probable first): `before` grey over
    `after` in colour, and the cut line after the first `kept` tokens, the ones that can still be drawn
    (temperature keeps the order, top-k and top-p keep a prefix of it). On one scale, a cut's
    renormalisation reads as bars growing."""
    series = [(names[0], before, MID_GREY), (names[1], after, BAR_COLOUR)]
    return grouped_bars_html(labels, series, cut_after=kept, cut_label=cut_label, size=size)


def _probability(p: float | None) -> str:
    """Three decimals, but a tail token's 0.0003 as 3.0e-04 rather than 0.000, a cut one's 0 as 0, and
    nothing to show as –."""
    if p is None:
        return "–"
    return "0" if p == 0 else f"{p:.3f}" if p >= 0.0005 else f"{p:.1e}"


def _style(name: str, size: int) -> str:
    """The CSS of a bars grid `.name` and its title line `.name-title`: rank, label, bar, value a row."""
    return (
        f".{name}{{display:grid;grid-template-columns:max-content minmax(2em,max-content) 1fr max-content;"
        f"gap:4px 10px;align-items:center;font-family:{FONT['family']};font-size:{size}px;color:{INK};"
        f"margin:0 0 0.5rem}}.{name} .n{{color:{GREY};text-align:right}}"
        f".{name} .t{{max-width:14em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}}"
        f".{name} .b{{height:{BAR_PX}px;background:{GRID_COLOUR};border-left:1px solid {LIGHT_GREY}}}"
        f".{name} .b i{{display:block;height:100%}}.{name} .v{{font-variant-numeric:tabular-nums}}"
        f".{name}-title{{font-family:{FONT['family']};font-size:{size}px;color:{GREY};margin:0.25rem 0}}"
    )
