"""Every view is a link, in a real browser: changing a setting puts it in the URL at once, and that URL
opened in a new browser context (a new session) shows the same view."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t


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
    first.click_and_wait(first.page.locator(".st-key-view button").filter(has_text=t("attention.view_compare", "en")))
    first.page.wait_for_function("() => location.search.includes('view=')")
    first.page.locator(".st-key-heads").locator("input").click()  # opens the list: no script run to wait for
    first.page.keyboard.type("3")
    first.page.keyboard.press("Enter")
    first.wait_idle()
    first.page.wait_for_function("() => location.search.includes('heads=')")
    shown = params(first)
    assert shown.get("view") == ["compare"]  # a stable name, not the label
    assert "3" in shown.get("heads", [])
    assert first.problems() == []
    second = new_session()
    second.page.goto(first.page.url, wait_until="domcontentloaded")
    second.wait_first_run()
    assert second.problems() == []
    assert chosen(second, "view") == t("attention.view_compare", "en")
    assert "3" in second.page.locator(".st-key-heads").inner_text()
    heatmap = '[class*="st-key-"][class*="compare_heads"]:not([class*="csv"]):not([class*="svg"])'  # not downloads
    assert second.page.locator(heatmap).count() == 1


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


@pytest.mark.timeout(300)
@pytest.mark.parametrize("made, opened", [("en", "zh"), ("zh", "en")])
def test_a_link_made_in_one_language_opens_in_the_other(new_session, made, opened):
    """Choices with words for labels keep a stable name in the URL: the link opens the same view in the
    other interface language (its `lang` changed by hand, as when a teacher shares a link)."""
    first = new_session()
    first.open("attention", text="I saw a saw.", dir="en2zh", lang=made)
    first.click_and_wait(first.page.locator(".st-key-view button").filter(has_text=t("attention.view_grid", made)))
    first.page.wait_for_function("() => location.search.includes('view=grid')")
    assert params(first).get("view") == ["grid"]  # the name, not the label
    url = first.page.url.replace(f"lang={made}", f"lang={opened}")
    second = new_session()
    second.page.goto(url, wait_until="domcontentloaded")
    second.wait_first_run()
    assert second.problems() == []
    assert chosen(second, "view") == t("attention.view_grid", opened)
    assert second.page.locator('[data-testid="stToast"]').count() == 0  # nothing was dropped


@pytest.mark.timeout(300)
def test_a_nonsense_value_in_a_link_gets_a_notice(new_session):
    session = new_session()
    # A notice shows for a few seconds: look for it as soon as the first run ends, before the charts.
    session.open("attention", text="I saw a saw.", dir="en2zh", lang="en", view="nonsense", layer="99", charts=False)
    seen = set()
    for _ in range(20):
        seen |= set(session.page.locator('[data-testid="stToast"]').all_inner_texts())
        if len(seen) >= 2:
            break
        session.page.wait_for_timeout(250)
    text = " ".join(seen)
    assert "view" in text and "nonsense" in text and "layer" in text, seen
    session.wait_charts()
    assert session.problems() == []
    assert chosen(session, "view") == t("attention.view_heads", "en")  # the default
