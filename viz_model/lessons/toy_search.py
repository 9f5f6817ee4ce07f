"""Greedy, beam and exhaustive search on the course's toy "model" (course §6).

p(x_1:T) = Π_t p(x_t | x_1:t-1). The toy model is a table of next-token distributions over {A, B, C, <eos>}
chosen so that greedy search is not optimal:

    greedy:  A 0.5 · B 0.4 · C 0.4 · <eos> 0.6 = 0.048
    better:  A 0.5 · C 0.3 · B 0.6 · <eos> 0.6 = 0.054   (choosing C at step 2 changes what follows)

A "model" here is any function `next_probs(prefix: tuple[str, ...]) -> dict[str, float]`; the searches
only call it, so the same code works for any table. Probabilities are plain floats; log-probabilities are
natural logs (nats).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from viz_model.model.search_record import (
    Candidate,
    Hypothesis,
    SearchRecord,
    SearchStep,
    length_normalised_score,
)

EOS = "<eos>"
VOCAB = ("A", "B", "C", EOS)

NextProbs = Callable[[tuple[str, ...]], dict[str, float]]

# The course gives only the probabilities on the two paths; the rest are filled so each row sums to 1.
# <eos> is made unlikely early on: otherwise a short output such as "A <eos>" (0.5 × 0.2 = 0.1 with the
# d2l figure's numbers) would beat both four-token sequences, since every extra token multiplies P by
# a number < 1. That bias toward short outputs is what the length penalty L**alpha corrects.
COURSE_TABLE: dict[tuple[str, ...], dict[str, float]] = {
    (): {"A": 0.5, "B": 0.2, "C": 0.25, EOS: 0.05},
    ("A",): {"A": 0.25, "B": 0.4, "C": 0.3, EOS: 0.05},
    ("A", "B"): {"A": 0.3, "B": 0.25, "C": 0.4, EOS: 0.05},
    ("A", "B", "C"): {"A": 0.1, "B": 0.2, "C": 0.1, EOS: 0.6},
    ("A", "C"): {"A": 0.2, "B": 0.6, "C": 0.15, EOS: 0.05},
    ("A", "C", "B"): {"A": 0.1, "B": 0.2, "C": 0.1, EOS: 0.6},
}
# Every prefix not in the table: flat over A/B/C, a little <eos>.
OTHER_PREFIX = {"A": 0.3, "B": 0.3, "C": 0.3, EOS: 0.1}


def course_next_probs(prefix: tuple[str, ...]) -> dict[str, float]:
    """p(next token | prefix) of the course's toy model; a dict over VOCAB summing to 1."""
    return dict(COURSE_TABLE.get(tuple(prefix), OTHER_PREFIX))


@dataclass
class SearchResult:
    """What a search returns: the best sequence, its probability, and the work it did."""

    tokens: list[str]  # best sequence, including <eos> if it finished
    prob: float  # P(tokens) = Π p(x_t | x_<t)
    log_prob: float  # ln P(tokens), nats
    examined: int  # candidates scored (greedy, beam) or whole sequences enumerated (exhaustive)
    record: SearchRecord | None = None  # step-by-step record (beam search only)


def exhaustive_count(n: int, T: int) -> int:
    """Sequences exhaustive search must check: n**T (course: n=10000, T=10 -> 10**40)."""
    return n**T


def beam_cost(k: int, n: int, T: int) -> int:
    """Candidates beam search scores: k·n per step for T steps, O(knT) (course: k=5 -> 5×10**5)."""
    return k * n * T


def greedy_search(next_probs: NextProbs, max_len: int) -> SearchResult:
    """Take the most probable next token at every step until <eos> or max_len tokens.

    examined = number of (prefix, token) candidates scored = vocabulary size per step.
    """
    tokens: list[str] = []
    log_prob = 0.0
    examined = 0
    while len(tokens) < max_len:
        probs = next_probs(tuple(tokens))
        examined += len(probs)
        token = max(probs, key=probs.get)  # first of equal maxima, in vocabulary order
        tokens.append(token)
        log_prob += math.log(probs[token])
        if token == EOS:
            break
    return SearchResult(tokens, math.exp(log_prob), log_prob, examined)


def beam_search(
    next_probs: NextProbs, beam_width: int, max_len: int, length_penalty_alpha: float = 0.0
) -> SearchResult:
    """Keep the `beam_width` best prefixes at each step; record every candidate scored.

    At each step every live prefix is extended by every token; all candidates are ranked by score
    (log P / L**alpha; at one step all have the same L, so this is the ranking by P) and the top
    `beam_width - finished so far` survive. A survivor ending in <eos> is "finished" and leaves the beam
    for good, so the beam shrinks as hypotheses finish; the search stops when k hypotheses have finished,
    the beam is empty, or after `max_len` steps. Prefixes still live at max_len are returned as
    unfinished hypotheses. Hypotheses are ranked by score, best first. These are the rules of the model's
    beam search in viz_model/model/decoding.py, so the toy and the model draw the same kind of tree.
    """
    live: list[Candidate | None] = [None]  # None = the empty prefix (root of the tree)
    tokens_of: dict[int, list[str]] = {}
    steps: list[SearchStep] = []
    hypotheses: list[Hypothesis] = []
    next_id = itertools.count()
    for step in range(max_len):
        slots = beam_width - len(hypotheses)  # finished hypotheses keep their place in the beam
        if slots <= 0 or not live:
            break
        scored = []
        for parent in live:
            prefix = tokens_of[parent.hypothesis] if parent else []
            parent_log_prob = parent.cumulative_log_prob if parent else 0.0
            for token, p in next_probs(tuple(prefix)).items():
                log_p = math.log(p) if p > 0 else -math.inf
                cumulative = parent_log_prob + log_p
                score = length_normalised_score(cumulative, step + 1, length_penalty_alpha)
                scored.append((score, parent, token, p, log_p, cumulative))
        scored.sort(key=lambda row: -row[0])  # stable: ties keep parent, then vocabulary, order
        candidates, live = [], []
        for rank, (score, parent, token, p, log_p, cumulative) in enumerate(scored):
            status = "pruned" if rank >= slots else ("finished" if token == EOS else "kept")
            node = Candidate(
                step=step,
                parent=parent.hypothesis if parent else None,
                token=token,
                prob=p,
                log_prob=log_p,
                cumulative_log_prob=cumulative,
                length=step + 1,
                score=score,
                status=status,
                hypothesis=next(next_id),
            )
            candidates.append(node)
            if status == "pruned":
                continue
            tokens_of[node.hypothesis] = (tokens_of[parent.hypothesis] if parent else []) + [token]
            if status == "finished":
                hypotheses.append(_hypothesis(node, tokens_of, finished=True))
            else:
                live.append(node)
        steps.append(SearchStep(step, candidates))
    hypotheses += [_hypothesis(node, tokens_of, finished=False) for node in live]
    hypotheses.sort(key=lambda h: -h.score)
    record = SearchRecord(steps, hypotheses, beam_width, length_penalty_alpha, max_len)
    best = hypotheses[0]
    return SearchResult(best.tokens, best.prob, best.log_prob, record.candidates_scored, record)


def _hypothesis(node: Candidate, tokens_of: dict[int, list[str]], finished: bool) -> Hypothesis:
    return Hypothesis(
        tokens=tokens_of[node.hypothesis],
        log_prob=node.cumulative_log_prob,
        length=node.length,
        score=node.score,
        finished=finished,
        node=node.hypothesis,
    )


def exhaustive_search(next_probs: NextProbs, max_len: int, length_penalty_alpha: float = 0.0) -> SearchResult:
    """Score every sequence up to max_len tokens and return the best finished one.

    Enumerates every sequence that ends with <eos> at some length <= max_len, plus the ones cut off at
    max_len (counted in `examined`; the best is chosen among finished sequences, or among the cut-off
    ones if none can finish). Ranking is by score log P / L**alpha. Because nothing follows <eos>, the count
    is a little below the course's n**T (which ignores <eos>): here 1 + 3 + 9 + 27 + 81 = 121 sequences for n=4, T=4.
    """
    best_key, best = None, None
    examined = 0
    stack: list[tuple[list[str], float]] = [([], 0.0)]
    while stack:
        prefix, log_prob = stack.pop()
        for token, p in next_probs(tuple(prefix)).items():
            if p <= 0:
                continue
            tokens, lp = prefix + [token], log_prob + math.log(p)
            finished = token == EOS
            if not finished and len(tokens) < max_len:
                stack.append((tokens, lp))
                continue
            examined += 1
            key = (finished, length_normalised_score(lp, len(tokens), length_penalty_alpha))
            if best_key is None or key > best_key:
                best_key, best = key, (tokens, lp)
    tokens, log_prob = best
    return SearchResult(tokens, math.exp(log_prob), log_prob, examined)


def scientific(n: int) -> tuple[float, int]:
    """(mantissa, exponent) with n = mantissa × 10^exponent, exact for big integers (10**40 → (1.0, 40))."""
    n = int(n)
    if n == 0:
        return 0.0, 0
    exponent = len(str(abs(n))) - 1
    return n / 10**exponent, exponent


def latex_count(n: int) -> str:
    """n for a formula: as it is below 10^4, else as a power of ten (10^{40}, 5 \\times 10^{5})."""
    mantissa, exponent = scientific(n)
    head = f"{mantissa:.4g}"
    if exponent < 4:
        return str(n)
    return rf"10^{{{exponent}}}" if head == "1" else rf"{head} \times 10^{{{exponent}}}"


def path_factors(next_probs: NextProbs, tokens: list[str]) -> list[float]:
    """p(x_t | x_<t) for each token of a sequence: the factors whose product is P(x) (course §6)."""
    return [next_probs(tuple(tokens[:i]))[t] for i, t in enumerate(tokens)]


@dataclass(frozen=True)
class ToyResult:
    """One search's answer on the toy model, as the course's comparison table lists it."""

    search: str  # "greedy", "beam" or "exhaustive"
    tokens: list[str]
    factors: list[float]  # p(x_t | x_<t) for each token: their product is prob
    prob: float
    examined: int
    record: SearchRecord | None = None  # the step-by-step record (beam search only), for its tree


def toy_results(beam_width: int, max_len: int = 4) -> list[ToyResult]:
    """Greedy, beam (of `beam_width`) and exhaustive search on the course's table, with the factors of each
    answer's probability: greedy's locally best choices give 0.048 where 0.054 was possible (course §6)."""
    results = (
        ("greedy", greedy_search(course_next_probs, max_len)),
        ("beam", beam_search(course_next_probs, beam_width, max_len)),
        ("exhaustive", exhaustive_search(course_next_probs, max_len)),
    )
    return [
        ToyResult(name, r.tokens, path_factors(course_next_probs, r.tokens), r.prob, r.examined, r.record)
        for name, r in results
    ]
