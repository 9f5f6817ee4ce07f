"""Weights between the starting checkpoint and a continued one: θ = θ_start + α (θ_continued − θ_start).

A continuation that learns the classics and coreference by kind moves every weight, and with it what the
starting model did well and nobody asked it to change (the development set's Chinese → English lost 1–3
chrF in every recipe measured, docs/model.md). Fine-tuned and starting weights often lie in one basin, where
a point on the straight line between them keeps much of both (WiSE-FT: Wortsman et al., "Robust fine-tuning
of zero-shot models", 2022): α = 0 is the starting model, α = 1 the continued one. On this model's continuation the
development set's loss comes early on the line and the classics late, so no α keeps both (docs/model.md).

    python -m viz_model.training.interpolate --start assets/model_from_scratch --continued RUN/model \
        --alpha 0.7 --out OUT
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from viz_model.model import checkpoint
from viz_model.model.transformer import Transformer


@torch.no_grad()
def interpolated(start: Transformer, continued: Transformer, alpha: float) -> Transformer:
    """A copy of `continued` with each weight moved back toward `start`'s: start + alpha · (continued − start).
    The continuation grows the vocabulary at its end: embedding rows the start lacks keep the continued
    values (alpha = 0 gives the start's predictions on its own tokens, never writes a new one only by chance)."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1], not {alpha}")
    start_weights = start.state_dict()
    mixed = {}
    for name, weight in continued.state_dict().items():
        old = start_weights[name]
        if not weight.is_floating_point():
            mixed[name] = weight.clone()
            continue
        rows = old.shape[0]  # (V_start, d) against (V_continued, d) for the embedding; equal for the rest
        if weight.shape[1:] != old.shape[1:] or rows > weight.shape[0]:
            raise ValueError(f"{name}: shapes {tuple(old.shape)} and {tuple(weight.shape)} do not line up")
        new = weight.clone()
        new[:rows] = old + alpha * (weight[:rows] - old)
        mixed[name] = new
    model = Transformer(continued.config)
    model.load_state_dict(mixed)
    return checkpoint.round_to_storage(model).eval()


def interpolate_dirs(start_dir: Path, continued_dir: Path, alpha: float, out: Path) -> dict:
    """Write the interpolated model to `out` with the continued model's vocabulary and a card that records
    both ends (their checkpoints' SHA-256) and alpha; the continued card's evaluation is left out (it was the
    continued weights')."""
    start, _, start_card = checkpoint.load(start_dir)
    continued, tokenizer, card = checkpoint.load(continued_dir)
    card = {k: v for k, v in card.items() if k != "evaluation"}
    card["interpolation"] = {
        "alpha": alpha,
        "start_checkpoint_sha256": start_card["checkpoint_sha256"],
        "continued_checkpoint_sha256": card["checkpoint_sha256"],
        "command": f"python -m viz_model.training.interpolate --start START --continued CONTINUED --alpha {alpha:g}",
    }
    checkpoint.save(interpolated(start, continued, alpha), tokenizer, card, out)
    return card


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=Path, default=checkpoint.MODEL_DIR, help="the checkpoint continued from")
    parser.add_argument("--continued", type=Path, required=True, help="the continuation's saved model")
    parser.add_argument("--alpha", type=float, required=True, help="0: the start, 1: the continued model")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    interpolate_dirs(args.start, args.continued, args.alpha, args.out)
    print(f"saved to {args.out}")


if __name__ == "__main__":
    main()
