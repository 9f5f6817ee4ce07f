"""Browser speed benchmark, run by hand (prints figures; it is not a pass/fail test):

    python tests/bench_browser.py [--runs 5] [--cold-runs 3]

Everything is measured in headless Chromium against `streamlit run`, in the same run for the app and for a
MINIMAL Streamlit page (a sidebar text box and one plotly heatmap), which sets the floor that Streamlit and
plotly themselves impose on this machine. Medians over several runs of:
- cold start: from launching `streamlit run` until the first page is fully drawn in a new tab;
- new session: a new tab on a running server until its page is drawn;
- warm: from pressing Enter on a new sentence (not yet translated: the model runs) until the page has
  stopped changing (script finished, every chart redrawn), for every page of the app;
- the Attention page's all-layers × heads grid for a sentence of the maximum length.
"Drawn" is the last DOM change after the script finished and every plotly chart has its SVG, read from a
MutationObserver in the page, so plotly's drawing is included. Targets (issue 4): each page warm ≤ 1.5× the
minimal page, the all-heads grid < 2 s, cold start < 10 s.
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.harness import (APP, ARTIFACTS, MODEL_DIR_ENV, SENTENCE_INPUT, Session,  # noqa: E402
                                   StreamlitServer, launch_chromium)

MINIMAL_PAGE = '''
import numpy as np
import plotly.graph_objects as go
import streamlit as st

text = st.sidebar.text_input("Sentence", key="text", value=st.query_params.get("text", "hello world"))
st.query_params["text"] = text
tokens = [f"{i}:{w}" for i, w in enumerate(text.split())] or ["0:∅"]
z = np.random.default_rng(len(text)).random((len(tokens), len(tokens))).astype(np.float32)
st.title("Minimal page")
st.plotly_chart(go.Figure(go.Heatmap(z=z, x=tokens, y=tokens, colorscale="Blues")), key="heatmap")
'''
VIEWPORT = {"width": 1400, "height": 900}
QUIET_MS = 500          # the page is "drawn" once nothing has changed for this long


def drawn_after(session: Session, before_runs: int, effect: str | None, timeout: float = 120_000) -> float:
    """Seconds from window.__t0 to the last DOM change, once the run finished and charts are drawn."""
    session.wait_idle(since_runs=before_runs, effect=effect, timeout=timeout)
    session.page.wait_for_function(f"() => performance.now() - window.__lastMutation > {QUIET_MS}",
                                   timeout=timeout, polling=50)
    script_done = session.page.evaluate("""() => { const done = window.__states.filter(
        s => s[1] === 'notRunning' && s[0] >= window.__t0); return done.length ? done[done.length - 1][0] : null; }""")
    if script_done is not None and LAST_SCRIPT is not None:
        LAST_SCRIPT.append((script_done - session.page.evaluate("() => window.__t0")) / 1000)
    return session.page.evaluate("() => (window.__lastMutation - window.__t0) / 1000")


LAST_SCRIPT: list[float] = []        # per measured run: Enter → script finished (the rest is drawing)
SCRIPT: dict[str, list[float]] = {}


class FrameBytes:
    """Bytes the server sends over the websocket (Streamlit's deltas, with the figures' JSON)."""

    def __init__(self, session: Session):
        self.total = 0
        session.page.on("websocket", lambda ws: ws.on("framereceived", self._add))

    def _add(self, payload) -> None:
        self.total += len(payload)


PAYLOADS: dict[str, list[int]] = {}


def type_and_time(session: Session, text: str) -> float:
    box = session.page.locator(SENTENCE_INPUT)
    box.fill(text)
    before = session.runs()
    session.page.evaluate("() => { window.__t0 = performance.now(); }")
    box.press("Enter")
    effect = f"new URLSearchParams(location.search).get('text') === {_js(text)}"
    return drawn_after(session, before, effect)


def click_and_time(session: Session, locator) -> float:
    before = session.runs()
    session.page.evaluate("() => { window.__t0 = performance.now(); }")
    locator.click()
    return drawn_after(session, before, None)


def open_and_time(session: Session, url: str) -> float:
    """A new tab's page load until drawn (from navigation start)."""
    session.page.goto(url, wait_until="domcontentloaded")
    session.wait_first_run(timeout=120_000)
    session.page.evaluate("() => { window.__t0 = 0; }")          # performance.now() starts at navigation
    return drawn_after(session, None, None)


def cold_start(browser, script: Path, env: dict, runs: int, log_name: str) -> list[float]:
    """`streamlit run` launched → first page drawn in a new tab (wall clock in this process)."""
    times = []
    for _ in range(runs):
        context = browser.new_context(viewport=VIEWPORT)
        session = Session(context, "")
        server = StreamlitServer(script, env=env, log_path=ARTIFACTS / log_name)
        try:
            server.start()
            server.wait_healthy(timeout=120)
            session.base_url = server.base_url
            session.open("", timeout=120_000)
            session.page.wait_for_function(f"() => performance.now() - window.__lastMutation > {QUIET_MS}",
                                           polling=50)
            last_change = session.page.evaluate("() => Date.now() - (performance.now() - window.__lastMutation)")
            times.append(last_change / 1000 - server.started_wall)
            problems = session.problems()
            if problems:
                print(f"  ! problems during cold start: {problems[:3]}")
        finally:
            context.close()
            server.stop()
    return times


def test_sentences(count: int, offset: int = 0) -> list[str]:
    from viz_model import corpus

    pairs = corpus.split_corpus(corpus.generate_pairs(seed=0), seed=0)["test"]
    texts = list(dict.fromkeys(p.en for p in pairs))
    return texts[offset:offset + count]


def max_length_sentence(translator) -> str:
    """As many known English words as the model reads (max_len − 2), from the corpus."""
    words = []
    for text in test_sentences(200, 500):
        words += text.split()
        if len(words) >= translator.max_source_words:
            break
    return " ".join(words[:translator.max_source_words])


def translate_seconds(translator, text: str) -> float:
    import torch

    torch.set_num_threads(1)
    started = time.perf_counter()
    translator.translate(text, "en2zh")
    return time.perf_counter() - started


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="warm runs per page (median)")
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--model-dir", default=os.environ.get(MODEL_DIR_ENV))
    parser.add_argument("--pages", nargs="*", metavar="SECTION",
                        help="only these pages (sections, e.g. home tokens); skips the grid measurements")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from pages.common import PAGES
    from viz_model import checkpoint
    from viz_model.i18n import t
    from viz_model.translator import Translator

    model_dir = Path(args.model_dir or checkpoint.MODEL_DIR)
    env = {MODEL_DIR_ENV: str(model_dir)}
    translator = Translator.load(model_dir)
    ARTIFACTS.mkdir(exist_ok=True)
    minimal = Path(tempfile.mkdtemp(prefix="bench-minimal-")) / "minimal_app.py"
    minimal.write_text(MINIMAL_PAGE, encoding="utf-8")
    sentences = iter(test_sentences(10 * args.runs * (len(PAGES) + 2)))
    rows: dict[str, list[float]] = {}

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            print(f"cold start ({args.cold_runs} runs each) …", flush=True)
            rows["minimal: cold start"] = cold_start(browser, minimal, env, args.cold_runs, "bench-minimal.log")
            rows["app: cold start"] = cold_start(browser, APP, env, args.cold_runs, "bench-app.log")

            for name, script in (("minimal", minimal), ("app", APP)):
                server = StreamlitServer(script, env=env, log_path=ARTIFACTS / f"bench-{name}.log").start()
                try:
                    server.wait_healthy(timeout=120)
                    context = browser.new_context(viewport=VIEWPORT)
                    warm_up = Session(context, server.base_url)
                    warm_up.open("")                        # model loaded, plotly.js in the HTTP cache
                    rows[f"{name}: new session"] = [
                        open_and_time(Session(context, server.base_url), server.base_url + "/")
                        for _ in range(args.runs)]
                    session = Session(context, server.base_url)
                    frames = FrameBytes(session)
                    session.open("")
                    pages = [("", "home")] if name == "minimal" else \
                        [("" if i == 0 else p.url_path, p.section) for i, p in enumerate(PAGES)
                         if not args.pages or p.section in args.pages]
                    for url_path, section in pages:
                        if name == "app":
                            session.navigate(url_path)
                        label = "minimal: warm (Enter → drawn)" if name == "minimal" else f"app: warm {section}"
                        print(f"  {label} …", flush=True)
                        type_and_time(session, next(sentences))        # first sentence on the page: unmeasured
                        rows[label], PAYLOADS[label] = [], []
                        SCRIPT[label] = []
                        for _ in range(args.runs):
                            before_bytes = frames.total
                            LAST_SCRIPT.clear()
                            rows[label].append(type_and_time(session, next(sentences)))
                            PAYLOADS[label].append(frames.total - before_bytes)
                            SCRIPT[label] += LAST_SCRIPT
                    if name == "app" and not args.pages:
                        session.navigate("attention")
                        grid = session.page.locator('[data-testid="stMain"] button').filter(
                            has_text=t("attention.view_grid", "en"))
                        long_text = max_length_sentence(translator)
                        session.type_sentence(long_text)
                        grid_switch = "app: attention grid, switch to grid (max length)"
                        grid_enter = "app: attention grid, Enter (max length)"
                        rows[grid_switch], rows[grid_enter], PAYLOADS[grid_enter] = [], [], []
                        heads = session.page.locator('[data-testid="stMain"] button').filter(
                            has_text=t("attention.view_heads", "en"))
                        for i in range(args.runs):
                            session.click_and_wait(heads.first)
                            rows[grid_switch].append(click_and_time(session, grid.first))
                            words = long_text.split()
                            words[i % len(words)], words[-1 - i % len(words)] = words[-1 - i % len(words)], words[i % len(words)]
                            variant = " ".join(words) + (" ." * (i % 2))
                            before_bytes = frames.total
                            rows[grid_enter].append(type_and_time(session, variant))
                            PAYLOADS[grid_enter].append(frames.total - before_bytes)
                        print(f"  max-length sentence: {len(long_text.split())} words", flush=True)
                    problems = session.problems()
                    if problems:
                        print(f"  ! problems: {problems[:5]}")
                    context.close()
                finally:
                    server.stop()
        finally:
            browser.close()

    floor_warm = median(rows["minimal: warm (Enter → drawn)"])
    floor_cold = median(rows["minimal: cold start"])
    floor_session = median(rows["minimal: new session"])
    print(f"\nBrowser benchmark ({args.runs} warm runs, {args.cold_runs} cold runs; medians, seconds; "
          f"{os.cpu_count()} CPU cores)")
    print(f"{'measurement':52} {'median':>7} {'min':>6} {'max':>6} {'× floor':>8} {'KB/rerun':>9} "
          f"{'script':>7}  target")
    for label, values in rows.items():
        if not values:                      # --cold-runs 0
            continue
        med = median(values)
        if "cold start" in label:
            floor, target = floor_cold, "< 10 s"
            ok = med < 10
        elif "new session" in label:
            floor, target, ok = floor_session, "", True
        elif "grid" in label:
            floor, target = floor_warm, "< 2 s"
            ok = med < 2
        else:
            floor, target = floor_warm, "≤ 1.5× floor"
            ok = label.startswith("minimal") or med <= 1.5 * floor_warm
        mark = "" if not target else ("ok" if ok else "MISSED")
        payload = f"{median(PAYLOADS[label]) / 1024:9.0f}" if PAYLOADS.get(label) else " " * 9
        script = f"{median(SCRIPT[label]):7.2f}" if SCRIPT.get(label) else " " * 7
        print(f"{label:52} {med:7.2f} {min(values):6.2f} {max(values):6.2f} {med / floor:8.2f} {payload} "
              f"{script}  {target} {mark}")
    model = [translate_seconds(translator, text) for text in test_sentences(args.runs * 3, 900)]
    print(f"\nmodel work for a new sentence (beam search + trace, in this process, 1 thread): median "
          f"{median(model):.2f} s. 'script' = Enter → script finished (server work and deltas); the rest of "
          f"a warm figure is the browser drawing. KB/rerun = websocket bytes the server sent for one rerun.")
    return 0


def _js(value: str) -> str:
    import json

    return json.dumps(value)


if __name__ == "__main__":
    # SIGTERM (e.g. from `timeout`) would skip the `finally` that stops the server: turn it into SystemExit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
