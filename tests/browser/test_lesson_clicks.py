"""The Lesson in a real browser, as a student works through it: an answer picked reveals the model's numbers
and the score, Next walks to the following step and the link follows, and the link reopens that step."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t

TEXT = "Please buy an apple and an orange."
CHOICE = '[class*="st-key-lesson-pick"] button'


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pick_reveal_and_walk_the_steps(new_session, lang):
    session = new_session()
    session.open("lesson", text=TEXT, dir="en2zh", lang=lang, lstep="6", charts=False)
    assert session.problems() == [], "\n".join(session.problems())
    choices = session.page.locator(CHOICE)
    choices.first.wait_for(timeout=60_000)  # the question's buttons, drawn once its numbers are computed
    assert choices.count() == 5  # positions 3, 4, 6, 9 and "they are equal"
    revealed = f"document.body.innerText.includes({json.dumps(t('lesson.right', lang))})"
    session.click_and_wait(choices.nth(4), charts=False, effect=revealed)
    body = session.page.locator('[data-testid="stMain"]').inner_text()
    assert t("lesson.right", lang) in body and t("lesson.score", lang, right=1, n=1).replace("**", "") in body
    following = session.page.locator(".st-key-lstep-next button").first
    # The link changes when the rerun starts; the step's title is drawn later (under load, after the wait ended).
    step_7 = (
        "new URLSearchParams(location.search).get('lstep') === '7' && "
        f"document.body.innerText.includes({json.dumps(t('lesson.step_masks', lang))})"
    )
    session.click_and_wait(following, charts=False, effect=step_7)
    assert t("lesson.step_masks", lang) in session.page.locator('[data-testid="stMain"]').inner_text()
    link = session.page.url
    again = new_session()
    again.page.goto(link)
    again.wait_first_run(charts=False)
    assert t("lesson.step_masks", lang) in again.page.locator('[data-testid="stMain"]').inner_text()
    assert parse_qs(urlparse(again.page.url).query)["lstep"] == ["7"]
    assert session.problems() == [] and again.problems() == []
