import math
import random
from fractions import Fraction

import pytest
from sacrebleu.metrics import BLEU

from viz_model.lessons.metrics import (
    COURSE_BLEU_CANDIDATE,
    COURSE_BLEU_REFERENCE,
    bleu,
    brevity_penalty,
    candidate_tokens,
    closest_reference_length,
    corpus_bleu,
    ngram_rows,
    perplexity,
    rouge_n,
    rouge_table,
)

ALPHABET = "ABCDE"


def test_course_bleu_example():
    # course §7: reference ABCDEF, prediction ABBCD -> p1 = 4/5, p2 = 3/4, p3 = 1/3, p4 = 0
    result = bleu(list("ABBCD"), [list("ABCDEF")])
    assert [Fraction(m, t) for m, t in zip(result.matches, result.totals)] == [
        Fraction(4, 5),
        Fraction(3, 4),
        Fraction(1, 3),
        Fraction(0, 2),
    ]
    assert result.totals == [5, 4, 3, 2]
    assert result.score == 0.0  # p4 = 0 and no smoothing
    assert result.brevity_penalty == pytest.approx(math.exp(1 - 6 / 5))
    # up to trigrams it is BP · (4/5 · 3/4 · 1/3)^(1/3)
    tri = bleu(list("ABBCD"), [list("ABCDEF")], max_n=3)
    assert tri.score == pytest.approx(math.exp(1 - 6 / 5) * (4 / 5 * 3 / 4 * 1 / 3) ** (1 / 3))


def test_perfect_and_empty_candidates():
    assert bleu(list("ABCDE"), [list("ABCDE")]).score == pytest.approx(1.0)
    empty = bleu([], [list("ABC")])
    assert empty.score == 0.0 and empty.brevity_penalty == 0.0 and empty.score_100 == 0.0


def test_closest_not_shortest_reference():
    # the course states BP with the shortest reference; sacrebleu (and we) use the closest
    assert closest_reference_length(5, [2, 6, 9]) == 6
    assert closest_reference_length(5, [4, 6]) == 4  # tie -> shorter
    assert brevity_penalty(5, 6) == pytest.approx(math.exp(1 - 6 / 5))
    assert brevity_penalty(7, 6) == 1.0


def _mutated(tokens, rng):
    out = list(tokens)
    for _ in range(rng.randint(0, 3)):
        op = rng.choice("sid")
        i = rng.randrange(len(out) + 1)
        if op == "i" or not out:
            out.insert(i, rng.choice(ALPHABET))
        elif op == "s":
            out[min(i, len(out) - 1)] = rng.choice(ALPHABET)
        elif len(out) > 1:
            del out[min(i, len(out) - 1)]
    return out[:15] or [rng.choice(ALPHABET)]


def _random_pair(rng, n_refs):
    base = [rng.choice(ALPHABET) for _ in range(rng.randint(1, 15))]
    references = [_mutated(base, rng) for _ in range(n_refs)]
    candidate = _mutated(base, rng) if rng.random() < 0.8 else [rng.choice(ALPHABET) for _ in range(rng.randint(1, 15))]
    return candidate, references


def _assert_same(ours, theirs):
    assert ours.score_100 == pytest.approx(theirs.score, abs=1e-6)
    assert ours.matches == list(theirs.counts)
    assert ours.totals == list(theirs.totals)
    assert ours.candidate_length == theirs.sys_len and ours.reference_length == theirs.ref_len
    assert ours.brevity_penalty == pytest.approx(theirs.bp, abs=1e-12)


SACRE = BLEU(tokenize="none", smooth_method="none", effective_order=False)


def test_sentence_bleu_matches_sacrebleu():
    rng = random.Random(0)
    nonzero = 0
    for _ in range(400):
        candidate, references = _random_pair(rng, rng.randint(1, 3))
        ours = bleu(candidate, references)
        theirs = SACRE.sentence_score(" ".join(candidate), [" ".join(r) for r in references])
        _assert_same(ours, theirs)
        nonzero += ours.score > 0
    assert nonzero > 100  # the comparison exercised real 4-gram matches, not only zeros


def test_corpus_bleu_matches_sacrebleu():
    rng = random.Random(1)
    for _ in range(30):
        pairs = [_random_pair(rng, 2) for _ in range(rng.randint(1, 12))]
        candidates = [c for c, _ in pairs]
        references = [r for _, r in pairs]
        ours = corpus_bleu(candidates, references)
        streams = [[" ".join(r[k]) for r in references] for k in range(2)]
        theirs = SACRE.corpus_score([" ".join(c) for c in candidates], streams)
        _assert_same(ours, theirs)


def test_rouge_hand_example():
    # reference "the cat sat on the mat", candidate "the cat on the mat"
    ref = ["the", "cat", "sat", "on", "the", "mat"]
    cand = ["the", "cat", "on", "the", "mat"]
    r1 = rouge_n(cand, [ref], 1)
    assert (r1.matches, r1.total) == (5, 6)  # "sat" missed; "the" x2 matched twice
    r2 = rouge_n(cand, [ref], 2)
    assert (r2.matches, r2.total) == (3, 5)  # the cat, on the, the mat
    assert r2.recall == pytest.approx(3 / 5)
    # two references: counts summed over references (Lin 2004)
    both = rouge_n(cand, [ref, ["a", "cat", "on", "a", "mat"]], 1)
    assert (both.matches, both.total) == (5 + 3, 6 + 5)
    # clipping: candidate "the the the" matches "the" only as often as the reference has it
    assert rouge_n(["the", "the", "the"], [ref], 1).matches == 2


def test_perplexity_hand_example():
    # probabilities 0.5, 0.25 -> 2^(-(1/2)(-1 - 2)) = 2^1.5 = sqrt(8) ≈ 2.83
    ln_p = [math.log(0.5), math.log(0.25)]
    result = perplexity(ln_p)
    assert result.perplexity == pytest.approx(math.sqrt(8))
    assert round(result.perplexity, 2) == 2.83
    assert result.log_probs.tolist() == pytest.approx([-1.0, -2.0])
    assert result.mean_negative_log_prob == pytest.approx(1.5)  # bits per token
    assert result.probabilities.tolist() == pytest.approx([0.5, 0.25])
    # base e gives the same perplexity: exp(-mean ln p)
    assert perplexity(ln_p, base=math.e).perplexity == pytest.approx(math.exp(-sum(ln_p) / 2))
    # uniform over 4 tokens -> perplexity 4
    assert perplexity([math.log(0.25)] * 7).perplexity == pytest.approx(4.0)


def test_ngram_rows_clip_the_course_example():
    rows = ngram_rows(list(COURSE_BLEU_CANDIDATE), [list(COURSE_BLEU_REFERENCE)], 1)
    assert sum(r.clipped for r in rows) == 4 and sum(r.count for r in rows) == 5


def test_rouge_table_is_rouge_1_to_4():
    candidate, reference = list("ABBCD"), list("ABCDEF")
    table = rouge_table(candidate, reference)
    assert [r.n for r in table] == [1, 2, 3, 4]
    assert [r.recall for r in table] == [rouge_n(candidate, [reference], n).recall for n in range(1, 5)]


class _Split:
    """A stand-in tokenizer: words split on spaces, "zebra" unknown."""

    def split(self, text):
        tokens = text.split()
        return ["<unk>" if t == "zebra" else t for t in tokens], [t for t in tokens if t == "zebra"]


def test_the_candidate_keeps_the_models_tokens_until_edited():
    assert candidate_tokens(_Split(), "我看见", "我看见", ["我", "看见"]) == ["我", "看见"]  # unsplit text
    assert candidate_tokens(_Split(), "a zebra", "我看见", ["我", "看见"]) == ["a", "zebra"]
