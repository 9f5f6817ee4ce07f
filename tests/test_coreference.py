"""What "it" attends to: rows of the model's own encoder attention, one per layer and head."""

import numpy as np

from viz_model.lessons.coreference import find_pronoun, pronoun_attention
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
    assert len(found.focus) == L * H and sum(found.votes().values()) == L * H
    for f in found.focus:
        assert f.word not in ("<2zh>", "<eos>", ".") and f.position != position
        row = found.weights[f.layer, f.head]
        words = [j for j, t in enumerate(trace.source_tokens) if j != position and (t[:1].isalnum() or t == "<unk>")]
        assert f.weight == max(row[j] for j in words)


def test_no_pronoun_no_view():
    trace = Translator.load().translate("I saw a saw.", "en2zh").trace
    assert pronoun_attention(trace) is None
