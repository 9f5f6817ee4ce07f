"""The short monkey test: seeded random actions on every page in both languages, nothing may break.

The long version (300 actions a page and language) is `python tests/browser/monkey.py`. Every seed that
ever found a failure is kept in REGRESSION_SEEDS and replayed here.
"""

import pytest

from tests.browser.conftest import APP_PAGES
from tests.browser.monkey import run_monkey

# A dozen actions a page and language keep the short version to a few minutes of the test command; the long
# version covers the 300.
ACTIONS = 12
# (url path, language, seed, actions): seeds that once broke a page, replayed for ever.
REGRESSION_SEEDS: list[tuple[str, str, int, int]] = []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("app_page", APP_PAGES, ids=[p.section for p in APP_PAGES])
def test_random_actions_break_nothing(new_session, app_page, lang):
    seed = 7 + 31 * APP_PAGES.index(app_page) + (lang == "zh")
    result = run_monkey(new_session(), app_page.url_path, seed, ACTIONS, lang)
    assert len(result.actions) == ACTIONS, (result.actions, result.skipped)
    assert not result.problems, result.report()


@pytest.mark.parametrize("url_path, lang, seed, actions", REGRESSION_SEEDS)
def test_seeds_that_once_failed(new_session, url_path, lang, seed, actions):
    result = run_monkey(new_session(), url_path, seed, actions, lang)
    assert not result.problems, result.report()
