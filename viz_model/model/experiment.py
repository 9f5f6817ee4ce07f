"""Experiments on the model: heads switched off, positions taken away, without touching the shared weights.

An experiment changes the computation, never the shared model: it lives in a context variable, of which each
thread (each browser session's script run) has its own copy, so one session's switched-off head is never
another's. Every forward pass reads it, teacher-forced traces and beam search alike, so every view of the app
can draw an experiment's result through the one trace format.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import torch

Tensor = torch.Tensor


@dataclass(frozen=True)
class Experiment:
    """`gates`: (kind, layer) → a (H,) or (B, H) tensor, 1 keeps a head's output and 0 switches it off before
    W^O (B: one experiment per batch row, for every head's importance in one pass). `mode`: "zero" replaces a
    switched-off head's output by zeros, "mean" by its mean over the positions (what the head says on average,
    without what it says about each token). `positions`: False adds no positional encoding. `hard`: the
    sites whose attention weights are one-hot at their argmax."""

    gates: dict[tuple[str, int], Tensor] = field(default_factory=dict)
    mode: str = "zero"
    positions: bool = True
    # Sites (kind, layer) whose attention is hard: each query takes the value of its highest-scoring key
    # alone (one-hot weights from the argmax) instead of the softmax's mix of all of them.
    hard: frozenset[tuple[str, int]] = frozenset()


EXPERIMENT: ContextVar[Experiment | None] = ContextVar("experiment", default=None)


@contextmanager
def experiment(exp: Experiment) -> Iterator[Experiment]:
    """Run the model under `exp` inside the block (this thread only)."""
    token = EXPERIMENT.set(exp)
    try:
        yield exp
    finally:
        EXPERIMENT.reset(token)


def hardened(weights: Tensor) -> Tensor:
    """weights (..., Tk) -> one-hot at each row's largest weight (a masked key has weight 0: never chosen)."""
    return torch.nn.functional.one_hot(weights.argmax(-1), weights.size(-1)).to(weights.dtype)


def gated(heads: Tensor, gate: Tensor, mode: str) -> Tensor:
    """heads (B, H, Tq, d_k); gate (H,) or (B, H) -> the heads with the switched-off ones replaced."""
    g = gate.to(heads.dtype).reshape(*(gate.shape if gate.dim() == 2 else (1, -1)), 1, 1)  # (B|1, H, 1, 1)
    if mode == "mean":
        return g * heads + (1 - g) * heads.mean(dim=2, keepdim=True)
    return g * heads
