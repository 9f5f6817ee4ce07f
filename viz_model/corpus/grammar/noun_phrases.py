"""Noun phrases ("a big cat" ↔ 一只大猫, "my mother" ↔ 我妈妈), subjects with their agreement, the
forms of "be" and "do", and place phrases with the ambiguity tags they carry."""

from __future__ import annotations

import random

from .phrases import Ph, ph
from .tables import (
    ADJECTIVES,
    ANIMAL_ONLY_LOCATIONS,
    COLOURABLE,
    COLOURS,
    COUNT_ZH,
    DRINKS,
    EN_NUMBERS,
    KIN,
    LOCATIONS,
    NAMES,
    NOUN,
    POSSESSORS,
    PRONOUNS,
    SETS,
    VEHICLES,
)


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _noun_amb(noun: str) -> tuple[tuple[str, str], ...]:
    """Ambiguity tags of a noun used as a noun (saw → 锯子, watch → 手表, …)."""
    tags = {"saw": "锯子", "watch": "手表", "light": "灯", "orange": "橙子", "fly": "苍蝇", "bat": "蝙蝠"}
    if noun == "apple watch":
        return (("watch", "手表"),)
    return ((noun, tags[noun]),) if noun in tags else ()


def _adj_forms(adj) -> tuple[str, str, str]:
    """(english, chinese attributive, chinese predicative) for an adjective or colour entry."""
    en, zh = adj[0], adj[1]
    if zh.endswith("色"):
        return en, f"{zh} 的", zh  # 红色的车 / 车是红色的
    return en, (zh if adj[3] == "direct" else f"{zh} 的"), zh


def _adj_amb(en: str, zh_pred: str):
    if en == "orange":
        return (("orange", "橙色"),)
    if en == "light":
        return (("light", "轻"),)
    return ()


def np_(noun: str, det: str, adj=None, count: int = 0) -> tuple[Ph, str]:
    """A noun phrase and its agreement ("3s" or "pl").

    det: "a", "the", "this", "that", "these", "those", "num", or a possessor "my/your/his/her".
    adj: an ADJECTIVES or COLOURS entry, or None.
    """
    en_s, en_p, zh, mw, _kind = NOUN[noun]
    plural = det in ("these", "those", "num")
    en_noun = en_p if plural else en_s
    amb = _noun_amb(noun)
    if adj is not None:
        a_en, a_zh, a_pred = _adj_forms(adj)
        en_noun = f"{a_en} {en_noun}"
        zh = f"{a_zh} {zh}"
        amb = _adj_amb(a_en, a_pred) + amb
    p = det_phrase(det, en_noun, zh, mw, count)
    return Ph(p.en, p.zh, amb), ("pl" if plural else "3s")


def det_phrase(det: str, en_noun: str, zh: str, mw: str, count: int = 0) -> Ph:
    """A determiner and its noun in both languages: "a N" ↔ 一 + measure word + N, "the N" ↔ N, "this N" ↔
    这 + measure word + N, "these Ns" ↔ 这些 N, "three Ns" ↔ 三 + measure word + N, "my N" ↔ 我 的 N."""
    if det == "a":
        return ph(f"{_a(en_noun)} {en_noun}", f"一 {mw} {zh}")
    if det == "the":
        return ph(f"the {en_noun}", zh)
    if det in ("this", "that"):
        return ph(f"{det} {en_noun}", f"{'这' if det == 'this' else '那'} {mw} {zh}")
    if det in ("these", "those"):
        return ph(f"{det} {en_noun}", f"{'这些' if det == 'these' else '那些'} {zh}")
    if det == "num":
        return ph(f"{EN_NUMBERS[count]} {en_noun}", f"{COUNT_ZH[count]} {mw} {zh}")
    return ph(f"{det} {en_noun}", f"{dict(POSSESSORS)[det]} 的 {zh}")


def drink_np(drink: str, det: str, count: int = 0) -> Ph:
    zh = dict(DRINKS)[drink]
    if det == "a":
        return ph(f"a cup of {drink}", f"一 杯 {zh}")
    if det == "num":
        return ph(f"{EN_NUMBERS[count]} cups of {drink}", f"{COUNT_ZH[count]} 杯 {zh}")
    if det == "the":
        return ph(f"the {drink}", zh)
    return ph(f"{det} {drink}", f"{dict(POSSESSORS)[det]} 的 {zh}")


DETS = ["a", "a", "the", "this", "that", "these", "those", "num", "my", "your", "his", "her"]


def random_np(rng: random.Random, nouns: list[str], dets=DETS, adj_p: float = 0.25) -> tuple[Ph, str]:
    noun = rng.choice(nouns)
    kind = NOUN[noun][4]
    det = rng.choice(dets)
    if kind in ("person", "criminal") and det in ("these", "those"):
        det = "a"
    if kind in ("person", "criminal") and det in dict(POSSESSORS) and noun not in ("friend", "teacher", "doctor"):
        det = "the"  # "her boy" is odd English; "her teacher" is fine
    adj = None
    if rng.random() < adj_p:
        adj = _random_adj(rng, noun)
    return np_(noun, det, adj, rng.randint(2, 10))


def _colour(rng: random.Random):
    """A colour, orange more often than the others: it is the ambiguous one (橙子 / 橙色)."""
    return ("orange", "橙色") if rng.random() < 0.35 else rng.choice(COLOURS)


def _random_adj(rng: random.Random, noun: str):
    kind = NOUN[noun][4]
    options = [
        a
        for a in ADJECTIVES
        if kind in a[2] or ("vehicle" in a[2] and noun in VEHICLES) or ("readable" in a[2] and noun in SETS["readable"])
    ]
    if noun in COLOURABLE:
        c = _colour(rng)
        options += [(c[0], c[1], [], "de")] * 4  # colours are a quarter or so of the choices
    # "an old fly", "a big light"… are fine English, but keep ambiguous nouns simple.
    if noun in ("light", "fly", "saw", "watch", "movie", "song", "picture", "ticket", "letter") or not options:
        return None
    return rng.choice(options)


def random_subject(rng: random.Random, animals: bool = False, allow_i: bool = True) -> tuple[Ph, str]:
    """A subject phrase and its agreement."""
    r = rng.random()
    if animals and r < 0.3:
        noun = rng.choice(SETS["animal"])
        det = rng.choice(["a", "the", "the", "this", "that", "my", "his", "her"])
        return np_(noun, det)
    r = rng.random()
    if r < 0.45:
        choices = PRONOUNS if allow_i else PRONOUNS[1:]
        en, zh, agr = rng.choice(choices)
        return ph(en, zh), agr
    if r < 0.7:
        en, zh = rng.choice(NAMES)
        return ph(en, zh), "3s"
    if r < 0.85:
        (pen, pzh), (ken, kzh) = rng.choice(POSSESSORS), rng.choice(KIN)
        return ph(f"{pen} {ken}", f"{pzh} {kzh}"), "3s"
    choice = rng.choice(
        [
            "the teacher",
            "the doctor",
            "the students",
            "the children",
            "my friend",
            "the policeman",
            "the farmer",
            "the driver",
            "the cook",
            "the nurse",
        ]
    )
    if choice == "the students":
        return ph("the students", "学生们"), "pl"
    if choice == "the children":
        return ph("the children", "孩子们"), "pl"
    if choice == "my friend":
        return ph("my friend", "我 的 朋友"), "3s"
    return np_(choice.split()[1], "the")


def be(agr: str) -> str:
    return {"1s": "am", "2": "are", "3s": "is", "pl": "are"}[agr]


def be_not(agr: str) -> str:
    return {"1s": "am not", "2": "aren't", "3s": "isn't", "pl": "aren't"}[agr]


def do(agr: str) -> str:
    return "does" if agr == "3s" else "do"


def _locations_for(noun: str) -> list[tuple[str, str]]:
    """Trees, caves and rivers are for animals (no guitars in trees)."""
    if NOUN[noun][4] == "animal":
        return LOCATIONS
    return [loc for loc in LOCATIONS if loc[0] not in ANIMAL_ONLY_LOCATIONS]


def _place_amb(en: str):
    if en.endswith("the bank") and en.startswith(("at", "in", "to")):
        return (("bank", "银行"),)
    if en == "on the bank":
        return (("bank", "河岸"),)
    return ()


def place_ph(en: str, zh: str) -> Ph:
    return ph(en, zh, _place_amb(en))
