"""A training step's time on this machine in float32 and in bfloat16 products, taking turns:
`python -m viz_model.training.bench_step [--rounds 3] [--steps 5] [--threads 2] [--json]`.

The continuation's step (its grown vocabulary, loss and optimizer) on synthetic batches of 128 pairs of 15
source and 16 target tokens; figures, not a test. It also prints the product timings that
`precision.bf16_is_faster` decides on, and what it decides.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import torch

from viz_model.corpus.continuation import extended_tokenizer
from viz_model.model import checkpoint

from .continuation import extended_model
from .loss import training_loss
from .precision import FASTER_SHARE, bf16_is_faster, cpu_name, product_seconds, training_logits
from .step import adamw, optimizer_step

BATCH, SOURCE, TARGET = 128, 15, 16


def _stepper(base, vocab_size: int, bf16: bool, generator: torch.Generator):
    """A function running one training step of a copy of `base` grown to `vocab_size` on a new random batch."""
    model = extended_model(base, vocab_size, seed=0).train()
    optimizer = adamw(model, lr=1e-4, weight_decay=0.1, fused=True)

    def step() -> None:
        src, dec_in, dec_out = (
            torch.randint(4, base.config.vocab_size, (BATCH, n), generator=generator) for n in (SOURCE, TARGET, TARGET)
        )
        optimizer_step(model, optimizer, training_loss(training_logits(model, src, dec_in, bf16), dec_out, 0, 0.1))

    return step


def run(rounds: int = 3, steps: int = 5, threads: int = 2) -> dict:
    torch.set_num_threads(threads)
    base, tokenizer, _ = checkpoint.load()
    grown = len(extended_tokenizer(tokenizer))  # the vocabulary with the continuation's new tokens appended
    generator = torch.Generator().manual_seed(0)
    steppers = {name: _stepper(base, grown, bf16, generator) for name, bf16 in (("float32", False), ("bfloat16", True))}
    times: dict[str, list[float]] = {name: [] for name in steppers}
    for _ in range(rounds):
        for name, step in steppers.items():  # taking turns: the machine's drift falls on both
            step()  # the round's first step sets its kernels up
            start = time.perf_counter()
            for _ in range(steps):
                step()
            times[name].append((time.perf_counter() - start) / steps)
    figures = {"cpu": cpu_name(), "threads": threads}
    for name, values in times.items():
        figures[f"{name}_step_s"] = round(statistics.median(values), 3)
    figures["bfloat16_step_share"] = round(figures["bfloat16_step_s"] / figures["float32_step_s"], 2)
    product = {
        name: product_seconds(dtype) for name, dtype in (("float32", torch.float32), ("bfloat16", torch.bfloat16))
    }
    figures["product_2048x256x1024_ms"] = {name: round(s * 1000, 2) for name, s in product.items()}
    figures["bfloat16_product_share"] = round(product["bfloat16"] / product["float32"], 2)
    figures["decided"] = f"bfloat16 (share ≤ {FASTER_SHARE})" if bf16_is_faster() else "float32"
    return figures


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.rounds, args.steps, args.threads)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:<28}  {value}")


if __name__ == "__main__":
    main()
