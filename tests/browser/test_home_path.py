"""/home opens Home without Streamlit's English "Page not found" pop-up, the toolbar has no Deploy button
(client.toolbarMode = "viewer" in .streamlit/config.toml, which the test server reads: it runs from the
repository root), and a page load asks the server for nothing it does not have: no 404, no console error.

Opened at /<page>, Streamlit's front end would first ask /<page>/_stcore/health and /<page>/_stcore/host-config
(404: it does not know the app's base path) unless the page says where the server is; the app's server writes
that into every HTML page (pages/parts/serving.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t

PAGE_NOT_FOUND = "Page not found"  # Streamlit's pop-up, in English whatever the app's language


def record_failures(session) -> tuple[list[tuple[int, str]], list[str]]:
    """Every response ≥ 400 and every console error of the tab from now on."""
    failed: list[tuple[int, str]] = []
    console: list[str] = []
    session.page.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400 else None)
    session.page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    return failed, console


def assert_no_page_not_found(session) -> None:
    session.page.wait_for_timeout(500)  # the pop-up opens as the run's messages arrive
    assert session.page.get_by_text(PAGE_NOT_FOUND).count() == 0
    assert session.page.locator('[role="dialog"]').count() == 0


@pytest.mark.timeout(180)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_path_opens_home(session, lang):
    failed, _ = record_failures(session)
    session.open("home", text="I saw a saw.", lang=lang)
    assert_no_page_not_found(session)
    assert session.page.locator("h1").first.inner_text().strip() == t("home.title", lang)
    url = urlparse(session.page.url)
    assert url.path == "/"  # Home's own address; the link's parameters kept
    assert parse_qs(url.query).get("text") == ["I saw a saw."] and parse_qs(url.query).get("lang") == [lang]
    assert session.sentence(expect="I saw a saw.") == "I saw a saw."
    assert session.problems() == [], "\n".join(session.problems())
    assert failed == [], failed


@pytest.mark.timeout(180)
def test_home_links_still_open_the_pages(session):
    session.open("home")
    assert_no_page_not_found(session)
    link = session.page.locator('[data-testid="stMain"] a[data-testid="stPageLink-NavLink"][href^="tokens"]').first
    assert urlparse(link.evaluate("a => a.href")).path == "/tokens"  # st.page_link's href, resolved
    session.click_and_wait(link, effect="location.pathname === '/tokens'")
    assert session.page.locator("h1").first.inner_text().strip() == t("tokens.title", "en")
    assert_no_page_not_found(session)
    assert session.problems() == [], "\n".join(session.problems())


@pytest.mark.timeout(180)
def test_no_deploy_button_and_a_viewers_menu(session):
    session.open("positional")
    assert session.count('[data-testid="stAppDeployButton"]') == 0
    assert session.page.get_by_role("button", name="Deploy").count() == 0
    session.page.locator('[data-testid="stMainMenu"] button').first.click()
    menu = session.page.locator('[data-testid="stMainMenuPopover"]').inner_text()
    assert "Print" in menu and "Rerun" not in menu and "Clear cache" not in menu


@pytest.mark.timeout(180)
@pytest.mark.parametrize("page", ["", "positional", "attention"])
def test_a_page_load_asks_for_nothing_the_server_lacks(session, page):
    failed, console = record_failures(session)
    requested: list[str] = []
    session.page.on("request", lambda r: requested.append(r.url))
    session.open(page)
    assert failed == [] and console == [], (failed, console)
    assert f"{session.base_url}/_stcore/health" in requested  # the server asked where it is, and only there
    assert not [u for u in requested if "/_stcore/" in u and not u.startswith(f"{session.base_url}/_stcore/")]
