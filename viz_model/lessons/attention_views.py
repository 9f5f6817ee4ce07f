"""What one attention matrix says at a glance: the keys a query weighs most, and how heads differ.

numpy in, plain data out. Attention matrices are (queries, keys): rows look at columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Attended:
    position: int  # key position
    token: str
    weight: float


def top_attended(
    weights: np.ndarray, query: int, key_tokens: list[str], k: int = 5, mask: np.ndarray | None = None
) -> list[Attended]:
    """The k keys query row `query` of `weights` (Tq, Tk) puts most weight on, largest first.

    Keys the query may not look at (mask False) are left out; ties keep the earlier position first.
    """
    row = np.asarray(weights, dtype=np.float64)[query]
    allowed = np.ones_like(row, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)[query]
    order = [j for j in np.argsort(-row, kind="stable") if allowed[j]]
    return [Attended(int(j), key_tokens[j], float(row[j])) for j in order[:k]]


def head_differences(weights: np.ndarray, heads: list[int]) -> list[tuple[int, int, np.ndarray]]:
    """For heads [a, b, …] of weights (H, Tq, Tk): (b, a, W_b − W_a) for every later head against the first.

    Positive cells: the later head looks there more than the first. Two heads give one difference.
    """
    if len(heads) < 2:
        raise ValueError("a difference needs at least two heads")
    first = heads[0]
    return [(h, first, weights[h].astype(np.float64) - weights[first].astype(np.float64)) for h in heads[1:]]
