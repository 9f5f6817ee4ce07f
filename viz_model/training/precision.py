"""Which matrix products a training step uses: bfloat16 where the CPU computes them faster than float32 (AMX
tiles; AVX-512 BF16 on some CPUs), float32 elsewhere (docs/performance.md, "Training's own costs"). Both
training phases decide and compute through here."""

from __future__ import annotations

import functools
import platform
import time
from dataclasses import replace
from pathlib import Path

import torch

# bfloat16 is chosen where its products take at most this share of float32's: a clear gain, never a tie that
# load on the machine could tip either way (measured 0.43 on an AVX-512 BF16 EPYC, over 1 on a Xeon without AMX).
FASTER_SHARE = 0.8


def product_seconds(dtype: torch.dtype, repeats: int = 5) -> float:
    """The best of `repeats` timings of one product of the model's shape (a batch's 2,048 tokens through a
    256 -> 1,024 layer) in `dtype`, on the threads training uses."""
    a, b = torch.randn(2048, 256).to(dtype), torch.randn(256, 1024).to(dtype)
    a @ b  # the first call sets the kernel up
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - start)
    return best


def _bf16_clearly_faster(seconds) -> bool:
    return seconds(torch.bfloat16) <= FASTER_SHARE * seconds(torch.float32)


@functools.cache
def _measured_bf16_faster() -> bool:
    """Measured once a process: under load a timing can stray, and every caller in a process (a training run,
    its card, a test) must see the same answer."""
    return _bf16_clearly_faster(product_seconds)


def bf16_is_faster(cpuinfo: Path = Path("/proc/cpuinfo"), seconds=None) -> bool:
    """bfloat16 products are the faster ones on this CPU. AMX tiles (`amx_bf16`): yes (1.6x on the Xeon that
    trained the shipped model). No bfloat16 instructions at all: no (emulated; ~40x slower on an AVX2 EPYC).
    AVX-512 BF16 alone: measured, as it goes both ways (slower on an Intel Xeon, 2.3x faster on an AMD EPYC)."""
    try:
        flags = set(Path(cpuinfo).read_text().split())
    except OSError:
        return False
    if "amx_bf16" in flags:
        return True
    if "avx512_bf16" not in flags:
        return False
    return _measured_bf16_faster() if seconds is None else _bf16_clearly_faster(seconds)


def with_products_decided(cfg):
    """`cfg` (TrainConfig or ContinuationConfig) with `bf16` decided: left None, by the CPU (bf16_is_faster)."""
    return cfg if cfg.bf16 is not None else replace(cfg, bf16=bf16_is_faster())


def training_logits(model, src: torch.Tensor, dec_in: torch.Tensor, bf16: bool) -> torch.Tensor:
    """(B, T, V) logits of a training step, in float32 for the loss; the matrix products in bfloat16 where
    `bf16` (where that is faster: bf16_is_faster)."""
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        return model(src, dec_in).float()


def cpu_name(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's model name, for the card: a run's time means little without it."""
    for line in cpuinfo.read_text().splitlines() if cpuinfo.exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"
