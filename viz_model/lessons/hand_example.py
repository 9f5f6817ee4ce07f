"""The course's hand-made word vectors (course §2): features such as Tech and Fruitness, the cosine of every
pair, and how attention over a sentence moves "apple" toward "orange" or toward "phone".

numpy in, numpy out (float64).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .similarity import MoveResult, contextual_move, cosine_similarity, similarity_table, softmax, sum_normalise


class FeatureTableError(ValueError):
    """An edited word table the hand example cannot use. `code` names the catalogue message
    ("similarity.bad_<code>"); `cells` lists the offending (word, feature) cells or words."""

    def __init__(self, code: str, cells: list[str]):
        super().__init__(f"{code}: {', '.join(cells)}")
        self.code, self.cells = code, cells


def feature_vectors(words: list[str], features: list[str], rows) -> dict[str, np.ndarray]:
    """The edited table (one row of feature values per word) as {word: vector (d,)}.

    Raises FeatureTableError "not_number" for a cell that is not a finite number (text, empty, NaN, inf)
    and "zero_vector" for a word whose features are all 0 (it has no direction, so its cosine with any
    word is undefined and the word could not move).
    """
    bad, vectors = [], {}
    for word, row in zip(words, rows):
        values = []
        for feature, cell in zip(features, row):
            try:
                value = float(cell)
            except (TypeError, ValueError):
                value = math.nan
            if not math.isfinite(value):
                bad.append(f"{word} · {feature}")
            values.append(value)
        vectors[str(word)] = np.array(values, dtype=np.float64)
    if bad:
        raise FeatureTableError("not_number", bad)
    zero = [w for w, v in vectors.items() if not np.any(v)]
    if zero:
        raise FeatureTableError("zero_vector", zero)
    return vectors


# The course's movements (course §2): (name, focus word, the words it attends over).
HAND_SCENARIOS = (
    ("orange_pair", "orange", ("orange", "apple")),  # 0.57 orange + 0.43 apple
    ("orange_sentence", "orange", ("orange", "apple", "and", "an")),  # 0.40, 0.30, 0.15, 0.15
    ("apple_fruit", "apple", ("apple", "orange")),  # "an apple and an orange"
    ("apple_phone", "apple", ("apple", "phone")),  # 0.57 apple + 0.43 phone
)


@dataclass
class HandExample:
    words: list[str]
    vectors: np.ndarray  # (n, d) in `words` order
    cosine: np.ndarray  # (n, n)
    softmax: np.ndarray  # (n, n) softmax of each cosine row
    moves: dict[str, MoveResult]  # scenario name -> the focus word's move


def hand_example(vectors: dict[str, np.ndarray]) -> HandExample:
    """The course's hand-made word vectors (or the user's edit of them): the cosine matrix of all words, its
    softmax rows, and each scenario of HAND_SCENARIOS as a `contextual_move` with cosines rounded to two
    decimals, as the course does (0.71, hence 0.58/0.42 by plain normalisation, 0.57/0.43 by softmax)."""
    words = list(vectors)
    V = np.stack([np.asarray(vectors[w], dtype=np.float64) for w in words])
    cosine = cosine_similarity(V, V)
    moves = {
        name: contextual_move(list(used), vectors, focus, round_similarities=2)
        for name, focus, used in HAND_SCENARIOS
        if all(w in vectors for w in used)
    }
    return HandExample(words, V, cosine, softmax(cosine, axis=-1), moves)


@dataclass
class VectorPair:
    first: int
    second: int
    dot: float
    scaled_dot: float
    cosine: float
    angle_degrees: float


def vector_pairs(vectors) -> list[VectorPair]:
    """Every pair (i < j) of rows of `vectors` (n, d) with its dot, dot/√d, cosine and angle
    (course §2: (1,4)·(0,3) = 12, /√2 = 8.49, cos 14° = 0.97)."""
    table = similarity_table(vectors)
    n = table.dot.shape[0]
    return [
        VectorPair(
            i,
            j,
            float(table.dot[i, j]),
            float(table.scaled_dot[i, j]),
            float(table.cosine[i, j]),
            float(table.angle_degrees[i, j]),
        )
        for i in range(n)
        for j in range(i + 1, n)
    ]


# The editable table's words, in the course's order.
HAND_WORDS = ("apple", "orange", "phone", "and", "an")
# The arrows drawn in the feature plane: (label, the word that moves, the scenario whose move it is).
PLANE_MOVES = (
    ("apple_fruit", "apple", "apple_fruit"),
    ("apple_phone", "apple", "apple_phone"),
    ("orange", "orange", "orange_pair"),
)


def plane_moves(vectors: dict[str, np.ndarray], example: HandExample) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(label, from, to) in the plane of the first two features, for each arrow of PLANE_MOVES whose
    scenario the example has."""
    return [
        (label, np.asarray(vectors[word])[:2], example.moves[scenario].new_vector[:2])
        for label, word, scenario in PLANE_MOVES
        if scenario in example.moves
    ]


# Why softmax and not plain normalisation (course §2): two pairs of scores, the second summing to 0.
WHY_SOFTMAX_CASES = (("orange / apple", (1.0, 0.71)), ("orange / motorcycle", (1.0, -1.0)))


@dataclass(frozen=True)
class Normalised:
    words: str
    scores: tuple[float, ...]
    plain: np.ndarray | None  # s_i / Σ s; None when Σ s = 0 (undefined)
    softmax: np.ndarray


def why_softmax(cases=WHY_SOFTMAX_CASES) -> list[Normalised]:
    """Each case's scores divided by their sum (when defined) and through softmax."""
    out = []
    for words, scores in cases:
        try:
            plain = sum_normalise(scores)
        except ZeroDivisionError:
            plain = None
        out.append(Normalised(words, tuple(scores), plain, softmax(np.array(scores))))
    return out
