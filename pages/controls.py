"""The controls a link reproduces: every setting that changes what a page shows is a widget bound to its
URL parameter (`URL`); the attention kind, layer and head are shared by the pages that show one attention
layer and follow the reader from page to page (`shared`); a position picker that stays valid."""
from __future__ import annotations

import streamlit as st

from pages.cache import translator
from pages.frame import PAGE_SWITCHED
from pages.state import labeller, tr
from viz_model.model.trace import ATTENTION_KINDS

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
