"""What the continuation phase adds to the corpus: the classroom classics, coreference by kind, what each
coreference deciding word can describe ("The dog was too sleepy."), and, where a recipe asks for them, further
hand-written everyday pairs first thought of in Chinese (`assets/corpus/phrasebook_added/`).

The shipped model was trained on `corpus_pairs()`; a continuation trains it further on the same splits with
these pairs added to the training split only, so the validation and test splits, and every figure measured on
them, stay those of the model before. Their words are read by the shipped model's tokenizer; a word it lacks
(an English word, or a Chinese character) is appended to the vocabulary (`extended_tokenizer`), so every
existing token keeps its id and the shipped embedding rows stay where they are.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

from viz_model.model.detokenize import detokenize
from viz_model.model.tokenizer import Tokenizer, contains_chinese, english_words

from . import coreference
from .evalset import held_out_keys, normalise
from .grammar import SentencePair
from .phrasebook import load_phrasebook

CLASSICS_FILE = Path(__file__).resolve().parents[2] / "assets" / "corpus" / "classics.tsv"
ADDED_PHRASEBOOK_DIR = CLASSICS_FILE.with_name("phrasebook_added")
ADDED_PHRASEBOOK = "phrasebook-added"  # their origin


def load_classics(path: Path = CLASSICS_FILE) -> list[tuple[str, str, str]]:
    """(english, chinese, source) rows of the classroom-classics file: the sentences a teacher types first."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [(r["en"].strip(), r["zh"].strip(), r["source"].strip()) for r in rows if r["en"].strip()]


def classics_from(source: str, path: Path = CLASSICS_FILE) -> set[str]:
    """Chinese sides of the classics whose source starts with `source` (e.g. "Winograd schema"): the key a
    training pair keeps of its classic, as its English is lower-cased."""
    return {zh for _, zh, origin in load_classics(path) if origin.startswith(source)}


def continuation_texts(seed: int = 0, added_phrasebook: bool = False) -> list[tuple[str, str, str, str]]:
    """(english, chinese, topic, origin) of every pair the continuation adds, classics first; with
    `added_phrasebook`, the added phrasebook's pairs last (recipes without them keep their vocabulary)."""
    out = [(en, zh, "classics", "classics") for en, zh, _ in load_classics()]
    for p in coreference.training_pairs(seed):
        out.append((detokenize(list(p.phrase.en), "en"), "".join(p.phrase.zh), "coreference", "coreference-kinds"))
    for p in coreference.property_pairs():
        out.append((detokenize(list(p.phrase.en), "en"), "".join(p.phrase.zh), "coreference", "coreference-properties"))
    if added_phrasebook:
        out += [(en, zh, topic, ADDED_PHRASEBOOK) for en, zh, topic in load_phrasebook(ADDED_PHRASEBOOK_DIR)]
    return out


def new_tokens(tokenizer: Tokenizer, texts: list[tuple[str, str, str, str]]) -> list[str]:
    """Tokens the texts need that the vocabulary lacks: unknown English words whole, and the characters of
    unknown Chinese spans (a rare Chinese word is written as its characters, as in the corpus)."""
    found: dict[str, None] = {}
    for en, zh, _, _ in texts:
        for text in (en, zh):
            _, unknown = tokenizer.split(text)
            for span in unknown:
                pieces = list(span) if contains_chinese(span) else english_words(span)
                for piece in pieces:
                    if piece not in tokenizer.token_to_id:
                        found[piece] = None
    return sorted(found)


def extended_tokenizer(tokenizer: Tokenizer, seed: int = 0, added_phrasebook: bool = False) -> Tokenizer:
    """The tokenizer with the continuation's new tokens appended (ids of existing tokens unchanged)."""
    return Tokenizer(tokenizer.vocab + new_tokens(tokenizer, continuation_texts(seed, added_phrasebook)))


def continuation_pairs(tokenizer: Tokenizer, seed: int = 0, added_phrasebook: bool = False) -> list[SentencePair]:
    """The added pairs, tokenized by `tokenizer` (the extended one), leaving out any whose either side is an
    evaluation sentence or repeats an earlier pair's side."""
    banned = held_out_keys()
    seen_en, seen_zh = set(), set()
    out = []
    for en, zh, topic, origin in continuation_texts(seed, added_phrasebook):
        if normalise(en) in banned or normalise(zh) in banned:
            continue
        en_tokens, unknown_en = tokenizer.split(en)
        zh_tokens, unknown_zh = tokenizer.split(zh)
        if unknown_en or unknown_zh:
            raise ValueError(f"the tokenizer lacks words of {en!r} / {zh!r}: {unknown_en + unknown_zh}")
        key_en, key_zh = tuple(en_tokens), tuple(zh_tokens)
        if key_en in seen_en or key_zh in seen_zh:
            continue
        seen_en.add(key_en)
        seen_zh.add(key_zh)
        out.append(SentencePair(key_en, key_zh, topic, "both", (), origin))
    return out


def continuation_splits(
    splits: dict[str, list[SentencePair]],
    tokenizer: Tokenizer,
    seed: int = 0,
    coreference_one_way: bool = False,
    added_phrasebook: bool = False,
):
    """The base splits with the continuation's pairs added to training. A base training pair that gives
    another translation of a classic's or coreference pair's side gives way (one translation per sentence);
    an added phrasebook pair does instead, as the base translation is the one the model learnt. An added pair
    whose side is a validation or test sentence is left out, so those splits stay unseen.
    `coreference_one_way`: the added coreference pairs are trained English → Chinese only."""
    added = continuation_pairs(tokenizer, seed, added_phrasebook)
    if coreference_one_way:
        added = [replace(p, direction="en2zh") if p.topic == "coreference" else p for p in added]
    held = {side for name in ("validation", "test") for p in splits[name] for side in _sides(p)}
    held_or_learnt = held | {side for p in splits["train"] for side in _sides(p)}
    added = [p for p in added if not (set(_sides(p)) & (held_or_learnt if p.origin == ADDED_PHRASEBOOK else held))]
    taken = {side for p in added for side in _sides(p)}
    train = [p for p in splits["train"] if not (set(_sides(p)) & taken)]
    return {**splits, "train": train + added}


def _sides(pair: SentencePair) -> tuple[tuple[str, str], tuple[str, str]]:
    """A pair's two sentences as compared for clashes: case, punctuation and spaces aside."""
    return ("en", normalise(pair.en)), ("zh", normalise(pair.zh))
