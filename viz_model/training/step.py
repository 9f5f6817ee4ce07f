"""The optimizer and its step, one definition for the from-scratch training, the continuation and the step
benchmark, so that what the benchmark times is what the training runs."""

from __future__ import annotations

import torch

BETAS = (0.9, 0.98)  # The Annotated Transformer's β₂: a shorter memory of the gradient's scale than 0.999
MAX_GRAD_NORM = 1.0


def adamw(model: torch.nn.Module, lr: float, weight_decay: float, fused: bool = False) -> torch.optim.AdamW:
    """AdamW over every parameter of `model`. fused: one kernel over every tensor, a third of the unfused
    optimizer's time a step on a CPU (the from-scratch recipe keeps the unfused one it was trained with)."""
    return torch.optim.AdamW(model.parameters(), lr=lr, betas=BETAS, weight_decay=weight_decay, fused=fused)


def optimizer_step(model: torch.nn.Module, optimizer: torch.optim.Optimizer, loss: torch.Tensor) -> None:
    """Back-propagate `loss`, clip the gradients' global norm and update the weights."""
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
    optimizer.step()
