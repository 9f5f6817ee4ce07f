"""Drive the real app: start `streamlit run` on a free port, open Debian's Chromium with Playwright, and
wait for Streamlit the way a user would (the script has finished, the charts are drawn).

Used by the browser tests (tests/browser/conftest.py) and by the hand-run scripts tests/load_test.py and
tests/bench_browser.py, so all three start the server and judge "finished" the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server import APP, MODEL_DIR_ENV, StreamlitServer, free_port, health  # noqa: F401 (re-exported)

ROOT = Path(__file__).resolve().parent.parent.parent
ARTIFACTS = ROOT / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Selectors (Streamlit 1.67's data-testid attributes).
APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
CHART_DRAWN = '[data-testid="stPlotlyChart"] .js-plotly-plot .main-svg'
DRAWN_CHARTS = '[data-testid="stPlotlyChart"]:has(.js-plotly-plot .main-svg)'  # one per drawn chart
EXCEPTION = '[data-testid="stException"]'
TABLES = '[data-testid="stDataFrame"], [data-testid="stTable"]'  # dataframes, data editors, tables
SIDEBAR = '[data-testid="stSidebar"]'
SENTENCE_INPUT = f"{SIDEBAR} .st-key-text input"  # keyed widgets carry the class st-key-<key>
NAV_LINK = '[data-testid="stSidebarNav"] a[href$="/{url_path}"], [data-testid="stSidebarNav"] a[href*="/{url_path}?"]'

# Installed in every page before Streamlit loads: counts script runs (each time stApp's
# data-test-script-state is seen leaving "notRunning", checked on every DOM change), keeps the state history
# for debugging, and records when the page last visibly changed, so a test can wait for "a new run has started
# and finished" and a benchmark can tell when the page stopped changing. A very fast run can start and finish
# between two renders and never show "running": the waits below also accept the run's visible effect.
WATCH_SCRIPT = """
(() => {
  window.__runs = 0; window.__states = []; window.__lastMutation = performance.now();
  let last = null;
  const seen = (state) => {
    if (state === last) return;
    last = state; window.__states.push([Math.round(performance.now()), state]);
    if (state !== 'notRunning' && state !== 'initial') window.__runs += 1;
  };
  // A change inside a <canvas> is to its fallback content, which is never displayed (the data grid mirrors
  // its cells there for screen readers, 200 ms after drawing them): it does not count as the page changing.
  const shown = (r) => !(r.target.parentElement?.closest('canvas')
                         || (r.type === 'childList' && r.target.tagName === 'CANVAS'));
  // Plotly charts drawn from scratch again after their first draw (window.__redraws): a new figure should
  // cost one draw, though Streamlit hands it to Plotly.react twice (see viz_model.figures.react_ready).
  // Plotly also redraws a chart, rightly, when a web font that was not loaded as it began drawing has
  // loaded since (its text was measured in a fallback font): e.g. the monospace font of the first st.text.
  // Those are not counted.
  window.__redraws = [];
  const watchChart = (gd) => {
    if (gd.__watched || !gd.on) return;
    gd.__watched = true;          // seen right after the synchronous part of its first draw
    const pending = document.fonts ? [...document.fonts].filter(f => f.status !== 'loaded') : [];
    const key = () => (gd.closest('[class*="st-key-"]')?.className.match(/st-key-([^ ]+)/) || [])[1] || '?';
    gd.on('plotly_afterplot', () => { gd.__drawn = true; });
    gd.on('plotly_beforeplot', () => {
      const fontsArrived = pending.some(f => f.status === 'loaded' || f.status === 'error');
      if (gd.__drawn && !fontsArrived) window.__redraws.push(key()); });
  };
  const observer = new MutationObserver((records) => {
    if (records.some(shown)) window.__lastMutation = performance.now();
    // A chart appears, and plotly draws into it, by adding nodes: only then look for charts to watch (this
    // runs on every change of the page, and the benchmark times the page with it).
    if (records.some(r => r.addedNodes.length)) document.querySelectorAll('.js-plotly-plot').forEach(watchChart);
    const app = document.querySelector('[data-testid="stApp"]');
    if (app) seen(app.getAttribute('data-test-script-state'));
  });
  const start = () => observer.observe(document.documentElement, {subtree: true, childList: true,
      attributes: true, characterData: true});
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
})();
"""


# Lines printed at the end of a pytest run by tests/conftest.py (timings, memory). The suite runs in two
# worker processes (pytest-xdist) and the summary is printed by a third, so the lines go to a file.
REPORT_FILE = ARTIFACTS / "browser-report.txt"


def report(line: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with open(REPORT_FILE, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")


# ------------------------------------------------------------------------------------------ the browser


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def page_url(base_url: str, url_path: str = "", **params) -> str:
    query = urlencode({k: v for k, v in params.items() if v is not None})
    return f"{base_url}/{url_path}" + (f"?{query}" if query else "")


class Session:
    """One browser tab on the app (one Streamlit session), recording everything that must never happen:
    console errors, uncaught page errors, and dialogs (alert/confirm/prompt, e.g. from injected HTML)."""

    # Requests to these hosts fail on an offline machine; they are recorded in `external_requests` (and
    # reported) instead of failing every test: Streamlit fetches a `:material/…:` page_icon used as the
    # favicon from Google's font server.
    EXTERNAL_HOSTS = ("https://fonts.gstatic.com/", "https://fonts.googleapis.com/")

    def __init__(self, context, base_url: str):
        self.base_url = base_url
        self.page = context.new_page()
        self.page.add_init_script(WATCH_SCRIPT)
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.dialogs: list[str] = []
        self.external_requests: list[str] = []
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda err: self.page_errors.append(str(err)))
        self.page.on("dialog", self._on_dialog)

    def _on_console(self, message) -> None:
        if message.type != "error":
            return
        url = (message.location or {}).get("url", "")
        if url.startswith(self.EXTERNAL_HOSTS):
            self.external_requests.append(url)
        else:
            self.console_errors.append(f"{message.text} ({url})" if url else message.text)

    def _on_dialog(self, dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        try:
            dialog.dismiss()
        except Exception:  # the page may already be gone
            pass

    # ---- moving around --------------------------------------------------------------------------
    def open(self, url_path: str = "", timeout: float = 90_000, charts: bool = True, **params) -> None:
        """A new page load (a new Streamlit session) of /url_path?params; waits until fully drawn."""
        self.page.goto(page_url(self.base_url, url_path, **params), wait_until="domcontentloaded", timeout=timeout)
        self.wait_first_run(timeout, charts)

    def reload(self, timeout: float = 90_000, charts: bool = True) -> None:
        self.page.reload(wait_until="domcontentloaded", timeout=timeout)
        self.wait_first_run(timeout, charts)

    def wait_first_run(self, timeout: float = 90_000, charts: bool = True) -> None:
        """After a page load: the session's first run has finished (stApp goes "initial" → … →
        "notRunning"; it is never "notRunning" before that), then the charts are drawn."""
        self.page.wait_for_function(
            "() => window.__states && window.__states.some(s => s[1] === 'notRunning')", timeout=timeout
        )
        self.wait_idle(timeout=timeout, charts=charts)

    def runs(self) -> int:
        return self.page.evaluate("() => window.__runs")

    def redraws(self) -> list[str]:
        """Charts in this tab drawn from scratch again after their first draw (their keys), in order."""
        return self.page.evaluate("() => window.__redraws")

    def wait_idle(
        self, since_runs: int | None = None, timeout: float = 90_000, charts: bool = True, effect: str | None = None
    ) -> None:
        """Wait for a script run after `since_runs` runs to have started and finished, then for the charts.

        `effect`: a JS expression that is true once the expected run has happened (e.g. the URL now holds
        the typed text), for runs too fast to be seen as "running". Without it, a run not seen within
        10 s while the app is idle is taken as one that was too fast to see."""
        if since_runs is not None:
            started = f"window.__runs > {since_runs}"
            if effect:
                self.page.wait_for_function(f"() => {started} || ({effect})", timeout=timeout)
            else:
                try:
                    self.page.wait_for_function(f"() => {started}", timeout=min(timeout, 10_000))
                except PlaywrightTimeout:
                    pass
        self.page.wait_for_selector(APP_IDLE, timeout=timeout, state="attached")
        if charts:
            self.wait_charts(timeout)

    def wait_charts(self, timeout: float = 90_000) -> None:
        """Every plotly chart in the page has its SVG drawn, and every raw markup (`pages.parts.widgets.markup`,
        put in by its script once that has loaded) is in. A chart whose code is still loading (plotly's
        bundle loads on first use) is a grey skeleton, not yet a chart container: wait for those too."""
        self.page.wait_for_function(
            """() => { const boxes = document.querySelectorAll('[data-testid="stPlotlyChart"]');
                       const markups = document.querySelectorAll('[data-testid="stBidiComponentRegular"]');
                       return !document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]')
                              && [...boxes].every(b => b.querySelector('.js-plotly-plot .main-svg'))
                              && [...markups].every(b => b.querySelector('[data-markup] > *')); }""",
            timeout=timeout,
        )

    def type_sentence(self, text: str, timeout: float = 90_000, charts: bool = True) -> bool:
        """Type into the sidebar's sentence box and press Enter. Returns False when the box did not change
        (e.g. text over the box's character limit, which the widget refuses), so no run was expected."""
        box = self.page.locator(SENTENCE_INPUT)
        before_value = box.input_value()
        before = self.runs()
        box.fill(text)
        value = box.input_value()  # what the box accepted (an <input> drops line breaks)
        box.press("Enter")
        if value == before_value:
            self.page.wait_for_timeout(300)
            self.wait_idle(timeout=timeout, charts=charts)
            return False
        effect = f"new URLSearchParams(location.search).get('text') === {json.dumps(value)}"
        self.wait_idle(since_runs=before, timeout=timeout, charts=charts, effect=effect)
        return True

    def click_and_wait(self, locator, timeout: float = 90_000, charts: bool = True, effect: str | None = None) -> None:
        before = self.runs()
        locator.click()
        self.wait_idle(since_runs=before, timeout=timeout, charts=charts, effect=effect)

    def navigate(self, url_path: str, timeout: float = 90_000, charts: bool = True) -> None:
        """Click the page's link in the sidebar navigation (keeps the session, like a user)."""
        link = self.page.locator(NAV_LINK.format(url_path=url_path)).first
        effect = f"location.pathname.replace(/\\/+$/, '') === {json.dumps(('/' + url_path).rstrip('/'))}"
        self.click_and_wait(link, timeout=timeout, charts=charts, effect=effect)

    # ---- what is on the page --------------------------------------------------------------------
    def sentence(self, expect: str | None = None, timeout: float = 10_000) -> str:
        """The sentence box's value. With `expect`, give the box up to `timeout` ms to show it: after a
        reload of a heavy page the box is sometimes filled a few seconds after the run has finished."""
        box = self.page.locator(SENTENCE_INPUT)
        if expect is not None:
            try:
                self.page.wait_for_function(
                    "([sel, want]) => document.querySelector(sel)?.value === want",
                    arg=[SENTENCE_INPUT, expect],
                    timeout=timeout,
                )
            except PlaywrightTimeout:
                pass
        return box.input_value()

    def translation(self) -> str:
        """The translation shown in the sidebar (st.text after the "Translation" label)."""
        texts = self.page.locator(f'{SIDEBAR} [data-testid="stText"]')
        return texts.first.inner_text(timeout=5_000).strip() if texts.count() else ""

    def count(self, selector: str) -> int:
        return self.page.locator(selector).count()

    def clipped_labels(self) -> list[str]:
        """Tick labels and axis titles reaching outside their chart (its margins too small for them)."""
        return self.page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot => {
            const box = plot.querySelector('.main-svg').getBoundingClientRect();
            return [...plot.querySelectorAll('.xtick text, .ytick text, .g-xtitle text, .g-ytitle text')]
                .filter(t => { const r = t.getBoundingClientRect(); return r.width > 0 && (r.left < box.left - 1
                    || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1); })
                .map(t => t.textContent); })""")

    def colliding_labels(self) -> list[str]:
        """Neighbouring tick labels of a category axis that run into each other, from plotly's own layout:
        the px between two shown ticks (axis.l2p) against a line of the labels' font (1.15 × its size),
        turned by the axis's tick angle (a label at 45° clears its neighbour only if their distance × sin 45°
        is a line high); level x labels are compared by their drawn boxes."""
        return self.page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(gd => {
            const layout = gd._fullLayout;
            if (!layout) return [];
            return Object.keys(layout).filter(k => /^[xy]axis[0-9]*$/.test(k)).flatMap(k => {
                const ax = layout[k];
                const ticks = (ax._vals || []).filter(v => v.text);
                if (ax.type !== 'category' || !ax.showticklabels || ticks.length < 2) return [];
                const size = ax.tickfont.size, level = !(+ax.tickangle), horizontal = ax._id[0] === 'x';
                const boxes = horizontal && level ? [...gd.querySelectorAll(`g.${ax._id}tick text`)]
                    .map(t => t.getBoundingClientRect()).filter(r => r.width > 0).sort((a, b) => a.left - b.left) : [];
                const out = [];
                for (let i = 1; i < ticks.length; i++) {
                    const gap = Math.abs(ax.l2p(ticks[i].x) - ax.l2p(ticks[i - 1].x));
                    const clash = !horizontal ? gap < 1.15 * size
                        : level ? i < boxes.length && boxes[i].left < boxes[i - 1].right - 1
                        : gap * Math.abs(Math.sin(ax.tickangle * Math.PI / 180)) < 1.15 * size;
                    if (clash) out.push(`${ax._id}: ${ticks[i - 1].text} | ${ticks[i].text}`);
                }
                return out;
            });
        })""")

    def exceptions(self) -> list[str]:
        return [e.inner_text() for e in self.page.locator(EXCEPTION).all()]

    def problems(self) -> list[str]:
        """Everything wrong so far: exceptions on the page, console errors, page errors, dialogs."""
        return (
            [f"exception: {e[:500]}" for e in self.exceptions()]
            + [f"console: {e[:500]}" for e in self.console_errors]
            + [f"pageerror: {e[:500]}" for e in self.page_errors]
            + [f"dialog: {e[:200]}" for e in self.dialogs]
        )

    def screenshot(self, name: str, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)[:120]
        path = folder / f"{safe}.png"
        # Streamlit scrolls inside its main container, so "full page" alone stops at the viewport: grow the
        # viewport to the content's height for the shot (width unchanged, so charts keep their layout).
        viewport = self.page.viewport_size
        height = self.page.evaluate("""() => Math.max(...[...document.querySelectorAll(
            '[data-testid="stMain"], [data-testid="stSidebarContent"], [data-testid="stAppViewContainer"]')]
            .map(e => e.scrollHeight), 0)""")
        if viewport and height > viewport["height"]:
            self.page.set_viewport_size({"width": viewport["width"], "height": min(height + 40, 12_000)})
            self.page.wait_for_timeout(150)
        try:
            self.page.screenshot(path=str(path), full_page=True)
        finally:
            if viewport:
                self.page.set_viewport_size(viewport)
        return path

    def close(self) -> None:
        self.page.close()
