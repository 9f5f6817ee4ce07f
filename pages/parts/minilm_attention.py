"""The Attention heads page with the pretrained encoder (MiniLM) picked: one head beside the layer's mean,
all 6 × 12 heads, our translator's encoder and MiniLM side by side on one colour scale, and what the typed
sentence's pronoun attends to, head by head; [CLS]/[SEP] can be hidden with rows renormalised."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.parts.attention import follow_shared_view, pronoun_summary, share_view
from pages.parts.cache import pretrained_view, translator_view
from pages.parts.controls import choice, dependent_index, linked
from pages.parts.head_roles import minilm_look_for, minilm_roles_view
from pages.parts.minilm import model_view
from pages.parts.state import catalogue_labels, sentence, tr, use_sentence
from pages.parts.text import md
from pages.parts.widgets import chart, slide_row
from viz_model import figures
from viz_model.lessons.pretrained_views import (
    COREFERENCE_SENTENCE,
    common_range,
    head_and_layer_mean,
    pronoun_heads,
    shown_attention,
    special_share,
    tile_heads,
)
from viz_model.model.pretrained import EncoderView

GRID_ROW_HEIGHT = 75  # px per layer of the all-heads grid: 12 maps across stay about square
VIEWS = ("heads", "roles", "grid", "side", "pronoun")


def _layer_head(view: EncoderView, layer_key: str, head_key: str, where=st) -> tuple[int, int]:
    left, right = where.columns(2)
    layer = dependent_index(
        left.selectbox, tr("common.layer"), view.n_layers, layer_key, format_func=lambda i: str(i + 1)
    )
    head = dependent_index(right.selectbox, tr("common.head"), view.n_heads, head_key, format_func=lambda h: str(h + 1))
    return layer, head


def _heatmap(weights: np.ndarray, labels: list[str], **extra):
    tokens = figures.token_labels(labels)
    return figures.heatmaps(
        weights,
        tokens,
        tokens,
        y_title=tr("axis.query_source"),
        x_title=tr("axis.key_source"),
        value_name=tr("axis.weight"),
        **extra,
    )


def attention_page() -> None:
    st.caption(tr("pretrained.encoder_only"))
    view = model_view()
    if view is None:
        return
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    follow_shared_view("mview", "view")  # ?view=pronoun from our model's page opens the same view here
    chosen = choice(
        slide_row("mview", VIEWS, left, unit="view").segmented_control,
        tr("attention.view"),
        VIEWS,
        "mview",
        catalogue_labels("pretrained.view_{}"),
    )
    share_view(chosen, "view")
    hide = linked(right.toggle, tr("pretrained.hide_special"), key="hide", help=tr("pretrained.hide_help"))
    labels, weights = shown_attention(view, hide)
    if chosen == "heads":
        layer, head = _layer_head(view, "mlayer", "mhead")
        chart(
            _heatmap(
                head_and_layer_mean(weights, layer, head),
                labels,
                panel_titles=[tr("attention.layer_head", layer=layer + 1, h=head + 1), tr("attention.mean")],
            ),
            key="attention.minilm_heads",
        )
        minilm_look_for(labels, weights, layer, head)
    elif chosen == "roles":
        minilm_roles_view(view)
    elif chosen == "grid":
        # All maps tiled into one heatmap: one trace draws several times faster than 72 small ones.
        tiled = tile_heads(weights, figures.token_labels(labels))
        chart(
            figures.heatmaps(
                tiled.matrix,
                tiled.row_labels,
                tiled.col_labels,
                y_title=tr("pretrained.grid_rows", L=view.n_layers),
                x_title=tr("pretrained.grid_cols", H=view.n_heads),
                value_name=tr("axis.weight"),
                show_values=False,
                tick_labels=False,
                zrange=(0.0, float(np.nanmax(tiled.matrix))),
                height=GRID_ROW_HEIGHT * view.n_layers + 110,
            ),
            key="attention.minilm_grid",
        )
        st.caption(
            tr(
                "pretrained.grid_caption",
                L=view.n_layers,
                H=view.n_heads,
                tokens=md(" ".join(f"{i}:{t}" for i, t in enumerate(labels))),
            )
        )
    elif chosen == "side":
        side_by_side(view, hide)
    else:
        coreference_part(view)
    if chosen != "pronoun":
        st.caption(tr("pretrained.special_note", share=f"{special_share(view):.0%}"))


def side_by_side(view: EncoderView, hide: bool) -> None:
    """Our translator's encoder and MiniLM on the same English sentence, one head of each, one scale."""
    ours = translator_view(sentence()[0])
    ours_labels, ours_weights = shown_attention(ours, hide)
    labels, weights = shown_attention(view, hide)
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{tr('pretrained.model_translator')}**")
        o_layer, o_head = _layer_head(ours, "olayer", "ohead")
    with right:
        st.markdown(f"**{tr('pretrained.model_minilm')}**")
        layer, head = _layer_head(view, "mlayer", "mhead")
    zrange = common_range(ours_weights[o_layer, o_head], weights[layer, head])
    _pair_map(left, ours_labels, ours_weights, o_layer, o_head, zrange, "attention.side_ours")
    _pair_map(right, labels, weights, layer, head, zrange, "attention.side_minilm")
    st.caption(tr("pretrained.side_caption", top=f"{zrange[1]:.2f}"))


def _pair_map(where, labels: list[str], weights: np.ndarray, layer: int, head: int, zrange, key: str) -> None:
    """One model's head in the side-by-side pair: compact, on the scale the pair shares."""
    with where:
        chart(
            _heatmap(
                weights[layer, head],
                labels,
                zrange=zrange,
                show_values=False,
                compact=True,
                panel_titles=[tr("attention.layer_head", layer=layer + 1, h=head + 1)],
            ),
            key=key,
        )


def coreference_part(view: EncoderView) -> None:
    """The pronoun of the typed sentence (else the textbook sentence, said so): its weight to the words the
    best heads name, every layer × head, the heads ranked, and how many park it on [CLS]/[SEP]."""
    found = pronoun_heads(view)
    if found is None:
        st.info(tr("pretrained.pronoun_fallback", sentence=md(COREFERENCE_SENTENCE)), icon=":material/info:")
        st.button(
            COREFERENCE_SENTENCE,
            key="attention.minilm_pronoun_try",
            on_click=use_sentence,
            args=(COREFERENCE_SENTENCE, "en2zh"),
        )
        found = pronoun_heads(pretrained_view(COREFERENCE_SENTENCE))
    if found is None or not found.focus:  # a model whose vocabulary splits the pronoun
        st.info(tr("pretrained.coreference_none"), icon=":material/info:")
        return
    L, H = found.weights.shape[:2]
    targets = found.targets(4)
    chart(
        figures.heatmaps(
            np.stack([found.weights[:, :, f.position] for f in targets]),
            [str(i + 1) for i in range(L)],
            [str(h + 1) for h in range(H)],
            y_title=tr("common.layer"),
            x_title=tr("common.head"),
            value_name=tr("axis.weight"),
            panel_titles=[f"{found.pronoun} → {f.word}" for f in targets],
        ),
        key="attention.minilm_coreference",
    )
    words = ", ".join(f"“{md(f.word)}”" for f in targets)
    st.caption(tr("pretrained.coreference_caption", word=md(found.pronoun), words=words, n=L * H))
    pronoun_summary(found)
