"""In a real browser: a language switch keeps the model picker's choice on screen, and a link's ?present=1
stays in the address bar, spelt present=true (issue 42)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t
from pages.parts.state import MAX_TEXT_CHARS


@pytest.mark.timeout(300)
def test_the_model_picker_shows_its_choice_after_a_language_switch(new_session):
    session = new_session()
    session.open("attention", text="I saw a saw.", dir="en2zh", lang="en", model="minilm")
    picked = session.page.locator('.st-key-model [data-testid="stRadioOption"][data-selected="true"]')
    assert picked.inner_text().strip() == t("pretrained.model_minilm", "en")
    session.click_and_wait(session.page.locator(".st-key-lang button").filter(has_text="中文"))
    session.page.wait_for_function("() => location.search.includes('lang=zh')")
    assert picked.inner_text(timeout=10_000).strip() == t("pretrained.model_minilm", "zh")
    assert parse_qs(urlparse(session.page.url).query).get("model") == ["minilm"]
    assert session.problems() == []


@pytest.mark.timeout(300)
def test_present_1_stays_in_the_address_bar_as_present_true(new_session):
    session = new_session()
    session.open("", text="I saw a saw.", dir="en2zh", lang="en", present="1")
    session.wait_idle()
    assert parse_qs(urlparse(session.page.url).query).get("present") == ["true"]
    assert session.page.locator('.st-key-present input[type="checkbox"]').is_checked()
    assert session.problems() == []


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hint_under_the_sentence_box_is_in_the_pages_language(new_session, lang):
    session = new_session()
    session.open("", text="I saw a saw.", dir="en2zh", lang=lang)
    box = session.page.locator(".st-key-text input")
    box.click()
    box.press("End")
    box.type(" ok")  # typed and not yet applied: Streamlit shows its note under the box
    first_note = session.page.locator('.st-key-text [data-testid="InputInstructions"] > span').first
    first_note.wait_for(state="attached", timeout=10_000)  # attached, not visible: its own text is 0 px
    shown = first_note.evaluate("span => getComputedStyle(span, '::after').content")
    assert shown == f'"{t("app.press_enter", lang)}"'
    assert first_note.evaluate("span => getComputedStyle(span).fontSize") == "0px"  # Streamlit's English unseen
    count = session.page.locator('.st-key-text [data-testid="InputInstructions"] > span').nth(1)
    assert count.inner_text().strip() == f"{len('I saw a saw. ok')}/{MAX_TEXT_CHARS}"  # the count stays
