"""The Beam search page's "Open any node" part: the whole tree, where a click on a node (a link to it) or the
step and rank controls (which the link keeps) open it: its path, its next-token top 10, the decoder's cross-
and self-attention up to it, and the search forced through it beside the model's own choice."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.parts.cache import translator
from pages.parts.controls import dependent_index, linked, position
from pages.parts.state import presenting, tr
from pages.parts.text import log_line, md, tokens_text
from pages.parts.widgets import axis_titles, markup, markup_text_size
from viz_model import figures
from viz_model.lessons.beam_node import continue_from, node_at, node_places, open_node
from viz_model.lessons.search_tree import tree_layout
from viz_model.model.detokenize import detokenize
from viz_model.model.search_record import SearchRecord
from viz_model.model.translator import DIRECTIONS, SearchSettings

NODE_STEP, NODE_RANK = "nstep", "nrank"  # URL parameters: the node's step and rank, as shown (from 1)


def tree_texts() -> dict:
    """The search tree's legend, axis titles, hover box and text size, in the interface's language: the same
    for the plotly tree of the Beam page's tree view and this view's SVG tree."""
    return dict(
        names={status: tr(f"beam.status_{status}") for status in ("root", "kept", "pruned", "finished", "best")},
        x_title=tr("beam.axis_step"),
        y_title=tr("beam.axis_rank"),
        hover=tr("beam.node_hover"),
        # Labels are laid out for their size (no two overlap): in presentation mode, at that size.
        size=figures.PRESENTATION_TEXT if presenting() else figures.LABEL_SIZE,
    )


def _tree(record: SearchRecord, places: dict[int, tuple[int, int]], selected: int) -> str:
    """The whole tree as an SVG whose every node but the root is a link (`#node-id`, taken by `markup`'s
    script, which opens it), the open node ringed. places: `node_places(record)`."""

    def href(node_id: int) -> str | None:
        return f"#node-{node_id}" if node_id in places else None

    return figures.search_tree_svg(tree_layout(record, None), href=href, selected=selected, **tree_texts())


def _open(places: dict[int, tuple[int, int]]):
    """What a click on the tree drawn with these node places does: show that node's step and rank in the
    controls (and so in the URL). A node id it does not have (a tree of an earlier sentence) is ignored."""

    def pick(node_id: int) -> None:
        place = places.get(node_id)
        if place is not None:
            st.session_state[NODE_STEP], st.session_state[NODE_RANK] = place

    return pick


def node_part(text: str, direction: str, settings: SearchSettings, record: SearchRecord) -> None:
    tree = st.container()  # above the controls, drawn once they have said which node is open
    st.caption(tr("beam.node_click"))
    n_steps = len(record.steps)
    left, right = st.columns(2)
    step = position(left.selectbox, tr("beam.node_step"), n_steps, NODE_STEP)
    candidates = record.steps[step].candidates
    rank = position(
        right.selectbox,
        tr("beam.node_rank"),
        len(candidates),
        NODE_RANK,
        format_func=lambda i: f"{i + 1}: {candidates[i].token}",
    )
    node = node_at(record, step, rank)
    places = node_places(record)
    markup(_tree(record, places, node.hypothesis), "beam-tree", key="beam.tree", on_pick=_open(places), where=tree)
    view = open_node(translator(), text, direction, record, node)
    st.markdown(
        tr(
            "beam.node_line",
            step=step + 1,
            rank=rank + 1,
            token=md(node.token),
            status=tr(f"beam.status_{node.status}"),
            p=f"{node.prob:.4f}",
            line=log_line(node.cumulative_log_prob),
            score=f"{node.score:.3f}",
        )
    )
    st.caption(tr("beam.node_path", tokens=md(tokens_text(view.path))))
    if view.next_top:
        bars = figures.ranked_bars_html(
            [tok for tok, _ in view.next_top],
            [p for _, p in view.next_top],
            title=tr("beam.node_next_axis"),
            highlight=[i == 0 for i in range(len(view.next_top))],
            size=markup_text_size(),
        )
        markup(bars, "beam-next", key="beam.next")
        st.caption(tr("beam.node_next_caption"))
    else:
        st.info(tr("beam.node_finished"), icon=":material/flag:")
    _node_attention(view)
    _forced(text, direction, settings, record, node)


def _node_attention(view) -> None:
    config = translator().config
    layer = dependent_index(
        st.selectbox,
        tr("beam.node_layer"),
        config.n_decoder_layers,
        "nlayer",
        default=config.n_decoder_layers - 1,
        format_func=lambda i: str(i + 1),
    )
    labels = dict(
        titles={kind: tr(f"beam.node_{kind}", layer=layer + 1) for kind in figures.PREFIX_KINDS},
        axes={kind: axis_titles(kind) for kind in figures.PREFIX_KINDS},
        value_name=tr("axis.weight"),
    )
    # Shaded HTML grids, not plotly: a fifth of this view's browser time went to drawing the two heatmaps
    # (docs/performance.md). The downloads draw the same matrices as the other pages' plotly heatmaps.
    shown = figures.prefix_attention_html(
        view.trace, layer, masked_text=tr("axis.masked"), size=markup_text_size(), **labels
    )
    export = lambda: figures.prefix_attention(view.trace, layer, **labels)
    markup(shown, "beam-attention", key="beam.node_attention", export=export)
    st.caption(tr("beam.node_attention_caption"))


def _forced(text: str, direction: str, settings: SearchSettings, record: SearchRecord, node) -> None:
    if not linked(st.toggle, tr("beam.node_force"), key="force", help=tr("beam.node_force_help")):
        return
    found = continue_from(translator(), text, direction, settings, record, node)
    language = DIRECTIONS[direction][1]
    for column, title, hypothesis in zip(
        st.columns(2), (tr("beam.node_forced"), tr("beam.node_own")), (found.forced, found.own)
    ):
        with column:
            st.markdown(f"**{title}**")
            st.text(detokenize([tok for tok in hypothesis.tokens if tok != "<eos>"], language) or "∅")
            st.caption(tr("beam.whatif_prob", line=log_line(hypothesis.log_prob)))
    key = "beam.node_same" if found.forced.tokens == found.own.tokens else "beam.node_compare"
    st.caption(tr(key, ratio=f"{np.exp(found.log_ratio):.3g}"))
