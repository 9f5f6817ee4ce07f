"""viz_model.lessons.hand_example: the course's hand-made word vectors and their numbers (course §2)."""

import numpy as np
import pytest

from viz_model.lessons.hand_example import (
    FeatureTableError,
    feature_vectors,
    hand_example,
    plane_moves,
    vector_pairs,
    why_softmax,
)
from viz_model.lessons.similarity import COURSE_WORDS


def test_course_hand_example_numbers():
    vectors = {
        w: np.array(v, float)
        for w, v in {
            "apple": (2, 2, 0),
            "orange": (0, 3, 0),
            "phone": (4, 0, 0),
            "and": (0, 0, 2),
            "an": (0, 0, 3),
        }.items()
    }
    example = hand_example(vectors)
    i, j = example.words.index("apple"), example.words.index("orange")
    assert round(example.cosine[i, j], 2) == 0.71
    assert np.round(example.moves["orange_pair"].weights, 2).tolist() == [0.57, 0.43]
    assert np.round(example.moves["orange_pair"].sum_weights, 2).tolist() == [0.58, 0.42]
    assert np.round(example.moves["orange_sentence"].weights, 2).tolist() == [0.40, 0.30, 0.15, 0.15]
    assert np.round(example.moves["apple_phone"].weights, 2).tolist() == [0.57, 0.43]
    fruit, phone = example.moves["apple_fruit"].new_vector, example.moves["apple_phone"].new_vector
    assert fruit[1] > 2 > fruit[0] and phone[0] > 2 > phone[1]  # toward Fruitness / toward Tech


@pytest.mark.parametrize(
    "rows, code",
    [
        ([["x", 1], [0, 3]], "not_number"),
        ([[float("nan"), 1], [0, 3]], "not_number"),
        ([[None, 1], [0, 3]], "not_number"),
        ([[0, 0], [0, 3]], "zero_vector"),
    ],
)
def test_bad_tables_raise_a_named_error(rows, code):
    with pytest.raises(FeatureTableError) as err:
        feature_vectors(["apple", "orange"], ["Tech", "Fruitness"], rows)
    assert err.value.code == code


def test_two_feature_pairs():
    pairs = vector_pairs([(1, 4), (0, 3), (3, 0)])
    assert [round(p.dot) for p in pairs] == [12, 3, 0]
    assert [round(p.scaled_dot, 2) for p in pairs] == [8.49, 2.12, 0]
    assert [round(p.cosine, 2) for p in pairs] == [0.97, 0.24, 0]
    assert [round(p.angle_degrees) for p in pairs] == [14, 76, 90]


def test_plane_moves_draw_the_scenarios_moves():
    vectors = {w: np.array(v, float) for w, v in COURSE_WORDS.items()}
    example = hand_example(vectors)
    moves = plane_moves(vectors, example)
    assert [label for label, _, _ in moves] == ["apple_fruit", "apple_phone", "orange"]
    label, start, end = moves[0]
    assert start.tolist() == [2.0, 2.0] and end.tolist() == example.moves["apple_fruit"].new_vector[:2].tolist()


def test_why_softmax_plain_normalisation_breaks_where_softmax_does_not():
    pair, opposite = why_softmax()
    assert np.round(pair.plain, 2).tolist() == [0.58, 0.42] and np.round(pair.softmax, 2).tolist() == [0.57, 0.43]
    assert opposite.plain is None and opposite.softmax.sum() == pytest.approx(1.0)
