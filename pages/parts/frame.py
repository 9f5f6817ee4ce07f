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
    PageSpec("pages/lesson.py", "lesson", ":material/school:", "lesson"),
    PageSpec("pages/tokens.py", "tokens", ":material/text_fields:", "tokens"),
    PageSpec("pages/similarity.py", "similarity", ":material/compare_arrows:", "similarity"),
    PageSpec("pages/attention.py", "attention", ":material/grid_on:", "attention"),
    PageSpec("pages/step_by_step.py", "step", ":material/calculate:", "step_by_step"),
    PageSpec("pages/positional.py", "positional", ":material/waves:", "positional"),
    PageSpec("pages/experiments.py", "experiments", ":material/science:", "experiments"),
    PageSpec("pages/beam_search.py", "beam", ":material/account_tree:", "beam_search"),
    PageSpec("pages/decoding.py", "decoding", ":material/alt_route:", "decoding"),
    PageSpec("pages/metrics.py", "metrics", ":material/rule:", "metrics"),
)


APP_FILE = Path(__file__).resolve().parents[2] / "app.py"


def home_alias(home: st.Page) -> st.Page:
    """A hidden page at /home that opens Home at / with the link's parameters.

    Streamlit serves the default page at / only: its url_path is "" to the browser, so /home (Home's name in
    PAGES, which links made by hand or by older versions of the app use) named no page, and Streamlit
    opened Home under an English "Page not found" pop-up. Home itself is registered with url_path "" so that
    this page can have "home" (a page's url_path is its identity: two pages may not share one)."""

    def open_home() -> None:
        params = st.query_params
        st.switch_page(home, query_params=[(key, value) for key in params for value in params.get_all(key)])

    return st.Page(open_home, title=home.title, url_path=PAGES[0].url_path, visibility="hidden")


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
