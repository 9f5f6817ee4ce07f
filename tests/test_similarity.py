import math

import numpy as np
import pytest

from viz_model.lessons.similarity import (
    COURSE_2D_VECTORS,
    COURSE_WORDS,
    additive_score,
    bilinear_score,
    contextual_move,
    cosine_similarity,
    dot_similarity,
    scaled_dot_similarity,
    similarity_matrices,
    similarity_table,
    softmax,
    sum_normalise,
)


def r2(x):
    return np.round(np.asarray(x, dtype=float), 2).tolist()


# ------------------------------------------------------------------------------------ generic maths


def test_shapes_and_definitions():
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(3, 5)), rng.normal(size=(4, 5))
    assert dot_similarity(A, B).shape == (3, 4)
    np.testing.assert_allclose(dot_similarity(A, B)[1, 2], A[1] @ B[2])
    np.testing.assert_allclose(scaled_dot_similarity(A, B), A @ B.T / math.sqrt(5))
    cos = cosine_similarity(A, B)
    np.testing.assert_allclose(cos[2, 3], A[2] @ B[3] / np.linalg.norm(A[2]) / np.linalg.norm(B[3]))


def test_cosine_with_zero_vector_is_zero_not_nan():
    cos = cosine_similarity([[0, 0, 0], [1, 0, 0]], [[1, 0, 0], [0, 0, 0]])
    assert not np.isnan(cos).any()
    assert cos.tolist() == [[0.0, 0.0], [1.0, 0.0]]


def test_softmax_stable_and_temperature():
    w = softmax([1000.0, 1000.0, -math.inf])
    assert w.tolist() == [0.5, 0.5, 0.0]
    x = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    np.testing.assert_allclose(softmax(x).sum(axis=-1), 1.0)
    np.testing.assert_allclose(softmax(x, axis=0).sum(axis=0), 1.0)
    assert softmax([1.0, 2.0], temperature=100)[0] > softmax([1.0, 2.0])[0]  # flatter


def test_additive_and_bilinear_scores():
    rng = np.random.default_rng(1)
    x, q = rng.normal(size=(4, 3)), rng.normal(size=2)
    W, U, v = rng.normal(size=(5, 3)), rng.normal(size=(5, 2)), rng.normal(size=5)
    expected = [v @ np.tanh(W @ xi + U @ q) for xi in x]
    np.testing.assert_allclose(additive_score(x, q, W, U, v), expected)
    Wb = rng.normal(size=(3, 2))
    np.testing.assert_allclose(bilinear_score(x, q, Wb), [xi @ Wb @ q for xi in x])
    # bilinear with W = I is the plain dot product
    np.testing.assert_allclose(bilinear_score(x, x[0], np.eye(3)), dot_similarity(x, x[0])[:, 0])


# -------------------------------------------------------------------------- course §2 numbers


def test_course_2d_dot_products_and_angles():
    t = similarity_table(COURSE_2D_VECTORS)  # (1,4), (0,3), (3,0)
    assert (t.dot[0, 1], t.dot[0, 2], t.dot[1, 2]) == (12, 3, 0)
    assert r2([t.scaled_dot[0, 1], t.scaled_dot[0, 2], t.scaled_dot[1, 2]]) == [8.49, 2.12, 0]
    assert r2([t.angle_degrees[0, 1], t.angle_degrees[0, 2], t.angle_degrees[1, 2]]) == [14.04, 75.96, 90]
    assert r2([t.cosine[0, 1], t.cosine[0, 2], t.cosine[1, 2]]) == [0.97, 0.24, 0]
    assert r2([math.cos(math.radians(14)), math.cos(math.radians(76))]) == [0.97, 0.24]


def test_course_sentence_cosines():
    names = list(COURSE_WORDS)
    cos = cosine_similarity(list(COURSE_WORDS.values()), list(COURSE_WORDS.values()))
    c = {(a, b): round(cos[i, j], 2) for i, a in enumerate(names) for j, b in enumerate(names)}
    assert c["orange", "apple"] == c["phone", "apple"] == 0.71
    assert c["and", "an"] == 1.0
    assert c["orange", "phone"] == c["orange", "and"] == c["apple", "an"] == c["phone", "and"] == 0.0


def test_orange_with_apple_pairwise():
    # Orange -> 1·Orange + 0.71·Apple; / sum -> 0.58, 0.42; softmax -> 0.57, 0.43
    move = contextual_move(["orange", "apple"], COURSE_WORDS, "orange", round_similarities=2)
    assert move.similarities.tolist() == [1.0, 0.71]
    np.testing.assert_allclose(move.raw_vector, np.array([0, 3, 0]) + 0.71 * np.array([2, 2, 0]))
    assert r2(move.sum_weights) == [0.58, 0.42]
    assert r2(move.weights) == [0.57, 0.43]
    # the same softmax comes out of e¹ / (e¹ + e^0.71)
    assert round(math.e / (math.e + math.exp(0.71)), 2) == 0.57
    # with the exact cosine (0.7071) the sum-normalised weights round to 0.59/0.41 instead
    exact = contextual_move(["orange", "apple"], COURSE_WORDS, "orange")
    assert r2(exact.sum_weights) == [0.59, 0.41]
    assert r2(exact.weights) == [0.57, 0.43]


def test_negative_similarity_breaks_plain_normalisation():
    # 1·Orange − 1·Motorcycle: sum 0 -> divide by zero; softmax -> 0.88, 0.12
    with pytest.raises(ZeroDivisionError):
        sum_normalise([1.0, -1.0])
    assert r2(softmax([1.0, -1.0])) == [0.88, 0.12]


def test_whole_sentence_an_apple_and_an_orange():
    sentence = ["an", "apple", "and", "an", "orange"]
    move = contextual_move(sentence, COURSE_WORDS, "orange")
    assert move.words == ["an", "apple", "and", "orange"]  # "an" counted once, as in the course
    w = dict(zip(move.words, r2(move.weights)))
    assert w == {"orange": 0.40, "apple": 0.30, "and": 0.15, "an": 0.15}
    np.testing.assert_allclose(move.new_vector, move.weights @ move.vectors)
    # plain normalisation over the sentence: the zero similarities drop out -> 0.58/0.42 again
    rounded = contextual_move(sentence, COURSE_WORDS, "orange", round_similarities=2)
    assert dict(zip(rounded.words, r2(rounded.sum_weights))) == {"an": 0, "apple": 0.42, "and": 0, "orange": 0.58}
    # counting each occurrence instead gives "an" two slots
    assert len(contextual_move(sentence, COURSE_WORDS, "orange", count_duplicates=True).words) == 5


def test_apple_moves_toward_phone_or_orange():
    phone = contextual_move(["apple", "phone"], COURSE_WORDS, "apple")
    assert dict(zip(phone.words, r2(phone.weights))) == {"apple": 0.57, "phone": 0.43}
    fruit = contextual_move(["apple", "orange"], COURSE_WORDS, "apple")
    apple = np.array(COURSE_WORDS["apple"], float)
    tech, fruitness = 0, 1
    assert phone.new_vector[tech] > apple[tech] and phone.new_vector[fruitness] < apple[fruitness]
    assert fruit.new_vector[fruitness] > apple[fruitness] and fruit.new_vector[tech] < apple[tech]


def test_similarity_matrices_of_q_and_k_are_attention():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(3, 8)), rng.normal(size=(4, 8))
    m = similarity_matrices(q, k)
    np.testing.assert_allclose(m.scaled_dot, q @ k.T / math.sqrt(8))
    np.testing.assert_allclose(m.softmax["scaled_dot"].sum(axis=1), 1)
