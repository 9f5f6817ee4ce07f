"""Attention heads: per-head heatmaps with the mean, compare mode with differences, the all-heads grid, and
one query token's top attended keys."""
import numpy as np
import streamlit as st

from pages.controls import attention_controls, catalogue_labels, choice, dependent_index, head_picker, linked
from pages.frame import frame
from pages.i18n import t
from pages.pretrained_attention import attention_page
from pages.pretrained_parts import pretrained_picked
from pages.state import tr, use_sentence
from pages.widgets import axis_titles, chart, explanation, md, page_title, require_translation
from viz_model import figures
from viz_model.lessons.attention_notes import attention_sink, decoder_row_labels
from viz_model.lessons.attention_views import head_differences, top_attended
from viz_model.lessons.coreference import pronoun_attention

GRID_NAMED_TOKENS = 6          # the all-layers grid names its tokens on the axes up to this many
COREFERENCE_SENTENCE = "The animal didn't cross the street because it was too tired."

frame()
page_title("attention")
explanation("attention")
if pretrained_picked():                  # MiniLM's encoder heads (pages/pretrained_attention.py)
    attention_page()
    st.stop()
result = require_translation()
if result is None:
    st.stop()

trace = result.trace
kind, layer = attention_controls()
attention = trace.attention(kind, layer)                 # weights (H, Tq, Tk), rows = queries
H = attention.n_heads
query_tokens, key_tokens = trace.axis_tokens(kind)
# Decoder rows read token i and predict token i + 1: their labels say both ("<bos> → 我").
rows = figures.token_labels(query_tokens if kind == "encoder_self" else
                            decoder_row_labels(trace.target_tokens, trace.predicted_tokens))
cols = figures.token_labels(key_tokens)
y_title, x_title = axis_titles(kind)
mask = None if attention.mask.all() else attention.mask
common = dict(y_title=y_title, x_title=x_title, value_name=tr("axis.weight"), mask=mask,
              masked_text=tr("axis.masked"))
views = ("heads", "compare", "grid", "query", "pronoun")
view = choice(st.segmented_control, tr("attention.view"), views, "view", catalogue_labels("attention.view_{}"))


if view == "heads":
    head = head_picker(H)
    panels = np.stack([attention.weights[head], attention.mean_weights])
    chart(figures.heatmaps(panels, rows, cols, **common,
                           panel_titles=[tr("attention.layer_head", layer=layer + 1, h=head + 1),
                                         tr("attention.mean")]), key="attention.heads")
    st.caption(tr("attention.head_caption", layer=layer + 1, h=head + 1, n=H))

elif view == "compare":
    chosen = linked(st.multiselect, tr("attention.compare_heads"), range(H), default=list(range(min(2, H))),
                    max_selections=4, key="heads", format_func=lambda h: str(h + 1))
    if len(chosen) < 2:
        st.info(tr("attention.compare_need_two"))
    else:
        chart(figures.heatmaps(attention.weights[chosen], rows, cols, **common,
                               panel_titles=[tr("attention.head_n", h=h + 1) for h in chosen]),
              key="attention.compare_heads")
        st.caption(tr("attention.compare_caption"))
        st.markdown(f"**{tr('attention.difference')}**")
        differences = head_differences(attention.weights, chosen)
        chart(figures.heatmaps(np.stack([d for _, _, d in differences]), rows, cols,
                               **{**common, "value_name": tr("attention.value_difference")}, signed=True,
                               panel_titles=[tr("attention.difference_title", a=a + 1, b=b + 1)
                                             for a, b, _ in differences]),
              key="attention.difference")
        st.caption(tr("attention.difference_caption", first=tr("attention.head_n", h=chosen[0] + 1)))

elif view == "grid":
    stack = trace.attention_stack(kind)                  # (L, H, Tq, Tk)
    L = stack.shape[0]
    # Many small panels: with more than a few tokens their names would collide, so the axes count positions
    # and the tokens are listed under the chart.
    by_index = max(len(query_tokens), len(key_tokens)) > GRID_NAMED_TOKENS
    grid_rows, grid_cols = ([str(i) for i in range(len(labels))] if by_index else labels
                            for labels in (rows, cols))
    chart(figures.heatmaps(stack, grid_rows, grid_cols, **common, show_values=False,
                           panel_titles=[tr("attention.layer_head", layer=i + 1, h=h + 1)
                                         for i in range(L) for h in range(H)]),
          key="attention.grid")
    st.caption(tr("attention.grid_caption", kind=tr(f"attention.kind_{kind}")))
    if by_index:
        st.caption(tr("attention.grid_tokens", rows=md(" ".join(f"{i}:{tok}" for i, tok in enumerate(query_tokens))),
                      cols=md(" ".join(f"{i}:{tok}" for i, tok in enumerate(key_tokens)))))

elif view == "query":  # one query token
    left, middle, right = st.columns([2, 2, 1])
    query = dependent_index(left.selectbox, tr("attention.query_token"), len(query_tokens), "query",
                            format_func=lambda i: f"{i}:{query_tokens[i]}")
    head = choice(middle.segmented_control, tr("common.head"), (*range(H), "mean"), "qhead",
                  lambda h, language: t("attention.query_mean", language) if h == "mean" else str(h + 1),
                  url_text=lambda h: str(h if h == "mean" else h + 1))
    top_k = linked(right.number_input, tr("attention.top_k"), 1, len(key_tokens), min(5, len(key_tokens)),
                   key="top")
    weights = attention.mean_weights if head == "mean" else attention.weights[head]
    top = top_attended(weights, query, key_tokens, k=int(top_k), mask=attention.mask)
    chart(figures.bar_chart([f"{a.position}:{figures.escape_label(a.token)}" for a in top],
                            [a.weight for a in top], x_title=tr("axis.weight"), y_title=x_title),
          key="attention.query_bars")
    head_label = tr("attention.query_mean") if head == "mean" else str(head + 1)
    st.caption(tr("attention.query_caption", token=md(f"{query}:{query_tokens[query]}"),
                  layer=layer + 1, h=head_label))
    st.dataframe({tr("attention.col_rank"): list(range(1, len(top) + 1)),
                  tr("attention.col_key"): [f"{a.position}:{a.token}" for a in top],
                  tr("attention.col_weight"): [round(a.weight, 4) for a in top]},
                 hide_index=True, key="attention.query_table")

elif view == "pronoun":
    # The textbook picture: every encoder layer and head, the pronoun's row of weights over the source.
    found = pronoun_attention(trace)
    if found is None:
        st.info(tr("attention.pronoun_none"), icon=":material/info:")
        st.button(COREFERENCE_SENTENCE, key="attention.pronoun_try", on_click=use_sentence,
                  args=(COREFERENCE_SENTENCE, "en2zh"))
    else:
        L = found.weights.shape[0]
        labels = figures.token_labels(found.labels)
        chart(figures.heatmaps(found.weights.reshape(L * H, -1)[None], [
            tr("attention.layer_head", layer=f.layer + 1, h=f.head + 1) for f in found.focus], labels,
            y_title=tr("attention.pronoun_rows"), x_title=tr("axis.key_source"), value_name=tr("axis.weight"),
            panel_titles=[tr("attention.pronoun_title", word=found.pronoun)]), key="attention.pronoun")
        votes = ", ".join(f"{md(word)} × {n}" for word, n in found.votes().items())
        st.caption(tr("attention.pronoun_caption", word=md(found.pronoun), n=L * H, votes=votes))

sink = attention_sink(attention.weights, key_tokens, attention.mask)
if sink is not None and view != "pronoun":
    st.caption(tr("attention.sink_note", token=md(f"{sink.position}:{sink.token}"), heads=sink.heads,
                  n=sink.n_heads, layer=layer + 1, weight=f"{sink.mean_weight:.2f}"))
if mask is not None and view != "pronoun":
    st.caption(tr("attention.masked_caption"))
