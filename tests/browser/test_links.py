"""Every view is a link, in a real browser: changing a setting puts it in the URL at once, and that URL
opened in a new browser context (a new session) shows the same view."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from pages.i18n import t


def params(session) -> dict[str, list[str]]:
    return parse_qs(urlparse(session.page.url).query)


def chosen(session, key: str) -> str:
    """The checked option of a segmented control, or a selectbox's shown value."""
    box = session.page.locator(f".st-key-{key}")
    pressed = box.locator('button[aria-checked="true"], button[kind$="Active"]')
    if pressed.count():
        return pressed.first.inner_text().strip()
    return box.locator('[data-baseweb="select"]').inner_text().strip()


@pytest.mark.timeout(300)
def test_attention_view_is_a_link(new_session):
    first = new_session()
    first.open("attention", text="I saw a saw.", dir="en2zh", lang="en")
    first.click_and_wait(first.page.locator(".st-key-view button").filter(
        has_text=t("attention.view_compare", "en")))
    first.page.wait_for_function("() => location.search.includes('view=')")
    first.click_and_wait(first.page.locator(".st-key-heads").locator("input"), charts=False)
    first.page.keyboard.type("3")
    first.page.keyboard.press("Enter")
    first.wait_idle()
    first.page.wait_for_function("() => location.search.includes('heads=')")
    shown = params(first)
    assert shown.get("view") == [t("attention.view_compare", "en")]
    assert "3" in shown.get("heads", [])
    assert first.problems() == []
    second = new_session()
    second.page.goto(first.page.url, wait_until="domcontentloaded")
    second.wait_first_run()
    assert second.problems() == []
    assert chosen(second, "view") == t("attention.view_compare", "en")
    assert "3" in second.page.locator(".st-key-heads").inner_text()
    assert second.page.locator('[class*="st-key-"][class*="compare_heads"]:not([class*="csv"])').count() == 1


@pytest.mark.timeout(300)
def test_beam_settings_are_a_link(new_session):
    first = new_session()
    first.open("beam_search", text="I saw a saw.", dir="en2zh", lang="en", width="2", step="3")
    assert first.problems() == []
    assert params(first).get("width") == ["2"] and params(first).get("step") == ["3"]
    assert "3" in first.page.locator(".st-key-step").inner_text()
    first.click_and_wait(first.page.locator('[data-testid="stMain"] [class*="st-key-"][class*="next"] button'))
    first.page.wait_for_function("() => location.search.includes('step=4')")
    second = new_session()
    second.page.goto(first.page.url, wait_until="domcontentloaded")
    second.wait_first_run()
    assert second.problems() == []
    assert "4" in second.page.locator(".st-key-step").inner_text()
