"""The pieces every page is built from: title and explanation box, sections and folded parts that run only
while shown, the chart element, a position picker that stays valid, the attention selectors, and Markdown
escaping for text a user typed."""
from __future__ import annotations

import string
from collections.abc import Callable

import streamlit as st

from pages.cache import translate, translator
from pages.i18n import LANGUAGES, t
from pages.state import labeller, sentence, tr
from viz_model import figures
from viz_model.model.trace import ATTENTION_KINDS
from viz_model.model.translator import Translation

_MARKDOWN_SPECIAL = str.maketrans({ch: "\\" + ch for ch in string.punctuation})


def md(text) -> str:
    """User text made inert for st.markdown: every ASCII punctuation mark backslash-escaped (CommonMark
    renders an escaped mark as itself), so `**x**`, `$x$`, `:red[x]` and `<b>` stay literal text."""
    return " ".join(str(text).split()).translate(_MARKDOWN_SPECIAL)


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
    On Beam search, with a section inside a section, that is a noticeable share of a new sentence's time."""
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
