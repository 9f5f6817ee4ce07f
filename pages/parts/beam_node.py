"""The Beam search page's "Open any node" part: the whole tree, where a click on a node (or the step and rank
controls, which the link keeps) opens it: its path, its next-token top 10, the decoder's cross- and
self-attention up to it, and the search forced through it beside the model's own choice."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.parts.cache import translator
from pages.parts.controls import dependent_index, linked, position
from pages.parts.state import tr
from pages.parts.text import log_line, md, tokens_text
from pages.parts.widgets import axis_titles, chart
from viz_model import figures
from viz_model.lessons.beam_node import continue_from, node_at, node_place, open_node
from viz_model.model.detokenize import detokenize
from viz_model.model.search_record import SearchRecord
from viz_model.model.translator import DIRECTIONS, SearchSettings

NODE_STEP, NODE_RANK = "nstep", "nrank"  # URL parameters: the node's step and rank, as shown (from 1)
TREE_KEY = "beam.node_tree"


def _open_clicked(record: SearchRecord) -> None:
    """A click on a node of the tree opens it: its step and rank go to the controls (and so to the link)."""
    points = (st.session_state.get(TREE_KEY) or {}).get("selection", {}).get("points", [])
    place = node_place(record, int(points[0]["customdata"])) if points and "customdata" in points[0] else None
    if place is not None:
        st.session_state[NODE_STEP], st.session_state[NODE_RANK] = place


def node_part(text: str, direction: str, settings: SearchSettings, record: SearchRecord, tree) -> None:
    chart(tree, key=TREE_KEY, on_select=lambda: _open_clicked(record))
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
        labels = [tok for tok, _ in view.next_top]
        chart(
            figures.bar_chart(
                figures.token_labels(labels),
                [p for _, p in view.next_top],
                x_title=tr("beam.node_next_axis"),
                y_title="",
                highlight=[i == 0 for i in range(len(labels))],
            ),
            key="beam.node_next",
        )
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
    figure = figures.prefix_attention(
        view.trace,
        layer,
        titles={kind: tr(f"beam.node_{kind}", layer=layer + 1) for kind in figures.PREFIX_KINDS},
        axes={kind: axis_titles(kind) for kind in figures.PREFIX_KINDS},
        value_name=tr("axis.weight"),
    )
    chart(figure, key="beam.node_attention")
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
