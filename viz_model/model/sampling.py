"""Sampling the output instead of searching it: temperature, top-k and top-p (nucleus), seeded.

At each step the model's distribution over the next token is reshaped and cut, then one token is drawn:

    p_T(v) ∝ exp(logit_v / T)            temperature T: < 1 sharpens, > 1 flattens, → 0 is the argmax
    top-k: keep the k most probable tokens
    top-p: keep the smallest set of most probable tokens whose mass reaches p

and the kept probabilities are renormalised. The order (temperature, then top-k, then top-p) is the one
`transformers`' generation uses. As in beam search, the source language's words and <pad> are never written.
Every sample's reported log-probability is the model's own (before any reshaping), so it compares with the
beam's and greedy's scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .decoding import largest
from .search_record import length_normalised_score
from .tokenizer import Tokenizer
from .transformer import Transformer

MAX_TEMPERATURE = 100.0  # beyond this every kept token is about equally likely; larger values say nothing new


@dataclass(frozen=True)
class SamplingSettings:
    temperature: float = 1.0  # 0: the argmax (greedy)
    top_k: int = 0  # 0: no cut
    top_p: float = 1.0  # 1: no cut
    samples: int = 5
    seed: int = 0

    def clamped(self, vocab_size: int) -> SamplingSettings:
        """The settings within their meaningful ranges (a link or a typed number may hold anything)."""
        temperature = 0.0 if not math.isfinite(self.temperature) else min(max(self.temperature, 0.0), MAX_TEMPERATURE)
        return SamplingSettings(
            temperature=temperature,
            top_k=min(max(int(self.top_k), 0), vocab_size),
            top_p=min(max(float(self.top_p), 0.0), 1.0) if math.isfinite(self.top_p) else 1.0,
            samples=max(1, int(self.samples)),
            seed=int(self.seed),
        )


DEFAULT_SAMPLING = SamplingSettings()


@dataclass
class Cut:
    """One step's distribution before and after reshaping. All (V,) over the whole vocabulary."""

    model_probs: torch.Tensor  # the model's own softmax, blocked tokens at 0
    tempered: torch.Tensor  # after temperature (renormalised over the writable tokens)
    kept_by_k: torch.Tensor  # bool: survives top-k
    kept: torch.Tensor  # bool: survives top-k and top-p
    final: torch.Tensor  # what is drawn from: tempered, cut, renormalised

    @property
    def kept_count(self) -> int:
        """Tokens that can still be drawn (at temperature 0, or one so low the rest round to 0, just one)."""
        return int((self.final > 0).sum())


def cut_distribution(logits: torch.Tensor, blocked: torch.Tensor, settings: SamplingSettings) -> Cut:
    """logits (V,), blocked (V,) bool -> the step's distribution before and after temperature, top-k, top-p.

    Top-p keeps the sorted prefix up to and including the first token at which the cumulative mass reaches
    p, so the most probable token always stays (top-p 0 is the argmax) and top-p 1 keeps every token."""
    model_probs = logits.float().softmax(-1).masked_fill(blocked, 0.0)  # the model's own, not renormalised
    logits = logits.float().masked_fill(blocked, float("-inf"))
    if settings.temperature <= 0:  # the limit T → 0: all the mass on the argmax
        tempered = torch.zeros_like(model_probs)
        tempered[logits.argmax()] = 1.0
    else:
        tempered = (logits / settings.temperature).softmax(-1)
    writable = ~blocked
    kept_by_k = writable.clone()
    # The vocabulary is sorted only for the cut that needs it: a sort of (V,) for each sample at each step was
    # a quarter of the samples' time.
    if 0 < settings.top_k < writable.sum() and settings.top_p >= 1.0:
        kept_by_k = torch.zeros_like(writable)
        kept_by_k[torch.from_numpy(largest(tempered.masked_fill(blocked, -1.0).numpy(), settings.top_k))] = True
    elif settings.top_k > 0 or settings.top_p < 1.0:
        order = tempered.argsort(descending=True, stable=True)
        rank = torch.empty_like(order)
        rank[order] = torch.arange(order.numel())
        if settings.top_k > 0:
            kept_by_k &= rank < settings.top_k
    kept = kept_by_k
    if settings.top_p < 1.0:
        masked = torch.where(kept_by_k, tempered, torch.zeros_like(tempered))
        sorted_probs = masked[order]
        mass = sorted_probs.sum()
        cumulative = sorted_probs.cumsum(0) / mass
        # Tokens before the first prefix that reaches p, plus that token: the mass before it is still below p
        # (by more than float32's rounding, so a prefix whose mass is exactly p, as 0.5 + 0.3 for 0.8, ends it).
        inside = (cumulative - sorted_probs / mass) < settings.top_p - 1e-6
        inside[0] = True
        in_nucleus = torch.zeros_like(kept_by_k)
        in_nucleus[order] = inside
        kept = kept_by_k & in_nucleus
    final = torch.where(kept, tempered, torch.zeros_like(tempered))
    final = final / final.sum()
    return Cut(model_probs, tempered, kept_by_k, kept, final)


def draw(probs: torch.Tensor, generator: torch.Generator) -> int:
    """One index drawn from `probs` (V,) (summing to 1, zeros never drawn) by inverse transform sampling: the
    first index whose cumulative probability exceeds a uniform draw. One cumulative sum of the vocabulary,
    where torch.multinomial over it took a sixth of the samples' time."""
    cumulative = probs.double().cumsum(0)
    u = torch.rand((), dtype=torch.float64, generator=generator) * cumulative[-1]
    index = int(torch.searchsorted(cumulative, u, right=True))
    if index >= probs.numel():  # u rounded up to the total: the last index that can be drawn
        index = int(torch.nonzero(probs)[-1])
    return index


@dataclass
class Sample:
    tokens: list[str]  # the generated tokens, ending with <eos> when the sample finished
    log_prob: float  # ln P(tokens | x) under the model's own distribution
    score: float  # log_prob / L^α
    finished: bool
    kept_counts: list[int]  # how many tokens survived the cut at each step

    @property
    def length(self) -> int:
        return len(self.tokens)


@torch.inference_mode()
def sample(
    model: Transformer,
    tokenizer: Tokenizer,
    source_ids: list[int],
    settings: SamplingSettings,
    length_penalty: float,
    max_len: int | None = None,
) -> list[Sample]:
    """`settings.samples` outputs drawn one token at a time, all samples as one batch; repeatable: the draws
    come from a generator seeded with `settings.seed`."""
    settings = settings.clamped(len(tokenizer))
    max_len = min(max_len or model.config.max_len, model.config.max_len)
    generator = torch.Generator().manual_seed(settings.seed)
    memory, source_allowed = model.encode(torch.tensor([source_ids]))[:2]
    memory_kv = model.memory_keys_values(memory)
    blocked = torch.zeros(len(tokenizer), dtype=torch.bool)  # (V,) as in beam search
    blocked[tokenizer.foreign_ids(source_ids[0])] = True
    blocked[tokenizer.pad_id] = True
    n = settings.samples
    ids = [[tokenizer.bos_id] for _ in range(n)]  # each sample's decoder input so far
    log_probs = [0.0] * n
    done = [False] * n
    kept_counts: list[list[int]] = [[] for _ in range(n)]
    past = None
    for _ in range(max_len):
        logits, past = model.decode_step(torch.tensor([row[-1] for row in ids]), memory_kv, source_allowed, past)
        own = logits.float().log_softmax(-1)  # (n, V) the model's own, as the beam's scores
        for i in range(n):
            if done[i]:
                continue
            cut = cut_distribution(logits[i], blocked, settings)
            token = draw(cut.final, generator)
            ids[i].append(token)
            log_probs[i] += float(own[i, token])
            kept_counts[i].append(cut.kept_count)
            done[i] = token == tokenizer.eos_id
        if all(done):  # a finished row is fed its <eos> again until all are; its outputs are not read
            break
    out = []
    for i in range(n):
        tokens = tokenizer.tokens(ids[i][1 : len(kept_counts[i]) + 1])
        out.append(
            Sample(
                tokens,
                log_probs[i],
                length_normalised_score(log_probs[i], len(tokens), length_penalty),
                done[i],
                kept_counts[i],
            )
        )
    return out
