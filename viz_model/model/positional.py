"""Sinusoidal positional encoding (course §4; Vaswani et al. 2017, §3.5).

"Since our model contains no recurrence and no convolution, in order for the model to make use of the order
of the sequence, we must inject some information about the position of the tokens in the sequence."

This is the one implementation in the project: the model builds its positional buffer from it, and the
positional-encoding page shows the same numbers.
"""

from __future__ import annotations

import numpy as np


def sinusoidal_encoding(length: int, d_model: int) -> np.ndarray:
    """PE (length, d_model), float32, positions 0..length-1.

        PE(pos, 2i)   = sin(pos / 10000^(2i / d_model))
        PE(pos, 2i+1) = cos(pos / 10000^(2i / d_model))

    Column pair (2i, 2i+1) shares one frequency, so each pair is a point on a circle turning at its own
    speed: fast in the first columns, slow in the last. An odd d_model ends with an unpaired sin column
    (the course's d_model = 5 example). float32 because it is added to float32 embeddings (x + P).
    """
    positions = np.arange(length, dtype=np.float64)[:, None]  # (L, 1)
    even_columns = np.arange(0, d_model, 2, dtype=np.float64)  # 2i = 0, 2, 4, ...  (ceil(d/2),)
    angles = positions / 10000.0 ** (even_columns / d_model)  # (L, ceil(d/2)) in radians
    pe = np.zeros((length, d_model), dtype=np.float64)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles[:, : d_model // 2])  # odd d_model: no cos partner for the last sin
    return pe.astype(np.float32)
