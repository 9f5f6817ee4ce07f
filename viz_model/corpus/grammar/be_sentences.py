"""Sentence rules with "be" and "there is": adjectives ("the bag is light" ↔ 包很轻), being a noun,
where things and people are, what there is somewhere."""

from __future__ import annotations

import random

from .clauses import STMT_MODES, _punct
from .noun_phrases import (
    _adj_amb,
    _colour,
    _locations_for,
    _noun_amb,
    _random_adj,
    be,
    be_not,
    np_,
    place_ph,
    random_subject,
)
from .phrases import E, Ph, Z, ph
from .tables import COLOURABLE, NOUN, PERSON_ADJECTIVES, PLACES, POSSESSORS, SETS, TIME


def _adj_clause(rng: random.Random, subj: Ph, agr: str, adj: tuple[str, str], extra_amb=(), colour: bool = False) -> Ph:
    """ "S is (very) ADJ" ↔ S很/非常ADJ; colours: "S is red" ↔ S是红色的; with negation and questions."""
    en, zh = adj
    mode = rng.choice(["stmt", "stmt", "stmt", "neg", "q"])
    a = Ph(amb=tuple(extra_amb))
    if colour:
        if mode == "stmt":
            p = subj + ph(f"{be(agr)} {en}", f"是 {zh} 的")
        elif mode == "neg":
            p = subj + ph(f"{be_not(agr)} {en}", f"不 是 {zh} 的")
        else:
            p = Ph(en=(be(agr),)) + subj + ph(en, f"是 {zh} 的 吗")
    else:
        if mode == "stmt":
            very = rng.random() < 0.3
            p = subj + ph(f"{be(agr)} {'very ' if very else ''}{en}", f"{'非常' if very else '很'} {zh}")
        elif mode == "neg":
            p = subj + ph(f"{be_not(agr)} {en}", f"不 {zh}")
        else:
            p = Ph(en=(be(agr),)) + subj + ph(en, f"{zh} 吗")
    return _punct(p + a, mode)


def t_adjective(rng: random.Random):
    r = rng.random()
    if r < 0.35:
        # people: "I am happy" ↔ 我很高兴; past with a time word: "I was tired yesterday" ↔ 我昨天很累
        subj, agr = random_subject(rng)
        adj = rng.choice(PERSON_ADJECTIVES)
        if rng.random() < 0.25:
            t_en, t_zh = rng.choice(TIME["past"][:-1])
            was = "was" if agr in ("1s", "3s") else "were"
            p = subj + ph(f"{was} {adj[0]} {t_en}", f"{t_zh} 很 {adj[1]}")
            return _punct(p, "stmt"), "time"
        p = _adj_clause(rng, subj, agr, adj)
        return p, (
            "question" if p.en[-1] == "?" else "negation" if p.zh[-2:-1] == (adj[1],) and "不" in p.zh else "adjectives"
        )
    noun = rng.choice([n for n in NOUN if NOUN[n][4] in ("animal", "object", "food")])
    det = rng.choice(["the", "the", "this", "that", "these", "those", "my", "your", "his", "her"])
    subj, agr = np_(noun, det)
    if noun in COLOURABLE and rng.random() < 0.4:
        c = _colour(rng)
        p = _adj_clause(rng, subj, agr, c, extra_amb=_adj_amb(c[0], c[1]), colour=True)
        return p, "adjectives"
    adj = _random_adj(rng, noun)
    if adj is None or adj[1].endswith("色"):
        return None
    p = _adj_clause(rng, subj, agr, (adj[0], adj[1]))
    return p, "adjectives"


def t_be_noun(rng: random.Random):
    """ "I am a student" ↔ 我是一个学生; "we are students" ↔ 我们是学生; "this is a saw" ↔ 这是一把锯子."""
    r = rng.random()
    mode = rng.choice(STMT_MODES)
    if r < 0.5:
        subj, agr = random_subject(rng, allow_i=(mode != "q"))
        if subj.en[0] == "the" and agr == "pl":
            return None  # "the students are teachers"
        noun = rng.choice([n for n in SETS["person"] if n not in ("child", "baby", "boy", "girl")])
        if agr == "pl":
            o = ph(NOUN[noun][1], NOUN[noun][2])  # plural predicate noun, no measure word
        elif agr == "2" and rng.random() < 0.5:
            return None
        else:
            o = np_(noun, "a")[0]
        return _be(subj, agr, "是", o, mode, "daily life")
    # "this is a cat" / "that is my phone" / "these are my books"
    noun = rng.choice([n for n in NOUN if NOUN[n][4] in ("animal", "object", "food", "brand")])
    plural = rng.random() < 0.25
    demo_en = ("these" if rng.random() < 0.5 else "those") if plural else rng.choice(["this", "that"])
    demo_zh = {"this": "这", "that": "那", "these": "这些", "those": "那些"}[demo_en]
    det = rng.choice(["num", "my", "your", "his", "her"] if plural else ["a", "a", "my", "your", "his", "her"])
    o, _ = np_(noun, det if not plural or det != "num" else "num", count=rng.randint(2, 10))
    if plural and det != "num":
        o = ph(f"{det} {NOUN[noun][1]}", f"{dict(POSSESSORS)[det]} 的 {NOUN[noun][2]}", _noun_amb(noun))
    return _be(ph(demo_en, demo_zh), "pl" if plural else "3s", "是", o, mode, "daily life")


def t_location(rng: random.Random):
    """ "the cat is in the kitchen" ↔ 猫在厨房里; "where is my phone ?" ↔ 我的手机在哪里？"""
    noun = rng.choice([n for n in NOUN if NOUN[n][4] in ("animal", "object", "food", "brand")])
    if noun == "bat":
        return None
    det = rng.choice(["the", "the", "my", "your", "his", "her", "this", "that", "these", "those"])
    subj, agr = np_(noun, det)
    if rng.random() < 0.2:
        return _where(subj, agr)
    loc = place_ph(*rng.choice(_locations_for(noun)))
    return _be(subj, agr, "在", loc, rng.choice(STMT_MODES), "daily life")


def t_person_at(rng: random.Random):
    """ "my mother is at the bank" ↔ 我妈妈在银行."""
    subj, agr = random_subject(rng)
    place, zh, prep = rng.choice([p for p in PLACES if p[2] == "at"])
    loc = place_ph(f"at the {place}", zh)
    mode = rng.choice(STMT_MODES)
    if mode == "q" and subj.en == ("i",):
        return None
    if rng.random() < 0.15 and subj.en != ("i",):
        return _where(subj, agr)
    return _be(subj, agr, "在", loc, mode, "places")


def _where(subj: Ph, agr: str):
    """ "where is S ?" ↔ S在哪里？"""
    return _punct(Ph(en=("where", be(agr))) + subj + Z("在 哪里"), "q"), "question"


def _be(subj: Ph, agr: str, zh_be: str, rest: Ph, mode: str, topic: str):
    """ "S is X", Chinese 是 before a noun (我是一个学生) or 在 before a place (猫在厨房里); negated ("S isn't X" ↔
    S不是X / S不在X) or asked ("is S X ?" ↔ S是X吗？); with the pair's topic."""
    if mode == "stmt":
        p = subj + E(be(agr)) + Z(zh_be) + rest
    elif mode == "neg":
        p = subj + E(be_not(agr)) + Z(f"不 {zh_be}") + rest
    else:
        p = E(be(agr)) + subj + Z(zh_be) + rest + Z("吗")
    return _punct(p, mode), {"stmt": topic, "neg": "negation", "q": "question"}[mode]


def t_there_is(rng: random.Random):
    """ "there are three books on the table" ↔ 桌子上有三本书; "there is no cat in the kitchen" ↔ 厨房里没有猫."""
    noun = rng.choice([n for n in NOUN if NOUN[n][4] in ("animal", "object", "food", "person", "criminal")])
    if noun in ("bat", "house", "tree") or NOUN[noun][4] in ("person", "criminal") and rng.random() < 0.5:
        return None
    loc_en, loc_zh = rng.choice(_locations_for(noun))
    loc = place_ph(loc_en, loc_zh)
    r = rng.random()
    if r < 0.2:  # no
        n_en = NOUN[noun][0]
        return _punct(
            ph("there is no", "") + Ph(en=(n_en,), amb=_noun_amb(noun)) + loc + Z("没有 " + NOUN[noun][2]), "stmt"
        ), "negation"
    det = rng.choice(["a", "a", "num"])
    o, agr = np_(noun, det, count=rng.randint(2, 10))
    there = "there are" if agr == "pl" else "there is"
    if r < 0.35:
        q = "are there" if agr == "pl" else "is there"
        return _punct(
            E(q) + Ph(en=o.en, amb=o.amb) + Ph(en=loc.en, amb=loc.amb) + Z(loc_zh + " 有") + Ph(zh=o.zh) + Z("吗"), "q"
        ), "question"
    p = E(there) + Ph(en=o.en, amb=o.amb) + loc + Z("有") + Ph(zh=o.zh)
    return _punct(p, "stmt"), ("numbers" if det == "num" else "places")
