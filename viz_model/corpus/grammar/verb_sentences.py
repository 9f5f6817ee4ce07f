"""Sentence rules around a verb: transitive and intransitive clauses, going somewhere, imperatives."""

from __future__ import annotations

import random

from .clauses import STMT_MODES, VP, _object, _punct, _same_person, _time, _topic, clause
from .noun_phrases import place_ph, random_np, random_subject
from .phrases import Ph, Z, ph
from .tables import (
    COUNT_ZH,
    CRIMINAL_VERBS,
    INTRANSITIVE,
    INTRANSITIVE_PLACES,
    LOCATIONS,
    NOUN,
    PLACE_ADVERBIALS,
    PLACES,
    SETS,
    TIME,
    VERB,
    VERBS,
)


def t_transitive(rng: random.Random):
    base, s3, past, ing, zh, objs, tenses, who = rng.choice(VERBS)
    tense = rng.choice(sorted(tenses))
    mode = rng.choice(STMT_MODES)
    subj, agr = random_subject(rng, animals=(who == "any"), allow_i=(mode != "q"))
    obj = _object(rng, base, objs)
    if mode == "neg" and base != "have" and obj.zh and (obj.zh[0] == "一" or obj.zh[0] in COUNT_ZH.values()):
        return None  # "没用一把锯子" is stilted Chinese; negate definite objects ("没用锯子")
    verb_zh = zh
    if base in CRIMINAL_VERBS and rng.random() < 0.4 and NOUN.get(subj.en[-1], ("",) * 5)[4] != "animal":
        obj = random_np(rng, SETS["criminal"], dets=["a", "the", "this", "that", "num"], adj_p=0)[0]
        verb_zh = CRIMINAL_VERBS[base]
    if _same_person(subj, obj):
        return None
    if rng.random() < 0.1 and objs not in ("drink", "person"):
        # two objects joined by "and" ↔ 和
        obj2 = _object(rng, base, objs)
        if obj2.zh == obj.zh:
            return None
        obj = obj + ph("and", "和") + obj2
    time = _time(rng, tense, mode) if tense != "state" else ("", "")
    place = None
    if (
        tense != "state"
        and base in ("eat", "drink", "read", "write", "draw", "buy", "sell", "feed", "meet")
        and rng.random() < 0.15
    ):
        place = place_ph(*rng.choice(PLACE_ADVERBIALS[:9]))
    if base == "see" and tense == "past" and rng.random() < 0.2:
        place = place_ph(*rng.choice(LOCATIONS[-4:] + [("in the park", "公园 里")]))
    vp = VP(base, s3, past, ing, verb_zh, obj, have=(base == "have"))
    p = _punct(clause(subj, agr, vp, tense, mode, time, place), mode)
    return p, _topic(mode, tense, time, p)


def t_intransitive(rng: random.Random):
    base, s3, past, ing, zh, who, tenses = rng.choice(INTRANSITIVE)
    tense = rng.choice(sorted(tenses))
    mode = rng.choice(STMT_MODES)
    subj, agr = random_subject(rng, animals=(who == "any"), allow_i=(mode != "q"))
    time = _time(rng, tense, mode)
    place = None
    if rng.random() < 0.35 and base in INTRANSITIVE_PLACES and subj.en[-1] not in SETS["animal"]:
        where = INTRANSITIVE_PLACES[base]
        pick = rng.choice(where)
        place = place_ph(pick, dict(PLACE_ADVERBIALS)[pick])
    if tense == "past" and mode == "stmt" and place:
        return None  # "他昨天在公园跑步了" is fine, but keep past + place for the transitive verbs
    vp = VP(base, s3, past, ing, zh)
    p = _punct(clause(subj, agr, vp, tense, mode, time, place), mode)
    return p, _topic(mode, tense, time, p)


def t_go(rng: random.Random):
    """ "she went to the zoo yesterday" ↔ 她昨天去了动物园; "where did you go ?" ↔ 你去了哪里？"""
    place, zh, _ = rng.choice(PLACES)
    tense = rng.choice(["habit", "past", "past", "fut"])
    mode = rng.choice(STMT_MODES + ["wh"])
    subj, agr = random_subject(rng, allow_i=(mode not in ("q", "wh")))
    time = _time(rng, tense, "stmt" if mode == "wh" else mode)
    if mode == "wh":
        if tense == "habit" and time[0] in dict(TIME["habit_adv"]):
            return None
        vp = VP("go", "goes", "went", "going", "去", Z("哪里"))
        c = clause(subj, agr, vp, tense, "q", time)
        # clause() builds "did you go … ?" with 吗; turn it into a where-question.
        p = Ph(("where",) + c.en, c.zh[:-1], c.amb)
        return _punct(p, "q"), "question"
    vp = VP("go", "goes", "went", "going", "去", place_ph(f"to the {place}", zh))
    p = _punct(clause(subj, agr, vp, tense, mode, time), mode)
    return p, _topic(mode, tense, time, p, "places")


def t_imperative(rng: random.Random):
    """ "please open the door ." ↔ 请打开门。; "don't eat the cake !" ↔ 不要吃蛋糕！"""
    r = rng.random()
    if r < 0.8:
        verb = VERB[
            rng.choice(
                [
                    "eat",
                    "drink",
                    "buy",
                    "read",
                    "write",
                    "draw",
                    "wash",
                    "open",
                    "close",
                    "take",
                    "use",
                    "feed",
                    "help",
                    "fix",
                    "sell",
                    "find",
                    "chase",
                    "catch",
                ]
            )
        ]
        obj = _object(rng, verb[0], verb[5])
        if rng.random() < 0.15 and verb[5] not in ("drink", "person"):
            obj2 = _object(rng, verb[0], verb[5])
            if obj2.zh == obj.zh:
                return None
            obj = obj + ph("and", "和") + obj2
        if obj.en[0] in ("me",) and verb[0] != "help":
            return None
        vp = ph(verb[0], verb[4]) + obj
    else:
        base, _s, _p, _i, zh, who, _t = rng.choice(
            [v for v in INTRANSITIVE if v[0] not in ("think", "win", "cry", "laugh")]
        )
        vp = ph(base, zh)
    kind = rng.choice(["please", "please", "please_dont", "dont"])
    if kind == "please":
        return ph("please", "请") + vp + ph(".", "。"), "imperative"
    if kind == "please_dont":
        return ph("please don't", "请 不要") + vp + ph(".", "。"), "imperative"
    return ph("don't", "不要") + vp + ph("!", "！"), "imperative"
