"""Similarity, scoring functions and softmax (course §2–3), and the course's hand-worked examples.

numpy in, numpy out (float64). Row vectors throughout: A (n, d) and B (m, d) give (n, m) matrices whose
rows are the first argument's vectors (the queries) and columns the second's (the keys).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def _rows(x) -> np.ndarray:
    """A vector (d,) or matrix (n, d) as a float64 matrix (n, d)."""
    return np.atleast_2d(np.asarray(x, dtype=np.float64))


# ------------------------------------------------------------------------------ similarity functions


def dot_similarity(A, B) -> np.ndarray:
    """a·b for every pair: (n, d), (m, d) -> (n, m). Grows with the vectors' lengths."""
    return _rows(A) @ _rows(B).T


def scaled_dot_similarity(A, B) -> np.ndarray:
    """a·b / √d: (n, d), (m, d) -> (n, m).

    For random vectors with unit-variance entries a·b has variance d; dividing by √d brings it back to 1,
    so a softmax over such scores does not saturate as d grows (Vaswani et al. 2017, §3.2.1).
    """
    A = _rows(A)
    return dot_similarity(A, B) / math.sqrt(A.shape[1])


def cosine_similarity(A, B) -> np.ndarray:
    """cos θ = a·b / (|a| |b|) in [-1, 1]: (n, d), (m, d) -> (n, m). Ignores the vectors' lengths.

    Convention: a zero vector has no direction, so its cosine with anything is defined as 0 (not NaN).
    """
    A, B = _rows(A), _rows(B)
    norms = np.linalg.norm(A, axis=1)[:, None] * np.linalg.norm(B, axis=1)[None, :]  # (n, m)
    dots = A @ B.T
    out = np.zeros_like(dots)
    np.divide(dots, norms, out=out, where=norms > 0)
    return np.clip(out, -1.0, 1.0)  # rounding can step just outside [-1, 1]; arccos needs inside


def angle_degrees(A, B) -> np.ndarray:
    """θ = arccos(cos θ) in degrees: (n, d), (m, d) -> (n, m) (course: cos 14° = 0.97)."""
    return np.degrees(np.arccos(cosine_similarity(A, B)))


@dataclass
class SimilarityTable:
    """All pairwise similarities of one set of vectors, each (n, n)."""

    dot: np.ndarray
    scaled_dot: np.ndarray  # dot / √d
    cosine: np.ndarray
    angle_degrees: np.ndarray


def similarity_table(vectors) -> SimilarityTable:
    """Dot, scaled dot, cosine and angle between every pair of rows of `vectors` (n, d)."""
    V = _rows(vectors)
    return SimilarityTable(
        dot_similarity(V, V), scaled_dot_similarity(V, V), cosine_similarity(V, V), angle_degrees(V, V)
    )


@dataclass
class SimilarityMatrices:
    """Dot, cosine and scaled-dot similarity of every query row with every key row, each (n, m), and each
    matrix's softmax over its rows (what attention would do with it: every row sums to 1)."""

    dot: np.ndarray
    cosine: np.ndarray
    scaled_dot: np.ndarray  # dot / √d
    scale: float  # √d, d = the vectors' dimension
    softmax: dict[str, np.ndarray]  # measure name -> softmax of that matrix's rows

    MEASURES = ("dot", "cosine", "scaled_dot")

    def matrix(self, measure: str) -> np.ndarray:
        return getattr(self, measure)


def similarity_matrices(queries: np.ndarray, keys: np.ndarray) -> SimilarityMatrices:
    """All three similarities between queries (n, d) and keys (m, d) , with softmax rows.

    With the Q and K vectors of one head, `scaled_dot` is that head's q·k/√d_k and its softmax rows are the
    head's attention weights (encoder self-attention has no mask).
    """
    queries = np.asarray(queries, dtype=np.float64)
    matrices = {
        "dot": dot_similarity(queries, keys),
        "cosine": cosine_similarity(queries, keys),
        "scaled_dot": scaled_dot_similarity(queries, keys),
    }
    return SimilarityMatrices(
        **matrices,
        scale=math.sqrt(queries.shape[1]),
        softmax={name: softmax(m, axis=-1) for name, m in matrices.items()},
    )


def entropy_bits(weights, axis: int = -1) -> np.ndarray:
    """H = −Σ p·log₂ p of each row of probabilities, in bits (0·log 0 = 0): 0 for a one-hot row, log₂ n for a
    uniform row over n entries."""
    p = np.asarray(weights, dtype=np.float64)
    logs = np.log2(np.where(p > 0, p, 1.0))  # log 1 = 0 where p = 0
    return -np.sum(p * logs, axis=axis)


@dataclass
class ScalingEffect:
    """What ÷√d does to the softmax rows of q·k, measured: for each query (row), the largest weight and the
    entropy in bits of softmax(q·k) ("plain") and of softmax(q·k/√d) ("scaled"), each (n,)."""

    largest_plain: np.ndarray
    largest_scaled: np.ndarray
    entropy_plain: np.ndarray
    entropy_scaled: np.ndarray
    scale: float  # √d
    n_keys: int

    @property
    def uniform_entropy(self) -> float:
        """log₂ m: the entropy of a row spread evenly over the m keys (the most a row can have)."""
        return math.log2(self.n_keys)

    def means(self) -> dict[str, float]:
        """The four columns' means over the rows, keyed like the fields."""
        return {
            name: float(np.mean(getattr(self, name)))
            for name in ("largest_plain", "largest_scaled", "entropy_plain", "entropy_scaled")
        }


def scaling_effect(queries, keys) -> ScalingEffect:
    """Each row's largest softmax weight and entropy with and without ÷√d, for queries (n, d) and keys (m, d)."""
    queries = _rows(queries)
    plain = softmax(dot_similarity(queries, keys), axis=-1)
    scaled = softmax(scaled_dot_similarity(queries, keys), axis=-1)
    return ScalingEffect(
        largest_plain=plain.max(axis=1),
        largest_scaled=scaled.max(axis=1),
        entropy_plain=entropy_bits(plain),
        entropy_scaled=entropy_bits(scaled),
        scale=math.sqrt(queries.shape[1]),
        n_keys=plain.shape[1],
    )


# ---------------------------------------------------------------------- scoring functions (course §3)


def additive_score(x, q, W, U, v) -> np.ndarray:
    """s(x, q) = vᵀ tanh(W x + U q) for each row of x (Bahdanau et al. 2015).

    x (n, d_x), q (d_q,), W (h, d_x), U (h, d_q), v (h,) -> (n,).
    """
    hidden = np.tanh(_rows(x) @ np.asarray(W, float).T + np.asarray(U, float) @ np.asarray(q, float))  # (n, h)
    return hidden @ np.asarray(v, float)


def bilinear_score(x, q, W) -> np.ndarray:
    """s(x, q) = xᵀ W q for each row of x (Luong et al. 2015). x (n, d_x), q (d_q,), W (d_x, d_q) -> (n,)."""
    return _rows(x) @ np.asarray(W, float) @ np.asarray(q, float)


def softmax(scores, temperature: float = 1.0, axis: int = -1) -> np.ndarray:
    """softmax(s)_i = exp(s_i / T) / Σ_j exp(s_j / T) along `axis`; same shape as scores.

    Subtracting the maximum first changes nothing mathematically (it cancels) but keeps exp from
    overflowing. T > 1 flattens the weights, T < 1 sharpens them toward the maximum (hard attention).
    -inf scores (masked positions) get weight exactly 0.
    """
    s = np.asarray(scores, dtype=np.float64) / temperature
    s = s - np.max(s, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)


def sum_normalise(scores) -> np.ndarray:
    """s_i / Σ_j s_j: the "plain normalisation" of course §2. (n,) -> (n,).

    Raises ZeroDivisionError when the scores sum to 0 (course: 1·Orange − 1·Motorcycle), and gives
    negative "weights" for negative scores: the reason attention uses softmax instead.
    """
    s = np.asarray(scores, dtype=np.float64)
    total = s.sum()
    if total == 0:
        raise ZeroDivisionError(f"scores {s.tolist()} sum to 0: plain normalisation is undefined")
    return s / total


# ------------------------------------------------------------------------ the course's word vectors

COURSE_FEATURES = ("Tech", "Fruitness", "Other")
COURSE_WORDS = {"orange": (0, 3, 0), "phone": (4, 0, 0), "apple": (2, 2, 0), "and": (0, 0, 2), "an": (0, 0, 3)}
# The 2-feature (Tech, Fruitness) vectors of the dot-product example: (1,4)·(0,3) = 12, (1,4)·(3,0) = 3,
# (0,3)·(3,0) = 0. The notes do not name the words.
COURSE_2D_VECTORS = ((1, 4), (0, 3), (3, 0))


@dataclass
class MoveResult:
    """How attention over a sentence moves one word's vector (course §2, "移动过程"). k = words used."""

    words: list[str]  # the k words attended over
    focus: str  # the word whose vector moves
    vectors: np.ndarray  # (k, d) their vectors
    similarities: np.ndarray  # (k,) cos(focus, word), rounded if asked
    raw_vector: np.ndarray  # (d,) Σ sim_i v_i before any normalisation ("1·Orange + 0.71·Apple")
    sum_weights: np.ndarray | None  # (k,) sim_i / Σ sim; None when Σ sim = 0 (undefined)
    sum_vector: np.ndarray | None  # (d,) Σ sum_weights_i v_i
    weights: np.ndarray  # (k,) softmax(sim)
    new_vector: np.ndarray  # (d,) Σ weights_i v_i: the focus word's vector in context


def contextual_move(
    words: list[str],
    vectors: dict,
    focus: str,
    round_similarities: int | None = None,
    count_duplicates: bool = False,
) -> MoveResult:
    """Move `focus` toward the words it is similar to: new = Σ softmax(cos(focus, w))_w · v_w.

    words: the sentence, e.g. ["an", "apple", "and", "an", "orange"]; vectors: word -> feature tuple.
    Duplicates: the course counts each distinct word once ("an" appears twice but the worked example has
    four words: orange, apple, and, an), so by default words are de-duplicated, keeping first-appearance
    order. count_duplicates=True gives each occurrence its own weight, as real self-attention does.
    round_similarities: the notes round cos to 2 decimals (0.71) before normalising; pass 2 to get their
    0.58/0.42 sum-normalised weights (exact cos 0.7071 gives 0.586/0.414, i.e. 0.59/0.41).
    For the course's "pairwise" version pass just two words, e.g. ["orange", "apple"].
    """
    if focus not in words:
        raise ValueError(f"focus word {focus!r} is not in the sentence")
    used = list(words) if count_duplicates else list(dict.fromkeys(words))
    V = np.array([vectors[w] for w in used], dtype=np.float64)  # (k, d)
    sims = cosine_similarity(np.asarray(vectors[focus], dtype=np.float64), V)[0]  # (k,)
    if round_similarities is not None:
        sims = np.round(sims, round_similarities)
    try:
        sum_weights = sum_normalise(sims)
        sum_vector = sum_weights @ V
    except ZeroDivisionError:
        sum_weights = sum_vector = None
    weights = softmax(sims)
    return MoveResult(used, focus, V, sims, sims @ V, sum_weights, sum_vector, weights, weights @ V)
