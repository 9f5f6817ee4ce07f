"""Projecting embeddings to 2-D/3-D for plotting, and nearest neighbours (course §1: similar words get
similar vectors).

numpy in, numpy out (float64).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .similarity import cosine_similarity


@dataclass
class PcaResult:
    """X ≈ mean + coords @ components."""

    coords: np.ndarray  # (n, k) each row projected onto the k components
    components: np.ndarray  # (k, d) orthonormal directions of largest variance, best first
    explained_variance_ratio: np.ndarray  # (k,) share of the total variance along each component
    mean: np.ndarray  # (d,) subtracted before projecting


def pca(X, n_components: int = 2) -> PcaResult:
    """Principal component analysis of X (n, d) via the SVD of the centred data.

    Xc = X - mean = U S Vᵀ; the rows of Vᵀ are the eigenvectors of the covariance Xcᵀ Xc / (n - 1) with
    eigenvalues S² / (n - 1), so the explained variance ratio of component j is S_j² / Σ S². An
    eigenvector's sign is arbitrary; we make each component's largest-|.| loading positive so the plot
    does not flip between runs.
    """
    X = np.asarray(X, dtype=np.float64)
    mean = X.mean(axis=0)
    Xc = X - mean
    _, S, Vt = np.linalg.svd(Xc, full_matrices=False)  # S (r,), Vt (r, d), r = min(n, d)
    components = Vt[:n_components]  # (k, d)
    largest = np.argmax(np.abs(components), axis=1)
    signs = np.sign(components[np.arange(len(components)), largest])
    components = components * signs[:, None]
    variance = S**2
    total = variance.sum()
    ratio = variance[:n_components] / total if total > 0 else np.zeros(len(components))
    return PcaResult(Xc @ components.T, components, ratio, mean)


def nearest_neighbours(vectors, query, k: int = 5, exclude_self: bool = True) -> list[tuple[int, float]]:
    """The k rows of `vectors` (V, d) most cosine-similar to the query, best first, as (index, cosine).

    query: a row index into `vectors`, or a vector (d,). exclude_self drops the query's own row (only
    meaningful when query is an index). Ties keep the lower index first.
    """
    V = np.asarray(vectors, dtype=np.float64)
    is_index = isinstance(query, (int, np.integer))
    q = V[query] if is_index else np.asarray(query, dtype=np.float64)
    cos = cosine_similarity(q, V)[0]  # (V,)
    order = np.argsort(-cos, kind="stable")
    if is_index and exclude_self:
        order = order[order != query]
    return [(int(i), float(cos[i])) for i in order[:k]]
