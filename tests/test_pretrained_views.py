"""What the pages show of a pretrained encoder (viz_model.lessons.pretrained_views), checked against
transformers' own output_attentions / hidden states and against plain loops: a tiny random BERT built from
a config (no download) and the real MiniLM."""

import numpy as np
import pytest

from viz_model.lessons.pretrained_views import (
    APPLE_TEXTS,
    common_range,
    compare_positions,
    cosine_matrix,
    head_step,
    pronoun_heads,
    pronoun_position,
    reads_english,
    shown_attention,
    special_share,
    tile_heads,
)
from viz_model.model.pretrained import PretrainedEncoder, minilm_path

TEXT = "The animal didn't cross the street because it was too tired."


def tiny_bert_directory(directory):
    """A randomly initialised 2-layer, 4-head BERT with MiniLM's vocabulary, saved in `directory`."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=30522,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=128,
    )
    BertModel(config).save_pretrained(directory)
    AutoTokenizer.from_pretrained(minilm_path()).save_pretrained(directory)
    return directory


@pytest.fixture(scope="module", params=["tiny_bert", "minilm"])
def model(request, tmp_path_factory):
    if request.param == "minilm":
        return PretrainedEncoder.load(minilm_path(), name="MiniLM")
    return PretrainedEncoder.load(tiny_bert_directory(tmp_path_factory.mktemp("tiny-bert")), name="tiny")


def reference(model: PretrainedEncoder, text: str):
    """(pieces, attentions (L, H, S, S), hidden states (L + 1, S, d)) straight from transformers."""
    import torch

    encoded = model.tokenizer(text, return_tensors="pt")
    with torch.inference_mode():
        out = model.model(**encoded, output_attentions=True, output_hidden_states=True)
    pieces = model.tokenizer.convert_ids_to_tokens(encoded["input_ids"][0].tolist())
    return (
        pieces,
        np.stack([a[0].numpy() for a in out.attentions]),
        np.stack([h[0].numpy() for h in out.hidden_states]),
    )


def test_hidden_special_pieces_renormalise_the_rows(model):
    pieces, attention, _ = reference(model, TEXT)
    labels, weights = shown_attention(model.view(TEXT), hide_special=True)
    words = [i for i, p in enumerate(pieces) if p not in ("[CLS]", "[SEP]")]
    assert len(labels) == len(words) and "[CLS]" not in labels
    for i, row in enumerate(words):
        for j, col in enumerate(words):
            expected = attention[:, :, row, col] / attention[:, :, row, words].sum(-1)
            np.testing.assert_allclose(weights[:, :, i, j], expected, atol=1e-5)
    labels, weights = shown_attention(model.view(TEXT), hide_special=False)
    assert labels[0] == "[CLS]"
    np.testing.assert_allclose(weights, attention, atol=1e-5)


def test_an_empty_text_keeps_its_special_pieces(model):
    labels, weights = shown_attention(model.view(""), hide_special=True)
    assert labels == ["[CLS]", "[SEP]"] and weights.shape[-1] == 2


def test_special_share_is_the_mean_weight_on_cls_and_sep(model):
    pieces, attention, _ = reference(model, TEXT)
    special = [i for i, p in enumerate(pieces) if p in ("[CLS]", "[SEP]")]
    L, H, S, _ = attention.shape
    total = sum(
        attention[layer, head, q, k] for layer in range(L) for head in range(H) for q in range(S) for k in special
    )
    assert special_share(model.view(TEXT)) == pytest.approx(total / (L * H * S), abs=1e-5)


DOG = "The dog didn't eat the food because it was sick."


def test_pronoun_heads_rank_every_head_by_output_attentions(model):
    """The typed sentence's "it": each head's favourite word (not "it", [CLS]/[SEP] or punctuation) and its
    weight, ranked, and the heads parking at least half on [CLS]/[SEP], all from output_attentions."""
    pieces, attention, _ = reference(model, DOG)
    found = pronoun_heads(model.view(DOG))
    it = pieces.index("it")
    assert found.position == it and found.pronoun == "it"
    np.testing.assert_allclose(found.weights, attention[:, :, it, :], atol=1e-6)
    L, H = attention.shape[:2]
    words = [j for j, p in enumerate(pieces) if j != it and p not in ("[CLS]", "[SEP]") and p[0].isalnum()]
    expected = []
    for layer in range(L):
        for head in range(H):
            best = max(words, key=lambda j: attention[layer, head, it, j])
            expected.append((attention[layer, head, it, best], layer, head, pieces[best]))
    expected.sort(key=lambda e: -e[0])
    got = [(f.weight, f.layer, f.head, f.word) for f in found.focus]
    assert [g[3] for g in got] == [e[3] for e in expected] and len(got) == L * H
    np.testing.assert_allclose([g[0] for g in got], [e[0] for e in expected], atol=1e-6)
    assert [g[0] for g in got] == sorted((g[0] for g in got), reverse=True)
    special = [0, len(pieces) - 1]
    assert found.parked == int((attention[:, :, it][..., special].sum(-1) >= 0.5).sum())
    assert found.parking == ["[CLS]", "[SEP]"]
    assert pronoun_heads(model.view("no pronoun here, nor its kin")) is None
    for text, word in [("IT rains.", "it"), ("Then She left.", "she"), ("that is it", "that"), ("They came.", "they")]:
        assert found_word(model, text) == word


def found_word(model, text):
    view = model.view(text)
    return view.pieces[pronoun_position(view)].lower()


def test_one_head_redone_from_q_and_k_equals_output_attentions(model):
    _, attention, _ = reference(model, TEXT)
    view = model.view(TEXT)
    for layer, head, query in [(0, 0, 0), (view.n_layers - 1, view.n_heads - 1, 5)]:
        step = head_step(view, layer, head, query)
        np.testing.assert_allclose(step.weights, attention[layer, head, query], atol=1e-5)
        assert step.difference < 1e-5 and step.scale == pytest.approx(np.sqrt(view.q.shape[-1]))
        np.testing.assert_allclose(step.scaled, step.scores / step.scale, rtol=1e-6)
        np.testing.assert_allclose(step.z, step.weights @ view.v[layer, head], atol=1e-5)


def test_learned_positions_beside_the_sinusoid(model):
    compared = compare_positions(model.position_table(40))
    weight = model.model.embeddings.position_embeddings.weight[:40].detach().numpy()
    np.testing.assert_array_equal(compared.learned, weight)
    n = compared.learned.shape[0]
    for a, b in [(0, 1), (3, 17), (39, 2)]:
        x, y = weight[a], weight[b]
        assert compared.cosines[0, a, b] == pytest.approx(x @ y / np.linalg.norm(x) / np.linalg.norm(y), abs=1e-5)
    # The sinusoid's cosine depends on the distance only: constant along every diagonal.
    sinus = compared.cosines[1]
    for offset in (1, 5):
        np.testing.assert_allclose(np.diag(sinus, offset), sinus[0, offset], atol=1e-5)
    assert n == 40 and np.allclose(np.diag(sinus), 1.0)


def test_all_heads_tiled_into_one_matrix(model):
    _, attention, _ = reference(model, TEXT)
    L, H, S, _ = attention.shape
    labels = [f"{i}:p{i}" for i in range(S)]
    tiled = tile_heads(attention, labels)
    assert tiled.matrix.shape == (L * (S + 1) - 1, H * (S + 1) - 1)
    assert len(tiled.row_labels) == tiled.matrix.shape[0] and len(set(tiled.row_labels)) == len(tiled.row_labels)
    assert len(set(tiled.col_labels)) == len(tiled.col_labels)
    for layer in range(L):
        for head in range(H):
            np.testing.assert_allclose(tiled.block(layer, head), attention[layer, head], atol=1e-6)
    assert np.isnan(tiled.matrix).sum() == tiled.matrix.size - L * H * S * S
    assert tiled.row_labels[S + 1] == "L2 · 0:p0" and tiled.col_labels[2 * (S + 1) + 3] == "H3 · 3:p3"


def test_english_or_not():
    assert reads_english("An apple phone.") and reads_english("") and reads_english("café 🙂")
    assert not reads_english("我看见了一把锯子。") and not reads_english("apple 苹果")


def test_one_colour_scale_for_two_figures():
    a, b = np.array([[0.2, 0.8]]), np.array([[0.95, 0.05]])
    assert common_range(a, b) == (0.0, 0.95)


def test_cosine_matrix():
    v = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [0.0, 0.0]])
    c = cosine_matrix(v)
    assert c[0, 1] == 0 and c[0, 2] == pytest.approx(2**-0.5) and c[1, 1] == pytest.approx(1) and c[3, 3] == 0


def test_apple_texts_hold_apple_as_one_piece():
    model = PretrainedEncoder.load(minilm_path())
    for text in APPLE_TEXTS:
        assert "apple" in model.view(text).pieces
