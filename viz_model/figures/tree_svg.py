"""The beam-search tree as a plain SVG whose nodes are links: the Beam search page's "Open any node" view.

The same tree as `search_tree` (its layout, label fitting, colours and marker shapes), drawn by the browser
without plotly: that view shows the whole tree beside three other things, and plotly's drawing of the tree
alone took 3× a whole heatmap's (docs/performance.md). Each node but the root is an `<a href data-node>`, so
a click works without plotly's selection events (the page's script takes it), and its `<title>` is the hover
box.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from .look import BLACK, FONT, INK, LIGHT_GREY, WHITE, text_width
from .tree import (
    BEST_PATH_COLOUR,
    LABEL_GAP,
    LABEL_SIZE,
    MARKER,
    PRUNED_MARKER,
    TREE_PLOT_WIDTH,
    TREE_STYLE,
    X_RANGE_PAD,
    Y_RANGE_PAD,
    tree_geometry,
)

LEFT, RIGHT, TOP = 28, 12, 34  # px around the plot: the rank axis's title, a little room, the legend
SELECTED_RING = 11  # px radius of the ring drawn around the open node
MAX_SCALE = 1.15  # drawn at most this much larger than laid out, so its text stays near the figures' size


# Each kind of mark styled once, by class: a whole tree is a few hundred marks, and every byte of it is sent
# and parsed on each new sentence.
MARK_CLASS = {"root": "r", "kept": "k", "finished": "f", "pruned": "x"}


def _marker(status: str, x: float, y: float, best: bool = False) -> str:
    """A node's mark, its shape by status (a pruned one is an x: `_crosses`); `best` outlines it in the best
    path's colour."""
    r = MARKER / 2
    cls = MARK_CLASS[status] + (" o" if best else "")
    if status == "kept":
        return f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r:g}" class="{cls}"/>'
    if status == "finished":
        return f'<rect x="{x - r:.0f}" y="{y - r:.0f}" width="{2 * r:g}" height="{2 * r:g}" class="{cls}"/>'
    if status == "root":
        points = f"{x:.0f},{y - r:.0f} {x + r:.0f},{y:.0f} {x:.0f},{y + r:.0f} {x - r:.0f},{y:.0f}"
        return f'<polygon points="{points}" class="r"/>'
    return _crosses([(x, y)])


def _crosses(points) -> str:
    """Pruned nodes' x marks, all in one path."""
    d = PRUNED_MARKER / 2 * 0.8
    moves = "".join(
        f"M{x - d:.1f} {y - d:.1f}l{2 * d:.1f} {2 * d:.1f}m0 {-2 * d:.1f}l{-2 * d:.1f} {2 * d:.1f}" for x, y in points
    )
    return f'<path d="{moves}" class="x"/>'


def search_tree_svg(
    layout,
    *,
    names: dict[str, str],
    x_title: str,
    y_title: str,
    hover: str,
    href: Callable[[int], str | None],
    selected: int | None = None,
    size: int = LABEL_SIZE,
) -> str:
    """The tree of a `search_tree.TreeLayout` as an `<svg>` element (a string).

    names: legend text for "root", "kept", "pruned", "finished", "best"; hover: `search_tree`'s template
    ({token}, {p}, {logp}, {score}, {status}; `<br>` between lines); href(node id): the link that opens a
    node, or None for no link; selected: the open node's id, ringed. Every text is escaped: a token is
    shown as typed, never read as markup. One line, no blank line: it can also go into a Markdown block as
    raw HTML, where a blank line would end the block."""
    geometry = tree_geometry(layout, size)
    rows = max(layout.n_rows, 1)
    plot_h = (rows - 1 + sum(Y_RANGE_PAD)) * geometry.row_px
    axis_h = size * 3.2  # the step numbers and the axis title below the plot
    width, height = LEFT + TREE_PLOT_WIDTH + RIGHT, TOP + plot_h + axis_h

    def at(node) -> tuple[float, float]:
        return (
            LEFT + (node.x + X_RANGE_PAD[0]) * geometry.step_px,
            TOP + (node.y + Y_RANGE_PAD[1]) * geometry.row_px,
        )

    out = []
    # Edges: grey, then the best path over them, thick; each set one path.
    for best in (False, True):
        moves = [
            f"M{at(parent)[0]:.0f} {at(parent)[1]:.0f}L{at(child)[0]:.0f} {at(child)[1]:.0f}"
            for parent, child in layout.edges()
            if (parent.best and child.best) == best
        ]
        if moves:
            out.append(f'<path d="{"".join(moves)}" class="{"b" if best else "e"}"/>')
    # The markers as the plotly tree stacks them (pruned under kept), then over them the links: each node's
    # invisible target, its label and, for the open node, a ring. A pruned fan is tight (its x marks a few px
    # apart, just under a kept sibling's marker), so its links come last, each a band no taller than the
    # fan's spacing: a click on an x opens that x, not the node drawn next to it.
    out.append(_crosses([at(n) for n in layout.nodes if n.status == "pruned"]))
    for status in ("root", "kept", "finished"):
        out += [_marker(status, *at(n), n.best and status != "root") for n in layout.nodes if n.status == status]
    half_band = _pruned_half_bands(layout, geometry.row_px)
    for status in ("root", "kept", "finished", "pruned"):
        for n in (n for n in layout.nodes if n.status == status):
            x, y = at(n)
            parts = []
            if status == "pruned":
                h, w = half_band[n.id], PRUNED_MARKER / 2 + 2
                parts.append(
                    f'<rect x="{x - w:.1f}" y="{y - h:.1f}" width="{2 * w:.1f}" height="{2 * h:.2f}" class="h"/>'
                )
            elif status != "root":
                parts.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{MARKER / 2 + 2:g}" class="h"/>')
            lines = geometry.labels.get(n.id, [])  # already escaped
            top = y - MARKER / 2 - LABEL_GAP / 2 - geometry.label_height(len(lines))
            for i, line in enumerate(lines):
                baseline = top + (i + 0.85) * geometry.label_height(1)
                parts.append(f'<text x="{x:.0f}" y="{baseline:.0f}" class="label">{line}</text>')
            if n.id == selected:
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SELECTED_RING}" fill="none" class="ring"/>')
            link = href(n.id) if status != "root" else None
            if link is None:
                out.extend(parts)
                continue
            values = dict(
                token=n.token or "·",
                p=f"{n.prob:.3f}",
                logp=f"{n.cumulative_log_prob:.3f}",
                score=f"{n.score:.3f}",
                status=names[status],
            )
            # Line by line, each escaped: a token that reads "<br>" is shown, not taken for a line break.
            tip = "&#10;".join(html.escape(line.format(**values), quote=False) for line in hover.split("<br>"))
            out.append(
                f'<a href="{html.escape(link)}" data-node="{n.id}" class="node-{status}">'
                f"<title>{tip}</title>{''.join(parts)}</a>"
            )
    # The step axis: a number under each step, the title under them; the rank axis's title on the left.
    base = TOP + plot_h
    for step in range(layout.n_steps + 1):
        x = LEFT + (step + X_RANGE_PAD[0]) * geometry.step_px
        out.append(f'<text x="{x:.1f}" y="{base + size * 1.2:.1f}" class="tick">{step}</text>')
    out.append(f'<text x="{LEFT + TREE_PLOT_WIDTH / 2:.1f}" y="{height - size * 0.5:.1f}" class="tick">'
               f"{html.escape(x_title)}</text>")  # fmt: skip
    mid = TOP + plot_h / 2
    out.append(f'<text x="{size:.1f}" y="{mid:.1f}" class="tick" transform="rotate(-90 {size:.1f} {mid:.1f})">'
               f"{html.escape(y_title)}</text>")  # fmt: skip
    out.append(_legend(layout, names, size))
    style = (
        f"text{{font-family:{FONT['family']};font-size:{size}px;fill:{INK}}}"
        f".label{{text-anchor:middle;paint-order:stroke;stroke:{WHITE};stroke-width:3px}}"
        f".tick{{text-anchor:middle}}.ring{{stroke:{BLACK};stroke-width:2}}a{{text-decoration:none!important}}"
        f".e{{stroke:{LIGHT_GREY};stroke-width:1.2;fill:none}}.b{{stroke:{BEST_PATH_COLOUR};stroke-width:5;"
        f"stroke-linecap:round;stroke-linejoin:round;fill:none}}.x{{stroke:{TREE_STYLE['pruned'][0]};stroke-width:2.5}}"
        f".k,.f,.r{{stroke:{WHITE};stroke-width:1}}.k{{fill:{TREE_STYLE['kept'][0]}}}.f{{fill:{TREE_STYLE['finished'][0]}}}"
        f".r{{fill:{TREE_STYLE['root'][0]}}}.o{{stroke:{BEST_PATH_COLOUR};stroke-width:3}}.h{{fill:{WHITE};fill-opacity:0}}"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="100%" style="max-width:{width * MAX_SCALE:.0f}px" role="img" aria-label="{html.escape(x_title)}">'
        f"<style>{style}</style>{''.join(out)}</svg>"
    )


def _pruned_half_bands(layout, row_px: float) -> dict[int, float]:
    """Half the height of each pruned node's click band, in px: half the distance to its nearest pruned
    sibling, at most a little more than its marker."""
    fans: dict[int, list] = {}
    for n in layout.nodes:
        if n.status == "pruned":
            fans.setdefault(n.parent, []).append(n)
    out = {}
    for fan in fans.values():
        ys = sorted(n.y * row_px for n in fan)
        gap = min((b - a for a, b in zip(ys, ys[1:])), default=float("inf"))
        out |= {n.id: min(gap / 2, PRUNED_MARKER / 2 + 1.5) for n in fan}
    return out


def _legend(layout, names: dict[str, str], size: int) -> str:
    """One row above the plot: a marker and a name for each kind of node present, and the best path."""
    present = {n.status for n in layout.nodes}
    x, y, out = LEFT, TOP / 2, []
    for status in ("root", "kept", "pruned", "finished"):
        if status not in present:
            continue
        out.append(_marker(status, x + MARKER / 2, y))
        label = html.escape(names[status], quote=False)
        out.append(f'<text x="{x + MARKER + 4:.1f}" y="{y + size * 0.35:.1f}">{label}</text>')
        x += MARKER + 18 + text_width(label, size)
    out.append(f'<path d="M{x:.0f} {y:.0f}h22" class="b"/>')
    out.append(f'<text x="{x + 28:.1f}" y="{y + size * 0.35:.1f}">{html.escape(names["best"])}</text>')
    return "".join(out)
