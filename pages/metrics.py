"""Metrics: BLEU (clipped n-gram precisions, brevity penalty), ROUGE-N recall and perplexity, worked out on
the user's own pair (the model's output, editable, against the corpus reference or a typed one), and the
course's ABCDEF / ABBCD example one click away."""

from collections.abc import Callable

import streamlit as st

from pages.parts.cache import score, translator
from pages.parts.controls import choice, linked
from pages.parts.frame import frame
from pages.parts.metrics import show_bleu
from pages.parts.model_picker import translator_only
from pages.parts.state import catalogue_labels, follow_sentence, sentence, tr
from pages.parts.text import fraction, md, tokens_text
from pages.parts.widgets import chart, explanation, page_title, require_translation, sections
from viz_model import figures
from viz_model.lessons.metrics import (
    COURSE_BLEU_CANDIDATE,
    COURSE_BLEU_REFERENCE,
    candidate_tokens,
    metric_tokens,
    perplexity,
    rouge_table,
)
from viz_model.lessons.references import find_reference


def show_rouge(candidate: list[str], reference: list[str], key: str) -> None:
    results = rouge_table(candidate, reference)
    st.dataframe(
        {
            tr("metrics.col_n"): [f"ROUGE-{r.n}" for r in results],
            tr("metrics.col_rouge_matches"): [r.matches for r in results],
            tr("metrics.col_rouge_total"): [r.total for r in results],
            tr("metrics.col_fraction"): [fraction(r.matches, r.total) for r in results],
            tr("metrics.col_recall"): [round(r.recall, 4) for r in results],
        },
        hide_index=True,
        key=f"{key}.rouge",
    )
    st.caption(tr("metrics.rouge_caption"))


def show_perplexity(text: str, direction: str, tokens: list[str], title: str, key: str) -> None:
    scored = score(text, direction, tokens)
    result = perplexity(scored.log_probs, base=2)
    T = len(scored.tokens)
    st.markdown(f"**{title}**")
    st.latex(
        rf"\mathrm{{PPL}} = 2^{{-\frac{{1}}{{{T}}}\sum_t \log_2 p_t}}"
        rf" = 2^{{{result.mean_negative_log_prob:.3f}}} = {result.perplexity:.3f}"
    )
    labels = [f"{i}:{figures.escape_label(t)}" for i, t in enumerate(scored.tokens)]
    chart(
        figures.bar_chart(
            labels,
            result.probabilities,
            x_title=tr("metrics.axis_token"),
            y_title=tr("metrics.axis_probability"),
            horizontal=False,
            value_format=".2f",
            highlight=[p < 0.5 for p in result.probabilities],
        ),
        key=key,
    )


def sentence_mode() -> None:
    result = require_translation()
    if result is None:
        return
    text, direction = sentence()
    tokenizer = translator().tokenizer
    signature = (text, direction, result.output_text)
    follow_sentence("metrics.candidate", result.output_text, signature)
    corpus = find_reference(text, direction)
    follow_sentence("ref", corpus or "", (text, direction))
    left, right = st.columns(2)
    candidate_text = left.text_input(
        tr("metrics.candidate"), key="metrics.candidate", max_chars=500, help=tr("metrics.candidate_help")
    )
    reference_text = linked(
        right.text_input, tr("metrics.reference"), key="ref", max_chars=500, help=tr("metrics.reference_help")
    )
    if corpus and reference_text == corpus:
        right.caption(tr("metrics.reference_from_corpus"))
    elif not corpus:
        right.caption(tr("metrics.reference_not_in_corpus"))
    candidate = candidate_tokens(tokenizer, candidate_text, result.output_text, result.output_tokens)
    reference = metric_tokens(tokenizer, reference_text)
    st.markdown(tr("metrics.tokens_line", candidate=md(tokens_text(candidate)), reference=md(tokens_text(reference))))

    def n_gram_part(show: Callable[[], object]) -> Callable[[], None]:
        # BLEU and ROUGE compare with a reference; perplexity needs none.
        return show if reference else lambda: st.info(tr("metrics.no_reference"), icon=":material/edit_note:")

    def perplexity_part() -> None:
        st.caption(tr("metrics.perplexity_caption"))
        left, right = st.columns(2)
        if candidate:
            with left:
                show_perplexity(text, direction, candidate, tr("metrics.ppl_candidate"), "metrics.ppl_candidate")
        if reference:
            with right:
                show_perplexity(text, direction, reference, tr("metrics.ppl_reference"), "metrics.ppl_reference")

    # One metric at a time, as the course takes them, and only the open one is computed and drawn.
    sections(
        "part",
        {
            "metrics.bleu": n_gram_part(lambda: show_bleu(candidate, reference, "metrics.bleu")),
            "metrics.rouge": n_gram_part(lambda: show_rouge(candidate, reference, "metrics")),
            "metrics.perplexity": perplexity_part,
        },
    )


def course_mode() -> None:
    st.markdown(tr("metrics.course_intro"))
    left, right = st.columns(2)
    candidate_text = left.text_input(
        tr("metrics.candidate"), " ".join(COURSE_BLEU_CANDIDATE), key="metrics.course_candidate", max_chars=200
    )
    reference_text = right.text_input(
        tr("metrics.reference"), " ".join(COURSE_BLEU_REFERENCE), key="metrics.course_reference", max_chars=200
    )
    candidate, reference = candidate_text.split(), reference_text.split()
    if not reference:
        st.info(tr("metrics.no_reference"), icon=":material/edit_note:")
        return
    sections(
        "cpart",
        {
            "metrics.bleu": lambda: show_bleu(candidate, reference, "metrics.course_bleu"),
            "metrics.rouge": lambda: show_rouge(candidate, reference, "metrics.course"),
        },
    )


frame()
page_title("metrics")
explanation("metrics")
translator_only("metrics")  # an encoder does not translate: this page stays on ours
mode = choice(
    st.segmented_control, tr("metrics.mode"), ("sentence", "course"), "mode", catalogue_labels("metrics.mode_{}")
)
{"sentence": sentence_mode, "course": course_mode}[mode]()
