"""The lesson's handout: downloaded from the Lesson page after an answer, it is one HTML file under 5 MB that
opens in Chromium with the network off and draws its figures, with the sentence and the answer in it."""

from __future__ import annotations

import json

import pytest

from pages.parts.i18n import t

TEXT = "Please buy an apple and an orange."
HANDOUT_LIMIT = 5_000_000  # bytes


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_handout_opens_offline_with_its_figures(new_session, chromium, lang, tmp_path):
    session = new_session()
    session.open("lesson", text=TEXT, dir="en2zh", lang=lang, lstep="6", charts=False)
    choices = session.page.locator('[class*="st-key-lesson-pick"] button')
    choices.first.wait_for(timeout=60_000)
    revealed = f"document.body.innerText.includes({json.dumps(t('lesson.right', lang))})"
    session.click_and_wait(choices.nth(4), charts=False, effect=revealed)
    with session.page.expect_download(timeout=120_000) as download:
        session.page.locator(".st-key-lesson-handout button").first.click()
    path = tmp_path / "handout.html"
    download.value.save_as(path)
    assert path.stat().st_size < HANDOUT_LIMIT, f"{path.stat().st_size:,} bytes"
    offline = chromium.new_context()
    offline.set_offline(True)
    try:
        page = offline.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path.as_uri())
        page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= 4")
        body = page.inner_text("body")
        assert TEXT in body and t("lesson.step_metrics", lang) in body
        assert t("lesson.handout_answer", lang, answer=t("lesson.option_tie", lang)) in body
        assert errors == []
    finally:
        offline.close()
