"""What the sinusoidal positional encoding (viz_model.model.positional) looks like from the outside: the dot
product between positions, and how it falls off with the distance between them (course §4).

numpy in, numpy out.
"""

from __future__ import annotations

import numpy as np


def position_similarity(pe: np.ndarray) -> np.ndarray:
    """(L, L) matrix of dot products PE[p]·PE[q].

    Each sin/cos pair contributes sin a·sin b + cos a·cos b = cos(a - b), so (for even d_model) the dot
    product is Σ_i cos((p - q)·ω_i): it depends only on the distance p - q, not on where the pair sits.
    """
    pe = np.asarray(pe, dtype=np.float64)
    return pe @ pe.T


def distance_profiles(similarity: np.ndarray, starts) -> dict[int, np.ndarray]:
    """For each start position p, the row similarity[p, p:] as a function of the distance Δ = 0, 1, …
    Sinusoidal encodings give (nearly) the same curve from every start: similarity depends on Δ only."""
    similarity = np.asarray(similarity, dtype=np.float64)
    return {int(p): similarity[p, p:] for p in starts if 0 <= p < similarity.shape[0]}


def default_dims(d_model: int) -> list[int]:
    """Columns worth plotting first: two fast pairs and the slowest pair, each sin beside its cos."""
    return sorted({j for j in (0, 1, 6, 7, d_model - 2, d_model - 1) if 0 <= j < d_model})


def distance_curves(similarity: np.ndarray) -> dict[int, np.ndarray]:
    """`distance_profiles` from three starts (0, a quarter and half way in), cut to a common length so the
    curves can be laid over each other."""
    L = similarity.shape[0]
    profiles = distance_profiles(similarity, sorted({0, L // 4, L // 2}))
    width = min(len(p) for p in profiles.values())
    return {p: v[:width] for p, v in profiles.items()}
