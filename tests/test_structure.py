"""The layout of pages/: the folder holds exactly the page scripts, its helpers live in pages/parts/, and
imports between them run one way, from plain helpers up to page scripts (read from the source, no
Streamlit run)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from pages.parts.frame import PAGES

ROOT = Path(__file__).resolve().parents[1]

# Each helper module's rank: a module imports only modules of a lower rank, so there is no circle and a
# reader can take the modules in this order. Rank 0 is plain text (no Streamlit); the page scripts rank last.
RANK = {
    "pages.parts.text": 0,
    "pages.parts.i18n": 0,
    "pages.parts.gate": 0,
    "pages.parts.serving": 1,
    "pages.parts.frame": 1,
    "pages.parts.cache": 1,
    "pages.parts.state": 2,
    "pages.parts.controls": 3,
    "pages.parts.widgets": 4,
    "pages.parts.model_picker": 4,
    "pages.parts.metrics": 5,
    "pages.parts.minilm": 5,
    "pages.parts.positional": 5,
    "pages.parts.similarity_course": 5,
    "pages.parts.similarity_scoring": 5,
    "pages.parts.step_block": 5,
    "pages.parts.step_by_step": 5,
    "pages.parts.attention": 5,
    "pages.parts.sidebar": 5,
    "pages.parts.beam_search": 6,
    "pages.parts.minilm_attention": 6,
    "pages.parts.step_model": 6,
    "pages.parts.head_roles": 5,
    "pages.parts.experiments": 5,
    "pages.parts.decoding": 5,
    "pages.parts.beam_node": 5,
    "pages.parts.lesson": 5,
    "pages.parts.step_norms": 5,
    "pages.parts.attention_cost": 5,
}
PAGE_RANK = max(RANK.values()) + 1
PLAIN = [name for name, rank in RANK.items() if rank == 0]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def helper_files() -> list[Path]:
    return sorted(p for p in (ROOT / "pages" / "parts").glob("*.py") if p.name != "__init__.py")


def page_files() -> list[Path]:
    return sorted(p for p in (ROOT / "pages").glob("*.py") if p.name != "__init__.py")


def rank_of(name: str) -> int:
    if name in RANK:
        return RANK[name]
    assert (ROOT / (name.replace(".", "/") + ".py")).parent == ROOT / "pages", f"{name} has no rank in RANK"
    return PAGE_RANK


def pages_imports(path: Path) -> list[tuple[str, bool]]:
    """(imported pages.* module, imported at the module's top level) for every import in the file. Both
    branches of a top-level `if __name__ == "__main__":` are top level too (app.py imports its pages when run
    as a page view, its server part when imported by the server)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'":
            top |= {id(child) for child in node.body + node.orelse}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [(name, id(node) in top) for name in names if name == "pages" or name.startswith("pages.")]
    return found


def test_pages_folder_holds_exactly_the_listed_pages():
    assert [p.relative_to(ROOT).as_posix() for p in page_files()] == sorted(p.file for p in PAGES)


def test_every_helper_module_has_a_rank():
    assert sorted(module_name(p) for p in helper_files()) == sorted(RANK)


@pytest.mark.parametrize("path", helper_files() + page_files() + [ROOT / "app.py"], ids=lambda p: p.name)
def test_imports_run_one_way_at_the_top(path):
    """No upward or sideways import between ranks (hence no circle), and no import hidden in a function."""
    own = PAGE_RANK + 1 if path.name == "app.py" else rank_of(module_name(path))
    for imported, at_top in pages_imports(path):
        assert at_top, f"{path.name} imports {imported} inside a function"
        assert rank_of(imported) < own, f"{path.name} (rank {own}) imports {imported} (rank {rank_of(imported)})"


def test_no_page_script_or_module_is_too_long():
    for path in page_files():
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 150, path.name
    for path in [*helper_files(), *ROOT.joinpath("viz_model").rglob("*.py")]:
        if path.parent.name == "grammar" and path.name == "tables.py":  # a data table
            continue
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 400, path


IMPORT_EVERY_ORDER = """
import importlib, random, sys
names = sys.argv[1:]
def forget():
    for name in [m for m in sys.modules if m == "pages" or m.startswith("pages.")]:
        del sys.modules[name]
for name in names:  # each module first in a fresh import of pages.*
    forget()
    importlib.import_module(name)
for seed in range(3):  # and all of them in a few other orders
    forget()
    for name in random.Random(seed).sample(names, len(names)):
        importlib.import_module(name)
"""


def test_every_helper_imports_alone_and_in_any_order():
    """In a fresh interpreter: each helper imported first (a circle shows as an ImportError then), a few
    shuffled orders of all of them, and the plain helpers without Streamlit."""
    plain_first = "\n".join(
        [
            "import importlib, sys",
            *[f"importlib.import_module({name!r})" for name in PLAIN],
            "assert 'streamlit' not in sys.modules, 'a plain helper brings in Streamlit'",
        ]
    )
    for code in (plain_first, IMPORT_EVERY_ORDER):
        result = subprocess.run(
            [sys.executable, "-c", code, *RANK], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr[-2000:]
