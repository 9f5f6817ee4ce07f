"""Choosing the output: beam search (greedy is beam width 1), forced decoding and sequence scoring.

p(y_1..y_L | x) = Π_t p(y_t | y_<t, x). Exhaustive search would score n^L sequences; beam search keeps the
k best prefixes at every step and so scores about k·n per step. Every step is recorded in a
`SearchRecord` so the app can replay it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from .search_record import Candidate, Hypothesis, SearchRecord, SearchStep, length_normalised_score
from .tokenizer import Tokenizer
from .transformer import Transformer

DEFAULT_LENGTH_PENALTY = 0.75  # α in score = log P / L^α (course §6)


def largest(values: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest values, largest first, equal values in index order: the first k of a stable
    descending argsort, without sorting all (V,) of them (a page shows the top 5 of 15,000 at every step)."""
    if len(values) <= k:
        return np.argsort(-values, kind="stable")
    kth = np.partition(values, len(values) - k)[len(values) - k]
    candidates = np.flatnonzero(values >= kth)  # every value tied with the k-th, in index order
    return candidates[np.argsort(-values[candidates], kind="stable")][:k]


@dataclass
class _Beam:
    ids: list[int]  # decoder input so far, starting with <bos>
    log_prob: float  # ln P of the generated tokens
    node: int | None  # id of its last candidate in the record


@torch.inference_mode()
def beam_search(
    model: Transformer,
    tokenizer: Tokenizer,
    source_ids: list[int],
    beam_width: int = 4,
    max_len: int | None = None,
    length_penalty: float = DEFAULT_LENGTH_PENALTY,
    prefix: Sequence[int] = (),
    alternatives: int = 3,
    min_len: int = 0,
    encoded: tuple[torch.Tensor, torch.Tensor] | None = None,
) -> SearchRecord:
    """Beam search from one source sentence, recording every step.

    All live beams are decoded as one batch per step. At each step the `slots` best extensions (ranked by
    ln P; all have the same length) are kept, where slots = beam_width − finished hypotheses: a hypothesis
    that ends with <eos> leaves the beam and takes its slot with it. The search ends when every slot is
    finished or `max_len` tokens were generated. Hypotheses are ranked by ln P / L^α.

    Only the top max(slots, `alternatives`) extensions of each beam are recorded: the others could not have
    been kept (the global top k is always inside the per-beam top k), and a tree of 1,000 pruned leaves
    per step teaches nothing. `prefix` forces the first tokens ("what if the model had chosen this word?");
    `min_len` forbids <eos> before that many tokens (used to measure the cost of long outputs). `encoded`:
    (memory, source_allowed) that `model.encode` returned for these source ids, when the caller has them
    (`Translator.translate` runs the encoder once for the search and the trace).
    """
    if beam_width < 1:
        raise ValueError("beam_width must be at least 1")
    max_len = min(max_len or model.config.max_len, model.config.max_len)
    memory, source_allowed = encoded or model.encode(torch.tensor([source_ids]))[:2]
    if memory.shape[:2] != (1, len(source_ids)):
        raise ValueError("`encoded` is not the encoder's output for these source ids")
    # The encoder output's keys and values are computed once and broadcast over the beams; each beam's
    # self-attention keys and values grow by one position per step (rows of `past`, one per alive beam).
    memory_kv = model.memory_keys_values(memory)
    # Never proposed: <pad>, which is not a word (the full decoder would also hide it from later positions,
    # which the key/value cache does not, so allowing it would make the two disagree), and the words of the
    # source language. The probabilities stay the model's own (not renormalised), so every number the tree
    # shows is the one the model computed.
    blocked = torch.zeros(len(tokenizer), dtype=torch.bool)  # (V,)
    blocked[tokenizer.foreign_ids(source_ids[0])] = True
    blocked[tokenizer.pad_id] = True
    past = None
    alive = [_Beam([tokenizer.bos_id], 0.0, None)]
    finished: list[Hypothesis] = []
    steps: list[SearchStep] = []
    next_node = 0

    def hypothesis(beam_ids: list[int], log_prob: float, node: int, done: bool) -> Hypothesis:
        tokens = tokenizer.tokens(beam_ids[1:])
        return Hypothesis(
            tokens, log_prob, len(tokens), length_normalised_score(log_prob, len(tokens), length_penalty), done, node
        )

    for step in range(max_len):
        slots = 1 if step < len(prefix) else beam_width - len(finished)
        if slots <= 0 or not alive:
            break
        logits, past = model.decode_step(torch.tensor([b.ids[-1] for b in alive]), memory_kv, source_allowed, past)
        model_log_probs = logits.log_softmax(-1)  # (n, V), the model's own
        log_probs = model_log_probs.masked_fill(blocked, float("-inf"))
        if step + 1 < min_len:
            log_probs[:, tokenizer.eos_id] = float("-inf")
        top_lp, top_ids = log_probs.topk(min(max(slots, alternatives), log_probs.size(-1)), dim=-1)

        scored = []  # (cumulative ln P, beam index, token id, ln p)
        for b, beam in enumerate(alive):
            for lp, tok in zip(top_lp[b].tolist(), top_ids[b].tolist()):
                scored.append((beam.log_prob + lp, b, tok, lp))
            if step < len(prefix) and prefix[step] not in top_ids[b].tolist():
                lp = model_log_probs[b, prefix[step]].item()
                scored.append((beam.log_prob + lp, b, prefix[step], lp))
        if step < len(prefix):  # forced: the prefix token wins whatever its probability
            scored.sort(key=lambda c: (c[2] != prefix[step], -c[0]))
        else:
            scored.sort(key=lambda c: -c[0])

        candidates, new_alive, parents = [], [], []
        for rank, (cum, b, tok, lp) in enumerate(scored):
            length = step + 1
            ids = alive[b].ids + [tok]
            if rank < slots:
                status = "finished" if tok == tokenizer.eos_id else "kept"
            else:
                status = "pruned"
            candidates.append(
                Candidate(
                    step=step,
                    parent=alive[b].node,
                    token=tokenizer.vocab[tok],
                    prob=math.exp(lp),
                    log_prob=lp,
                    cumulative_log_prob=cum,
                    length=length,
                    score=length_normalised_score(cum, length, length_penalty),
                    status=status,
                    hypothesis=next_node,
                )
            )
            if status == "finished":
                finished.append(hypothesis(ids, cum, next_node, True))
            elif status == "kept":
                new_alive.append(_Beam(ids, cum, next_node))
                parents.append(b)
            next_node += 1
        steps.append(SearchStep(step, candidates))
        alive = new_alive
        rows = torch.tensor(parents, dtype=torch.long)
        past = [(k[rows], v[rows]) for k, v in past]  # each kept beam takes its parent's

    # Beams still open at max_len are returned too, marked unfinished, so a cut-off output is visible.
    hypotheses = finished + [hypothesis(b.ids, b.log_prob, b.node, False) for b in alive]
    hypotheses.sort(key=lambda h: -h.score)
    return SearchRecord(
        steps=steps, hypotheses=hypotheses, beam_width=beam_width, length_penalty_alpha=length_penalty, max_len=max_len
    )


def greedy_search(
    model: Transformer, tokenizer: Tokenizer, source_ids: list[int], max_len: int | None = None, alternatives: int = 3
) -> SearchRecord:
    """Take the most probable token at every step: beam search with k = 1."""
    return beam_search(
        model, tokenizer, source_ids, beam_width=1, max_len=max_len, length_penalty=0.0, alternatives=alternatives
    )


@torch.inference_mode()
def greedy_batch(
    model: Transformer, tokenizer: Tokenizer, sources: list[list[int]], max_len: int | None = None
) -> list[list[int]]:
    """Greedy decoding of many sentences at once (for evaluation); returns ids without <bos>/<eos>."""
    max_len = min(max_len or model.config.max_len, model.config.max_len)
    width = max(len(s) for s in sources)
    src = torch.full((len(sources), width), tokenizer.pad_id)
    for i, s in enumerate(sources):
        src[i, : len(s)] = torch.tensor(s)
    memory, source_allowed, _ = model.encode(src)
    writable = torch.ones(len(sources), len(tokenizer), dtype=torch.bool)  # (B, V)
    for i, s in enumerate(sources):
        writable[i, tokenizer.foreign_ids(s[0])] = False
    out = torch.full((len(sources), 1), tokenizer.bos_id)
    done = torch.zeros(len(sources), dtype=torch.bool)
    for _ in range(max_len):
        logits, _ = model.decode(out, memory, source_allowed)
        logits = logits[:, -1].masked_fill(~writable, float("-inf"))  # as beam_search: no source words
        nxt = logits.argmax(-1)
        nxt = torch.where(done, torch.full_like(nxt, tokenizer.pad_id), nxt)
        out = torch.cat([out, nxt[:, None]], dim=1)
        done |= nxt == tokenizer.eos_id
        if done.all():
            break
    results = []
    for row in out[:, 1:].tolist():
        results.append(
            row[: row.index(tokenizer.eos_id)] if tokenizer.eos_id in row else [t for t in row if t != tokenizer.pad_id]
        )
    return results


@dataclass
class SequenceScore:
    """How probable the model finds one given translation, token by token (teacher forcing)."""

    tokens: list[str]  # the target tokens followed by <eos>
    probs: list[float]  # p(y_t | y_<t, x) for each of them
    log_probs: list[float]  # ln of the above
    log_prob: float  # ln P(y | x), the sum

    @property
    def prob(self) -> float:
        return math.exp(self.log_prob)


@torch.inference_mode()
def score_target(
    model: Transformer, tokenizer: Tokenizer, source_ids: list[int], target_ids: list[int]
) -> SequenceScore:
    """P(target | source) under the model, with the probability of each token (target without <bos>/<eos>)."""
    decoder_input = [tokenizer.bos_id] + list(target_ids)
    predicted = list(target_ids) + [tokenizer.eos_id]
    if len(decoder_input) > model.config.max_len:
        raise ValueError(f"the target is longer than the model's {model.config.max_len} positions")
    memory, source_allowed, _ = model.encode(torch.tensor([source_ids]))
    logits, _ = model.decode(torch.tensor([decoder_input]), memory, source_allowed)
    log_probs = logits[0].log_softmax(-1)[torch.arange(len(predicted)), torch.tensor(predicted)].tolist()
    return SequenceScore(
        tokenizer.tokens(predicted), [math.exp(lp) for lp in log_probs], log_probs, float(sum(log_probs))
    )
