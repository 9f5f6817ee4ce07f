"""The training corpus: a synchronous English–Chinese grammar, an everyday lexicon, a phrasebook.

- `grammar/`: the core grammar (course sentences, arithmetic, ambiguous words, ~550 words) and the splits,
  one module per part (word tables, noun phrases, clauses, the sentence rules, generation, splits).
- `words.py`: the frequency-ranked everyday lexicon, read from `assets/corpus/words.tsv`.
- `everyday.py`: templates that put every lexicon word into everyday constructions, and coreference pairs.
- `phrasebook.py`: hand-written everyday pairs; `evalset.py`: the everyday evaluation set kept out of them.
- `assemble.py`: everything together, one translation per sentence, tokens settled by the app's tokenizer.
"""

from .assemble import (
    OUT_DIR,
    ambiguous_text,
    corpus_pairs,
    example_sentences,
    generate_pairs,
    main,
    read_split,
    topics,
    write_corpus,
)
from .grammar import (
    AMBIGUOUS_FORMS,
    AMBIGUOUS_WORDS,
    COURSE_SENTENCES,
    EN_NUMBERS,
    HELD_OUT_ARITHMETIC,
    ZH_NUMBERS,
    LexiconEntry,
    SentencePair,
    arithmetic_pairs,
    arithmetic_triple,
    arithmetic_triples,
    find_conflicts,
    is_held_out_arithmetic,
    lexicon,
    split_corpus,
)

__all__ = [
    "AMBIGUOUS_FORMS",
    "AMBIGUOUS_WORDS",
    "COURSE_SENTENCES",
    "EN_NUMBERS",
    "HELD_OUT_ARITHMETIC",
    "OUT_DIR",
    "ZH_NUMBERS",
    "LexiconEntry",
    "SentencePair",
    "ambiguous_text",
    "arithmetic_pairs",
    "arithmetic_triple",
    "arithmetic_triples",
    "corpus_pairs",
    "example_sentences",
    "find_conflicts",
    "generate_pairs",
    "is_held_out_arithmetic",
    "lexicon",
    "main",
    "read_split",
    "split_corpus",
    "topics",
    "write_corpus",
]
