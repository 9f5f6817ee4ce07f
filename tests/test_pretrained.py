"""A pretrained encoder read through EncoderView: attention equals transformers' own output_attentions,
Q/K captured by hooks recompute it, MiniLM shows the course's apple contrast, bad directories say why."""

import json

import numpy as np
import pytest

from tests.test_pretrained_views import tiny_bert_directory
from viz_model.model.pretrained import (
    EncoderView,
    PretrainedEncoder,
    PretrainedError,
    contextual_similarity,
    minilm_path,
    readable,
    recompute_attention,
)

TEXT = "The animal didn't cross the street because it was too tired."


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    """A randomly initialised 2-layer, 4-head BERT with MiniLM's vocabulary, built from a config (no download)."""
    return PretrainedEncoder.load(tiny_bert_directory(tmp_path_factory.mktemp("tiny-bert")), name="tiny-bert")


@pytest.fixture(scope="module")
def minilm():
    return PretrainedEncoder.load(minilm_path(), name="MiniLM")


def _reference_attentions(model: PretrainedEncoder, text: str):
    import torch

    encoded = model.tokenizer(text, return_tensors="pt")
    with torch.inference_mode():
        return [a[0].numpy() for a in model.model(**encoded, output_attentions=True).attentions]


@pytest.mark.parametrize("which", ["tiny_bert", "minilm"])
def test_attention_equals_output_attentions_and_q_k_recompute_it(which, request):
    model = request.getfixturevalue(which)
    view = model.view(TEXT)
    L, H = model.config.num_hidden_layers, model.config.num_attention_heads
    S = len(view.pieces)
    assert view.attention.shape == (L, H, S, S)
    assert view.q.shape == view.k.shape == view.v.shape == (L, H, S, model.config.hidden_size // H)
    np.testing.assert_allclose(view.attention.sum(-1), 1.0, atol=1e-5)
    for layer, reference in enumerate(_reference_attentions(model, TEXT)):
        np.testing.assert_allclose(view.attention[layer], reference, atol=1e-5)
    np.testing.assert_allclose(recompute_attention(view), view.attention, atol=1e-5)
    assert view.hidden_states.shape == (L + 1, S, model.config.hidden_size)
    np.testing.assert_array_equal(view.embeddings, view.hidden_states[0])
    assert view.pieces[0] == "[CLS]" and view.pieces[-1] == "[SEP]"
    assert view.special.tolist() == [p in ("[CLS]", "[SEP]") for p in view.pieces]


def test_special_pieces_hidden_with_rows_renormalised(tiny_bert):
    view = tiny_bert.view("an apple phone")
    labels, weights = view.without_special()
    assert labels == ["an", "apple", "phone"]
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-6)
    keep = ~view.special
    raw = view.attention[:, :, keep][:, :, :, keep]
    np.testing.assert_allclose(weights, raw / raw.sum(-1, keepdims=True), atol=1e-6)


def test_subword_pieces_are_shown_readably():
    assert readable("##ing") == "·ing" and readable("play") == "play" and readable("##") == "##"


def test_apple_is_the_same_vector_at_the_input_and_apart_after(minilm):
    cosine = contextual_similarity(minilm, "apple", "an apple and an orange", "an apple phone")
    assert cosine.shape == (minilm.config.num_hidden_layers + 1,)
    assert cosine[0] == pytest.approx(1.0, abs=1e-6)  # same piece, same position: same input vector
    assert (cosine[1:] < 0.999).all() and cosine[-1] < cosine[0]


def test_minilm_positions_are_learned(minilm):
    view = minilm.view("an apple phone")
    assert view.positional_kind == "learned" and view.positional.shape == (5, 384)
    weights = minilm.model.embeddings.position_embeddings.weight[:5].detach().numpy()
    np.testing.assert_array_equal(view.positional, weights)


def test_bad_directories_say_what_is_wrong(tmp_path):
    with pytest.raises(PretrainedError, match="no such directory"):
        PretrainedEncoder.load(tmp_path / "missing")
    with pytest.raises(PretrainedError, match="no config.json"):
        PretrainedEncoder.load(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert"}))
    with pytest.raises(PretrainedError, match="no weights"):
        PretrainedEncoder.load(tmp_path)
    (tmp_path / "model.safetensors").write_bytes(b"not weights")
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "gpt2"}))
    with pytest.raises(PretrainedError, match="not supported"):
        PretrainedEncoder.load(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert"}))
    with pytest.raises(PretrainedError, match="cannot be loaded"):
        PretrainedEncoder.load(tmp_path)


def test_encoder_view_is_a_plain_record():
    assert EncoderView.__dataclass_fields__.keys() >= {"pieces", "attention", "q", "k", "v", "hidden_states"}


def test_our_translator_reads_through_the_same_interface():
    from viz_model.model.pretrained import TranslatorEncoder
    from viz_model.model.translator import Translator

    translator = Translator.load()
    view = TranslatorEncoder(translator).view("I saw a saw.")
    trace = translator.translate("I saw a saw.", "en2zh").trace
    L, H = translator.config.n_encoder_layers, translator.config.n_heads
    S = len(trace.source_tokens)
    assert view.attention.shape == (L, H, S, S) and view.hidden_states.shape[0] == L + 1
    np.testing.assert_array_equal(view.attention[1], trace.attention("encoder_self", 1).weights)
    np.testing.assert_allclose(recompute_attention(view), view.attention, atol=1e-4)  # Q, K reproduce it
    assert view.special.tolist() == [t in ("<2zh>", "<eos>") for t in trace.source_tokens]
    assert view.positional_kind == "sinusoidal"
