"""Loading the shipped model checks format, version and integrity, and fails with one clear error."""

import json

import pytest
import torch

from viz_model.model import checkpoint
from viz_model.model.checkpoint import CARD_FILE, CHECKPOINT_FILE, RESTORE_COMMAND, VOCAB_FILE, CheckpointError
from viz_model.model.config import ModelConfig
from viz_model.model.tokenizer import SPECIAL_TOKENS, Tokenizer
from viz_model.model.transformer import Transformer


@pytest.fixture()
def saved(tmp_path):
    torch.manual_seed(0)
    tokenizer = Tokenizer(list(SPECIAL_TOKENS) + ["a", "b", "甲"])
    model = Transformer(
        ModelConfig(
            vocab_size=len(tokenizer), d_model=16, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=16, max_len=8
        )
    )
    checkpoint.round_to_storage(model)
    checkpoint.save(model, tokenizer, {"name": "test"}, tmp_path)
    return tmp_path, model


def test_save_and_load_round_trip(saved):
    directory, model = saved
    loaded, tokenizer, card = checkpoint.load(directory)
    assert card["name"] == "test" and card["weights_stored_as"] == "float16" and not loaded.training
    for (name, a), (_, b) in zip(model.state_dict().items(), loaded.state_dict().items()):
        assert a.dtype == b.dtype == torch.float32 and torch.equal(a, b), name


def test_weights_are_stored_in_half_precision_and_rounding_is_what_is_stored(tmp_path):
    torch.manual_seed(1)
    tokenizer = Tokenizer(list(SPECIAL_TOKENS) + ["a"])
    config = ModelConfig(
        vocab_size=len(tokenizer), d_model=8, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=8, max_len=4
    )
    model = Transformer(config)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    checkpoint.save(model, tokenizer, {"name": "unrounded"}, tmp_path)
    stored = torch.load(tmp_path / CHECKPOINT_FILE, weights_only=True)["state_dict"]
    assert {v.dtype for v in stored.values()} == {checkpoint.STORAGE_DTYPE}
    loaded, _, _ = checkpoint.load(tmp_path)
    checkpoint.round_to_storage(model)
    changed = 0
    for name, value in model.state_dict().items():
        assert torch.equal(value, loaded.state_dict()[name]), name  # rounding in memory = what load reads
        assert torch.allclose(value, before[name], rtol=1e-3, atol=1e-7), name  # float16 keeps ~3 digits
        changed += int(not torch.equal(value, before[name]))
    assert changed > 0  # the rounding did something: float32 weights are not all float16 numbers


def _assert_error(directory, culprit):
    with pytest.raises(CheckpointError) as info:
        checkpoint.load(directory)
    message = str(info.value)
    assert str(directory / culprit) in message and RESTORE_COMMAND in message
    assert info.value.path == directory / culprit


@pytest.mark.parametrize("culprit", [CHECKPOINT_FILE, VOCAB_FILE, CARD_FILE])
def test_missing_file_names_the_file_and_the_rebuild_command(saved, culprit):
    directory, _ = saved
    (directory / culprit).unlink()
    _assert_error(directory, culprit)


def test_truncated_checkpoint(saved):
    directory, _ = saved
    data = (directory / CHECKPOINT_FILE).read_bytes()
    (directory / CHECKPOINT_FILE).write_bytes(data[: len(data) // 2])
    _assert_error(directory, CHECKPOINT_FILE)


def test_flipped_byte_in_the_weights_is_caught(saved):
    directory, _ = saved
    data = bytearray((directory / CHECKPOINT_FILE).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (directory / CHECKPOINT_FILE).write_bytes(bytes(data))
    _assert_error(directory, CHECKPOINT_FILE)


def test_garbage_card(saved):
    directory, _ = saved
    (directory / CARD_FILE).write_text("{not json")
    _assert_error(directory, CARD_FILE)


def test_wrong_version_even_with_a_matching_hash(saved):
    directory, _ = saved
    payload = torch.load(directory / CHECKPOINT_FILE, weights_only=True)
    payload["version"] = 99
    torch.save(payload, directory / CHECKPOINT_FILE)
    card = json.loads((directory / CARD_FILE).read_text())
    card["checkpoint_sha256"] = checkpoint.sha256(directory / CHECKPOINT_FILE)
    (directory / CARD_FILE).write_text(json.dumps(card))
    with pytest.raises(CheckpointError, match="version 99"):
        checkpoint.load(directory)


def test_shipped_model_loads_and_is_small():
    model, tokenizer, card = checkpoint.load()
    # small enough to show every number: d_model ≤ 256, ≤ 8 heads, ≤ 4 + 4 layers, ≤ 15 M parameters, ≤ 40 MB
    assert model.num_parameters() == card["parameters"] <= 15_000_000
    assert (checkpoint.MODEL_DIR / CHECKPOINT_FILE).stat().st_size <= 40 * 2**20
    stored = torch.load(checkpoint.MODEL_DIR / CHECKPOINT_FILE, weights_only=True)["state_dict"]
    assert {v.dtype for v in stored.values()} == {checkpoint.STORAGE_DTYPE}  # and so about 2 bytes a weight
    assert (checkpoint.MODEL_DIR / CHECKPOINT_FILE).stat().st_size <= 2.1 * card["parameters"]
    c = model.config
    assert c.d_model <= 256 and c.n_heads <= 8 and 2 <= c.n_encoder_layers <= 4 and 2 <= c.n_decoder_layers <= 4
    assert c.d_ff <= 4 * c.d_model
