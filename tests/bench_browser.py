"""Browser speed benchmark, run by hand (prints figures; it is not a pass/fail test):

    python tests/bench_browser.py [--runs 5] [--cold-runs 3] [--pages SECTION ...] [--compare CHECKOUT]
                                  [--model minilm] [--params KEY=VALUE ... [--params ...]]

Everything is measured in headless Chromium against `streamlit run`, in the same run for the app and for a
MINIMAL Streamlit page (a sidebar text box and one plotly heatmap), which sets the floor that Streamlit and
plotly themselves impose on this machine; the warm runs of the two take turns (see `warm_pages`). With
`--compare`, a second checkout of the app takes turns too, on the same sentences, and the report ends with
its time as × this checkout's: the way to tell whether a change helped (separate runs differ by ±15 %).
Medians over several runs of:
- cold start: from launching `streamlit run` until the first page is fully drawn in a new tab;
- new session: a new tab on a running server until its page is drawn;
- warm: from pressing Enter on a new sentence (not yet translated: the model runs) until the page has
  stopped changing (script finished, every chart redrawn), for every page of the app;
- the Attention page's all-layers × heads grid for a sentence of the maximum length.
For each warm run it also reads the CPU time that run cost the browser (all of this benchmark's Chromium
processes) and the page's server: on 2 cores the two compete, so browser work slows the server's script.
"Drawn" is the last DOM change after the script finished and every plotly chart has its SVG, read from a
MutationObserver in the page, so plotly's drawing is included. Targets (issue 4): each page warm ≤ 1.5× the
minimal page, the all-heads grid < 2 s, cold start < 10 s. Each warm ratio also gets a 90 % bootstrap interval
over its paired runs and a verdict by it: ok, at the line (the interval holds 1.5), MISSED.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.harness import (  # noqa: E402
    APP,
    ARTIFACTS,
    MODEL_DIR_ENV,
    SENTENCE_INPUT,
    Session,
    StreamlitServer,
    launch_chromium,
)

MINIMAL_PAGE = """
import numpy as np
import plotly.graph_objects as go
import streamlit as st

text = st.sidebar.text_input("Sentence", key="text", value=st.query_params.get("text", "hello world"))
st.query_params["text"] = text
tokens = [f"{i}:{w}" for i, w in enumerate(text.split())] or ["0:∅"]
z = np.random.default_rng(len(text)).random((len(tokens), len(tokens))).astype(np.float32)
st.title("Minimal page")
st.plotly_chart(go.Figure(go.Heatmap(z=z, x=tokens, y=tokens, colorscale="Blues")), key="heatmap")
"""
VIEWPORT = {"width": 1400, "height": 900}
QUIET_MS = 500  # the page is "drawn" once nothing has changed for this long


def drawn_after(session: Session, before_runs: int, effect: str | None, timeout: float = 120_000) -> float:
    """Seconds from window.__t0 to the last DOM change, once the run finished and charts are drawn."""
    session.wait_idle(since_runs=before_runs, effect=effect, timeout=timeout)
    session.page.wait_for_function(
        f"() => performance.now() - window.__lastMutation > {QUIET_MS}", timeout=timeout, polling=50
    )
    script_done = session.page.evaluate("""() => { const done = window.__states.filter(
        s => s[1] === 'notRunning' && s[0] >= window.__t0); return done.length ? done[done.length - 1][0] : null; }""")
    if script_done is not None and LAST_SCRIPT is not None:
        LAST_SCRIPT.append((script_done - session.page.evaluate("() => window.__t0")) / 1000)
    return session.page.evaluate("() => (window.__lastMutation - window.__t0) / 1000")


LAST_SCRIPT: list[float] = []  # per measured run: Enter → script finished (the rest is drawing)
SCRIPT: dict[str, list[float]] = {}


class FrameBytes:
    """Bytes the server sends over the websocket (Streamlit's deltas, with the figures' JSON)."""

    def __init__(self, session: Session):
        self.total = 0
        session.page.on("websocket", lambda ws: ws.on("framereceived", self._add))

    def _add(self, payload) -> None:
        self.total += len(payload)


PAYLOADS: dict[str, list[int]] = {}
# CPU seconds per measured run: every Chromium process together (only the measured tab is active then), and
# the page's own Streamlit server. Both share the machine's cores: a page whose browser work grows slows its
# server's script too.
BROWSER_CPU: dict[str, list[float]] = {}
SERVER_CPU: dict[str, list[float]] = {}


def chromium_cpu_seconds() -> float:
    """CPU seconds used so far by this benchmark's Chromium (its browser, renderer, GPU and utility
    processes: descendants of this process, so another browser on the machine is not counted)."""
    import psutil

    total = 0.0
    for process in psutil.Process().children(recursive=True):
        try:
            if "chrom" in process.name():
                total += cpu_seconds(process)
        except psutil.Error:  # a process that ended meanwhile
            continue
    return total


def process_cpu_seconds(pid: int) -> float:
    import psutil

    return cpu_seconds(psutil.Process(pid))


def cpu_seconds(process) -> float:
    """User + system CPU seconds a psutil.Process has used so far."""
    times = process.cpu_times()
    return times.user + times.system


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
    session.page.evaluate("() => { window.__t0 = 0; }")  # performance.now() starts at navigation
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
            session.page.wait_for_function(f"() => performance.now() - window.__lastMutation > {QUIET_MS}", polling=50)
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
    """English sentences of the test split in a fixed shuffled order: the split itself begins with a run of
    short arithmetic questions ("Zero plus sixteen"), which would make every chart look smaller than what
    people type."""
    import random

    from viz_model import corpus

    pairs = corpus.split_corpus(corpus.corpus_pairs(seed=0), seed=0)["test"]
    texts = list(dict.fromkeys(p.en for p in pairs))
    random.Random(0).shuffle(texts)
    return texts[offset : offset + count]


def max_length_sentence(translator) -> str:
    """As many known English words as the model reads (max_len − 2), from the corpus."""
    words = []
    for text in test_sentences(200, 500):
        words += text.split()
        if len(words) >= translator.max_source_words:
            break
    return " ".join(words[: translator.max_source_words])


def translate_seconds(translator, text: str) -> float:
    import torch

    torch.set_num_threads(1)
    started = time.perf_counter()
    translator.translate(text, "en2zh")
    return time.perf_counter() - started


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ratio_interval(
    numerators: list[float], denominators: list[float], level: float = 0.9, draws: int = 4000, seed: int = 0
) -> tuple[float, float]:
    """A bootstrap interval for median(numerators) / median(denominators), the runs resampled in pairs.

    The runs are paired: run i of a page and run i of the minimal page (or of the compared checkout) were
    taken seconds apart on the same sentence, so they share the machine's drift; resampling the pairs keeps
    that. The interval says whether a ratio near a target differs from it beyond the noise of this many runs
    (on this machine a ratio moves by about ±10 % between runs of 7)."""
    pairs = list(zip(numerators, denominators))
    if len(pairs) < 2:
        return float("nan"), float("nan")
    rng = random.Random(seed)
    ratios = sorted(
        median([a for a, _ in sample]) / median([b for _, b in sample])
        for sample in ([rng.choice(pairs) for _ in pairs] for _ in range(draws))
    )
    tail = (1 - level) / 2
    return ratios[int(tail * (draws - 1))], ratios[int((1 - tail) * (draws - 1))]


WARM_TARGET = 1.5  # × floor


def warm_verdict(low: float, high: float, target: float = WARM_TARGET) -> str:
    """A warm page against the target, from its ratio's interval: "ok" when the whole interval is within
    it, "MISSED" when the whole interval is past it, "at the line" when the interval holds the target (the
    median alone could fall either side of it in the next run)."""
    if high <= target:
        return "ok"
    if low > target:
        return "MISSED"
    return "at the line"


FLOOR_LABEL = "minimal: warm (Enter → drawn)"
FLOOR_OF: dict[str, list[float]] = {}  # label -> the minimal page's runs interleaved with that label's runs


def warm_pages(
    sessions: dict[str, Session], frames: dict[str, FrameBytes], servers: dict[str, int], rows: dict, args, sentences
) -> None:
    """Enter → drawn for every page, interleaved run by run with the minimal page (and the --compare
    checkout): the machine's speed drifts over minutes, and a ratio of two runs taken seconds apart is
    steadier than a ratio of two medians taken minutes apart. The app and the compared checkout get the same
    sentences; who goes first rotates each run. `servers`: each session's server process id."""
    from pages.parts.frame import PAGES

    views = [dict(v.split("=", 1) for v in view) for view in args.params or [[]]]  # each view's link parameters
    pages = [
        ("" if i == 0 else p.url_path, p.section + "".join(f" {k}={v}" for k, v in params.items()), params)
        for i, p in enumerate(PAGES)
        if not args.pages or p.section in args.pages
        for params in views
    ]
    apps = [name for name in sessions if name != "minimal"]
    for table in (rows, PAYLOADS, SCRIPT, BROWSER_CPU, SERVER_CPU):
        table[FLOOR_LABEL] = []
    for url_path, section, params in pages:
        labels = {name: f"{name}: warm {section}" for name in apps}
        print(f"  warm {section} …", flush=True)
        for name in apps:
            if params:  # a view other than the page's default: open the page's link with them
                sessions[name].open(url_path, **params)
            else:
                sessions[name].navigate(url_path)
            type_and_time(sessions[name], next(sentences))  # the first sentence on the page: unmeasured
            for table in (rows, PAYLOADS, SCRIPT, BROWSER_CPU, SERVER_CPU, FLOOR_OF):
                table[labels[name]] = []
        for run in range(args.runs):
            text = next(sentences)
            order = ["minimal", *apps]
            order = order[run % len(order) :] + order[: run % len(order)]
            for name in order:
                label = FLOOR_LABEL if name == "minimal" else labels[name]
                before_bytes = frames[name].total
                LAST_SCRIPT.clear()
                browser_before, server_before = chromium_cpu_seconds(), process_cpu_seconds(servers[name])
                took = type_and_time(sessions[name], text)
                BROWSER_CPU[label].append(chromium_cpu_seconds() - browser_before)
                SERVER_CPU[label].append(process_cpu_seconds(servers[name]) - server_before)
                rows[label].append(took)
                PAYLOADS[label].append(frames[name].total - before_bytes)
                SCRIPT[label] += LAST_SCRIPT
                if name == "minimal":
                    for app_label in labels.values():
                        FLOOR_OF[app_label].append(took)


def grid_rows(session: Session, frames: FrameBytes, rows: dict, args, translator) -> None:
    """The Attention page's all-layers × heads grid for a sentence of the maximum length."""
    from pages.parts.i18n import t

    session.navigate("attention")
    grid = session.page.locator('[data-testid="stMain"] button').filter(has_text=t("attention.view_grid", "en"))
    heads = session.page.locator('[data-testid="stMain"] button').filter(has_text=t("attention.view_heads", "en"))
    long_text = max_length_sentence(translator)
    session.type_sentence(long_text)
    grid_switch = "app: attention grid, switch to grid (max length)"
    grid_enter = "app: attention grid, Enter (max length)"
    rows[grid_switch], rows[grid_enter], PAYLOADS[grid_enter] = [], [], []
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="warm runs per page (median)")
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--model-dir", default=os.environ.get(MODEL_DIR_ENV))
    parser.add_argument(
        "--pages",
        nargs="*",
        metavar="SECTION",
        help="only these pages (sections, e.g. home tokens); skips the grid measurements",
    )
    parser.add_argument(
        "--params",
        nargs="*",
        action="append",
        metavar="KEY=VALUE",
        help="open each page's link with these parameters and time that view (e.g. lstep=5: the lesson's "
        "step 5); repeat for several views (--params lstep=2 --params lstep=3)",
    )
    parser.add_argument(
        "--model",
        choices=("ours", "minilm"),
        default="ours",
        help="the sidebar's model for the app's pages (minilm: the pretrained encoder's views, ?model=minilm)",
    )
    parser.add_argument(
        "--compare",
        metavar="CHECKOUT",
        help="another checkout of the app (a directory holding app.py), measured interleaved "
        "with this one on the same sentences: is a change faster, beyond the noise?",
    )
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from pages.parts.frame import PAGES
    from viz_model.model import checkpoint
    from viz_model.model.translator import Translator

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

            apps = {"minimal": minimal, "app": APP}
            if args.compare:
                apps["compare"] = Path(args.compare).resolve() / "app.py"
            servers = {
                name: StreamlitServer(script, env=env, log_path=ARTIFACTS / f"bench-{name}.log")
                for name, script in apps.items()
            }
            try:
                sessions, frames = {}, {}
                for server in servers.values():
                    server.start()
                for name, server in servers.items():
                    server.wait_healthy(timeout=120)
                    context = browser.new_context(viewport=VIEWPORT)
                    Session(context, server.base_url).open("")  # model loaded, plotly.js in the HTTP cache
                    rows[f"{name}: new session"] = [
                        open_and_time(Session(context, server.base_url), server.base_url + "/")
                        for _ in range(args.runs)
                    ]
                    sessions[name] = Session(context, server.base_url)
                    frames[name] = FrameBytes(sessions[name])
                    # The sidebar's model picker: its choice carries over as the session moves between pages.
                    sessions[name].open(
                        "", **({"model": args.model} if name != "minimal" and args.model != "ours" else {})
                    )
                    type_and_time(sessions[name], next(sentences))  # the first sentence: unmeasured
                warm_pages(sessions, frames, {n: s.pid for n, s in servers.items()}, rows, args, sentences)
                if not args.pages:
                    grid_rows(sessions["app"], frames["app"], rows, args, translator)
                for name, session in sessions.items():
                    problems = session.problems()
                    if problems:
                        print(f"  ! problems ({name}): {problems[:5]}")
            finally:
                for server in servers.values():
                    server.stop()
        finally:
            browser.close()

    floor_warm = median(rows[FLOOR_LABEL])
    floor_cold = median(rows.get("minimal: cold start", []))
    floor_session = median(rows["minimal: new session"])
    print(
        f"\nBrowser benchmark ({args.runs} warm runs, {args.cold_runs} cold runs; medians, seconds; "
        f"{os.cpu_count()} CPU cores; the app's pages with model: {args.model})"
    )
    print(
        f"{'measurement':52} {'median':>7} {'min':>6} {'max':>6} {'× floor':>8} {'KB/rerun':>9} {'script':>7} "
        f"{'browser':>8} {'server':>7}  target"
    )
    intervals = {}  # warm label -> (× floor, its 90 % interval's low and high ends)
    for label, values in rows.items():
        if not values:  # --cold-runs 0
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
            # A page against the minimal page's runs taken between its own runs (see warm_pages).
            floor, target = median(FLOOR_OF.get(label, rows[FLOOR_LABEL])), f"≤ {WARM_TARGET}× floor"
            ok = label.startswith("minimal") or med <= WARM_TARGET * floor
            if FLOOR_OF.get(label):
                intervals[label] = (med / floor, *ratio_interval(values, FLOOR_OF[label]))
        mark = "" if not target else ("ok" if ok else "MISSED")
        if label in intervals:
            mark = f"{mark} ({warm_verdict(*intervals[label][1:])} by the interval)"
        payload = f"{median(PAYLOADS[label]) / 1024:9.0f}" if PAYLOADS.get(label) else " " * 9
        script = f"{median(SCRIPT[label]):7.2f}" if SCRIPT.get(label) else " " * 7
        cpu = (
            f"{median(BROWSER_CPU[label]):8.2f} {median(SERVER_CPU[label]):7.2f}"
            if BROWSER_CPU.get(label)
            else " " * 16
        )
        print(
            f"{label:52} {med:7.2f} {min(values):6.2f} {max(values):6.2f} {med / floor:8.2f} {payload} "
            f"{script} {cpu}  {target} {mark}"
        )
    if intervals:
        print(f"\n× floor of each page with a 90 % bootstrap interval ({args.runs} paired runs; a page whose")
        print(f"interval holds {WARM_TARGET} is at the target within this benchmark's noise):")
        for label, (ratio, low, high) in intervals.items():
            print(f"  {label:32} {ratio:5.2f} ×  [{low:.2f}, {high:.2f}]  {warm_verdict(low, high)}")
    if args.compare:
        print(f"\ncompare ({args.compare}) against this checkout, same sentences, runs interleaved:")
        for label in rows:
            if label.startswith("compare: warm "):
                section = label.removeprefix("compare: warm ")
                ours = rows[f"app: warm {section}"]
                low, high = ratio_interval(rows[label], ours)
                ratio = median(rows[label]) / median(ours)
                print(f"  {section:12} {ratio:5.2f} ×  (90 % interval {low:.2f}–{high:.2f})")
    model = [translate_seconds(translator, text) for text in test_sentences(args.runs * 3, 900)]
    print(
        f"\nmodel work for a new sentence (beam search + trace, in this process, 1 thread): median "
        f"{median(model):.2f} s. 'script' = Enter → script finished (server work and deltas); the rest of "
        f"a warm figure is the browser drawing. KB/rerun = websocket bytes the server sent for one rerun. "
        f"browser, server = CPU seconds of one rerun (all Chromium processes; the page's server)."
    )
    return 0


def _js(value: str) -> str:
    import json

    return json.dumps(value)


if __name__ == "__main__":
    # SIGTERM (e.g. from `timeout`) would skip the `finally` that stops the server: turn it into SystemExit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
