"""Beam search: the search tree of the current sentence replayed step by step, the final hypotheses,
greedy against beam, "what if" another token had been chosen, BLEU against a reference, and the course's
toy example (greedy 0.048 against 0.054) with the nᵀ versus k·n·T count."""

import streamlit as st

from pages.parts.beam_node import node_part
from pages.parts.beam_search import (
    bleu_part,
    compare_greedy,
    hypotheses_table,
    search_record,
    step_view,
    tree_figure,
    what_if,
)
from pages.parts.cache import translator
from pages.parts.controls import linked
from pages.parts.frame import PAGES, frame
from pages.parts.model_picker import translator_only
from pages.parts.state import link_params, presenting, tr
from pages.parts.widgets import chart, explanation, heading, page_title, require_sentence, sections, settings_area
from viz_model.lessons.toy_search import (
    COURSE_TABLE,
    VOCAB,
    beam_cost,
    exhaustive_count,
    latex_count,
    toy_results,
)
from viz_model.model.decoding import DEFAULT_LENGTH_PENALTY
from viz_model.model.translator import DEFAULT_BEAM_WIDTH, DIRECTIONS, SearchSettings

DECODING = next(p for p in PAGES if p.url_path == "decoding")


def sentence_part() -> None:
    typed = require_sentence()
    if typed is None:
        return
    text, direction = typed
    config = translator().config
    c1, c2, c3 = settings_area().columns(3)
    width = linked(c1.slider, tr("beam.width"), 1, 8, DEFAULT_BEAM_WIDTH, key="width", help=tr("beam.width_help"))
    alpha = linked(
        c2.slider, tr("beam.alpha"), 0.0, 1.5, DEFAULT_LENGTH_PENALTY, 0.05, key="alpha", help=tr("beam.alpha_help")
    )
    max_len = linked(
        c3.slider, tr("beam.max_len"), 1, config.max_len, config.max_len, key="max_len", help=tr("beam.max_len_help")
    )
    settings = SearchSettings(beam_width=width, length_penalty=alpha, max_len=max_len)
    record = search_record(text, direction, settings)
    output, output_text = translator().output(record, direction)

    def show_output() -> None:
        label, shown = st.columns([1, 5]) if presenting() else (st, st)  # one line on a projector
        label.markdown(f"**{tr('beam.output_short' if presenting() else 'beam.output')}**")
        shown.text(output_text or "∅")

    if not presenting():  # on a projector under the chart, which then starts on the first screen
        show_output()
        # The lab one click away: the same sentence, teacher forcing and every strategy.
        st.page_link(DECODING.file, label=tr("beam.to_decoding"), icon=DECODING.icon, query_params=link_params())
    language = DIRECTIONS[direction][1]

    def tree_part() -> None:
        heading(tr("beam.tree"))
        step_view(text, direction, settings)
        st.caption(tr("beam.tree_caption"))

    def hypotheses_part() -> None:
        heading(tr("beam.hypotheses"))
        hypotheses_table(record, language)
        compare_greedy(text, direction, settings, record, language)

    # One part at a time, each drawn only while open: together they were five tables, a chart and three more
    # searches on every new sentence.
    sections(
        "part",
        {
            "beam.part_tree": tree_part,
            "beam.part_hypotheses": hypotheses_part,
            "beam.part_what_if": lambda: what_if(text, direction, settings, record, language),
            "beam.part_bleu": lambda: bleu_part(text, direction, output),
            "beam.part_node": lambda: node_part(text, direction, settings, record),
        },
    )
    if presenting():
        show_output()


def course_part() -> None:
    st.subheader(tr("beam.toy"))
    st.markdown(tr("beam.toy_intro"))
    prefixes = list(COURSE_TABLE)
    st.dataframe(
        {
            tr("beam.col_prefix"): [" ".join(p) or "∅" for p in prefixes],
            **{token: [COURSE_TABLE[p][token] for p in prefixes] for token in VOCAB},
        },
        hide_index=True,
        key="beam.toy_table",
    )
    st.caption(tr("beam.toy_table_caption"))
    toy_width = st.slider(tr("beam.toy_width"), 1, 4, 2, key="beam.toy_width")
    rows = toy_results(toy_width)
    names = {"greedy": tr("beam.greedy"), "beam": tr("beam.beam", k=toy_width), "exhaustive": tr("beam.exhaustive")}
    st.dataframe(
        {
            tr("beam.col_search"): [names[r.search] for r in rows],
            tr("beam.col_tokens"): [" ".join(r.tokens) for r in rows],
            tr("beam.col_product"): [" × ".join(f"{p:g}" for p in r.factors) for r in rows],
            "P": [f"{r.prob:.3f}" for r in rows],
            tr("beam.col_examined"): [r.examined for r in rows],
        },
        hide_index=True,
        key="beam.toy_results",
    )
    greedy, beam, exhaustive = rows
    st.markdown("#### " + tr("beam.toy_line", greedy=f"{greedy.prob:.3f}", best=f"{exhaustive.prob:.3f}"))
    chart(tree_figure(beam.record, None), key="beam.toy_tree", of_sentence=False)
    st.caption(tr("beam.toy_tree_caption"))

    st.subheader(tr("beam.count"))
    c1, c2, c3 = st.columns(3)
    n = int(c1.number_input(tr("beam.count_n"), 1, 1_000_000, 10_000, key="beam.count_n"))
    T = int(c2.number_input(tr("beam.count_T"), 1, 100, 10, key="beam.count_T"))
    k = int(c3.number_input(tr("beam.count_k"), 1, 100, 5, key="beam.count_k"))

    st.latex(rf"n^T = {n}^{{{T}}} = {latex_count(exhaustive_count(n, T))}")
    st.latex(rf"k \cdot n \cdot T = {k} \cdot {n} \cdot {T} = {latex_count(beam_cost(k, n, T))}")
    st.caption(tr("beam.count_caption"))


frame()
page_title("beam")
explanation("beam")
translator_only("beam")  # an encoder does not translate: this page stays on ours
sections("section", {"beam.tab_sentence": sentence_part, "beam.tab_course": course_part})
