"""What "it" attends to: rows of the model's own encoder attention, one per layer and head, the heads ranked by
the weight they give one word, the heads parked on the direction tag, and the output word translating "it"."""

import numpy as np
import torch

from viz_model.lessons.coreference import (
    PARKED_SHARE,
    find_pronoun,
    has_pronoun,
    pronoun_attention,
    translating_token,
)
from viz_model.model.translator import Translator

SENTENCE = "The animal didn't cross the street because it was too tired."
DOG = "The dog didn't eat the food because it was sick."


def test_pronoun_rows_are_the_encoder_attention_rows_and_heads_are_ranked():
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
    assert len(found.focus) == L * H == found.n_heads
    assert sorted((f.layer, f.head) for f in found.focus) == [(a, b) for a in range(L) for b in range(H)]
    assert [f.weight for f in found.focus] == sorted((f.weight for f in found.focus), reverse=True)
    words = [j for j, t in enumerate(trace.source_tokens) if j != position and (t[:1].isalnum() or t == "<unk>")]
    for f in found.focus:
        assert f.word not in ("<2zh>", "<eos>", ".") and f.position != position
        assert f.weight == max(found.weights[f.layer, f.head, j] for j in words)
    tag = trace.source_tokens.index("<2zh>")
    assert found.parking == ["<2zh>"]
    assert found.parked == sum(found.weights[a, b, tag] >= PARKED_SHARE for a in range(L) for b in range(H))


def test_the_output_word_translating_it_and_its_cross_attention_from_hooks():
    """The dog sentence: the output repeats the noun (因为食物病了); its row of cross-attention, taken from the
    decoder's attention modules by forward hooks, is what `translating_token` returns."""
    translator = Translator.load()
    trace = translator.translate(DOG, "en2zh").trace
    found = pronoun_attention(trace)
    output = translating_token(trace, found.position)
    cross = trace.attention_stack("cross")
    aligned = cross.mean(axis=(0, 1))[:, found.position]
    rows = [i for i, t in enumerate(trace.predicted_tokens) if t != "<eos>"]
    if any(t in ("它", "他", "她", "他们") for t in trace.predicted_tokens):
        assert output.named
    else:
        assert not output.named and output.row == max(rows, key=lambda i: aligned[i])
    assert output.token == trace.predicted_tokens[output.row]
    hooked = cross_attention_by_hooks(translator, trace)
    np.testing.assert_allclose(output.weights, hooked[:, :, output.row, :], atol=1e-5)
    for layer, j, label, weight in output.strongest(found.labels):
        means = hooked[layer, :, output.row, :].mean(axis=0)
        assert j == int(means.argmax()) and label == found.labels[j] and abs(weight - means[j]) < 1e-5


def cross_attention_by_hooks(translator, trace):
    """(L, H, T, S) cross-attention weights recomputed from the q and k each decoder layer's cross-attention
    module receives, caught by forward hooks on a plain (unrecorded) forward pass."""
    model = translator.model
    caught = []
    modules = [m for name, m in model.named_modules() if name.endswith("cross_attention")]
    assert modules, "the decoder layers' cross-attention modules"
    handles = [m.register_forward_hook(lambda m, args, out: caught.append(args)) for m in modules]
    try:
        with torch.no_grad():
            src = torch.as_tensor(trace.source_ids)[None]
            tgt = torch.as_tensor(trace.target_ids)[None]
            model(src, tgt)
    finally:
        for h in handles:
            h.remove()
    with torch.no_grad():
        return np.stack([_weights(module, *args[:2]) for module, args in zip(modules, caught)])


def _weights(module, query, memory):
    """softmax(q·kᵀ/√d_k) per head from the module's own W_Q and W_K (one sentence: no padding to mask)."""
    H = module.n_heads
    q = module.w_q(query)[0].reshape(query.shape[1], H, -1).transpose(0, 1)
    k = module.w_k(memory)[0].reshape(memory.shape[1], H, -1).transpose(0, 1)
    return torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1).numpy()


def test_pronouns_are_whole_words_in_any_case():
    assert all(has_pronoun(t) for t in ("It rains.", "THEY came", "she", "that's it", "He said: this."))
    assert not any(has_pronoun(t) for t in ("Itself", "the thesis", "hello there", "I saw a saw.", "its"))


def test_no_pronoun_no_view():
    trace = Translator.load().translate("I saw a saw.", "en2zh").trace
    assert pronoun_attention(trace) is None
