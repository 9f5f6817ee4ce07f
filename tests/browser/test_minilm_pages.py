"""MiniLM picked (?model=minilm) in a real browser: every page in both interface languages with an English
sentence, every view of the Attention heads page (one head, [CLS]/[SEP] hidden, the 6 × 12 grid, side by
side with our translator, the coreference sentence), a Chinese sentence, and the picker kept while the
reader moves between pages. No exception, no console error, no label cut off; a screenshot of each."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t
from tests.browser.conftest import APP_PAGES
from tests.browser.harness import ARTIFACTS, DRAWN_CHARTS, MODEL_DIR_ENV, StreamlitServer, report

ENGLISH = "The animal didn't cross the street because it was too tired."
TWENTY = "The quick brown fox jumps over the lazy dog while the small cat sleeps near the warm fire."


def check(session) -> None:
    problems = session.problems()
    assert problems == [], "\n".join(problems)
    assert session.clipped_labels() == [], "axis labels or titles cut off at a chart's edge"
    assert parse_qs(urlparse(session.page.url).query).get("model") == ["minilm"]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", APP_PAGES, ids=[p.section for p in APP_PAGES])
def test_pretrained_page_in_browser(session, page, lang, screenshots):
    session.open(page.url_path, lang=lang, text=ENGLISH, dir="en2zh", model="minilm")
    session.screenshot(f"minilm-{page.section}-{lang}", screenshots)
    check(session)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("view", ["heads", "hide", "grid", "side", "pronoun"])
def test_pretrained_attention_views_in_browser(session, view, screenshots):
    params = {"hide": "true"} if view == "hide" else {"mview": view}
    started = time.perf_counter()
    session.open("attention", text=TWENTY if view == "grid" else ENGLISH, dir="en2zh", model="minilm", **params)
    if view == "grid":
        report(
            f"MiniLM all-heads grid (6 x 12, {TWENTY!r}): new session to drawn {time.perf_counter() - started:.2f} s"
        )
        assert session.count(DRAWN_CHARTS) == 1
    session.screenshot(f"minilm-attention-{view}", screenshots)
    check(session)
    assert session.count(DRAWN_CHARTS) >= (2 if view == "side" else 1)


@pytest.mark.timeout(240)
def test_pretrained_grid_redrawn_after_typing(session):
    session.open("attention", text=ENGLISH, dir="en2zh", model="minilm", mview="grid")
    started = time.perf_counter()
    assert session.type_sentence(TWENTY)
    report(f"MiniLM all-heads grid redrawn after typing a 20-piece sentence: {time.perf_counter() - started:.2f} s")
    check(session)


@pytest.mark.timeout(240)
def test_pretrained_chinese_sentence_and_the_picker_kept_across_pages(session, screenshots):
    session.open("attention", text="我看见了一把锯子。", dir="zh2en", model="minilm")
    session.screenshot("minilm-attention-chinese", screenshots)
    example = session.page.locator('[data-testid="stMain"] button', has_text=ENGLISH)
    assert example.count() == 1
    session.click_and_wait(example)
    check(session)
    assert session.sentence() == ENGLISH
    for url_path in ("tokens", "positional", "beam_search"):
        session.navigate(url_path)
        check(session)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_first_minilm_pick_says_it_is_loading(new_session, model_dir, lang, screenshots):
    """A server that has not loaded MiniLM yet (a server of its own): picking MiniLM shows, within a few
    seconds, a spinner naming what is loading (the load takes seconds, mostly importing transformers), and
    then the charts with no spinner left. The shared server may have loaded MiniLM already."""
    loading = t("pretrained.loading", lang)
    log = ARTIFACTS / f"minilm-first-load-{lang}.log"
    with StreamlitServer(env={MODEL_DIR_ENV: model_dir}, log_path=log) as server:
        server.wait_healthy(timeout=180)
        session = new_session(server)
        session.open("attention", lang=lang, text=ENGLISH, dir="en2zh")
        runs = session.runs()
        session.page.get_by_text(t("pretrained.model_minilm", lang), exact=True).click()
        spinner = session.page.get_by_text(loading)
        spinner.wait_for(state="visible", timeout=15_000)
        screenshots.mkdir(parents=True, exist_ok=True)
        session.page.screenshot(path=str(screenshots / f"minilm-first-load-{lang}.png"))
        session.wait_idle(since_runs=runs, timeout=120_000)
        assert spinner.count() == 0
        assert session.count(DRAWN_CHARTS) >= 1
        check(session)
