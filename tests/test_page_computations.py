"""The numbers pages draw without computing them: each function of viz_model.lessons a page calls instead of
working something out itself, checked against an independent oracle (a hand computation, sacrebleu)."""

import math

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU

from viz_model.lessons.metrics import brevity_case, brevity_penalty
from viz_model.lessons.positional_views import COURSE_D_MODEL, COURSE_WORDS, course_table, positional_table
from viz_model.lessons.pretrained_views import head_and_layer_mean
from viz_model.lessons.search_views import normalised_settings
from viz_model.lessons.toy_search import toy_results
from viz_model.model.translator import SearchSettings


def hand_sinusoid(length: int, d_model: int) -> np.ndarray:
    """PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(p / 10000^(2i/d)), one number at a time."""
    pe = np.zeros((length, d_model))
    for p in range(length):
        for j in range(d_model):
            angle = p / 10000 ** ((j - j % 2) / d_model)
            pe[p, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return pe


@pytest.mark.parametrize(("length", "sentence", "rows"), [(10, 0, 10), (10, 4, 10), (3, 7, 7), (2, 2, 2)])
def test_positional_table_grows_to_the_marked_sentence(length, sentence, rows):
    table = positional_table(6, length, sentence)
    assert (table.length, table.d_model, table.sentence_rows) == (rows, 6, sentence)
    np.testing.assert_allclose(table.pe, hand_sinusoid(rows, 6), atol=1e-6)


def test_course_table_is_the_courses_d5_example():
    pe, rows, columns = course_table()
    assert pe.shape == (len(COURSE_WORDS), COURSE_D_MODEL)
    assert rows[1] == "1: you" and columns[:2] == ["0 (sin)", "1 (cos)"]
    np.testing.assert_allclose(pe, np.round(hand_sinusoid(6, 5), 4))
    assert pe[1, 0] == pytest.approx(0.8415)  # sin(1), as the course prints it


@pytest.mark.parametrize(
    ("c", "r", "case"), [(5, 3, "longer"), (4, 4, "equal"), (0, 4, "empty"), (3, 5, "shorter"), (1, 9, "shorter")]
)
def test_brevity_cases_agree_with_sacrebleu(c, r, case):
    assert brevity_case(c, r) == case
    oracle = BLEU.compute_bleu([1, 0, 0, 0], [1, 1, 1, 1], sys_len=c, ref_len=r).bp
    assert brevity_penalty(c, r) == pytest.approx(oracle)


def test_toy_search_rows_are_the_courses_numbers():
    greedy, beam, exhaustive = toy_results(2)
    assert [r.search for r in (greedy, beam, exhaustive)] == ["greedy", "beam", "exhaustive"]
    assert greedy.prob == pytest.approx(0.048) and exhaustive.prob == pytest.approx(0.054)  # course §6
    assert beam.tokens == exhaustive.tokens and beam.record is not None and greedy.record is None
    for row in (greedy, beam, exhaustive):
        assert math.prod(row.factors) == pytest.approx(row.prob)
        assert len(row.factors) == len(row.tokens) and row.examined > 0
    assert toy_results(1)[1].tokens == greedy.tokens  # a beam of one is greedy


def test_search_settings_in_one_form():
    full = 40
    assert normalised_settings(SearchSettings(beam_width=4.0, length_penalty=1, max_len=None), full) == (
        normalised_settings(SearchSettings(beam_width=4, length_penalty=1.0, max_len=full), full)
    )
    assert normalised_settings(SearchSettings(max_len=99), full).max_len == full
    assert normalised_settings(SearchSettings(max_len=7), full).max_len == 7
    settings = normalised_settings(SearchSettings(beam_width=3.0, length_penalty=1), full)
    assert type(settings.beam_width) is int and type(settings.length_penalty) is float


def test_head_beside_its_layers_mean():
    weights = np.random.default_rng(0).random((3, 4, 5, 5))  # (layers, heads, n, n)
    pair = head_and_layer_mean(weights, 1, 2)
    assert pair.shape == (2, 5, 5)
    np.testing.assert_array_equal(pair[0], weights[1, 2])
    by_hand = sum(weights[1, h] for h in range(4)) / 4
    np.testing.assert_allclose(pair[1], by_hand)
