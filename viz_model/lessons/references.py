"""Reference translations from the corpus: when the user's sentence is one of the corpus's, its other side
is a human reference to score the model's output against (BLEU, ROUGE, perplexity of the reference).

Sentences are matched after a light normalisation (Unicode NFKC, case, spaces, Chinese and ASCII
punctuation treated alike), so "i saw a saw" finds "I saw a saw." only if the full stop matches too.
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

from viz_model.model.tokenizer import DIRECTIONS, clean_text

CORPUS_DIR = Path(__file__).resolve().parents[2] / "assets" / "corpus"
SPLITS = ("train", "validation", "test")
_FULLWIDTH = str.maketrans("，。！？：；（）“”‘’", ",.!?:;()\"\"''")
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """The matching key of a sentence: NFKC, lower case, ASCII punctuation, no spaces at all."""
    return _SPACE.sub("", clean_text(text).translate(_FULLWIDTH).lower())


@lru_cache(maxsize=4)
def _index(corpus_dir: str) -> dict[str, dict[str, str]]:
    """{"en": {key of English: Chinese}, "zh": {key of Chinese: English}} over every split."""
    index: dict[str, dict[str, str]] = {"en": {}, "zh": {}}
    for split in SPLITS:
        path = Path(corpus_dir) / f"{split}.tsv"
        if not path.is_file():
            continue
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                en, zh = row.get("en") or "", row.get("zh") or ""
                if en and zh:
                    index["en"].setdefault(normalise(en), zh)
                    index["zh"].setdefault(normalise(zh), en)
    return index


def find_reference(text: str, direction: str, corpus_dir: Path = CORPUS_DIR) -> str | None:
    """The corpus translation of `text` read in `direction` ("en2zh": the Chinese side of the pair whose
    English side matches), or None when the sentence is not in the corpus."""
    source_language = DIRECTIONS.get(direction, ("en", "zh"))[0]
    key = normalise(text)
    if not key:
        return None
    return _index(str(corpus_dir))[source_language].get(key)
