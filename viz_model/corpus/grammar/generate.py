"""The core grammar's corpus: course sentences, arithmetic, then every sentence rule drawn a set number
of times, one translation per source side; and the check that no source has two."""

from __future__ import annotations

import random
from collections import defaultdict

from .ambiguous import t_bank_money, t_bank_river, t_bat_animal, t_bat_sport, t_fly, t_light, t_play, t_watch
from .arithmetic import arithmetic_pairs
from .be_sentences import t_adjective, t_be_noun, t_location, t_person_at, t_there_is
from .conjunctions import t_conjunction
from .course import COURSE_SENTENCES, t_course_words, t_participle_np, t_police
from .phrases import SentencePair
from .questions import t_wh
from .verb_sentences import t_go, t_imperative, t_intransitive, t_transitive

# (template, number of draws). Draws that repeat an earlier sentence are dropped, so the corpus is a bit
# smaller than the sum.
TEMPLATES = [
    (t_transitive, 24000),
    (t_intransitive, 3500),
    (t_adjective, 4500),
    (t_be_noun, 2500),
    (t_location, 2500),
    (t_person_at, 1200),
    (t_there_is, 2500),
    (t_go, 2500),
    (t_wh, 3500),
    (t_imperative, 2500),
    (t_conjunction, 3500),
    (t_police, 700),
    (t_course_words, 300),
    (t_participle_np, 1500),
    (t_fly, 800),
    (t_bat_animal, 1000),
    (t_bat_sport, 1200),
    (t_bank_river, 1200),
    (t_bank_money, 1200),
    (t_play, 2500),
    (t_watch, 1200),
    (t_light, 1800),
]
MIN_LEN, MAX_LEN = 2, 20


def grammar_pairs(seed: int = 0) -> list[SentencePair]:
    """The core grammar's corpus, deterministic from the seed: course sentences, arithmetic, then grammar
    draws. `assemble.generate_pairs` adds the everyday lexicon's sentences and the phrasebook."""
    rng = random.Random(seed)
    pairs: list[SentencePair] = []
    seen_en: dict[tuple, tuple] = {}
    seen_zh: dict[tuple, tuple] = {}

    def add(pair: SentencePair) -> None:
        # one translation per source side, per direction
        key = (pair.en_tokens, pair.zh_tokens, pair.direction)
        if key in seen:
            return
        seen.add(key)
        pairs.append(pair)

    seen: set = set()
    for pair in COURSE_SENTENCES:
        add(pair)
    course_keys = {(p.en_tokens, p.zh_tokens) for p in COURSE_SENTENCES}
    for pair in arithmetic_pairs():
        if (pair.en_tokens, pair.zh_tokens) not in course_keys:
            add(pair)
    for template, draws in TEMPLATES:
        for _ in range(draws):
            made = template(rng)
            if made is None:
                continue
            p, topic = made
            if not MIN_LEN <= len(p.en) <= MAX_LEN or (p.en, p.zh) in course_keys:
                continue
            if p.en in seen_en and seen_en[p.en] != p.zh or p.zh in seen_zh and seen_zh[p.zh] != p.en:
                raise AssertionError(
                    f"grammar is ambiguous: {p.en} / {p.zh} vs {seen_zh.get(p.zh)} / {seen_en.get(p.en)}"
                )
            seen_en[p.en], seen_zh[p.zh] = p.zh, p.en
            add(SentencePair(p.en, p.zh, topic, "both", _dedupe(p.amb)))
    return pairs


def _dedupe(amb):
    out = []
    for a in amb:
        if a not in out or a[0] == "saw":
            out.append(a)
    # keep each (word, sense) once, except that a sentence may use both senses of one word
    return tuple(dict.fromkeys(out))


def find_conflicts(pairs: list[SentencePair]) -> list[str]:
    """Sources with more than one translation (per direction). Empty for a sound corpus."""
    en2zh, zh2en = defaultdict(set), defaultdict(set)
    for p in pairs:
        if p.direction in ("both", "en2zh"):
            en2zh[p.en_tokens].add(p.zh_tokens)
        if p.direction in ("both", "zh2en"):
            zh2en[p.zh_tokens].add(p.en_tokens)
    return [f"EN {' '.join(k)} -> {sorted(v)}" for k, v in en2zh.items() if len(v) > 1] + [
        f"ZH {''.join(k)} -> {sorted(v)}" for k, v in zh2en.items() if len(v) > 1
    ]
