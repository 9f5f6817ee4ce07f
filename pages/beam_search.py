"""Beam search: the search tree of the current sentence replayed step by step, the final hypotheses,
greedy against beam, "what if" another token had been chosen, BLEU against a reference, and the course's
toy example (greedy 0.048 against 0.054) with the nᵀ versus k·n·T count."""
import numpy as np
import streamlit as st

from pages.cache import score, translate, translator
from pages.frame import frame
from pages.metric_parts import log_line, show_bleu, tokens_text
from pages.state import follow_sentence, sentence, tr
from pages.widgets import chart, dependent_index, explanation, folded, md, page_title, require_translation, sections
from viz_model import figures
from viz_model.lessons.metrics import metric_tokens
from viz_model.lessons.references import find_reference
from viz_model.lessons.search_tree import tree_layout
from viz_model.lessons.toy_search import (
    COURSE_TABLE,
    VOCAB,
    beam_cost,
    beam_search,
    course_next_probs,
    exhaustive_count,
    exhaustive_search,
    greedy_search,
    scientific,
)
from viz_model.model.decoding import DEFAULT_LENGTH_PENALTY
from viz_model.model.tokenizer import EOS, detokenize

STEP = "beam.step"            # 1-based step shown in the tree, owned by the slider
# The step table's column widths in pixels: they fit both languages' headers, statuses, tokens (tested).
STEP_TABLE_WIDTHS = {"beam.col_prefix": 320, "beam.col_token": 130, "beam.col_p": 90, "beam.col_logp": 90,
                     "beam.col_score": 90, "beam.col_status": 160}


def tree_names() -> dict[str, str]:
    return {status: tr(f"beam.status_{status}") for status in ("root", "kept", "pruned", "finished", "best")}


def tree_figure(record, upto: int | None):
    return figures.search_tree(tree_layout(record, upto), names=tree_names(), x_title=tr("beam.axis_step"),
                               y_title=tr("beam.axis_rank"), hover=tr("beam.node_hover"))


def _move_step(delta: int, n_steps: int) -> None:
    st.session_state[STEP] = int(np.clip(st.session_state.get(STEP, n_steps) + delta, 1, n_steps))


@st.fragment
def step_view(text: str, direction: str, width: int, alpha: float, max_len: int) -> None:
    """The tree up to the chosen step, with a slider and previous/next buttons; redrawn alone when they move."""
    record = translate(text, direction, width, alpha, max_len).record
    n = len(record.steps)
    signature = (text, direction, width, alpha, max_len)
    if st.session_state.get("beam.step_for") != signature or not 1 <= st.session_state.get(STEP, 0) <= n:
        st.session_state[STEP] = n                       # a new search opens on its whole tree
        st.session_state["beam.step_for"] = signature
    previous, slider, following = st.columns([1, 6, 1], vertical_alignment="bottom")
    previous.button(tr("beam.previous"), key="beam.previous", on_click=_move_step, args=(-1, n),
                    icon=":material/arrow_back:", disabled=st.session_state[STEP] <= 1, width="stretch")
    following.button(tr("beam.next"), key="beam.next", on_click=_move_step, args=(1, n),
                     icon=":material/arrow_forward:", disabled=st.session_state[STEP] >= n, width="stretch")
    if n > 1:
        slider.slider(tr("beam.step"), 1, n, key=STEP)
    step = st.session_state[STEP]
    chart(tree_figure(record, step - 1), key="beam.tree")
    candidates = record.steps[step - 1].candidates
    counts = {s: sum(c.status == s for c in candidates) for s in ("kept", "finished", "pruned")}
    st.caption(tr("beam.step_caption", step=step, n=n, scored=len(candidates), **counts))
    # Folded until opened (then it stays open, step after step and sentence after sentence): drawn under the
    # tree, where a projector shows it only after scrolling anyway, the data grid cost ~9 % of this page's
    # time per new sentence (1.42 → 1.30× the minimal page, 40 runs side by side). Each node's hover box
    # gives the same numbers.
    folded(tr("beam.step_table"), "beam.step_table_open", lambda: step_table(record, candidates))


def step_table(record, candidates) -> None:
    """The candidates scored at one step, in the search's ranking order, with their numbers and fate."""
    columns = {"beam.col_prefix": [tokens_text([c.token for c in record.path_nodes(c.hypothesis)][:-1])
                                   for c in candidates],
               "beam.col_token": [c.token for c in candidates],
               "beam.col_p": [round(c.prob, 4) for c in candidates],
               "beam.col_logp": [round(c.cumulative_log_prob, 4) for c in candidates],
               "beam.col_score": [round(c.score, 4) for c in candidates],
               "beam.col_status": [tr(f"beam.status_{c.status}") for c in candidates]}
    # Widths given, not measured: sizing columns to their content made the data grid measure every cell's
    # text on each new sentence (5–10 % of this page's time, side by side over 40 runs). A longer prefix is cut
    # with an ellipsis and shown whole on hover.
    st.dataframe({tr(key): values for key, values in columns.items()}, hide_index=True, key="beam.step_table",
                 column_config={tr(key): st.column_config.Column(width=STEP_TABLE_WIDTHS[key]) for key in columns})


def hypotheses_table(record, language: str) -> None:
    hyps = record.hypotheses
    st.dataframe({tr("beam.col_rank"): list(range(1, len(hyps) + 1)),
                  tr("beam.col_output"): [detokenize(h.tokens, language) or "∅" for h in hyps],
                  tr("beam.col_tokens"): [tokens_text(h.tokens) for h in hyps],
                  tr("beam.col_logp"): [round(h.log_prob, 4) for h in hyps],
                  tr("beam.col_length"): [h.length for h in hyps],
                  tr("beam.col_score"): [round(h.score, 4) for h in hyps],
                  tr("beam.col_finished"): [tr("beam.yes") if h.finished else tr("beam.no") for h in hyps]},
                 hide_index=True, key="beam.hypotheses",
                 # Sized to their content, the two text columns pushed the scores out of view in the Chinese
                 # interface; at "medium" a long output is cut with an ellipsis and shown whole on hover.
                 column_config={tr("beam.col_rank"): st.column_config.NumberColumn(width="small"),
                                tr("beam.col_output"): st.column_config.TextColumn(width="medium"),
                                tr("beam.col_tokens"): st.column_config.TextColumn(width="medium")})
    st.caption(tr("beam.hypotheses_caption", alpha=record.length_penalty_alpha))


def compare_greedy(text, direction, width, alpha, max_len, language) -> None:
    st.subheader(tr("beam.greedy_vs_beam"))
    columns = st.columns(2)
    for column, k, title in ((columns[0], 1, tr("beam.greedy")), (columns[1], width, tr("beam.beam", k=width))):
        best = translate(text, direction, k, alpha, max_len).record.hypotheses[0]
        with column:
            st.markdown(f"**{title}**")
            st.text(detokenize(best.tokens, language) or "∅")
            st.caption(tr("beam.result_caption", line=log_line(best.log_prob), length=best.length,
                          score=f"{best.score:.3f}"))
    st.caption(tr("beam.greedy_vs_beam_caption"))


def what_if(text, direction, width, alpha, max_len, record, language) -> None:
    st.subheader(tr("beam.what_if"))
    best_path = record.best_path_nodes()
    if not best_path:
        return
    left, right = st.columns(2)
    at = dependent_index(left.selectbox, tr("beam.whatif_step"), len(best_path), "beam.whatif_step",
                         context=tuple(n.token for n in best_path),
                         format_func=lambda s: f"{s + 1}: {best_path[s].token}")
    parent = best_path[at].parent
    alternatives = [c for c in record.steps[at].candidates
                    if c.parent == parent and c.token != EOS and c.hypothesis != best_path[at].hypothesis]
    chosen = None
    if alternatives:
        chosen = right.selectbox(tr("beam.whatif_token"), alternatives, key=f"beam.whatif_token.{at}",
                                 format_func=lambda c: f"{c.token}  (p = {c.prob:.3f})")
    else:
        right.caption(tr("beam.whatif_no_alternative"))
    typed = st.text_input(tr("beam.whatif_prefix"), key="beam.prefix", max_chars=200,
                          help=tr("beam.whatif_prefix_help"))
    if typed.strip():
        prefix_tokens = [t for t in translator().tokenizer.split(typed)[0] if t != "<unk>"]
    elif chosen is not None:
        prefix_tokens = [c.token for c in best_path[:at]] + [chosen.token]
    else:
        return
    if not prefix_tokens:
        st.info(tr("beam.whatif_unknown_prefix"))
        return
    forced = translate(text, direction, width, alpha, max_len, prefix=" ".join(prefix_tokens))
    forced_best = forced.record.hypotheses[0]
    beam_best = record.hypotheses[0]
    new, old = score(text, direction, forced.output_tokens), score(text, direction, [t for t in beam_best.tokens
                                                                                   if t != EOS])
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{tr('beam.whatif_result', prefix=md(tokens_text(prefix_tokens)))}**")
        st.text(detokenize(forced_best.tokens, language) or "∅")
        st.caption(tr("beam.whatif_prob", line=log_line(new.log_prob)))
    with right:
        st.markdown(f"**{tr('beam.whatif_original')}**")
        st.text(detokenize(beam_best.tokens, language) or "∅")
        st.caption(tr("beam.whatif_prob", line=log_line(old.log_prob)))
    verdict = "beam.whatif_better" if new.log_prob > old.log_prob + 1e-9 else "beam.whatif_worse"
    st.caption(tr(verdict, ratio=f"{np.exp(new.log_prob - old.log_prob):.3g}"))


def bleu_part(text, direction, translation) -> None:
    st.subheader(tr("beam.bleu"))
    corpus = find_reference(text, direction)
    follow_sentence("beam.reference", corpus or "", (text, direction))
    reference = st.text_input(tr("beam.reference"), key="beam.reference", max_chars=500,
                              help=tr("beam.reference_help"))
    st.caption(tr("beam.reference_from_corpus") if corpus and reference == corpus
               else tr("beam.reference_typed") if reference.strip() else "")
    if not reference.strip():
        st.info(tr("beam.no_reference"), icon=":material/edit_note:")
        return
    tokenizer = translator().tokenizer
    candidate = list(translation.output_tokens)
    reference_tokens = metric_tokens(tokenizer, reference)
    st.markdown(tr("beam.bleu_tokens", candidate=md(tokens_text(candidate)),
                   reference=md(tokens_text(reference_tokens))))
    show_bleu(candidate, reference_tokens, "beam.bleu")


def sentence_part() -> None:
    result = require_translation()
    if result is None:
        return
    text, direction = sentence()
    config = translator().config
    c1, c2, c3 = st.columns(3)
    width = c1.slider(tr("beam.width"), 1, 8, 4, key="beam.width", help=tr("beam.width_help"))
    alpha = c2.slider(tr("beam.alpha"), 0.0, 1.5, DEFAULT_LENGTH_PENALTY, 0.05, key="beam.alpha",
                      help=tr("beam.alpha_help"))
    max_len = c3.slider(tr("beam.max_len"), 1, config.max_len, config.max_len, key="beam.max_len",
                        help=tr("beam.max_len_help"))
    translation = translate(text, direction, width, alpha, max_len)
    record = translation.record
    st.markdown(f"**{tr('beam.output')}**")
    st.text(translation.output_text or "∅")
    language = translation.target_language

    def tree_part() -> None:
        st.subheader(tr("beam.tree"))
        step_view(text, direction, width, alpha, max_len)
        st.caption(tr("beam.tree_caption"))

    def hypotheses_part() -> None:
        st.subheader(tr("beam.hypotheses"))
        hypotheses_table(record, language)
        compare_greedy(text, direction, width, alpha, max_len, language)

    # One part at a time, each drawn only while open: together they were five tables, a chart and three more
    # searches on every new sentence.
    sections("beam.part", {
        "beam.part_tree": tree_part, "beam.part_hypotheses": hypotheses_part,
        "beam.part_what_if": lambda: what_if(text, direction, width, alpha, max_len, record, language),
        "beam.part_bleu": lambda: bleu_part(text, direction, translation)})


def course_part() -> None:
    st.subheader(tr("beam.toy"))
    st.markdown(tr("beam.toy_intro"))
    prefixes = list(COURSE_TABLE)
    st.dataframe({tr("beam.col_prefix"): [" ".join(p) or "∅" for p in prefixes],
                  **{token: [COURSE_TABLE[p][token] for p in prefixes] for token in VOCAB}},
                 hide_index=True, key="beam.toy_table")
    st.caption(tr("beam.toy_table_caption"))
    greedy = greedy_search(course_next_probs, 4)
    toy_width = st.slider(tr("beam.toy_width"), 1, 4, 2, key="beam.toy_width")
    beam = beam_search(course_next_probs, toy_width, 4)
    exhaustive = exhaustive_search(course_next_probs, 4)
    rows = []
    for name, result in ((tr("beam.greedy"), greedy), (tr("beam.beam", k=toy_width), beam),
                         (tr("beam.exhaustive"), exhaustive)):
        probs = [course_next_probs(tuple(result.tokens[:i]))[t] for i, t in enumerate(result.tokens)]
        rows.append((name, " ".join(result.tokens), " × ".join(f"{p:g}" for p in probs), f"{result.prob:.3f}",
                     result.examined))
    st.dataframe({tr("beam.col_search"): [r[0] for r in rows], tr("beam.col_tokens"): [r[1] for r in rows],
                  tr("beam.col_product"): [r[2] for r in rows], "P": [r[3] for r in rows],
                  tr("beam.col_examined"): [r[4] for r in rows]},
                 hide_index=True, key="beam.toy_results")
    st.markdown("#### " + tr("beam.toy_line", greedy=f"{greedy.prob:.3f}", best=f"{exhaustive.prob:.3f}"))
    chart(tree_figure(beam.record, None), key="beam.toy_tree")
    st.caption(tr("beam.toy_tree_caption"))

    st.subheader(tr("beam.count"))
    c1, c2, c3 = st.columns(3)
    n = int(c1.number_input(tr("beam.count_n"), 1, 1_000_000, 10_000, key="beam.count_n"))
    T = int(c2.number_input(tr("beam.count_T"), 1, 100, 10, key="beam.count_T"))
    k = int(c3.number_input(tr("beam.count_k"), 1, 100, 5, key="beam.count_k"))

    def sci(value: int) -> str:
        mantissa, exponent = scientific(value)
        head = f"{mantissa:.4g}"
        return str(value) if exponent < 4 else (rf"10^{{{exponent}}}" if head == "1"
                                                else rf"{head} \times 10^{{{exponent}}}")

    st.latex(rf"n^T = {n}^{{{T}}} = {sci(exhaustive_count(n, T))}")
    st.latex(rf"k \cdot n \cdot T = {k} \cdot {n} \cdot {T} = {sci(beam_cost(k, n, T))}")
    st.caption(tr("beam.count_caption"))


frame()
page_title("beam")
explanation("beam")
sections("beam.tab", {"beam.tab_sentence": sentence_part, "beam.tab_course": course_part})
