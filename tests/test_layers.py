"""The layers import one way: pages → figures → lessons → corpus → model; training → lessons, corpus,
model. Each subpackage is imported in a fresh interpreter (every module of it), and what it pulled in is
read from sys.modules, so an import hidden inside a function body or a chain of imports counts too once the
module is loaded."""

import ast
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


# The arrows of docs/architecture.md's diagram: every import between the parts, and no other.
DIAGRAM_ARROWS = {
    ("pages", "figures"),
    ("pages", "lessons"),
    ("pages", "model"),
    ("figures", "lessons"),
    ("lessons", "corpus"),
    ("lessons", "model"),
    ("corpus", "model"),
    ("training", "lessons"),
    ("training", "corpus"),
    ("training", "model"),
}


def imported_parts(path: Path) -> set[str]:
    """The viz_model subpackages a file imports (any import statement, at any depth of the file)."""
    part = path.relative_to(ROOT).parts[1] if path.is_relative_to(ROOT / "viz_model") else None
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:  # from ..model import x
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 1 and part:  # from .tokenizer import x
            found.add(part)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("viz_model."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("viz_model.")}
    return found


def test_the_architecture_diagram_shows_every_import_between_the_parts():
    arrows = set()
    for part in SUBPACKAGES:
        for path in (ROOT / "viz_model" / part).rglob("*.py"):
            arrows |= {(part, other) for other in imported_parts(path) if other != part}
    for path in [ROOT / "app.py", *(ROOT / "pages").rglob("*.py")]:
        arrows |= {("pages", other) for other in imported_parts(path)}
    assert arrows == DIAGRAM_ARROWS
    assert "viz_model/training ──► lessons, corpus, model" in (ROOT / "docs" / "architecture.md").read_text()
