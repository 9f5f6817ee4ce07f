"""Everyday constructions over the frequency-ranked lexicon (`words.py`).

The core grammar (the `grammar` package) knows ~550 hand-picked words in carefully bijective patterns. These
templates put every word of the everyday lexicon into short sentences people actually say: "This is a N",
"Where is the N?", "I can V the N", "She didn't V it", "The N is too ADJ", "X is ADJ-er than Y", "There is
a N in the room", "How many Ns do you have?", and the coreference pairs that make the textbook picture of
self-attention real ("… because it was too tired" → 它, "… because it was too wide" → 马路).

Conventions follow the core grammar: "the N" ↔ bare N, "a N" ↔ 一 + measure word + N, past ↔ V 了,
negated past ↔ 没 V, future ↔ 会 V. The English side is written with contractions as typed ("didn't");
tokens are settled afterwards by the app's tokenizer (`assemble.py`).
"""

from __future__ import annotations

import random

from .grammar import AMBIGUOUS_FORMS, Ph, ph
from .grammar.tables import PRONOUNS
from .words import Word, by_pos

BE = {"1s": "am", "2": "are", "3s": "is", "pl": "are"}
WAS = {"1s": "was", "2": "were", "3s": "was", "pl": "were"}
COUNT_ZH = {2: "两", 3: "三", 4: "四", 5: "五"}
COUNT_EN = {2: "two", 3: "three", 4: "four", 5: "five"}
MODALS = [("can", "能"), ("should", "应该"), ("must", "必须"), ("might", "可能")]


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _z(*parts: str) -> str:
    """Chinese tokens: the lexicon's words are unsegmented; tokens are settled by the tokenizer later."""
    return " ".join(p for p in parts if p)


def noun_phrase(rng: random.Random, n: Word, dets=("the", "a", "my", "this", "your")) -> Ph:
    det = rng.choice([d for d in dets if d == "the" or n.countable])
    if det == "the":
        return ph(f"the {n.english}", n.chinese)
    if det == "a":
        return ph(f"{_a(n.english)} {n.english}", _z("一", n.measure, n.chinese))
    if det == "this":
        return ph(f"this {n.english}", _z("这", n.measure, n.chinese))
    owner = {"my": "我", "your": "你"}[det]
    return ph(f"{det} {n.english}", _z(owner, "的", n.chinese))


# ---- nouns --------------------------------------------------------------------------------------------
def noun_sentence(rng: random.Random, n: Word) -> Ph | None:
    e, z = n.english, n.chinese
    if n.kind == "place":
        frames = [
            ph(f"where is the {e} ?", f"{z} 在 哪里 ？"),
            ph(f"i am going to the {e} .", f"我 要 去 {z} 。"),
            ph(f"we are at the {e} .", f"我们 在 {z} 。"),
            ph(f"is the {e} far ?", f"{z} 远 吗 ？"),
        ]
    elif n.kind == "person":
        frames = [
            ph(f"the {e} is here .", f"{z} 在 这里 。"),
            ph(f"who is the {e} ?", f"{z} 是 谁 ？"),
            ph(f"i talked to the {e} .", f"我 和 {z} 说话 了 。"),
        ]
        if n.countable:
            frames += [
                ph(f"she is {_a(e)} {e} .", f"她 是 一 {n.measure} {z} 。"),
                ph(f"my friend is {_a(e)} {e} .", f"我 的 朋友 是 一 {n.measure} {z} 。"),
            ]
    elif n.kind in ("abstract", "event", "time"):
        frames = [
            ph(f"the {e} is important .", f"{z} 很 重要 。"),
            ph(f"i like the {e} .", f"我 喜欢 {z} 。"),
            ph(f"what is the {e} ?", f"{z} 是 什么 ？"),
            ph(f"tell me about the {e} .", f"告诉 我 {z} 的 事 。"),
        ]
    else:
        frames = [
            ph(f"where is the {e} ?", f"{z} 在 哪里 ？"),
            ph(f"i like the {e} .", f"我 喜欢 {z} 。"),
            ph(f"the {e} is here .", f"{z} 在 这里 。"),
        ]
        if n.countable:
            m = n.measure
            frames += [
                ph(f"this is {_a(e)} {e} .", f"这 是 一 {m} {z} 。"),
                ph(f"i need {_a(e)} {e} .", f"我 需要 一 {m} {z} 。"),
                ph(f"do you have {_a(e)} {e} ?", f"你 有 一 {m} {z} 吗 ？"),
                ph(f"there is {_a(e)} {e} in the room .", f"房间 里 有 一 {m} {z} 。"),
                ph(f"how many {n.forms[0]} do you have ?", f"你 有 几 {m} {z} ？"),
            ]
            k = rng.choice([2, 3, 4, 5])
            frames.append(ph(f"i have {COUNT_EN[k]} {n.forms[0]} .", f"我 有 {COUNT_ZH[k]} {m} {z} 。"))
        if n.kind in ("object", "food", "drink", "vehicle", "material", "plant"):
            frames.append(ph(f"how much is the {e} ?", f"{z} 多少 钱 ？"))
    return rng.choice(frames)


# ---- verbs --------------------------------------------------------------------------------------------
def verb_sentence(rng: random.Random, v: Word, objects: dict[str, list[Word]]) -> Ph | None:
    s3, past, _participle, ing = v.forms
    e, z = v.english, v.chinese
    en_s, zh_s, agr = rng.choice(PRONOUNS)
    kinds = [k for k in v.object_kinds if objects.get(k)]
    if kinds:
        o = noun_phrase(rng, rng.choice(objects[rng.choice(kinds)]), dets=("the", "my", "your", "this"))
        oe, oz = " ".join(o.en), " ".join(o.zh)
    elif v.kind == "intrans":
        oe = oz = ""
    else:
        return None
    present = s3 if agr == "3s" else e
    frames = [
        ph(f"{en_s} {past} {oe} yesterday .", f"{zh_s} 昨天 {z} 了 {oz} 。"),
        ph(f"{en_s} didn't {e} {oe} .", f"{zh_s} 没 {z} {oz} 。"),
        ph(f"{en_s} will {e} {oe} tomorrow .", f"{zh_s} 明天 会 {z} {oz} 。"),
        ph(f"{en_s} {BE[agr]} {ing} {oe} now .", f"{zh_s} 现在 正在 {z} {oz} 。"),
        ph(f"{en_s} {present} {oe} every day .", f"{zh_s} 每天 都 {z} {oz} 。"),
        ph(f"can you {e} {oe} ?", f"你 能 {z} {oz} 吗 ？"),
        ph(f"did you {e} {oe} ?", f"你 {z} 了 {oz} 吗 ？"),
        ph(
            f"why did {en_s if en_s != 'i' else 'you'} {e} {oe} ?",
            f"{zh_s if en_s != 'i' else '你'} 为什么 {z} {oz} ？",
        ),
    ]
    modal, modal_zh = rng.choice(MODALS)
    frames.append(ph(f"{en_s} {modal} {e} {oe} .", f"{zh_s} {modal_zh} {z} {oz} 。"))
    frames.append(ph(f"please {e} {oe} .", f"请 {z} {oz} 。"))
    frames.append(ph(f"let's {e} {oe} .", f"我们 {z} {oz} 吧 。"))
    return rng.choice(frames)


# ---- adjectives ---------------------------------------------------------------------------------------
def adjective_sentence(rng: random.Random, a: Word, things: list[Word]) -> Ph | None:
    e, z = a.english, a.chinese
    if a.kind == "person" or a.kind == "any" and rng.random() < 0.5:
        en_s, zh_s, agr = rng.choice(PRONOUNS)
        frames = [
            ph(f"{en_s} {BE[agr]} {e} .", f"{zh_s} 很 {z} 。"),
            ph(f"{en_s} {BE[agr]} very {e} .", f"{zh_s} 非常 {z} 。"),
            ph(f"{en_s} {BE[agr]} not {e} .", f"{zh_s} 不 {z} 。"),
            ph(f"{en_s} {WAS[agr]} {e} yesterday .", f"{zh_s} 昨天 很 {z} 。"),
        ]
        if en_s == "you":
            frames.append(ph(f"are you {e} ?", f"你 {z} 吗 ？"))
        return rng.choice(frames)
    if not things:
        return None
    n, m = rng.choice(things), rng.choice(things)
    frames = [
        ph(f"the {n.english} is {e} .", f"{n.chinese} 很 {z} 。"),
        ph(f"it is too {e} .", f"它 太 {z} 了 。"),
        ph(f"the {n.english} is not {e} .", f"{n.chinese} 不 {z} 。"),
        ph(f"is the {n.english} {e} ?", f"{n.chinese} {z} 吗 ？"),
    ]
    if n.countable:
        de = "" if a.features.get("attach") == "direct" else "的"
        frames.append(ph(f"i have {_a(e)} {e} {n.english} .", f"我 有 一 {n.measure} {_z(z, de, n.chinese)} 。"))
    if a.forms and a.forms[0] and m.english != n.english:
        frames.append(
            ph(f"the {n.english} is {a.forms[0]} than the {m.english} .", f"{n.chinese} 比 {m.chinese} {z} 。")
        )
    if len(a.forms) > 1 and a.forms[1] and n.countable:
        frames.append(ph(f"this {n.english} is the {a.forms[1]} .", f"这 {n.measure} {n.chinese} 最 {z} 。"))
    return rng.choice(frames)


# ---- coreference: the referent of "it" decides the Chinese ----------------------------------------------
# Each frame has a subject and an object noun; an adjective that fits the subject makes "it" the subject
# (Chinese says 它), one that fits the object makes "it" the object (Chinese names it, as Chinese would).
COREF_FRAMES = [
    {
        "en": "the {s} didn't cross the {o} because it was too {adj} .",
        "zh": "{s} 没 过 {o} ， 因为 {it} 太 {adj} 了 。",
        "subjects": [
            ("animal", "动物"),
            ("dog", "狗"),
            ("cat", "猫"),
            ("horse", "马"),
            ("old man", "老人"),
            ("child", "孩子"),
            ("chicken", "鸡"),
            ("cow", "牛"),
        ],
        "objects": [("street", "马路"), ("road", "路"), ("river", "河"), ("bridge", "桥"), ("field", "田野")],
        "subject_adjs": [("tired", "累"), ("scared", "害怕"), ("old", "老"), ("slow", "慢"), ("lazy", "懒")],
        "object_adjs": [("wide", "宽"), ("long", "长"), ("dangerous", "危险"), ("dark", "黑"), ("busy", "繁忙")],
    },
    {
        "en": "the {s} didn't fit in the {o} because it was too {adj} .",
        "zh": "{s} 放 不 进 {o} ， 因为 {it} 太 {adj} 了 。",
        "subjects": [
            ("trophy", "奖杯"),
            ("book", "书"),
            ("computer", "电脑"),
            ("ball", "球"),
            ("bottle", "瓶子"),
            ("toy", "玩具"),
            ("coat", "外套"),
            ("cake", "蛋糕"),
        ],
        "objects": [("box", "盒子"), ("bag", "包"), ("suitcase", "行李箱"), ("car", "车"), ("drawer", "抽屉")],
        "subject_adjs": [("big", "大"), ("long", "长"), ("wide", "宽")],
        "object_adjs": [("small", "小"), ("full", "满"), ("narrow", "窄")],
    },
    {
        "en": "the {s} didn't eat the {o} because it was too {adj} .",
        "zh": "{s} 没 吃 {o} ， 因为 {it} 太 {adj} 了 。",
        "subjects": [
            ("dog", "狗"),
            ("cat", "猫"),
            ("bird", "鸟"),
            ("rabbit", "兔子"),
            ("monkey", "猴子"),
            ("pig", "猪"),
            ("baby", "婴儿"),
        ],
        "objects": [
            ("food", "食物"),
            ("meat", "肉"),
            ("soup", "汤"),
            ("rice", "米饭"),
            ("bread", "面包"),
            ("fish", "鱼"),
        ],
        "subject_adjs": [("full", "饱"), ("tired", "累"), ("sad", "难过")],
        "object_adjs": [("hot", "烫"), ("cold", "凉"), ("spicy", "辣"), ("hard", "硬"), ("salty", "咸")],
    },
]


def coreference_pairs() -> list[tuple[Ph, str]]:
    """Every combination of every frame: (phrase, "subject" or "object", the referent of "it")."""
    out = []
    for frame in COREF_FRAMES:
        for s_en, s_zh in frame["subjects"]:
            for o_en, o_zh in frame["objects"]:
                if s_en == o_en:
                    continue
                for who, adjs, it in (("subject", frame["subject_adjs"], "它"), ("object", frame["object_adjs"], o_zh)):
                    for a_en, a_zh in adjs:
                        en = frame["en"].format(s=s_en, o=o_en, adj=a_en)
                        zh = frame["zh"].format(s=s_zh, o=o_zh, adj=a_zh, it=it)
                        out.append((ph(en, zh), who))
    return out


# ---- everything ---------------------------------------------------------------------------------------
def everyday_phrases(words, seed: int = 0, per_word: int = 6) -> list[tuple[Ph, str]]:
    """(phrase, topic) for every usable word, `per_word` draws each, plus the dictionary pair of the word."""
    rng = random.Random(f"everyday-{seed}")
    # The ambiguous words are taught by the core grammar, only in contexts that decide their sense.
    ambiguous = set().union(*AMBIGUOUS_FORMS.values())
    words = [w for w in words if not ({w.english, *w.forms} & ambiguous)]
    nouns = by_pos(words, "noun")
    objects: dict[str, list[Word]] = {}
    for n in nouns:
        objects.setdefault(n.kind, []).append(n)
    things = [n for n in nouns if n.kind in ("object", "food", "drink", "vehicle", "place", "animal", "plant")]
    out: list[tuple[Ph, str]] = []
    for w in words:
        if " " not in w.english and w.chinese not in ("∅",):
            out.append((ph(w.english, w.chinese), "words"))
        for _ in range(per_word):
            if w.pos == "noun":
                p, topic = noun_sentence(rng, w), "everyday nouns"
            elif w.pos == "verb":
                p, topic = verb_sentence(rng, w, objects), "everyday verbs"
            elif w.pos == "adj":
                p, topic = adjective_sentence(rng, w, things), "everyday adjectives"
            else:
                break
            if p is not None:
                out.append((p, topic))
    out += [(p, "coreference") for p, _ in coreference_pairs()]
    return out
