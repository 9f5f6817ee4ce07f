"""Scaled dot-product attention with the working shown (course §3; Vaswani et al. 2017, §3.2.1):

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V

for the course's hand-sized examples, for a toy layer with readable numbers, and for one query of one head of
the model, redone in float64 from the traced inputs and the weights so it checks the model's own tensors.
All three give one record, `AttentionStep`.

numpy in, numpy out. Attention matrices are (queries, keys): rows look at columns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from viz_model.model.tokenizer import SPECIAL_TOKENS
from viz_model.model.trace import AttentionTrace
from viz_model.model.transformer import scaled_dot_product_attention

# "Thinking Machines" (course §3): the lecture's 64-dim vectors are not given; these 4-dim stand-ins have its
# dot products (q1·k1 = 4·28 = 112, q1·k2 = 4·24 = 96) and are scaled as d_k = 64. v1 = (1, 0), v2 = (0, 1),
# so z1 = 0.88 v1 + 0.12 v2 reads off the weights directly.
COURSE_Q = ((4.0, 4.0, 4.0, 4.0),)  # q1 ("Thinking")
COURSE_K = ((7.0, 7.0, 7.0, 7.0), (6.0, 6.0, 6.0, 6.0))  # k1 ("Thinking"), k2 ("Machines")
COURSE_V = ((1.0, 0.0), (0.0, 1.0))
COURSE_D_K = 64


@dataclass
class AttentionStep:
    """Every intermediate of softmax(q kᵀ / √d_k) v for m queries over n keys: the one record of an attention
    computation, whether of hand-made vectors (`attention_arithmetic`, `toy_attention`) or of one head of the
    model for one query token (`attention_step`: m = 1, with the model's own fields filled in too).

    Shapes: m queries, n keys, d_k the width of q and k, d_v that of v; d = d_model, H heads.
    """

    q: np.ndarray  # (m, d_k)
    k: np.ndarray  # (n, d_k)
    v: np.ndarray  # (n, d_v)
    allowed: np.ndarray  # (m, n) bool, False where a mask hides the key from the query
    scores: np.ndarray  # (m, n) q·k
    scale: float  # √d_k
    scaled: np.ndarray  # (m, n) q·k / √d_k, −inf where masked
    weights: np.ndarray  # (m, n) softmax over each row (keys): rows sum to 1, 0 where masked
    weighted_values: np.ndarray  # (m, n, d_v) weights[i, j] · v_j, the terms of the sum
    z: np.ndarray  # (m, d_v) z_i = Σ_j weights[i, j] v_j, the attention's output
    x_query: np.ndarray | None = None  # (m, d) the inputs W_Q multiplied (None when q was given)
    x_keys: np.ndarray | None = None  # (n, d) the inputs W_K and W_V multiplied
    # One head of the model (`attention_step`); None for hand-made vectors.
    kind: str | None = None
    layer: int | None = None
    head: int | None = None
    query: int | None = None  # the query's position: its row of the model's attention matrix
    head_outputs: np.ndarray | None = None  # (H, m, d_k) every head's z for the query (same computation)
    concat: np.ndarray | None = None  # (m, d) the heads side by side
    output: np.ndarray | None = None  # (m, d) concat · W^O + b^O, the block's output for the query


def attention_arithmetic(q, k, v, scale_dim: int | None = None) -> AttentionStep:
    """Scaled dot-product attention with the working shown. q (m, d), k (n, d), v (n, d_v); no mask.

    Uses the model's own `scaled_dot_product_attention`, so the page and the model share one
    implementation. scale_dim: the d_k to divide by, when small stand-in vectors represent bigger ones
    (the course divides by √64 = 8). It is applied by zero-padding q and k to scale_dim columns, which
    leaves every q·k unchanged and makes the model's √(size of q) equal √scale_dim.
    """
    q, k, v = (np.atleast_2d(np.asarray(a, dtype=np.float64)) for a in (q, k, v))
    d = q.shape[1]
    scale_dim = d if scale_dim is None else scale_dim
    if scale_dim < d:
        raise ValueError(f"scale_dim {scale_dim} is smaller than the vectors' dimension {d}")
    pad = ((0, 0), (0, scale_dim - d))
    qt, kt, vt = (torch.from_numpy(np.ascontiguousarray(a)) for a in (np.pad(q, pad), np.pad(k, pad), v))
    z, scores, scaled, weights = (t.numpy() for t in scaled_dot_product_attention(qt, kt, vt))
    return AttentionStep(
        q=q,
        k=k,
        v=v,
        allowed=np.ones(scores.shape, dtype=bool),
        scores=scores,
        scale=math.sqrt(scale_dim),
        scaled=scaled,
        weights=weights,
        weighted_values=weights[:, :, None] * v[None, :, :],
        z=z,
    )


def course_attention_example() -> AttentionStep:
    """ "Thinking Machines" (course §3, d_k = 64): q1·k1 = 112, q1·k2 = 96; ÷ 8 -> 14, 12; softmax -> 0.88,
    0.12; z1 = 0.88 v1 + 0.12 v2."""
    return attention_arithmetic(COURSE_Q, COURSE_K, COURSE_V, scale_dim=COURSE_D_K)


def _head_columns(head: int, d_k: int) -> slice:
    return slice(head * d_k, (head + 1) * d_k)


def _softmax_masked(scaled: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    out = np.zeros_like(scaled)
    s = scaled[allowed]
    e = np.exp(s - s.max())
    out[allowed] = e / e.sum()
    return out


def attention_step(
    attention: AttentionTrace, parameters: dict[str, np.ndarray], head: int, query: int
) -> AttentionStep:
    """Redo one head's attention for one query in float64 from the traced inputs and the weights
    (`Translator.attention_parameters`: x @ W + b, head h owns columns h·d_k …). The step has m = 1 query.

    Independent of the model's torch code, so its agreement with the trace (and the Attention page's
    heatmap) is a real check.
    """
    H = attention.n_heads
    x_q = attention.query_input[query].astype(np.float64)  # (d,)
    x_kv = attention.key_value_input.astype(np.float64)  # (Tk, d)
    d = x_q.shape[0]
    d_k = d // H
    W = {name: parameters[name].astype(np.float64) for name in ("W_Q", "W_K", "W_V", "W_O")}
    b = {name: parameters[name].astype(np.float64) for name in ("b_q", "b_k", "b_v", "b_o")}
    allowed = np.asarray(attention.mask[query], dtype=bool)  # (Tk,)
    scale = math.sqrt(d_k)

    def one_head(h):
        cols = _head_columns(h, d_k)
        q = x_q @ W["W_Q"][:, cols] + b["b_q"][cols]  # (d_k,)
        k = x_kv @ W["W_K"][:, cols] + b["b_k"][cols]  # (Tk, d_k)
        v = x_kv @ W["W_V"][:, cols] + b["b_v"][cols]  # (Tk, d_k)
        scores = k @ q  # (Tk,)
        scaled = np.where(allowed, scores / scale, -np.inf)
        weights = _softmax_masked(scaled, allowed)
        return q, k, v, scores, scaled, weights, weights[:, None] * v

    parts = [one_head(h) for h in range(H)]
    head_outputs = np.stack([p[6].sum(axis=0) for p in parts])  # (H, d_k)
    concat = head_outputs.reshape(-1)  # (d,)
    q, k, v, scores, scaled, weights, weighted = parts[head]
    row = lambda a: a[None]  # one query: (…) -> (1, …)
    return AttentionStep(
        q=row(q),
        k=k,
        v=v,
        allowed=row(allowed),
        scores=row(scores),
        scale=scale,
        scaled=row(scaled),
        weights=row(weights),
        weighted_values=row(weighted),
        z=row(weighted.sum(axis=0)),
        x_query=row(x_q),
        x_keys=x_kv,
        kind=attention.kind,
        layer=attention.layer,
        head=head,
        query=query,
        head_outputs=head_outputs[:, None],
        concat=row(concat),
        output=row(concat @ W["W_O"] + b["b_o"]),
    )


def step_difference(step: AttentionStep, attention: AttentionTrace) -> float:
    """The largest absolute difference between a recomputed step and what the model's forward pass recorded
    for the same head and query (q, k, v, weights, z, concat, output): the Step by step page's check."""
    h, i = step.head, step.query
    pairs = (
        (step.q[0], attention.q[h, i]),
        (step.k, attention.k[h]),
        (step.v, attention.v[h]),
        (step.weights[0], attention.weights[h, i]),
        (step.z[0], attention.head_outputs[h, i]),
        (step.concat[0], attention.concat[i]),
        (step.output[0], attention.output[i]),
    )
    return max(float(np.max(np.abs(mine - recorded))) for mine, recorded in pairs)


def toy_inputs(n_words: int, d_model: int, d_k: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Seeded X (n, d_model) and W_Q, W_K, W_V (d_model, d_k), rounded to one decimal so they can be read
    (and retyped) by hand."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(0, 1, (n_words, d_model)), 1)
    w = [np.round(rng.normal(0, 1, (d_model, d_k)), 1) for _ in range(3)]
    return (x, *w)


def toy_attention(x, w_q, w_k, w_v, scale_dim: int | None = None) -> AttentionStep:
    """A tiny self-attention layer with readable numbers: Q = X W_Q, K = X W_K, V = X W_V for X (n, d_model)
    and W_* (d_model, d_k), then softmax(QKᵀ/√d_k) V with every step shown (`attention_arithmetic`, the same
    function the course example uses). Every word is a query and a key: m = n."""
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    step = attention_arithmetic(x @ w_q, x @ w_k, x @ w_v, scale_dim=scale_dim)
    step.x_query, step.x_keys = x, x
    return step


def ranked_keys(step: AttentionStep, row: int = 0) -> list[int]:
    """The keys query `row` may see, largest weight first (ties: earlier key first): the terms of its z."""
    weights = step.weights[row]
    return [int(j) for j in np.argsort(-weights, kind="stable") if step.allowed[row, j]]


def toy_labels(tokens: list[str], n: int) -> list[str]:
    """Row labels for a toy layer of n words: the sentence's words first (special tokens left out), then w0,
    w1, … ("0:apple")."""
    words = [t for t in tokens if t not in SPECIAL_TOKENS]
    return [f"{i}:{w}" for i, w in enumerate((words + [f"w{j}" for j in range(n)])[:n])]
