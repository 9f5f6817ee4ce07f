"""The shared sentence in a real browser: kept across page switches, reproduced by a page URL (also after a
reload), and the beam-search page's step controls move the tree."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from pages.parts.i18n import t
from tests.browser.conftest import APP_PAGES
from tests.browser.harness import DRAWN_CHARTS, TABLES


def shown_direction(session) -> str:
    return session.page.locator(".st-key-dir label:has(input:checked)").inner_text().strip()


def assert_shows(session, text, direction, lang, expected_translation):
    assert session.problems() == [], "\n".join(session.problems())
    assert session.sentence(expect=text) == text, f"sentence box at {session.page.url}"
    assert shown_direction(session) == t(f"app.dir_{direction}", lang)
    assert session.translation() == expected_translation(text, direction)
    params = parse_qs(urlparse(session.page.url).query)
    assert params.get("text") == [text] and params.get("dir") == [direction]


@pytest.mark.timeout(300)
def test_navigation_keeps_the_sentence(session, expected_translation):
    text = "the bat flew out of the cave"
    session.open("")
    assert session.type_sentence(text)
    for page in APP_PAGES[1:] + APP_PAGES[:1]:
        session.navigate(page.url_path)
        assert urlparse(session.page.url).path.rstrip("/") == ("/" + page.url_path).rstrip("/")
        assert_shows(session, text, "en2zh", "en", expected_translation)


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "page",
    [next(p for p in APP_PAGES if p.section == section) for section in ("home", "attention", "beam")],  # all three
    ids=lambda p: p.section,
)
def test_page_url_reproduces_the_view_after_reload(session, page, expected_translation, screenshots):
    text, direction, lang = "我 看见 了 一 把 锯", "zh2en", "zh"
    session.open(page.url_path, text=text, dir=direction, lang=lang)
    assert_shows(session, text, direction, lang, expected_translation)
    assert t(f"{page.section}.title", lang) in session.page.locator("h1").first.inner_text()
    session.reload()
    assert_shows(session, text, direction, lang, expected_translation)
    session.screenshot(f"reload-{page.section}-{lang}", screenshots)


def _tree_snapshot(session) -> str:
    """What the search-tree chart draws (its SVG text and marks): changes when the tree moves a step."""
    charts = session.page.locator('[data-testid="stPlotlyChart"]')
    tree = session.page.locator('[class*="st-key-"][class*="tree"] [data-testid="stPlotlyChart"]')
    target = tree.first if tree.count() else charts.first
    return target.locator(".main-svg").first.evaluate(
        "svg => svg.textContent + '|' + svg.querySelectorAll('path, .point, text').length + '|' + "
        "[...svg.querySelectorAll('.scatterlayer .trace')].map(t => t.getAttribute('style') + "
        "t.querySelectorAll('.point').length).join(',')"
    )


@pytest.mark.timeout(300)
def test_beam_search_step_controls_move_the_tree(session, screenshots):
    page = next(p for p in APP_PAGES if p.section == "beam")
    session.open(page.url_path, text="please buy an apple and an orange", dir="en2zh")
    main = session.page.locator('[data-testid="stMain"]')
    session.page.wait_for_selector(DRAWN_CHARTS, timeout=30_000)  # the tree (drawn by a fragment)
    next_button = main.locator('[class*="st-key-"][class*="next"] button')
    prev_button = main.locator('[class*="st-key-"][class*="prev"] button')
    # The tree and its controls are one fragment inside the page's first tab: wait for the controls too.
    expect(next_button).to_have_count(1, timeout=30_000)
    expect(prev_button).to_have_count(1, timeout=30_000)
    # Go back to the first step (until "previous" is disabled or changes nothing), so "next" must move it.
    first = _tree_snapshot(session)
    for _ in range(45):
        if prev_button.first.is_disabled():
            break
        session.click_and_wait(prev_button.first)
        now = _tree_snapshot(session)
        if now == first:
            break
        first = now
    session.click_and_wait(next_button.first)
    second = _tree_snapshot(session)
    assert second != first, "the next-step button changes the tree"
    session.screenshot("beam-step-2", screenshots)
    session.click_and_wait(prev_button.first)
    assert _tree_snapshot(session) == first, "the previous-step button brings the first step back"
    # The step's candidate table is folded under the tree; opened, it stays open as the step moves.
    assert main.locator(TABLES).count() == 0
    main.get_by_text(t("beam.step_table", "en")).click()  # an expander opens in the browser, without a run
    expect(main.locator(TABLES)).to_have_count(1, timeout=30_000)
    session.click_and_wait(next_button.first)
    expect(main.locator(TABLES)).to_have_count(1, timeout=30_000)
    assert _tree_snapshot(session) == second
    session.screenshot("beam-step-table", screenshots)
    assert session.problems() == [], "\n".join(session.problems())


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "section,label_key,charts,tables",
    [
        ("similarity", "similarity.tab_course", 3, 3),
        ("beam", "beam.tab_course", 1, 1),
        ("tokens", "tokens.tab_input", 1, 0),
        ("step", "step.tab_scores", 1, 1),
        ("positional", "positional.tab_similarity", 2, 0),
        ("metrics", "metrics.perplexity", 2, 0),
    ],
)
def test_a_section_draws_its_content_when_chosen(session, section, label_key, charts, tables, screenshots):
    """Only the chosen section's content runs (pages.parts.widgets.sections): choosing one draws its charts."""
    page = next(p for p in APP_PAGES if p.section == section)
    session.open(page.url_path, text="An apple phone", dir="en2zh", lang="en")
    main = session.page.locator('[data-testid="stMain"]')
    choice = main.get_by_role("radiogroup", name=t("common.sections", "en")).get_by_role(
        "radio", name=t(label_key, "en")
    )
    expect(choice).to_have_attribute("aria-checked", "false")
    session.click_and_wait(choice)
    expect(choice).to_have_attribute("aria-checked", "true")
    # A page's first chart can arrive after its run has finished (plotly's code loads on first use): wait.
    expect(main.locator(DRAWN_CHARTS)).to_have_count(charts, timeout=30_000)
    session.screenshot(f"{section}-section-{label_key.split('.')[-1].removeprefix('tab_')}", screenshots)
    shown = main.locator(TABLES).count()
    assert shown >= tables, f"{shown} tables in the section"
    assert session.problems() == [], "\n".join(session.problems())
