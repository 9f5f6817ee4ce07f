"""Tests of the training corpus: a bijective, tokenizer-consistent, deterministic English–Chinese grammar."""

from collections import Counter

import pytest

from viz_model import corpus
from viz_model.corpus import COURSE_SENTENCES, SentencePair
from viz_model.corpus.capitals import capitalised_forms
from viz_model.corpus.evalset import everyday_keys, normalise
from viz_model.corpus.phrasebook import load_phrasebook
from viz_model.model.detokenize import CAPITALS_FILE, detokenize
from viz_model.model.tokenizer import Tokenizer, english_words

# These build the corpus in this process (one to three minutes): tests/conftest.py marks every test using them `slow`.
SLOW_FIXTURES = ("pairs", "splits", "tokenizer")


@pytest.fixture(scope="module")
def pairs():
    return corpus.corpus_pairs(seed=0)  # generate_pairs(0), built once per process


@pytest.fixture(scope="module")
def splits(pairs):
    return corpus.split_corpus(pairs, seed=0)


@pytest.fixture(scope="module")
def tokenizer(pairs):
    return Tokenizer.from_corpus([p.en_tokens for p in pairs] + [p.zh_tokens for p in pairs])


# ---- determinism and size -------------------------------------------------------------------------
def test_same_seed_same_corpus(tmp_path, splits):
    """The corpus this run built from seed 0 (the first process that needed it: tests/conftest.py) is, byte for
    byte, the one shipped in assets/corpus/ (built by another process, from which the shipped model was
    trained): the build depends on its seed only, not on hash seeds, dictionary order or the machine."""
    corpus.write_corpus(tmp_path, splits=splits)
    for name in ("train.tsv", "validation.tsv", "test.tsv", "lexicon.tsv"):
        built, shipped = (tmp_path / name).read_bytes(), (corpus.OUT_DIR / name).read_bytes()
        assert built == shipped, f"{name} differs from the shipped one (rebuild: python -m viz_model.corpus)"


def test_size_and_no_duplicates(pairs):
    assert 60_000 <= len(pairs) <= 160_000
    assert len(set(pairs)) == len(pairs)
    assert len({(p.en_tokens, p.zh_tokens, p.direction) for p in pairs}) == len(pairs)


def test_pair_fields(pairs):
    for p in pairs[:2000] + pairs[-2000:]:
        assert isinstance(p, SentencePair)
        assert p.direction in ("both", "en2zh", "zh2en")
        assert all(t == t.lower() for t in p.en_tokens)
        assert p.zh == "".join(p.zh_tokens)


# ---- capitals: names written as the phrasebook's writers write them -------------------------------------
def test_capitalised_forms_count_only_mid_sentence_uses():
    forms = capitalised_forms(
        [
            "I live in Beijing.",
            "We flew to Beijing: Paris was next.",  # after a colon counts as a start
            "Summer is hot. Summer is long.",  # only ever first: no evidence either way
            "Ask Tom's sister, not Tom. Tom is out.",  # "Tom's" is the tokens "tom" "'s"
            "The TV is on and the TV is loud.",
            "The festival is long. I like the Festival.",  # capitalised half the time: not kept
        ]
    )
    assert forms == {"beijing": "Beijing", "tom": "Tom", "tv": "TV"}


def test_shipped_capitals_file_is_the_phrasebooks(pairs):
    shipped = dict(row.split("\t") for row in CAPITALS_FILE.read_text(encoding="utf-8").splitlines()[1:])
    assert shipped == capitalised_forms(en for en, _, _ in load_phrasebook())
    assert {"beijing", "english", "monday", "wi-fi", "wechat"} <= set(shipped)
    # and the output side uses them: the model's lower-case tokens come back capitalised
    assert detokenize(["winter", "in", "beijing", "is", "cold", "."], "en") == "Winter in Beijing is cold."
    assert detokenize(["please", "answer", "in", "english", "."], "en") == "Please answer in English."


# ---- a bijection: one translation per sentence, both ways ---------------------------------------------
def test_every_sentence_has_exactly_one_translation(pairs):
    assert corpus.find_conflicts(pairs) == []


def test_find_conflicts_detects_a_second_translation():
    a = SentencePair(("the", "cat"), ("猫",), "t")
    b = SentencePair(("a", "cat"), ("猫",), "t")
    c = SentencePair(("the", "cat"), ("一", "只", "猫"), "t", direction="zh2en")
    assert len(corpus.find_conflicts([a, b])) == 1  # 猫 → two English sentences
    assert corpus.find_conflicts([a, c]) == []  # c only runs zh→en


# ---- the tokenizer splits each side into exactly the pair's tokens -------------------------------
def test_english_tokens_agree_with_tokenizer(pairs, tokenizer):
    bad = [p for p in pairs if tokenizer.split(p.en)[0] != list(p.en_tokens)]
    assert not bad, bad[:5]


def test_chinese_tokens_agree_with_greedy_longest_match(pairs, tokenizer):
    bad = [p for p in pairs if tokenizer.split(p.zh)[0] != list(p.zh_tokens)]
    assert not bad, [(p.zh, p.zh_tokens, tokenizer.split(p.zh)[0]) for p in bad[:5]]


def test_no_unknown_words(pairs, tokenizer):
    for p in pairs[::50]:
        assert tokenizer.split(p.en)[1] == [] and tokenizer.split(p.zh)[1] == []


def test_tokenizer_keeps_chinese_punctuation(tokenizer):
    assert tokenizer.split("你喜欢猫吗？")[0][-1] == "？"


def test_punctuation_per_language(pairs):
    for p in pairs:
        assert not set("。？，！") & set("".join(p.en_tokens))
        assert not set(".?,!") & set(p.zh)


# ---- lengths and vocabulary ---------------------------------------------------------------------------
def test_english_lengths(pairs):
    grammar = [len(p.en_tokens) for p in pairs if p.origin == "grammar"]
    assert min(grammar) >= 2 and max(grammar) <= 20
    # the everyday lexicon adds one-word dictionary pairs; the phrasebook a few longer sentences
    assert min(len(p.en_tokens) for p in pairs) >= 1 and max(len(p.en_tokens) for p in pairs) <= 24


def test_at_least_400_english_word_types(pairs):
    words = {t for p in pairs for t in p.en_tokens if t[0].isalpha()}
    zh_words = {t for p in pairs for t in p.zh_tokens if not set(t) & set("。？，！")}
    assert len(words) >= 400
    assert len(zh_words) >= 300


# ---- course sentences -----------------------------------------------------------------------------------
COURSE = {
    "please buy an apple and an orange": "请买一个苹果和一个橙子",
    "an apple phone": "一部苹果手机",
    "i am a student": "我是一个学生",
    "i saw a saw": "我看见了一把锯子",
    "the fbi is chasing a criminal on the run": "联邦调查局正在追捕一名在逃的罪犯",
    "thinking machines": "思考的机器",
    "when you play the game of thrones , you win or you die": "当你玩权力的游戏时，你要么赢，要么死",
    "there is no middle ground": "没有中间地带",
    "one plus three equals four": "一加三等于四",
}


def _words(p):
    return " ".join(t for t in p.en_tokens if t not in (".", "?", "!"))


def test_course_sentences_present_and_in_train(pairs, splits):
    found = {_words(p): p.zh.rstrip("。") for p in COURSE_SENTENCES if p.direction in ("both", "en2zh")}
    assert found == COURSE
    zh2en = [p for p in COURSE_SENTENCES if p.direction == "zh2en"]
    assert [(p.zh, _words(p)) for p in zh2en] == [("一加三", "one plus three equals four")]
    train = set(splits["train"])
    # A course sentence that the everyday evaluation set also holds is left out of training (the
    # evaluation set is never trained on); every other course sentence is trained on.
    banned = everyday_keys()
    for p in COURSE_SENTENCES:
        held_out = normalise(p.en) in banned or normalise(p.zh) in banned
        assert (p in pairs and p in train) != held_out, p


def test_course_words_used_in_other_sentences(pairs):
    others = [p for p in pairs if p.topic != "course"]
    en = Counter(t for p in others for t in p.en_tokens)
    for word in [
        "please",
        "buy",
        "apple",
        "orange",
        "phone",
        "student",
        "saw",
        "fbi",
        "chasing",
        "criminal",
        "run",
        "thinking",
        "machines",
        "play",
        "game",
        "thrones",
        "win",
        "die",
        "middle",
        "ground",
    ]:
        assert en[word] >= 3, word


# ---- arithmetic -------------------------------------------------------------------------------------
def test_arithmetic_forms():
    pairs = corpus.arithmetic_pairs()
    by_dir = Counter(p.direction for p in pairs)
    n = len(corpus.arithmetic_triples())
    assert by_dir == {"en2zh": n, "zh2en": n, "both": n}
    assert SentencePair(("one", "plus", "three"), ("一", "加", "三", "等于", "四"), "arithmetic", "en2zh") in pairs
    assert (
        SentencePair(("twenty", "minus", "seven", "equals", "thirteen"), ("二十", "减", "七"), "arithmetic", "zh2en")
        in pairs
    )
    assert (
        SentencePair(
            ("twenty", "plus", "twenty", "equals", "forty"), ("二十", "加", "二十", "等于", "四十"), "arithmetic"
        )
        in pairs
    )
    for x, op, y in corpus.arithmetic_triples():
        assert 0 <= x <= 20 and 0 <= y <= 20 and 0 <= (x + y if op == "plus" else x - y) <= 40


def test_numbers_are_single_tokens():
    assert corpus.EN_NUMBERS[21] == "twenty-one" and corpus.EN_NUMBERS[40] == "forty" and len(corpus.EN_NUMBERS) == 41
    assert corpus.ZH_NUMBERS[:3] == ["零", "一", "二"] and corpus.ZH_NUMBERS[10] == "十"
    assert corpus.ZH_NUMBERS[11] == "十一" and corpus.ZH_NUMBERS[21] == "二十一" and corpus.ZH_NUMBERS[40] == "四十"


def test_held_out_arithmetic_only_outside_train(pairs, splits):
    held = corpus.HELD_OUT_ARITHMETIC
    n = len(corpus.arithmetic_triples())
    assert 0.08 * n <= len(held) <= 0.12 * n
    assert (1, "plus", 3) not in held
    assert not any(corpus.is_held_out_arithmetic(p) for p in splits["train"])
    held_pairs = [p for p in pairs if corpus.is_held_out_arithmetic(p)]
    assert len(held_pairs) == 3 * len(held)
    outside = set(splits["validation"]) | set(splits["test"])
    assert all(p in outside for p in held_pairs)
    train_triples = {corpus.arithmetic_triple(p) for p in splits["train"]} - {None}
    assert not train_triples & held


# ---- ambiguous words ------------------------------------------------------------------------------------
def test_ambiguous_words_table_and_tags(pairs):
    assert len(corpus.AMBIGUOUS_WORDS) >= 5
    for word in ("saw", "bank", "bat", "orange", "light"):
        assert len(corpus.AMBIGUOUS_WORDS[word]) >= 2
    used = Counter(a for p in pairs for a in p.ambiguous)
    for word, senses in corpus.AMBIGUOUS_WORDS.items():
        for sense in senses:
            assert used[(word, sense)] >= 100, (word, sense)
    for p in pairs:
        for word, sense in p.ambiguous:
            assert sense in corpus.AMBIGUOUS_WORDS[word]
    course_saw = next(p for p in COURSE_SENTENCES if p.en_tokens[:3] == ("i", "saw", "a"))
    assert set(course_saw.ambiguous) == {("saw", "看见"), ("saw", "锯子")}


def test_ambiguous_tags_match_the_text(pairs):
    forms = corpus.AMBIGUOUS_FORMS
    # Generated sentences record every sense they use; hand-written phrasebook sentences are not tagged.
    for p in (p for p in pairs if p.origin != "phrasebook"):
        for word, sense in p.ambiguous:
            assert forms[word] & set(p.en_tokens), p
            assert any(sense in t for t in p.zh_tokens), p
        for word, f in forms.items():
            if f & set(p.en_tokens) and p.topic != "arithmetic":
                assert word in {w for w, _ in p.ambiguous}, p


def test_ambiguous_senses_in_context(pairs):
    zh_of = {p.en_tokens: p.zh for p in pairs if p.direction == "both"}
    assert "银行" in zh_of[("she", "went", "to", "the", "bank", "yesterday", ".")]
    assert any("河岸" in p.zh and "bank" in p.en_tokens for p in pairs)
    assert any("橙色" in p.zh and "orange" in p.en_tokens for p in pairs)
    assert any("球拍" in p.zh for p in pairs) and any("蝙蝠" in p.zh for p in pairs)


# ---- coverage of constructions ----------------------------------------------------------------------
def test_constructions_covered(pairs):
    zh = Counter()
    for p in pairs:
        zh.update(set(p.zh_tokens))
    for marker in (
        "吗",
        "什么",
        "谁",
        "哪里",
        "几",
        "不",
        "没",
        "请",
        "和",
        "但是",
        "因为",
        "还是",
        "了",
        "正在",
        "会",
        "今天",
        "昨天",
        "明天",
        "每天",
        "两",
        "本",
    ):
        assert zh[marker] >= 50, marker
    topics = Counter(p.topic for p in pairs)
    for topic in (
        "question",
        "negation",
        "imperative",
        "conjunction",
        "time",
        "numbers",
        "arithmetic",
        "ambiguous",
        "adjectives",
        "daily life",
    ):
        assert topics[topic] >= 500, topic
    en = {p.en_tokens for p in pairs}
    assert ("i", "have", "three", "books", ".") in en or any(p.en_tokens[-3:-1] == ("three", "books") for p in pairs)
    assert any(
        p.zh_tokens[:3] == ("两", "只", "猫") or tuple(p.zh_tokens[i : i + 3]) == ("两", "只", "猫")
        for p in pairs
        for i in range(len(p.zh_tokens))
    )


# ---- splits ---------------------------------------------------------------------------------------------
def test_split_sizes_and_partition(pairs, splits):
    assert set(splits) == {"train", "validation", "test"}
    assert 900 <= len(splits["validation"]) <= 1200 and 900 <= len(splits["test"]) <= 1200
    assert sum(len(s) for s in splits.values()) == len(pairs)
    assert Counter(p for s in splits.values() for p in s) == Counter(pairs)


def test_no_side_shared_between_train_and_test(splits):
    train_en = {p.en_tokens for p in splits["train"]}
    train_zh = {p.zh_tokens for p in splits["train"]}
    for name in ("validation", "test"):
        for p in splits[name]:
            assert p.en_tokens not in train_en and p.zh_tokens not in train_zh, p
    assert not set(splits["validation"]) & set(splits["test"])


def test_test_split_has_ambiguous_words_and_arithmetic(splits):
    test = splits["test"]
    assert sum(1 for p in test if p.ambiguous) >= 100
    assert sum(1 for p in test if p.topic == "arithmetic") >= 50
    senses = {a for p in test for a in p.ambiguous}
    assert senses == {(w, s) for w, ss in corpus.AMBIGUOUS_WORDS.items() for s in ss}


def test_coreference_pairs_held_out_in_both_readings(splits):
    """Enough held-out coreference pairs to measure the right-referent share, both readings of "it", each a
    new combination of words the training split has (the adjective decides, not an unseen word)."""
    train_words = {t for p in splits["train"] for t in p.en_tokens}
    for name in ("validation", "test"):
        held = [p for p in splits[name] if p.topic == "coreference"]
        assert len(held) >= 60
        readings = Counter("它" in p.zh_tokens for p in held)
        assert readings[True] >= 15 and readings[False] >= 15
        assert all(set(p.en_tokens) <= train_words for p in held)


def test_split_is_deterministic(pairs, splits):
    assert corpus.split_corpus(pairs, seed=0) == splits


# ---- word lists for the app -----------------------------------------------------------------------
def test_lexicon_and_examples(pairs):
    entries = corpus.lexicon()
    assert len(entries) >= 300
    used_en = {t for p in pairs for t in p.en_tokens}
    used_zh = {p.zh for p in pairs}
    for e in entries:
        assert e.english and e.chinese and e.part_of_speech and e.topic
        forms = lambda w: {w, w + "s", w + "ing", w[:-1] + "ing", w + "ed"}
        assert all(forms(w) & used_en for w in english_words(e.english)), e
    assert any(e.english == "saw" and e.chinese == "锯子" for e in entries)
    assert "arithmetic" in corpus.topics() and "ambiguous" in corpus.topics()
    for topic in corpus.topics():
        examples = corpus.example_sentences(topic, n=5)
        assert 1 <= len(examples) <= 5
        assert all(isinstance(p, SentencePair) for p in examples)
    assert all(p.ambiguous for p in corpus.example_sentences("ambiguous"))
    assert corpus.example_sentences("course") == COURSE_SENTENCES[:10]
    with pytest.raises(KeyError):
        corpus.example_sentences("no such topic")
    assert used_zh


def test_write_corpus(tmp_path, splits):
    counts = corpus.write_corpus(tmp_path, splits=splits)
    header = (tmp_path / "test.tsv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "en\tzh\ttopic\tdirection\tambiguous\torigin"
    rows = (tmp_path / "train.tsv").read_text(encoding="utf-8").splitlines()
    assert len(rows) - 1 == counts["train"]
    assert any(r.split("\t")[4] == "saw=看见;saw=锯子" for r in rows)
    read = corpus.read_split("train", tmp_path)  # read back as written
    assert len(read) == counts["train"]
    assert [(r["en"], r["zh"], r["direction"]) for r in read[:50]] == [
        (p.en, p.zh, p.direction) for p in splits["train"][:50]
    ]
    assert (tmp_path / "lexicon.tsv").exists()


def test_phrasebook_words_are_cut_the_grammar_way(pairs):
    """jieba has 看电视 and 不会 as one word; the grammar writes 看 电视 and 不 会. The corpus keeps the
    grammar's cut, so those jieba words never enter the vocabulary and a grammar sentence keeps 看 ↔ watch."""
    from viz_model.corpus.assemble import grammar_convention, grammar_word_pairs

    word_pairs = grammar_word_pairs([["我", "看", "电视"]] * 20 + [["他", "看", "书"]] * 19)
    assert ("看", "电视") in word_pairs and ("看", "书") not in word_pairs  # 19 meetings: not a convention
    assert grammar_convention(["我", "看电视", "看书"], word_pairs) == ["我", "看", "电视", "看书"]
    assert grammar_convention(["这本", "我的"]) == ["这", "本", "我", "的"]
    vocabulary = {t for p in pairs for t in p.zh_tokens}
    phrasebook_text = "".join("".join(p.zh_tokens) for p in pairs if p.origin == "phrasebook")
    for word in ("看电视", "不会", "打乒乓球", "床上"):
        assert word in phrasebook_text and word not in vocabulary
    assert {"看", "电视", "不", "会"} <= vocabulary


def test_rare_chinese_words_are_written_as_their_characters(pairs):
    """A Chinese word of fewer than RARE_WORD_MIN_SENTENCES sentences is no vocabulary entry: its sentences
    carry its characters, every one of which is in the vocabulary (so the app reads the word too)."""
    from viz_model.corpus.assemble import RARE_WORD_MIN_SENTENCES

    sentences_with = Counter(tok for p in pairs for tok in set(p.zh_tokens))
    course = {tok for p in COURSE_SENTENCES for tok in p.zh_tokens}
    words = [t for t in sentences_with if len(t) > 1 and any("\u4e00" <= ch <= "\u9fff" for ch in t)]
    assert words and all(sentences_with[w] >= RARE_WORD_MIN_SENTENCES or w in course for w in words)
    characters = {t for t in sentences_with if len(t) == 1}
    assert len(characters) > 1000  # the characters of the words written out


def test_latin_words_inside_chinese_stay_apart(pairs, tokenizer):
    """Hand-written Chinese that quotes English (英语也要说 it is raining) keeps each English word a token of
    its own, as the app reads it, not one glued token (itisraining)."""
    (quoting,) = [p for p in pairs if "英语也要说" in p.zh and "raining" in p.zh]
    assert ("it", "is", "raining") in zip(quoting.zh_tokens, quoting.zh_tokens[1:], quoting.zh_tokens[2:])
    quoted = [p for p in pairs if p.origin == "phrasebook" and any(t.isascii() and t.isalpha() for t in p.zh_tokens)]
    assert len(quoted) > 10
    for p in quoted:
        assert tokenizer.split(p.zh)[0] == list(p.zh_tokens)
