"""The pieces every page is built from: title and explanation box, sections and folded parts that run only
while shown, the chart element, a position picker that stays valid, the attention selectors, and Markdown
escaping for text a user typed."""
from __future__ import annotations

import string
from collections.abc import Callable

import streamlit as st

from pages.cache import translate, translator
from pages.frame import PAGE_SWITCHED
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
    buttons bound to the URL parameter `key`; only the chosen one runs: a hidden section's charts would cost
    a rerun's time and payload for nothing on screen. Choosing another reruns.

    Not st.tabs: its panels (react-aria) watch every change inside them and, on each, walk the panel for a
    focusable element, checking each one's visibility, which makes the browser recompute styles mid-render.
    On Beam search, with a section inside a section, that is a noticeable share of a new sentence's time."""
    labels = [tr(label) for label in parts]
    # The widget's state is the chosen section's label, so after a language switch it names none: carry the
    # choice over to its label in the new language. Before the widget exists in this session the URL decides
    # (Streamlit drops a label that is not an option, and the first section is the default).
    chosen = st.session_state.get(key)
    if chosen is not None and chosen not in labels:
        st.session_state[key] = labels[0]
        for label_key, label in zip(parts, labels):
            if chosen in (t(label_key, lang) for lang in LANGUAGES):
                st.session_state[key] = label
    default = {} if key in st.session_state else {"default": labels[0]}   # never both: Streamlit warns
    chosen = st.segmented_control(tr("common.sections"), labels, key=key, required=True,
                                  label_visibility="collapsed", **default, **URL)
    dict(zip(labels, parts.values())).get(chosen, next(iter(parts.values())))()


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


URL = {"bind": "query-params"}                                 # a page's own setting: in the URL
# kind, layer, head are also kept across pages, by `shared`. Not with persist_state="session": together
# with bind="query-params" the binding wins, and a page switch starts without the parameters, so the
# kept value was replaced by the default.
SHARED = URL
_KEPT = "_shared."        # the last value of a shared setting, in a key no widget owns


def _carry(key: str) -> bool:
    """Before a shared widget, on a page's first run after another page's and without its URL parameter:
    give it the value last chosen on any page (the binding would start it from its default). True if set."""
    if not st.session_state.get(PAGE_SWITCHED) or key in st.query_params:
        return False
    if st.session_state.get(_KEPT + key) is None:
        return False
    st.session_state[key] = st.session_state[_KEPT + key]      # set in this run: wins over the binding
    return True


def shared(widget, *args, key: str, **kwargs):
    """Draw a widget bound to the URL parameter `key` whose value follows the reader from page to page: a
    page switch starts without the parameter (and the binding wins over persist_state)."""
    if _carry(key):                              # a default beside a session value draws a warning
        kwargs.pop("default", None)
        kwargs.pop("index", None)
    value = widget(*args, key=key, **SHARED, **kwargs)
    st.session_state[_KEPT + key] = value
    return value


def attention_controls(kind_default: str = "encoder_self") -> tuple[str, int]:
    """Kind and layer selectors, bound to the URL parameters "kind" and "layer" and shared by the pages
    that show one attention layer; layers are shown from 1."""
    config = translator().config
    left, right = st.columns(2)
    kind = shared(left.selectbox, tr("attention.kind"), ATTENTION_KINDS, key="kind",
                  index=ATTENTION_KINDS.index(kind_default), format_func=labeller("attention.kind_{}"))
    n_layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    layer = dependent_index(right.selectbox, tr("common.layer"), n_layers, "layer",
                            format_func=lambda i: str(i + 1), share=True)
    return kind, layer


def head_picker(n_heads: int, where=st) -> int:
    """One head (shown from 1), bound to the URL parameter "head" and shared by the pages."""
    head = shared(where.segmented_control, tr("common.head"), range(n_heads), key="head", default=0,
                  format_func=lambda h: str(h + 1))
    return head if isinstance(head, int) and 0 <= head < n_heads else 0


def dependent_index(widget, label: str, n: int, key: str, share: bool = False, **kwargs) -> int:
    """A choice among positions 0..n-1 whose meaning depends on other controls (query token on the kind
    and sentence, layer on the kind), bound to the URL parameter `key` (`share`: kept across pages). Valid
    by construction: a stored choice outside 0..n-1 (or not an int) is reset to 0 before the widget is drawn,
    and Streamlit itself checks every value the browser or the URL sends against the current options (one
    that names none is dropped for the default); the value returned is always in range."""
    if share:
        _carry(key)
    if key in st.session_state:
        chosen = st.session_state[key]
        if not (isinstance(chosen, int) and not isinstance(chosen, bool) and 0 <= chosen < n):
            st.session_state[key] = 0
    value = widget(label, range(n), key=key, **(SHARED if share else URL), **kwargs)
    value = value if isinstance(value, int) and 0 <= value < n else 0
    if share:
        st.session_state[_KEPT + key] = value
    return value
