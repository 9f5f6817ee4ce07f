"""Tokens & embeddings: tokenization, embedding vectors, the vocabulary map, neighbours, encoder input."""

import numpy as np
import streamlit as st

from pages.parts.cache import translator, vocabulary_map
from pages.parts.controls import choice
from pages.parts.frame import frame
from pages.parts.minilm import tokens_page
from pages.parts.model_picker import pretrained_picked
from pages.parts.state import catalogue_labels, tr
from pages.parts.text import md
from pages.parts.widgets import (
    chart,
    explanation,
    heading,
    page_title,
    require_translation,
    sections,
    settings_area,
    vectors_chart,
    whole_table_height,
)
from viz_model import figures
from viz_model.lessons import embeddings as lesson
from viz_model.model.tokenizer import EOS

NEIGHBOURS = 5


frame()
page_title("tokens")
explanation("tokens.minilm" if pretrained_picked() else "tokens")  # WordPiece and learned positions, or ours
if pretrained_picked():  # MiniLM's WordPiece pieces and vectors
    tokens_page()
    st.stop()
result = require_translation()
if result is None:
    st.stop()

model = translator()
source = result.source
labels = figures.token_labels(source.labels)


def tokenization_part() -> None:
    heading(tr("tokens.tokenization"))
    st.dataframe(
        {
            tr("tokens.col_position"): list(range(len(source.tokens))),
            tr("tokens.col_token"): source.tokens,
            tr("tokens.col_id"): source.ids,
            tr("tokens.col_status"): [
                tr(f"tokens.{kind}", **({"word": word} if word else {}))
                for kind, word in lesson.token_kinds(source.tokens, source.unknown_words)
            ],
        },
        hide_index=True,
        key="tokens.table",
        height=whole_table_height(len(source.tokens)),
    )
    st.caption(tr("tokens.tokenization_caption", tag=md(source.tokens[0]), eos=md(EOS)))


def embeddings_part() -> None:
    heading(tr("tokens.embeddings"))
    embeddings = result.trace.source_embeddings  # (S, d) rows of the table, unscaled
    vectors_chart(embeddings, labels, tr("tokens.value_embedding"), "tokens.embeddings")
    st.caption(tr("tokens.embeddings_caption", d=model.config.d_model))


def map_part() -> None:
    heading(tr("tokens.map"))
    dims_label = catalogue_labels("tokens.map_{}d")
    n_components = choice(
        settings_area().segmented_control, tr("tokens.map_dims"), (2, 3), "dims", dims_label, required=True
    )
    coords, ratio = vocabulary_map(n_components)
    vocab = model.tokenizer.vocab
    chart(
        figures.scatter_map(
            coords,
            vocab,
            lesson.in_sentence(len(vocab), source.ids, source.tokens),
            axis_titles=[tr("tokens.pc_share", i=i + 1, share=float(ratio[i])) for i in range(n_components)],
            others_name=tr("tokens.vocabulary"),
            highlight_name=tr("tokens.sentence_words"),
        ),
        key="tokens.map",
    )
    st.caption(tr("tokens.map_caption", n=len(vocab), k=n_components, share=float(ratio.sum())))


def neighbours_part() -> None:
    def table(rows: list[str], found: list[list], key: str) -> None:  # one row per word, "word  (cos)" cells
        cells = {tr("tokens.col_token"): rows}
        for j in range(max(map(len, found), default=0)):
            cells[tr("tokens.neighbour", i=j + 1)] = [
                f"{n[j].token}  ({n[j].cosine:.2f})" if j < len(n) else "" for n in found
            ]
        st.dataframe(cells, hide_index=True, key=key)

    heading(tr("tokens.neighbours"))
    positions = lesson.word_positions(source.tokens)
    if positions:
        ids = [source.ids[p] for p in positions]
        found = lesson.sentence_neighbours(model.embedding_matrix(), model.tokenizer.vocab, ids, k=NEIGHBOURS)
        table([f"{p}:{source.tokens[p]}" for p in positions], found, "tokens.neighbours")
    st.caption(tr("tokens.neighbours_caption") + " " + tr("tokens.neighbours_noisy", d=model.config.d_model))
    layer = model.config.n_encoder_layers  # the encoder's last layer: each word's vector in this sentence
    st.markdown(f"**{tr('tokens.context_neighbours', layer=layer)}**")
    words, near = lesson.contextual_neighbours(result.trace, k=3)
    if words:
        near = [[lesson.Neighbour(f"{n.position}:{n.token}", n.cosine) for n in row] for row in near]
        table([f"{p}:{source.labels[p]}" for p in words], near, "tokens.context_neighbours")
    st.caption(tr("tokens.context_neighbours_caption", layer=layer))


def input_part() -> None:
    heading(tr("tokens.input"))
    scaled, positional, total = lesson.encoder_input_parts(result.trace)
    vectors_chart(
        np.stack([scaled, positional, total]),
        labels,
        tr("tokens.value_vector"),
        "tokens.input",
        panel_titles=[
            tr("tokens.panel_embedding", scale=result.trace.embedding_scale),
            tr("tokens.panel_positional"),
            tr("tokens.panel_sum"),
        ],
    )
    st.caption(tr("tokens.input_caption"))


# One section at a time: each section's chart is drawn only while it is chosen, so a new sentence redraws one
# chart at most instead of three.
sections(
    "section",
    {
        "tokens.tab_tokenization": tokenization_part,
        "tokens.tab_embeddings": embeddings_part,
        "tokens.tab_map": map_part,
        "tokens.tab_neighbours": neighbours_part,
        "tokens.tab_input": input_part,
    },
)
