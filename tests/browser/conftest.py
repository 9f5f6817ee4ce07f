"""Fixtures for the real-browser tests: one `streamlit run app.py` server and one headless Chromium for the
whole session, a fresh tab (Streamlit session) per test, the screenshot folder, and the model's own answers.

The server is stopped by its own PID (and process group) when the session ends, whatever happened.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser.harness import (
    ARTIFACTS,
    CHROMIUM,
    MODEL_DIR_ENV,
    SCREENSHOTS,
    Session,
    StreamlitServer,
    launch_chromium,
    report,
)

VIEWPORT = {"width": 1400, "height": 900}


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the real app in headless Chromium (tests/browser/)")


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


# ------------------------------------------------------------------------------------------ pages


@dataclass(frozen=True)
class AppPage:
    file: str
    section: str  # catalogue section: "<section>.title" is the page title
    url_path: str  # "" for the default page (Streamlit serves it at /)

    def title(self, lang: str) -> str:
        from pages.parts.i18n import t

        return t(f"{self.section}.title", lang)


def _app_pages() -> list[AppPage]:
    from pages.parts.frame import PAGES

    return [AppPage(p.file, p.section, "" if i == 0 else p.url_path) for i, p in enumerate(PAGES)]


APP_PAGES = _app_pages()


# ------------------------------------------------------------------------------------------ fixtures


def _model_dir() -> str:
    if os.environ.get(MODEL_DIR_ENV):
        return os.environ[MODEL_DIR_ENV]
    try:  # the AppTest suites' choice: shipped model, else a random one
        from tests.app_harness import model_dir

        return str(model_dir())
    except ImportError:
        from viz_model.model import checkpoint

        return str(checkpoint.MODEL_DIR)


@pytest.fixture(scope="session")
def model_dir() -> str:
    return _model_dir()


@pytest.fixture(scope="session")
def app_server(model_dir):
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip("Debian's chromium is not installed (tests/run_all.sh installs it)")
    ARTIFACTS.mkdir(exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")  # each test process runs its own server
    server = StreamlitServer(env={MODEL_DIR_ENV: model_dir}, log_path=ARTIFACTS / f"browser-server-{worker}.log")
    started = time.perf_counter()
    try:
        server.start()
        server.wait_healthy(timeout=180)  # slow when the two cores are busy elsewhere
        yield server
    finally:
        alive = server.healthy()
        server.stop()
        report(
            f"browser tests: server pid {server.pid} on port {server.port}, "
            f"{time.perf_counter() - started:.0f} s, healthy at the end: {alive}, stopped: "
            f"{server.process.poll() is not None}; log {server.log_path}"
        )


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()


_external: set[str] = set()


@pytest.fixture
def new_session(app_server, chromium):
    """Factory: `new_session()` opens a fresh browser context (its own Streamlit session) on the shared
    server, `new_session(server)` on another one; closed after."""
    opened: list[tuple[object, Session]] = []

    def make(server: StreamlitServer | None = None) -> Session:
        context = chromium.new_context(viewport=VIEWPORT, locale="en-US")
        context.set_default_timeout(60_000)
        session = Session(context, (server or app_server).base_url)
        opened.append((context, session))
        return session

    yield make
    for context, session in opened:
        _external.update(session.external_requests)
        context.close()


@pytest.fixture
def session(new_session) -> Session:
    return new_session()


@pytest.fixture(scope="session", autouse=True)
def _report_external():
    yield
    if _external:
        report("requests to the internet that failed (the app should work offline): " + ", ".join(sorted(_external)))


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def translator(model_dir):
    """The model the server runs, in this process: the translation each sentence must show."""
    import torch

    from viz_model.model.translator import Translator

    torch.set_num_threads(1)  # as the app does: the same arithmetic, the same beam
    return Translator.load(Path(model_dir))


@pytest.fixture(scope="session")
def expected_translation(translator):
    cache: dict[tuple[str, str], str] = {}

    def expected(text: str, direction: str = "en2zh") -> str:
        if (text, direction) not in cache:
            cache[text, direction] = (translator.translate(text, direction).output_text or "∅").strip()
        return cache[text, direction]

    return expected
