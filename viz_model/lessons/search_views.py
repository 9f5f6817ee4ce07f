"""What the Beam search page shows about one search, as plain data: what happened at a step, the hypotheses
in words, and "what if": the alternatives the model offered at a step of the best path, the prefix that
forces one of them, and whether the forced translation is more probable than the one beam search chose.

A `SearchRecord` (viz_model.model.search_record) in, plain data out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from viz_model.model.search_record import Candidate, SearchRecord
from viz_model.model.tokenizer import EOS, UNK, detokenize

STATUSES = ("kept", "finished", "pruned")


def status_counts(candidates: list[Candidate]) -> dict[str, int]:
    """How many candidates of one step the search kept, finished and pruned."""
    return {status: sum(c.status == status for c in candidates) for status in STATUSES}


@dataclass(frozen=True)
class CandidateRow:
    """One candidate of a step, with the prefix it extends."""

    prefix: list[str]              # the tokens before this one, from step 0
    token: str
    prob: float                    # p(token | prefix)
    cumulative_log_prob: float     # ln P(prefix + token)
    score: float                   # ln P / L^α
    status: str


def step_rows(record: SearchRecord, step: int) -> list[CandidateRow]:
    """The candidates scored at `step` (0-based), in the search's ranking order."""
    return [CandidateRow([n.token for n in record.path_nodes(c.hypothesis)[:-1]], c.token, c.prob,
                         c.cumulative_log_prob, c.score, c.status) for c in record.steps[step].candidates]


@dataclass(frozen=True)
class HypothesisRow:
    output: str                    # the tokens as text in the target language
    tokens: list[str]
    log_prob: float
    length: int
    score: float
    finished: bool


def hypothesis_rows(record: SearchRecord, language: str) -> list[HypothesisRow]:
    """The hypotheses the search returned, best first, with their text in `language` ("zh" or "en")."""
    return [HypothesisRow(detokenize(h.tokens, language), h.tokens, h.log_prob, h.length, h.score, h.finished)
            for h in record.hypotheses]


def alternatives(record: SearchRecord, at: int) -> list[Candidate]:
    """Other tokens the model scored at step `at` of the best path, after the same prefix (not <eos>)."""
    best_path = record.best_path_nodes()
    chosen = best_path[at]
    return [c for c in record.steps[at].candidates
            if c.parent == chosen.parent and c.token != EOS and c.hypothesis != chosen.hypothesis]


def forced_prefix(record: SearchRecord, at: int, token: str) -> list[str]:
    """The best path's first `at` tokens, then `token` instead of the one beam search chose."""
    return [c.token for c in record.best_path_nodes()[:at]] + [token]


def typed_prefix(tokenizer, text: str) -> list[str]:
    """A typed prefix as the model's tokens; unknown words are left out (the model cannot be made to emit
    a word it does not have)."""
    return [t for t in tokenizer.split(text)[0] if t != UNK]


@dataclass(frozen=True)
class Verdict:
    better: bool      # the forced translation is more probable than beam search's
    ratio: float      # P(forced) / P(beam search's choice)


def compare(forced_log_prob: float, chosen_log_prob: float) -> Verdict:
    """Is the forced translation more probable than the chosen one? ln P in nats."""
    return Verdict(forced_log_prob > chosen_log_prob + 1e-9, math.exp(forced_log_prob - chosen_log_prob))
