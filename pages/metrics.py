"""Metrics: BLEU (clipped n-gram precisions, brevity penalty), ROUGE-N recall and perplexity, worked out on
the user's own pair (the model's output, editable, against the corpus reference or a typed one), and the
course's ABCDEF / ABBCD example one click away."""

from collections.abc import Callable

import streamlit as st

from pages.parts.cache import translator
from pages.parts.controls import choice, linked
from pages.parts.frame import frame
from pages.parts.metrics import show_bleu, show_perplexity, show_rouge
from pages.parts.model_picker import translator_only
from pages.parts.state import catalogue_labels, follow_sentence, presenting, sentence, tr
from pages.parts.text import md, tokens_text
from pages.parts.widgets import explanation, page_title, require_translation, sections, settings_area
from viz_model.lessons.metrics import (
    COURSE_BLEU_CANDIDATE,
    COURSE_BLEU_REFERENCE,
    candidate_tokens,
    metric_tokens,
)
from viz_model.lessons.references import find_reference


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
    left, right = settings_area().columns(2)
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
    tokens_line = tr("metrics.tokens_line", candidate=md(tokens_text(candidate)), reference=md(tokens_text(reference)))
    if not presenting():  # on a projector under the tables, which then start on the first screen
        st.markdown(tokens_line)

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
    if presenting():
        st.markdown(tokens_line)


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
    settings_area().segmented_control,
    tr("metrics.mode"),
    ("sentence", "course"),
    "mode",
    catalogue_labels("metrics.mode_{}"),
)
{"sentence": sentence_mode, "course": course_mode}[mode]()
