"""The Streamlit side of the frame every page shares: the page list, the cached model, the sidebar (one
sentence, one direction, one interface language for the whole app, mirrored in the URL), the translation
with its notices, and each page's explanation box.

Pages stay thin: `lang()`/`tr()` for words, `require_translation()` for the current sentence's result,
`explanation(section)` for the opening box, `chart(fig, key)` to draw, everything else from viz_model.
"""
from __future__ import annotations

import gc
import os
import runpy
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from pages.i18n import LANGUAGE_NAMES, LANGUAGES, normalise_language, t
from viz_model import figures
from viz_model.lessons.suggest import SentenceIndex, Suggestion, typed_language
from viz_model.model import checkpoint
from viz_model.model.decoding import DEFAULT_LENGTH_PENALTY
from viz_model.model.tokenizer import DIRECTIONS
from viz_model.model.translator import (
    DEFAULT_BEAM_WIDTH,
    LOW_CONFIDENCE,
    Translation,
    Translator,
    normalise_direction,
    suggested_direction,
)

MODEL_DIR_ENV = "ATTENTION_LAB_MODEL_DIR"      # tests point the app at another model directory
MAX_TEXT_CHARS = 1000                          # the text box and the URL; the model reads ≤ max_len tokens
TRANSLATION_CACHE_ENTRIES = 64                 # per process, shared by all sessions
DEFAULT_TEXT = "Please buy an apple and an orange."


@dataclass(frozen=True)
class PageSpec:
    """One page of the app. Its title is the catalogue string "<section>.title"."""

    file: str
    section: str
    icon: str
    url_path: str


# The app's pages in menu order. To add one: write pages/<file>.py, add a line here, and give its section
# a "title" (and "short", the one-line description on the Home page) in assets/i18n/en.json and zh.json.
PAGES = (
    PageSpec("pages/home.py", "home", ":material/home:", "home"),
    PageSpec("pages/tokens.py", "tokens", ":material/text_fields:", "tokens"),
    PageSpec("pages/similarity.py", "similarity", ":material/compare_arrows:", "similarity"),
    PageSpec("pages/attention.py", "attention", ":material/grid_on:", "attention"),
    PageSpec("pages/step_by_step.py", "step", ":material/calculate:", "step_by_step"),
    PageSpec("pages/positional.py", "positional", ":material/waves:", "positional"),
    PageSpec("pages/beam_search.py", "beam", ":material/account_tree:", "beam_search"),
    PageSpec("pages/metrics.py", "metrics", ":material/rule:", "metrics"),
)

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
    ("app.example_long", "The policeman will open the black umbrella and the teacher will eat this small mango.",
     "en2zh"),
)

APP_FILE = Path(__file__).resolve().parent.parent / "app.py"
ICON = APP_FILE.parent / "assets" / "icon.png"
FRAME_MARK = "_frame_drawn"


def frame() -> None:
    """The first call of every page: makes sure app.py's frame (navigation, sidebar) ran in this run.

    app.py marks the session just before running the page, and the page consumes the mark. Without it the
    page was started directly: Streamlit still keeps its pre-`st.navigation` behaviour for a folder named
    `pages/` and runs a sub-page URL's file on its own when no `st.navigation` call has happened yet in the
    process (the first visitor of a fresh server, and every AppTest run). Then we run app.py, which draws
    the frame and runs this page again inside it, and stop here so the page is not drawn twice.
    """
    if st.session_state.pop(FRAME_MARK, False):
        return
    runpy.run_path(str(APP_FILE), run_name="__main__")
    st.stop()


# ------------------------------------------------------------------------------------------ words

def lang() -> str:
    return normalise_language(st.session_state.get("lang"))


def tr(key: str, **values) -> str:
    """The interface text for `key` in the current language (see pages.i18n)."""
    return t(key, lang(), **values)


def labeller(template: str):
    """A widget's format_func: `template` (e.g. "attention.kind_{}") filled with the option, in the language
    of this run. The language is bound now, not looked up later: AppTest formats options outside the run."""
    language = lang()
    return lambda option: t(template.format(option), language)


_MARKDOWN_SPECIAL = str.maketrans({ch: "\\" + ch for ch in string.punctuation})


def md(text) -> str:
    """User text made inert for st.markdown: every ASCII punctuation mark backslash-escaped (CommonMark
    renders an escaped mark as itself), so `**x**`, `$x$`, `:red[x]` and `<b>` stay literal text."""
    return " ".join(str(text).split()).translate(_MARKDOWN_SPECIAL)


# ------------------------------------------------------------------------------------------ the model

def model_dir() -> Path:
    return Path(os.environ.get(MODEL_DIR_ENV) or checkpoint.MODEL_DIR)


@st.cache_resource(show_spinner=False)
def _load_translator(directory: str) -> Translator:
    import torch

    # Many browser sessions share 2 cores: one thread per forward pass avoids oversubscription.
    torch.set_num_threads(1)
    loaded = Translator.load(Path(directory))
    # Streamlit collects garbage after every script run (runner.postScriptGC). With torch, plotly and pandas
    # loaded that walks ~250k long-lived objects: 0.13 s per rerun on this machine, holding the GIL, so the
    # server sends nothing meanwhile. Freezing what exists now (modules, the model) keeps those objects out
    # of every later collection (0.13 s → 1 ms); objects made by the reruns are still collected.
    gc.freeze()
    return loaded


def translator() -> Translator:
    """The one shared model (loaded once per process); raises checkpoint.CheckpointError."""
    return _load_translator(str(model_dir()))


@st.cache_resource(show_spinner=False)
def _sentence_index(language: str) -> SentenceIndex:
    return SentenceIndex.from_corpus(language)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def closest_known(text: str) -> list[Suggestion]:
    """The known sentences closest to a sentence with unknown words (viz_model.lessons.suggest)."""
    return _sentence_index(typed_language(text)).closest(text, k=3)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _translate(directory: str, text: str, direction: str, beam_width: int, length_penalty: float, max_len: int,
               prefix: str) -> Translation:
    return _load_translator(directory).translate(text, direction, beam_width=beam_width,
                                                 length_penalty=length_penalty, max_len=max_len, prefix=prefix)


def translate(text: str, direction: str, beam_width: int = DEFAULT_BEAM_WIDTH,
              length_penalty: float = DEFAULT_LENGTH_PENALTY, max_len: int | None = None,
              prefix: str = "") -> Translation:
    """Beam search + trace of one sentence, cached per (model, text, direction, search settings). The sidebar
    uses the app's settings; the Beam search page's own settings (beam_width 1 is greedy search) share the
    cache, so its default view is the sidebar's translation, not a second search."""
    full_length = translator().config.max_len
    return _translate(str(model_dir()), text, direction, int(beam_width), float(length_penalty),
                      min(int(max_len or full_length), full_length), prefix)


# ------------------------------------------------------------------------------------------ state + URL

def _clean_param(value: str | None) -> str:
    return (value or "")[:MAX_TEXT_CHARS]


def init_state() -> None:
    """On a session's first run, take sentence, direction and language from the URL (bad values → defaults)."""
    state = st.session_state
    if state.get("_initialised"):
        return
    params = st.query_params
    state["text"] = _clean_param(params.get("text")) if "text" in params else DEFAULT_TEXT
    state["dir"] = normalise_direction(params.get("dir"))
    state["lang"] = normalise_language(params.get("lang"))
    state["_initialised"] = True


def link_params() -> dict[str, str]:
    """The query parameters that reproduce the current view; pass them to st.page_link."""
    state = st.session_state
    return {"text": state.get("text", ""), "dir": normalise_direction(state.get("dir")), "lang": lang()}


def sync_url() -> None:
    """Mirror the shared state in the URL, so the address bar is always a link to this view."""
    for key, value in link_params().items():      # other parameters (a page's own) are left alone
        if st.query_params.get(key) != value:
            st.query_params[key] = value


def sentence() -> tuple[str, str]:
    state = st.session_state
    return state.get("text", ""), normalise_direction(state.get("dir"))


COREFERENCE_SENTENCE = "The animal didn't cross the street because it was too tired."


def use_sentence(text: str, direction: str) -> None:
    """on_click for a button that puts a sentence in the sidebar box."""
    _set_example(text, direction)


def _set_example(text: str, direction: str) -> None:
    st.session_state["text"] = text
    st.session_state["dir"] = direction


def _switch_direction(direction: str) -> None:
    st.session_state["dir"] = direction


# ------------------------------------------------------------------------------------------ sidebar

def sidebar() -> Translation | None:
    """The controls shared by all pages, drawn by app.py so they survive page switches.

    Returns the current translation, None when the text is blank; raises CheckpointError (after drawing the
    controls, so the language switch still works on the error page).
    """
    init_state()
    with st.sidebar:
        st.segmented_control(t("app.language", "en") + " / " + t("app.language", "zh"), options=LANGUAGES,
                             format_func=LANGUAGE_NAMES.get, key="lang", selection_mode="single",
                             on_change=_keep_language)
        st.text_input(tr("app.sentence"), key="text", max_chars=MAX_TEXT_CHARS,
                      help=tr("app.sentence_help"), placeholder=tr("app.sentence_placeholder"))
        st.radio(tr("app.direction"), options=tuple(DIRECTIONS), key="dir", horizontal=True,
                 format_func=labeller("app.dir_{}"), help=tr("app.direction_help"))
        folded(tr("app.examples"), "examples", _example_buttons)
    sync_url()
    translator()                       # raises CheckpointError before anything else needs the model
    text, direction = sentence()
    if translator().is_empty(text):
        return None
    result = translate(text, direction)
    with st.sidebar:
        show_translation(result, compact=True)
    return result


def _example_buttons() -> None:
    for i, (group, text, direction) in enumerate(EXAMPLES):
        st.button(f"{tr(group)} · {text}", key=f"example_{i}", on_click=_set_example, args=(text, direction),
                  width="stretch")


def _keep_language() -> None:
    # A segmented control can be clicked off (None); keep the language instead of losing it.
    if st.session_state.get("lang") not in LANGUAGES:
        st.session_state["lang"] = st.session_state.get("_last_lang", "en")
    st.session_state["_last_lang"] = st.session_state["lang"]


def show_translation(result: Translation, compact: bool = False) -> None:
    """The translation; in the sidebar (compact) also friendly notices for unknown words, a cut sentence
    and a likely wrong direction."""
    st.markdown(f"**{tr('app.translation')}**")
    st.text(result.output_text or "∅")          # st.text: never Markdown, never HTML
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
                st.button(suggestion.text, key=f"closest_{i}", on_click=_set_example,
                          args=(suggestion.text, suggested_direction(suggestion.text)), width="stretch")
    if result.low_confidence:
        st.warning(tr("common.low_confidence", p=result.mean_token_probability, limit=LOW_CONFIDENCE),
                   icon=":material/psychology_alt:")
    if result.source.truncated:
        st.info(tr("common.truncated", max=translator().max_source_words, n=result.source.original_length),
                icon=":material/content_cut:")
    text, direction = sentence()
    suggested = suggested_direction(text)
    if suggested != direction:
        source_language = DIRECTIONS[suggested][0]
        st.caption(tr("app.suggest_direction", language=tr(f"app.language_{source_language}")))
        st.button(tr("app.switch_direction"), key="switch_direction", on_click=_switch_direction,
                  args=(suggested,))


def show_checkpoint_error(err: checkpoint.CheckpointError) -> None:
    """One page-level message naming the broken file and the command that rebuilds it (no traceback)."""
    st.error(f"**{tr('common.checkpoint_error_title')}**  \n"
             + tr("common.checkpoint_error", path=err.path, problem=md(err.problem)), icon=":material/error:")
    st.code(err.command, language="bash")


# ------------------------------------------------------------------------------------------ page parts

def page_title(section: str) -> None:
    st.title(tr(f"{section}.title"))


def explanation(section: str) -> None:
    """The page's opening explanation: "<section>.intro" (Markdown) and "<section>.formula" (LaTeX), in a
    box the reader can fold away. Optional "<section>.formula2"… add more formulas."""
    with st.expander(tr("common.about"), expanded=True, icon=":material/school:"):
        st.markdown(tr(f"{section}.intro"))
        for suffix in ("formula", "formula2", "formula3"):
            formula = tr(f"{section}.{suffix}")
            if formula != f"{section}.{suffix}":
                st.latex(formula)


def sections(key: str, parts: dict[str, Callable[[], None]]) -> None:
    """A page's sections (catalogue key of the label -> function drawing its content), picked with a row of
    buttons; only the chosen one runs: a hidden section's charts would cost a rerun's time and payload for
    nothing on screen. Choosing another reruns.

    Not st.tabs: its panels (react-aria) watch every change inside them and, on each, walk the panel for a
    focusable element, checking each one's visibility, which makes the browser recompute styles mid-render.
    On Beam search, with a section inside a section, that was 10 % of a new sentence's time (measured
    side by side, 40 runs)."""
    labels = [tr(label) for label in parts]
    # The widget's state is the chosen section's label, so after a language switch it names none: carry the
    # choice over to its label in the new language (and start on the first section).
    chosen = st.session_state.get(key)
    if chosen not in labels:
        st.session_state[key] = labels[0]
        for label_key, label in zip(parts, labels):
            if chosen in (t(label_key, lang) for lang in LANGUAGES):
                st.session_state[key] = label
    chosen = st.segmented_control(tr("common.sections"), labels, key=key, required=True,
                                  label_visibility="collapsed")
    dict(zip(labels, parts.values()))[chosen]()


def folded(label: str, key: str, draw: Callable[[], None]) -> None:
    """An expander, closed at first, whose content runs only while it is open (opening it reruns): content
    nobody has unfolded would cost every rerun its time and payload, and the browser its drawing."""
    box = st.expander(label, key=key, on_change="rerun")
    if box.open:
        with box:
            draw()


def require_translation() -> Translation | None:
    """The current sentence's translation, or None after showing the friendly empty-text prompt."""
    text, direction = sentence()
    if translator().is_empty(text):
        st.info(tr("common.empty_prompt"), icon=":material/keyboard:")
        return None
    return translate(text, direction)


def chart(fig, key: str) -> None:
    """Draw a plotly figure full width, with a keyed element so Streamlit can reuse it between reruns."""
    # theme=None: the figures carry their own colours (viz_model.figures' one colour-scale policy).
    # react_ready: Streamlit hands plotly every new figure twice; prepared, the second time costs no drawing.
    st.plotly_chart(figures.react_ready(fig), key=key, width="stretch", theme=None,
                    config={"displaylogo": False, "scrollZoom": False})


# ------------------------------------------------------------------------------------------ attention

# Which side of the translation each attention kind's rows (queries) and columns (keys) come from.
_AXIS_KEYS = {"encoder_self": ("axis.query_source", "axis.key_source"),
              "decoder_self": ("axis.query_target", "axis.key_target"),
              "cross": ("axis.query_target", "axis.key_source")}


def axis_titles(kind: str) -> tuple[str, str]:
    """(y title, x title) for an attention matrix: rows are queries, columns keys, always said so."""
    y_key, x_key = _AXIS_KEYS[kind]
    return tr(y_key), tr(x_key)


def attention_controls(prefix: str, kind_default: str = "encoder_self") -> tuple[str, int]:
    """Kind and layer selectors (keys "<prefix>.kind", "<prefix>.layer"); layers are shown from 1."""
    from viz_model.model.trace import ATTENTION_KINDS

    config = translator().config
    left, right = st.columns(2)
    kind = left.selectbox(tr("attention.kind"), ATTENTION_KINDS, key=f"{prefix}.kind",
                          index=ATTENTION_KINDS.index(kind_default),
                          format_func=labeller("attention.kind_{}"))
    n_layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    layer = dependent_index(right.selectbox, tr("common.layer"), n_layers, f"{prefix}.layer",
                            context=n_layers, format_func=lambda i: str(i + 1))
    return kind, layer


def dependent_index(widget, label: str, n: int, key: str, context, **kwargs) -> int:
    """A choice among positions 0..n-1 whose meaning depends on other controls (query token on the kind
    and sentence, layer on the kind, step on the search). Valid by construction: the choice lives in
    `st.session_state[key]` as a plain int, clamped into range on every run; the widget's own key carries
    its context, so a new context is a new widget over the new positions, and no stale value of another
    context (or of another type) can ever reach it."""
    chosen = st.session_state.get(key, 0)
    if not isinstance(chosen, int) or not 0 <= chosen < n:
        chosen = 0
    st.session_state[key] = chosen
    widget_key = f"{key}@{hash(context) & 0xFFFFFFFF:08x}"
    if st.session_state.get(widget_key) != chosen:
        st.session_state[widget_key] = chosen
    widget(label, range(n), key=widget_key, on_change=_copy_state, args=(widget_key, key), **kwargs)
    return chosen


def _copy_state(source: str, target: str) -> None:
    st.session_state[target] = st.session_state[source]
