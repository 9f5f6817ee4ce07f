"""Saving and loading the shipped model: checkpoint, vocabulary and model card, checked on load.

Every way loading can fail (missing, truncated, corrupted, wrong format or version, not matching the card)
raises one `CheckpointError` that names the file and the command that restores it, so the app can show a
single friendly message instead of a traceback.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import torch

from .config import ModelConfig
from .tokenizer import Tokenizer
from .transformer import Transformer

FORMAT = "attention-lab-checkpoint"
VERSION = 1
MODEL_DIR = Path(__file__).resolve().parents[2] / "assets" / "model"
# The from-scratch model the shipped one was continued from (`train --continue-from`, docs/model.md): kept so
# that the continuation is reproducible without the hours of training from scratch.
FROM_SCRATCH_DIR = MODEL_DIR.with_name("model_from_scratch")
CHECKPOINT_FILE, VOCAB_FILE, CARD_FILE = "checkpoint.pt", "vocab.json", "model_card.json"
# The shipped files are in the repository; retraining them takes hours (docs/model.md, "Training").
RESTORE_COMMAND = "git checkout -- assets/model"
# Weights are stored in float16: half the file (the repository ships it) for a change in the weights' fifth
# significant digit. The model in memory computes in float32 on exactly the stored values: `round_to_storage`
# is applied before a trained model is evaluated and saved, so the card's figures are the shipped model's.
STORAGE_DTYPE = torch.float16


class CheckpointError(RuntimeError):
    """The shipped model cannot be loaded; `path` is the culprit, `command` restores it."""

    def __init__(self, path: Path, problem: str):
        self.path, self.problem, self.command = Path(path), problem, RESTORE_COMMAND
        super().__init__(f"{path}: {problem}. Restore the shipped model with: {RESTORE_COMMAND}")


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@torch.no_grad()
def round_to_storage(model: Transformer) -> Transformer:
    """Round every weight to the storage precision in place (still float32 tensors), so that the model in
    memory is the one `save` writes and `load` reads back."""
    for tensor in model.state_dict().values():
        if tensor.is_floating_point():
            tensor.copy_(tensor.to(STORAGE_DTYPE))
    return model


def save(model: Transformer, tokenizer: Tokenizer, card: dict, model_dir: Path = MODEL_DIR) -> None:
    """Write checkpoint (weights in STORAGE_DTYPE), vocabulary and card; the card records both files'
    SHA-256 to detect corruption. Round the model first (`round_to_storage`) to keep memory and file equal."""
    model_dir = Path(model_dir)
    model_dir.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "format": FORMAT,
            "version": VERSION,
            "config": model.config.to_dict(),
            "state_dict": {
                k: v.detach().to(STORAGE_DTYPE) if v.is_floating_point() else v.detach().clone()
                for k, v in model.state_dict().items()
            },
        },
        model_dir / CHECKPOINT_FILE,
    )
    tokenizer.save(model_dir / VOCAB_FILE)
    card = dict(
        card,
        weights_stored_as=str(STORAGE_DTYPE).removeprefix("torch."),
        checkpoint_sha256=sha256(model_dir / CHECKPOINT_FILE),
        vocab_sha256=sha256(model_dir / VOCAB_FILE),
    )
    (model_dir / CARD_FILE).write_text(json.dumps(card, ensure_ascii=False, indent=2), encoding="utf-8")


def load(model_dir: Path | None = None) -> tuple[Transformer, Tokenizer, dict]:
    """(model in eval mode, tokenizer, card) from `model_dir` (default: the shipped model in MODEL_DIR);
    raises CheckpointError naming the bad file."""
    model_dir = Path(model_dir or MODEL_DIR)
    paths = {name: model_dir / name for name in (CARD_FILE, VOCAB_FILE, CHECKPOINT_FILE)}
    for path in paths.values():
        if not path.is_file():
            raise CheckpointError(path, "the file is missing")
    try:
        card = json.loads(paths[CARD_FILE].read_text(encoding="utf-8"))
        if not isinstance(card, dict):
            raise ValueError("not a JSON object")
    except (ValueError, UnicodeDecodeError) as err:
        raise CheckpointError(paths[CARD_FILE], f"the model card is not valid JSON ({err})") from None
    for name, key in ((VOCAB_FILE, "vocab_sha256"), (CHECKPOINT_FILE, "checkpoint_sha256")):
        if card.get(key) != sha256(paths[name]):
            raise CheckpointError(
                paths[name], "the file is truncated or corrupted (its SHA-256 differs from the model card)"
            )
    try:
        tokenizer = Tokenizer.load(paths[VOCAB_FILE])
    except (ValueError, KeyError, UnicodeDecodeError) as err:
        raise CheckpointError(paths[VOCAB_FILE], f"the vocabulary cannot be read ({err})") from None
    try:
        saved = torch.load(paths[CHECKPOINT_FILE], map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many types for a damaged zip/pickle; all mean the same here
        raise CheckpointError(paths[CHECKPOINT_FILE], f"the checkpoint cannot be read ({err})") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise CheckpointError(paths[CHECKPOINT_FILE], "not an Attention Lab checkpoint")
    if saved.get("version") != VERSION:
        raise CheckpointError(
            paths[CHECKPOINT_FILE], f"checkpoint version {saved.get('version')}, this code reads version {VERSION}"
        )
    try:
        config = ModelConfig(**saved["config"])
        if config.vocab_size != len(tokenizer):
            raise ValueError(f"vocabulary has {len(tokenizer)} tokens, the model {config.vocab_size}")
        model = Transformer(config)
        model.load_state_dict(saved["state_dict"])  # float16 → the float32 parameters, exactly
    except (TypeError, ValueError, KeyError, RuntimeError) as err:
        raise CheckpointError(paths[CHECKPOINT_FILE], f"the weights do not fit the model ({err})") from None
    model.eval()
    return model, tokenizer, card
