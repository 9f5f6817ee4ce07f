"""The everyday evaluation set: sentences people type, written apart from the grammar and never trained on.

`assets/eval/everyday.tsv` (columns en, zh, direction, topic) was written by someone who had not seen the
grammar or the training data; `direction` says which side was typed. `normalise` is the one comparison
used to keep it out of training: lower case, no punctuation, no spaces.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

EVERYDAY_FILE = Path(__file__).resolve().parents[2] / "assets" / "eval" / "everyday.tsv"


def more_references_file(eval_file: Path) -> Path:
    """Where an evaluation file's further references live (everyday.tsv → everyday_more_references.tsv)."""
    return Path(eval_file).with_name(f"{Path(eval_file).stem}_more_references.tsv")


def independent_translations_file(eval_file: Path) -> Path:
    """Where a translation of an evaluation file's sources by another translator lives, for scoring a person
    the way the model is scored (everyday.tsv → everyday_independent_translations.tsv)."""
    return Path(eval_file).with_name(f"{Path(eval_file).stem}_independent_translations.tsv")


# Two more references per sentence (columns direction, source, reference), written by a second translator
# who saw the sentences and their first reference but never the model, its outputs or its training data.
# One reference marks a fair paraphrase ("我通常…" for "我一般…") as a miss; scoring against all three is how
# machine-translation test sets are usually read. The one-reference figures stay the headline.
MORE_REFERENCES_FILE = more_references_file(EVERYDAY_FILE)
# A development set in the same format, written later by another writer who saw neither this set, the
# grammar nor the model: for choosing between trained models (a training variant, a last phase) without
# reading the everyday set's figures, which stay the report. Pairs of its first draft that were already
# training or everyday-set sentences were left out before any model translated it.
DEV_FILE = EVERYDAY_FILE.with_name("everyday_dev.tsv")
# A confirmation set in the same format, written by another writer who saw neither the other sets, the corpus
# nor the model, after every recipe so far had been chosen on the everyday and development sets: nothing was
# ever chosen on it, so its figures are free of the choosing (a recipe picked as the best of several on a set
# scores above its true level there). Read it to confirm a change, never to choose one. Pairs whose either
# side was already a corpus, continuation or evaluation sentence were left out before any model translated it.
CONFIRM_FILE = EVERYDAY_FILE.with_name("everyday_confirm.tsv")
# Who "he", "she" and "it" are after "because", off the coreference generator's frames: "The boy didn't finish
# his homework because he was too tired." → …因为他太累了。 (columns en, zh, referent: the Chinese right after
# 因为, reading: "person" or "object"). Written by someone who saw neither the corpus nor the model, to catch
# what the generated held-out split cannot: a model that learnt every deciding word after "because" with 它.
PRONOUNS_FILE = EVERYDAY_FILE.with_name("pronouns.tsv")


@dataclass(frozen=True)
class EvalPair:
    en: str
    zh: str
    direction: str  # "en2zh": typed in English; "zh2en": typed in Chinese
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
        return [EvalPair(r["en"].strip(), r["zh"].strip(), r["direction"].strip(), r["topic"].strip()) for r in rows]


def load_more_references(path: Path = MORE_REFERENCES_FILE) -> dict[tuple[str, str], list[str]]:
    """(direction, source) → the further references of that evaluation sentence (none if the file is absent)."""
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    if Path(path).exists():
        with open(path, encoding="utf-8", newline="") as handle:
            for r in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                out[(r["direction"].strip(), r["source"].strip())].append(r["reference"].strip())
    return dict(out)


def load_independent_translations(path: Path) -> dict[tuple[str, str], str]:
    """(direction, source) → one translation of it by a translator who saw only the source sentences (no
    reference, no model output): what a fluent person's own wording scores against the set's references."""
    if not Path(path).exists():
        return {}
    with open(path, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return {(r["direction"].strip(), r["source"].strip()): r["translation"].strip() for r in rows}


@dataclass(frozen=True)
class PronounCheck:
    en: str
    zh: str
    referent: str  # the Chinese right after 因为: 他 / 她 for a person, the object's noun for "it"
    reading: str  # "person" or "object"


def load_pronoun_checks(path: Path = PRONOUNS_FILE) -> list[PronounCheck]:
    with open(path, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [PronounCheck(*(r[k].strip() for k in ("en", "zh", "referent", "reading"))) for r in rows]


def everyday_keys(path: Path = EVERYDAY_FILE) -> set[str]:
    """Both sides of every pair of an evaluation file, normalised: what training data may never contain."""
    if not Path(path).exists():
        return set()
    return {normalise(s) for p in load_everyday(path) for s in (p.en, p.zh)}


def pronoun_keys(path: Path = PRONOUNS_FILE) -> set[str]:
    """Both sides of every pronoun check, normalised."""
    return {normalise(s) for c in load_pronoun_checks(path) for s in (c.en, c.zh)}


def held_out_keys() -> set[str]:
    """Both sides of every everyday, development, confirmation and pronoun pair, normalised: kept out of the
    training corpus."""
    return everyday_keys(EVERYDAY_FILE) | everyday_keys(DEV_FILE) | everyday_keys(CONFIRM_FILE) | pronoun_keys()


# ---- near duplicates ----------------------------------------------------------------------------------
# Exact matches are kept out of training; a training sentence that differs by a word or two ("He looks like
# his dad." against "He looks a lot like his dad.") is allowed but makes the sentence easier than a
# stranger's would be. At 0.75 two sentences differ by about one word in four; below it they mostly share a
# frame with other words in it ("My favorite subject is math." / "Geography is my favorite subject."), which
# is what a model should learn from. The evaluation reports how many evaluation sentences have such a neighbour, and its
# figures on the rest, so the headline numbers can be read with that in mind.
NEAR_DUPLICATE_OVERLAP = 0.75


def shingles(text: str) -> frozenset[str]:
    """What two sentences are compared by: the words of English, the character pairs of Chinese."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    chinese = re.sub(r"[^\u3400-\u9fff]", "", text)
    if chinese:
        return frozenset(chinese[i : i + 2] for i in range(max(1, len(chinese) - 1)))
    return frozenset(re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text))


def closest_overlap(sentences: Sequence[str], training: Sequence[str]) -> list[float]:
    """For each sentence, the largest Jaccard overlap |A ∩ B| / |A ∪ B| of its shingles with those of any
    training sentence (1.0: the same words; 0.0: no word in common)."""
    train_sets = [shingles(t) for t in training]
    index: dict[str, list[int]] = defaultdict(list)
    for i, grams in enumerate(train_sets):
        for g in grams:
            index[g].append(i)
    out = []
    for text in sentences:
        grams = shingles(text)
        shared = Counter()
        for g in grams:
            shared.update(index.get(g, ()))
        out.append(max((n / (len(grams) + len(train_sets[i]) - n) for i, n in shared.items()), default=0.0))
    return out
