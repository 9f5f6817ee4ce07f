"""The added phrasebook (`assets/corpus/phrasebook_added/`): everyday pairs first thought of in Chinese that a
continuation adds with `--added-phrasebook-repeats N`. They join training only, never hold an evaluation
sentence, give way to a translation the starting model already learnt, and come N times an epoch."""

from __future__ import annotations

from dataclasses import replace

import pytest

from viz_model import corpus
from viz_model.corpus import continuation as added_corpus
from viz_model.corpus.continuation import (
    ADDED_PHRASEBOOK,
    ADDED_PHRASEBOOK_DIR,
    continuation_pairs,
    continuation_splits,
    extended_tokenizer,
)
from viz_model.corpus.evalset import held_out_keys, normalise
from viz_model.corpus.grammar import SentencePair
from viz_model.corpus.phrasebook import load_phrasebook
from viz_model.model import checkpoint
from viz_model.model.tokenizer import contains_chinese
from viz_model.training.continuation import ContinuationConfig, repeated_pairs


def test_added_phrasebook_is_chinese_with_its_english_one_translation_each():
    rows = load_phrasebook(ADDED_PHRASEBOOK_DIR)
    assert len(rows) >= 2000
    for en, zh, topic in rows:
        assert contains_chinese(zh) and not contains_chinese(en) and topic, (en, zh)
    for side in (0, 1):  # one translation per sentence, either way
        sentences = [normalise(row[side]) for row in rows]
        assert len(set(sentences)) == len(sentences)


def _pair(en: str, zh: str, origin: str, topic: str = "chat") -> SentencePair:
    return SentencePair(tuple(en.split()), tuple(zh), topic, "both", (), origin)


def test_an_epoch_holds_each_added_pair_as_many_times_as_asked_and_the_rest_as_before():
    train = [_pair("hello .", "你好。", "phrasebook"), _pair("the cat .", "猫。", "classics", "classics")]
    train += [_pair(f"line {i} .", f"第{i}行", ADDED_PHRASEBOOK) for i in range(3)]
    cfg = ContinuationConfig(phrasebook_repeats=5, classics_repeats=7)
    for repeats in (1, 4, 10):
        epoch = repeated_pairs(train, replace(cfg, added_phrasebook_repeats=repeats))
        assert [epoch.count(p) for p in train] == [5, 7, repeats, repeats, repeats]


@pytest.mark.slow  # builds the corpus
def test_an_added_pair_gives_way_to_the_translation_the_model_learnt(tmp_path, monkeypatch):
    """A Chinese sentence the base corpus already translates keeps that translation; a new one is added; one
    that is an evaluation sentence is left out."""
    _, shipped, _ = checkpoint.load()
    base = corpus.split_corpus(corpus.corpus_pairs())
    learnt = next(p for p in base["train"] if p.origin == "phrasebook" and len(p.zh_tokens) > 3)
    learnt_zh = "".join(learnt.zh_tokens)
    banned_zh = next(iter(k for k in held_out_keys() if contains_chinese(k) and len(k) > 3))
    rows = [
        ("We met in a different way.", learnt_zh, "chat"),
        ("The kettle sings at noon.", "水壶中午会唱歌。", "home"),
        ("A sentence kept out.", banned_zh, "chat"),
    ]
    (tmp_path / "a.tsv").write_text("en\tzh\ttopic\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setattr(added_corpus, "ADDED_PHRASEBOOK_DIR", tmp_path)
    tokenizer = extended_tokenizer(shipped, 0, added_phrasebook=True)
    without = continuation_splits(base, tokenizer, 0)
    grown = continuation_splits(base, tokenizer, 0, added_phrasebook=True)
    added = [p for p in grown["train"] if p.origin == ADDED_PHRASEBOOK]
    assert [normalise(p.en) for p in added] == [normalise("The kettle sings at noon.")]
    assert grown["train"][: len(without["train"])] == without["train"]  # nothing of the base gave way
    assert learnt in grown["train"] and grown["validation"] == base["validation"] and grown["test"] == base["test"]


@pytest.mark.slow  # builds the corpus and the continuation's pairs
def test_the_added_phrasebook_joins_training_apart_from_every_evaluation_set():
    _, shipped, _ = checkpoint.load()
    base = corpus.split_corpus(corpus.corpus_pairs())
    tokenizer = extended_tokenizer(shipped, 0, added_phrasebook=True)
    grown = continuation_splits(base, tokenizer, 0, coreference_one_way=True, added_phrasebook=True)
    added = [p for p in grown["train"] if p.origin == ADDED_PHRASEBOOK]
    assert len(added) >= len(load_phrasebook(ADDED_PHRASEBOOK_DIR)) // 2
    banned = held_out_keys() | {
        normalise(s) for name in ("validation", "test") for p in base[name] for s in (p.en, p.zh)
    }
    assert not [p for p in added if normalise(p.en) in banned or normalise(p.zh) in banned]
    learnt = {normalise(s) for p in base["train"] for s in (p.en, p.zh)}
    assert not [p for p in added if normalise(p.en) in learnt or normalise(p.zh) in learnt]
    assert len(continuation_pairs(tokenizer, 0, added_phrasebook=True)) > len(continuation_pairs(tokenizer, 0))
