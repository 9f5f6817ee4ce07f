"""The layers import one way: pages → figures/lessons → model; training → corpus, model. Each subpackage is
imported in a fresh interpreter (every module of it), and what it pulled in is read from sys.modules, so an
import hidden inside a function body or a chain of imports counts too once the module is loaded."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUBPACKAGES = ("model", "lessons", "figures", "corpus", "training")

# What each subpackage may not load, directly or through another module.
FORBIDDEN = {
    "model": ("viz_model.lessons", "viz_model.figures", "viz_model.training", "pages", "streamlit"),
    "lessons": ("viz_model.figures", "viz_model.training", "pages", "streamlit"),
    "figures": ("viz_model.training", "pages", "streamlit"),
    "corpus": ("viz_model.lessons", "viz_model.figures", "viz_model.training", "pages", "streamlit"),
    "training": ("viz_model.figures", "pages", "streamlit"),
}


def modules(subpackage: str) -> list[str]:
    """The subpackage and every module in it, those of packages nested in it (corpus.grammar) too."""
    names = []
    for file in sorted((ROOT / "viz_model" / subpackage).rglob("*.py")):
        parts = file.relative_to(ROOT).with_suffix("").parts
        if parts[-1] != "__main__":
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def loaded_after_importing(names: list[str]) -> list[str]:
    """Import `names` in order in a fresh interpreter; the project and Streamlit modules it then holds."""
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "ours = ('viz_model', 'pages', 'streamlit')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ours)))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("subpackage", SUBPACKAGES)
def test_a_subpackage_loads_nothing_above_it(subpackage):
    loaded = loaded_after_importing(modules(subpackage))
    assert set(modules(subpackage)) <= set(loaded)
    bad = [m for m in loaded if m.startswith(FORBIDDEN[subpackage])]
    assert bad == [], f"viz_model.{subpackage} loads {bad}"


@pytest.mark.parametrize("step", [1, -1])
def test_every_module_imports_in_any_order(step):
    """No import cycle: every module of viz_model in turn, the subpackages and the modules within each taken
    in one order and then in the reverse one, so a module is sometimes imported before those it needs."""
    names = [name for subpackage in SUBPACKAGES[::step] for name in modules(subpackage)[::step]]
    loaded = loaded_after_importing(names)
    assert not [m for m in loaded if m.split(".")[0] == "streamlit"]


def test_no_module_of_viz_model_names_streamlit():
    """Not even an import inside a function that the tests above would not run."""
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in (ROOT / "viz_model").rglob("*.py")}
    assert texts
    assert [name for name, text in texts.items() if "import streamlit" in text or "from streamlit" in text] == []


def test_pages_stay_thin():
    """A page reads settings, calls viz_model and draws; its views live in `*_parts` modules. 150 lines is
    the line a page must not cross (the layering aims at 120)."""
    from pages.parts.frame import PAGES

    sizes = {p.file: len((ROOT / p.file).read_text(encoding="utf-8").splitlines()) for p in PAGES}
    assert len(sizes) == 8
    assert {file: n for file, n in sizes.items() if n > 150} == {}


# Files that are data written as Python (word tables), not code to read top to bottom.
DATA_TABLES = {"viz_model/corpus/grammar/tables.py"}


def test_no_module_is_a_grab_bag():
    """No module of viz_model or pages over 400 lines, but for the data tables: past that a module holds
    more than one thing, and a newcomer cannot read it at a sitting."""
    files = [*(ROOT / "viz_model").rglob("*.py"), *(ROOT / "pages").rglob("*.py")]
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in files}
    assert len(sizes) > 40 and all(name in sizes for name in DATA_TABLES)
    assert {name: n for name, n in sizes.items() if n > 400 and name not in DATA_TABLES} == {}
