"""The two things every rule builds: a `SentencePair` (the corpus row) and a `Ph`, a pair of token lists
built together, English and Chinese side by side."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from viz_model.model.detokenize import detokenize


@dataclass(frozen=True)
class SentencePair:
    en_tokens: tuple[str, ...]  # lower-case English tokens, e.g. ("i","saw","a","saw",".")
    zh_tokens: tuple[str, ...]  # Chinese segmentation, e.g. ("我","看见","了","一","把","锯子","。")
    topic: str
    direction: str = "both"  # "both", "en2zh" (only English→Chinese) or "zh2en"
    ambiguous: tuple[tuple[str, str], ...] = ()
    origin: str = "grammar"  # "grammar" (core grammar), "everyday" (lexicon templates), "phrasebook" (by hand)

    # Read again and again (training-set lookups, evaluation, the corpus's own checks): written once a pair.
    # A frozen dataclass still has an instance dict, where cached_property keeps the text.
    @cached_property
    def en(self) -> str:
        return detokenize(list(self.en_tokens), "en")

    @cached_property
    def zh(self) -> str:
        return detokenize(list(self.zh_tokens), "zh")


@dataclass(frozen=True)
class Ph:
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    amb: tuple[tuple[str, str], ...] = ()

    def __add__(self, other: Ph) -> Ph:
        return Ph(self.en + other.en, self.zh + other.zh, self.amb + other.amb)


def ph(en: str = "", zh: str = "", amb=()) -> Ph:
    """Phrase from space-separated tokens: ph("i saw", "我 看见 了")."""
    return Ph(tuple(en.split()), tuple(zh.split()), tuple(amb))


def E(en: str) -> Ph:
    return ph(en, "")


def Z(zh: str) -> Ph:
    return ph("", zh)
