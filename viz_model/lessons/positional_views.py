"""What the sinusoidal positional encoding (viz_model.model.positional) looks like from the outside: the dot
product between positions, and how it falls off with the distance between them (course §4).

numpy in, numpy out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viz_model.model.positional import sinusoidal_encoding

COURSE_WORDS = ("when", "you", "play", "game", "of", "thrones")  # the course's d_model = 5 example
COURSE_D_MODEL = 5
# Samples per unit of position on the curves: the fastest pair (dims 0 and 1, one radian per position, a turn
# every 2π ≈ 6.3 positions) gets about 38 points a turn, drawn as the sinusoid it is, not a zigzag; twice as
# many looked the same and doubled what every rerun sends to the browser.
CURVE_STEPS = 6


@dataclass(frozen=True)
class PositionalTable:
    """The sinusoidal table a page draws, and how many of its first rows are the sentence's own positions."""

    pe: np.ndarray  # (L, d_model)
    sentence_rows: int  # S: rows 0…S-1 are the typed sentence's tokens (0: the sentence is not marked)

    @property
    def length(self) -> int:
        return self.pe.shape[0]

    @property
    def d_model(self) -> int:
        return self.pe.shape[1]


def positional_table(d_model: int, length: int, sentence_length: int = 0) -> PositionalTable:
    """The table of `length` positions, grown to the sentence's length when the sentence is marked on it
    (`sentence_length` > 0), so every token of the sentence has its row."""
    rows = max(length, sentence_length)
    return PositionalTable(sinusoidal_encoding(rows, d_model), sentence_length)


def encoding_curves(length: int, d_model: int, dims, steps: int = CURVE_STEPS) -> tuple[np.ndarray, np.ndarray]:
    """Columns `dims` of the encoding as the continuous functions of the position they are:

        PE(p, 2i) = sin(p / 10000^(2i / d_model)),   PE(p, 2i+1) = cos(p / 10000^(2i / d_model))

    sampled at p = 0, 1/steps, 2/steps, … up to length - 1. Returns x (N,) and the values (N, len(dims)),
    float64; x[k · steps] is the whole position k exactly, where the curve takes the table's value
    (sinusoidal_encoding's, computed the same way). Between whole positions the curve is what the formula
    gives there: a model only ever reads it at whole positions, the curve shows where those values come from."""
    x = np.arange((max(length, 1) - 1) * steps + 1, dtype=np.float64) / steps
    dims = np.asarray(list(dims), dtype=np.int64)
    rate_columns = (dims - dims % 2).astype(np.float64)  # the "2i" of each column
    angles = x[:, None] / 10000.0 ** (rate_columns / d_model)  # (N, len(dims)) radians, as the table's
    return x, np.where(dims % 2 == 0, np.sin(angles), np.cos(angles))


def course_table() -> tuple[np.ndarray, list[str], list[str]]:
    """The course's example: PE of "when you play game of thrones" with d_model = 5, rounded to 4 places as
    the course prints it, with its row labels ("0: when") and column labels ("0 (sin)")."""
    pe = np.round(sinusoidal_encoding(len(COURSE_WORDS), COURSE_D_MODEL), 4)
    rows = [f"{i}: {w}" for i, w in enumerate(COURSE_WORDS)]
    columns = [f"{j} ({'sin' if j % 2 == 0 else 'cos'})" for j in range(COURSE_D_MODEL)]
    return pe, rows, columns


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
