"""Next-word prediction before attention: 1-gram and 3-gram counts from the training corpus against the
decoder's own next-token probabilities on the same prefix.

A 3-gram model predicts the next word from the two before it alone: p(w | a, b) = count(a b w) / count(a b),
and knows nothing of a prefix it never counted. The decoder reads the whole prefix and the whole source
sentence through attention, so it can give the right word where the counts give nothing or the wrong one.
Counts are over the target side of the shipped training split, read by the model's own tokenizer, with
<bos> <bos> before each sentence and <eos> after it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from viz_model.corpus import read_split
from viz_model.model.tokenizer import BOS, EOS

TOP = 10


@dataclass
class NgramCounts:
    unigrams: Counter  # word -> count (<eos> included, <bos> not)
    bigram_contexts: Counter  # (a, b) -> how often a b was followed by anything
    followers: dict  # (a, b) -> Counter of the words that followed a b
    total: int  # words counted (the 1-gram denominator)
    sentences: int


def count_ngrams(sentences: Iterable[list[str]]) -> NgramCounts:
    unigrams, contexts, followers = Counter(), Counter(), {}
    n = 0
    for tokens in sentences:
        words = [BOS, BOS, *tokens, EOS]
        unigrams.update(words[2:])
        for a, b, w in zip(words, words[1:], words[2:]):
            followers.setdefault((a, b), Counter())[w] += 1
            contexts[a, b] += 1
        n += 1
    return NgramCounts(unigrams, contexts, followers, sum(unigrams.values()), n)


@dataclass
class NextWordRow:
    token: str
    decoder: float  # p(token | the whole prefix, the source): the model's own
    unigram: float  # count(token) / total
    trigram: float | None  # count(a b token) / count(a b); None when a b was never counted
    trigram_count: int


@dataclass
class NextWord:
    prefix: list[str]  # the decoder's input so far (without <bos>)
    context: tuple[str, str]  # the two words the 3-gram model sees
    context_count: int  # how often that context occurs in the corpus
    rows: list[NextWordRow]  # the decoder's TOP most probable tokens, then the 3-gram model's best if not among them
    trigram_best: str | None  # the 3-gram model's most probable next word


def next_word(counts: NgramCounts, trace, position: int, vocab: list[str], top: int = TOP) -> NextWord:
    """At decoder `position` of a teacher-forced trace (0: after <bos>): the decoder's top tokens beside the
    counts' probabilities for them."""
    prefix = list(trace.target_tokens[1 : position + 1])
    padded = [BOS, BOS, *prefix]
    context = (padded[-2], padded[-1])
    context_count = counts.bigram_contexts.get(context, 0)
    followers = counts.followers.get(context, {})
    trigram_best = max(followers, key=followers.get) if followers else None
    probs = trace.next_token_probs[position]  # (V,)
    order = probs.argsort()[::-1][:top]
    tokens = [vocab[i] for i in order]
    if trigram_best is not None and trigram_best not in tokens:
        tokens.append(trigram_best)
    index = {tok: i for i, tok in enumerate(vocab)}
    rows = []
    for tok in tokens:
        count = followers.get(tok, 0)
        rows.append(
            NextWordRow(
                tok,
                float(probs[index[tok]]) if tok in index else 0.0,
                counts.unigrams.get(tok, 0) / counts.total if counts.total else 0.0,
                count / context_count if context_count else None,
                count,
            )
        )
    return NextWord(prefix, context, context_count, rows, trigram_best)


def corpus_sentences(tokenizer, target_language: str, rows: list[dict] | None = None) -> list[list[str]]:
    """The target side of the training rows (default: the shipped training split), read by the model's
    tokenizer (English lower-cased by it)."""
    column = "zh" if target_language == "zh" else "en"
    rows = read_split("train") if rows is None else rows
    return [tokenizer.split(r[column])[0] for r in rows if r.get(column)]
