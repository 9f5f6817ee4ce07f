"""When a sentence has words the model does not know: the closest sentences it does know.

The candidates are the training corpus's own sentences (its shipped training split), so every suggestion is
a sentence the model has read. Closeness is the weight of the words (English) or characters (Chinese) a
candidate shares with the typed text, each weighted by how rare it is in the corpus (inverse document
frequency), so sharing "zebra" counts and sharing "the" barely does.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass

from viz_model.corpus import read_split
from viz_model.model.tokenizer import DIRECTIONS, contains_chinese, english_words

_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
COMMON_SHARE = 0.05  # terms in more than this share of sentences carry no evidence of closeness


def terms(text: str, language: str) -> set[str]:
    """What closeness is measured on: English words, or Chinese characters."""
    if language == "zh":
        return set(_CJK_CHAR.findall(text))
    return {w for w in english_words(text) if w[0].isalnum()}


@dataclass(frozen=True)
class Suggestion:
    text: str
    shared: tuple[str, ...]  # the terms it shares with the typed text
    score: float


class SentenceIndex:
    """An inverted index over known sentences of one language."""

    def __init__(self, sentences: list[str], language: str):
        self.sentences = list(dict.fromkeys(sentences))
        self.language = language
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, sentence in enumerate(self.sentences):
            for term in terms(sentence, language):
                self.postings[term].append(i)
        n = max(1, len(self.sentences))
        self.idf = {term: math.log(n / len(ids)) for term, ids in self.postings.items()}
        self.common = {term for term, ids in self.postings.items() if len(ids) > max(COMMON_SHARE * n, 20)}

    @classmethod
    def from_corpus(cls, language: str) -> SentenceIndex:
        """The training split's sentences that the model reads in `language` ("en" or "zh")."""
        reads = ("both", *(d for d, (source, _) in DIRECTIONS.items() if source == language))
        return cls([row[language] for row in read_split("train") if row["direction"] in reads], language)

    def closest(self, text: str, k: int = 3) -> list[Suggestion]:
        """Up to k known sentences sharing the most (rarity-weighted) terms with `text`; shorter first on
        a tie. Empty when nothing but very common terms is shared."""
        query = terms(text, self.language)
        scores: dict[int, float] = defaultdict(float)
        for term in query - self.common:
            for i in self.postings.get(term, ()):
                scores[i] += self.idf[term]
        if not scores:
            return []
        for term in query & self.common:  # common terms only break ties between candidates
            for i in self.postings.get(term, ()):
                if i in scores:
                    scores[i] += 0.01 * self.idf[term]
        best = sorted(scores, key=lambda i: (-scores[i], len(self.sentences[i]), i))[:k]
        return [
            Suggestion(
                self.sentences[i], tuple(sorted(query & terms(self.sentences[i], self.language))), round(scores[i], 3)
            )
            for i in best
        ]


def typed_language(text: str) -> str:
    return "zh" if contains_chinese(text) else "en"
