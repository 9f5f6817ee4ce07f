"""What each head does, on the Attention heads page: the grid of heads coloured by role (a click on a square
opens that head), and under one head's heatmap the "what to look for" line. The roles are computed on the
typed sentence (viz_model.lessons.head_roles) beside each head's usual role over the shipped reference
sentences (viz_model.lessons.head_notes)."""

from __future__ import annotations

import streamlit as st

from pages.parts.cache import trace_head_roles, usual_head_roles
from pages.parts.state import tr
from pages.parts.text import md
from pages.parts.widgets import chart
from viz_model import figures
from viz_model.lessons.head_notes import look_for_line
from viz_model.lessons.head_roles import ROLES, HeadRole, minilm_head_roles

GRID_KEY = "attention.roles"


def role_labels() -> dict[str, str]:
    return {role: tr(f"roles.{role}") for role in ROLES}


def rule_line(role: HeadRole) -> str:
    """The rule that decided a head's role, as one sentence with its numbers."""
    d = role.detail
    if role.role == "unlabelled":
        closest = d.get("closest")
        if closest is None:
            return tr("roles.rule_none")
        return tr(
            "roles.rule_unlabelled",
            closest=tr(f"roles.{closest}"),
            score=f"{d['closest_score']:.2f}",
            threshold=f"{d['threshold']:.2f}",
        )
    fields = {"score": f"{role.score:.2f}"}
    fields |= {k: md(str(v)) for k, v in d.items() if k in ("token", "output", "source", "pronoun", "noun")}
    return tr(f"roles.rule_{role.role}", **fields)


def usual_text(role: HeadRole) -> str:
    usual = usual_head_roles().get((role.kind, role.layer, role.head))
    if usual is None:
        return ""
    return tr("roles.usually", role=tr(f"roles.{usual[0]}"), share=f"{usual[1]:.0%}")


def _open_head(key: str, state: dict[str, str]) -> None:
    """A click on a square opens that head's heatmap: `state` names the session keys of the kind (with its
    value), the layer, the head and the view (with the one-head view's name)."""
    points = (st.session_state.get(key) or {}).get("selection", {}).get("points", [])
    if points:
        layer, head = points[0]["customdata"]
        st.session_state.update({state["layer"]: int(layer), state["head"]: int(head), **state["fixed"]})


def role_grid(roles: list[HeadRole], n_layers: int, n_heads: int, key: str, opens: dict, kind_label: str) -> None:
    """The grid of heads coloured by their roles on this sentence; a click on a square opens that head."""
    labels = role_labels()
    cells = [figures.RoleCell(r.layer, r.head, r.role, r.score, hover_text(r, labels[r.role])) for r in roles]
    fig = figures.role_grid(
        cells, labels, y_title=tr("common.layer"), x_title=tr("common.head"), n_layers=n_layers, n_heads=n_heads
    )
    chart(fig, key=key, on_select=lambda: _open_head(key, opens))
    st.caption(tr("roles.grid_caption", kind=kind_label))


def hover_text(role: HeadRole, label: str) -> str:
    head = tr("attention.layer_head", layer=role.layer + 1, h=role.head + 1)
    lines = [f"{head}: {label} {role.score:.2f}", rule_line(role).replace("**", ""), usual_text(role)]
    return "\n".join(line for line in lines if line)


def roles_view(v) -> None:
    """Our model: every head of the chosen kind (a pages.parts.attention.LayerView's), by role."""
    roles = [r for r in trace_head_roles(v.trace) if r.kind == v.kind]
    opens = {"layer": "layer", "head": "head", "fixed": {"kind": v.kind, "view": "heads"}}
    n_layers = max(r.layer for r in roles) + 1
    role_grid(roles, n_layers, v.n_heads, GRID_KEY, opens, tr(f"attention.kind_{v.kind}"))


def minilm_roles_view(view) -> None:
    """MiniLM: its 6 × 12 heads by role, on the encoder view's full attention ([CLS] and [SEP] kept: heads
    park there)."""
    roles = minilm_head_roles(view.attention, view.labels)
    opens = {"layer": "mlayer", "head": "mhead", "fixed": {"mview": "heads"}}
    role_grid(roles, view.n_layers, view.n_heads, GRID_KEY + "_minilm", opens, tr("pretrained.model_minilm"))


def look_for(v, head: int) -> None:
    """Our model: the "what to look for" line under one head's heatmap (v: a LayerView)."""
    roles = [r for r in trace_head_roles(v.trace) if r.kind == v.kind and r.layer == v.layer]
    look_line(v.attention, head, roles, v.query_tokens, v.key_tokens)


def minilm_look_for(labels: list[str], weights, layer: int, head: int) -> None:
    """MiniLM: the same line for one of its heads, on the weights as shown (weights (L, H, T, T), [CLS] and
    [SEP] hidden or not)."""
    roles = minilm_head_roles(weights[layer : layer + 1], labels)
    look_line(weights[layer], head, roles, labels, labels)


def look_line(weights, head: int, roles: list[HeadRole], query_tokens, key_tokens) -> None:
    """weights: one layer's AttentionTrace, or its (H, Tq, Tk) weights with roles numbered as layer 0; roles:
    that layer's heads' roles."""
    line = look_for_line(weights, head, roles, query_tokens, key_tokens)
    role = next(r for r in roles if r.head == head)
    usual = usual_text(role)
    parked = (
        tr("roles.look_parked", parked=line["heads_parked_on_tag"], n=line["n_heads"], tag=md(line["tag"]))
        if line["tag"] is not None
        else ""
    )
    st.markdown(
        tr(
            "roles.look_for",
            h=head + 1,
            role=tr(f"roles.{role.role}"),
            score=f"{role.score:.2f}",
            rule=rule_line(role),
            usual=tr("roles.usual_part", usual=usual) if usual else "",
            token=md(f"{line['top_key_position']}:{line['top_key']}"),
            share=f"{line['top_key_share']:.2f}",
            parked=parked,
        )
    )
