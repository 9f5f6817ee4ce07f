"""The controls a link reproduces: every setting that changes what a page shows is in the URL under a short
parameter name. Choices with words for labels (`choice`) keep a stable value there and in the session state,
never the label, so a link made in one interface language opens in the other, and a language switch keeps
showing the choice; numbers, positions and switches (`linked`) use Streamlit's own widget binding, a switch
in one spelling ("true"). The attention kind, layer and head are shared by the pages that show one
attention layer and follow the reader from page to page. A value in a link that names nothing (a hand-edited
or outdated URL) falls back to the default with a short notice (`url_notice`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from pages.parts.cache import opening_layer, translator
from pages.parts.frame import PAGE_SWITCHED
from pages.parts.i18n import LANGUAGES
from pages.parts.state import DEFAULT_TEXT, catalogue_labels, lang, notice_dropped, tr
from viz_model.model.trace import ATTENTION_KINDS

URL = {"bind": "query-params"}  # a page's own setting: in the URL
# kind, layer, head are also kept across pages, by `shared`. Not with persist_state="session": together
# with bind="query-params" the binding wins, and a page switch starts without the parameters, so the
# kept value was replaced by the default.
SHARED = URL
_KEPT = "_shared."  # the last value of a shared setting, in a key no widget owns
_CHECKED = "_url_checked"  # URL parameters already looked at in this session (a notice is given once)
_DRAWN_IN = "_labels_lang."  # the interface language a `choice` was last drawn in


def _carry(key: str) -> bool:
    """Before a shared widget, on a page's first run after another page's and without its URL parameter:
    give it the value last chosen on any page (the binding would start it from its default). True if set."""
    if not st.session_state.get(PAGE_SWITCHED) or key in st.query_params:
        return False
    if st.session_state.get(_KEPT + key) is None:
        return False
    st.session_state[key] = st.session_state[_KEPT + key]  # set in this run: wins over the binding
    return True


def _first_look(key: str) -> str | list[str] | None:
    """The URL's value for `key` the first time this session looks at it (a list for a repeated parameter),
    None when there is none or it was looked at before."""
    checked = st.session_state.setdefault(_CHECKED, set())
    if key in checked or key not in st.query_params:
        return None
    checked.add(key)
    values = st.query_params.get_all(key)
    return values if len(values) > 1 else values[0]


def url_notice(key: str, valid: Callable[[str], bool]) -> None:
    """Before a URL-bound widget is drawn: if the link's value for `key` is not one `valid` accepts, say so
    once (the widget then starts from its default)."""
    raw = _first_look(key)
    if raw is None:
        return
    for value in raw if isinstance(raw, list) else [raw]:
        if not valid(value):
            notice_dropped(key, value)
            return


def _number_check(args: tuple, kwargs: dict) -> Callable[[str], bool]:
    low = kwargs.get("min_value", args[0] if args else None)
    high = kwargs.get("max_value", args[1] if len(args) > 1 else None)
    whole = all(isinstance(v, int) for v in (low, high) if v is not None)

    def valid(text: str) -> bool:
        try:
            number = float(text)
        except ValueError:
            return False
        return (
            number == number
            and (not whole or number.is_integer())
            and (low is None or number >= low)
            and (high is None or number <= high)
        )

    return valid


def _valid_values(widget, args: tuple, kwargs: dict) -> Callable[[str], bool]:
    """What a widget accepts from the URL, from the arguments it is drawn with."""
    name = getattr(widget, "__name__", "")
    if name in ("slider", "number_input"):
        return _number_check(args, kwargs)
    if name in ("toggle", "checkbox"):
        return lambda text: text.lower() in SWITCH_SPELLING
    if name in ("selectbox", "segmented_control", "radio", "multiselect", "pills"):
        options = kwargs.get("options", args[0] if args else ())
        fmt = kwargs.get("format_func", str)
        shown = {str(fmt(option)) for option in options}
        return lambda text: text in shown
    return lambda text: True  # free text: every value is one


# A switch in a link: how it may be spelt (any case) -> the one spelling the URL keeps, Streamlit's binding's.
SWITCH_SPELLING = {"true": "true", "1": "true", "false": "false", "0": "false"}


def _one_spelling(key: str) -> None:
    """Before a switch bound to the URL parameter `key` is first drawn: a link's value spelt another way
    (?present=1) is respelt the binding's one way ("true"; "false", the default, it then leaves out) and the
    run starts again from that URL. The binding reads no other spelling: it would drop ?present=1 from the
    address bar, and a link copied afterwards would lose the setting. It seeds a widget from the URL the run
    started with, hence the rerun (once, on such a link's first run)."""
    raw = st.query_params.get(key)
    spelt = SWITCH_SPELLING.get((raw or "").lower())
    if key not in st.session_state and spelt is not None and spelt != raw:
        st.query_params[key] = spelt
        st.rerun()


def language_switched(key: str) -> bool:
    """True on the first run in a new interface language since the widget `key` was last drawn. The browser
    holds a choice as its label, and the new labels name none of the options: it would show nothing chosen
    (the value is kept on the server). The caller gives the value again in the session state in this run, so
    it is sent again, under its new label."""
    language, state = lang(), st.session_state
    switched = state.get(_DRAWN_IN + key) not in (None, language)
    state[_DRAWN_IN + key] = language
    return switched


def linked(widget, label: str, *args, key: str, **kwargs):
    """`widget(label, *args, key=key, **kwargs)` bound to the URL parameter `key` by Streamlit's binding,
    for values that read the same in every language (numbers, positions, switches), with a notice when the
    link's value is not one the widget accepts. A switch's value is kept in the URL in one spelling."""
    url_notice(key, _valid_values(widget, args, kwargs))
    if getattr(widget, "__name__", "") in ("toggle", "checkbox"):
        _one_spelling(key)
    return widget(label, *args, key=key, **URL, **kwargs)


def shared(widget, *args, key: str, **kwargs):
    """Draw a widget bound to the URL parameter `key` whose value follows the reader from page to page: a
    page switch starts without the parameter (and the binding wins over persist_state)."""
    if _carry(key):  # a default beside a session value draws a warning
        kwargs.pop("default", None)
        kwargs.pop("index", None)
    url_notice(key, _valid_values(widget, args[1:], kwargs))
    value = widget(*args, key=key, **SHARED, **kwargs)
    st.session_state[_KEPT + key] = value
    return value


def choice(
    widget,
    label: str,
    options: Sequence,
    key: str,
    labels: Callable[[object, str], str],
    *,
    default=None,
    url_text: Callable[[object], str] = str,
    share: bool = False,
    **kwargs,
):
    """One of `options` (stable values: catalogue names, numbers), shown as `labels(option, language)`,
    with the option itself in the URL parameter `key` (`url_text(option)`): a link reads the same in both
    interface languages. A link with a label (in either language) still opens; one naming nothing falls
    back to `default` (the first option) with a notice. `share`: the choice follows the reader to other
    pages. Streamlit's st.query_params is written here; the widget binding would store the label. After a
    language switch the value is given again, so the browser shows it under its new label."""
    options = list(options)
    default = options[0] if default is None else default
    state = st.session_state
    kept = state.get(_KEPT + key) if share else None
    language = lang()
    relabel = language_switched(key)
    if state.get(PAGE_SWITCHED):
        # A page's first run after another page's: its widget is a new one, which a value in the session
        # state (left by the other page's widget of the same key) would not reach. It starts from the link's
        # value, else (shared) the value kept from the other page, else the default, given as its default.
        start = _from_url(key, options, labels, url_text)
        start = start if start is not None else kept if kept in options else default
        if relabel:
            state[key] = start
        elif getattr(widget, "__name__", "") in ("selectbox", "radio"):
            kwargs["index"] = options.index(start)
        else:
            kwargs["default"] = start
    elif state.get(key) not in options:  # not drawn in the last run (its state is gone), or stale
        state[key] = _from_url(key, options, labels, url_text)
        if state[key] is None:
            state[key] = kept if kept in options else default
    elif relabel:
        state[key] = state[key]
    value = widget(label, options, key=key, format_func=lambda option: labels(option, language), **kwargs)
    value = value if value in options else default
    if value == default:
        if key in st.query_params:
            del st.query_params[key]
    elif st.query_params.get(key) != url_text(value):
        st.query_params[key] = url_text(value)
    if share:
        state[_KEPT + key] = value
    return value


def _from_url(key: str, options: list, labels, url_text) -> object | None:
    """The option the URL's `key` names (by its stable text, or by its label in either language); None
    when it names none (with a notice the first time this session sees the value)."""
    raw = st.query_params.get(key)
    if raw is None:
        return None
    names = {url_text(option): option for option in options}
    for language in LANGUAGES:
        names.update({labels(option, language): option for option in options if labels(option, language)})
    if raw in names:
        _first_look(key)
        return names[raw]
    if _first_look(key) is not None:
        notice_dropped(key, raw)
    return None


def attention_controls(kind_default: str = "encoder_self") -> tuple[str, int]:
    """Kind and layer selectors, in the URL parameters "kind" and "layer" and shared by the pages that
    show one attention layer; layers are shown from 1."""
    config = translator().config
    left, right = st.columns(2)
    kind = choice(
        left.selectbox,
        tr("attention.kind"),
        ATTENTION_KINDS,
        "kind",
        catalogue_labels("attention.kind_{}"),
        default=kind_default,
        share=True,
    )
    n_layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    layer = layer_picker(right, n_layers)
    return kind, layer


def layer_picker(where, n_layers: int) -> int:
    """One layer (shown from 1), bound to the URL parameter "layer" and shared by the pages. It opens on
    `opening_layer()`, not on layer 1: there every head of this model may park on the direction tag."""
    return dependent_index(
        where.selectbox,
        tr("common.layer"),
        n_layers,
        "layer",
        default=opening_layer(DEFAULT_TEXT),
        format_func=lambda i: str(i + 1),
        share=True,
    )


def head_picker(n_heads: int, where=st) -> int:
    """One head (shown from 1), bound to the URL parameter "head" and shared by the pages."""
    head = shared(
        where.segmented_control,
        tr("common.head"),
        range(n_heads),
        key="head",
        default=0,
        format_func=lambda h: str(h + 1),
    )
    return head if isinstance(head, int) and 0 <= head < n_heads else 0


def dependent_index(widget, label: str, n: int, key: str, share: bool = False, default: int = 0, **kwargs) -> int:
    """A choice among positions 0..n-1 whose meaning depends on other controls (query token on the kind
    and sentence, layer on the kind), bound to the URL parameter `key` (`share`: kept across pages). Valid
    by construction: a stored choice outside 0..n-1 (or not an int) is reset to the default (`default`, or
    the last position if there are fewer) before the widget is drawn, and Streamlit itself checks every value
    the browser or the URL sends against the current options (one that names none is dropped for the
    default, with a notice); the value returned is always in range."""
    default = max(0, min(default, n - 1))
    if share:
        _carry(key)
    if key in st.session_state:
        chosen = st.session_state[key]
        if not (isinstance(chosen, int) and not isinstance(chosen, bool) and 0 <= chosen < n):
            st.session_state[key] = default
    url_notice(key, _valid_values(widget, (range(n),), kwargs))
    # `index`: a selectbox's first choice (the only widget given a default other than 0 here)
    extra = {"index": default} if default else {}
    value = widget(label, range(n), key=key, **extra, **(SHARED if share else URL), **kwargs)
    value = value if isinstance(value, int) and 0 <= value < n else default
    if share:
        st.session_state[_KEPT + key] = value
    return value


def position(widget, label: str, n: int, key: str, default: int = 0, format_func=lambda i: str(i + 1)) -> int:
    """A position 0..n-1 (a time step, a node's step or rank) shown by `widget` (selectbox, select_slider),
    in the URL parameter `key` as the number 1..n, whatever the labels say. Written here, not by Streamlit's
    binding, which stores a widget's label (here it may hold a token) and needs a default for a widget that
    opens on another position than its first, and that default, beside a value Previous/Next or a click on a
    chart set through the session state, draws Streamlit's warning. A link's value outside 1..n, or a stored
    one after the sentence changed, gives `default` (the link's with a notice)."""
    state, default = st.session_state, max(0, min(default, n - 1))

    def from_link(raw: str) -> int | None:
        return int(raw) - 1 if raw.isdigit() and 1 <= int(raw) <= n else None

    if key not in state:
        url_notice(key, lambda raw: from_link(raw) is not None)
        linked = from_link(st.query_params.get(key, ""))
        state[key] = default if linked is None else linked
    elif not (isinstance(state[key], int) and not isinstance(state[key], bool) and 0 <= state[key] < n):
        state[key] = default
    if n > 1:
        widget(label, range(n), key=key, format_func=format_func)
    value = state[key] if n > 1 else 0
    if value == default:
        st.query_params.pop(key, None)
    elif st.query_params.get(key) != str(value + 1):
        st.query_params[key] = str(value + 1)
    return value


def token_index(where, label: str, tokens: list[str], key: str) -> int:
    """A token picked by its position in a sequence, listed "i:token" (a `dependent_index` selectbox). It
    starts on position 1, the first word: position 0 is a marker (the direction tag, <bos>, [CLS]), and the
    direction tag's input vector is nearly blank (its embedding all but cancels the position-0 encoding)."""
    return dependent_index(
        where.selectbox, label, len(tokens), key, default=1, format_func=lambda i: f"{i}:{tokens[i]}"
    )
