"""Train / validation / test: groups of pairs sharing a side never straddle two splits."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from .arithmetic import arithmetic_triple, is_held_out_arithmetic
from .course import COURSE_SENTENCES
from .phrases import SentencePair

VALIDATION_SIZE = TEST_SIZE = 1000
AMBIGUOUS_QUOTA = 200  # ambiguous-word pairs wanted in each of validation and test
# Coreference pairs wanted in each of validation and test: a random 1,000 of ~70,000 pairs would hold about a
# dozen, too few to measure the right-referent share (one miss = 8 points).
COREFERENCE_QUOTA = 60


def _groups(pairs: list[SentencePair]) -> list[list[int]]:
    """Pairs that share an English or a Chinese side, joined (union–find). A group never straddles splits,
    so no sentence of the test split was seen in training, not even as the source of another pair."""
    parent = list(range(len(pairs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[tuple, int] = {}
    for i, p in enumerate(pairs):
        for side in (("en",) + p.en_tokens, ("zh",) + p.zh_tokens):
            if side in owner:
                parent[find(i)] = find(owner[side])
            else:
                owner[side] = i
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(pairs)):
        groups[find(i)].append(i)
    return list(groups.values())


def split_corpus(pairs: list[SentencePair], seed: int = 0) -> dict[str, list[SentencePair]]:
    """Train / validation / test. Course sentences stay in train; held-out arithmetic triples go (whole) to
    validation or test; validation and test each get ~1,000 pairs, with plenty of ambiguous words."""
    rng = random.Random(f"split-{seed}")
    course = set(COURSE_SENTENCES)
    train, held, rest = [], [], []
    for g in _groups(pairs):
        members = [pairs[i] for i in g]
        if any(p in course for p in members):
            train.append(g)
        elif any(is_held_out_arithmetic(p) for p in members):
            held.append(g)
        elif any(p.topic == "arithmetic" or p.origin == "phrasebook" for p in members):
            train.append(g)  # the test split measures the grammar's world; the phrasebook only trains
        else:
            rest.append(g)
    out = {"train": [], "validation": [], "test": []}
    held.sort(key=lambda g: arithmetic_triple(pairs[g[0]]))
    rng.shuffle(held)
    for k, g in enumerate(held):
        out["validation" if k % 2 else "test"].extend(g)

    rng.shuffle(rest)
    # First an ambiguous quota, covering every sense, then random groups up to the target size.
    sizes = {"validation": VALIDATION_SIZE, "test": TEST_SIZE}
    taken: set[int] = set()
    for name in ("test", "validation"):
        per_sense: Counter = Counter()
        n_amb = 0
        for rare_first in (True, False):  # every sense at least 5 times, then any ambiguous pair
            for gi, g in enumerate(rest):
                if gi in taken or n_amb >= AMBIGUOUS_QUOTA:
                    continue
                senses = {a for i in g for a in pairs[i].ambiguous}
                if senses and (not rare_first or any(per_sense[s] < 5 for s in senses)):
                    taken.add(gi)
                    out[name].extend(g)
                    per_sense.update(senses)
                    n_amb += len(g)
        n_coref = 0
        for gi, g in enumerate(rest):
            if gi not in taken and n_coref < COREFERENCE_QUOTA and any(pairs[i].topic == "coreference" for i in g):
                taken.add(gi)
                out[name].extend(g)
                n_coref += len(g)
        for gi, g in enumerate(rest):
            if len(out[name]) >= sizes[name]:
                break
            if gi not in taken and not any(pairs[i].ambiguous for i in g):
                taken.add(gi)
                out[name].extend(g)
    for gi, g in enumerate(rest):
        if gi not in taken:
            out["train"].extend(g)
    for g in train:
        out["train"].extend(g)
    # Keep the corpus order inside each split (deterministic, and easy to read in the TSV files).
    return {name: [pairs[i] for i in sorted(idx)] for name, idx in out.items()}
