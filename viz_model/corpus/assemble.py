"""The whole training corpus: core grammar + everyday lexicon sentences + phrasebook, one translation each.

Order decides who wins a clash: course sentences and arithmetic, then the core grammar, then the
phrasebook, then the everyday templates. A pair whose English or Chinese side already has another translation is
left out, so every source still has exactly one translation per direction. Pairs matching an evaluation
sentence are left out too (`evalset`).

Tokens are settled at the end by the app's own tokenizer over the corpus vocabulary (jieba for Chinese,
contractions split for English), so what the model is trained on is exactly what the app will feed it.
"""

from __future__ import annotations

import csv
import random
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from viz_model.model.detokenize import detokenize
from viz_model.model.tokenizer import UNK, Tokenizer, contains_chinese, english_words

from . import grammar
from .capitals import capitalised_forms, write_capitals
from .evalset import held_out_keys, normalise
from .everyday import everyday_phrases
from .grammar import COURSE_SENTENCES, MAX_LEN, MIN_LEN, SentencePair, _dedupe, lexicon, split_corpus
from .phrasebook import load_phrasebook
from .words import load_words


def _settle(pairs: list[SentencePair]) -> list[SentencePair]:
    """Re-tokenize both sides with the tokenizer over the corpus vocabulary until nothing changes, write the
    rare Chinese words as their characters (`_split_rare_words`), and settle again."""
    texts = _Texts()
    return _until_stable(_split_rare_words(_until_stable(pairs, texts), texts), texts)


class _Texts:
    """The settled English tokens and the Chinese text of a token tuple, each computed once per build: the
    passes below re-read the same ~100,000 sentences up to six times, and neither depends on the vocabulary
    (only the Chinese segmentation does)."""

    def __init__(self):
        self._english: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._chinese: dict[tuple[str, ...], str] = {}

    def english(self, tokens: tuple[str, ...]) -> tuple[str, ...]:
        if tokens not in self._english:
            self._english[tokens] = tuple(english_words(detokenize(list(tokens), "en")))
        return self._english[tokens]

    def chinese(self, tokens: tuple[str, ...]) -> str:
        if tokens not in self._chinese:
            self._chinese[tokens] = detokenize(list(tokens), "zh")
        return self._chinese[tokens]


def _until_stable(pairs: list[SentencePair], texts: _Texts) -> list[SentencePair]:
    for _ in range(6):
        tokenizer = Tokenizer.from_corpus([p.en_tokens for p in pairs] + [p.zh_tokens for p in pairs])
        settled = _retokenized(pairs, tokenizer, texts)
        if settled == pairs:
            break
        pairs = settled
    return pairs


def _retokenized(pairs: list[SentencePair], tokenizer: Tokenizer, texts: _Texts) -> list[SentencePair]:
    settled = []
    for p in pairs:
        en = texts.english(p.en_tokens)  # SentencePair holds its tokens as tuples
        zh = tuple(tokenizer.split(texts.chinese(p.zh_tokens))[0])
        if UNK in zh:
            continue  # a character known only inside longer words: the app could not read it
        settled.append(SentencePair(en, zh, p.topic, p.direction, p.ambiguous, p.origin))
    return settled


# A Chinese word seen in fewer sentences than this is written as its characters. Its one or two sentences
# teach its own embedding little, while every character is shared by many words; and each word type costs
# a row of the embedding table, which is also the output projection every decoding step reads whole.
# The typed-text tokenizer does the same for any word missing from the vocabulary (greedy longest match).
RARE_WORD_MIN_SENTENCES = 3


def _split_rare_words(pairs: list[SentencePair], texts: _Texts) -> list[SentencePair]:
    sentences_with = Counter(tok for p in pairs for tok in set(p.zh_tokens))
    course = {tok for p in COURSE_SENTENCES for tok in p.zh_tokens}
    rare = {
        tok
        for tok, n in sentences_with.items()
        if n < RARE_WORD_MIN_SENTENCES and len(tok) > 1 and contains_chinese(tok) and tok not in course
    }
    kept = [[tok for tok in p.zh_tokens if tok not in rare] for p in pairs]
    characters = [[ch for tok in rare for ch in tok]]
    tokenizer = Tokenizer.from_corpus([p.en_tokens for p in pairs] + kept + characters)
    return _retokenized(pairs, tokenizer, texts)


# Spaces a writer put between Latin words or numbers inside Chinese text (用 it is raining 造句) are kept.
_LATIN_SPACE = re.compile(r"(?<=[A-Za-z0-9]) (?=[A-Za-z0-9])")


def _without_spaces(chinese: str) -> str:
    """A hand-written Chinese sentence without its spaces, except those between Latin words or numbers."""
    return " ".join(part.replace(" ", "") for part in _LATIN_SPACE.split(chinese))


def generate_pairs(seed: int = 0, phrasebook: bool = True) -> list[SentencePair]:
    banned = held_out_keys()
    # Evaluation sentences are never trained on, whoever wrote them: the grammar's own (and a course
    # sentence the evaluation set also holds) are left out too.
    pairs = [p for p in grammar.grammar_pairs(seed) if not _is_banned(p.en, p.zh, banned)]
    en_seen = {tuple(english_words(detokenize(list(p.en_tokens), "en"))): p.zh for p in pairs}
    zh_seen = {p.zh: p.en_tokens for p in pairs}

    def add(en_tokens, zh_tokens, topic, origin, amb=()):
        zh_text = detokenize(list(zh_tokens), "zh")
        en_key = tuple(english_words(detokenize(list(en_tokens), "en")))
        if not MIN_LEN - 1 <= len(en_key) <= MAX_LEN + 4:
            return
        if _is_banned(detokenize(list(en_tokens), "en"), zh_text, banned):
            return
        if en_key in en_seen or zh_text in zh_seen:
            return  # either side already translated otherwise (or the same pair again)
        en_seen[en_key], zh_seen[zh_text] = zh_text, en_tokens
        pairs.append(SentencePair(tuple(en_tokens), zh_tokens, topic, "both", _dedupe(amb), origin))

    # The phrasebook before the everyday templates: where both translate one sentence, the hand-written
    # translation (这是我妈妈) is the one people write, the template's (这是我的妈妈) the one left out.
    templates = everyday_phrases(load_words(), seed)
    if phrasebook:
        pairs_of_words = grammar_word_pairs([p.zh_tokens for p in pairs] + [p.zh for p, _ in templates])
        segment = _plain_jieba(pairs_of_words)
        for en, zh, topic in load_phrasebook():
            add(tuple(english_words(en)), tuple(segment(_without_spaces(zh))), topic, "phrasebook")
    for p, topic in templates:
        add(p.en, p.zh, topic, "everyday", p.amb)
    return _settle(pairs)


# The grammar writes a numeral or demonstrative and its measure word as two tokens (一 只 猫, 这 本 书) and a
# possessive as two (我 的); jieba's dictionary has them as one word (一只, 我的). Phrasebook words of that shape
# are split the grammar's way, so the shared vocabulary keeps one convention and the course sentences their
# tokens.
_NUMBER_MEASURE = re.compile(
    r"^([一二两三四五六七八九十几这那每哪半]+)"
    r"([个件份匹只台名块头封幅座张扇把支本朵条架根棵盏辆部顶首杯位次家间瓶双])$"
)
_POSSESSIVE = re.compile(r"^(我|你|他|她|它|我们|你们|他们|她们|它们|谁)(的)$")


# The grammar also writes a verb and its object, a degree adverb and its adjective, a noun and its place word
# as two tokens (看 电视, 不 会, 很 大, 床 上), where jieba's dictionary has one word (看电视, 不会, 很大, 床上).
# Were the phrasebook to bring those words in, the grammar's own sentences would be read with them too and
# "watch ↔ 看" would vanish from their attention maps. A word is split where the grammar writes its two
# halves side by side at least this often: its established convention, not a chance meeting (去 年).
GRAMMAR_PAIR_MIN_COUNT = 20


def grammar_word_pairs(token_lists: Iterable[Sequence[str]]) -> set[tuple[str, str]]:
    """Neighbouring Chinese tokens the grammar writes side by side at least GRAMMAR_PAIR_MIN_COUNT times
    (and whose joined form it never writes as one token)."""
    token_lists = list(token_lists)
    single = {tok for tokens in token_lists for tok in tokens}
    counts = Counter(pair for tokens in token_lists for pair in zip(tokens, tokens[1:]))
    return {pair for pair, n in counts.items() if n >= GRAMMAR_PAIR_MIN_COUNT and "".join(pair) not in single}


def grammar_convention(words: list[str], word_pairs: set[tuple[str, str]] = frozenset()) -> list[str]:
    """jieba's words re-cut the way the grammar writes them (这本 -> 这 本, 我的 -> 我 的, 看电视 -> 看 电视)."""
    out = []
    for word in words:
        match = _NUMBER_MEASURE.match(word) or _POSSESSIVE.match(word)
        if match:
            out.extend(match.groups())
            continue
        halves = next(((word[:i], word[i:]) for i in range(1, len(word)) if (word[:i], word[i:]) in word_pairs), None)
        out.extend(halves or (word,))
    return out


def _is_banned(en: str, zh: str, banned: set[str]) -> bool:
    return normalise(en) in banned or normalise(zh) in banned


def _plain_jieba(word_pairs: set[tuple[str, str]] = frozenset()):
    """jieba's own dictionary: the phrasebook's first word boundaries, which bring its words into the
    vocabulary (the settling pass then segments with the vocabulary added)."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return lambda text: grammar_convention([w for w in jieba.lcut(text, HMM=False) if w.strip()], word_pairs)


# ---- the corpus for the app and the command line -----------------------------------------------------
_CACHE: dict[int, list[SentencePair]] = {}


def corpus_pairs(seed: int = 0) -> list[SentencePair]:
    """generate_pairs, computed once per seed and process: the app asks for examples often, and training,
    evaluation and the tests all read the same corpus (one build takes a minute or two)."""
    if seed not in _CACHE:
        _CACHE[seed] = generate_pairs(seed)
    return _CACHE[seed]


def topics() -> list[str]:
    """Topics the app can show examples for ("ambiguous" collects every pair with an ambiguous word)."""
    return sorted({p.topic for p in corpus_pairs()} | {"ambiguous"})


def example_sentences(topic: str, n: int = 10, seed: int = 0) -> list[SentencePair]:
    """Up to n example pairs of a topic, from the training split's corpus, deterministic from the seed."""
    if topic == "course":
        return COURSE_SENTENCES[:n]
    if topic == "ambiguous":
        found = [p for p in corpus_pairs() if p.ambiguous]
    else:
        found = [p for p in corpus_pairs() if p.topic == topic]
    if not found:
        raise KeyError(f"unknown topic {topic!r}; topics are {topics()}")
    rng = random.Random(f"examples-{topic}-{seed}")
    return rng.sample(found, min(n, len(found)))


# ================================================================================================
# Files
# ================================================================================================
OUT_DIR = Path(__file__).resolve().parents[2] / "assets" / "corpus"


def ambiguous_text(pair: SentencePair) -> str:
    return ";".join(f"{w}={s}" for w, s in pair.ambiguous)


def write_corpus(out_dir: Path = OUT_DIR, seed: int = 0, splits: dict | None = None) -> dict[str, int]:
    """Write train/validation/test.tsv and lexicon.tsv; returns the row counts."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    splits = splits or split_corpus(generate_pairs(seed), seed)
    counts = {}
    for name, split in splits.items():
        lines = ["en\tzh\ttopic\tdirection\tambiguous\torigin"]
        lines += [f"{p.en}\t{p.zh}\t{p.topic}\t{p.direction}\t{ambiguous_text(p)}\t{p.origin}" for p in split]
        (out_dir / f"{name}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        counts[name] = len(split)
    lines = ["english\tchinese\tpart_of_speech\ttopic"]
    lines += [f"{e.english}\t{e.chinese}\t{e.part_of_speech}\t{e.topic}" for e in lexicon()]
    (out_dir / "lexicon.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    counts["lexicon"] = len(lines) - 1
    return counts


def read_split(name: str, directory: Path = OUT_DIR) -> list[dict[str, str]]:
    """The rows of a split write_corpus wrote ("train", "validation" or "test"), as dicts keyed by its
    header: the shipped corpus without building it."""
    with open(Path(directory) / f"{name}.tsv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    seed = int(argv[0]) if argv else 0
    write_capitals(capitalised_forms(en for en, _, _ in load_phrasebook()))
    pairs = generate_pairs(seed)
    counts = write_corpus(OUT_DIR, seed, split_corpus(pairs, seed))
    en_types = {t for p in pairs for t in p.en_tokens}
    zh_types = {t for p in pairs for t in p.zh_tokens}
    for name, n in counts.items():
        print(f"{name:>10}: {n}")
    print(f"     pairs: {len(pairs)}; English word types {len(en_types)}, Chinese word types {len(zh_types)}")
    print(f"written to {OUT_DIR}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
