"""What a session remembers and the URL mirrors: the sentence, its direction and the interface language, and
the words of the interface in that language (`tr`)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from pages.parts.cache import translator
from pages.parts.i18n import normalise_language, t
from pages.parts.text import md
from viz_model.lessons.search_views import beam_default
from viz_model.model.translator import normalise_direction, suggested_direction, typed_direction

MAX_TEXT_CHARS = 1000  # the text box and the URL; the model reads ≤ max_len tokens
DEFAULT_TEXT = "Please buy an apple and an orange."


def lang() -> str:
    return normalise_language(st.session_state.get("lang"))


def tr(key: str, **values) -> str:
    """The interface text for `key` in the current language (see pages.parts.i18n)."""
    return t(key, lang(), **values)


def catalogue_labels(template: str) -> Callable[..., str]:
    """The catalogue's text for each option of a widget: template.format(option), e.g. "attention.kind_{}".
    Called with (option, language) as `choice`'s labels, or with the option alone as a widget's format_func:
    then in the language of this run, bound now, not looked up later (AppTest formats options outside the
    run)."""
    bound = lang()
    return lambda option, language=None: t(template.format(option), language or bound)


def _clean_param(value: str | None) -> str:
    return (value or "")[:MAX_TEXT_CHARS]


def init_state() -> None:
    """On a session's first run, take sentence, direction and language from the URL (bad values → defaults)."""
    state = st.session_state
    if state.get("_initialised"):
        return
    params = st.query_params
    state["text"] = _clean_param(params.get("text")) if "text" in params else DEFAULT_TEXT
    state["_text_is_default"] = "text" not in params
    # A link naming a sentence but no direction reads it from the sentence's language (a Chinese sentence
    # is translated into English), as a reader would expect of ?text=这本书很好看.
    implied = suggested_direction(state["text"]) if "text" in params and "dir" not in params else "en2zh"
    state["dir"] = normalise_direction(params.get("dir"), default=implied)
    state["lang"] = normalise_language(params.get("lang"))
    state["_initialised"] = True
    for key, kept in (("lang", state["lang"]), ("dir", state["dir"])):
        if key in params and params.get(key) != kept:
            notice_dropped(key, params.get(key))


BEAM_PAGE = "beam_search"


def page_default_sentence(url_path: str) -> None:
    """Call before the sidebar. Beam search opens, once a session, on a sentence where beam and greedy
    search differ (viz_model.lessons.search_views.beam_default), when the reader has not chosen a sentence
    yet (the app's default, not one from a link or typed)."""
    state = st.session_state
    if url_path != BEAM_PAGE or state.get("_beam_default_done"):
        return
    state["_beam_default_done"] = True
    if not state.get("_text_is_default") or state.get("text") != DEFAULT_TEXT:
        return
    pick = beam_default(translator())
    if pick.direction == state.get("dir"):  # a direction the reader chose (or a link named) stays
        state["text"] = pick.text


NOTICE_CHARS = 40  # a dropped URL value is quoted up to this many characters


def notice_dropped(key: str, value: str) -> None:
    """A short notice that the link's value for the setting `key` names nothing here, so the default is
    shown (a hand-edited or outdated link); the value is quoted as text, never as Markdown."""
    shown = str(value)[:NOTICE_CHARS] + ("…" if len(str(value)) > NOTICE_CHARS else "")
    st.toast(tr("common.url_dropped", name=md(key), value=md(shown)), icon=":material/link_off:")


def link_params() -> dict[str, str]:
    """The query parameters that reproduce the current view; pass them to st.page_link."""
    state = st.session_state
    return {"text": state.get("text", ""), "dir": normalise_direction(state.get("dir")), "lang": lang()}


def sync_url() -> None:
    """Mirror the shared state in the URL, so the address bar is always a link to this view."""
    for key, value in link_params().items():  # other parameters (a page's own) are left alone
        if st.query_params.get(key) != value:
            st.query_params[key] = value


def presenting() -> bool:
    """Presentation mode (the sidebar's switch, ?present=true): explanations folded, bigger chart text,
    Previous/Next through a page's sections."""
    return bool(st.session_state.get("present"))


def sentence() -> tuple[str, str]:
    state = st.session_state
    return state.get("text", ""), normalise_direction(state.get("dir"))


def use_sentence(text: str, direction: str) -> None:
    """on_click for a button that puts a sentence (and its direction) in the sidebar box."""
    st.session_state["text"] = text
    st.session_state["dir"] = direction


def switch_direction(direction: str) -> None:
    """on_click for a button that sets the direction: the reader's choice for the current text."""
    st.session_state["dir"] = direction
    choose_direction()


# The direction follows what the reader types (viz_model.model.translator.typed_direction) unless the reader
# chose it for that text: by the direction radio after typing it, or by undoing a switch. One choice is kept:
# (text, direction); a switch made by typing is kept to show its notice: {"text", "from", "to"}.
CHOICE, SWITCHED = "_dir_choice", "_dir_switched"


def chosen_direction(text: str) -> str | None:
    """The direction the reader chose for exactly this text, or None."""
    choice = st.session_state.get(CHOICE)
    return choice[1] if choice and choice[0] == text else None


def follow_typed_text() -> None:
    """on_change of the sentence box: let the direction follow the typed text's script."""
    state = st.session_state
    text, before = state.get("text", ""), normalise_direction(state.get("dir"))
    chosen = chosen_direction(text)
    after = typed_direction(text, before, chosen)
    state.pop(SWITCHED, None)
    if after != before:
        state["dir"] = after
        if chosen is None:  # the script switched it: say so (the reader's own earlier choice needs no notice)
            state[SWITCHED] = {"text": text, "from": before, "to": after}


def choose_direction() -> None:
    """on_change of the direction radio: the direction now set is the reader's choice for this text."""
    state = st.session_state
    state[CHOICE] = (state.get("text", ""), normalise_direction(state.get("dir")))
    state.pop(SWITCHED, None)


def direction_switch() -> dict | None:
    """The switch typing the current text made ({"text", "from", "to"}), while text and direction are still
    those; else None."""
    switched = st.session_state.get(SWITCHED)
    text, direction = sentence()
    if switched and switched["text"] == text and switched["to"] == direction:
        return switched
    return None


def undo_direction_switch() -> None:
    """on_click of the notice's undo: the direction before the switch, kept as the choice for this text."""
    switched = st.session_state.pop(SWITCHED, None)
    if switched:
        st.session_state["dir"] = switched["from"]
        choose_direction()


def follow_sentence(key: str, value: str, signature) -> None:
    """Give the widget `key` the default `value` whenever the sentence (its `signature`) changes, and keep
    the user's edit otherwise. Call before drawing the widget."""
    mark = f"{key}.__for"
    if mark not in st.session_state and key in st.query_params:  # a link's value wins on its first run
        st.session_state[mark] = signature
    elif st.session_state.get(mark) != signature:
        st.session_state[key] = value
        st.session_state[mark] = signature
