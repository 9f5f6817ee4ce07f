"""The course's four scoring functions side by side, on one query and the sentence's keys.

    dot         s(x, q) = xᵀ q
    scaled dot  s(x, q) = xᵀ q / √d
    bilinear    s(x, q) = xᵀ W q          W here is the model's own W_K W_Qᵀ / √d_k for one head:
                                          a head's q·k/√d_k is exactly a bilinear form in the token
                                          vectors (projection biases aside)
    additive    s(x, q) = vᵀ tanh(W x + U q)   small fixed matrices (h = 4), seeded, shown in full

Each gives a row of scores over the keys; softmax turns each into weights, so the page can show what each
function does to the same query.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .similarity import additive_score, bilinear_score, softmax

SCORING_FUNCTIONS = ("dot", "scaled_dot", "bilinear", "additive")


@dataclass
class ScoringComparison:
    scores: dict[str, np.ndarray]  # name -> (n,) one score per key
    weights: dict[str, np.ndarray]  # name -> (n,) softmax of the scores
    bilinear_matrix: np.ndarray  # (d, d) W_K W_Qᵀ / √d_k of the chosen head
    additive_w: np.ndarray  # (h, d)
    additive_u: np.ndarray  # (h, d)
    additive_v: np.ndarray  # (h,)


def additive_matrices(d: int, hidden: int = 4, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fixed small matrices for the additive score, scaled so tanh is not saturated for unit-size x."""
    rng = np.random.default_rng(seed)
    return (
        rng.normal(0, 1 / np.sqrt(d), (hidden, d)),
        rng.normal(0, 1 / np.sqrt(d), (hidden, d)),
        rng.normal(0, 1, hidden),
    )


def compare_scoring(
    query: np.ndarray, keys: np.ndarray, w_q_head: np.ndarray, w_k_head: np.ndarray, hidden: int = 4, seed: int = 0
) -> ScoringComparison:
    """query (d,), keys (n, d): token vectors; w_q_head, w_k_head (d, d_k): one head's projection columns."""
    d, d_k = len(query), w_q_head.shape[1]
    bilinear_w = w_k_head @ w_q_head.T / np.sqrt(d_k)  # (d, d): x W q = (x W_K)·(q W_Q) / √d_k
    W, U, v = additive_matrices(d, hidden, seed)
    scores = {
        "dot": keys @ query,
        "scaled_dot": keys @ query / np.sqrt(d),
        "bilinear": bilinear_score(keys, query, bilinear_w),
        "additive": additive_score(keys, query, W, U, v),
    }
    return ScoringComparison(scores, {k: softmax(s) for k, s in scores.items()}, bilinear_w, W, U, v)


def head_scoring(attention, parameters: dict[str, np.ndarray], head: int, query: int) -> ScoringComparison:
    """The four functions on one recorded attention layer (`trace.AttentionTrace`): the query row `query` of
    the vectors W_Q multiplies against the vectors W_K multiplies, with head `head`'s columns of the model's
    W_Q and W_K (`Translator.attention_parameters`) for the bilinear matrix."""
    d_k = attention.q.shape[-1]
    cols = slice(head * d_k, (head + 1) * d_k)
    x_query = attention.query_input.astype(np.float64)
    x_keys = attention.key_value_input.astype(np.float64)
    return compare_scoring(
        x_query[query],
        x_keys,
        parameters["W_Q"][:, cols].astype(np.float64),
        parameters["W_K"][:, cols].astype(np.float64),
    )
