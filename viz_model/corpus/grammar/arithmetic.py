"""Arithmetic pairs ("one plus three equals four" ↔ 一加三等于四) and the operand triples held out of
training, so the test split measures adding rather than remembering."""

from __future__ import annotations

import random

from .phrases import SentencePair
from .tables import EN_NUMBERS, ZH_NUMBERS

ARITHMETIC_OPS = {"plus": "加", "minus": "减"}


def arithmetic_triples() -> list[tuple[int, str, int]]:
    """All (x, op, y) with operands 0–20 and a result 0–40 (minus only when x ≥ y)."""
    return [(x, op, y) for x in range(21) for y in range(21) for op in ("plus", "minus") if op == "plus" or x >= y]


def _held_out(seed: int = 0) -> frozenset[tuple[int, str, int]]:
    triples = arithmetic_triples()
    rng = random.Random(f"arithmetic-{seed}")
    keep_in_train = {(1, "plus", 3)}  # the course example must be learnt exactly
    candidates = [t for t in triples if t not in keep_in_train]
    return frozenset(rng.sample(candidates, round(0.1 * len(triples))))


# ~10% of operand triples never reach the training split in ANY form, so test accuracy on them measures
# whether the model learnt to add and subtract rather than memorised equations.
HELD_OUT_ARITHMETIC: frozenset[tuple[int, str, int]] = _held_out(0)


def is_held_out_arithmetic(pair: SentencePair) -> bool:
    return arithmetic_triple(pair) in HELD_OUT_ARITHMETIC


def arithmetic_triple(pair: SentencePair) -> tuple[int, str, int] | None:
    """The (x, op, y) of an arithmetic pair, else None."""
    if pair.topic not in ("arithmetic", "course") or len(pair.en_tokens) < 3 or pair.en_tokens[1] not in ARITHMETIC_OPS:
        return None
    try:
        return EN_NUMBERS.index(pair.en_tokens[0]), pair.en_tokens[1], EN_NUMBERS.index(pair.en_tokens[2])
    except ValueError:
        return None


def arithmetic_pairs() -> list[SentencePair]:
    """For every triple: en question → zh equation, zh question → en equation, and the equation both ways."""
    out = []
    for x, op, y in arithmetic_triples():
        z = x + y if op == "plus" else x - y
        q_en = (EN_NUMBERS[x], op, EN_NUMBERS[y])
        q_zh = (ZH_NUMBERS[x], ARITHMETIC_OPS[op], ZH_NUMBERS[y])
        eq_en = q_en + ("equals", EN_NUMBERS[z])
        eq_zh = q_zh + ("等于", ZH_NUMBERS[z])
        out.append(SentencePair(q_en, eq_zh, "arithmetic", "en2zh"))
        out.append(SentencePair(eq_en, q_zh, "arithmetic", "zh2en"))
        out.append(SentencePair(eq_en, eq_zh, "arithmetic", "both"))
    return out
