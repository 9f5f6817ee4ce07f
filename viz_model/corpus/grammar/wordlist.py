"""Every word or fixed phrase the grammar uses, with its Chinese, part of speech and topic (the app's word
list and `assets/corpus/lexicon.tsv`)."""

from __future__ import annotations

from dataclasses import dataclass

from .tables import (
    ADJECTIVES,
    AMBIGUOUS_WORDS,
    COLOURS,
    DRINKS,
    EN_NUMBERS,
    INTRANSITIVE,
    KIN,
    NAMES,
    NOUNS,
    OBJECT_PRONOUNS,
    PERSON_ADJECTIVES,
    PLACES,
    PRONOUNS,
    TIME,
    VERBS,
    ZH_NUMBERS,
)


@dataclass(frozen=True)
class LexiconEntry:
    english: str
    chinese: str
    part_of_speech: str
    topic: str


_NOUN_TOPIC = {
    "person": "people",
    "criminal": "people",
    "animal": "animals",
    "food": "food",
    "object": "things",
    "brand": "things",
    "bat": "animals",
}
FUNCTION_WORDS = [
    ("and", "和", "conjunction", "conjunctions"),
    ("and", "，", "conjunction", "conjunctions"),
    ("but", "但是", "conjunction", "conjunctions"),
    ("or", "还是", "conjunction", "conjunctions"),
    ("or", "或者", "conjunction", "conjunctions"),
    ("or", "要么", "conjunction", "conjunctions"),
    ("because", "因为", "conjunction", "conjunctions"),
    ("when", "当…时", "conjunction", "conjunctions"),
    ("please", "请", "adverb", "imperative"),
    ("don't", "不要", "adverb", "imperative"),
    ("not", "不", "adverb", "negation"),
    ("didn't", "没", "adverb", "negation"),
    ("no", "没有", "determiner", "negation"),
    ("will", "会", "verb", "time"),
    ("a", "一", "determiner", "grammar"),
    ("the", "(none)", "determiner", "grammar"),
    ("this", "这", "determiner", "grammar"),
    ("that", "那", "determiner", "grammar"),
    ("these", "这些", "determiner", "grammar"),
    ("those", "那些", "determiner", "grammar"),
    ("what", "什么", "pronoun", "question"),
    ("who", "谁", "pronoun", "question"),
    ("where", "哪里", "adverb", "question"),
    ("how many", "几", "determiner", "question"),
    ("why", "为什么", "adverb", "question"),
    ("when", "什么时候", "adverb", "question"),
    ("color", "颜色", "noun", "question"),
    ("very", "非常", "adverb", "adjectives"),
    ("money", "钱", "noun", "things"),
    ("plus", "加", "verb", "arithmetic"),
    ("minus", "减", "verb", "arithmetic"),
    ("equals", "等于", "verb", "arithmetic"),
    ("the fbi", "联邦调查局", "noun", "course"),
    ("thinking machines", "思考的机器", "noun", "course"),
    ("the game of thrones", "权力的游戏", "noun", "course"),
    ("middle ground", "中间地带", "noun", "course"),
    ("on the run", "在逃", "adjective", "course"),
    ("win", "赢", "verb", "course"),
    ("die", "死", "verb", "course"),
    ("football", "足球", "noun", "sports"),
    ("basketball", "篮球", "noun", "sports"),
    ("table tennis", "乒乓球", "noun", "sports"),
    ("tennis", "网球", "noun", "sports"),
    ("turn on", "打开", "verb", "daily life"),
    ("turn off", "关掉", "verb", "daily life"),
    ("bright", "亮", "adjective", "adjectives"),
    ("cave", "山洞", "noun", "places"),
    ("river", "河", "noun", "places"),
    ("room", "房间", "noun", "places"),
    ("ground", "地上", "noun", "places"),
    ("middle", "中间", "noun", "places"),
    ("night", "晚上", "noun", "time"),
    ("morning", "早上", "noun", "time"),
    ("now", "现在", "adverb", "time"),
    ("game", "游戏", "noun", "things"),
    ("match", "比赛", "noun", "sports"),
]


def lexicon() -> list[LexiconEntry]:
    """Every word (or fixed phrase) the grammar uses, with its Chinese, part of speech and topic."""
    out = [LexiconEntry(en, zh, "pronoun", "people") for en, zh, _ in PRONOUNS]
    out += [LexiconEntry(en, zh, "pronoun", "people") for en, zh in OBJECT_PRONOUNS if en not in ("you",)]
    out += [LexiconEntry(en, zh, "name", "people") for en, zh in NAMES]
    out += [LexiconEntry(en, zh, "noun", "family") for en, zh in KIN]
    for en, _plural, zh, _measure, kind in NOUNS:
        out.append(LexiconEntry(en, zh.replace(" ", ""), "noun", _NOUN_TOPIC[kind]))
    out += [LexiconEntry(en, zh, "noun", "food") for en, zh in DRINKS]
    out += [LexiconEntry(en, zh, "noun", "places") for en, zh, _ in PLACES]
    out += [LexiconEntry(v[0], v[4], "verb", "daily life") for v in VERBS]
    out += [
        LexiconEntry("chase", "追捕", "verb", "daily life"),
        LexiconEntry("watch", "看", "verb", "ambiguous"),
        LexiconEntry("play", "玩", "verb", "ambiguous"),
        LexiconEntry("fly", "飞", "verb", "ambiguous"),
    ]
    out += [LexiconEntry(v[0], v[4], "verb", "daily life") for v in INTRANSITIVE]
    out += [
        LexiconEntry(a[0], a[1], "adjective", "adjectives")
        for a in ADJECTIVES + [(en, zh) for en, zh in PERSON_ADJECTIVES]
    ]
    out += [LexiconEntry("light", "轻", "adjective", "adjectives")]
    out += [LexiconEntry(en, zh, "adjective", "colours") for en, zh in COLOURS]
    for key in ("past", "fut", "habit", "habit_adv"):
        out += [LexiconEntry(en, zh.replace(" ", ""), "adverb", "time") for en, zh in TIME[key] if en]
    out += [LexiconEntry(EN_NUMBERS[n], ZH_NUMBERS[n], "number", "numbers") for n in range(41)]
    out += [LexiconEntry("two", "两", "number", "numbers")]
    out += [LexiconEntry(*w) for w in FUNCTION_WORDS]
    for word, senses in AMBIGUOUS_WORDS.items():
        out += [LexiconEntry(word, zh, f"ambiguous: {gloss}", "ambiguous") for zh, gloss in senses.items()]
    return list(dict.fromkeys(out))
