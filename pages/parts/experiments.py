"""The Experiments page's parts: heads switched off (with presets), every head's importance, and word order
taken away, each on the typed sentence, with the translation re-decoded by the changed model."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages.parts.cache import experiment, switch_off, trace_head_roles, translator
from pages.parts.controls import choice, dependent_index, language_switched, linked, token_index
from pages.parts.i18n import t
from pages.parts.state import catalogue_labels, lang, presenting, tr
from pages.parts.widgets import axis_titles, chart, folded, lead, settings_area
from viz_model import figures
from viz_model.lessons.experiments import (
    MODES,
    all_heads,
    valid_heads,
)
from viz_model.model.trace import ATTENTION_KINDS

OFF = "off"  # URL parameter: the switched-off heads, as names "cross.2.3" (kind, layer and head from 1)
NONE = "none"  # ?off=none: no head switched off


def head_name(head: tuple[str, int, int]) -> str:
    kind, layer, h = head
    return f"{kind}.{layer + 1}.{h + 1}"


def parse_head(name: str) -> tuple[str, int, int] | None:
    try:
        kind, layer, h = name.split(".")
        return kind, int(layer) - 1, int(h) - 1
    except (AttributeError, ValueError):
        return None


def head_label(name: str, language: str | None = None) -> str:
    """ "cross.2.3" as "Cross-attention · layer 2 · head 3", in `language` (default: the interface's)."""
    head = parse_head(name)
    if head is None:
        return name
    kind, layer, h = head
    language = language or lang()
    return f"{t(f'attention.kind_{kind}', language)} · {t('attention.layer_head', language, layer=layer + 1, h=h + 1)}"


def _set_off(heads) -> None:
    st.session_state[OFF] = [head_name(h) for h in heads]


def presets(result) -> dict[str, list]:
    """Preset sets of heads: a whole layer of each kind, every head parked on the direction tag, every head
    of a role (on this sentence)."""
    config = translator().config
    roles = trace_head_roles(result.trace)
    out = {"parked": [(r.kind, r.layer, r.head) for r in roles if r.rule == "parks_tag"]}
    for role in ("aligned", "broad"):
        out[role] = [(r.kind, r.layer, r.head) for r in roles if r.role == role]
    out["cross_last"] = [h for h in all_heads(config) if h[0] == "cross" and h[1] == config.n_decoder_layers - 1]
    out["encoder_first"] = [h for h in all_heads(config) if h[0] == "encoder_self" and h[1] == 0]
    return out


def switch_off_part(text: str, direction: str, result) -> None:
    config = translator().config
    names = [head_name(h) for h in all_heads(config)]
    switched = language_switched(OFF)  # called on every run: it notes the language the list is drawn in
    if OFF not in st.session_state:  # the link's heads, by name ("none" or nothing: every head on); others dropped
        linked_names = st.query_params.get_all(OFF)
        kept = [n for n in linked_names if n in names]
        # Nothing switched off until asked: the page opens on the model as shipped, with the presets beside.
        st.session_state[OFF] = kept
    elif switched:
        st.session_state[OFF] = st.session_state[OFF]  # sent again, shown under the new language's labels
    found = presets(result)
    with settings_area():
        # Not bound by Streamlit: its binding writes the shown label, which is in the interface language.
        language = lang()  # the labels' language, fixed in the function the widget keeps
        chosen = st.multiselect(
            tr("experiments.heads"),
            names,
            key=OFF,
            format_func=lambda name: head_label(name, language),
            placeholder=tr("common.choose"),  # Streamlit's own is English in either interface language
        )
        st.query_params[OFF] = chosen or NONE
        row = st.container(horizontal=True)
        for preset, heads in found.items():
            row.button(
                tr(f"experiments.preset_{preset}", n=len(heads)),
                key=f"experiments.preset_{preset}",
                on_click=_set_off,
                args=(heads,),
                disabled=not heads,
            )
        mode = choice(
            st.segmented_control, tr("experiments.mode"), MODES, "mode", catalogue_labels("experiments.mode_{}")
        )
    heads = valid_heads([parse_head(n) for n in chosen], config)
    parked = set(found["parked"])
    expect = "parked" if heads and set(heads) <= parked else "all" if len(heads) == len(names) else "some"
    # With no head off, the note says where the heads are picked: in presentation mode, inside Settings.
    none_off = tr("experiments.none_off_present" if presenting() else "experiments.none_off")
    lead(tr(f"experiments.expect_{expect}", n=len(heads)) if heads else none_off, as_caption=False)
    outcome = switch_off(text, direction, heads, mode)
    left, right = st.columns(2)
    left.markdown(f"**{tr('experiments.before')}**")
    left.text(outcome.before.output_text or "∅")
    if heads:
        right.markdown(f"**{tr('experiments.after', n=len(heads))}**")
        right.text(outcome.after.output_text or "∅")
        happened = "changed" if outcome.changed else "same"
        lead(
            tr(
                f"experiments.happened_{happened}",
                drop=outcome.drop_text,
                ratio=f"{np.exp(-outcome.log_prob_drop):.2g}",
            )
            + ("" if outcome.decode_mode == outcome.mode else " " + tr("experiments.decoded_zero")),
            as_caption=False,
        )
    # Nothing switched off: the model's own certainty token by token, the row a switched-off head changes.
    rows = [outcome.log_probs_before, outcome.log_probs_after] if heads else [outcome.log_probs_before]
    chart(
        figures.heatmaps(
            np.stack(rows),
            [tr("experiments.row_before"), tr("experiments.row_after")][: len(rows)],
            figures.token_labels(outcome.tokens),
            y_title="",
            x_title=tr("experiments.axis_tokens"),
            value_name="ln p",
            signed=True,
        ),
        key="experiments.log_probs",
    )
    st.caption(tr("experiments.log_probs_caption"))
    if not heads:
        return
    # Folded until opened: two more heatmaps on every new sentence cost the browser more than the rest.
    folded(tr("experiments.watch_title"), "experiments.watch_open", lambda: later_head(outcome))


def later_head(outcome) -> None:
    """One head's heatmap before and after, so a student sees what changed downstream."""
    config = translator().config
    left, middle, right = settings_area().columns(3)
    kind = choice(
        left.selectbox,
        tr("experiments.watch_kind"),
        ATTENTION_KINDS,
        "wkind",
        catalogue_labels("attention.kind_{}"),
        default="cross",
    )
    n_layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
    layer = linked(middle.slider, tr("experiments.watch_layer"), 1, n_layers, n_layers, key="wlayer")
    head = linked(right.slider, tr("experiments.watch_head"), 1, config.n_heads, 1, key="whead")
    layer, head = min(layer, n_layers) - 1, head - 1
    before, after = outcome.before.trace.attention(kind, layer), outcome.after.trace.attention(kind, layer)
    q_before, k_before = outcome.before.trace.axis_tokens(kind)
    q_after, k_after = outcome.after.trace.axis_tokens(kind)
    y_title, x_title = axis_titles(kind)
    left, right = st.columns(2)
    for where, att, rows, cols, title in (
        (left, before, q_before, k_before, tr("experiments.row_before")),
        (right, after, q_after, k_after, tr("experiments.row_after")),
    ):
        with where:
            chart(
                figures.heatmaps(
                    att.weights[head],
                    figures.token_labels(rows),
                    figures.token_labels(cols),
                    y_title=y_title,
                    x_title=x_title,
                    value_name=tr("axis.weight"),
                    panel_titles=[f"{title} · {tr('attention.layer_head', layer=layer + 1, h=head + 1)}"],
                    mask=None if att.mask.all() else att.mask,
                    show_values=False,  # half the width: the colours, and the numbers on hover
                ),
                key=f"experiments.watch_{'before' if where is left else 'after'}",
            )


def importance_part(text: str, direction: str) -> None:
    drops = experiment("head_importance", text, direction)
    config = translator().config
    layers = max(d.shape[0] for d in drops.values())
    kinds = list(ATTENTION_KINDS)
    panels = np.full((len(kinds), layers, config.n_heads), np.nan)
    for i, kind in enumerate(kinds):
        panels[i, : drops[kind].shape[0]] = drops[kind]
    chart(
        figures.heatmaps(
            panels,
            [tr("experiments.layer_n", n=i + 1) for i in range(layers)],
            [tr("attention.head_n", h=h + 1) for h in range(config.n_heads)],
            y_title=tr("common.layer"),
            x_title=tr("common.head"),
            value_name=tr("experiments.drop"),
            panel_titles=[tr(f"attention.kind_{k}") for k in kinds],
            signed=True,
        ),
        key="experiments.importance",
    )
    k, layer, h = max(
        ((k, i, h) for k in kinds for i, h in np.ndindex(drops[k].shape)), key=lambda x: drops[x[0]][x[1], x[2]]
    )
    st.caption(
        tr(
            "experiments.importance_caption",
            head=head_label(head_name((k, layer, h))),
            drop=f"{drops[k][layer, h]:.2f}",
        )
    )


def _reshuffle() -> None:
    st.session_state["seed"] = int(st.session_state.get("seed", 0)) + 1


def order_part(text: str, direction: str) -> None:
    with settings_area():
        seed = linked(st.number_input, tr("experiments.seed"), 0, 10_000, 0, key="seed")
        st.button(
            tr("experiments.reshuffle"), key="experiments.reshuffle", on_click=_reshuffle, icon=":material/shuffle:"
        )
    found = experiment("word_order", text, direction, int(seed))
    rows = [
        (tr("experiments.order_plain"), text, found.plain.output_text),
        (tr("experiments.order_no_positions"), text, found.no_positions.output_text),
        (tr("experiments.order_shuffled"), found.shuffled_text, found.shuffled_no_positions.output_text),
    ]
    st.table(
        {
            tr("experiments.col_model"): [r[0] for r in rows],
            tr("experiments.col_source"): [r[1] for r in rows],
            tr("experiments.col_translation"): [r[2] or "∅" for r in rows],
        },
        hide_index=True,
    )
    st.markdown(tr("experiments.order_check", diff=f"{found.largest_difference:.1e}"))
    last = translator().config.n_encoder_layers - 1
    y_title, x_title = axis_titles("encoder_self")
    left, right = st.columns(2)
    for where, translation, title, key in (
        (left, found.no_positions, tr("experiments.order_no_positions"), "typed"),
        (right, found.shuffled_no_positions, tr("experiments.order_shuffled"), "shuffled"),
    ):
        tokens = figures.token_labels(translation.trace.source_labels)
        with where:
            chart(
                figures.heatmaps(
                    translation.trace.attention("encoder_self", last).mean_weights,
                    tokens,
                    tokens,
                    y_title=y_title,
                    x_title=x_title,
                    value_name=tr("axis.weight"),
                    panel_titles=[f"{title} · {tr('experiments.mean_last_layer', layer=last + 1)}"],
                ),
                key=f"experiments.order_{key}",
            )
    st.caption(tr("experiments.order_caption"))


def hard_part(text: str, direction: str, result) -> None:
    """One layer's attention made hard (one-hot at the argmax): one row before and after, the head's output
    both ways, and the translation searched again with the layer hard."""
    config = translator().config
    with settings_area():
        left, middle, right = st.columns(3)
        kind = choice(
            left.selectbox, tr("experiments.hard_kind"), ATTENTION_KINDS, "hkind", catalogue_labels("attention.kind_{}")
        )
        n_layers = config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers
        layer = dependent_index(
            middle.selectbox, tr("common.layer"), n_layers, "hlayer", format_func=lambda i: str(i + 1)
        )
        head = dependent_index(
            right.selectbox, tr("common.head"), config.n_heads, "hhead", format_func=lambda i: str(i + 1)
        )
        queries = result.trace.axis_tokens(kind)[0]
        query = token_index(st, tr("experiments.hard_query"), queries, "hquery")
    found = experiment("hard_attention", text, direction, kind, layer, head, query)
    keys = figures.token_labels(found.keys)
    rows = [tr("experiments.hard_row_soft"), tr("experiments.hard_row_hard")]
    title = tr("attention.layer_head", layer=layer + 1, h=head + 1)
    chart(
        figures.heatmaps(
            np.stack([found.soft_weights, found.hard_weights]),
            rows,
            keys,
            y_title="",
            x_title=axis_titles(kind)[1],
            value_name=tr("axis.weight"),
            panel_titles=[tr("experiments.hard_weights_title", query=figures.escape_label(queries[query]), head=title)],
        ),
        key="experiments.hard_weights",
    )
    chart(
        figures.heatmaps(
            np.stack([found.soft_output, found.hard_output]),
            rows,
            [str(j) for j in range(found.soft_output.shape[0])],
            y_title="",
            x_title=tr("axis.dimension"),
            value_name="z",
            panel_titles=[tr("experiments.hard_outputs_title")],
            signed=True,
            show_values=False,
        ),
        key="experiments.hard_outputs",
    )
    before, after = st.columns(2)
    before.markdown(f"**{tr('experiments.before')}**")
    before.text(found.soft.output_text or "∅")
    after.markdown(f"**{tr('experiments.hard_after', kind=tr(f'attention.kind_{kind}'), layer=layer + 1)}**")
    after.text(found.hard.output_text or "∅")
    st.caption(tr("experiments.hard_changed" if found.changed else "experiments.hard_same"))
