"""viz_model.lessons.experiments: switching heads off, every head's importance, word order taken away."""

from __future__ import annotations

import numpy as np
import pytest

from viz_model.lessons.experiments import all_heads, head_importance, switch_off, valid_heads, word_order
from viz_model.model.translator import Translator

TEXT = "The animal didn't cross the street because it was too tired."


@pytest.fixture(scope="module")
def translator():
    return Translator.load()


def test_no_head_off_reproduces_the_model(translator):
    result = switch_off(translator, TEXT, "en2zh", [])
    assert result.after.output_tokens == result.before.output_tokens
    np.testing.assert_allclose(result.log_probs_after, result.log_probs_before, atol=1e-6)
    np.testing.assert_allclose(
        result.after.trace.attention("cross", 2).weights, result.before.trace.attention("cross", 2).weights, atol=1e-6
    )
    # the log-probabilities are the model's own: the translation's scored tokens end with <eos>
    assert result.tokens[-1] == "<eos>" and len(result.tokens) == len(result.log_probs_before)


def test_every_head_off_changes_the_translation_and_the_trace_shows_it(translator):
    result = switch_off(translator, TEXT, "en2zh", all_heads(translator.config))
    assert result.changed and result.log_prob_drop > 0
    # the trace of the changed model is drawn like any other: its cross-attention rows are still softmaxes
    weights = result.after.trace.attention("cross", 0).weights
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-5)


def test_links_naming_heads_the_model_lacks_are_cut_to_those_it_has(translator):
    assert valid_heads([("cross", 9, 0), ("encoder_self", 0, 7), "junk", ("cross", 1, 2)], translator.config) == [
        ("cross", 1, 2)
    ]


def test_importance_equals_single_head_runs_and_batched_equals_unbatched(translator):
    batched = head_importance(translator, TEXT, "en2zh")
    one_by_one = head_importance(translator, TEXT, "en2zh", batched=False)
    for kind in batched:
        np.testing.assert_allclose(batched[kind], one_by_one[kind], atol=1e-5)
    # one head by the switch-off route: the same drop in ln P
    kind, layer, head = "cross", 1, 2
    single = switch_off(translator, TEXT, "en2zh", [(kind, layer, head)])
    assert batched[kind][layer, head] == pytest.approx(single.log_prob_drop, abs=1e-3)


def test_word_order_without_positions_is_a_permutation(translator):
    result = word_order(translator, TEXT, "en2zh", seed=1)
    assert result.largest_difference < 1e-4
    assert sorted(result.order) == list(range(1, len(result.order) + 1))
    assert result.shuffled_text.split() != translator.encode(TEXT, "en2zh").tokens[1:-1]
