"""Issue 42, items 10 and 5: /home opens Home without Streamlit's English "Page not found" pop-up, the toolbar
has no Deploy button (client.toolbarMode = "viewer" in .streamlit/config.toml, which the test server reads:
it runs from the repository root), and a page load asks the server for nothing it does not have, except the
two probes Streamlit's front-end itself sends from a sub-page URL.

Those probes: opened at /<page>, Streamlit 1.67's front-end does not know whether /<page> is the app's base
path, so it asks /<page>/_stcore/health and /<page>/_stcore/host-config first (the server answers 404 on
purpose, starlette_static_routes' reserved paths) and then /_stcore/… (200). The browser logs each 404 as a
console error. The base path is guessed from the page's own URL unless the host page sets
window.__streamlit.BACKEND_BASE_URL before Streamlit's bundle loads, which index.html (Streamlit's, not the
app's) does not; server.baseUrlPath moves both candidates alike. So the app cannot avoid them; Home, at /,
has none."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t

PAGE_NOT_FOUND = "Page not found"  # Streamlit's pop-up, in English whatever the app's language


def record_failures(session) -> tuple[list[tuple[int, str]], list[str]]:
    """Every response ≥ 400 and every console error of the tab from now on (unfiltered: the session's own
    list leaves out the base-path probes)."""
    failed: list[tuple[int, str]] = []
    console: list[str] = []
    session.page.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400 else None)
    session.page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    return failed, console


def probes(base_url: str, page: str) -> set[str]:
    return {f"{base_url}/{page}/_stcore/health", f"{base_url}/{page}/_stcore/host-config"}


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
    assert {u for _, u in failed} <= probes(session.base_url, "home"), failed  # Streamlit's own probes only


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
def test_a_page_load_has_no_404_but_streamlits_probes(session):
    failed, console = record_failures(session)
    session.open("")  # Home, at /
    assert failed == [] and console == [], (failed, console)
    session.open("positional")  # a sub-page: only the front-end's two base-path probes
    assert {u for _, u in failed} == probes(session.base_url, "positional"), failed
    assert all(status == 404 for status, _ in failed) and len(console) == len(failed)
