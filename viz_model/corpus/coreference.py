"""Coreference by kind: "The lion didn't eat the salad because it was sick / too sour."

Who "it" is depends on what the deciding word can describe: an animal can be sick, tired or too slow; a dish
can be too sour; a basket can be too small. Each frame draws its subject and object nouns from a kind
(animals, dishes, drinks, things that are carried or put away, containers, ways), and its deciding words from
properties of each kind (tiredness, illness, fullness; temperature, taste; size, width, weight), so the model
learns "it" from the adjective, not from memorised nouns. Every pair of nouns comes in both readings.

People are subjects too ("The boy didn't eat the soup because he was too tired / it was too hot."): without
them every deciding word after "because" is learnt with 它, and a model writes 它 for "he" (因为它太累了).

Convention (the model card says it too): when "it" is the first clause's subject the Chinese says 它, and
"he" / "she" are 他 / 她; when "it" is the object, the Chinese names the object (因为沙拉太酸了), since 它 would
be read as the subject.

Held out: the nouns and deciding words in `HELD_OUT` never occur in a training pair, here or in the older
frames of `everyday.COREF_FRAMES`, so the held-out split measures whether the rule generalises.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .grammar.phrases import Ph, ph

# ---- nouns by kind: (English, Chinese) --------------------------------------------------------------------
ANIMALS = [
    ("dog", "狗"), ("cat", "猫"), ("horse", "马"), ("bird", "鸟"), ("rabbit", "兔子"), ("monkey", "猴子"),
    ("pig", "猪"), ("cow", "牛"), ("tiger", "老虎"), ("elephant", "大象"), ("duck", "鸭子"), ("sheep", "羊"),
    ("mouse", "老鼠"), ("bear", "熊"), ("fox", "狐狸"), ("panda", "熊猫"),
]  # fmt: skip
DISHES = [
    ("food", "食物"), ("meat", "肉"), ("soup", "汤"), ("rice", "米饭"), ("bread", "面包"), ("noodles", "面条"),
    ("pizza", "披萨"), ("chocolate", "巧克力"), ("sandwich", "三明治"), ("potato", "土豆"),
    ("egg", "鸡蛋"), ("cheese", "奶酪"), ("fruit", "水果"), ("dumplings", "饺子"), ("cookie", "饼干"),
]  # fmt: skip
DRINKS = [("coffee", "咖啡"), ("milk", "牛奶"), ("water", "水"), ("juice", "果汁"), ("tea", "茶")]
CARRIED = [
    ("book", "书"), ("computer", "电脑"), ("ball", "球"), ("bottle", "瓶子"), ("toy", "玩具"), ("coat", "外套"),
    ("laptop", "笔记本电脑"), ("umbrella", "伞"), ("clock", "钟"), ("chair", "椅子"), ("tv", "电视"),
    ("cup", "杯子"), ("bowl", "碗"), ("guitar", "吉他"), ("painting", "画"),
]  # fmt: skip
CONTAINERS = [
    ("box", "盒子"), ("bag", "包"), ("suitcase", "行李箱"), ("car", "车"), ("drawer", "抽屉"), ("room", "房间"),
    ("pocket", "口袋"), ("truck", "卡车"), ("boat", "船"), ("basket", "篮子"), ("fridge", "冰箱"),
]  # fmt: skip
WAYS = [
    ("street", "马路"), ("road", "路"), ("river", "河"), ("bridge", "桥"), ("field", "田野"), ("park", "公园"),
    ("square", "广场"), ("lake", "湖"), ("forest", "森林"),
]  # fmt: skip

# People: (English, Chinese, the pronouns that can stand for them). A person is "he" or "she" as the noun says;
# a student, a teacher or a doctor is either.
PEOPLE = [
    ("boy", "男孩", ("he",)), ("girl", "女孩", ("she",)), ("man", "男人", ("he",)), ("woman", "女人", ("she",)),
    ("father", "父亲", ("he",)), ("mother", "母亲", ("she",)), ("student", "学生", ("he", "she")),
    ("teacher", "老师", ("he", "she")), ("doctor", "医生", ("he", "she")), ("child", "孩子", ("he", "she")),
    ("farmer", "农民", ("he", "she")), ("driver", "司机", ("he", "she")), ("nurse", "护士", ("he", "she")),
    ("worker", "工人", ("he", "she")),
]  # fmt: skip
PRONOUNS = {"it": "它", "he": "他", "she": "她"}
PEOPLE_NOUNS = {en for en, _, _ in PEOPLE}

# ---- deciding words by property: (English after "was", Chinese after the referent) ---------------------------
# Animals' states: tiredness, fullness, illness, fear, age, speed, strength. A weak animal or person is 虚弱, as
# the Winograd classic says it ("because he was so weak" → 因为他太虚弱了; 弱 alone is a weak signal or subject).
ANIMAL_STATES = [
    ("too tired", "太 累 了"), ("too full", "太 饱 了"), ("sick", "病 了"), ("too scared", "太 害怕 了"),
    ("too old", "太 老 了"), ("too lazy", "太 懒 了"), ("too sad", "太 难过 了"),
    ("too sleepy", "太 困 了"), ("too weak", "太 虚弱 了"),
]  # fmt: skip
TASTES = [
    ("too hot", "太 烫 了"), ("too cold", "太 凉 了"), ("too spicy", "太 辣 了"), ("too salty", "太 咸 了"),
    ("too hard", "太 硬 了"), ("too sweet", "太 甜 了"),
    ("too sour", "太 酸 了"), ("too bitter", "太 苦 了"), ("too greasy", "太 油腻 了"), ("too dry", "太 干 了"),
    ("too raw", "太 生 了"), ("too bland", "太 淡 了"), ("too soft", "太 软 了"), ("too burnt", "太 焦 了"),
    ("too fatty", "太 肥 了"),
]  # fmt: skip
SIZES = [
    ("too big", "太 大 了"),
    ("too long", "太 长 了"),
    ("too wide", "太 宽 了"),
    ("too tall", "太 高 了"),
    ("too thick", "太 厚 了"),
]
ROOM = [
    ("too small", "太 小 了"), ("too full", "太 满 了"), ("too narrow", "太 窄 了"), ("too short", "太 短 了"),
    ("too shallow", "太 浅 了"), ("too crowded", "太 挤 了"), ("too low", "太 矮 了"),
]  # fmt: skip
WEIGHTS = [("too heavy", "太 重 了"), ("too big", "太 大 了")]
WAY_TRAITS = [
    ("too wide", "太 宽 了"), ("too long", "太 长 了"), ("too dangerous", "太 危险 了"), ("too dark", "太 黑 了"),
    ("too deep", "太 深 了"), ("too crowded", "太 拥挤 了"),
]  # fmt: skip
SPEEDS = [
    ("too fast", "太 快 了"), ("too smart", "太 聪明 了"), ("too quick", "太 快 了"), ("too far away", "太 远 了"),
    ("too clever", "太 机灵 了"),
]  # fmt: skip


# The catch frame's subject words: two of its own, the rest an animal's states said as ANIMAL_STATES says them
# (a state written two ways in the corpus outvotes a classic that writes it one way).
_SAID_OF_AN_ANIMAL = dict(ANIMAL_STATES) | {"too slow": "太 慢 了", "too fat": "太 胖 了"}
CATCHER_STATES = [
    (word, _SAID_OF_AN_ANIMAL[word])
    for word in ("too slow", "too tired", "too fat", "too sleepy", "too old", "too weak")
]


NOT_OF_DRINKS = ("too hard", "too salty", "too spicy", "too soft", "too burnt", "too fatty")


@dataclass(frozen=True)
class Frame:
    en: str  # with {s}, {o}, {a}
    zh: str  # with {s}, {o}, {it}, {a}
    subjects: list
    objects: list
    subject_words: list  # deciding words that can only describe the subject
    object_words: list  # ... only the object
    people: bool = True  # people are subjects too (not where a person's size is the point: "didn't fit in")
    # Other verbs for the same nouns and deciding words, (English, Chinese) as `verb` gives the frame's own:
    # training pairs take one of them or the frame's own, so "couldn't" is learnt with its verb, not as 搬不动 /
    # 追不上 (with two "couldn't" verbs, "Mary couldn't finish the race" came out 玛丽搬不动比赛). The held-out
    # split keeps the frame's own verb.
    variants: tuple[tuple[str, str], ...] = ()

    @property
    def verb(self) -> tuple[str, str]:
        """The frame's own verb, (English, Chinese): ("couldn't carry", "搬 不 动")."""
        return self.en.split("{s} ")[1].split(" the {o}")[0], self.zh.split("{s} ")[1].split(" {o}")[0]

    def said_with(self, verb: tuple[str, str]) -> tuple[str, str]:
        """The frame's (English, Chinese) templates with `verb` in place of its own."""
        own_en, own_zh = self.verb
        return self.en.replace(own_en, verb[0], 1), self.zh.replace(own_zh, verb[1], 1)


FRAMES = [
    Frame("the {s} didn't eat the {o} because {p} was {a} .", "{s} 没 吃 {o} ， 因为 {it} {a} 。",
          ANIMALS, DISHES, ANIMAL_STATES, TASTES,
          variants=(("didn't finish", "没 吃 完"), ("wouldn't eat", "不 肯 吃"))),
    Frame("the {s} didn't drink the {o} because {p} was {a} .", "{s} 没 喝 {o} ， 因为 {it} {a} 。",
          ANIMALS, DRINKS, ANIMAL_STATES, [w for w in TASTES if w[0] not in NOT_OF_DRINKS],
          variants=(("didn't finish", "没 喝 完"), ("wouldn't drink", "不 肯 喝"))),
    Frame("the {s} didn't fit in the {o} because {p} was {a} .", "{s} 放 不 进 {o} ， 因为 {it} {a} 。",
          CARRIED, CONTAINERS, SIZES, ROOM, people=False,
          variants=(("couldn't fit in", "放 不 进"), ("wouldn't fit in", "放 不 进"))),
    Frame("the {s} couldn't carry the {o} because {p} was {a} .", "{s} 搬 不 动 {o} ， 因为 {it} {a} 。",
          ANIMALS, CARRIED + CONTAINERS[:3], [w for w in ANIMAL_STATES if w[0] != "too full"], WEIGHTS,
          variants=(("couldn't push", "推 不 动"), ("couldn't pull", "拉 不 动"), ("couldn't move", "挪 不 动"))),
    Frame("the {s} didn't cross the {o} because {p} was {a} .", "{s} 没 过 {o} ， 因为 {it} {a} 。",
          ANIMALS, WAYS, [w for w in ANIMAL_STATES if w[0] != "too full"], WAY_TRAITS,
          variants=(("couldn't cross", "过 不 了"), ("wouldn't cross", "不 肯 过"))),
    Frame("the {s} couldn't catch the {o} because {p} was {a} .", "{s} 追 不 上 {o} ， 因为 {it} {a} 。",
          ANIMALS, ANIMALS, CATCHER_STATES, SPEEDS,
          variants=(("couldn't keep up with", "跟 不 上"),)),
]  # fmt: skip
# How often a training pair keeps its frame's own verb, against once for each variant: the held-out split is
# said with the frame's verb, so it stays the most common.
OWN_VERB_SHARES = 2

# Never in a training pair: measured only. No word here occurs in `everyday.COREF_FRAMES` either (a test checks).
# Nouns the model knows well from the rest of the corpus (each in 60 to 600 training sentences, and translated
# right alone), so the held-out split measures the referent, not unknown words.
HELD_OUT_NOUNS = {"tiger", "panda", "sheep", "duck", "sandwich", "cookie", "egg", "juice", "tea", "guitar",
                  "umbrella", "basket", "fridge", "lake", "park", "woman", "doctor"}  # fmt: skip
HELD_OUT_WORDS = {"too sleepy", "too sour", "too bitter", "too tall", "too short", "too heavy", "too deep",
                  "too smart"}  # fmt: skip
# Deciding words drawn for each noun pair and reading: one a pair tied each word to a few noun pairs; three
# give the same share of examples at a third of the repeats, each word met with three times as many nouns.
WORDS_PER_READING = 3
# Objects each person meets a frame: people are there so "he" / "she" stay 他 / 她 after "because", not to
# outweigh the animals that teach the referent (two objects add a tenth to the frames' pairs).
OBJECTS_PER_PERSON = 2


@dataclass(frozen=True)
class CorefPair:
    phrase: Ph
    reading: str  # "subject" or "object"
    subject: str  # English nouns and deciding word, to check the held-out split
    object: str
    word: str
    pronoun: str = "it"  # the English pronoun after "because": "it", or "he" / "she" for a person subject

    @property
    def of_a_person(self) -> bool:
        """Is the subject a person? Then "he" / "she" or "it" says the reading: no adjective decides it."""
        return self.subject in PEOPLE_NOUNS

    @property
    def main_clause(self) -> str:
        """The Chinese before the comma: what the first clause must come out as."""
        return "".join(self.phrase.zh[: self.phrase.zh.index("，")])

    @property
    def referent(self) -> str:
        """The Chinese right after 因为: 它 (the subject) or the object's noun."""
        return self.phrase.zh[self.phrase.zh.index("因为") + 1]


def _subjects(frame: Frame, people: bool):
    """(English, Chinese, pronoun) of the frame's subjects: its animals as "it", or its people as "he" / "she"."""
    if not people:
        return [(en, zh, "it") for en, zh in frame.subjects]
    return [(en, zh, p) for en, zh, pronouns in PEOPLE for p in pronouns] if frame.people else []


def _all_pairs(frame: Frame, people: bool = False, template: tuple[str, str] | None = None):
    """Every pair of the frame, said with `template` ((English, Chinese); None: the frame's own verb)."""
    en_template, zh_template = template or (frame.en, frame.zh)
    for s_en, s_zh, pronoun in _subjects(frame, people):
        for o_en, o_zh in frame.objects:
            if s_en == o_en:
                continue
            readings = (("subject", frame.subject_words, pronoun), ("object", frame.object_words, "it"))
            for reading, words, said in readings:
                it = PRONOUNS[said] if reading == "subject" else o_zh
                for w_en, w_zh in words:
                    en = en_template.format(s=s_en, o=o_en, a=w_en, p=said)
                    zh = zh_template.format(s=s_zh, o=o_zh, a=w_zh, it=it)
                    yield CorefPair(ph(en, zh), reading, s_en, o_en, w_en, said)


def _held_out(p: CorefPair) -> bool:
    return p.subject in HELD_OUT_NOUNS and p.object in HELD_OUT_NOUNS and p.word in HELD_OUT_WORDS


def _touches_held_out(p: CorefPair) -> bool:
    return p.subject in HELD_OUT_NOUNS or p.object in HELD_OUT_NOUNS or p.word in HELD_OUT_WORDS


def training_pairs(seed: int = 0) -> list[CorefPair]:
    """A seeded sample of each frame's pairs that use no held-out noun or word: for every noun pair, up to
    `WORDS_PER_READING` deciding words of each reading, both readings kept together. People meet
    `OBJECTS_PER_PERSON` objects a frame in the subject reading, drawn apart (animal subjects are drawn as
    without people); the held-out split has both readings of people too."""
    out = _sample(seed, people=False)
    return out + _sample(seed, people=True)


def _sample(seed: int, people: bool) -> list[CorefPair]:
    rng = random.Random(f"coreference-{'people' if people else 'kinds'}-{seed}")
    # Verbs are drawn from a stream of their own, so the nouns and words drawn stay those of the frames' own verbs.
    verb_rng = random.Random(f"coreference-verbs-{'people' if people else 'kinds'}-{seed}")
    out = []
    for frame in FRAMES:
        start = len(out)
        pool = [p for p in _all_pairs(frame, people) if not _touches_held_out(p)]
        by_nouns: dict[tuple[str, str], list[CorefPair]] = {}
        for p in pool:
            by_nouns.setdefault((p.subject, p.object), []).append(p)
        chosen = rng.sample(sorted(by_nouns), len(by_nouns))
        if people:
            per_person: dict[str, list] = {}
            for nouns in chosen:
                per_person.setdefault(nouns[0], []).append(nouns)
            chosen = [n for nouns in per_person.values() for n in nouns[:OBJECTS_PER_PERSON]]
        # A person's "it" is always the object: trained, it would tip "it" toward the object for every subject,
        # and an unseen word of an animal ("the tiger … because it was too sleepy") would follow (87 % of the
        # animal pairs right, against 93 % without people). People say "he" / "she" only.
        for nouns in chosen:
            for reading in ("subject",) if people else ("subject", "object"):
                options = [p for p in by_nouns[nouns] if p.reading == reading]
                out += rng.sample(options, min(WORDS_PER_READING, len(options)))
        out[start:] = _in_other_verbs(frame, out[start:], people, verb_rng)
    return out


def _in_other_verbs(frame: Frame, pairs: list[CorefPair], people: bool, rng: random.Random) -> list[CorefPair]:
    """Each noun pair said with a verb drawn from the frame's own (`OWN_VERB_SHARES` shares) and its variants,
    the same verb in both readings, so that only the deciding word tells them apart."""
    if not frame.variants:
        return pairs
    verbs = [frame.verb] * OWN_VERB_SHARES + list(frame.variants)
    said = {v: {_meaning(p): p for p in _all_pairs(frame, people, frame.said_with(v))} for v in set(verbs)}
    verb: dict[tuple[str, str], tuple[str, str]] = {}
    for p in pairs:
        verb.setdefault((p.subject, p.object), rng.choice(verbs))
    return [said[verb[p.subject, p.object]][_meaning(p)] for p in pairs]


def _meaning(p: CorefPair) -> tuple:
    return p.subject, p.object, p.word, p.reading, p.pronoun


def frame_verbs() -> dict[str, str]:
    """The frames' "can't" verbs, Chinese → English: 搬不动 → "carry", 跟不上 → "keep up with". A model that
    learnt "couldn't" as one of them writes it for other verbs too ("Mary couldn't see the blackboard" →
    玛丽追不上黑板); `coreference_eval` counts those."""
    verbs = {}
    for frame in FRAMES:
        for en, zh in (frame.verb, *frame.variants):
            zh = zh.replace(" ", "")
            if zh[1] == "不":  # a verb, 不 and its result: 搬不动, 追不上, 放不进
                verbs.setdefault(zh, en.split(" ", 1)[1])  # without its "couldn't"
    return verbs


def property_pairs() -> list[CorefPair]:
    """What each deciding word can describe, said without "it": "the dog was too sleepy ." → 狗 太 困 了 。, for
    every noun of a kind with every word its frames give that kind, held-out words included but no held-out
    noun. "it" is decided by what the adjective can describe; these say what it describes, and the rest of the
    corpus barely does for some words (it writes "sleepy" only of "I"). No pair has "because" or "it", so
    the held-out split still never meets its words in a coreference sentence."""
    seen: dict[str, CorefPair] = {}
    for frame in FRAMES:
        for nouns, words, reading in ((frame.subjects, frame.subject_words, "subject"),
                                      (frame.objects, frame.object_words, "object")):  # fmt: skip
            for n_en, n_zh in nouns:
                if n_en in HELD_OUT_NOUNS:
                    continue
                for w_en, w_zh in words:
                    en = f"the {n_en} was {w_en} ."
                    seen.setdefault(en, CorefPair(ph(en, f"{n_zh} {w_zh} 。"), reading, n_en, n_en, w_en))
    return list(seen.values())


def held_out_pairs() -> list[CorefPair]:
    """Every pair whose two nouns and deciding word are all held out: both readings of each noun pair."""
    return [p for frame in FRAMES for people in (False, True) for p in _all_pairs(frame, people) if _held_out(p)]


# Ways of writing a main clause that are as right as the reference's: 没 and 没有 before a verb, 放不进 and
# 放不下 for "didn't fit in", 搬不动 and 拿不动 for "couldn't carry".
_MAIN_CLAUSE_VARIANTS = [("没", "没有"), ("放不进", "放不下"), ("搬不动", "拿不动"), ("追不上", "抓不到")]


def main_clause_variants(clause: str) -> set[str]:
    """The reference main clause and its listed variants."""
    out = {clause}
    for a, b in _MAIN_CLAUSE_VARIANTS:
        out |= {c.replace(a, b, 1) for c in out if a in c and b not in c}
    return out
