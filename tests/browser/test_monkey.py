"""The short monkey test: seeded random actions on every page in both languages, nothing may break.

The long version (300 actions a page and language) is `python tests/browser/monkey.py`. Every seed that
ever found a failure is kept in REGRESSION_SEEDS and replayed here, beside the short run's own seeds.
"""

import pytest

from tests.browser.conftest import APP_PAGES
from tests.browser.monkey import main, run_monkey

# Ten actions a page and language keep the short version to a few minutes of the test command; the long
# version covers the 300.
ACTIONS = 10
LANGUAGES = ("en", "zh")
# (url path, language, seed, actions): seeds that once broke a page, replayed for ever.
REGRESSION_SEEDS: list[tuple[str, str, int, int]] = []

# One seed a page and language, then the regression seeds: never empty while the app has a page, so the
# test always acts on something (an empty list would make pytest skip it and check nothing).
RUNS: list[tuple[str, str, int, int]] = [
    (page.url_path, lang, 7 + 31 * i + (lang == "zh"), ACTIONS)
    for i, page in enumerate(APP_PAGES)
    for lang in LANGUAGES
] + REGRESSION_SEEDS
RUN_IDS = [f"{path or 'home'}-{lang}-seed{seed}" for path, lang, seed, _ in RUNS]


def test_the_runs_visit_every_page_in_both_languages():
    assert APP_PAGES, "the app has pages"
    assert {(path, lang) for path, lang, _, _ in RUNS} == {(p.url_path, lang) for p in APP_PAGES for lang in LANGUAGES}
    assert len(RUNS) == len(APP_PAGES) * len(LANGUAGES) + len(REGRESSION_SEEDS)


def test_a_path_that_is_no_page_is_refused_before_anything_runs(capsys):
    # Streamlit opens Home for an unknown path, so a mistyped --pages would click nothing of the page meant.
    with pytest.raises(SystemExit):
        main(["--pages", "beam", "--actions", "1"])
    assert "not a page of the app: beam" in capsys.readouterr().err


@pytest.mark.parametrize("url_path, lang, seed, actions", RUNS, ids=RUN_IDS)
def test_random_actions_break_nothing(new_session, url_path, lang, seed, actions):
    result = run_monkey(new_session(), url_path, seed, actions, lang)
    assert len(result.actions) == actions, (result.actions, result.skipped)
    assert not result.problems, result.report()
