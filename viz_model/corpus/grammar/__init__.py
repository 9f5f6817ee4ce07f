"""The training corpus: a small synchronous English–Chinese grammar that writes aligned sentence pairs.

Every sentence is built twice at once, in English and in Chinese, from the same choices (subject, verb,
object, tense, time word…), so the two sides are translations by construction. The grammar is kept
LEARNABLE and UNAMBIGUOUS for a small Transformer:

* One English sentence has exactly one Chinese translation in the corpus and vice versa (a bijection,
  checked by `find_conflicts` and by the tests). The conventions that make this possible:
  - Articles. "a/an N" ↔ 一 + measure word + N (一只猫, 一把锯子); "the N" ↔ the bare noun (猫);
    "this/that N" ↔ 这/那 + measure word + N; "these/those Ns" ↔ 这些/那些 N; "my N" ↔ 我的 N (kin: 我妈妈).
    A noun is never used bare in English (no "I like cats"), so 猫 can only mean "the cat".
  - Plurals only with a number or these/those: "three books" ↔ 三本书, "two cats" ↔ 两只猫 (两 for two
    with a measure word, 二 in arithmetic). "one cat" is never generated: 一只猫 is "a cat".
  - Tense. past "I saw" ↔ 我看见了 (verb + 了; negative 没 + verb: "didn't see" ↔ 没看见);
    progressive "is chasing" ↔ 正在追捕 (negative 没在, never with a place, where it would equal the past);
    future "will buy" ↔ 会买 (negative "won't" ↔ 不会);
    simple present only for states (like, want, have, need, love: 喜欢/想要/有/需要/爱) or with a habit word
    ("every day" ↔ 每天, "often" ↔ 经常). "see" is never used in the simple present, so 看见 without 了 or
    会 does not occur.
  - Negated actions take definite objects ("I didn't use the saw" ↔ 我没用锯子), not 没用一把锯子.
  - Word order follows each language: time words end the English clause but follow the Chinese subject
    ("I bought a book yesterday" ↔ 我昨天买了一本书), which gives the attention maps something to show.
* Chinese tokens agree with the app's tokenizer (greedy longest match over the vocabulary of all corpus
  tokens); tables avoid words whose characters would glue into a longer token (no 大学, no 乒乓球拍…).

Ambiguous English words (saw, bank, bat, orange, light, play, watch, fly) appear only in contexts that
decide their sense, and every pair records the senses it uses in `ambiguous`.

The package, one part of the grammar a module, each importing only those above it in this list:
- `phrases`: `SentencePair` (a corpus row) and `Ph` (English and Chinese tokens built together);
- `tables`: the word tables (data): nouns, verbs, adjectives, places, time words, numbers, ambiguous words;
- `noun_phrases`: noun phrases, subjects, be/do, place phrases; `clauses`: a verb phrase in a tense and mode;
- the sentence rules: `verb_sentences`, `be_sentences`, `ambiguous`, `questions`, `conjunctions`, `course`
  (the course's own sentences and the rules around their words);
- `arithmetic`: sums and differences, with the held-out operand triples;
- `generate`: the corpus of all of the above (`grammar_pairs`) and `find_conflicts`; `splits`: train /
  validation / test; `wordlist`: every word the grammar uses (`lexicon`).
"""

from __future__ import annotations

from .arithmetic import (
    HELD_OUT_ARITHMETIC,
    arithmetic_pairs,
    arithmetic_triple,
    arithmetic_triples,
    is_held_out_arithmetic,
)
from .course import COURSE_SENTENCES
from .generate import MAX_LEN, MIN_LEN, _dedupe, find_conflicts, grammar_pairs
from .phrases import Ph, SentencePair, ph
from .splits import split_corpus
from .tables import AMBIGUOUS_FORMS, AMBIGUOUS_WORDS, EN_NUMBERS, ZH_NUMBERS
from .wordlist import LexiconEntry, lexicon

__all__ = [
    "AMBIGUOUS_FORMS",
    "AMBIGUOUS_WORDS",
    "COURSE_SENTENCES",
    "EN_NUMBERS",
    "HELD_OUT_ARITHMETIC",
    "MAX_LEN",
    "MIN_LEN",
    "ZH_NUMBERS",
    "LexiconEntry",
    "Ph",
    "SentencePair",
    "_dedupe",
    "arithmetic_pairs",
    "arithmetic_triple",
    "arithmetic_triples",
    "find_conflicts",
    "grammar_pairs",
    "is_held_out_arithmetic",
    "lexicon",
    "ph",
    "split_corpus",
]
