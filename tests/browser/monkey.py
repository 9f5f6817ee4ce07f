"""Seeded random interaction ("monkey") in real Chromium: a student clicking everything in any order.

Each action picks, with a seeded random generator, one visible control on the page and uses it the way a
browser user does: a button or one option of a segmented control, an option of a select box, a slider moved
by the keyboard, a radio option, a number typed into a number box, an expander opened or closed, a sentence
typed into the sidebar box (from the hostile list and the course), a link to another page, a node of the
Beam page's search tree (a link that loads the page with that node open). After every
action the page must come back to idle within the time limit (no stuck page) with no exception shown, no
console error and no uncaught page error. A failure names the seed and the action log, so it replays.

    python tests/browser/monkey.py --actions 300 --seed 1      # the long version, every page, both languages
    python tests/browser/monkey.py --pages beam_search --params part=part_node --favour node 0.2   # one view
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.browser.harness import APP_IDLE, SENTENCE_INPUT, SIDEBAR, Session
from tests.hostile_inputs import HOSTILE_INPUTS

COURSE_SENTENCES = (
    "Please buy an apple and an orange.",
    "I saw a saw.",
    "An apple phone",
    "The animal didn't cross the street because it was too tired.",
    "我看见了一把锯子。",
    "Thinking machines",
    "One plus three",
)
MAIN = '[data-testid="stMain"]'
# Controls a user can reach, by kind: (CSS selector, kind). Streamlit marks each widget with a test id.
CONTROLS = (
    (f"{MAIN} [data-testid='stButton'] button, {SIDEBAR} [data-testid='stButton'] button", "button"),
    ("[data-testid='stButtonGroup'] button", "button"),
    ("[data-testid='stSelectbox']", "select"),
    ("[data-testid='stMultiSelect']", "select"),
    ("[data-testid='stSlider'] [role='slider']", "slider"),
    ("[data-testid='stRadio'] label", "button"),
    ("[data-testid='stNumberInput'] input", "number"),
    (f"{MAIN} [data-testid='stExpander'] summary, {SIDEBAR} [data-testid='stExpander'] summary", "button"),
    ("[data-testid='stCheckbox'] label, [data-testid='stToggle'] label", "button"),
    ("__sentence__", "sentence"),
    # Presentation mode folds the sidebar away: a user opens it again (and may fold it) with these.
    ("[data-testid='stExpandSidebarButton'], [data-testid='stSidebarCollapseButton'] button", "button"),
    ("[data-testid='stSidebarNav'] a", "link"),
    # The Beam page's node view: each node of its search tree is an SVG link that loads the page anew.
    (".beam-tree svg a", "node"),
)
SLIDER_KEYS = ("ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown")


@dataclass
class MonkeyResult:
    seed: int
    actions: list[str] = field(default_factory=list)  # done, in order (skipped attempts are not actions)
    problems: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # attempts whose control went away as the page reran
    seconds: float = 0.0

    def report(self) -> str:
        tail = "\n  ".join(self.actions[-12:])
        return f"seed {self.seed}: {self.problems[:5]}\n last actions:\n  {tail}"


CLICK_MS = 2_000  # a control found visible and enabled a moment ago takes a click at once, or went away


def _visible(locator) -> list:
    """The visible, enabled elements of `locator` as element handles: the action then uses the very element
    it looked at. (A locator's nth(i) is looked up again when used, and after a rerun it can name another
    element, e.g. the disabled button of the current step, which a click would wait for in vain.)"""
    out = []
    for element in locator.all():
        try:
            if element.is_visible() and element.is_enabled() and _on_screen(element):
                out.append(element.element_handle(timeout=CLICK_MS))
        except Exception:  # detached while we looked: the page is rerunning
            continue
    return out


def _on_screen(element) -> bool:
    """Within the window's width: a folded sidebar keeps its controls "visible" to Playwright, moved off the
    left edge, where no user can click them (and a click would wait for a scroll that never comes)."""
    return element.evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.right > 0 && r.left < innerWidth; }"
    )


def _wait_idle(session: Session, timeout_ms: float) -> bool:
    """Back to idle (script finished, charts drawn) within the limit; False when stuck."""
    session.page.wait_for_timeout(120)  # let a run triggered by the action start
    try:
        session.page.wait_for_selector(APP_IDLE, timeout=timeout_ms, state="attached")
        session.wait_charts(timeout=timeout_ms)
        return True
    except Exception:
        return False


def one_action(session: Session, rng: random.Random, favour: tuple[str, float] | None = None) -> str | None:
    """Do one random action; returns its description (None when nothing was usable). `favour` (kind, share):
    while a control of that kind is on the page, it is picked that share of the time."""
    page = session.page
    present = [
        (selector, kind) for selector, kind in CONTROLS if selector == "__sentence__" or page.locator(selector).count()
    ]
    favoured = [control for control in present if favour and control[1] == favour[0]]
    if favoured and rng.random() < favour[1]:
        selector, kind = rng.choice(favoured)
    else:
        selector, kind = rng.choice(present)  # every kind of control on the page equally likely
    if kind == "sentence":
        text = rng.choice([h.text for h in HOSTILE_INPUTS] + list(COURSE_SENTENCES))
        box = page.locator(SENTENCE_INPUT)
        if not box.count() or not _on_screen(box):
            return None
        box.fill(text)
        box.press("Enter")
        return f"type {text[:40]!r}"
    candidates = _visible(page.locator(selector))
    if not candidates:
        return None
    element = rng.choice(candidates)
    if kind == "node":  # an SVG element: no inner text
        node = element.get_attribute("data-node")
        element.click(timeout=CLICK_MS)
        return f"open node {node}"
    label = (element.inner_text() or element.get_attribute("aria-label") or "").strip()[:40]
    if kind == "button":
        element.click(timeout=CLICK_MS)
        return f"click {label!r}"
    if kind == "link":
        href = element.get_attribute("href") or ""
        element.click(timeout=CLICK_MS)
        return f"go to {href.rsplit('/', 1)[-1] or 'home'}"
    if kind == "select":
        element.click(timeout=CLICK_MS)
        options = _visible(page.locator("[role='option']"))
        if not options:
            page.keyboard.press("Escape")
            return f"open {label!r} (no option)"
        option = rng.choice(options)
        chosen = option.inner_text()[:30]
        option.click(timeout=CLICK_MS)
        page.keyboard.press("Escape")
        return f"choose {chosen!r} in {label!r}"
    if kind == "slider":
        element.focus()
        key = rng.choice(SLIDER_KEYS)
        for _ in range(rng.randint(1, 3)):
            page.keyboard.press(key)
        return f"slider {label!r} {key}"
    if kind == "number":
        value = str(rng.choice([0, 1, 2, 3, 5, 10, 99, -1]))
        element.fill(value, timeout=CLICK_MS)
        element.press("Enter", timeout=CLICK_MS)
        return f"number {value}"
    return None


def run_monkey(
    session: Session,
    url_path: str,
    seed: int,
    n_actions: int,
    lang: str = "en",
    timeout_ms: float = 60_000,
    params: dict | None = None,
    favour: tuple[str, float] | None = None,
) -> MonkeyResult:
    """Open a page in a fresh session (with `params` in its link: a view to start in), do `n_actions` random
    actions; stop at the first problem.

    An attempt whose control went away mid-action (the page was rerunning) is not an action: it is kept in
    `skipped`, the page is still checked after it, and another attempt follows (at most 3 × n_actions)."""
    rng = random.Random(seed)
    result = MonkeyResult(seed)
    start = time.perf_counter()
    session.open(url_path, lang=lang, **(params or {}))
    for _ in range(3 * n_actions):
        if len(result.actions) >= n_actions:
            break
        try:
            done = one_action(session, rng, favour)
            if done is None:
                continue
            result.actions.append(done)
        except Exception as err:  # an element went away mid-action: the page was rerunning
            done = f"(skipped: {type(err).__name__})"
            result.skipped.append(done)
        if not _wait_idle(session, timeout_ms):
            result.problems.append(f"stuck after: {done}")
            break
        problems = session.problems()
        if problems:
            result.problems.extend(problems)
            break
    result.seconds = time.perf_counter() - start
    return result


def main(argv=None) -> int:
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import MODEL_DIR_ENV, StreamlitServer, launch_chromium

    parser = argparse.ArgumentParser(description="Random clicks on every page in both languages.")
    parser.add_argument("--actions", type=int, default=300, help="actions per page and language")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pages", nargs="*", default=None, help="url paths (default: every page)")
    parser.add_argument("--languages", nargs="*", default=["en", "zh"], help="interface languages (default: both)")
    parser.add_argument("--params", nargs="*", default=[], help="KEY=VALUE in each page's first link (a view)")
    parser.add_argument("--favour", nargs=2, metavar=("KIND", "SHARE"), help="e.g. node 0.2: tree nodes more often")
    args = parser.parse_args(argv)
    params = dict(p.split("=", 1) for p in args.params)
    favour = (args.favour[0], float(args.favour[1])) if args.favour else None
    from pages.parts.frame import PAGES

    known = ["" if i == 0 else p.url_path for i, p in enumerate(PAGES)]
    paths = args.pages or known
    unknown = [path for path in paths if path not in known]
    if unknown:  # Streamlit would quietly open Home instead, and nothing of the page would be clicked
        parser.error(f"not a page of the app: {', '.join(unknown)} (pages: {', '.join(filter(None, known))})")
    failures = 0
    import os

    with (
        StreamlitServer(env={MODEL_DIR_ENV: os.environ.get(MODEL_DIR_ENV, "")}) as server,
        sync_playwright() as playwright,
    ):
        server.wait_healthy(timeout=180)
        browser = launch_chromium(playwright)
        for lang in args.languages:
            for i, path in enumerate(paths):
                context = browser.new_context(viewport={"width": 1400, "height": 900})
                seed = args.seed * 1000 + i * 10 + (lang == "zh")
                session = Session(context, server.base_url)
                result = run_monkey(session, path, seed, args.actions, lang, params=params, favour=favour)
                status = "ok" if not result.problems else "FAILED"
                kinds = Counter(" ".join(action.split()[:2]) if action.startswith("open node") else action.split()[0]
                                for action in result.actions)  # fmt: skip
                print(
                    f"{lang} /{path}: {len(result.actions)} actions ({len(result.skipped)} more attempts skipped)"
                    f" in {result.seconds:.0f} s, {status}; {dict(kinds.most_common())}",
                    flush=True,
                )
                if result.problems:
                    failures += 1
                    print(result.report(), flush=True)
                context.close()
        browser.close()
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
