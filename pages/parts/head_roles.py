"""What each head does, on the Attention heads page: the grid of heads coloured by role (a click on a square
opens that head), and under one head's heatmap the "what to look for" line. The roles are computed on the
typed sentence (viz_model.lessons.head_roles) beside each head's usual role over the shipped reference
sentences (viz_model.lessons.head_notes)."""

from __future__ import annotations

import streamlit as st

from pages.parts.attention import LayerView
from pages.parts.cache import usual_head_roles
from pages.parts.state import tr
from pages.parts.text import md
from pages.parts.widgets import chart
from viz_model import figures
from viz_model.lessons.head_notes import look_for_line
from viz_model.lessons.head_roles import ROLES, HeadRole, head_roles

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


def _open_head(kind: str) -> None:
    """A click on a square opens that head's heatmap (the One head view, its layer and head)."""
    points = (st.session_state.get(GRID_KEY) or {}).get("selection", {}).get("points", [])
    if points:
        layer, head = points[0]["customdata"]
        st.session_state.update({"kind": kind, "layer": int(layer), "head": int(head), "view": "heads"})


def roles_view(v: LayerView) -> None:
    """The grid of every head of the chosen kind, coloured by its role on this sentence."""
    roles = [r for r in head_roles(v.trace) if r.kind == v.kind]
    labels = role_labels()
    cells = [
        figures.RoleCell(
            r.layer,
            r.head,
            r.role,
            r.score,
            "\n".join(
                filter(
                    None,
                    [
                        tr("attention.layer_head", layer=r.layer + 1, h=r.head + 1)
                        + f": {labels[r.role]} {r.score:.2f}",
                        rule_line(r).replace("**", ""),
                        usual_text(r),
                    ],
                )
            ),
        )
        for r in roles
    ]
    n_layers = max(r.layer for r in roles) + 1
    fig = figures.role_grid(
        cells,
        labels,
        y_title=tr("common.layer"),
        x_title=tr("common.head"),
        n_layers=n_layers,
        n_heads=v.n_heads,
    )
    chart(fig, key=GRID_KEY, on_select=lambda: _open_head(v.kind))
    st.caption(tr("roles.grid_caption", kind=tr(f"attention.kind_{v.kind}")))


def look_for(v: LayerView, head: int) -> None:
    """The "what to look for" line under one head's heatmap, computed from its weights."""
    roles = [r for r in head_roles(v.trace) if r.kind == v.kind and r.layer == v.layer]
    line = look_for_line(v.attention, head, roles, v.query_tokens, v.key_tokens)
    role = next(r for r in roles if r.head == head)
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
            usual=usual_text(role),
            token=md(f"{line['top_key_position']}:{line['top_key']}"),
            share=f"{line['top_key_share']:.2f}",
            parked=parked,
        )
    )
