"""The sidebar every page shares (drawn by app.py, so it survives page switches): the interface language,
the sentence and its direction, one-click examples, and the translation with its notices."""

from __future__ import annotations

import json

import streamlit as st

from pages.parts.cache import closest_known, translate, translator
from pages.parts.controls import linked
from pages.parts.i18n import LANGUAGE_NAMES, LANGUAGES, t
from pages.parts.model_picker import model_picker, pretrained_picked
from pages.parts.state import (
    MAX_TEXT_CHARS,
    catalogue_labels,
    choose_direction,
    chosen_direction,
    direction_switch,
    follow_typed_text,
    init_state,
    sentence,
    switch_direction,
    sync_url,
    tr,
    undo_direction_switch,
    use_sentence,
)
from pages.parts.text import md
from pages.parts.widgets import folded
from viz_model.model import checkpoint
from viz_model.model.tokenizer import DIRECTIONS
from viz_model.model.translator import LOW_CONFIDENCE, Translation, suggested_direction

# One-click examples: (catalogue key of the button group, sentence, direction).
EXAMPLES = (
    ("app.example_course", "Please buy an apple and an orange.", "en2zh"),
    ("app.example_course", "An apple phone", "en2zh"),
    ("app.example_course", "The FBI is chasing a criminal on the run.", "en2zh"),
    ("app.example_course", "Thinking machines", "en2zh"),
    ("app.example_ambiguous", "I saw a saw.", "en2zh"),
    ("app.example_ambiguous", "A fly is drinking the juice.", "en2zh"),
    ("app.example_arithmetic", "One plus three equals four", "en2zh"),
    ("app.example_chinese", "一加三等于四", "zh2en"),
    ("app.example_chinese", "我看见了一把锯子。", "zh2en"),
    (
        "app.example_long",
        "The policeman will open the black umbrella and the teacher will eat this small mango.",
        "en2zh",
    ),
)


def sidebar() -> Translation | None:
    """The controls shared by all pages, drawn by app.py so they survive page switches.

    Returns the current translation, None when the text is blank or MiniLM is picked; raises CheckpointError
    (after drawing the controls, so the language switch still works on the error page).
    """
    init_state()
    st.html(input_hint_css(tr("app.press_enter")))
    with st.sidebar:
        st.segmented_control(
            t("app.language", "en") + " / " + t("app.language", "zh"),
            options=LANGUAGES,
            format_func=LANGUAGE_NAMES.get,
            key="lang",
            selection_mode="single",
            on_change=_keep_language,
        )
        st.text_input(
            tr("app.sentence"),
            key="text",
            max_chars=MAX_TEXT_CHARS,
            help=tr("app.sentence_help"),
            placeholder=tr("app.sentence_placeholder"),
            on_change=follow_typed_text,
        )
        st.radio(
            tr("app.direction"),
            options=tuple(DIRECTIONS),
            key="dir",
            horizontal=True,
            format_func=catalogue_labels("app.dir_{}"),
            help=tr("app.direction_help"),
            on_change=choose_direction,
        )
        _direction_switch_notice()
        folded(tr("app.examples"), "examples", _example_buttons)
        model_picker()
        linked(st.toggle, tr("app.present"), key="present", help=tr("app.present_help"))
    sync_url()
    translator()  # raises CheckpointError before anything else needs the model
    text, direction = sentence()
    if translator().is_empty(text):
        return None
    if pretrained_picked():
        # The pages show MiniLM, which does not translate: our translator's output is one click away instead of
        # running it on every new sentence (~50 ms of a MiniLM page's rerun, a beam search and a trace).
        with st.sidebar:
            folded(
                tr("app.translation_ours"),
                "translation_ours",
                lambda: show_translation(translate(text, direction), compact=True),
            )
        return None
    result = translate(text, direction)
    with st.sidebar:
        show_translation(result, compact=True)
    return result


def input_hint_css(words: str) -> str:
    """CSS that writes `words` for the "Press Enter to apply" Streamlit puts under every text box in English,
    whatever the page's language (nothing in Streamlit translates it). It is the first note of
    InputInstructions; the second, the characters typed of the most allowed, stays as it is."""
    first_note = '[data-testid="InputInstructions"] > span:first-child'
    # A JSON string is a CSS string too, its quotes and backslashes escaped (the characters themselves kept:
    # CSS does not read JSON's \uXXXX).
    return (
        f"<style>{first_note} {{ font-size: 0; }} "
        f"{first_note}::after {{ content: {json.dumps(words, ensure_ascii=False)}; font-size: 0.75rem; }}</style>"
    )


def _direction_switch_notice() -> None:
    """After typing switched the direction: one line saying so and one click back."""
    switched = direction_switch()
    if switched is None:
        return
    label = catalogue_labels("app.dir_{}")
    typed = tr(f"app.language_{DIRECTIONS[switched['to']][0]}")
    st.caption(":material/swap_horiz: " + tr("app.direction_followed", language=typed, direction=label(switched["to"])))
    st.button(
        tr("app.direction_undo", direction=label(switched["from"])),
        key="direction_undo",
        on_click=undo_direction_switch,
        icon=":material/undo:",
    )


def _example_buttons() -> None:
    for i, (group, text, direction) in enumerate(EXAMPLES):
        st.button(
            f"{tr(group)} · {text}", key=f"example_{i}", on_click=use_sentence, args=(text, direction), width="stretch"
        )


def _keep_language() -> None:
    # A segmented control can be clicked off (None); keep the language instead of losing it.
    if st.session_state.get("lang") not in LANGUAGES:
        st.session_state["lang"] = st.session_state.get("_last_lang", "en")
    st.session_state["_last_lang"] = st.session_state["lang"]


def show_translation(result: Translation, compact: bool = False) -> None:
    """The translation; in the sidebar (compact) also friendly notices for unknown words, a cut sentence
    and a likely wrong direction."""
    st.markdown(f"**{tr('app.translation')}**")
    st.text(result.output_text or "∅")  # st.text: never Markdown, never HTML
    if not compact:
        st.caption(tr("app.source_tokens", n=len(result.source.tokens)))
        return
    if result.source.unknown_words:
        words = ", ".join(f"“{w}”" for w in dict.fromkeys(result.source.unknown_words))
        st.warning(tr("common.unknown_words", words=md(words)), icon=":material/help:")
        text, _ = sentence()
        closest = closest_known(text)
        if closest:
            st.caption(tr("common.closest_known"))
            for i, suggestion in enumerate(closest):
                st.button(
                    suggestion.text,
                    key=f"closest_{i}",
                    on_click=use_sentence,
                    args=(suggestion.text, suggested_direction(suggestion.text)),
                    width="stretch",
                )
    if result.low_confidence:
        st.warning(
            tr("common.low_confidence", p=result.mean_token_probability, limit=LOW_CONFIDENCE),
            icon=":material/psychology_alt:",
        )
    if result.source.truncated:
        st.info(
            tr("common.truncated", max=translator().max_source_words, n=result.source.original_length),
            icon=":material/content_cut:",
        )
    text, direction = sentence()
    suggested = suggested_direction(text)
    if suggested != direction and chosen_direction(text) != direction:  # a direction chosen for this text stays
        source_language = DIRECTIONS[suggested][0]
        st.caption(tr("app.suggest_direction", language=tr(f"app.language_{source_language}")))
        st.button(tr("app.switch_direction"), key="switch_direction", on_click=switch_direction, args=(suggested,))


def show_checkpoint_error(err: checkpoint.CheckpointError) -> None:
    """One page-level message naming the broken file and the command that restores it (no traceback)."""
    st.error(
        f"**{tr('common.checkpoint_error_title')}**  \n"
        + tr("common.checkpoint_error", path=err.path, problem=md(err.problem)),
        icon=":material/error:",
    )
    st.code(err.command, language="bash")
