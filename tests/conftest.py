"""Markers by where a test lives: `apptest` for the pages run through Streamlit's AppTest, `slow` for the
few that train or search at length (`pytest -m "not browser and not slow"` is the fast subset).

And the fixtures of a page's test module (tests/test_app_*.py), read from its PAGE, TEXT and DIRECTION: `at`,
the page opened on that sentence, and `trace`, the model's trace of it, which the page's charts must equal."""

from __future__ import annotations

from pathlib import Path

import pytest

SLOW_FILES = {"test_train.py", "test_load.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = Path(item.fspath).name
        if name.startswith("test_app_") or name == "test_hostile_apptest.py":
            item.add_marker(pytest.mark.apptest)
        if name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def at(request):
    from tests.app_harness import open_app  # here: most test modules need neither Streamlit nor the model

    module = request.module
    return open_app(module.PAGE, text=module.TEXT, direction=module.DIRECTION)


@pytest.fixture(scope="module")
def trace(request):
    from tests.app_harness import translator

    return translator().translate(request.module.TEXT, request.module.DIRECTION).trace
