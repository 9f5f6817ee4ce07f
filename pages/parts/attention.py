"""The Attention heads page's views of one attention kind and layer: one head beside the mean, heads compared,
the all-layers grid, one query token, and the pronoun's row in every head."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from pages.parts.controls import choice, head_picker, linked, token_index
from pages.parts.i18n import t
from pages.parts.state import tr, use_sentence
from pages.parts.text import md
from pages.parts.widgets import axis_titles, chart
from viz_model import figures
from viz_model.lessons.attention_notes import attention_sink, decoder_row_labels
from viz_model.lessons.attention_views import head_differences, top_attended
from viz_model.lessons.coreference import PronounAttention, pronoun_attention, translating_token
from viz_model.model.trace import TranslationTrace

GRID_NAMED_TOKENS = 6  # the all-layers grid names its tokens on the axes up to this many
COREFERENCE_SENTENCE = "The animal didn't cross the street because it was too tired."
# The views both models have: ?view=pronoun (ours) and ?mview=pronoun (MiniLM) agree, and so do the roles.
SHARED_VIEWS = ("pronoun", "roles")
RANKED_SHOWN = 8  # heads named in the pronoun view's ranking


@dataclass
class LayerView:
    """One attention kind and layer of a trace, with the labels every view draws it with."""

    trace: TranslationTrace
    kind: str
    layer: int

    def __post_init__(self):
        self.attention = self.trace.attention(self.kind, self.layer)  # weights (H, Tq, Tk), rows = queries
        self.query_tokens, self.key_tokens = self.trace.axis_tokens(self.kind)
        # Decoder rows read token i and predict token i + 1: their labels say both ("<bos> → 我").
        decoder_rows = self.kind != "encoder_self"
        self.rows = figures.token_labels(
            decoder_row_labels(self.trace.target_tokens, self.trace.predicted_tokens)
            if decoder_rows
            else self.query_tokens
        )
        self.cols = figures.token_labels(self.key_tokens)
        self.y_title, self.x_title = axis_titles(self.kind)
        self.mask = None if self.attention.mask.all() else self.attention.mask

    @property
    def n_heads(self) -> int:
        return self.attention.n_heads

    def heatmaps(self, panels, key: str, rows=None, cols=None, **options) -> None:
        """Heatmaps of (P, Tq, Tk) panels on the view's axes."""
        options = {"value_name": tr("axis.weight"), **options}
        chart(
            figures.heatmaps(
                panels,
                self.rows if rows is None else rows,
                self.cols if cols is None else cols,
                y_title=self.y_title,
                x_title=self.x_title,
                mask=self.mask,
                masked_text=tr("axis.masked"),
                **options,
            ),
            key=key,
        )


def heads_view(v: LayerView) -> int:
    """One head beside the layer's mean; returns the head shown."""
    head = head_picker(v.n_heads)
    titles = [tr("attention.layer_head", layer=v.layer + 1, h=head + 1), tr("attention.mean")]
    v.heatmaps(np.stack([v.attention.weights[head], v.attention.mean_weights]), "attention.heads", panel_titles=titles)
    st.caption(tr("attention.head_caption", layer=v.layer + 1, h=head + 1, n=v.n_heads))
    return head


def compare_view(v: LayerView) -> None:
    H = v.n_heads
    chosen = linked(
        st.multiselect,
        tr("attention.compare_heads"),
        range(H),
        default=list(range(min(2, H))),
        max_selections=4,
        key="heads",
        format_func=lambda h: str(h + 1),
    )
    if len(chosen) < 2:
        st.info(tr("attention.compare_need_two"))
        return
    titles = [tr("attention.head_n", h=h + 1) for h in chosen]
    v.heatmaps(v.attention.weights[chosen], "attention.compare_heads", panel_titles=titles)
    st.caption(tr("attention.compare_caption"))
    st.markdown(f"**{tr('attention.difference')}**")
    differences = head_differences(v.attention.weights, chosen)
    v.heatmaps(
        np.stack([d for _, _, d in differences]),
        "attention.difference",
        value_name=tr("attention.value_difference"),
        signed=True,
        panel_titles=[tr("attention.difference_title", a=a + 1, b=b + 1) for a, b, _ in differences],
    )
    st.caption(tr("attention.difference_caption", first=tr("attention.head_n", h=chosen[0] + 1)))


def grid_view(v: LayerView) -> None:
    stack = v.trace.attention_stack(v.kind)  # (L, H, Tq, Tk)
    # Many small panels: with more than a few tokens their names would collide, so the axes count positions
    # and the tokens are listed under the chart.
    by_index = max(len(v.query_tokens), len(v.key_tokens)) > GRID_NAMED_TOKENS
    rows, cols = ([str(i) for i in range(len(labels))] if by_index else labels for labels in (v.rows, v.cols))
    titles = [tr("attention.layer_head", layer=i + 1, h=h + 1) for i in range(stack.shape[0]) for h in range(v.n_heads)]
    v.heatmaps(stack, "attention.grid", rows, cols, show_values=False, panel_titles=titles)
    st.caption(tr("attention.grid_caption", kind=tr(f"attention.kind_{v.kind}")))
    if by_index:
        listed = [md(" ".join(f"{i}:{tok}" for i, tok in enumerate(toks))) for toks in (v.query_tokens, v.key_tokens)]
        st.caption(tr("attention.grid_tokens", rows=listed[0], cols=listed[1]))


def query_view(v: LayerView) -> None:
    left, middle, right = st.columns([2, 2, 1])
    query = token_index(left, tr("attention.query_token"), v.query_tokens, "query")
    head = choice(
        middle.segmented_control,
        tr("common.head"),
        (*range(v.n_heads), "mean"),
        "qhead",
        lambda h, language: t("attention.query_mean", language) if h == "mean" else str(h + 1),
        url_text=lambda h: str(h if h == "mean" else h + 1),
    )
    n_keys = len(v.key_tokens)
    top_k = linked(right.number_input, tr("attention.top_k"), 1, n_keys, min(5, n_keys), key="top")
    weights = v.attention.mean_weights if head == "mean" else v.attention.weights[head]
    top = top_attended(weights, query, v.key_tokens, k=int(top_k), mask=v.attention.mask)
    chart(
        figures.bar_chart(
            [f"{a.position}:{figures.escape_label(a.token)}" for a in top],
            [a.weight for a in top],
            x_title=tr("axis.weight"),
            y_title=v.x_title,
        ),
        key="attention.query_bars",
    )
    head_label = tr("attention.query_mean") if head == "mean" else str(head + 1)
    token = md(f"{query}:{v.query_tokens[query]}")
    st.caption(tr("attention.query_caption", token=token, layer=v.layer + 1, h=head_label))
    table = {
        tr("attention.col_rank"): list(range(1, len(top) + 1)),
        tr("attention.col_key"): [f"{a.position}:{a.token}" for a in top],
        tr("attention.col_weight"): [round(a.weight, 4) for a in top],
    }
    st.dataframe(
        table,
        hide_index=True,
        key="attention.query_table",
        # Four decimals on every row: a weight of 1.0000 beside 0.0000 reads as a weight, "1" beside "0" not.
        column_config={tr("attention.col_weight"): st.column_config.NumberColumn(format="%.4f")},
    )


def heads_rows_chart(weights, source_labels: list[str], y_title: str, title: str, key: str) -> None:
    """One query's row in every layer and head, (L, H, S), as one heatmap: a row per "layer l · head h", a
    column per source token."""
    L, H = weights.shape[:2]
    rows = [tr("attention.layer_head", layer=layer + 1, h=head + 1) for layer in range(L) for head in range(H)]
    chart(
        figures.heatmaps(
            weights.reshape(L * H, -1)[None],
            rows,
            figures.token_labels(source_labels),
            y_title=y_title,
            x_title=tr("axis.key_source"),
            value_name=tr("axis.weight"),
            panel_titles=[title],
        ),
        key=key,
    )


def pronoun_view(v: LayerView) -> None:
    """The textbook picture on the typed sentence: every encoder layer and head, the pronoun's row of weights
    over the source, the heads ranked by the weight they give one word, and the output word translating it."""
    found = pronoun_attention(v.trace)
    if found is None:
        st.info(tr("attention.pronoun_none"), icon=":material/info:")
        st.button(
            COREFERENCE_SENTENCE,
            key="attention.pronoun_try",
            on_click=use_sentence,
            args=(COREFERENCE_SENTENCE, "en2zh"),
        )
        return
    heads_rows_chart(
        found.weights,
        found.labels,
        tr("attention.pronoun_rows"),
        tr("attention.pronoun_title", word=found.pronoun),
        "attention.pronoun",
    )
    pronoun_summary(found)
    output = translating_token(v.trace, found.position)
    if output is None:
        return
    row_label = decoder_row_labels(v.trace.target_tokens, v.trace.predicted_tokens)[output.row]
    heads_rows_chart(
        output.weights,
        found.labels,
        tr("attention.pronoun_output_rows"),
        tr("attention.pronoun_output_title", row=row_label),
        "attention.pronoun_output",
    )
    layers = "; ".join(
        tr("attention.pronoun_output_layer", layer=layer + 1, word=md(label), weight=f"{weight:.2f}")
        for layer, _, label, weight in output.strongest(found.labels)
    )
    how = tr("attention.pronoun_how_named" if output.named else "attention.pronoun_how_aligned", word=md(found.pronoun))
    st.caption(tr("attention.pronoun_output", word=md(found.pronoun), token=md(output.token), how=how, layers=layers))


def pronoun_summary(found: PronounAttention) -> None:
    """The heads ranked by the weight they give the pronoun's favourite word, and how many park it on the
    direction tag or [CLS]/[SEP]."""
    ranked = [
        tr("attention.pronoun_head", layer=f.layer + 1, h=f.head + 1, word=md(f.word), weight=f"{f.weight:.2f}")
        for f in found.focus[:RANKED_SHOWN]
    ]
    word = md(found.pronoun)
    st.caption(
        tr("attention.pronoun_ranked", word=word, shown=len(ranked), n=found.n_heads, ranked="; ".join(ranked) or "–")
    )
    st.caption(
        tr(
            "attention.pronoun_parked",
            word=word,
            parked=found.parked,
            n=found.n_heads,
            sink=md("/".join(found.parking) or "–"),
        )
    )


def follow_shared_view(key: str, other: str) -> None:
    """Before the view choice `key`: when it is new (the first run after a model switch) and the other model's
    choice `other` named a view both have, start there, so the page shows what the URL says."""
    if key not in st.session_state and st.query_params.get(other) in SHARED_VIEWS:
        st.query_params[key] = st.query_params[other]


def share_view(chosen: str, other: str) -> None:
    """After the view choice: the other model's URL parameter names a shared view exactly when this one does."""
    if chosen in SHARED_VIEWS:
        if st.query_params.get(other) != chosen:
            st.query_params[other] = chosen
    elif st.query_params.get(other) in SHARED_VIEWS:
        del st.query_params[other]


def layer_notes(v: LayerView) -> None:
    """A computed note when most heads attend to one token (the direction tag), and what masked cells mean."""
    sink = attention_sink(v.attention.weights, v.key_tokens, v.attention.mask)
    if sink is not None:
        token = md(f"{sink.position}:{sink.token}")
        weight = f"{sink.mean_weight:.2f}"
        st.caption(
            tr("attention.sink_note", token=token, heads=sink.heads, n=sink.n_heads, layer=v.layer + 1, weight=weight)
        )
    if v.mask is not None:
        st.caption(tr("attention.masked_caption"))
