"""Reference translations from the corpus: when the user's sentence is one of the corpus's, its other side
is a human reference to score the model's output against (BLEU, ROUGE, perplexity of the reference).

Sentences are matched by the corpus's one comparison key (`corpus.evalset.normalise`: NFKC, case, spaces and
punctuation ignored), the same key that keeps evaluation sentences out of training, so "i saw a saw" finds
"I saw a saw.".
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from viz_model.corpus import OUT_DIR, read_split
from viz_model.corpus.evalset import normalise
from viz_model.model.tokenizer import DIRECTIONS

CORPUS_DIR = OUT_DIR
SPLITS = ("train", "validation", "test")


@lru_cache(maxsize=4)
def _index(corpus_dir: str) -> dict[str, dict[str, str]]:
    """{"en": {key of English: Chinese}, "zh": {key of Chinese: English}} over every split."""
    index: dict[str, dict[str, str]] = {"en": {}, "zh": {}}
    for split in SPLITS:
        if not (Path(corpus_dir) / f"{split}.tsv").is_file():
            continue
        for row in read_split(split, Path(corpus_dir)):
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
