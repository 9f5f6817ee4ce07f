"""Closest known sentences: real corpus sentences, ranked by the rare words they share with the typed text."""

from viz_model.lessons.suggest import SentenceIndex, terms, typed_language

SENTENCES = [
    "The cat sat on the mat.",
    "The dog is in the garden.",
    "I like the garden.",
    "The cat is asleep.",
    "We went to the park.",
]


def test_closest_sentences_share_the_rare_words():
    index = SentenceIndex(SENTENCES * 1, "en")
    found = index.closest("The zebra sat on the mat", k=2)
    assert found[0].text == "The cat sat on the mat."
    assert set(found[0].shared) >= {"sat", "mat"}
    assert all(s.text in SENTENCES for s in found)
    assert found[0].score > found[1].score


def test_common_words_alone_suggest_nothing():
    # "the" is in most sentences: sharing it is no evidence of closeness.
    index = SentenceIndex(SENTENCES + [f"The thing number {i}." for i in range(100)], "en")
    assert index.closest("the zebra") == []


def test_chinese_is_compared_by_characters():
    index = SentenceIndex(["我喜欢猫。", "太阳很大。", "我们去公园。"], "zh")
    assert index.closest("太阳从东方升起", k=1)[0].text == "太阳很大。"
    assert terms("太阳！", "zh") == {"太", "阳"}
    assert typed_language("太阳") == "zh" and typed_language("sun") == "en"


def test_shipped_corpus_index_suggests_known_sentences():
    index = SentenceIndex.from_corpus("en")
    assert len(index.sentences) > 10_000
    found = index.closest("My qwertyzebra is hungry and tired", k=3)
    assert found and all(s.text in index.sentences for s in found)
    assert all({"hungry", "tired"} & set(s.shared) for s in found)
