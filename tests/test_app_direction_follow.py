"""Typing a sentence sets the direction from its script (issue 42, item 1): Chinese typed under
English → 中文 switches to 中文 → English with a notice and one click back; a direction the reader chose for the
text is kept; mixed text keeps the direction. In both interface languages."""

import pytest

from pages.parts.i18n import t
from tests.app_harness import errors, open_app

pytestmark = pytest.mark.apptest

CHINESE = "明天下午我们一起去图书馆吧。"
ENGLISH = "I saw a saw."
LANGS = ["en", "zh"]


def type_text(at, text: str):
    at.text_input(key="text").input(text).run()
    assert errors(at) == []
    return at


def followed(lang: str, direction: str) -> str:
    source = direction[:2]
    return t(
        "app.direction_followed",
        lang,
        language=t(f"app.language_{source}", lang),
        direction=t(f"app.dir_{direction}", lang),
    )


def undo_buttons(at) -> list:
    return [b for b in at.sidebar.button if b.key == "direction_undo"]


def shows_notice(at, lang: str, direction: str) -> bool:
    return any(followed(lang, direction) in c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("lang", LANGS)
def test_typing_chinese_under_en2zh_switches_and_says_so(lang):
    at = open_app(text=ENGLISH, direction="en2zh", lang=lang)
    type_text(at, CHINESE)
    assert at.session_state["dir"] == "zh2en" and at.query_params["dir"] == "zh2en"
    assert at.radio(key="dir").value == "zh2en"
    assert shows_notice(at, lang, "zh2en")
    (undo,) = undo_buttons(at)
    assert undo.label == t("app.direction_undo", lang, direction=t("app.dir_en2zh", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_typing_english_under_zh2en_switches_back(lang):
    at = open_app(text="我看见了一把锯子。", direction="zh2en", lang=lang)
    type_text(at, ENGLISH)
    assert at.session_state["dir"] == "en2zh"
    assert shows_notice(at, lang, "en2zh") and undo_buttons(at)


@pytest.mark.parametrize("lang", LANGS)
def test_undo_restores_the_direction_and_the_same_text_then_keeps_it(lang):
    at = open_app(text=ENGLISH, direction="en2zh", lang=lang)
    type_text(at, CHINESE)
    undo_buttons(at)[0].click().run()
    assert errors(at) == []
    assert at.session_state["dir"] == "en2zh" and at.query_params["dir"] == "en2zh"
    assert not undo_buttons(at) and not shows_notice(at, lang, "zh2en")
    # The reader chose en2zh for this text: no "translate it the other way?" either.
    assert not [b for b in at.button if b.key == "switch_direction"]
    at.run()
    assert at.session_state["dir"] == "en2zh"
    at.switch_page("pages/tokens.py").run()
    assert errors(at) == [] and at.session_state["dir"] == "en2zh"
    # Typed again (after another sentence that keeps en2zh), the same text keeps the chosen direction.
    type_text(at, "I saw a saw")
    type_text(at, CHINESE)
    assert at.session_state["dir"] == "en2zh" and not undo_buttons(at)
    # Another Chinese sentence is not that text: it follows its script again.
    type_text(at, "我看见了一把锯子。")
    assert at.session_state["dir"] == "zh2en" and undo_buttons(at)


@pytest.mark.parametrize("lang", LANGS)
def test_a_direction_chosen_after_typing_is_kept(lang):
    at = open_app(text=ENGLISH, direction="en2zh", lang=lang)
    type_text(at, CHINESE)
    assert at.session_state["dir"] == "zh2en"
    at.radio(key="dir").set_value("en2zh").run()  # the reader overrides the switch for this text
    assert errors(at) == []
    assert at.session_state["dir"] == "en2zh" and at.query_params["dir"] == "en2zh"
    assert not undo_buttons(at) and not shows_notice(at, lang, "zh2en")
    at.run()
    assert at.session_state["dir"] == "en2zh"
    type_text(at, "Hello")  # leaves en2zh, then the chosen text once more
    type_text(at, CHINESE)
    assert at.session_state["dir"] == "en2zh" and not undo_buttons(at)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("direction", ["en2zh", "zh2en"])
@pytest.mark.parametrize("mixed", ["我爱 Python", "I like 苹果。", "123 🙂"])
def test_mixed_or_scriptless_text_keeps_the_direction(lang, direction, mixed):
    start = ENGLISH if direction == "en2zh" else "我看见了一把锯子。"
    at = open_app(text=start, direction=direction, lang=lang)
    type_text(at, mixed)
    assert at.session_state["dir"] == direction and at.query_params["dir"] == direction
    assert not undo_buttons(at)
    assert not shows_notice(at, lang, "en2zh") and not shows_notice(at, lang, "zh2en")


@pytest.mark.parametrize("lang", LANGS)
def test_text_already_in_the_directions_language_changes_nothing(lang):
    at = open_app(text=ENGLISH, direction="en2zh", lang=lang)
    type_text(at, "Please buy an apple.")
    assert at.session_state["dir"] == "en2zh" and not undo_buttons(at)
