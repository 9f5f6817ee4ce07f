"""What "it" attends to: rows of the model's own encoder attention, one per layer and head."""

import numpy as np

from viz_model.lessons.coreference import LEAST_VOTE_WEIGHT, find_pronoun, pronoun_attention
from viz_model.model.translator import Translator

SENTENCE = "The animal didn't cross the street because it was too tired."


def test_pronoun_rows_are_the_encoder_attention_rows():
    translator = Translator.load()
    trace = translator.translate(SENTENCE, "en2zh").trace
    found = pronoun_attention(trace)
    position = [label.split("→")[0] for label in trace.source_labels].index("it")
    assert found.position == position == find_pronoun(trace.source_labels)
    L, H = translator.config.n_encoder_layers, translator.config.n_heads
    assert found.weights.shape == (L, H, len(trace.source_tokens))
    for layer in range(L):
        np.testing.assert_allclose(
            found.weights[layer], trace.attention("encoder_self", layer).weights[:, position, :], atol=0
        )
    assert len(found.focus) == L * H
    # A head votes for its word only when it gives that word at least LEAST_VOTE_WEIGHT; the rest are counted
    # apart, so a head parked on the direction tag (0.99 there, 0.001 on its "best" word) names no word.
    voting = [f for f in found.focus if f.weight >= LEAST_VOTE_WEIGHT]
    assert sum(found.votes().values()) == len(voting) and found.heads_on_no_word == L * H - len(voting)
    for word, n in found.votes().items():
        assert n == sum(f.word == word for f in voting)
    for f in found.focus:
        assert f.word not in ("<2zh>", "<eos>", ".") and f.position != position
        row = found.weights[f.layer, f.head]
        words = [j for j, t in enumerate(trace.source_tokens) if j != position and (t[:1].isalnum() or t == "<unk>")]
        assert f.weight == max(row[j] for j in words)


def test_no_pronoun_no_view():
    trace = Translator.load().translate("I saw a saw.", "en2zh").trace
    assert pronoun_attention(trace) is None
