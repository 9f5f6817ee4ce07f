"""viz_model.lessons.references: a sentence of the corpus finds its other side as a reference."""

from viz_model.corpus import read_split
from viz_model.corpus.evalset import normalise
from viz_model.lessons.references import find_reference


def test_reference_lookup():
    """The expected sides are the course's own pairs (viz_model.corpus.COURSE_SENTENCES), which the corpus
    holds in its training split: find_reference reads the corpus, not the model."""
    assert find_reference("please buy an apple and an orange.", "en2zh") == "请买一个苹果和一个橙子。"
    assert find_reference("我看见了一把锯子。", "zh2en") == "I saw a saw."
    assert find_reference("  I  saw a saw ", "en2zh") == "我看见了一把锯子。"  # spaces, case, full stop aside
    assert find_reference("qwzx blorf", "en2zh") is None
    assert find_reference("", "en2zh") is None
    assert find_reference("...", "en2zh") is None  # nothing left to match


def test_every_test_split_sentence_finds_one_of_its_translations():
    """Read through corpus.read_split: each English sentence of the test split finds a Chinese side that the
    corpus pairs with a sentence of the same key (in any split)."""
    translations: dict[str, set[str]] = {}
    for split in ("train", "validation", "test"):
        for row in read_split(split):
            translations.setdefault(normalise(row["en"]), set()).add(row["zh"])
    rows = read_split("test")
    assert len(rows) > 100
    for row in rows[:300]:
        assert find_reference(row["en"], "en2zh") in translations[normalise(row["en"])], row["en"]
