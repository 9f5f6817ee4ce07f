"""The browser benchmark's interval for a page's × floor (tests/bench_browser.ratio_interval): it must hold
the measured ratio, shrink with more runs, and resample runs in pairs, so that drift the page and the
minimal page share (the machine slowing down for a while) does not widen it; and the verdict a page gets
from its whole interval (warm_verdict)."""

import random

import pytest

from tests.bench_browser import median, ratio_interval, warm_verdict


def test_constant_runs_give_the_ratio_itself():
    assert ratio_interval([0.3] * 7, [0.2] * 7) == pytest.approx((1.5, 1.5))


def test_the_interval_holds_the_measured_ratio_and_narrows_with_more_runs():
    rng = random.Random(3)

    def runs(n):
        pages = [0.21 * rng.lognormvariate(0, 0.12) for _ in range(n)]
        floors = [0.14 * rng.lognormvariate(0, 0.12) for _ in range(n)]
        return pages, floors

    widths = []
    for pages, floors in (runs(7), runs(60)):
        low, high = ratio_interval(pages, floors)
        assert low < median(pages) / median(floors) < high
        widths.append(high - low)
    assert widths[1] < widths[0] / 1.5


def test_runs_are_resampled_in_pairs():
    # Each page run is 1.4× the minimal run taken beside it, while the machine's speed drifts 2× between runs:
    # paired, the ratio is exactly 1.4; resampled apart, the drift would spread it far.
    rng = random.Random(5)
    floors = [0.1 * (1 + rng.random()) for _ in range(15)]
    pages = [1.4 * f for f in floors]
    low, high = ratio_interval(pages, floors)
    assert 1.4 - 1e-9 <= low <= high <= 1.4 + 1e-9


def test_too_few_runs_give_no_interval():
    low, high = ratio_interval([0.2], [0.1])
    assert low != low and high != high  # NaN: one run says nothing about the noise


def test_a_page_is_judged_by_its_whole_interval():
    assert warm_verdict(1.20, 1.45) == "ok"
    assert warm_verdict(1.52, 1.70) == "MISSED"
    assert warm_verdict(1.36, 1.56) == "at the line"  # Similarity's 15-run interval in the README
    assert warm_verdict(1.30, 1.50) == "ok"  # the target itself is within it
