"""Which English words keep a capital inside a sentence (Beijing, English, Monday, TV), learned from the
hand-written phrasebook.

The model reads and writes English in lower case, so a translation comes out as "winter in beijing is very
cold." unless something gives the capitals back. A hand list catches a few names; people's own sentences
know far more. A word counts as capitalised when, away from the start of a sentence, the phrasebook's writers
wrote it with capitals nearly every time. The table is written to `assets/corpus/capitals.tsv` with the rest
of the corpus and read by `viz_model.model.detokenize`.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from viz_model.model.detokenize import CAPITALS_FILE, reload_capitals
from viz_model.model.tokenizer import without_clitic

# A word as the tokenizer keeps it (inner hyphens and apostrophes), or a mark that ends a sentence.
_WORD_OR_END = re.compile(r"[A-Za-z]+(?:['\-][A-Za-z]+)*|[.?!:\"]")
MIN_COUNT = 2  # written capitalised at least this often mid-sentence
MIN_SHARE = 0.9  # ... and this share of all its mid-sentence uses


def capitalised_forms(sentences: Iterable[str]) -> dict[str, str]:
    """Lower-case word -> the capitalised form writers use mid-sentence ("beijing" -> "Beijing")."""
    seen: dict[str, Counter] = defaultdict(Counter)
    for sentence in sentences:
        sentence_start = True
        for match in _WORD_OR_END.finditer(sentence):
            word = match.group()
            if not word[0].isalpha():
                sentence_start = True  # also after a colon or an opening quote
                continue
            word = without_clitic(word)  # "Tom's" is the tokens "tom" "'s"
            if not sentence_start:
                seen[word.lower()][word] += 1
            sentence_start = False
    forms = {}
    for lower, counts in seen.items():
        form, n = counts.most_common(1)[0]
        if form != lower and n >= MIN_COUNT and n / sum(counts.values()) >= MIN_SHARE:
            forms[lower] = form
    return dict(sorted(forms.items()))


def write_capitals(forms: dict[str, str], path: Path = CAPITALS_FILE) -> None:
    lines = ["lower\tshown"] + [f"{lower}\t{shown}" for lower, shown in forms.items()]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    if Path(path) == CAPITALS_FILE:
        reload_capitals()  # texts written later in this process get them too
