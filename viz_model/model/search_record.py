"""A step-by-step record of a beam search, shared by the toy search and the real model.

Both `viz_model.lessons.toy_search.beam_search` (the course's A/B/C/<eos> example) and the model's beam search in
`viz_model.model.decoding` fill the same structure, so one page can draw either as a tree.

Vocabulary of the record:
- A *candidate* is one (parent hypothesis, next token) pair scored at one step. Each candidate gets a unique
  integer id (`Candidate.hypothesis`) so a tree can be drawn; `parent` is the id of a candidate of the
  previous step, or None at step 0 (the parent is the empty prefix).
- `status` says what the search did with it: "kept" (stays in the beam), "finished" (made the top k and ends
  with <eos>, so it leaves the beam as a complete hypothesis) or "pruned" (not in the top k).
- Score (course §6): score = log P(y_1..y_L) / L**alpha, with L the number of generated tokens including
  <eos>. alpha = 0 ranks by plain log-probability; alpha = 0.75 is the common choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

Status = Literal["kept", "pruned", "finished"]


def length_normalised_score(cumulative_log_prob: float, length: int, alpha: float) -> float:
    """score = log P / L**alpha (course §6). log P in nats (natural log); length in tokens, >= 1."""
    return cumulative_log_prob / (length**alpha)


@dataclass
class Candidate:
    """One scored extension of a hypothesis at one step of the search."""

    step: int  # 0-based step at which this token is generated
    parent: int | None  # id (`hypothesis`) of the candidate it extends; None at step 0
    token: str  # the token appended
    prob: float  # p(token | prefix), in [0, 1]
    log_prob: float  # ln p(token | prefix), nats
    cumulative_log_prob: float  # ln P(prefix + token) = sum of log_prob along the path
    length: int  # tokens in prefix + token (= step + 1)
    score: float  # cumulative_log_prob / length**alpha
    status: Status
    hypothesis: int  # unique id of this node in the search tree


@dataclass
class SearchStep:
    """Every candidate scored at one step, in the order the search ranked them (best first)."""

    step: int
    candidates: list[Candidate]


@dataclass
class Hypothesis:
    """A complete (or cut off at max_len) output of the search."""

    tokens: list[str]  # generated tokens, including the final <eos> if finished
    log_prob: float  # ln P(tokens), nats
    length: int  # len(tokens)
    score: float  # log_prob / length**alpha
    finished: bool  # True if it ended with <eos>; False if it hit max_len
    node: int  # id of its last candidate, to trace the path in the tree

    @property
    def prob(self) -> float:
        """P(tokens) = exp(log_prob)."""
        return math.exp(self.log_prob)


@dataclass
class SearchRecord:
    """The whole search: steps in order, and the hypotheses it returned, ranked best first by score."""

    steps: list[SearchStep]
    hypotheses: list[Hypothesis]
    beam_width: int
    length_penalty_alpha: float
    max_len: int
    _by_id: dict[int, Candidate] = field(default_factory=dict, init=False, repr=False, compare=False)

    def nodes(self) -> list[Candidate]:
        """Every candidate of every step, ordered by step then rank; ids are unique across the record."""
        return [c for s in self.steps for c in s.candidates]

    def node(self, node_id: int) -> Candidate:
        """The candidate with this id."""
        if len(self._by_id) != sum(len(s.candidates) for s in self.steps):
            self._by_id = {c.hypothesis: c for c in self.nodes()}
        return self._by_id[node_id]

    def path_nodes(self, node_id: int) -> list[Candidate]:
        """Candidates from step 0 down to `node_id`, following `parent` links."""
        path = []
        current: int | None = node_id
        while current is not None:
            candidate = self.node(current)
            path.append(candidate)
            current = candidate.parent
        return path[::-1]

    def best_path_nodes(self) -> list[Candidate]:
        """The path (step 0 first) of the best-ranked hypothesis; empty if there is none."""
        if not self.hypotheses:
            return []
        return self.path_nodes(self.hypotheses[0].node)

    def greedy_path(self, eos: str) -> list[str] | None:
        """The tokens greedy search would write (`eos` included), read off this record when the search kept
        greedy's every prefix; None when it must run itself (see `greedy_hypothesis`)."""
        found = self.greedy_hypothesis(eos)
        return None if found is None else found.tokens

    def greedy_hypothesis(self, eos: str) -> Hypothesis | None:
        """What greedy search would return, read off this record when the search kept greedy's every prefix:
        from the empty prefix, the most probable child of each node, while that child was kept to be
        extended; its score with this record's α. None when greedy's path leaves the beam (a greedy prefix
        pruned, or the search ended first), or never writes `eos` in the record."""
        children: dict[int | None, Candidate] = {}
        for step in self.steps:
            for c in step.candidates:  # ranked best first: a node's first child is its most probable
                if c.parent not in children or c.prob > children[c.parent].prob:
                    children[c.parent] = c
        path: list[Candidate] = []
        parent = None
        while parent in children:
            best = children[parent]
            path.append(best)
            if best.token == eos:
                return Hypothesis(
                    [c.token for c in path], best.cumulative_log_prob, best.length, best.score, True, best.hypothesis
                )
            if best.status != "kept":
                return None
            parent = best.hypothesis
        return None

    @property
    def candidates_scored(self) -> int:
        """How many candidates the search examined (about k·n per step: the O(knT) of course §6)."""
        return sum(len(s.candidates) for s in self.steps)
