"""The Decoding lab's computations against independent oracles: the beam's own scores and `Translator.score`,
greedy search, step-by-step decoding with the key/value cache, `F.cross_entropy`, hand-made distributions."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from tests.app_harness import translator
from viz_model.lessons import decoding_lab
from viz_model.lessons.decoding_lab import (
    LABEL_SMOOTHING,
    compare_forcing,
    compare_strategies,
    one_word_changed,
    step_distribution,
    typed_reference,
)
from viz_model.model.sampling import SamplingSettings, cut_distribution, sample
from viz_model.model.tokenizer import EOS
from viz_model.model.translator import SearchSettings

SENTENCES = [
    ("The little girl put her new red umbrella next to the old wooden door.", "en2zh"),
    ("Please buy an apple and an orange.", "en2zh"),
    ("明天下午我们一起去图书馆吧。", "zh2en"),
]


def greedy_tokens(text: str, direction: str) -> list[str]:
    return translator().search(text, direction, SearchSettings(beam_width=1)).hypotheses[0].tokens


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_teacher_forced_log_p_of_the_beams_output_is_the_beams_score(text, direction):
    best = translator().search(text, direction).hypotheses[0]
    words = [tok for tok in best.tokens if tok != EOS]
    found = compare_forcing(translator(), text, direction, words)
    assert sum(found.loss.log_probs) == pytest.approx(best.log_prob, abs=1e-4)
    assert sum(found.loss.log_probs) == pytest.approx(translator().score(text, direction, words).log_prob, abs=1e-4)
    # Each step's probability of the reference token is the one the loss takes the log of.
    np.testing.assert_allclose([s.chosen_prob for s in found.forced], np.exp(found.loss.log_probs), rtol=1e-4)


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_free_running_is_greedy_search(text, direction):
    found = compare_forcing(translator(), text, direction, ["x"])
    assert found.free_tokens == greedy_tokens(text, direction)
    beam_one = translator().search(text, direction, SearchSettings(beam_width=1, length_penalty=0.75))
    assert found.free_tokens == beam_one.hypotheses[0].tokens


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_teacher_forcing_equals_step_by_step_decoding_fed_the_same_tokens(text, direction):
    """One pass over the whole reference against the key/value-cached decoder fed one token per step."""
    tr = translator()
    model, tokenizer = tr.model, tr.tokenizer
    reference = [tok for tok in greedy_tokens(text, direction) if tok != EOS]
    reference[len(reference) // 2] = "苹果" if direction == "en2zh" else "apple"  # not the model's own
    found = compare_forcing(tr, text, direction, reference)
    source = tr.encode(text, direction)
    with torch.inference_mode():
        memory, allowed, _ = model.encode(torch.tensor([source.ids]))
        memory_kv, past = model.memory_keys_values(memory), None
        for t, fed in enumerate([tokenizer.bos_id, *tokenizer.ids(reference)]):
            logits, past = model.decode_step(torch.tensor([fed]), memory_kv, allowed, past)
            probs = logits[0].softmax(-1)
            step = found.forced[t]
            for token, p in step.top:
                assert probs[tokenizer.token_to_id[token]].item() == pytest.approx(p, abs=1e-5)
            assert probs[tokenizer.token_to_id[step.chosen]].item() == pytest.approx(step.chosen_prob, abs=1e-5)


def test_the_two_sides_agree_on_the_models_own_output_and_part_where_one_word_changes():
    text, direction = SENTENCES[0]
    own = [tok for tok in greedy_tokens(text, direction) if tok != EOS]
    same = compare_forcing(translator(), text, direction, own)
    assert same.divergence is None
    for forced, free in zip(same.forced, same.free):  # same inputs, same numbers: probabilities and attention
        assert forced.fed == free.fed and [tok for tok, _ in forced.top] == [tok for tok, _ in free.top]
        np.testing.assert_allclose([p for _, p in forced.top], [p for _, p in free.top], atol=1e-5)
        np.testing.assert_allclose(forced.cross, free.cross, atol=1e-5)
    changed = one_word_changed(same)
    differs = [i for i, (a, b) in enumerate(zip(own, changed)) if a != b]
    assert len(changed) == len(own) and len(differs) == 1
    found = compare_forcing(translator(), text, direction, changed)
    assert found.divergence == differs[0]
    # The changed word was the model's runner-up at that step.
    assert found.forced[differs[0]].top[1][0] == changed[differs[0]]


def test_the_loss_shown_is_cross_entropy_with_and_without_label_smoothing():
    tr = translator()
    text, direction = SENTENCES[1]
    reference = [tok for tok in greedy_tokens(text, direction) if tok != EOS]
    found = compare_forcing(tr, text, direction, reference)
    source = tr.encode(text, direction)
    ids = tr.tokenizer.ids(reference)
    with torch.inference_mode():
        logits = tr.model(torch.tensor([source.ids]), torch.tensor([[tr.tokenizer.bos_id, *ids]]))[0]
    target = torch.tensor([*ids, tr.tokenizer.eos_id])
    assert found.loss.nll == pytest.approx(F.cross_entropy(logits, target).item(), abs=1e-5)
    smoothed = F.cross_entropy(logits, target, label_smoothing=LABEL_SMOOTHING).item()
    assert found.loss.smoothed == pytest.approx(smoothed, abs=1e-5)


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_the_sidebars_trace_serves_the_passes_it_read_with_the_same_numbers(text, direction, monkeypatch):
    tr = translator()
    sidebar = tr.translate(text, direction)
    passes, real = [], decoding_lab.build_trace

    def counted(*args, **kwargs):
        passes.append(1)
        return real(*args, **kwargs)

    for reference in (sidebar.output_tokens, [tok for tok in greedy_tokens(text, direction) if tok != EOS]):
        fresh = compare_forcing(tr, text, direction, reference)
        passes.clear()
        monkeypatch.setattr(decoding_lab, "build_trace", counted)
        reused = compare_forcing(tr, text, direction, reference, traced=sidebar.trace)
        monkeypatch.undo()
        # No pass runs for a side whose tokens the sidebar's trace read: none when greedy's are the beam's, else
        # one (greedy's, which serves both sides when the reference is greedy's too).
        greedy_is_beams = translator().words(greedy_tokens(text, direction)) == sidebar.output_tokens
        assert len(passes) == (0 if greedy_is_beams else 1)
        assert reused.divergence == fresh.divergence
        assert reused.loss == fresh.loss
        for a, b in zip(reused.forced + reused.free, fresh.forced + fresh.free, strict=True):
            assert (a.fed, a.chosen, a.top) == (b.fed, b.chosen, b.top)
            np.testing.assert_array_equal(a.cross, b.cross)
    # A trace of another sentence is not taken for this one's.
    other = tr.translate("I love hot pot.", "en2zh").trace
    assert (
        compare_forcing(tr, text, direction, sidebar.output_tokens, traced=other).loss
        == compare_forcing(tr, text, direction, sidebar.output_tokens).loss
    )


def test_a_typed_reference_is_checked():
    tr = translator()
    assert typed_reference(tr, "   ", "en2zh").problem == "empty"
    assert typed_reference(tr, "This is English.", "en2zh").problem == "wrong_language"
    long = typed_reference(tr, "我" * 500, "en2zh")
    assert long.problem == "long" and len(long.tokens) == tr.config.max_len - 1
    odd = typed_reference(tr, "我喜欢qwzxblorf。", "en2zh")
    assert odd.problem is None and odd.unknown == ["qwzxblorf"] and "<unk>" in odd.tokens


# ---- sampling ---------------------------------------------------------------------------------------------
def hand_logits(probs) -> tuple[torch.Tensor, torch.Tensor]:
    p = torch.tensor(probs, dtype=torch.float64)
    return p.log(), torch.zeros(len(probs), dtype=torch.bool)


def test_top_p_keeps_the_first_sorted_prefix_whose_mass_reaches_p():
    logits, blocked = hand_logits([0.1, 0.5, 0.05, 0.3, 0.05])  # sorted: 0.5, 0.3, 0.1, 0.05, 0.05
    for p, kept in ((0.5, {1}), (0.51, {1, 3}), (0.8, {1, 3}), (0.81, {1, 3, 0}), (0.0, {1}), (1.0, set(range(5)))):
        cut = cut_distribution(logits, blocked, SamplingSettings(top_p=p))
        assert set(torch.nonzero(cut.kept).flatten().tolist()) == kept, p
        assert cut.final.sum().item() == pytest.approx(1.0)
        expected = np.array([0.1, 0.5, 0.05, 0.3, 0.05]) * np.isin(np.arange(5), list(kept))
        np.testing.assert_allclose(cut.final.numpy(), expected / expected.sum(), atol=1e-6)


def test_temperature_and_top_k_on_a_hand_made_distribution():
    logits, blocked = hand_logits([0.1, 0.5, 0.05, 0.3, 0.05])
    cut = cut_distribution(logits, blocked, SamplingSettings(temperature=2.0, top_k=2))
    tempered = np.sqrt([0.1, 0.5, 0.05, 0.3, 0.05])  # p^(1/T), renormalised
    np.testing.assert_allclose(cut.tempered.numpy(), tempered / tempered.sum(), atol=1e-6)
    assert cut.kept.tolist() == [False, True, False, True, False]
    assert cut_distribution(logits, blocked, SamplingSettings(temperature=0.0)).kept_count == 1
    blocked[1] = True  # a token the search may not write is never kept, whatever its probability
    assert cut_distribution(logits, blocked, SamplingSettings(top_k=1)).kept.tolist() == [0, 0, 0, 1, 0]


def test_out_of_range_settings_are_clamped():
    settings = SamplingSettings(temperature=float("inf"), top_k=10**9, top_p=7.0, samples=0).clamped(100)
    assert (settings.temperature, settings.top_k, settings.top_p, settings.samples) == (0.0, 100, 1.0, 1)
    assert SamplingSettings(temperature=-3, top_p=-1).clamped(100).temperature == 0.0


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_seeded_samples_repeat_and_the_greedy_settings_give_greedy(text, direction):
    tr = translator()
    source = tr.encode(text, direction).ids
    settings = SamplingSettings(temperature=1.2, top_p=0.95, samples=6, seed=3)
    first = sample(tr.model, tr.tokenizer, source, settings, 0.75)
    assert [s.tokens for s in first] == [s.tokens for s in sample(tr.model, tr.tokenizer, source, settings, 0.75)]
    greedy = greedy_tokens(text, direction)
    for greedy_settings in (
        SamplingSettings(top_k=1, samples=3),
        SamplingSettings(temperature=0.0, samples=3),
        SamplingSettings(temperature=1e-4, samples=3),
    ):
        assert all(s.tokens == greedy for s in sample(tr.model, tr.tokenizer, source, greedy_settings, 0.75))
    for s in first:  # each sample's ln P is the model's own: teacher forcing on it gives the same
        words = [tok for tok in s.tokens if tok != EOS]
        if s.finished:
            assert s.log_prob == pytest.approx(tr.score(text, direction, words).log_prob, abs=1e-3)


def test_every_strategy_is_listed_with_its_scores():
    text, direction = SENTENCES[0]
    reference = translator().translate(text, direction).output_text
    found = compare_strategies(translator(), text, direction, 4, 0.75, SamplingSettings(top_k=1, samples=2), reference)
    kinds = [(o.strategy, o.number) for o in found.outputs]
    assert kinds == [("greedy", 0), ("beam", 0), ("sample", 1), ("sample", 2)]
    beam = found.outputs[1]
    assert beam.text == reference and beam.bleu == pytest.approx(100.0) and beam.chrf == pytest.approx(100.0)
    assert beam.score == pytest.approx(beam.log_prob / beam.length**0.75)
    assert found.equals_greedy == "top_k" and found.outputs[2].tokens == found.outputs[0].tokens
    wide = compare_strategies(translator(), text, direction, 4, 0.75, SamplingSettings(samples=2))
    assert wide.equals_greedy is None and wide.widest_step[1] > 1 and wide.outputs[0].bleu is None


def test_one_steps_distribution_before_and_after_the_cut():
    text, direction = SENTENCES[0]
    path = greedy_tokens(text, direction)
    settings = SamplingSettings(temperature=0.8, top_k=10, top_p=0.9)
    shown = step_distribution(translator(), text, direction, path, 3, settings)
    assert shown.prefix == path[:3] and shown.tokens[0] == path[3]  # greedy took the most probable
    found = compare_forcing(translator(), text, direction, [tok for tok in path if tok != EOS])
    assert shown.model_probs[: len(found.forced[3].top)] == pytest.approx([p for _, p in found.forced[3].top], abs=1e-5)
    assert sum(shown.kept) == shown.kept_count <= 10 and math.isclose(sum(shown.final), 1.0, abs_tol=1e-5)
    assert all(shown.kept[: shown.kept_count]) and not any(shown.kept[shown.kept_count :])


def test_largest_is_a_stable_descending_argsorts_first_k():
    from viz_model.model.decoding import largest

    rng = np.random.default_rng(0)
    for trial in range(500):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 8))
        values = rng.integers(0, 4, size=n).astype(float) if trial % 2 else rng.random(n)  # ties, then none
        assert list(largest(values, k)) == list(np.argsort(-values, kind="stable")[:k])


GREEDY_CHECK = [
    ("The little girl put her new red umbrella next to the old wooden door.", "en2zh"),
    ("I saw a man with a telescope.", "en2zh"),
    ("Time flies like an arrow.", "en2zh"),
    ("Can you recommend a good restaurant near the station?", "en2zh"),
    ("明天下午我们一起去图书馆吧。", "zh2en"),
    ("我的箱子还没出来。", "zh2en"),
    ("垃圾该倒了。", "zh2en"),
    ("这附近有什么好吃的吗？", "zh2en"),
]


@pytest.mark.parametrize("text, direction", GREEDY_CHECK)
def test_greedy_path_read_off_the_beam_record_is_greedy_searchs(text, direction):
    """The Decoding lab's free running reads greedy's tokens off the sidebar's beam search when the beam kept
    greedy's every prefix; where it did not, the record says so (None) and greedy search runs."""
    from viz_model.model.tokenizer import EOS
    from viz_model.model.translator import SearchSettings

    record = translator().search(text, direction)
    greedy = translator().search(text, direction, SearchSettings(beam_width=1)).hypotheses[0].tokens
    path = record.greedy_path(EOS)
    assert path is None or path == greedy
    assert translator().search(text, direction, SearchSettings(beam_width=1)).greedy_path(EOS) == greedy


def test_greedy_path_is_none_where_the_beam_pruned_greedys_prefix():
    from viz_model.model.search_record import Candidate, SearchRecord, SearchStep

    def node(step, parent, token, prob, status, hid):
        return Candidate(step, parent, token, prob, np.log(prob), 0.0, step + 1, 0.0, status, hid)

    steps = [
        SearchStep(0, [node(0, None, "a", 0.6, "kept", 0), node(0, None, "b", 0.4, "kept", 1)]),
        # a's best child is pruned (b's children score higher): greedy's path leaves the beam here
        SearchStep(1, [node(1, 1, "c", 0.99, "kept", 2), node(1, 1, "d", 0.01, "kept", 3),
                       node(1, 0, "e", 0.5, "pruned", 4)]),
    ]  # fmt: skip
    record = SearchRecord(steps, [], 2, 0.75, 5)
    assert record.greedy_path("<eos>") is None
    steps[1].candidates[2] = node(1, 0, "<eos>", 0.5, "finished", 4)
    assert SearchRecord(steps, [], 2, 0.75, 5).greedy_path("<eos>") == ["a", "<eos>"]


def test_most_greedy_paths_are_read_off_the_beam():
    read = [translator().search(text, direction).greedy_path(EOS) is not None for text, direction in GREEDY_CHECK]
    assert sum(read) >= len(read) // 2, read  # else free running would search again for most sentences


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_greedy_read_off_the_beam_or_searched_is_greedy_searchs(text, direction):
    tr = translator()
    beam = tr.translate(text, direction).record
    assert tr.greedy(text, direction, beam) == greedy_tokens(text, direction)
    assert tr.greedy(text, direction) == greedy_tokens(text, direction)
    asked = []
    tr.greedy(text, direction, beam, lambda how: asked.append(how) or tr.search(text, direction, how))
    # The caller's search runs only where the beam dropped greedy's path (the first sentence).
    assert [how.beam_width for how in asked] == ([] if beam.greedy_path(EOS) else [1])


@pytest.mark.parametrize("text, direction", GREEDY_CHECK)
def test_greedy_hypothesis_read_off_the_beam_has_greedy_searchs_numbers(text, direction):
    """Every strategy's greedy row reads its ln P and score off the beam's record where it can: they are greedy
    search's own, at the beam's α."""
    tr = translator()
    for alpha in (0.0, 0.75):
        record = tr.search(text, direction, SearchSettings(beam_width=4, length_penalty=alpha))
        searched = tr.search(text, direction, SearchSettings(beam_width=1, length_penalty=alpha)).hypotheses[0]
        read = tr.greedy_hypothesis(text, direction, record)
        assert read.tokens == searched.tokens and read.length == searched.length
        assert read.log_prob == pytest.approx(searched.log_prob, abs=1e-4)
        assert read.score == pytest.approx(searched.score, abs=1e-4)
        assert read.score == pytest.approx(read.log_prob / read.length**alpha)


def test_draw_follows_the_distribution_and_never_draws_a_zero():
    from viz_model.model.sampling import draw

    probs = torch.tensor([0.0, 0.5, 0.0, 0.3, 0.15, 0.05, 0.0])
    generator = torch.Generator().manual_seed(0)
    n = 20_000
    counts = np.bincount([draw(probs, generator) for _ in range(n)], minlength=len(probs))
    assert counts[probs.numpy() == 0].sum() == 0
    # Each share within 4 standard errors of its probability.
    p = probs.numpy()
    assert np.all(np.abs(counts / n - p) <= 4 * np.sqrt(p * (1 - p) / n) + 1e-12), counts / n
    assert draw(torch.tensor([0.0, 0.0, 1.0]), generator) == 2


@pytest.mark.parametrize("top_k", [1, 2, 3, 50])
def test_top_k_alone_keeps_a_stable_sorts_first_k(top_k):
    """Top-k without top-p picks its tokens without sorting the vocabulary: the same tokens as the first k of a
    stable descending sort of the tempered distribution, blocked tokens never among them."""
    logits = torch.randn(200, generator=torch.Generator().manual_seed(top_k))
    logits[::7] = logits[3]  # ties, broken by index as a stable sort does
    blocked = torch.zeros(200, dtype=torch.bool)
    blocked[[3, 10, 11]] = True
    cut = cut_distribution(logits, blocked, SamplingSettings(temperature=0.7, top_k=top_k))
    tempered = (logits / 0.7).masked_fill(blocked, float("-inf")).softmax(-1)
    order = [i for i in np.argsort(-tempered.numpy(), kind="stable") if not blocked[i]][:top_k]
    assert set(torch.nonzero(cut.kept).flatten().tolist()) == set(order)
