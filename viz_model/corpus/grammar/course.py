"""The course's own sentences (always in the training split) and three rules around their words: the
police chasing criminals on the run, thinking machines or the game of thrones, and noun phrases that start
with a participle ("sleeping cats", "thinking machines") wherever a noun phrase goes."""

from __future__ import annotations

import random

from .clauses import STMT_MODES, VP, _punct, _time, clause
from .noun_phrases import random_np, random_subject
from .phrases import Ph, SentencePair, ph
from .tables import CRIMINAL_VERBS, INTRANSITIVE, NOUN, SETS, VERB

COURSE_SENTENCES: list[SentencePair] = [
    SentencePair(
        ("please", "buy", "an", "apple", "and", "an", "orange", "."),
        ("请", "买", "一", "个", "苹果", "和", "一", "个", "橙子", "。"),
        "course",
        ambiguous=(("orange", "橙子"),),
    ),
    SentencePair(("an", "apple", "phone"), ("一", "部", "苹果", "手机"), "course"),
    SentencePair(("i", "am", "a", "student", "."), ("我", "是", "一", "个", "学生", "。"), "course"),
    SentencePair(
        ("i", "saw", "a", "saw", "."),
        ("我", "看见", "了", "一", "把", "锯子", "。"),
        "course",
        ambiguous=(("saw", "看见"), ("saw", "锯子")),
    ),
    SentencePair(
        ("the", "fbi", "is", "chasing", "a", "criminal", "on", "the", "run", "."),
        ("联邦调查局", "正在", "追捕", "一", "名", "在逃", "的", "罪犯", "。"),
        "course",
    ),
    SentencePair(("thinking", "machines"), ("思考", "的", "机器"), "course"),
    SentencePair(
        ("when", "you", "play", "the", "game", "of", "thrones", ",", "you", "win", "or", "you", "die", "."),
        ("当", "你", "玩", "权力的游戏", "时", "，", "你", "要么", "赢", "，", "要么", "死", "。"),
        "course",
        ambiguous=(("play", "玩"),),
    ),
    SentencePair(("there", "is", "no", "middle", "ground", "."), ("没有", "中间", "地带", "。"), "course"),
    SentencePair(("one", "plus", "three", "equals", "four"), ("一", "加", "三"), "course", direction="zh2en"),
    SentencePair(("one", "plus", "three", "equals", "four"), ("一", "加", "三", "等于", "四"), "course"),
]


def t_police(rng: random.Random):
    """The FBI / the police and criminals: 追捕 / 抓住, "a criminal on the run" ↔ 一名在逃的罪犯."""
    subj = rng.choice(
        [
            (ph("the fbi", "联邦调查局"), "3s"),
            (ph("the policeman", "警察"), "3s"),
            (ph("the policemen", "警察们"), "pl"),
            random_subject(rng),
        ]
    )
    s, agr = subj
    r = rng.random()
    if r < 0.4:
        obj = rng.choice(
            [
                ph("a criminal on the run", "一 名 在逃 的 罪犯"),
                ph("the criminal on the run", "在逃 的 罪犯"),
                ph("two criminals on the run", "两 名 在逃 的 罪犯"),
                ph("a thief on the run", "一 个 在逃 的 小偷"),
            ]
        )
    else:
        obj = random_np(rng, SETS["criminal"], dets=["a", "the", "this", "that", "num"], adj_p=0)[0]
    verb = rng.choice(["chase", "chase", "catch", "help", "see", "find"])
    if verb == "help":
        return None
    base, s3, past, ing, zh, *_ = VERB[verb]
    zh = CRIMINAL_VERBS.get(verb, zh)
    tense = rng.choice(sorted(VERB[verb][6] | ({"prog"} if verb == "chase" else set())))
    mode = rng.choice(STMT_MODES)
    if mode == "q" and s.en == ("i",):
        return None
    time = _time(rng, tense, mode)
    return _punct(clause(s, agr, VP(base, s3, past, ing, zh, obj), tense, mode, time), mode), "daily life"


def t_course_words(rng: random.Random):
    """Other sentences with the course words: thinking machines, the game of thrones, middle, ground."""
    subj, agr = random_subject(rng)
    r = rng.random()
    if r < 0.4:
        verb = rng.choice([("like", "likes", "喜欢"), ("love", "loves", "爱"), ("want", "wants", "想要")])
        mode = rng.choice(STMT_MODES)
        if mode == "q" and subj.en == ("i",):
            return None
        vp = VP(verb[0], verb[1], "", "", verb[2], ph("thinking machines", "思考 的 机器"))
        return _punct(clause(subj, agr, vp, "state", mode), mode), "daily life"
    if r < 0.7:
        mode = rng.choice(STMT_MODES)
        if mode == "q" and subj.en == ("i",):
            return None
        vp = VP("like", "likes", "", "", "喜欢", ph("the game of thrones", "权力的游戏"))
        return _punct(clause(subj, agr, vp, "state", mode), mode), "daily life"
    # "there is a tree in the middle of the park" is produced by t_there_is; here: the thinker
    tense = rng.choice(["prog"])
    mode = rng.choice(STMT_MODES)
    if mode == "q" and subj.en == ("i",):
        return None
    t = _time(rng, tense, mode)
    p = _punct(clause(subj, agr, VP("think", "thinks", "thought", "thinking", "思考"), tense, mode, t), mode)
    return p, "daily life"


# Participles that read as adjectives before a plural noun ("sleeping cats" ↔ 睡觉 的 猫), and the nouns they
# fit. Without this rule "thinking machines" is only ever an object, and at the start of a sentence a model
# may read "Thinking" as a gerund (思考) instead of the noun phrase the course means.
_PARTICIPLES = {"sleep", "run", "swim", "sing", "dance", "cry", "laugh", "work", "think", "walk"}
_LIKE_VERBS = [("like", "likes", "喜欢"), ("love", "loves", "爱"), ("want", "wants", "想要")]


def participle_np(rng: random.Random) -> Ph:
    """A bare plural noun phrase led by a participle: "dancing nurses" ↔ 跳舞 的 护士."""
    if rng.random() < 0.15:
        return ph("thinking machines", "思考 的 机器")
    verb = rng.choice([v for v in INTRANSITIVE if v[0] in _PARTICIPLES])
    nouns = SETS["person"] + (SETS["animal"] if verb[5] == "any" else [])
    noun = NOUN[rng.choice([n for n in nouns if n != "fly"])]
    return ph(f"{verb[3]} {noun[1]}", f"{verb[4]} 的 {noun[2]}")


def t_participle_np(rng: random.Random):
    """The participle noun phrase alone, as a subject, or as an object."""
    np = participle_np(rng)
    r = rng.random()
    if r < 0.3:
        return (np + ph(".", "。") if rng.random() < 0.5 else np), "daily life"
    mode = rng.choice(STMT_MODES)
    if r < 0.7:
        verb = rng.choice(_LIKE_VERBS)
        obj = random_np(rng, SETS["likeable"], dets=["a", "the", "this", "that", "num"], adj_p=0.1)[0]
        return _punct(clause(np, "pl", VP(verb[0], verb[1], "", "", verb[2], obj), "state", mode), mode), "daily life"
    subj, agr = random_subject(rng)
    if mode == "q" and subj.en == ("i",):
        return None
    verb = rng.choice(_LIKE_VERBS)
    return _punct(clause(subj, agr, VP(verb[0], verb[1], "", "", verb[2], np), "state", mode), mode), "daily life"
