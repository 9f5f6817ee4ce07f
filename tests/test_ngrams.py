"""Next-word prediction by counts against the decoder: the counts recomputed here from the training split's
own text, the decoder's probabilities from the trace, and the Decoding lab's n-gram section."""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import errors, markup, markup_grouped_bars, open_app, table, translator
from viz_model.corpus import read_split
from viz_model.lessons.ngrams import corpus_sentences, count_ngrams, next_word

TEXT, DIRECTION = "I want to eat something.", "en2zh"


@cache
def counts():
    return count_ngrams(corpus_sentences(translator().tokenizer, "zh"))


def test_counts_and_the_next_word_against_a_count_made_here():
    trace = translator().translate(TEXT, DIRECTION).trace
    position = 3  # after <bos> and two words
    found = next_word(counts(), trace, position, translator().tokenizer.vocab)
    a, b = trace.target_tokens[position - 1], trace.target_tokens[position]
    assert found.context == (a, b)
    followers, context = Counter(), 0
    for row in read_split("train"):
        words = ["<bos>", "<bos>", *translator().tokenizer.split(row["zh"])[0], "<eos>"]
        for x, y, w in zip(words, words[1:], words[2:]):
            if (x, y) == (a, b):
                followers[w] += 1
                context += 1
    assert found.context_count == context and found.trigram_best == followers.most_common(1)[0][0]
    for r in found.rows:
        assert r.trigram == pytest.approx(followers[r.token] / context) and r.trigram_count == followers[r.token]
    top = np.argsort(trace.next_token_probs[position])[::-1][:3]
    assert [r.token for r in found.rows[:3]] == [translator().tokenizer.vocab[i] for i in top]
    assert found.rows[0].decoder == pytest.approx(float(trace.next_token_probs[position, top[0]]))


def test_the_counts_of_a_two_sentence_corpus():
    small = count_ngrams([["a", "b", "c"], ["a", "b", "d"]])
    assert small.bigram_contexts["a", "b"] == 2 and small.followers["a", "b"] == Counter({"c": 1, "d": 1})
    assert small.unigrams["<eos>"] == 2 and small.total == 8 and small.sentences == 2


@pytest.mark.apptest
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_ngram_section(lang):
    at = open_app("pages/decoding.py", text=TEXT, lang=lang, section="tab_ngram", gstep="4")
    assert errors(at) == []
    trace = translator().translate(TEXT, DIRECTION).trace
    found = next_word(counts(), trace, 3, translator().tokenizer.vocab)
    css_class, html = markup(at, "decoding.ngram")
    tokens, (decoder, trigram, unigram), cut = markup_grouped_bars(html)
    assert css_class == "decoding-ngram" and tokens == [r.token for r in found.rows] and cut is None
    np.testing.assert_allclose(decoder, [r.decoder for r in found.rows], atol=1e-6)
    trigram_expected = [np.nan if r.trigram is None else r.trigram for r in found.rows]
    np.testing.assert_allclose(trigram, trigram_expected, atol=1e-6)  # an unseen trigram shows no value
    np.testing.assert_allclose(unigram, [r.unigram for r in found.rows], atol=1e-6)
    assert t("decoding.ngram_trigram", lang) in html
    shown = table(at, "decoding.ngram_count", lang)
    assert list(shown[t("decoding.ngram_count", lang)]) == [r.trigram_count for r in found.rows]
    assert [b.proto.label for b in at.get("download_button")] == [
        t("common.download_svg", lang), t("common.download_csv", lang)
    ]  # fmt: skip
