"""The cost of attention, the paper's table 1: a self-attention layer costs O(n²·d) per sequence (every
position against every other), a recurrent layer O(n·d²) in n steps that must run one after another, a
convolution O(k·n·d²). Attention is cheaper while n < d and its n steps run at once; its n × n weights grow
with the square of the length. Measured on this machine with the model's own attention block and a torch RNN
of the same width."""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch

LENGTHS = (10, 25, 50, 100, 200, 400)
KERNEL = 3  # the convolution's width in the comparison


@dataclass(frozen=True)
class CostRow:
    n: int
    attention_ops: int  # n²·d multiply-adds for the scores (and as many for the weighted sum)
    recurrent_ops: int  # n·d²
    convolution_ops: int  # k·n·d²
    weights: int  # n² attention weights per head

    @property
    def cheaper(self) -> str:
        return "attention" if self.attention_ops < self.recurrent_ops else "recurrent"


def cost_rows(d: int, lengths=LENGTHS, kernel: int = KERNEL) -> list[CostRow]:
    return [CostRow(n, n * n * d, n * d * d, kernel * n * d * d, n * n) for n in lengths]


def _median_ms(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[len(times) // 2]


@torch.inference_mode()
def measured_ms(attention_block, d: int, lengths=LENGTHS, repeats: int = 5, seed: int = 0) -> dict[str, list[float]]:
    """Median milliseconds of one forward pass over a random sequence of each length: the model's attention
    block (all its heads, W_Q … W_O) and a one-layer tanh RNN of width d (its n steps run in order)."""
    generator = torch.Generator().manual_seed(seed)
    rnn = torch.nn.RNN(d, d, batch_first=True)
    out = {"attention": [], "recurrent": []}
    for n in lengths:
        x = torch.randn(1, n, d, generator=generator)
        out["attention"].append(_median_ms(lambda x=x: attention_block(x, x), repeats))
        out["recurrent"].append(_median_ms(lambda x=x: rnn(x), repeats))
    return out
