"""Markers by where a test lives: `apptest` for the pages run through Streamlit's AppTest, `slow` for the
few that train or search at length (`pytest -m "not browser and not slow"` is the fast subset).

And the fixtures of a page's test module (tests/test_app_*.py), read from its PAGE, TEXT and DIRECTION: `at`,
the page opened on that sentence, and `trace`, the model's trace of it, which the page's charts must equal."""

from __future__ import annotations

from pathlib import Path

import pytest

SLOW_FILES = {"test_train.py", "test_load.py"}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    browser = Path(__file__).parent / "browser"
    for item in items:
        name = Path(item.fspath).name
        if name.startswith("test_app_") or name == "test_hostile_apptest.py":
            item.add_marker(pytest.mark.apptest)
        if name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
        # tests/run_all.sh runs the suite in two processes (pytest-xdist, --dist loadgroup): the browser
        # tests share one server and one Chromium, so they stay together; any other module stays whole, so
        # its module-scoped fixtures (an AppTest page, the corpus) are built once.
        group = "browser" if browser in Path(item.fspath).parents else name
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the main process, not an xdist worker: a new run's report
        from tests.browser.harness import REPORT_FILE

        REPORT_FILE.unlink(missing_ok=True)


def pytest_terminal_summary(terminalreporter):
    """What the browser tests reported (server health, load-test figures), and where their screenshots are."""
    from tests.browser.harness import REPORT_FILE, SCREENSHOTS

    if SCREENSHOTS.is_dir() and any(SCREENSHOTS.iterdir()):
        terminalreporter.write_line(f"browser screenshots: {SCREENSHOTS}")
    if REPORT_FILE.is_file():
        for line in REPORT_FILE.read_text(encoding="utf-8").splitlines():
            terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def at(request):
    from tests.app_harness import open_app  # here: most test modules need neither Streamlit nor the model

    module = request.module
    return open_app(module.PAGE, text=module.TEXT, direction=module.DIRECTION)


@pytest.fixture(scope="module")
def trace(request):
    from tests.app_harness import translator

    return translator().translate(request.module.TEXT, request.module.DIRECTION).trace
