"""Ranked values as plain HTML bars: the Beam search node view's next-token top 10, and the Decoding lab's
next-token distribution before and after sampling cuts it.

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
    """A next-token distribution before and after sampling cuts it, one row a token (most probable first):
    its rank, the token, two bars (`before` grey over `after` in colour) and both values written out, and a
    dashed line labelled `cut_label` after the first `kept` rows, the tokens that can still be drawn
    (temperature keeps the order, top-k and top-p keep a prefix of it); the rows below it are greyed.

    Both bars share one scale, from 0 to the largest value, so a cut's renormalisation reads as bars growing.
    Each value cell's `data-v` holds the full value. Every text is escaped; no blank line (see above)."""
    before, after = [float(v) for v in before], [float(v) for v in after]
    if not len(labels) == len(before) == len(after):
        raise ValueError(f"{len(labels)} labels for {len(before)} and {len(after)} values")
    scale = max([*before, *after, 1e-12])
    rows = []
    for rank, (label, p, q) in enumerate(zip(labels, before, after), start=1):
        if rank == kept + 1 and kept > 0:
            rows.append(f'<div class="cut">{html.escape(cut_label)}</div>')
        text, out = html.escape(str(label)), ' class="o"' if rank > kept else ""
        rows.append(
            f'<div class="n">{rank}</div><div class="t" title="{text}"><span{out}>{text}</span></div>'
            f'<div class="b"><i class="m" style="width:{max(0.0, p) / scale * 100:.2f}%"></i>'
            f'<i class="f" style="width:{max(0.0, q) / scale * 100:.2f}%"></i></div>'
            f'<div class="v"><span class="m" data-v="{p!r}">{_probability(p)}</span>'
            f'<span class="f" data-v="{q!r}">{_probability(q)}</span></div>'
        )
    swatches = "".join(
        f'<span><b style="background:{colour}"></b>{html.escape(name)}</span>'
        for name, colour in zip(names, (MID_GREY, BAR_COLOUR))
    )
    half = BAR_PX // 2 + 1
    style = _style("cut-bars", size) + (
        f".cut-bars .b{{height:auto;background:none}}.cut-bars .b i{{height:{half}px;background:{MID_GREY}}}"
        f".cut-bars .b i.f{{background:{BAR_COLOUR}}}.cut-bars .v span{{display:block;line-height:1.15}}"
        f".cut-bars .v .m{{color:{GREY}}}.cut-bars .o{{color:{GREY}}}"
        f".cut-bars .cut{{grid-column:1/-1;border-top:2px dashed {DARK};color:{DARK};padding-top:2px}}"
        f".cut-bars-title span{{margin-right:1.2em;white-space:nowrap}}"
        f".cut-bars-title b{{display:inline-block;width:0.9em;height:0.9em;margin-right:0.35em;"
        f"vertical-align:-0.1em}}"
    )
    return (
        f'<style>{style}</style><div class="cut-bars-title">{swatches}</div><div class="cut-bars">{"".join(rows)}</div>'
    )


def _probability(p: float) -> str:
    """Three decimals, but a tail token's 0.0003 as 3.0e-04 rather than 0.000, and a cut one's 0 as 0."""
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
