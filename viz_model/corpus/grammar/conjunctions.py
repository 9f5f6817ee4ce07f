"""Two clauses joined: and, but, because, or, either … or, when."""

from __future__ import annotations

import random

from .clauses import VP, _object, _punct, _same_person, clause
from .noun_phrases import be, do, drink_np, np_, random_subject
from .phrases import Ph, ph
from .tables import COUNT_ZH, DRINKS, INTRANSITIVE, PERSON_ADJECTIVES, PRONOUNS, SETS, VERB, VERBS


def _simple_clause(rng: random.Random, tense: str, mode: str = "stmt", subj=None, agr=None) -> Ph | None:
    """A short clause for conjunctions (transitive, state/habit/past/fut)."""
    for _ in range(20):
        verb = rng.choice(VERBS)
        if tense in verb[6]:
            break
    else:
        return None
    if subj is None:
        subj, agr = random_subject(rng)
    obj = _object(rng, verb[0], verb[5])
    if _same_person(subj, obj):
        return None
    if mode == "neg" and verb[0] != "have" and (obj.zh[0] == "一" or obj.zh[0] in COUNT_ZH.values()):
        return None
    time = ("", "")
    vp = VP(*verb[:4], verb[4], obj, have=(verb[0] == "have"))
    return clause(subj, agr, vp, tense, mode, time)


def t_conjunction(rng: random.Random):
    """Clauses joined by and (，), but (，但是), because (，因为), or (要么…要么), when (当…时)."""
    # "when" has the largest share: its 当…时 wraps the clause, so the first Chinese word is not the
    # subject as everywhere else, and at a tenth of this topic the model never learned to begin with 当.
    r = rng.random()
    if r < 0.25:  # "I like the cat but he doesn't like the dog"
        tense = rng.choice(["state", "past", "fut"])
        m1, m2 = rng.choice([("stmt", "neg"), ("neg", "stmt"), ("stmt", "stmt")])
        a, b = _simple_clause(rng, tense, m1), _simple_clause(rng, tense, m2)
        if a is None or b is None:
            return None
        return _punct(a + ph("but", "， 但是") + b, "stmt"), "conjunction"
    if r < 0.4:  # "I ate an apple and she drank a cup of tea" ↔ 我吃了一个苹果，她喝了一杯茶
        tense = rng.choice(["past", "fut", "state"])
        a, b = _simple_clause(rng, tense), _simple_clause(rng, tense)
        if a is None or b is None or a.zh[0] == b.zh[0]:
            return None
        return _punct(a + ph("and", "，") + b, "stmt"), "conjunction"
    if r < 0.55:  # "I am happy because I bought a new phone" ↔ 我很高兴，因为我买了一部新手机
        en, zh, agr = rng.choice(PRONOUNS)  # "David is sad because David …" repeats the name
        subj = ph(en, zh)
        en, zh = rng.choice(PERSON_ADJECTIVES[:5] + [("angry", "生气")])
        a = subj + ph(f"{be(agr)} {en}", f"很 {zh}")
        b = _simple_clause(rng, rng.choice(["past", "state"]), rng.choice(["stmt", "stmt", "neg"]), subj, agr)
        if b is None:
            return None
        return _punct(a + ph("because", "， 因为") + b, "stmt"), "conjunction"
    if r < 0.65:  # "do you want tea or coffee ?" ↔ 你想要茶还是咖啡？
        subj, agr = random_subject(rng, allow_i=False)
        verb = VERB[rng.choice(["want", "like"])]
        if rng.random() < 0.5:
            d1, d2 = rng.sample(DRINKS, 2)
            o1, o2 = drink_np(d1[0], "a"), drink_np(d2[0], "a")
        else:
            n1, n2 = rng.sample(SETS["food"] + ["cat", "dog", "book", "phone", "watch", "saw", "light"], 2)
            det = rng.choice(["a", "the", "this", "num"])
            k = rng.randint(2, 10)
            o1, o2 = np_(n1, det, count=k)[0], np_(n2, det, count=k)[0]
        p = Ph(en=(do(agr),)) + subj + ph(verb[0], verb[4]) + o1 + ph("or", "还是") + o2
        return _punct(p, "q"), "conjunction"
    if r < 0.75:  # "we sing or we dance" ↔ 我们要么唱歌，要么跳舞
        en, zh, agr = rng.choice(PRONOUNS)
        v1, v2 = rng.sample(
            [v for v in INTRANSITIVE if v[0] not in ("think", "cry", "laugh")]
            + [("die", "dies", "died", "dying", "死")],
            2,
        )
        f1 = v1[1] if agr == "3s" else v1[0]
        f2 = v2[1] if agr == "3s" else v2[0]
        p = ph(f"{en} {f1} or {en} {f2}", f"{zh} 要么 {v1[4]} ， 要么 {v2[4]}")
        return _punct(p, "stmt"), "conjunction"
    # "when you read a book , you drink a cup of tea" ↔ 当你读一本书时，你喝一杯茶
    en, zh, agr = rng.choice(PRONOUNS)
    subj = ph(en, zh)
    a = _simple_clause(rng, "habit", subj=subj, agr=agr)
    b = _simple_clause(rng, "habit", subj=subj, agr=agr)
    if a is None or b is None or a.zh == b.zh:
        return None
    p = Ph(("when",) + a.en + (",",) + b.en, ("当",) + a.zh + ("时", "，") + b.zh, a.amb + b.amb)
    return _punct(p, "stmt"), "conjunction"
