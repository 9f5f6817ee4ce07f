"""Evaluation metrics of course §7: BLEU, ROUGE-N and perplexity, with all their working shown.

Inputs are token lists (already tokenized, e.g. by viz_model.model.tokenizer); nothing here tokenizes.
BLEU follows Papineni et al. (2002) and matches sacrebleu with tokenize="none", smooth_method="none",
effective_order=False (checked in tests/test_metrics.py).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from viz_model.model.tokenizer import UNK


def ngrams(tokens: list[str], n: int) -> Counter:
    """Counts of every n-gram (a tuple of n tokens) in `tokens`."""
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


# ----------------------------------------------------------------------------------------------- BLEU


@dataclass
class BleuResult:
    """BLEU and its parts. Lists are indexed by n-1 (n = 1..max_n)."""

    matches: list[int]  # numerator of p_n: clipped candidate n-gram matches
    totals: list[int]  # denominator of p_n: candidate n-grams
    precisions: list[float]  # p_n = matches / totals (0 when totals = 0)
    weights: list[float]  # w_n, summing to 1 (uniform 1/max_n by default)
    brevity_penalty: float  # BP in [0, 1]
    candidate_length: int  # c, in tokens (summed over the corpus for corpus_bleu)
    reference_length: int  # r, the closest reference length (summed over the corpus)
    score: float  # BLEU in [0, 1]

    @property
    def score_100(self) -> float:
        """BLEU on the 0-100 scale that sacrebleu and papers report."""
        return 100.0 * self.score


def clipped_counts(candidate: list[str], references: list[list[str]], n: int) -> tuple[int, int]:
    """(Σ min(count in candidate, max count in any reference), Σ count in candidate) for n-grams.

    Clipping stops "the the the" from scoring on a reference with one "the" (course §7).
    """
    cand = ngrams(candidate, n)
    max_ref: Counter = Counter()
    for ref in references:
        max_ref |= ngrams(ref, n)  # | keeps the maximum count per n-gram
    matches = sum(min(count, max_ref[gram]) for gram, count in cand.items())
    return matches, sum(cand.values())


def closest_reference_length(candidate_length: int, reference_lengths: list[int]) -> int:
    """The reference length closest to the candidate's; ties go to the shorter (sacrebleu, Papineni).

    The course states BP with the *shortest* reference (l_s). With a single reference the two agree; with
    several, "closest" is what sacrebleu and the original BLEU script use, so we follow it.
    """
    return min(reference_lengths, key=lambda r: (abs(r - candidate_length), r))


def brevity_case(candidate_length: int, reference_length: int) -> str:
    """Which case of the brevity penalty applies: "longer" (c > r: BP = 1), "equal" (c = r: BP = e^0 = 1),
    "empty" (c = 0 < r: BP = 0, the limit as c → 0) or "shorter" (0 < c < r: BP = e^(1 − r/c))."""
    if candidate_length > reference_length:
        return "longer"
    if candidate_length == reference_length:
        return "equal"
    return "empty" if candidate_length == 0 else "shorter"


def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """BP = 1 if c ≥ r else exp(1 − r/c); 0 for an empty candidate."""
    case = brevity_case(candidate_length, reference_length)
    if case in ("longer", "equal"):
        return 1.0
    if case == "empty":
        return 0.0
    return math.exp(1.0 - reference_length / candidate_length)


def bleu_from_counts(
    matches: list[int], totals: list[int], candidate_length: int, reference_length: int, weights=None
) -> BleuResult:
    """BLEU = BP · exp(Σ w_n log p_n) from the sufficient statistics; 0 if any p_n = 0 (no smoothing)."""
    max_n = len(matches)
    weights = [1.0 / max_n] * max_n if weights is None else list(weights)
    precisions = [m / t if t else 0.0 for m, t in zip(matches, totals)]
    bp = brevity_penalty(candidate_length, reference_length)
    if min(precisions) == 0.0:
        score = 0.0  # log 0 = -inf: one order with no match zeroes the geometric mean
    else:
        score = bp * math.exp(sum(w * math.log(p) for w, p in zip(weights, precisions)))
    return BleuResult(list(matches), list(totals), precisions, weights, bp, candidate_length, reference_length, score)


def _sentence_stats(candidate, references, max_n):
    counts = [clipped_counts(candidate, references, n) for n in range(1, max_n + 1)]
    reference_length = closest_reference_length(len(candidate), [len(r) for r in references])
    return [m for m, _ in counts], [t for _, t in counts], len(candidate), reference_length


def bleu(candidate: list[str], references: list[list[str]], max_n: int = 4, weights=None) -> BleuResult:
    """Sentence BLEU of one candidate against one or more references (token lists)."""
    return bleu_from_counts(*_sentence_stats(candidate, references, max_n), weights=weights)


def corpus_bleu(
    candidates: list[list[str]], references_list: list[list[list[str]]], max_n: int = 4, weights=None
) -> BleuResult:
    """Corpus BLEU: matches, totals and lengths are summed over sentences before dividing (not an
    average of sentence scores), as in Papineni et al. and sacrebleu. references_list[i] holds the
    references of candidates[i]."""
    if len(candidates) != len(references_list):
        raise ValueError("one list of references per candidate")
    matches, totals, c, r = [0] * max_n, [0] * max_n, 0, 0
    for candidate, references in zip(candidates, references_list):
        m, t, cl, rl = _sentence_stats(candidate, references, max_n)
        matches = [a + b for a, b in zip(matches, m)]
        totals = [a + b for a, b in zip(totals, t)]
        c, r = c + cl, r + rl
    return bleu_from_counts(matches, totals, c, r, weights=weights)


# ---------------------------------------------------------------------------------------------- ROUGE


@dataclass
class RougeResult:
    """ROUGE-N recall and its parts."""

    n: int
    matches: int  # Σ over references of reference n-grams also in the candidate (clipped)
    total: int  # Σ over references of reference n-grams
    recall: float  # matches / total (0 when total = 0)


def rouge_n(candidate: list[str], references: list[list[str]], n: int) -> RougeResult:
    """ROUGE-N (Lin 2004) = Σ_refs Σ_gram min(count in ref, count in candidate) / Σ_refs Σ_gram count in ref.

    A recall: how much of the references the candidate covers. With several references the counts are
    summed over references (each reference's n-grams matched against the candidate separately).
    """
    cand = ngrams(candidate, n)
    matches = total = 0
    for ref in references:
        ref_counts = ngrams(ref, n)
        matches += sum(min(count, cand[gram]) for gram, count in ref_counts.items())
        total += sum(ref_counts.values())
    return RougeResult(n, matches, total, matches / total if total else 0.0)


# ----------------------------------------------------------------------------------------- perplexity


@dataclass
class PerplexityResult:
    """Perplexity and the per-token working."""

    perplexity: float  # base ** (mean negative log-probability); same value for any base
    probabilities: np.ndarray  # (T,) p(x_t | x_<t)
    log_probs: np.ndarray  # (T,) log_base p(x_t | x_<t)
    mean_negative_log_prob: float  # cross-entropy per token, in bits (base 2) or nats (base e)
    base: float


def perplexity(token_log_probs, base: float = 2) -> PerplexityResult:
    """PPL = base^(-(1/T) Σ log_base p_t) = exp(-(1/T) Σ ln p_t), the inverse geometric mean of p_t.

    token_log_probs: (T,) natural-log probabilities ln p(x_t | x_<t), as a model's log_softmax gives.
    base only changes the units shown (2 -> bits, math.e -> nats), not the perplexity.
    """
    ln_p = np.asarray(token_log_probs, dtype=np.float64)
    if ln_p.size == 0:
        raise ValueError("perplexity of zero tokens is undefined")
    log_p = ln_p / math.log(base)  # change of base: log_b p = ln p / ln b
    mean_nll = float(-log_p.mean())
    return PerplexityResult(float(base**mean_nll), np.exp(ln_p), log_p, mean_nll, base)


def metric_tokens(tokenizer, text: str) -> list[str]:
    """Tokens of `text` for BLEU/ROUGE: the model's tokenization, with each `<unk>` put back as the word
    it stands for (two different unknown words must not count as a match)."""
    tokens, unknown = tokenizer.split(text)
    spans = iter(unknown)
    return [next(spans, tok) if tok == UNK else tok for tok in tokens]


@dataclass
class NgramRow:
    gram: tuple[str, ...]
    count: int  # times in the candidate
    reference_max: int  # most times in any one reference
    clipped: int  # min(count, reference_max): what BLEU's p_n counts as matched


def ngram_rows(candidate: list[str], references: list[list[str]], n: int) -> list[NgramRow]:
    """Each distinct n-gram of the candidate (in order of first appearance) with its clipped count;
    Σ clipped / Σ count is BLEU's p_n (clipped_counts)."""
    counts = ngrams(candidate, n)
    reference_max: dict = {}
    for ref in references:
        for gram, c in ngrams(ref, n).items():
            reference_max[gram] = max(reference_max.get(gram, 0), c)
    return [NgramRow(g, c, reference_max.get(g, 0), min(c, reference_max.get(g, 0))) for g, c in counts.items()]


# Course §7: reference ABCDEF, prediction ABBCD -> p1 = 4/5, p2 = 3/4, p3 = 1/3, p4 = 0.
COURSE_BLEU_REFERENCE = ("A", "B", "C", "D", "E", "F")
COURSE_BLEU_CANDIDATE = ("A", "B", "B", "C", "D")


def rouge_table(candidate: list[str], reference: list[str], max_n: int = 4) -> list[RougeResult]:
    """ROUGE-1 … ROUGE-max_n of one candidate against one reference."""
    return [rouge_n(candidate, [reference], n) for n in range(1, max_n + 1)]


def candidate_tokens(tokenizer, text: str, output_text: str, output_tokens: list[str]) -> list[str]:
    """The tokens to score for a candidate box that starts as the model's output: the model's own tokens
    while the text is unchanged, else the edited text tokenized like any input (metric_tokens)."""
    return list(output_tokens) if text == output_text else metric_tokens(tokenizer, text)
