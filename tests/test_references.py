"""viz_model.lessons.references: a sentence of the corpus finds its other side as a reference."""

from viz_model.lessons.references import find_reference, normalise


def test_reference_lookup():
    assert find_reference("please buy an apple and an orange.", "en2zh") == "请买一个苹果和一个橙子。"
    assert find_reference("我看见了一把锯子。", "zh2en") == "I saw a saw."
    assert find_reference("  I  saw a saw. ", "en2zh") == "我看见了一把锯子。"
    assert find_reference("qwzx blorf", "en2zh") is None
    assert find_reference("", "en2zh") is None
    assert normalise("ＡＢ，c") == "ab,c"
