"""The parts of the Beam search page about the user's sentence: the search tree replayed step by step with
its candidate table, the hypotheses, greedy against beam, "what if" another token had been chosen, and BLEU
against a reference. Each draws what `viz_model.lessons.search_views` computes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from pages.parts.beam_node import tree_texts
from pages.parts.cache import is_app_search, score, search, token_column_width, translate, translator
from pages.parts.controls import URL, dependent_index
from pages.parts.metrics import show_bleu
from pages.parts.model_picker import pretrained_picked
from pages.parts.state import follow_sentence, presenting, tr
from pages.parts.text import log_line, md, tokens_text
from pages.parts.widgets import chart, folded
from viz_model import figures
from viz_model.lessons.metrics import metric_tokens
from viz_model.lessons.references import find_reference
from viz_model.lessons.search_tree import tree_layout
from viz_model.lessons.search_views import (
    alternatives,
    compare,
    forced_prefix,
    hypothesis_rows,
    status_counts,
    step_rows,
    typed_prefix,
)
from viz_model.model.detokenize import detokenize
from viz_model.model.search_record import SearchRecord
from viz_model.model.translator import SearchSettings, output_tokens

STEP = "step"  # 1-based step shown in the tree, owned by the slider, in the URL


# The step table's column widths in pixels: they fit both languages' headers and statuses (tested); the token
# column grows to the vocabulary's longest token.
STEP_TABLE_WIDTHS = {
    "beam.col_prefix": 320,
    "beam.col_token": 150,
    "beam.col_p": 90,
    "beam.col_logp": 90,
    "beam.col_score": 90,
    "beam.col_status": 160,
}


def search_record(text: str, direction: str, settings: SearchSettings) -> SearchRecord:
    """The search the page shows. With our model picked the sidebar has translated the sentence with the
    app's settings, and its translation holds this very search (a cache hit); otherwise (MiniLM picked, or
    the page's own settings) the search runs alone: the page draws no attention, and the trace would add a
    third to the model's work."""
    if not pretrained_picked() and is_app_search(settings):
        return translate(text, direction).record
    return search(text, direction, settings)


def tree_figure(record, upto: int | None):
    return figures.search_tree(tree_layout(record, upto), **tree_texts())


def _move_step(delta: int, n_steps: int) -> None:
    st.session_state[STEP] = int(np.clip(st.session_state.get(STEP, n_steps) + delta, 1, n_steps))


@st.fragment
def step_view(text: str, direction: str, settings: SearchSettings) -> None:
    """The tree up to the chosen step, with a slider and previous/next buttons; redrawn alone when they move."""
    record = search_record(text, direction, settings)
    n = len(record.steps)
    signature = (text, direction, settings)
    linked = "beam.step_for" not in st.session_state and STEP in st.query_params and n > 1
    if not linked and (
        st.session_state.get("beam.step_for") != signature or not 1 <= st.session_state.get(STEP, 0) <= n
    ):
        st.session_state[STEP] = 1  # a new search opens at its first step
    st.session_state["beam.step_for"] = signature
    # Wide enough for "Previous" with its icon at 150 % zoom (a 933-pixel-wide page), not only at 100 %.
    previous, slider, following = st.columns([4, 12, 4] if presenting() else [3, 14, 3], vertical_alignment="bottom")
    if n > 1:  # a link's step reaches the slider here
        slider.slider(
            tr("beam.step"), 1, n, key=STEP, label_visibility="collapsed" if presenting() else "visible", **URL
        )
    previous.button(
        tr("beam.previous"),
        key="beam.previous",
        on_click=_move_step,
        args=(-1, n),
        icon=":material/arrow_back:",
        disabled=st.session_state[STEP] <= 1,
        width="stretch",
    )
    following.button(
        tr("beam.next"),
        key="beam.next",
        on_click=_move_step,
        args=(1, n),
        icon=":material/arrow_forward:",
        disabled=st.session_state[STEP] >= n,
        width="stretch",
    )
    step = st.session_state[STEP]
    chart(tree_figure(record, step - 1), key="beam.tree")
    candidates = record.steps[step - 1].candidates
    st.caption(tr("beam.step_caption", step=step, n=n, scored=len(candidates), **status_counts(candidates)))
    # Folded until opened (then it stays open, step after step and sentence after sentence): under the tree,
    # where a projector shows it only after scrolling anyway, the data grid is a noticeable share of each new
    # sentence's time, and each node's hover box gives the same numbers.
    folded(tr("beam.step_table"), "beam.step_table_open", lambda: step_table(record, step - 1))


def step_table(record, step: int) -> None:
    """The candidates scored at one step, in the search's ranking order, with their numbers and fate."""
    rows = step_rows(record, step)
    columns = {
        "beam.col_prefix": [tokens_text(r.prefix) for r in rows],
        "beam.col_token": [r.token for r in rows],
        "beam.col_p": [round(r.prob, 4) for r in rows],
        "beam.col_logp": [round(r.cumulative_log_prob, 4) for r in rows],
        "beam.col_score": [round(r.score, 4) for r in rows],
        "beam.col_status": [tr(f"beam.status_{r.status}") for r in rows],
    }
    # Widths given, not measured: sizing columns to their content makes the data grid measure every cell's
    # text on each new sentence. A longer prefix is cut with an ellipsis and shown whole on hover; the token
    # column fits the vocabulary's longest token.
    widths = {**STEP_TABLE_WIDTHS, "beam.col_token": token_column_width(STEP_TABLE_WIDTHS["beam.col_token"])}
    st.dataframe(
        {tr(key): values for key, values in columns.items()},
        hide_index=True,
        key="beam.step_table",
        column_config={tr(key): st.column_config.Column(width=widths[key]) for key in columns},
    )


HYPOTHESIS_OUTPUT_PX = 330


def hypotheses_table(record, language: str) -> None:
    rows = hypothesis_rows(record, language)
    st.dataframe(
        {
            tr("beam.col_rank"): list(range(1, len(rows) + 1)),
            tr("beam.col_output"): [r.output or "∅" for r in rows],
            tr("beam.col_tokens"): [tokens_text(r.tokens) for r in rows],
            tr("beam.col_logp"): [round(r.log_prob, 4) for r in rows],
            tr("beam.col_length"): [r.length for r in rows],
            tr("beam.col_score"): [round(r.score, 4) for r in rows],
            tr("beam.col_finished"): [tr("beam.yes") if r.finished else tr("beam.no") for r in rows],
        },
        hide_index=True,
        key="beam.hypotheses",
        # Sized to their content, the two text columns pushed the scores out of view in the Chinese
        # interface. The output gets most of the room (two hypotheses often differ only at their end, "today,
        # I …" against "today. I …"), the numbers just theirs; the whole fits the main column at 1400 px,
        # and a longer output is cut with an ellipsis and shown whole on hover.
        column_config={
            tr("beam.col_rank"): st.column_config.NumberColumn(width="small"),
            tr("beam.col_output"): st.column_config.TextColumn(width=HYPOTHESIS_OUTPUT_PX),
            tr("beam.col_tokens"): st.column_config.TextColumn(width="medium"),
            **{
                tr(key): st.column_config.Column(width="small")
                for key in ("beam.col_logp", "beam.col_length", "beam.col_score", "beam.col_finished")
            },
        },
    )
    st.caption(tr("beam.hypotheses_caption", alpha=record.length_penalty_alpha))


def compare_greedy(text, direction, settings, record, language) -> None:
    st.subheader(tr("beam.greedy_vs_beam"))
    greedy = search(text, direction, replace(settings, beam_width=1))  # the search alone: no trace is drawn
    for column, found, title in zip(
        st.columns(2), (greedy, record), (tr("beam.greedy"), tr("beam.beam", k=record.beam_width))
    ):
        best = found.hypotheses[0]
        with column:
            st.markdown(f"**{title}**")
            st.text(detokenize(best.tokens, language) or "∅")
            st.caption(
                tr("beam.result_caption", line=log_line(best.log_prob), length=best.length, score=f"{best.score:.3f}")
            )
    st.caption(tr("beam.greedy_vs_beam_caption"))


def what_if(text, direction, settings, record, language) -> None:
    st.subheader(tr("beam.what_if"))
    best_path = record.best_path_nodes()
    if not best_path:
        return
    left, right = st.columns(2)
    at = dependent_index(
        left.selectbox,
        tr("beam.whatif_step"),
        len(best_path),
        "whatif",
        format_func=lambda s: f"{s + 1}: {best_path[s].token}",
    )
    offered = alternatives(record, at)
    chosen = None
    if offered:
        chosen = right.selectbox(
            tr("beam.whatif_token"),
            offered,
            key=f"beam.whatif_token.{at}",
            format_func=lambda c: f"{c.token}  (p = {c.prob:.3f})",
        )
    else:
        right.caption(tr("beam.whatif_no_alternative"))
    typed = st.text_input(
        tr("beam.whatif_prefix"), key="beam.prefix", max_chars=200, help=tr("beam.whatif_prefix_help")
    )
    if typed.strip():
        prefix = typed_prefix(translator().tokenizer, typed)
    elif chosen is not None:
        prefix = forced_prefix(record, at, chosen.token)
    else:
        return
    if not prefix:
        st.info(tr("beam.whatif_unknown_prefix"))
        return
    forced = search(text, direction, replace(settings, prefix=tuple(prefix)))  # no trace needed
    new, old = score(text, direction, output_tokens(forced)), score(text, direction, output_tokens(record))
    for column, title, found, scored in zip(
        st.columns(2),
        (tr("beam.whatif_result", prefix=md(tokens_text(prefix))), tr("beam.whatif_original")),
        (forced, record),
        (new, old),
    ):
        with column:
            st.markdown(f"**{title}**")
            st.text(detokenize(found.hypotheses[0].tokens, language) or "∅")
            st.caption(tr("beam.whatif_prob", line=log_line(scored.log_prob)))
    verdict = compare(new.log_prob, old.log_prob)
    st.caption(tr("beam.whatif_better" if verdict.better else "beam.whatif_worse", ratio=f"{verdict.ratio:.3g}"))


def bleu_part(text, direction, output: list[str]) -> None:
    st.subheader(tr("beam.bleu"))
    corpus = find_reference(text, direction)
    follow_sentence("beam.reference", corpus or "", (text, direction))
    reference = st.text_input(tr("beam.reference"), key="beam.reference", max_chars=500, help=tr("beam.reference_help"))
    st.caption(
        tr("beam.reference_from_corpus")
        if corpus and reference == corpus
        else tr("beam.reference_typed")
        if reference.strip()
        else ""
    )
    if not reference.strip():
        st.info(tr("beam.no_reference"), icon=":material/edit_note:")
        return
    tokenizer = translator().tokenizer
    candidate = list(output)
    reference_tokens = metric_tokens(tokenizer, reference)
    st.markdown(
        tr("beam.bleu_tokens", candidate=md(tokens_text(candidate)), reference=md(tokens_text(reference_tokens)))
    )
    show_bleu(candidate, reference_tokens, "beam.bleu")
