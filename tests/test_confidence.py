"""The low-confidence line: the table that places it, and the shipped line marking mostly-wrong translations."""

import math

import pytest

from viz_model.model.translator import LOW_CONFIDENCE
from viz_model.training.confidence import Scored, dev_pairs, grammar_pairs, lines, score


def test_lines_count_and_average_what_falls_below_each_line():
    dev = [Scored(0.4, 10.0), Scored(0.6, 30.0), Scored(0.8, 80.0), Scored(0.9, 90.0)]
    grammar = [Scored(0.95, 100.0), Scored(0.65, 100.0)]
    low, mid, high = lines(dev, grammar, thresholds=(0.3, 0.7, 0.85))
    assert (low.marked, low.grammar_marked) == (0, 0) and math.isnan(low.chrf_marked)
    assert low.chrf_unmarked == pytest.approx((10 + 30 + 80 + 90) / 4)
    assert (mid.marked, mid.total, mid.grammar_marked, mid.grammar_total) == (2, 4, 1, 2)
    assert (mid.chrf_marked, mid.chrf_unmarked) == (pytest.approx(20.0), pytest.approx(85.0))
    assert (high.marked, high.chrf_marked, high.chrf_unmarked) == (3, pytest.approx(40.0), pytest.approx(90.0))


@pytest.mark.slow
def test_the_shipped_line_marks_mostly_wrong_translations_and_spares_the_grammar():
    """On the first 40 development pairs of each direction, the translations under LOW_CONFIDENCE score a
    clearly lower sentence chrF than the rest, and there are some; the grammar's test sentences, nearly all
    translated right, are not marked."""
    from tests.app_harness import translator

    dev = score(translator(), dev_pairs(per_direction=40))
    grammar = score(translator(), grammar_pairs(per_direction=30))
    (line,) = lines(dev, grammar, thresholds=(LOW_CONFIDENCE,))
    assert line.marked >= 5
    assert line.chrf_marked < line.chrf_unmarked - 15
    assert line.grammar_marked == 0
