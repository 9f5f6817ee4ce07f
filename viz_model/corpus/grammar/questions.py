"""Wh-questions: what, who, how many, what colour, when, why."""

from __future__ import annotations

import random

from .clauses import VP, _object, _punct, _time, clause
from .noun_phrases import _noun_amb, be, do, np_, place_ph, random_subject
from .phrases import Ph, Z, ph
from .tables import COLOURABLE, NOUN, PLACES, SETS, TIME, VERB

# The verbs each question asks about, in the order the seeded draws index them.
# fmt: off
WHAT_VERBS = ["eat", "drink", "buy", "see", "read", "write", "draw", "sell", "find", "like", "want", "need",
              "have", "wash", "use", "take", "lose"]
WHO_VERBS = ["eat", "buy", "see", "read", "write", "draw", "sell", "find", "like", "want", "wash", "fix", "feed",
             "help", "open", "close", "lose", "take"]
# fmt: on


def t_wh(rng: random.Random):
    """what / who / how many / what colour / when / why questions."""
    r = rng.random()
    if r < 0.3:  # what did you buy yesterday ? ↔ 你昨天买了什么？
        verb = VERB[rng.choice(WHAT_VERBS)]
        tense = rng.choice(sorted(verb[6]))
        subj, agr = random_subject(rng, allow_i=False)
        time = _time(rng, tense, "q") if tense != "state" else ("", "")
        if time[0] in dict(TIME["habit_adv"]):
            return None
        vp = VP(*verb[:4], verb[4], Z("什么"), have=False)
        c = clause(subj, agr, vp, tense, "q", time)
        en = ("what",) + c.en
        return _punct(Ph(en, c.zh[:-1], c.amb), "q"), "question"
    if r < 0.5:  # who bought the book ? ↔ 谁买了书？
        verb = VERB[rng.choice(WHO_VERBS)]
        tense = rng.choice(sorted(verb[6]))
        obj = _object(rng, verb[0], verb[5])
        time = _time(rng, tense, "stmt") if tense != "state" else ("", "")
        if time[0] in dict(TIME["habit_adv"]):
            return None
        c = clause(ph("who", "谁"), "3s", VP(*verb[:5], obj), tense, "stmt", time)
        return _punct(c, "q"), "question"
    if r < 0.65:  # how many cats do you have ? ↔ 你有几只猫？
        noun = rng.choice(SETS["have"] + ["book", "apple", "pen", "ticket", "orange"])
        if NOUN[noun][4] == "brand" or noun == "friend" and rng.random() < 0.5:
            pass
        subj, agr = random_subject(rng, allow_i=False)
        en_s, en_p, zh, mw, _ = NOUN[noun]
        if rng.random() < 0.6:
            p = (
                Ph(en=("how", "many") + tuple(en_p.split()) + (do(agr),), amb=_noun_amb(noun))
                + subj
                + ph("have", f"有 几 {mw} {zh}")
            )
        else:
            verb = VERB[rng.choice(["buy", "sell", "eat", "see"])]
            if noun not in SETS[verb[5]]:
                return None
            t_en, t_zh = rng.choice(TIME["past"])
            p = (
                Ph(en=("how", "many") + tuple(en_p.split()) + ("did",), amb=_noun_amb(noun))
                + subj
                + ph(f"{verb[0]} {t_en}", f"{t_zh} {verb[4]} 了 几 {mw} {zh}")
            )
        return _punct(p, "q"), "question"
    if r < 0.75:  # what colour is the car ? ↔ 车是什么颜色的？
        noun = rng.choice(COLOURABLE)
        det = rng.choice(["the", "the", "my", "your", "his", "her", "this", "that"])
        o, agr = np_(noun, det)
        return _punct(Ph(en=("what", "color", be(agr))) + o + Z("是 什么 颜色 的"), "q"), "question"
    if r < 0.87:  # when will you go to the bank ? ↔ 你什么时候会去银行？
        subj, agr = random_subject(rng, allow_i=False)
        place, zh, _ = rng.choice(PLACES)
        c = ph("when will") + subj + ph("go", "什么 时候 会 去") + place_ph(f"to the {place}", zh)
        c = Ph(c.en, subj.zh + c.zh[len(subj.zh) :], c.amb)
        # put the subject first in Chinese: S 什么时候会去 P
        return _punct(c, "q"), "question"
    # why did you buy a saw ? ↔ 你为什么买了一把锯子？
    verb = VERB[rng.choice(["buy", "sell", "eat", "read", "draw", "wash", "open", "close", "take", "fix"])]
    subj, agr = random_subject(rng, allow_i=False)
    obj = _object(rng, verb[0], verb[5])
    p = ph("why did") + subj + ph(verb[0], f"为什么 {verb[4]} 了") + obj
    return _punct(p, "q"), "question"
