"""Many students at once: N browser sessions on one server, each typing its own sentences and visiting
pages, all at the same moment (every action is sent in all tabs before any tab is waited for, so the server
runs N scripts concurrently). Each session must see no error and only its own sentence, with the
translation viz_model.Translator gives for it. The server's resident memory (with its children) is sampled
throughout. Used by tests/browser/test_load.py (short) and tests/load_test.py (full, by hand).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlparse

from tests.browser.harness import NAV_LINK, SENTENCE_INPUT, Session, StreamlitServer


@dataclass
class LoadResult:
    errors: list[str] = field(default_factory=list)
    checks: int = 0  # (session, sentence, page) views checked
    seconds: float = 0.0
    peak_rss: int = 0  # bytes, server + children, over the whole run
    rss_after_rounds: list[int] = field(default_factory=list)
    round_seconds: list[float] = field(default_factory=list)


def load_sentences(n_sessions: int, per_session: int, rounds: int) -> list[list[list[tuple[str, str]]]]:
    """plans[round][session] = that session's (sentence, direction) list, all different, from the corpus's
    held-out test split. Even sessions type English (en2zh), odd ones Chinese (zh2en); every round types
    new sentences, so repeated rounds churn the bounded caches instead of hitting them."""
    from tests.load.classroom import held_out_sentences

    pools = held_out_sentences()
    taken = {"en2zh": 0, "zh2en": 0}
    plans = []
    for _ in range(rounds):
        plan = []
        for i in range(n_sessions):
            direction = "en2zh" if i % 2 == 0 else "zh2en"
            start = taken[direction]
            texts = pools[direction][start : start + per_session]
            if len(texts) < per_session:
                raise ValueError(f"not enough different {direction} test sentences")
            taken[direction] += per_session
            plan.append([(text, direction) for text in texts])
        plans.append(plan)
    return plans


class RssSampler(threading.Thread):
    def __init__(self, server: StreamlitServer, every: float = 0.25):
        super().__init__(daemon=True)
        self.server, self.every, self.peak, self._done = server, every, 0, threading.Event()

    def run(self):
        while not self._done.is_set():
            self.peak = max(self.peak, self.server.rss_bytes())
            self._done.wait(self.every)

    def stop(self) -> int:
        self._done.set()
        self.join()
        return self.peak


def _check(
    session: Session, name: str, text: str, direction: str, expected: str, where: str, errors: list[str]
) -> None:
    problems = session.problems()
    if problems:
        errors.append(f"{name} {where}: " + " | ".join(problems))
        session.console_errors.clear(), session.page_errors.clear()
    shown = session.sentence(expect=text)
    if shown != text:
        errors.append(f"{name} {where}: sentence box shows {shown!r}, typed {text!r}")
    url = parse_qs(urlparse(session.page.url).query)
    if url.get("text") != [text]:
        errors.append(f"{name} {where}: URL text {url.get('text')!r}, typed {text!r}")
    translation = session.translation()
    if translation != expected:
        errors.append(f"{name} {where}: translation {translation!r}, expected {expected!r} for {text!r}")


def run_load(
    browser,
    server: StreamlitServer,
    translator,
    n_sessions: int,
    sentences_per_session: int,
    url_paths: list[str],
    rounds: int = 1,
    log=print,
    viewport=None,
) -> LoadResult:
    """Run `rounds` rounds; in each, every session types `sentences_per_session` new sentences and, for
    each, visits every page in `url_paths` (all sessions at once, step by step)."""
    result = LoadResult()
    sampler = RssSampler(server)
    sampler.start()
    started = time.perf_counter()
    contexts, sessions = [], []
    expected_cache: dict[tuple[str, str], str] = {}

    def expected(text: str, direction: str) -> str:
        if (text, direction) not in expected_cache:
            expected_cache[text, direction] = translator.translate(text, direction).output_text or "∅"
        return expected_cache[text, direction].strip()

    try:
        all_plans = load_sentences(n_sessions, sentences_per_session, rounds)
        for r, plans in enumerate(all_plans):
            round_started = time.perf_counter()
            directions = [plan[0][1] for plan in plans]
            for text, direction in {s for p in plans for s in p}:
                expected(text, direction)  # before the clock of the next step matters
            for context in contexts:
                context.close()
            contexts, sessions = [], []
            for _ in range(n_sessions):
                context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800})
                context.set_default_timeout(120_000)
                contexts.append(context)
                sessions.append(Session(context, server.base_url))
            # Open all tabs at once (each a new Streamlit session), then wait for each.
            for i, s in enumerate(sessions):
                s.page.goto(f"{server.base_url}/{url_paths[0]}?dir={directions[i]}", wait_until="domcontentloaded")
            for s in sessions:
                s.wait_first_run(timeout=120_000)
            for j in range(sentences_per_session):
                # Everyone presses Enter on their own sentence, then everyone is waited for.
                pending = []
                for i, s in enumerate(sessions):
                    text, direction = plans[i][j]
                    box = s.page.locator(SENTENCE_INPUT)
                    before = s.runs()
                    box.fill(text)
                    box.press("Enter")
                    pending.append((s, before, text, direction))
                for i, (s, before, text, direction) in enumerate(pending):
                    effect = f"new URLSearchParams(location.search).get('text') === {_js(text)}"
                    s.wait_idle(since_runs=before, effect=effect, timeout=120_000)
                    _check(
                        s,
                        f"session {i}",
                        text,
                        direction,
                        expected(text, direction),
                        f"round {r} sentence {j} on /{url_paths[0]}",
                        result.errors,
                    )
                    result.checks += 1
                for path in url_paths[1:]:
                    pending = []
                    for s in sessions:
                        before = s.runs()
                        s.page.locator(NAV_LINK.format(url_path=path)).first.click()
                        pending.append((s, before))
                    for i, (s, before) in enumerate(pending):
                        effect = f"location.pathname.replace(/\\/+$/, '') === {_js(('/' + path).rstrip('/'))}"
                        s.wait_idle(since_runs=before, effect=effect, timeout=120_000)
                        text, direction = plans[i][j]
                        _check(
                            s,
                            f"session {i}",
                            text,
                            direction,
                            expected(text, direction),
                            f"round {r} sentence {j} on /{path}",
                            result.errors,
                        )
                        result.checks += 1
            for s in sessions:
                result.errors += [f"dialog in a session: {d}" for d in s.dialogs]
            result.round_seconds.append(time.perf_counter() - round_started)
            result.rss_after_rounds.append(server.rss_bytes())
            log(
                f"round {r + 1}/{rounds}: {n_sessions} sessions × {sentences_per_session} sentences × "
                f"{len(url_paths)} pages in {result.round_seconds[-1]:.1f} s; server RSS "
                f"{result.rss_after_rounds[-1] / 2**20:.0f} MiB (peak so far {sampler.peak / 2**20:.0f} MiB); "
                f"{len(result.errors)} errors so far"
            )
    finally:
        for context in contexts:
            context.close()
        result.peak_rss = max(sampler.stop(), *result.rss_after_rounds, 0)
        result.seconds = time.perf_counter() - started
    return result


def _js(value: str) -> str:
    import json

    return json.dumps(value)
