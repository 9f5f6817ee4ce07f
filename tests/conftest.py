"""Markers by where a test lives: `apptest` for the pages run through Streamlit's AppTest, `slow` for the
few that train or search at length (`pytest -m "not browser and not slow"` is the fast subset)."""

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
