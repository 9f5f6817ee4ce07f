"""The app's frame: the page list, the icon, and the guard that makes every page run inside app.py's frame
(navigation and sidebar) even when Streamlit starts a page file on its own."""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path

import streamlit as st


@dataclass(frozen=True)
class PageSpec:
    """One page of the app. Its title is the catalogue string "<section>.title"."""

    file: str
    section: str
    icon: str
    url_path: str


# The app's pages in menu order. To add one: write pages/<file>.py, add a line here, and give its section
# a "title" (and "short", the one-line description on the Home page) in assets/i18n/en.json and zh.json.
PAGES = (
    PageSpec("pages/home.py", "home", ":material/home:", "home"),
    PageSpec("pages/tokens.py", "tokens", ":material/text_fields:", "tokens"),
    PageSpec("pages/similarity.py", "similarity", ":material/compare_arrows:", "similarity"),
    PageSpec("pages/attention.py", "attention", ":material/grid_on:", "attention"),
    PageSpec("pages/step_by_step.py", "step", ":material/calculate:", "step_by_step"),
    PageSpec("pages/positional.py", "positional", ":material/waves:", "positional"),
    PageSpec("pages/beam_search.py", "beam", ":material/account_tree:", "beam_search"),
    PageSpec("pages/metrics.py", "metrics", ":material/rule:", "metrics"),
)


APP_FILE = Path(__file__).resolve().parents[2] / "app.py"


ICON = APP_FILE.parent / "assets" / "icon.png"


FRAME_MARK = "_frame_drawn"
PAGE_SWITCHED = "_page_switched"  # set by app.py: this run is a page's first after another page's


def frame() -> None:
    """The first call of every page: makes sure app.py's frame (navigation, sidebar) ran in this run.

    app.py marks the session just before running the page, and the page consumes the mark. Without it the
    page was started directly: Streamlit still keeps its pre-`st.navigation` behaviour for a folder named
    `pages/` and runs a sub-page URL's file on its own when no `st.navigation` call has happened yet in the
    process (the first visitor of a fresh server, and every AppTest run). Then we run app.py, which draws
    the frame and runs this page again inside it, and stop here so the page is not drawn twice.
    """
    if st.session_state.pop(FRAME_MARK, False):
        return
    runpy.run_path(str(APP_FILE), run_name="__main__")
    st.stop()
