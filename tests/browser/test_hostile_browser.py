"""Hostile input in a real browser (tests/hostile_inputs.py): typed into the sentence box, then other pages
visited in the same session. The whole list in the English interface, a subset in the Chinese one, and the
nonsense URLs. For each: a friendly message or a normal render, no exception, no console error, no dialog
(an `alert` from injected HTML fails the test), nothing the user typed turned into an element, and the
server still answering /_stcore/health.

Every input meets every page in tests/test_hostile_apptest.py (AppTest, no browser). What only a browser
shows (injected elements, console errors, dialogs, clipped labels) is checked here on the page the input is
typed on and PAGES_PER_INPUT - 1 more, chosen in turn, so that across the list every page meets hostile input
in each language (in English, every kind of input several times)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t
from pages.parts.state import MAX_TEXT_CHARS
from tests.browser.conftest import APP_PAGES, VIEWPORT
from tests.browser.harness import Session, health
from tests.hostile_inputs import HOSTILE_INPUTS, SECOND_LANGUAGE_SUBSET, URL_CASES, hostile

# Elements that only exist if typed HTML was interpreted: the payloads in the list would create these.
INJECTED = (
    'img[src="x"], img[src="javascript:alert(1)"], iframe, [onerror], [onload], '
    '[data-testid="stMain"] script, [data-testid="stSidebar"] script, '
    '[data-testid="stMain"] svg b, a[href^="javascript:"]'
)

# (interface language, input, its turn among that language's inputs: where its pages start, see below)
CASES = [pytest.param("en", h, turn, id=f"en-{h.id}") for turn, h in enumerate(HOSTILE_INPUTS)] + [
    pytest.param("zh", hostile(i), turn, id=f"zh-{i}") for turn, i in enumerate(SECOND_LANGUAGE_SUBSET)
]
PAGES_PER_INPUT = 2


def pages_to_visit(here: str, turn: int, blank: bool) -> list:
    """The current page first (no click), then the next pages in turn: input number `turn` of a language
    starts its rotation `turn` pages along, so consecutive inputs meet different pages. A blank input always
    reaches Home, which must then say what to type."""
    current = next(p for p in APP_PAGES if p.url_path == here)
    others = [p for p in APP_PAGES if p is not current]
    start = (turn * (PAGES_PER_INPUT - 1)) % len(others)
    chosen = [others[(start + i) % len(others)] for i in range(PAGES_PER_INPUT - 1)]
    home = APP_PAGES[0]
    if blank and home is not current and home not in chosen:
        chosen[-1] = home
    return [current, *chosen]


@pytest.fixture(scope="module")
def sessions(app_server, chromium):
    """One long-lived tab per interface language: the inputs follow each other as a student would type."""
    opened: dict[str, Session] = {}
    contexts = []

    def get(lang: str) -> Session:
        if lang not in opened:
            context = chromium.new_context(viewport=VIEWPORT)
            context.set_default_timeout(60_000)
            contexts.append(context)
            session = Session(context, app_server.base_url)
            session.open("", lang=lang)
            opened[lang] = session
        return opened[lang]

    yield get
    for context in contexts:
        context.close()


def current_path(session: Session) -> str:
    return urlparse(session.page.url).path.strip("/")


def set_direction(session: Session, direction: str, lang: str) -> None:
    label = session.page.locator(".st-key-dir label").filter(has_text=t(f"app.dir_{direction}", lang))
    if not label.locator("input").is_checked():
        session.click_and_wait(label)


def check(
    session: Session, lang: str, blank: bool, expected_translation, where: str, sentence: str | None = None
) -> str:
    """Check the page and return the sentence its box shows. With `sentence`, the box must come to show
    that one (navigation keeps the sentence); a heavy page sometimes fills the box after its run ends."""
    problems = session.problems()
    assert problems == [], f"{where}: " + "\n".join(problems)
    injected = session.page.locator(INJECTED).count()
    assert injected == 0, f"{where}: {injected} element(s) created from the typed text"
    clipped = session.clipped_labels()
    assert clipped == [], f"{where}: labels cut off at a chart's edge: {clipped[:5]}"
    if blank:
        assert session.translation() == "", f"{where}: no translation for blank text"
        return ""
    text = session.sentence(expect=sentence)
    if sentence is not None:
        assert text == sentence, f"{where}: the sentence changed on navigation"
    direction = parse_qs(urlparse(session.page.url).query).get("dir", ["en2zh"])[0]
    assert session.translation() == expected_translation(text, direction), where
    return text


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lang,case,turn", CASES)
def test_hostile_input_across_pages(sessions, lang, case, turn, app_server, expected_translation, screenshots):
    session = sessions(lang)
    session.console_errors.clear()  # an earlier failure is that test's, not this one's
    session.page_errors.clear()
    set_direction(session, case.direction, lang)
    sentence = None
    if not session.type_sentence(case.text):
        # Longer than the box allows: the widget refuses it, so it arrives the other way, in the URL. The
        # app keeps its first MAX_TEXT_CHARS characters; the box of a freshly loaded heavy page may show them
        # a moment after the run ends, so the first check waits for them rather than reading too early.
        session.open(current_path(session), text=case.text, dir=case.direction, lang=lang)
        sentence = case.text[:MAX_TEXT_CHARS]
    try:
        for page in pages_to_visit(current_path(session), turn, case.blank):
            if page.url_path != current_path(session):
                session.navigate(page.url_path)
            sentence = check(
                session, lang, case.blank, expected_translation, f"{case.id} on /{page.url_path}", sentence
            )
            if case.blank and page.section == "home":
                assert t("common.empty_prompt", lang) in session.page.locator('[data-testid="stMain"]').inner_text()
    except Exception:
        session.screenshot(f"hostile-FAILED-{lang}-{case.id}-{current_path(session) or 'home'}", screenshots)
        raise
    finally:
        assert not session.dialogs, f"dialog opened: {session.dialogs}"
    assert health(app_server.base_url), "the server still answers after this input"


# Each nonsense query on one page, Home and Attention in turn: how the browser reads a raw query (bad UTF-8, a
# lone %) does not depend on the page, and every page meets every case in tests/test_hostile_apptest.py.
URL_RUNS = [pytest.param(case, ("", "attention")[i % 2], id=case.id) for i, case in enumerate(URL_CASES)]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case, path", URL_RUNS)
def test_nonsense_url_parameters(session, case, path, app_server):
    session.page.goto(f"{app_server.base_url}/{path}?{case.query}", wait_until="domcontentloaded")
    session.wait_first_run()
    assert session.problems() == [], f"/{path}?{case.query[:80]}: " + "\n".join(session.problems())
    lang = parse_qs(urlparse(session.page.url).query).get("lang", [None])[0]
    direction = parse_qs(urlparse(session.page.url).query).get("dir", [None])[0]
    assert lang in ("en", "zh") and direction in ("en2zh", "zh2en"), "the URL now holds valid values"
    if case.expect_lang:
        assert lang == case.expect_lang
    if case.expect_dir:
        assert direction == case.expect_dir
    page = next(p for p in APP_PAGES if p.url_path == path)
    assert page.title(lang) in session.page.locator("h1").first.inner_text()
    assert session.page.locator(INJECTED).count() == 0
    assert len(session.sentence()) <= 1000
    assert health(app_server.base_url)
