"""Every hostile input (tests/hostile_inputs.py) on every page through Streamlit's AppTest, the whole list in the
English interface and one input of each kind in the Chinese one, and every nonsense URL on every page.

Fast by construction: one AppTest per (language, page) types the inputs one after another into the
sidebar's sentence box, as a student would, and every run shares the one translator that st.cache_resource
keeps per process (and the bounded translation cache). A test collects all failing inputs of its page
before failing, so one run shows the whole picture.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from streamlit.testing.v1 import AppTest

from pages.parts.frame import PAGES
from pages.parts.i18n import t
from pages.parts.state import MAX_TEXT_CHARS
from tests.app_harness import APP, ENV, model_dir
from tests.browser.harness import report
from tests.hostile_inputs import HOSTILE_INPUTS, SECOND_LANGUAGE_SUBSET, URL_CASES, Hostile, hostile

PAGE_FILES = [p.file for p in PAGES]
TIMINGS: dict[str, float] = {}


def open_page(page: str, lang: str, query: dict[str, str] | None = None) -> AppTest:
    os.environ[ENV] = str(model_dir())
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in (query or {"lang": lang}).items():
        at.query_params[key] = value
    at.run()
    if page != PAGE_FILES[0]:
        at.switch_page(page).run()
    return at


def user_text_fragments(text: str) -> list[str]:
    """Pieces of the typed text long enough that finding one in HTML-enabled output means it came from it."""
    return [w for w in text.split() if len(w) >= 4 and any(c in w for c in "<>&\"'")]


def problems(at: AppTest, case: Hostile, lang: str, page: str) -> list[str]:
    found = [f"exception: {e.value[:300]}" for e in at.exception]
    # Nothing the user typed may reach an element that renders HTML.
    fragments = user_text_fragments(case.text)
    for el in at.get("markdown") + at.get("caption") + at.get("warning") + at.get("info") + at.get("error"):
        body = str(el.value)
        if getattr(el.proto, "allow_html", False) and any(f in body for f in fragments):
            found.append(f"user text in an HTML-enabled element: {body[:120]!r}")
    for el in at.get("html"):
        if any(f in str(el.proto.body) for f in fragments):
            found.append("user text inside st.html")
    for el in at.get("bidi_component"):  # pages.parts.widgets.markup: raw HTML
        if any(f in value for value in json.loads(el.proto.json).values() for f in fragments):
            found.append(f"user text inside raw markup: {el.proto.id}")
    translation = [el.value for el in at.sidebar.get("text")]
    if case.blank:
        if translation:
            found.append(f"a translation for blank text: {translation!r}")
        if page == PAGE_FILES[0]:
            prompts = [el.value for el in at.info]
            if t("common.empty_prompt", lang) not in prompts:
                found.append("no friendly prompt for blank text on the home page")
    elif not (translation and translation[0].strip()):
        found.append("no translation shown")
    return found


@pytest.mark.timeout(900)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGE_FILES)
def test_every_hostile_input_on_page(page, lang):
    started = time.perf_counter()
    at = open_page(page, lang)
    assert not at.exception, [e.value for e in at.exception]
    failures = []
    for case in HOSTILE_INPUTS if lang == "en" else [hostile(i) for i in SECOND_LANGUAGE_SUBSET]:
        try:
            if at.radio(key="dir").value != case.direction:
                at.radio(key="dir").set_value(case.direction)
            at.text_input(key="text").set_value(case.text).run()
            assert len(at.session_state["text"]) <= MAX_TEXT_CHARS
            found = problems(at, case, lang, page)
        except Exception as err:  # a timeout or a crash of the test harness itself
            found = [f"{type(err).__name__}: {err}"[:300]]
            at = open_page(page, lang)
        if found:
            failures.append(f"{case.id}: " + "; ".join(found))
    TIMINGS[f"{lang} {page}"] = time.perf_counter() - started
    assert not failures, f"{page} ({lang}):\n" + "\n".join(failures)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("page", PAGE_FILES)
def test_nonsense_url_parameters_on_page(page):
    failures = []
    for case in URL_CASES:
        query = dict(parse_qsl(case.query, keep_blank_values=True))  # the last of repeated keys wins
        at = open_page(page, "en", query)
        found = [f"exception: {e.value[:300]}" for e in at.exception]
        state = at.session_state
        if state["dir"] not in ("en2zh", "zh2en") or state["lang"] not in ("en", "zh"):
            found.append(f"invalid state dir={state['dir']!r} lang={state['lang']!r}")
        # Without a sentence in the link, Beam search opens on its own (pages.parts.state.page_default_sentence).
        own_sentence = page.endswith("beam_search.py") and "text" not in query
        if case.expect_dir and state["dir"] != case.expect_dir and not own_sentence:
            found.append(f"dir {state['dir']!r}, expected {case.expect_dir!r}")
        if case.expect_lang and state["lang"] != case.expect_lang:
            found.append(f"lang {state['lang']!r}, expected {case.expect_lang!r}")
        if len(state["text"]) > MAX_TEXT_CHARS:
            found.append(f"text of {len(state['text'])} characters kept")
        if found:
            failures.append(f"{case.id}: " + "; ".join(found))
    assert not failures, f"{page}:\n" + "\n".join(failures)


@pytest.fixture(scope="module", autouse=True)
def _report_timings():
    """After the module: how long each page took for the whole list, in the run's summary (tests/conftest.py)
    and in artifacts/hostile_apptest_timings.txt. A report, not a test: it checks nothing."""
    yield
    if TIMINGS:
        total = sum(TIMINGS.values())
        line = (
            f"hostile AppTest: {len(HOSTILE_INPUTS)} inputs × {len(TIMINGS)} page-languages in "
            f"{total:.0f} s: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(TIMINGS.items()))
        )
        report(line)
        out = Path(APP).parent / "artifacts"
        out.mkdir(exist_ok=True)
        (out / "hostile_apptest_timings.txt").write_text(line + "\n", encoding="utf-8")
