"""Sentence rules for the ambiguous words, each in a context that decides the sense: fly (飞 / 苍蝇),
bat (蝙蝠 / 球拍), bank (河岸 / 银行), play (玩 / 踢 / 打 / 弹 / 拉), watch (看 / 手表), light (灯 / 轻)."""

from __future__ import annotations

import random

from .be_sentences import _adj_clause
from .clauses import STMT_MODES, VP, _punct, _time, clause
from .noun_phrases import det_phrase, np_, place_ph, random_np, random_subject
from .phrases import Ph, Z, ph
from .tables import INSTRUMENTS, LIGHT_THINGS, MONEY, PRONOUNS, SPORTS, TIME, WATCHABLE


def _fliers(rng: random.Random) -> tuple[Ph, str, tuple]:
    noun = rng.choice(["bird", "bat", "fly", "bird"])
    det = rng.choice(["a", "the", "the", "this", "that", "num"])
    subj, agr = np_(noun, det, count=rng.randint(2, 10))
    if noun == "bat":
        subj = Ph(subj.en, subj.zh, (("bat", "蝙蝠"),))
    return subj, agr, noun


def t_fly(rng: random.Random):
    """Flying things: "the bat flies at night" ↔ 蝙蝠晚上飞 (bat = 蝙蝠, fly = 飞)."""
    subj, agr, noun = _fliers(rng)
    tense = rng.choice(["habit", "prog", "prog"])
    mode = rng.choice(STMT_MODES)
    time = (
        rng.choice([("at night", "晚上"), ("every day", "每天"), ("every morning", "每天 早上")])
        if tense == "habit"
        else _time(rng, tense, mode)
    )
    place = (
        place_ph(*rng.choice([("in the cave", "山洞 里"), ("in the park", "公园"), ("in the garden", "花园")]))
        if rng.random() < 0.4
        else None
    )
    vp = VP("fly", "flies", "flew", "flying", "飞", amb=(("fly", "飞"),))
    p = _punct(clause(subj, agr, vp, tense, mode, time, place), mode)
    return p, "ambiguous"


def t_bat_animal(rng: random.Random):
    """Bats in caves and trees: 蝙蝠."""
    det = rng.choice(["a", "the", "this", "that", "num"])
    bat, agr = np_("bat", det, count=rng.randint(2, 10))
    bat = Ph(bat.en, bat.zh, (("bat", "蝙蝠"),))
    r = rng.random()
    where = rng.choice([("in the cave", "山洞 里"), ("in the tree", "树 上"), ("in the garden", "花园 里")])
    if r < 0.35:  # "there is a bat in the cave" ↔ 山洞里有一只蝙蝠
        if det in ("the", "this", "that"):
            return None
        en_be = "are" if agr == "pl" else "is"
        p = ph(f"there {en_be}", "") + Ph(en=tuple(where[0].split())) + Z(where[1]) + Z("有") + bat
        p = Ph(p.en[:2] + bat.en + p.en[2 : 2 + len(where[0].split())], p.zh, p.amb)
        return _punct(p, "stmt"), "ambiguous"
    if r < 0.7:  # "I saw a bat in the cave yesterday"
        subj, s_agr = random_subject(rng)
        tense = rng.choice(["past", "past", "fut"])
        mode = rng.choice(["stmt", "stmt", "q"])
        if mode == "q" and subj.en == ("i",):
            return None
        time = _time(rng, tense, mode)
        vp = VP("see", "sees", "saw", "seeing", "看见", bat)
        p = _punct(clause(subj, s_agr, vp, tense, mode, time, place_ph(*where)), mode)
        return p, "ambiguous"
    tense = rng.choice(["prog", "habit"])
    mode = rng.choice(STMT_MODES)
    time = ("", "") if tense == "prog" else rng.choice([("every day", "每天"), ("in the morning", "早上")])
    place = place_ph(*rng.choice([("in the cave", "山洞 里"), ("in the tree", "树 上")]))
    vp = VP("sleep", "sleeps", "slept", "sleeping", "睡觉")
    return _punct(clause(bat, agr, vp, tense, mode, time, place), mode), "ambiguous"


def t_bat_sport(rng: random.Random):
    """Bats for hitting balls: 球拍. "he hit the ball with a bat" ↔ 他用一个球拍打了球."""
    det = rng.choice(["a", "the", "my", "your", "his", "her", "this", "that"])
    adj = rng.choice([None, None, ("new", "新", [], "direct"), ("old", "旧", [], "direct")])
    bat_en = "bat" if adj is None else f"{adj[0]} bat"
    bat_zh = "球拍" if adj is None else f"{adj[1]} 球拍"
    bat = det_phrase(det, bat_en, bat_zh, "个")
    bat = Ph(bat.en, bat.zh, (("bat", "球拍"),))
    subj, agr = random_subject(rng)
    r = rng.random()
    tense = rng.choice(["past", "fut", "habit"])
    mode = rng.choice(STMT_MODES)
    if mode == "q" and subj.en == ("i",):
        return None
    time = _time(rng, tense, mode) if tense != "habit" else rng.choice(TIME["habit"])
    if r < 0.45:
        # The instrument goes before the Chinese verb: 用球拍打了球. Built as the verb's "zh".
        vp = VP(
            "hit",
            "hits",
            "hit",
            "hitting",
            "用 " + " ".join(bat.zh) + " 打",
            Ph(en=("the", "ball", "with") + bat.en, amb=bat.amb) + Z("球"),
        )
        if tense == "habit":
            return None
    elif r < 0.8:
        sport_en, verb, sport_zh = SPORTS[2]  # table tennis is played with a bat
        vp = VP(
            "play",
            "plays",
            "played",
            "playing",
            "用 " + " ".join(bat.zh) + f" {verb}",
            Ph(en=tuple(sport_en.split()) + ("with",) + bat.en, amb=bat.amb) + Z(sport_zh),
            amb=(("play", verb),),
        )
    else:
        ball = rng.choice([ph("a ball", "一 个 球"), ph("two balls", "两 个 球"), ph("a bag", "一 个 包")])
        if tense == "habit" or det != "a":
            return None
        vp = VP("buy", "buys", "bought", "buying", "买", bat + ph("and", "和") + ball)
    p = _punct(clause(subj, agr, vp, tense, mode, time), mode)
    return p, "ambiguous"


def t_bank_river(rng: random.Random):
    """The side of a river: 河岸. "we sat on the bank" ↔ 我们坐在河岸上."""
    subj, agr = random_subject(rng)
    r = rng.random()
    tense = rng.choice(["past", "past", "fut", "prog", "habit"])
    mode = rng.choice(STMT_MODES)
    if mode == "q" and subj.en == ("i",):
        return None
    bank_amb = (("bank", "河岸"),)
    if r < 0.55 and tense == "prog":
        # "正在坐在河岸上" / "正在在河岸上钓鱼" are not Chinese; sitting and fishing stay out of the progressive.
        tense = rng.choice(["past", "fut", "habit"])
    if r < 0.3:
        vp = VP("sit", "sits", "sat", "sitting", "坐 在 河岸 上", Ph(en=("on", "the", "bank")), amb=bank_amb)
    elif r < 0.55:
        vp = VP("fish", "fishes", "fished", "fishing", "在 河岸 上 钓鱼", Ph(en=("from", "the", "bank")), amb=bank_amb)
    elif r < 0.75:
        vp = VP("walk", "walks", "walked", "walking", "沿着 河岸 散步", Ph(en=("along", "the", "bank")), amb=bank_amb)
    else:
        # "I saw a duck on the bank" ↔ 我在河岸上看见了一只鸭子 (saw = 看见, bank = 河岸)
        if tense not in ("past", "fut"):
            tense = "past"
        obj = random_np(
            rng,
            ["duck", "bird", "dog", "cat", "horse", "cow", "sheep", "boy", "girl", "fly", "tree", "flower", "house"],
            dets=["a", "a", "num"],
        )[0]
        vp = VP("see", "sees", "saw", "seeing", "看见", obj)
        time = _time(rng, tense, mode)
        p = _punct(clause(subj, agr, vp, tense, mode, time, place_ph("on the bank", "河岸 上")), mode)
        return p, "ambiguous"
    time = _time(rng, tense, mode)
    p = _punct(clause(subj, agr, vp, tense, mode, time), mode)
    return p, "ambiguous"


def t_bank_money(rng: random.Random):
    """The bank for money: 银行. "she went to the bank because she needed money"."""
    subj, agr = random_subject(rng)
    r = rng.random()
    bank_amb = (("bank", "银行"),)
    if r < 0.4:
        # "... because S needed money" ↔ "，因为S需要钱"
        en, zh, agr = rng.choice(PRONOUNS)  # a pronoun, so that the reason does not repeat a name
        subj = ph(en, zh)
        tense = rng.choice(["past", "fut"])
        time = _time(rng, tense, "stmt")
        go = clause(
            subj, agr, VP("go", "goes", "went", "going", "去", ph("to the bank", "银行", bank_amb)), tense, "stmt", time
        )
        need = ph("needed" if tense == "past" else ("needs" if agr == "3s" else "need"), "需要")
        reason = Ph(en=subj.en, zh=subj.zh) + need + MONEY
        return _punct(go + ph("because", "， 因为") + reason, "stmt"), "ambiguous"
    if r < 0.7:
        tense = rng.choice(["habit", "past", "fut", "prog"])
        mode = rng.choice(STMT_MODES)
        if mode == "q" and subj.en == ("i",):
            return None
        vp = VP("work", "works", "worked", "working", "工作")
        time = _time(rng, tense, mode)
        p = _punct(clause(subj, agr, vp, tense, mode, time, place_ph("at the bank", "银行")), mode)
        return p, "ambiguous"
    # "I saw a thief in the bank" ↔ 我在银行里看见了一个小偷
    obj = random_np(
        rng,
        ["thief", "policeman", "teacher", "doctor", "friend", "dog", "cat", "fly", "light", "computer", "saw"],
        dets=["a", "a", "num"],
    )[0]
    tense = rng.choice(["past", "fut"])
    mode = rng.choice(["stmt", "stmt", "q"])
    if mode == "q" and subj.en == ("i",):
        return None
    vp = VP("see", "sees", "saw", "seeing", "看见", obj)
    p = _punct(clause(subj, agr, vp, tense, mode, _time(rng, tense, mode), place_ph("in the bank", "银行 里")), mode)
    return p, "ambiguous"


def t_play(rng: random.Random):
    """play ↔ 玩 / 踢 / 打 / 弹 / 拉, decided by what is played."""
    r = rng.random()
    if r < 0.35:
        en, verb, zh = rng.choice(SPORTS)
        vp = VP("play", "plays", "played", "playing", verb, ph(en, zh), amb=(("play", verb),))
    elif r < 0.6:
        en, verb, zh = rng.choice(INSTRUMENTS)
        vp = VP("play", "plays", "played", "playing", verb, ph(en, zh), amb=(("play", verb),))
    elif r < 0.85:
        obj = rng.choice(
            [
                ph("the game", "游戏"),
                ph("a game", "一 个 游戏"),
                ph("this game", "这 个 游戏"),
                ph("the game of thrones", "权力的游戏"),
            ]
        )
        vp = VP("play", "plays", "played", "playing", "玩", obj, amb=(("play", "玩"),))
    else:
        # "play with the cat" ↔ 和猫玩: the companion goes before the Chinese verb.
        np, _ = random_np(
            rng,
            ["cat", "dog", "rabbit", "boy", "girl", "child", "friend", "monkey"],
            dets=["the", "my", "your", "his", "her", "a", "this"],
            adj_p=0,
        )
        vp = VP(
            "play",
            "plays",
            "played",
            "playing",
            "和 " + " ".join(np.zh) + " 玩",
            Ph(en=("with",) + np.en, amb=np.amb),
            amb=(("play", "玩"),),
        )
    tense = rng.choice(["habit", "past", "prog", "fut"])
    mode = rng.choice(STMT_MODES)
    subj, agr = random_subject(rng, allow_i=(mode != "q"))
    time = _time(rng, tense, mode)
    place = None
    if rng.random() < 0.2 and r < 0.35 or r >= 0.85 and rng.random() < 0.3:
        place = place_ph(*rng.choice([("in the park", "公园"), ("at school", "学校"), ("on the beach", "海滩 上")]))
    p = _punct(clause(subj, agr, vp, tense, mode, time, place), mode)
    return p, "ambiguous"


def t_watch(rng: random.Random):
    """watch as a verb ↔ 看 (watch TV ↔ 看电视); the noun 手表 appears in the object templates."""
    en, zh = rng.choice(WATCHABLE)
    vp = VP("watch", "watches", "watched", "watching", "看", ph(en, zh), amb=(("watch", "看"),))
    tense = rng.choice(["habit", "past", "prog", "fut"])
    mode = rng.choice(STMT_MODES)
    subj, agr = random_subject(rng, allow_i=(mode != "q"))
    time = _time(rng, tense, mode)
    p = _punct(clause(subj, agr, vp, tense, mode, time), mode)
    return p, "ambiguous"


def t_light(rng: random.Random):
    """light ↔ 灯 (a lamp) or 轻 (not heavy)."""
    r = rng.random()
    if r < 0.3:
        # "please turn on the light" ↔ 请打开灯; "don't turn off the TV !" ↔ 不要关掉电视！
        on = rng.random() < 0.5
        obj = rng.choice(["light", "light", "tv", "computer"])
        o = np_(obj, rng.choice(["the", "the", "this", "that", "my", "your"]))[0]
        verb = ph("turn on" if on else "turn off", "打开" if on else "关掉")
        kind = rng.choice(["please", "please", "please_dont", "dont"])
        if kind == "please":
            return ph("please", "请") + verb + o + ph(".", "。"), "imperative"
        if kind == "please_dont":
            return ph("please don't", "请 不要") + verb + o + ph(".", "。"), "imperative"
        return ph("don't", "不要") + verb + o + ph("!", "！"), "imperative"
    if r < 0.55:
        on = rng.random() < 0.5
        obj = rng.choice(["light", "light", "tv", "computer"])
        o = np_(obj, rng.choice(["the", "the", "this", "that", "my", "your", "his", "her"]))[0]
        vp = VP("turn", "turns", "turned", "turning", "打开" if on else "关掉", ph("on" if on else "off") + o)
        tense = rng.choice(["past", "fut", "habit"])
        mode = rng.choice(STMT_MODES)
        subj, agr = random_subject(rng, allow_i=(mode != "q"))
        time = _time(rng, tense, mode)
        return _punct(clause(subj, agr, vp, tense, mode, time), mode), "ambiguous"
    if r < 0.7:
        # "the light is bright" ↔ 灯很亮
        o, agr = np_("light", rng.choice(["the", "the", "this", "that", "my", "these", "those"]))
        return _adj_clause(rng, o, agr, ("bright", "亮"), extra_amb=()), "ambiguous"
    # "the bag is light" ↔ 包很轻
    o, agr = np_(
        rng.choice(LIGHT_THINGS),
        rng.choice(["the", "the", "this", "that", "my", "your", "his", "her", "these", "those"]),
    )
    return _adj_clause(rng, o, agr, ("light", "轻"), extra_amb=(("light", "轻"),)), "ambiguous"
