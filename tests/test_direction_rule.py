"""The rule the sidebar applies when a sentence is typed (issue 42, item 1): the direction follows the
text's script unless the reader chose it for this text; mixed text, or text of neither script, keeps it."""

import pytest

from viz_model.model.translator import text_script, typed_direction


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("明天下午我们一起去图书馆吧。", "zh"),
        ("一加三等于四", "zh"),
        ("I saw a saw.", "en"),
        ("“Hello…”", "en"),  # curly quotes and … are English marks too
        ("我爱 Python", None),
        ("I like 苹果", None),
        ("123 🙂", None),
        ("。！", None),  # marks alone decide nothing
        ("", None),
        ("   ", None),
    ],
)
def test_text_script(text, script):
    assert text_script(text) == script


@pytest.mark.parametrize("current", ["en2zh", "zh2en"])
def test_chinese_text_goes_to_english_and_english_text_to_chinese(current):
    assert typed_direction("明天下午我们一起去图书馆吧。", current) == "zh2en"
    assert typed_direction("Let's go to the library tomorrow.", current) == "en2zh"


@pytest.mark.parametrize("current", ["en2zh", "zh2en"])
@pytest.mark.parametrize("text", ["我爱 Python", "I like 苹果", "123 🙂", "42", "", "。"])
def test_mixed_or_scriptless_text_keeps_the_direction(text, current):
    assert typed_direction(text, current) == current


@pytest.mark.parametrize("chosen", ["en2zh", "zh2en"])
@pytest.mark.parametrize("current", ["en2zh", "zh2en"])
@pytest.mark.parametrize("text", ["明天下午我们一起去图书馆吧。", "I saw a saw.", "我爱 Python"])
def test_a_direction_chosen_for_the_text_wins(text, current, chosen):
    assert typed_direction(text, current, chosen) == chosen


def test_no_choice_and_a_nonsense_choice_are_ignored():
    assert typed_direction("我看见了", "en2zh", None) == "zh2en"
    assert typed_direction("我看见了", "en2zh", "xx") == "zh2en"
    assert typed_direction("123", "nonsense") == "en2zh"  # an unknown current direction falls back
