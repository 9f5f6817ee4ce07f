"""The everyday evaluation set: sentences people type, written apart from the grammar and never trained on.

`assets/eval/everyday.tsv` (columns en, zh, direction, topic) was written by someone who had not seen the
grammar or the training data; `direction` says which side was typed. `normalise` is the one comparison
used to keep it out of training: lower case, no punctuation, no spaces.
"""
from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

EVERYDAY_FILE = Path(__file__).resolve().parents[2] / "assets" / "eval" / "everyday.tsv"


@dataclass(frozen=True)
class EvalPair:
    en: str
    zh: str
    direction: str      # "en2zh": typed in English; "zh2en": typed in Chinese
    topic: str

    @property
    def source(self) -> str:
        return self.en if self.direction == "en2zh" else self.zh

    @property
    def reference(self) -> str:
        return self.zh if self.direction == "en2zh" else self.en


def normalise(text: str) -> str:
    """Lower case, NFKC, curly quotes straightened, every punctuation mark and space removed."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("‘", "'")
    return re.sub(r"[\W_]+", "", text.replace("'", ""))


def load_everyday(path: Path = EVERYDAY_FILE) -> list[EvalPair]:
    with open(path, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [EvalPair(r["en"].strip(), r["zh"].strip(), r["direction"].strip(), r["topic"].strip())
                for r in rows]


def everyday_keys(path: Path = EVERYDAY_FILE) -> set[str]:
    """Both sides of every evaluation pair, normalised: what training data may never contain."""
    if not Path(path).exists():
        return set()
    return {normalise(s) for p in load_everyday(path) for s in (p.en, p.zh)}
