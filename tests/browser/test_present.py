"""Presentation mode in a real browser, on a projector's first screen: every page's main chart in its upper
half at 1280 × 720, 1400 × 900 and 150 % zoom, text at least 20 px (16 px inside charts), no label cut."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import APP_PAGES
from tests.browser.harness import CHART_DRAWN, TABLES

SMALLEST_CHART_TEXT = """() => Math.min(...[...document.querySelectorAll(
    '[data-testid="stPlotlyChart"] .main-svg text')].filter(e => e.textContent.trim())
    .map(e => parseFloat(getComputedStyle(e).fontSize)))"""


# The first screen of a projector: at 1280 × 720, 1400 × 900, and 1400 × 900 at the browser's 150 % zoom (a
# 933 × 600 CSS-px page drawn 1.5× finer). Each zoom is one browser context (a zoom is fixed per context); its
# sizes are met by resizing the window of one session, as a teacher moving to another projector would.
PROJECTORS = {1.0: [(1280, 720), (1400, 900)], 1.5: [(1400, 900)]}
# The page's main element: its chart, or the tables it opens on (Tokens' token table, Metrics' BLEU table),
# or the Lesson's answer buttons.
MAIN_ELEMENT = {
    "tokens": TABLES,
    "metrics": TABLES,
    "lesson": '[class*="st-key-lesson-pick"]',
    "decoding": '[data-testid="stTable"]',  # each side's next-token table
}
# Every text of the page outside the charts (whose own text is checked at 16 px), with its size.
TEXT_ELEMENTS = ", ".join(
    f'[data-testid="{testid}"]{inner}'
    for testid, inner in [
        ("stMarkdownContainer", " p"),
        ("stMarkdownContainer", " li"),
        ("stCaptionContainer", ""),
        ("stWidgetLabel", " p"),
        ("stAlert", " p"),
        ("stText", ""),
    ]
)
PAGE_TEXT = f"""() => [...document.querySelectorAll('[data-testid="stMain"] :is({TEXT_ELEMENTS})')]
    .filter(e => e.offsetParent && e.textContent.trim())
    .map(e => [e.textContent.trim().slice(0, 40), parseFloat(getComputedStyle(e).fontSize)])"""


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", APP_PAGES, ids=lambda p: p.section)
def test_presentation_mode_fits_a_projector(chromium, app_server, page, lang, screenshots):
    """At each projector size: the page's main chart (or table) starts in the upper half of the first screen,
    every text outside the charts is at least 20 px and inside them 16 px, the explanation is folded away
    in the title row's popover, nothing errs, and at 150 % zoom no chart label is cut off or runs into
    another. Screenshots: artifacts/screenshots/present-*.png."""
    from tests.browser.harness import Session

    for zoom, sizes in PROJECTORS.items():
        context = chromium.new_context(
            viewport={"width": round(sizes[0][0] / zoom), "height": round(sizes[0][1] / zoom)},
            device_scale_factor=zoom,
            locale="en-US",
        )
        try:
            session = Session(context, app_server.base_url)
            session.open(
                page.url_path, text="Please buy an apple and an orange.", dir="en2zh", lang=lang, present="true"
            )
            for width, height in sizes:
                if session.page.viewport_size != {"width": round(width / zoom), "height": round(height / zoom)}:
                    session.page.set_viewport_size({"width": round(width / zoom), "height": round(height / zoom)})
                    session.page.wait_for_timeout(600)  # the charts follow the new width (plotly's resize)
                    session.wait_idle()
                check_projector(session, page, width, height, zoom, screenshots / f"present-{page.section}-{lang}")
        finally:
            context.close()


def check_projector(session, page, width: int, height: int, zoom: float, shot: Path) -> None:
    size = f"{width}x{height}@{zoom:g}"
    session.page.screenshot(path=f"{shot}-{size}.png")
    assert session.problems() == [], "\n".join(session.problems())
    main = session.page.locator(f'[data-testid="stMain"] :is({MAIN_ELEMENT.get(page.section, CHART_DRAWN)})')
    main.first.wait_for(timeout=30_000)
    top = main.first.bounding_box()["y"]
    half = height / zoom / 2
    assert top < half, f"{size}: the main element starts at {top:.0f} px, below the upper half ({half:.0f})"
    small = [(text, px) for text, px in session.page.evaluate(PAGE_TEXT) if px < 20]
    assert not small, f"{size}: text under 20 px: {small[:5]}"
    if session.page.locator('[data-testid="stPlotlyChart"]').count():
        assert session.page.evaluate(SMALLEST_CHART_TEXT) >= 16
        if zoom > 1:  # the narrowest page: no chart label cut off by its chart or run into another
            session.page.locator(CHART_DRAWN).first.wait_for(timeout=30_000)
            assert session.clipped_labels() == [], size
            assert session.colliding_labels() == [], size
    assert not session.page.locator('[data-testid="stMain"] [data-testid="stExpander"] details[open]').count()


LONG_SENTENCE = "The animal didn't cross the street because it was too tired, so it slept under a big tree."
TABLE_OVERFLOW = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stDataFrame"] .dvn-scroller')].map(s => s.scrollHeight - s.clientHeight)"""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("present", ["false", "true"])
def test_step_table_shows_every_key_whole(new_session, present, screenshots):
    """Step by step's score table lists every key token of a long sentence with no inner scrolling (it once
    stopped at row 9), in presentation mode too."""
    session = new_session()
    session.page.set_viewport_size({"width": 1400, "height": 900})
    session.open("step_by_step", text=LONG_SENTENCE, dir="en2zh", lang="en", section="tab_scores", present=present)
    assert session.problems() == [], "\n".join(session.problems())
    table = session.page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]')
    table.first.wait_for(timeout=30_000)
    session.page.locator('[data-testid="stMain"] [data-testid="stDataFrame"] .dvn-scroller').first.wait_for()
    session.screenshot(f"step-table-present-{present}", screenshots)
    overflow = session.page.evaluate(TABLE_OVERFLOW)
    assert overflow and max(overflow) <= 1, f"the table scrolls inside by {overflow} px"
