"""Weights between the starting checkpoint and a continued one: each weight on the line between the two (checked
against torch.lerp), the grown vocabulary's rows the continued model's, the ends the two models themselves,
and the written model loads with a card naming both ends."""

import pytest
import torch

from viz_model.model import checkpoint
from viz_model.model.config import ModelConfig
from viz_model.model.tokenizer import SPECIAL_TOKENS, Tokenizer
from viz_model.model.transformer import Transformer
from viz_model.training.continuation import extended_model
from viz_model.training.interpolate import interpolate_dirs, interpolated

WORDS = ["a", "b", "甲"]
GROWN = ["c", "乙"]


def _config(vocab_size: int) -> ModelConfig:
    return ModelConfig(
        vocab_size=vocab_size, d_model=16, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=16, max_len=8
    )


@pytest.fixture()
def pair():
    """A start model and a 'continued' one: the vocabulary grown by two rows, every weight moved."""
    torch.manual_seed(0)
    start = checkpoint.round_to_storage(Transformer(_config(len(SPECIAL_TOKENS) + len(WORDS)))).eval()
    continued = extended_model(start, len(SPECIAL_TOKENS) + len(WORDS) + len(GROWN), seed=1)
    with torch.no_grad():
        for weight in continued.parameters():
            weight.add_(0.05 * torch.randn_like(weight))
    return start, checkpoint.round_to_storage(continued).eval()


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.7, 1.0])
def test_each_weight_lies_on_the_line_and_new_rows_are_the_continued_ones(pair, alpha):
    start, continued = pair
    mixed = interpolated(start, continued, alpha).state_dict()
    rows = start.config.vocab_size
    for name, old in start.state_dict().items():
        new = continued.state_dict()[name]
        expected = torch.lerp(old, new[: old.shape[0]], alpha).to(checkpoint.STORAGE_DTYPE).float()
        torch.testing.assert_close(mixed[name][: old.shape[0]], expected, rtol=0, atol=1e-3, msg=name)
    assert torch.equal(mixed["embedding.weight"][rows:], continued.state_dict()["embedding.weight"][rows:])


def test_alpha_zero_predicts_as_the_start_and_one_as_the_continued(pair):
    start, continued = pair
    src, dec = torch.tensor([[1, 4, 5, 2]]), torch.tensor([[1, 6, 4]])
    rows = start.config.vocab_size
    with torch.no_grad():
        torch.testing.assert_close(interpolated(start, continued, 0.0)(src, dec)[..., :rows], start(src, dec))
        torch.testing.assert_close(interpolated(start, continued, 1.0)(src, dec), continued(src, dec))
        between = interpolated(start, continued, 0.5)(src, dec)[..., :rows]
    assert not torch.allclose(between, start(src, dec), atol=1e-3)


def test_bad_alpha_and_mismatched_models_are_refused(pair):
    start, continued = pair
    with pytest.raises(ValueError):
        interpolated(start, continued, 1.5)
    other = Transformer(ModelConfig(**{**_config(start.config.vocab_size).to_dict(), "d_ff": 32}))
    with pytest.raises(ValueError):
        interpolated(other, continued, 0.5)


def test_the_written_model_loads_and_its_card_names_both_ends(pair, tmp_path):
    start, continued = pair
    checkpoint.save(start, Tokenizer(list(SPECIAL_TOKENS) + WORDS), {"name": "start"}, tmp_path / "start")
    grown = Tokenizer(list(SPECIAL_TOKENS) + WORDS + GROWN)
    checkpoint.save(continued, grown, {"name": "continued", "evaluation": {"x": 1}}, tmp_path / "continued")
    card = interpolate_dirs(tmp_path / "start", tmp_path / "continued", 0.6, tmp_path / "out")
    loaded, tokenizer, saved_card = checkpoint.load(tmp_path / "out")
    assert tokenizer.vocab == grown.vocab and "evaluation" not in saved_card
    assert saved_card["interpolation"] == card["interpolation"]
    assert card["interpolation"]["alpha"] == 0.6
    assert card["interpolation"]["start_checkpoint_sha256"] == checkpoint.sha256(tmp_path / "start" / "checkpoint.pt")
    expected = interpolated(start, continued, 0.6)
    for name, weight in expected.state_dict().items():
        assert torch.equal(loaded.state_dict()[name], weight), name
