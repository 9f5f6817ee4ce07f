"""viz_model.lessons.embeddings against the model: neighbours, the encoder's input, the vocabulary map."""

import numpy as np
import pytest

from tests.app_harness import translator
from viz_model.lessons.embeddings import (
    encoder_input_parts,
    in_sentence,
    sentence_neighbours,
    token_kinds,
    vocabulary_map,
    word_positions,
)


@pytest.fixture(scope="module")
def result():
    return translator().translate("I saw a saw.", "en2zh")


def test_neighbours_and_encoder_input(result):
    model = translator()
    emb = model.embedding_matrix()
    ids = result.source.ids[1:2]
    (found,) = sentence_neighbours(emb, model.tokenizer.vocab, ids, k=3)
    assert len(found) == 3 and found[0].cosine >= found[1].cosine >= found[2].cosine
    assert model.tokenizer.vocab[ids[0]] not in [n.token for n in found]
    scaled, pe, total = encoder_input_parts(result.trace)
    np.testing.assert_allclose(total, result.trace.source_input, atol=1e-4)
    np.testing.assert_allclose(scaled, emb[result.source.ids] * result.trace.embedding_scale, atol=1e-4)


def test_vocabulary_map_shape():
    coords, ratio = vocabulary_map(translator().embedding_matrix(), 3)
    assert coords.shape == (len(translator().tokenizer), 3) and 0 < ratio.sum() <= 1


def test_token_kinds_match_unknown_words_in_order():
    tokens = ["<2zh>", "a", "<unk>", "saw", "<unk>", "<eos>"]
    assert token_kinds(tokens, ["zebra", "qwzx"]) == [
        ("special", None),
        ("known", None),
        ("unknown", "zebra"),
        ("known", None),
        ("unknown", "qwzx"),
        ("special", None),
    ]
    assert word_positions(tokens) == [1, 3]


def test_the_sentences_words_are_marked_in_the_vocabulary():
    mask = in_sentence(10, [8, 2, 3, 5, 1], ["<2zh>", "a", "<unk>", "saw", "<eos>"])
    assert np.flatnonzero(mask).tolist() == [2, 5]
