"""viz_model.lessons.attention_views: the keys a query weighs most, differences of heads."""

import numpy as np
import pytest

from viz_model.lessons.attention_views import head_differences, top_attended


def test_top_attended_orders_by_weight_and_skips_masked():
    weights = np.array([[0.2, 0.5, 0.3], [0.6, 0.4, 0.0]])
    mask = np.array([[True, True, True], [True, True, False]])
    top = top_attended(weights, 0, ["a", "b", "c"], k=2)
    assert [(a.position, a.token) for a in top] == [(1, "b"), (2, "c")]
    assert [a.position for a in top_attended(weights, 1, ["a", "b", "c"], k=5, mask=mask)] == [0, 1]


def test_head_differences():
    w = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
    (diff,) = head_differences(w, [1, 3])
    assert diff[:2] == (3, 1) and (diff[2] == 12).all()
    assert len(head_differences(w, [0, 1, 2])) == 2
    with pytest.raises(ValueError):
        head_differences(w, [0])
