"""What each figure of a view costs the browser to draw, run by hand (prints figures; not a pass/fail test):

    python tests/bench_figures.py [--rounds 15] [--sentence TEXT] [--step 5 --rank 2]

The Beam search page's "Open any node" view draws the whole search tree as a plain SVG of links
(`figures.search_tree_svg`), the node's cross- and self-attention as shaded HTML grids
(`figures.prefix_attention_html`) and its next-token bars as HTML (`figures.ranked_bars_html`);
`tests/bench_browser.py` times the whole page. This draws each figure alone (plotly's with `Plotly.newPlot`
into an empty page in headless Chromium, the plotly.js the plotly package ships, the same major version as
Streamlit's; the SVG and HTML put into the page), and the plotly tree, attention and bars the view drew
before, beside the minimal page's heatmap, rounds taking turns, and prints each median in ms and as × that
heatmap: the part of a view's time that drawing its figures takes, which no change to the page around them
can save.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.harness import launch_chromium  # noqa: E402

DRAW = """async (fig) => {
    const box = document.getElementById('box'); Plotly.purge(box); box.innerHTML = '';
    const t0 = performance.now();
    await Plotly.newPlot(box, fig.data, fig.layout, {displaylogo: false});
    await new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));  // until painted
    return performance.now() - t0; }"""
DRAW_SVG = """async (svg) => {
    const box = document.getElementById('box'); Plotly.purge(box); box.innerHTML = '';
    const t0 = performance.now();
    box.innerHTML = svg;
    await new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));  // until painted
    return performance.now() - t0; }"""
SVG_TREE, PLOTLY_TREE = "whole tree, SVG", "whole tree, plotly"
HTML_BARS, PLOTLY_BARS = "next-token bars, HTML", "next-token bars, plotly"
HTML_ATTENTION, PLOTLY_ATTENTION = "attention, HTML grids", "attention beside, plotly"
MARKUP = (SVG_TREE, HTML_BARS, HTML_ATTENTION)  # put into the page as they are, not drawn by plotly


def node_view_figures(text: str, step: int, rank: int) -> dict:
    """The node view's figures, built as the page builds them (English labels), the plotly tree it drew
    before, and the floor's heatmap: plotly's as JSON, the SVG as its text."""
    import numpy as np
    import plotly.graph_objects as go

    from viz_model import figures
    from viz_model.lessons.beam_node import node_at, open_node
    from viz_model.lessons.search_tree import tree_layout
    from viz_model.model import checkpoint
    from viz_model.model.translator import Translator, suggested_direction

    translator = Translator.load(checkpoint.MODEL_DIR)
    direction = suggested_direction(text)
    record = translator.translate(text, direction).record
    names = {s: s for s in ("root", "kept", "pruned", "finished", "best")}
    layout = tree_layout(record, None)
    tree = figures.search_tree(layout, names=names, x_title="step", y_title="rank", hover="{token}")
    svg = figures.search_tree_svg(
        layout, names=names, x_title="step", y_title="rank", hover="{token}", href=lambda i: f"?node={i}"
    )
    step = min(step, len(record.steps)) - 1
    node = node_at(record, step, min(rank, len(record.steps[step].candidates)) - 1)
    view = open_node(translator, text, direction, record, node)
    texts = dict(
        titles={kind: kind for kind in figures.PREFIX_KINDS},
        axes={kind: ("query", "key") for kind in figures.PREFIX_KINDS},
        value_name="weight",
    )
    attention = figures.prefix_attention(view.trace, translator.config.n_decoder_layers - 1, **texts)
    html_attention = figures.prefix_attention_html(
        view.trace, translator.config.n_decoder_layers - 1, masked_text="masked", **texts
    )
    labels = [tok for tok, _ in view.next_top]
    bars = figures.bar_chart(
        figures.token_labels(labels),
        [p for _, p in view.next_top],
        x_title="p",
        y_title="",
        highlight=[i == 0 for i in range(len(labels))],
    )
    # The minimal page's figure (tests/bench_browser.MINIMAL_PAGE draws this heatmap in a Streamlit script).
    tokens = [f"{i}:{w}" for i, w in enumerate(text.split())] or ["0:∅"]
    z = np.random.default_rng(len(text)).random((len(tokens), len(tokens))).astype(np.float32)
    floor = go.Figure(go.Heatmap(z=z, x=tokens, y=tokens, colorscale="Blues"))
    built = {"minimal page's heatmap": floor, PLOTLY_TREE: tree, PLOTLY_ATTENTION: attention}
    built[PLOTLY_BARS] = bars
    html_bars = figures.ranked_bars_html(
        labels, [p for _, p in view.next_top], title="p", highlight=[i == 0 for i in range(len(labels))]
    )
    markup = {SVG_TREE: svg, HTML_BARS: html_bars, HTML_ATTENTION: html_attention}
    return {**{name: json.loads(fig.to_json()) for name, fig in built.items()}, **markup}


def main() -> None:
    import plotly
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--sentence", default="The little girl put her new red umbrella next to the old wooden door.")
    parser.add_argument("--step", type=int, default=5)
    parser.add_argument("--rank", type=int, default=2)
    args = parser.parse_args()
    specs = node_view_figures(args.sentence, args.step, args.rank)
    folder = Path(tempfile.mkdtemp(prefix="bench-figures-"))
    (folder / "plotly.min.js").write_bytes(
        (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()
    )
    (folder / "index.html").write_text('<script src="plotly.min.js"></script><div id="box" style="width:1000px"></div>')
    times: dict[str, list[float]] = {name: [] for name in specs}
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto((folder / "index.html").as_uri())
        page.wait_for_function("() => window.Plotly")
        for round_ in range(args.rounds + 1):  # the first round warms plotly up and is not counted
            for name, spec in specs.items():
                took = page.evaluate(DRAW_SVG if name in MARKUP else DRAW, spec)
                if round_:
                    times[name].append(took)
        browser.close()
    floor = statistics.median(times["minimal page's heatmap"])
    print(f"{args.sentence!r}, node at step {args.step} rank {args.rank}; {args.rounds} rounds, median draw:")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:24s} {median:6.1f} ms  {median / floor:4.2f}× the minimal page's heatmap")
    for version, parts in (
        ("now", (SVG_TREE, HTML_BARS, HTML_ATTENTION)),
        ("all plotly", (PLOTLY_TREE, PLOTLY_BARS, PLOTLY_ATTENTION)),
    ):
        total = sum(statistics.median(times[name]) for name in parts)
        print(f"  the view's figures, {version:10s} {total:6.1f} ms  {total / floor:4.2f}×")


if __name__ == "__main__":
    main()
