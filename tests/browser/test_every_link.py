"""Every page's link reopens the same view, in a real browser: on each page (with our model, and with MiniLM
where it changes the view, in alternating interface languages), two seeded random changes of the page's own
controls (a segmented control, a select box, a slider), then the address bar opened in a fresh browser
context (a new session) must show every control of the page as it was."""

from __future__ import annotations

import random

import pytest

from tests.browser.conftest import APP_PAGES

# Pages that stay on our translator when MiniLM is picked (the same view): asked once, with our model.
TRANSLATOR_ONLY = {"lesson", "experiments", "beam_search", "decoding", "metrics"}
# Each page once with our model, the interface language alternating from page to page, and once with MiniLM
# in the other language where MiniLM changes the view: every page, both languages and both models are met,
# and the suite stays within its time (each case opens two sessions, 15-30 s on two cores). A link made in
# one language opening in the other is tests/browser/test_links.py's.
CASES = [
    case
    for i, page in enumerate(APP_PAGES)
    for case in (
        (page, ("en", "zh")[i % 2], "ours"),
        *([] if page.url_path in TRANSLATOR_ONLY else [(page, ("zh", "en")[i % 2], "minilm")]),
    )
]
MAIN = '[data-testid="stMain"]'
# A setting's controls, not an action's (answers, downloads, presets are not part of a view).
SETTINGS = (
    f"{MAIN} [data-testid='stButtonGroup'] button",
    f"{MAIN} [data-testid='stSelectbox']",
    f"{MAIN} [data-testid='stSlider'] [role='slider']",
)
# The shown value of every setting control of the page, by its widget key.
VIEW_STATE = """() => {
  const out = {};
  for (const box of document.querySelectorAll('[data-testid="stMain"] [class*="st-key-"]')) {
    const key = [...box.classList].find(c => c.startsWith('st-key-')).slice(7);
    if (/lesson-pick|lesson-reset|download|csv|svg/.test(key)) continue;
    const pressed = [...box.querySelectorAll('[data-testid="stButtonGroup"] button[aria-checked="true"],'
      + ' [data-testid="stButtonGroup"] button[kind$="Active"]')].map(b => b.innerText.trim());
    const select = box.querySelector('[data-testid="stSelectbox"] [data-baseweb="select"]');
    const thumbs = [...box.querySelectorAll('[data-testid="stSliderThumbValue"]')].map(t => t.innerText.trim());
    const inputs = [...box.querySelectorAll('input[type="text"], input[type="number"]')].map(i => i.value);
    const toggles = [...box.querySelectorAll('input[type="checkbox"]')].map(i => i.checked);
    out[key] = JSON.stringify([pressed, select ? select.innerText.trim() : null, thumbs, inputs, toggles]);
  }
  return out;
}"""


def change_something(session, rng: random.Random) -> str | None:
    """One seeded change of a setting, as a user makes it; its description, or None if none was usable."""
    page = session.page
    kinds = [selector for selector in SETTINGS if page.locator(selector).count()]
    if not kinds:
        return None
    selector = rng.choice(kinds)
    elements = [
        e
        for e in page.locator(selector).all()
        if e.is_visible() and e.is_enabled() and e.evaluate("e => !e.closest('[class*=\"lesson-pick\"]')")
    ]
    if not elements:
        return None
    element = rng.choice(elements)
    before = session.runs()
    if "Slider" in selector:
        element.focus()
        page.keyboard.press(rng.choice(["ArrowRight", "End", "ArrowLeft"]))
    elif "Selectbox" in selector:
        element.click()
        options = [o for o in page.locator("[role='option']").all() if o.is_visible()]
        if not options:
            page.keyboard.press("Escape")
            return None
        rng.choice(options).click()
    else:
        element.click()
    session.wait_idle(since_runs=before)
    return selector


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "page, lang, model", CASES, ids=[f"{p.url_path or 'home'}-{lang}-{model}" for p, lang, model in CASES]
)
def test_the_link_reopens_the_view(new_session, page, lang, model):
    first = new_session()
    first.open(page.url_path, text="I saw a saw.", dir="en2zh", lang=lang, model=model)
    rng = random.Random(f"{page.url_path}-{lang}-{model}")
    for _ in range(2):
        change_something(first, rng)
    assert first.problems() == [], "\n".join(first.problems())
    shown = first.page.evaluate(VIEW_STATE)
    second = new_session()
    second.page.goto(first.page.url, wait_until="domcontentloaded")
    second.wait_first_run()
    assert second.problems() == [], "\n".join(second.problems())
    reopened = second.page.evaluate(VIEW_STATE)
    assert reopened == shown, f"{first.page.url}: {set(shown.items()) ^ set(reopened.items())}"
