"""Which matrix products a training step uses: bfloat16 where the CPU has AMX, float32 elsewhere, where it is
faster (docs/performance.md, "Training's own costs"). Both training phases decide and compute through here."""

from __future__ import annotations

import platform
from dataclasses import replace
from pathlib import Path

import torch


def cpu_has_bf16(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """The CPU has AMX's bfloat16 tiles (Linux's `amx_bf16` flag). AVX-512 BF16 alone is not enough: on such a
    Xeon the model's bfloat16 products ran slower than float32 (docs/performance.md, "Without AMX")."""
    try:
        flags = set(Path(cpuinfo).read_text().split())
    except OSError:
        return False
    return "amx_bf16" in flags


def with_products_decided(cfg):
    """`cfg` (TrainConfig or ContinuationConfig) with `bf16` decided: left None, by the CPU (cpu_has_bf16)."""
    return cfg if cfg.bf16 is not None else replace(cfg, bf16=cpu_has_bf16())


def training_logits(model, src: torch.Tensor, dec_in: torch.Tensor, bf16: bool) -> torch.Tensor:
    """(B, T, V) logits of a training step, in float32 for the loss; the matrix products in bfloat16 where
    `bf16` (CPUs with AMX, where that is faster)."""
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        return model(src, dec_in).float()


def cpu_name(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's model name, for the card: a run's time means little without it."""
    for line in cpuinfo.read_text().splitlines() if cpuinfo.exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"
