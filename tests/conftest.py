"""Markers, put on every test here so that nobody has to remember them, and the fixtures of the page tests.

Each test carries at least one of four markers, so `-m` picks a subset and the four subsets together are the
whole suite:

- `browser`: drives the real app in headless Chromium (every test under tests/browser/);
- `apptest`: runs pages through Streamlit's AppTest: every test of tests/test_app_*.py and
  test_hostile_apptest.py, marked here; a test elsewhere that opens a page carries the mark itself;
- `slow`: takes more than a few seconds (training, long searches, evaluation) or builds the corpus in this
  process (one to three minutes, once per process). A test module lists in SLOW_FIXTURES the fixtures of
  its own that build the corpus or train; every test that uses one, directly or through another fixture, is
  marked here; a test that does so itself carries the mark itself;
- `unit`: none of the three, marked here. `python -m pytest -m unit` is the fast target (under two minutes
  on two cores).

A unit test that runs AppTest or builds the corpus fails at once, naming the marker it lacks, so the fast
target stays fast: see _refuse_in_unit_tests.

And the fixtures of a page's test module (tests/test_app_*.py), read from its PAGE, TEXT and DIRECTION: `at`,
the page opened on that sentence, and `trace`, the model's trace of it, which the page's charts must equal."""

from __future__ import annotations

import importlib
import pickle
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

SLOW_FILES = {"test_load.py"}
# The suite's longest modules (a few minutes each on two cores), started first: tests/run_all.sh hands whole
# modules to its processes in collection order, so a long one collected last would run alone at the end.
LONGEST_FIRST = (
    "test_monkey.py",
    "test_continuation.py",
    "test_every_link.py",
    "test_present.py",
    "test_hostile_apptest.py",
    "test_everyday.py",
    "test_corpus.py",
    "test_class_load.py",
)
MARKERS = ("browser", "apptest", "slow")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    browser = Path(__file__).parent / "browser"
    for item in items:
        name = Path(item.fspath).name
        in_browser = browser in Path(item.fspath).parents  # tests/browser/conftest.py marks them `browser`
        if name.startswith("test_app_") or name == "test_hostile_apptest.py":
            item.add_marker(pytest.mark.apptest)
        slow_fixtures = set(getattr(getattr(item, "module", None), "SLOW_FIXTURES", ()))
        if name in SLOW_FILES or slow_fixtures & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
        if not in_browser and not any(item.get_closest_marker(m) for m in MARKERS):
            item.add_marker(pytest.mark.unit)
        # tests/run_all.sh runs the suite in two processes (pytest-xdist, --dist loadgroup): a module stays
        # whole, so its module-scoped fixtures (an AppTest page, the corpus) are built once. Each process
        # that runs browser tests starts its own server and Chromium (tests/browser/conftest.py).
        item.add_marker(pytest.mark.xdist_group(name))
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(item.fspath).name, len(rank)))  # stable: the rest keep their order


@contextmanager
def _refuse_in_unit_tests(item):
    """While a unit test (or its fixtures) runs, running AppTest or building the corpus fails it: it belongs
    under `apptest` or `slow`, out of the fast target."""
    if item.get_closest_marker("unit") is None:
        yield
        return

    def refuse(what: str, marker: str):
        def refused(*args, **kwargs):
            pytest.fail(f"a unit test {what}: mark it @pytest.mark.{marker} (see tests/conftest.py)", pytrace=False)

        return refused

    patches = [
        ("viz_model.corpus.assemble", None, "generate_pairs", refuse("builds the corpus", "slow")),
        ("viz_model.corpus", None, "generate_pairs", refuse("builds the corpus", "slow")),
        ("streamlit.testing.v1.app_test", "AppTest", "run", refuse("runs Streamlit's AppTest", "apptest")),
    ]
    saved = []
    for module_name, class_name, attribute, replacement in patches:
        owner = importlib.import_module(module_name)
        owner = getattr(owner, class_name) if class_name else owner
        saved.append((owner, attribute, owner.__dict__[attribute]))
        setattr(owner, attribute, replacement)
    try:
        yield
    finally:
        for owner, attribute, original in saved:
            setattr(owner, attribute, original)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with _refuse_in_unit_tests(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with _refuse_in_unit_tests(item):
        return (yield)


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the main process, not an xdist worker: a new run's report
        from tests.browser.harness import REPORT_FILE

        REPORT_FILE.unlink(missing_ok=True)
        if config.pluginmanager.hasplugin("xdist") and config.getoption("numprocesses", None):
            config.option.testrunuid = config.getoption("testrunuid") or uuid.uuid4().hex  # the workers' too
    else:
        _share_the_corpus(_corpus_folder(config.workerinput["testrunuid"]))


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput") and getattr(config.option, "testrunuid", None):
        shutil.rmtree(_corpus_folder(config.option.testrunuid), ignore_errors=True)


def _corpus_folder(testrunuid: str) -> Path:
    return Path(tempfile.gettempdir()) / f"attention-lab-corpus-{testrunuid}"


def _share_the_corpus(folder: Path) -> None:
    """One build of the corpus a run, not one a process: under pytest-xdist each process that needs the corpus
    (seed 0) would build it, one to three minutes on two cores. The first builds it and leaves a pickle in a
    folder of this run's; the others wait for it and load it (a second or two). Still built from the source
    in this run, so a test of the build (test_corpus.test_same_seed_same_corpus) tests this run's build."""
    from filelock import FileLock

    from viz_model.corpus import assemble

    build = assemble.generate_pairs

    def generate_pairs(seed: int = 0):
        if seed != 0:
            return build(seed)
        folder.mkdir(exist_ok=True)
        path = folder / "pairs-0.pickle"
        with FileLock(f"{path}.lock"):
            if path.exists():
                return pickle.loads(path.read_bytes())
            pairs = build(seed)
            partial = path.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(pairs, protocol=pickle.HIGHEST_PROTOCOL))
            partial.replace(path)
            return pairs

    assemble.generate_pairs = generate_pairs


def pytest_terminal_summary(terminalreporter):
    """What the browser tests reported (server health, load-test figures) and the hostile AppTest timings, and
    where the screenshots are."""
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
