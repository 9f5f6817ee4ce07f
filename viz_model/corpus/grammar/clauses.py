"""A verb phrase put in a tense and a mode (`clause`), in both languages' word orders, and the small
helpers every sentence rule shares: time words, objects, final punctuation, the topic."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .noun_phrases import be, be_not, do, drink_np, random_np
from .phrases import E, Ph, Z, ph
from .tables import DRINKS, EN_NUMBERS, MONEY, OBJECT_PRONOUNS, SETS, TIME


@dataclass(frozen=True)
class VP:
    """A verb with its object, ready to be put in any tense."""

    base: str
    s3: str
    past: str
    ing: str
    zh: str  # Chinese verb tokens, space separated
    obj: Ph = Ph()  # object (and anything after it in both languages)
    amb: tuple = ()  # ambiguity tags of the verb itself (saw = 看见, play = 踢…)
    have: bool = False  # "have" is negated with 没有, not 不有


def clause(
    subj: Ph, agr: str, vp: VP, tense: str, mode: str, time: tuple[str, str] = ("", ""), place: Ph | None = None
) -> Ph:
    """Subject + verb phrase in a tense ("state", "habit", "past", "prog", "fut") and a mode
    ("stmt", "neg", "q" for a yes/no question). No final punctuation.

    Chinese order: subject, time, place (在 X), aspect/negation, verb, 了, object.
    English order: subject, verb, object, place, time (habit adverbs before the verb).
    """
    if tense == "prog" and mode == "neg":
        # "isn't dancing in the park" would be 没在公园跳舞, the same as "didn't dance in the park".
        place = None
    t_en, t_zh = time
    adverb = tense == "habit" and t_en in dict(TIME["habit_adv"])
    verb_amb = vp.amb
    if tense == "past" and mode == "stmt" and vp.base == "see":
        verb_amb = (("saw", "看见"),)
    head = Z(t_zh) if t_zh else Ph()
    pl_zh = Z("在") + Ph(zh=place.zh) if place else Ph()
    pl_en = Ph(en=place.en, amb=place.amb) if place else Ph()
    end_en = E(t_en) if t_en and not adverb else Ph()
    s_en = Ph(en=subj.en, amb=subj.amb)
    s_zh = Z(" ".join(subj.zh))
    obj_en = Ph(en=vp.obj.en, amb=vp.obj.amb)
    obj_zh = Z(" ".join(vp.obj.zh))
    verb_zh = Z(vp.zh)
    amb = Ph(amb=verb_amb)
    adv_en = E(t_en) if adverb else Ph()

    if tense in ("state", "habit"):
        form = vp.s3 if agr == "3s" else vp.base
        if mode == "stmt":
            en = s_en + adv_en + E(form)
            zh = s_zh + head + pl_zh + verb_zh
        elif mode == "neg":
            en = s_en + E(f"{do(agr)}n't {vp.base}")
            zh = s_zh + head + (Z("没有") if vp.have else Z("不") + pl_zh + verb_zh)
        else:
            en = E(do(agr)) + s_en + adv_en + E(vp.base)
            zh = s_zh + head + pl_zh + verb_zh
        en = en + obj_en + pl_en + end_en
        zh = zh + obj_zh
    elif tense == "past":
        if mode == "stmt":
            en = s_en + E(vp.past)
            zh = s_zh + head + pl_zh + verb_zh + (Z("了") + obj_zh if vp.obj.zh else Z("了"))
        elif mode == "neg":
            en = s_en + E(f"didn't {vp.base}")
            zh = s_zh + head + Z("没") + pl_zh + verb_zh + obj_zh
        else:
            en = E("did") + s_en + E(vp.base)
            zh = s_zh + head + pl_zh + verb_zh + (Z("了") + obj_zh if vp.obj.zh else Z("了"))
        en = en + obj_en + pl_en + end_en
    elif tense == "prog":
        # 正在 / 没 在 come before the place: 他正在公园里跑步, 他没在公园里跑步.
        aspect = Z("没 在") if mode == "neg" else Z("正在")
        if mode == "stmt":
            en = s_en + E(f"{be(agr)} {vp.ing}")
        elif mode == "neg":
            en = s_en + E(f"{be_not(agr)} {vp.ing}")
        else:
            en = E(be(agr)) + s_en + E(vp.ing)
        zh = s_zh + head + aspect + (Ph(zh=place.zh) if place else Ph())
        en = en + obj_en + pl_en + end_en
        zh = zh + verb_zh + obj_zh
    elif tense == "fut":
        if mode == "stmt":
            en = s_en + E(f"will {vp.base}")
            zh = s_zh + head + Z("会")
        elif mode == "neg":
            en = s_en + E(f"won't {vp.base}")
            zh = s_zh + head + Z("不 会")
        else:
            en = E("will") + s_en + E(vp.base)
            zh = s_zh + head + Z("会")
        en = en + obj_en + pl_en + end_en
        zh = zh + pl_zh + verb_zh + obj_zh
    else:
        raise ValueError(tense)
    if mode == "q":
        zh = zh + Z("吗")
    return en + zh + amb


STMT_MODES = ["stmt", "stmt", "stmt", "neg", "q"]


def _time(rng: random.Random, tense: str, mode: str) -> tuple[str, str]:
    options = list(TIME[tense])
    if tense == "habit" and mode == "stmt":
        options += TIME["habit_adv"]
    elif tense == "habit" and mode == "q":
        options += TIME["habit_adv"][:1]  # "do you often …?"
    return rng.choice(options)


def _object(rng: random.Random, verb: str, set_name: str) -> Ph:
    if set_name == "drink":
        return drink_np(
            rng.choice(DRINKS)[0], rng.choice(["a", "a", "num", "the", "my", "your", "his", "her"]), rng.randint(2, 10)
        )
    if set_name == "person" and rng.random() < 0.3:
        en, zh = rng.choice(OBJECT_PRONOUNS)
        return ph(en, zh)
    if verb in ("need", "want", "have") and rng.random() < 0.08:
        return MONEY
    return random_np(rng, SETS[set_name])[0]


def _punct(p: Ph, mode: str) -> Ph:
    return p + (ph("?", "？") if mode == "q" else ph(".", "。"))


def _topic(mode: str, tense: str, time: tuple[str, str], p: Ph, default: str = "daily life") -> str:
    if mode == "q":
        return "question"
    if mode == "neg":
        return "negation"
    if any(t in EN_NUMBERS[2:11] for t in p.en):
        return "numbers"
    if time[0]:
        return "time"
    return default


def _same_person(subj: Ph, obj: Ph) -> bool:
    return bool(subj.zh) and subj.zh == obj.zh
