"""Figure builders for every page: one heatmap helper, one colour-scale policy, no Streamlit.

`look`: what every figure shares (colours, font, labels, margins, `react_ready`); `heatmap`: the one
heatmap helper, `heatmaps`; `charts`: bars, lines, maps and vector arrows; `tree`: the beam-search tree;
`prefix`: a decoder prefix's cross- and self-attention side by side; `diagram`: the architecture. All plotly
but three, plain markup where a view draws many marks beside other figures: `tree_svg`, the search tree as an
SVG whose nodes are links, `bars_html`, ranked and grouped bars as HTML, and `heatmap_html`, small heatmaps as shaded
HTML grids (the Beam search node view's attention, `prefix_attention_html`). The public names are re-exported here, so
pages write `figures.heatmaps(...)`.
"""

from .bars_html import cut_bars_html, grouped_bars_html, ranked_bars_html
from .charts import bar_chart, cut_bars, grouped_bars, line_chart, scatter_map, vector_moves
from .diagram import ARCHITECTURE_PARTS, architecture
from .heatmap import beside, heatmap_spec, heatmaps, mark_rows, matrix_frame, panel_values
from .look import (
    BACKGROUND_COLOUR,
    FONT,
    HIGHLIGHT_COLOUR,
    LOOK,
    MASKED_COLOUR,
    MAX_CELLS_WITH_VALUES,
    PRESENTATION_TEXT,
    SERIES_COLOURS,
    SIGNED_SCALE,
    WEIGHT_SCALE,
    colour_range,
    column_width,
    escape_label,
    for_presentation,
    react_ready,
    text_width,
    token_labels,
    unvalidated,
    values_fit,
    weight_cells,
)
from .prefix import PREFIX_KINDS, prefix_attention, prefix_attention_html
from .roles import RoleCell, role_grid
from .tree import BEST_PATH_COLOUR, LABEL_SIZE, TREE_STYLE, search_tree
from .tree_svg import search_tree_svg

__all__ = [
    "PREFIX_KINDS",
    "ARCHITECTURE_PARTS",
    "BACKGROUND_COLOUR",
    "BEST_PATH_COLOUR",
    "FONT",
    "HIGHLIGHT_COLOUR",
    "LOOK",
    "MASKED_COLOUR",
    "LABEL_SIZE",
    "MAX_CELLS_WITH_VALUES",
    "PRESENTATION_TEXT",
    "RoleCell",
    "SERIES_COLOURS",
    "SIGNED_SCALE",
    "TREE_STYLE",
    "WEIGHT_SCALE",
    "architecture",
    "bar_chart",
    "cut_bars",
    "cut_bars_html",
    "grouped_bars",
    "grouped_bars_html",
    "colour_range",
    "column_width",
    "escape_label",
    "beside",
    "heatmap_spec",
    "heatmaps",
    "line_chart",
    "mark_rows",
    "matrix_frame",
    "for_presentation",
    "panel_values",
    "prefix_attention",
    "prefix_attention_html",
    "react_ready",
    "role_grid",
    "ranked_bars_html",
    "scatter_map",
    "search_tree",
    "search_tree_svg",
    "text_width",
    "unvalidated",
    "token_labels",
    "values_fit",
    "weight_cells",
    "vector_moves",
]
