"""The tokenizer: both languages, unknown words reported by name, cuts reported, nothing dropped."""

import pytest

from viz_model.model.detokenize import detokenize
from viz_model.model.tokenizer import EOS, SPECIAL_TOKENS, TO_EN, TO_ZH, UNK, Tokenizer, clean_text, token_language

VOCAB = [
    "i",
    "saw",
    "a",
    ".",
    "?",
    ",",
    "twenty-one",
    "do",
    "n't",
    "it",
    "'s",
    "o'clock",
    "wo",
    "did",
    "我",
    "看见",
    "了",
    "一",
    "把",
    "锯子",
    "。",
    "？",
    "，",
    "一加",
    "加",
    "三",
    "等于",
    "四",
    "二十",
    "二十一",
]


@pytest.fixture(scope="module")
def tok():
    return Tokenizer(list(SPECIAL_TOKENS) + VOCAB)


def test_english_is_lowercased_and_split_into_words_and_punctuation(tok):
    assert tok.split("I SAW a saw.") == (["i", "saw", "a", "saw", "."], [])
    assert tok.split("Twenty-one, don't?")[0] == ["twenty-one", ",", "do", "n't", "?"]


def test_contractions_split_off_their_clitic_and_join_back():
    from viz_model.model.tokenizer import english_words

    assert english_words("I didn't know it's 8 o'clock") == ["i", "did", "n't", "know", "it", "'s", "8", "o'clock"]
    assert english_words("Won't CAN'T let’s") == ["wo", "n't", "ca", "n't", "let", "'s"]  # curly quote too
    assert (
        detokenize(["i", "did", "n't", "know", "it", "'s", "8", "o'clock", "."], "en")
        == "I didn't know it's 8 o'clock."
    )
    assert detokenize(["wo", "n't", "you", "?"], "en") == "Won't you?"


def test_numbers_split_by_the_tokenizer_join_back():
    from viz_model.model.tokenizer import english_words

    for text, number in (
        ("The train leaves at 9:15.", ["9", ":", "15"]),
        ("It costs 3.50 dollars.", ["3", ".", "50"]),
        ("About 1,000 people came.", ["1", ",", "000"]),
        ("It opens at nine a.m. and closes at 6 p.m.", ["a", ".", "m"]),
        ("The concert is on June 6th.", ["june", "6", "th"]),
    ):
        words = english_words(text)
        assert any(words[i : i + 3] == number for i in range(len(words)))  # split into three tokens …
        assert detokenize(words, "en") == text  # … and written back as one number
    # Only where the digits make one number: a list and a sentence ending in a number stay apart.
    assert detokenize(["1", ",", "2", ",", "3", "."], "en") == "1, 2, 3."
    assert detokenize(["it", "is", "7", ".", "i", "am", "up", "."], "en") == "It is 7. I am up."


def test_chinese_is_segmented_by_jieba_then_by_the_vocabulary(tok):
    assert tok.split("我看见了一把锯子。")[0] == ["我", "看见", "了", "一", "把", "锯子", "。"]
    # 二十一 is one vocabulary word, not 二十 + 一.
    assert tok.split("二十一加三")[0] == ["二十一", "加", "三"]
    # jieba finds the words of an unknown run: each is reported on its own, not the run as one word.
    tokens, unknown = tok.split("太阳从东方升起")
    assert tokens == [UNK] * 4 and unknown == ["太阳", "从", "东方", "升起"]
    # A jieba word the vocabulary lacks is split into vocabulary words where it can be (一把 -> 一 把).
    assert tok.split("看见一把")[0] == ["看见", "一", "把"]


def test_text_already_split_by_spaces_gives_the_same_tokens(tok):
    assert tok.split("我 看见 了 一 把 锯子 。")[0] == tok.split("我看见了一把锯子。")[0]


def test_chinese_punctuation_survives_and_ascii_marks_in_chinese_become_chinese(tok):
    assert tok.split("我看见了？")[0][-1] == "？"
    assert tok.split("我看见了?")[0][-1] == "？"
    assert tok.split("I saw？")[0][-1] == "?"  # full-width marks in English fold to ASCII


def test_unknown_words_become_one_unk_each_and_are_reported_by_name(tok):
    tokens, unknown = tok.split("I saw a zebra and 熊猫了")
    assert tokens == ["i", "saw", "a", UNK, UNK, UNK, "了"]
    assert unknown == ["zebra", "and", "熊猫"]


def test_typed_special_tokens_are_text_not_control_symbols(tok):
    tokens, unknown = tok.split("<eos> <2zh>")
    assert EOS not in tokens and TO_ZH not in tokens
    assert "".join(unknown) == "<eos><2zh>"


def test_invisible_and_control_characters_are_dropped(tok):
    assert clean_text("i\u200b s\x00aw\u202e") == "i saw"
    assert tok.split("i\tsaw\n")[0] == ["i", "saw"]
    assert tok.split("\u200b\u200b   ")[0] == []


def test_encode_source_adds_the_direction_tag_and_eos_and_reports_the_cut(tok):
    enc = tok.encode_source("I saw a saw.", "zh", 40)
    assert enc.tokens == [TO_ZH, "i", "saw", "a", "saw", ".", EOS]
    assert enc.ids == tok.ids(enc.tokens) and not enc.truncated
    long = tok.encode_source("saw " * 50 + "zebra", "en", 10)
    assert long.tokens[0] == TO_EN and long.tokens[-1] == EOS and len(long.tokens) == 10
    assert long.truncated and long.original_length == 51
    assert long.unknown_words == []  # "zebra" was cut off, so it is not reported


def test_vocabulary_round_trips_through_its_file(tok, tmp_path):
    tok.save(tmp_path / "vocab.json")
    again = Tokenizer.load(tmp_path / "vocab.json")
    assert again.vocab == tok.vocab
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(ValueError):
        Tokenizer.load(tmp_path / "bad.json")


def test_detokenize(tok):
    assert detokenize(["i", "saw", "a", "saw", "."], "en") == "I saw a saw."
    # every sentence starts with a capital; "I" and "FBI" keep theirs wherever they stand
    assert (
        detokenize(["you", "and", "i", "saw", "it", ".", "the", "fbi", "is", "here", "!", "why", "?"], "en")
        == "You and I saw it. The FBI is here! Why?"
    )
    assert detokenize(["3", "apples"], "en") == "3 apples"
    assert detokenize(["我", "看见", "了", "。", EOS], "zh") == "我看见了。"
    # Latin words and numbers inside Chinese keep the space between them, nowhere else
    assert detokenize(["用", "it", "is", "raining", "造句", "。"], "zh") == "用it is raining造句。"
    assert detokenize(["号码", "是", "138", "1234", "5678", "。"], "zh") == "号码是138 1234 5678。"
    assert detokenize(["Wi", "-", "Fi", "密码", "是", "5", "个", "字"], "zh") == "Wi-Fi密码是5个字"


@pytest.mark.parametrize(
    "text",
    [
        'How do you say "thank you" in Chinese?',
        'It should be "library", not "bookstore".',
        'What does "it" mean here?',
        '"Hello" is a word.',
        "She said “hello” to me.",  # curly quotes are read as straight ones
    ],
)
def test_detokenize_puts_quotation_marks_around_the_quoted_words(text):
    """A straight " opens a quotation and the next one closes it: the closing mark joins the word before
    it and the next word is spaced as usual (not `"thank you "in`)."""
    words = "how do you say thank in chinese it should be library not bookstore what does mean here hello is"
    tokens, unknown = Tokenizer(
        [*SPECIAL_TOKENS, *words.split(), "a", "word", "she", "said", "to", "me", *'"?.,']
    ).split(text)
    assert not unknown
    assert detokenize(tokens, "en") == text.replace("“", '"').replace("”", '"')


def test_token_language_sorts_the_shared_vocabulary():
    assert [
        token_language(t) for t in ("苹果", "，", "。", "apple", "n't", "wi-fi", "3", ".", "?", "😀", "<eos>", "<2zh>")
    ] == ["zh", "zh", "zh", "en", "en", "en", None, None, None, None, None, None]
