"""What a head usually does and what to look for in it: built on `head_roles`.

`usual_roles` says what each head of our model usually does over a fixed set of reference sentences shipped
with the app (`assets/head_roles/reference_sentences.tsv`), so a student reads "usually a previous-token head,
active here 0.82"; `look_for_line` gathers the numbers of one head's "what to look for" line. Both return
data; the app words and translates it.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from viz_model.lessons.head_roles import ASSETS, ROLES, THRESHOLDS, HeadRole, head_roles
from viz_model.model.tokenizer import TARGET_TAG

REFERENCE_SENTENCES = ASSETS / "head_roles" / "reference_sentences.tsv"


def load_reference_sentences(path: Path = REFERENCE_SENTENCES) -> list[tuple[str, str]]:
    """(text, direction) rows of the shipped reference sentences."""
    with open(path, encoding="utf-8", newline="") as handle:
        return [(r["text"], r["direction"]) for r in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)]


def usual_roles(translator, sentences: Iterable[tuple[str, str]] | None = None) -> dict[tuple, tuple[str, float]]:
    """(kind, layer, head) → (role, share): each head's most frequent role over the reference sentences (ties:
    ROLES order) and the share of sentences in which it had it. One translation per sentence (~0.05 s each);
    the result depends only on the model, so the app should cache it (st.cache_data keyed on the model)."""
    sentences = load_reference_sentences() if sentences is None else list(sentences)
    counts: dict[tuple, Counter] = {}
    for text, direction in sentences:
        for r in head_roles(translator.translate(text, direction).trace):
            counts.setdefault((r.kind, r.layer, r.head), Counter())[r.role] += 1
    usual = {}
    for key, counter in counts.items():
        role = max(counter, key=lambda role: (counter[role], -ROLES.index(role)))
        usual[key] = (role, counter[role] / sum(counter.values()))
    return usual


# ---- one head's "what to look for" line -----------------------------------------------------------------


def _role_of(roles_for_head: HeadRole | Iterable[HeadRole], kind: str | None, layer: int, head: int) -> HeadRole:
    if isinstance(roles_for_head, HeadRole):
        return roles_for_head
    for r in roles_for_head:
        if r.layer == layer and r.head == head and (kind is None or r.kind == kind):
            return r
    raise ValueError(f"no role for layer {layer} head {head} of {kind}")


def look_for_line(
    attention_trace,
    head: int,
    roles_for_head: HeadRole | Iterable[HeadRole],
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
) -> dict:
    """The data of one head's "what to look for" sentence.

    `attention_trace` is an AttentionTrace (or an (H, Tq, Tk) array, e.g. one MiniLM layer); `roles_for_head`
    the head's HeadRole, or a list holding it (e.g. `head_roles(trace)`). Returns: the role, score, rule and
    detail; the key receiving most weight (its column summed over rows, divided by rows), its share and the
    query row giving it most; and in the layer, how many of the H heads park on the direction tag (the mean
    weight on the tag over the rows ≥ THRESHOLDS["parks"], the measure of the "parks" role)."""
    weights = np.asarray(getattr(attention_trace, "weights", attention_trace), dtype=np.float64)  # (H, Tq, Tk)
    kind, layer = getattr(attention_trace, "kind", None), getattr(attention_trace, "layer", 0)
    role = _role_of(roles_for_head, kind, layer, head)
    W = weights[head]  # (Tq, Tk)
    received = W.sum(axis=0) / W.shape[0]  # (Tk,)
    top = int(received.argmax())
    tags = [j for j, t in enumerate(key_tokens) if t in TARGET_TAG.values()]
    on_tag = weights[:, :, tags[0]].mean(axis=1) if tags else np.zeros(weights.shape[0])  # (H,)
    return {
        "kind": role.kind,
        "layer": role.layer,
        "head": role.head,
        "role": role.role,
        "score": role.score,
        "rule": role.rule,
        "detail": role.detail,
        "top_key": key_tokens[top],
        "top_key_position": top,
        "top_key_share": float(received[top]),
        "top_key_strongest_query": query_tokens[int(W[:, top].argmax())],
        "tag": key_tokens[tags[0]] if tags else None,
        "heads_parked_on_tag": int((on_tag >= THRESHOLDS["parks"]).sum()),
        "n_heads": int(weights.shape[0]),
    }
