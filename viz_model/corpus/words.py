"""The everyday lexicon: the most frequent English words with their Chinese, as data.

`assets/corpus/words.tsv` lists the ~3,600 most frequent English words (`wordfreq`'s ranking), one row per
sense, with what the grammar needs to put a word in a sentence: part of speech, inflected forms, the measure
word of a noun, the kinds of noun a verb takes as its object, whether an adjective sits straight before a
noun (大猫) or takes 的 (可爱的猫). The templates in `everyday.py` read it; nothing here builds sentences.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

WORDS_FILE = Path(__file__).resolve().parents[2] / "assets" / "corpus" / "words.tsv"
NOUN_KINDS = (
    "person",
    "animal",
    "food",
    "drink",
    "object",
    "vehicle",
    "place",
    "body",
    "time",
    "abstract",
    "event",
    "material",
    "plant",
)


@dataclass(frozen=True)
class Word:
    english: str  # lemma, lower case
    chinese: str  # one Chinese word, no spaces; "∅" where Chinese says nothing (the, a)
    pos: str  # noun, verb, adj, adv, prep, pron, det, conj, num, modal, aux, interj, name, other
    forms: tuple[str, ...]  # noun: (plural,); verb: (3sg, past, participle, -ing); adj: (comparative, superlative)
    measure: str  # a noun's measure word, "" for uncountable nouns and other parts of speech
    kind: str  # noun kind; verb "trans:K1+K2", "intrans" or "trans:clause"; adj person/thing/any
    features: dict  # subj=people|any (verbs), attach=direct|de (adjectives)
    sense: str  # gloss when the word has several rows, else ""

    @property
    def object_kinds(self) -> tuple[str, ...]:
        if not self.kind.startswith("trans:") or self.kind == "trans:clause":
            return ()
        return tuple(k for k in self.kind[len("trans:") :].split("+") if k in NOUN_KINDS)

    @property
    def countable(self) -> bool:
        return bool(self.measure) and bool(self.forms) and self.forms[0] not in ("", "-")


def _fields(value: str) -> str:
    value = value.strip()
    return "" if value in ("-", "∅") else value


def parse_row(row: dict) -> Word | None:
    """One TSV row to a Word; None for rows the grammar cannot use (missing Chinese, malformed forms)."""
    english = row["english"].strip().lower()
    chinese = row["chinese"].strip().replace(" ", "")
    pos = row["pos"].strip()
    if not english or not chinese or " " in english and pos not in ("noun", "name", "other", "interj"):
        return None
    forms = tuple(f.strip().lower() for f in row["forms"].split("|")) if _fields(row["forms"]) else ()
    features = {}
    for item in _fields(row.get("features") or "").split(";"):
        if "=" in item:
            key, value = item.split("=", 1)
            features[key.strip()] = value.strip()
    word = Word(
        english,
        chinese,
        pos,
        forms,
        _fields(row["measure"]),
        row["kind"].strip(),
        features,
        _fields(row.get("sense") or ""),
    )
    if pos == "verb" and len(forms) != 4 or pos == "noun" and len(forms) != 1:
        return None
    return word


@lru_cache(maxsize=2)
def load_words(path: Path = WORDS_FILE) -> tuple[Word, ...]:
    """Every usable row of the words table, in file (frequency) order."""
    if not Path(path).exists():
        return ()
    with open(path, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return tuple(w for w in (parse_row(r) for r in rows) if w is not None)


def by_pos(words, pos: str) -> list[Word]:
    return [w for w in words if w.pos == pos]
