"""Scaled dot-product attention with the working shown (course §3; Vaswani et al. 2017, §3.2.1):

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V

for the course's hand-sized examples, for a toy layer with readable numbers, and for one query of one head of
the model, redone in float64 from the traced inputs and the weights so it checks the model's own tensors.

numpy in, numpy out. Attention matrices are (queries, keys): rows look at columns.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from viz_model.model.trace import AttentionTrace
from viz_model.model.transformer import scaled_dot_product_attention


@dataclass
class AttentionArithmetic:
    """Every step of softmax(q kᵀ / √d_k) v for m queries and n keys."""

    scores: np.ndarray  # (m, n) q·k
    scale: float  # √d_k
    scaled: np.ndarray  # (m, n) q·k / √d_k
    weights: np.ndarray  # (m, n) softmax over each row (keys), rows sum to 1
    weighted_values: np.ndarray  # (m, n, d_v) weights[i, j] · v_j, the terms of the sum
    output: np.ndarray  # (m, d_v) z_i = Σ_j weights[i, j] v_j


def attention_arithmetic(q, k, v, scale_dim: int | None = None) -> AttentionArithmetic:
    """Scaled dot-product attention with the working shown. q (m, d), k (n, d), v (n, d_v).

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
    output, scores, scaled, weights = (t.numpy() for t in scaled_dot_product_attention(qt, kt, vt))
    return AttentionArithmetic(
        scores=scores,
        scale=math.sqrt(scale_dim),
        scaled=scaled,
        weights=weights,
        weighted_values=weights[:, :, None] * v[None, :, :],
        output=output,
    )


def course_attention_example() -> AttentionArithmetic:
    """"Thinking Machines" (course §3, d_k = 64): q1·k1 = 112, q1·k2 = 96; ÷ 8 -> 14, 12; softmax -> 0.88,
    0.12; z1 = 0.88 v1 + 0.12 v2.

    The lecture's 64-dim vectors are not given; these 4-dim stand-ins have the same dot products and are
    scaled as d_k = 64. v1 = (1, 0), v2 = (0, 1), so z1 = (0.88, 0.12) reads off the weights directly.
    """
    q = [[4, 4, 4, 4]]  # q1 ("Thinking")
    k = [[7, 7, 7, 7], [6, 6, 6, 6]]  # k1 ("Thinking"), k2 ("Machines"): 4·28 = 112, 4·24 = 96
    v = [[1, 0], [0, 1]]
    return attention_arithmetic(q, k, v, scale_dim=64)


@dataclass
class AttentionStep:
    """softmax(q·K/√d_k) V for one query token of one head, recomputed from x and the weight matrices.

    Shapes: d = d_model, d_k = d / H, Tk keys.
    """

    kind: str
    layer: int
    head: int
    query: int                 # query position (row of the attention matrix)
    x_query: np.ndarray        # (d,) the input W_Q multiplies
    x_keys: np.ndarray         # (Tk, d) the inputs W_K and W_V multiply
    q: np.ndarray              # (d_k,) x_query · W_Q[:, head] + b_Q[head]
    k: np.ndarray              # (Tk, d_k)
    v: np.ndarray              # (Tk, d_k)
    allowed: np.ndarray        # (Tk,) bool, False where the causal mask hides the key
    scores: np.ndarray         # (Tk,) q·k_j
    scale: float               # √d_k
    scaled: np.ndarray         # (Tk,) q·k_j / √d_k, −inf where masked
    weights: np.ndarray        # (Tk,) softmax of scaled; 0 where masked
    weighted_values: np.ndarray  # (Tk, d_k) weights_j · v_j
    z: np.ndarray              # (d_k,) Σ_j weights_j v_j: this head's output for the query
    head_outputs: np.ndarray   # (H, d_k) every head's z for this query (same computation)
    concat: np.ndarray         # (d,) heads side by side
    output: np.ndarray         # (d,) concat · W^O + b^O


def _head_columns(head: int, d_k: int) -> slice:
    return slice(head * d_k, (head + 1) * d_k)


def _softmax_masked(scaled: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    out = np.zeros_like(scaled)
    s = scaled[allowed]
    e = np.exp(s - s.max())
    out[allowed] = e / e.sum()
    return out


def attention_step(attention: AttentionTrace, parameters: dict[str, np.ndarray], head: int,
                   query: int) -> AttentionStep:
    """Redo one head's attention for one query in float64 from the traced inputs and the weights
    (`Translator.attention_parameters`: x @ W + b, head h owns columns h·d_k …).

    Independent of the model's torch code, so its agreement with the trace (and the Attention page's
    heatmap) is a real check.
    """
    H = attention.n_heads
    x_q = attention.query_input[query].astype(np.float64)                 # (d,)
    x_kv = attention.key_value_input.astype(np.float64)                   # (Tk, d)
    d = x_q.shape[0]
    d_k = d // H
    W = {name: parameters[name].astype(np.float64) for name in ("W_Q", "W_K", "W_V", "W_O")}
    b = {name: parameters[name].astype(np.float64) for name in ("b_q", "b_k", "b_v", "b_o")}
    allowed = np.asarray(attention.mask[query], dtype=bool)               # (Tk,)
    scale = math.sqrt(d_k)

    def one_head(h):
        cols = _head_columns(h, d_k)
        q = x_q @ W["W_Q"][:, cols] + b["b_q"][cols]                     # (d_k,)
        k = x_kv @ W["W_K"][:, cols] + b["b_k"][cols]                    # (Tk, d_k)
        v = x_kv @ W["W_V"][:, cols] + b["b_v"][cols]                    # (Tk, d_k)
        scores = k @ q                                                   # (Tk,)
        scaled = np.where(allowed, scores / scale, -np.inf)
        weights = _softmax_masked(scaled, allowed)
        return q, k, v, scores, scaled, weights, weights[:, None] * v

    parts = [one_head(h) for h in range(H)]
    head_outputs = np.stack([p[6].sum(axis=0) for p in parts])            # (H, d_k)
    concat = head_outputs.reshape(-1)                                      # (d,)
    q, k, v, scores, scaled, weights, weighted = parts[head]
    return AttentionStep(attention.kind, attention.layer, head, query, x_q, x_kv, q, k, v, allowed, scores,
                         scale, scaled, weights, weighted, weighted.sum(axis=0), head_outputs, concat,
                         concat @ W["W_O"] + b["b_o"])


def step_difference(step: AttentionStep, attention: AttentionTrace) -> float:
    """The largest absolute difference between a recomputed step and what the model's forward pass recorded
    for the same head and query (q, k, v, weights, z, concat, output): the Step by step page's check."""
    h, i = step.head, step.query
    pairs = ((step.q, attention.q[h, i]), (step.k, attention.k[h]), (step.v, attention.v[h]),
             (step.weights, attention.weights[h, i]), (step.z, attention.head_outputs[h, i]),
             (step.concat, attention.concat[i]), (step.output, attention.output[i]))
    return max(float(np.max(np.abs(mine - recorded))) for mine, recorded in pairs)


@dataclass
class ToyAttention:
    """A tiny self-attention layer with readable numbers: X (n, d_model), W_* (d_model, d_k)."""

    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    q: np.ndarray           # (n, d_k) X W_Q
    k: np.ndarray           # (n, d_k)
    v: np.ndarray           # (n, d_k)
    arithmetic: AttentionArithmetic


def toy_inputs(n_words: int, d_model: int, d_k: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Seeded X (n, d_model) and W_Q, W_K, W_V (d_model, d_k), rounded to one decimal so they can be read
    (and retyped) by hand."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(0, 1, (n_words, d_model)), 1)
    w = [np.round(rng.normal(0, 1, (d_model, d_k)), 1) for _ in range(3)]
    return (x, *w)


def toy_attention(x, w_q, w_k, w_v, scale_dim: int | None = None) -> ToyAttention:
    """Q = X W_Q, K = X W_K, V = X W_V, then softmax(QKᵀ/√d_k) V with every step shown
    (`attention_arithmetic`, the same function the course example uses)."""
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    return ToyAttention(x, w_q, w_k, w_v, q, k, v, attention_arithmetic(q, k, v, scale_dim=scale_dim))
