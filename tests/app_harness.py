"""Shared helpers for the AppTest suites (tests/test_app_*.py): which model to run, how to open a page,
and how to read the numbers back out of a plotly chart.

The app runs on the shipped model in assets/model. On a checkout without it, a small random model is
built once in a temporary directory, so the app tests still check that charts equal viz_model's numbers.
"""

from __future__ import annotations

import json
import os
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from pages.parts.i18n import t
from viz_model.figures.export import decoded
from viz_model.model import checkpoint

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
ENV = "ATTENTION_LAB_MODEL_DIR"

# Inputs every page must survive (name -> (text, direction)).
SENTENCES = {
    "course": ("Please buy an apple and an orange.", "en2zh"),
    "ambiguous": ("I saw a saw.", "en2zh"),
    "chinese": ("我看见了一把锯子。", "zh2en"),
    "empty": ("   ", "en2zh"),
    "long": (" ".join(["the cat sat on the mat and"] * 12), "en2zh"),
    "unknown": ("qwzx blorf 🙂", "en2zh"),
    "html": ("<b>bold</b> <script>alert(1)</script> **x** $y$", "en2zh"),
}


def _random_model(directory: Path) -> None:
    import torch

    from viz_model.model.config import ModelConfig
    from viz_model.model.tokenizer import Tokenizer
    from viz_model.model.transformer import Transformer

    english = (
        "please buy an apple and an orange . i saw a the cat sat on mat "
        "bat flew out of cave one plus three equals four b"
    )
    tokenizer = Tokenizer.from_corpus([english.split(), list("我看见了一把锯子。苹果和橙")])
    torch.manual_seed(0)
    config = ModelConfig(
        vocab_size=len(tokenizer), d_model=32, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=64
    )
    card = {
        "name": "random test model",
        "config": config.to_dict(),
        "parameters": 0,
        "vocabulary_size": len(tokenizer),
        "training": {"examples": 0},
    }
    checkpoint.save(Transformer(config).eval(), tokenizer, card, directory)


@cache
def model_dir() -> Path:
    shipped = checkpoint.MODEL_DIR
    if (shipped / checkpoint.CHECKPOINT_FILE).is_file():
        return shipped
    directory = Path(tempfile.mkdtemp(prefix="attention-lab-model-"))
    _random_model(directory)
    return directory


@cache
def translator():
    from viz_model.model.translator import Translator

    return Translator.load(model_dir())


def open_app(
    page: str | None = None, *, text: str | None = None, direction: str | None = "en2zh", lang: str = "en", **params
) -> AppTest:
    """Run app.py with ?text=…&dir=…&lang=… (then switch to `page`, e.g. "pages/attention.py"); direction
    None leaves `dir` out of the link."""
    os.environ[ENV] = str(model_dir())
    at = AppTest.from_file(APP, default_timeout=120)
    if text is not None:
        at.query_params["text"] = text
    if direction is not None:
        at.query_params["dir"] = direction
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    return at


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.exception]


# Widgets bound to the URL have short keys, the URL's parameter names (pages.parts.widgets.URL, SHARED).
SHORT = {
    "kind": "kind",
    "layer": "layer",
    "head": "head",
    "view": "view",
    "compare": "heads",
    "query": "query",
    "query_head": "qhead",
    "top_k": "top",
    "mode": "mode",
    "width": "width",
    "alpha": "alpha",
    "max_len": "max_len",
    "source": "source",
    "step": "step",
}


def set_widgets(at: AppTest, page_prefix: str, /, **state) -> AppTest:
    """Set a page's widgets through session state (a URL-bound widget's short key, else "<prefix>.<name>"),
    rerun, and require no error."""
    for key, value in state.items():
        at.session_state[SHORT.get(key, f"{page_prefix}.{key}")] = value
    at.run()
    assert errors(at) == []
    return at


def open_section(at: AppTest, key: str, label_key: str, lang: str = "en") -> AppTest:
    """Choose, in the sections with widget key `key`, the one labelled by catalogue key `label_key` (only the
    chosen section's content runs, see pages.parts.widgets.sections), rerun, and require no error. The state holds
    the catalogue key in every language; `lang` is the page's interface language, already set."""
    at.session_state[key] = label_key
    at.run()
    assert errors(at) == []
    return at


def tables(at: AppTest, column_key: str, lang: str = "en") -> list:
    """The tables (data grids and plain tables) with a column titled by catalogue key `column_key` in `lang`:
    display tables carry no element key."""
    column = t(column_key, lang)
    return [df.value for df in [*at.dataframe, *at.table] if column in df.value.columns]


def table(at: AppTest, column_key: str, lang: str = "en"):
    """The first of `tables`."""
    return tables(at, column_key, lang)[0]


def chart_keys(at: AppTest) -> list[str]:
    """The keys of the charts drawn, sorted (element ids end with "-<key>")."""
    return sorted(el.proto.id.rsplit("-", 1)[1] for el in at.get("plotly_chart"))


def assert_user_text_escaped(at: AppTest) -> None:
    """Text a user typed reaches the charts only escaped: no raw tag in any chart's spec."""
    for el in at.get("plotly_chart"):
        assert "<b>" not in el.proto.spec and "<script" not in el.proto.spec


def decode(value):
    """A plotly JSON array (plain list or plotly ≥ 6 {dtype, bdata, shape}) as a numpy array."""
    if isinstance(value, dict) and "bdata" in value:
        return decoded(value)
    return np.array(value, dtype=object if value and isinstance(value[0], str) else None)


def figures(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def figure(at: AppTest, key_part: str) -> dict:
    """The chart whose element id (from its key) contains `key_part`."""
    for el in at.get("plotly_chart"):
        if key_part in el.proto.id:
            return json.loads(el.proto.spec)
    raise AssertionError(
        f"no chart with key containing {key_part!r}; ids: {[el.proto.id for el in at.get('plotly_chart')]}"
    )


def markup(at: AppTest, key: str) -> tuple[str, str]:
    """The raw markup `pages.parts.widgets.markup` put in the page under widget key `key`: (CSS class, HTML)."""
    for el in at.get("bidi_component"):
        if el.proto.id.endswith(f"-{key}"):
            data = json.loads(el.proto.json)
            return data["css_class"], data["html"]
    raise AssertionError(f"no markup keyed {key!r}; ids: {[el.proto.id for el in at.get('bidi_component')]}")


def markup_heatmaps(html: str) -> list[np.ndarray]:
    """The matrices of `viz_model.figures.heatmaps_html` markup, one a panel, read from its cells: each
    written weight's full value, NaN where a cell is masked."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(f"<root>{html.split('</style>', 1)[1]}</root>")
    out = []
    for panel in root.iter("figure"):
        grid = panel.find("div[@class='hm-grid']")
        cells = [c for c in grid if c.get("class", "").split()[0] == "x"]
        rows = [c for c in grid if c.get("class") == "r"]
        values = [float("nan") if "m" in c.get("class").split() else float(c.get("data-v")) for c in cells]
        out.append(np.array(values).reshape(len(rows), -1))
    return out


def markup_grouped_bars(html: str) -> tuple[list[str], list[np.ndarray], int | None]:
    """What `viz_model.figures.grouped_bars_html` markup shows: (labels, one array a series, read from each
    value's full value, NaN where it shows none; how many rows stand above the dashed cut line, or None)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(f"<root>{html.split('</style>', 1)[1]}</root>")
    grid = next(d for d in root.iter("div") if d.get("class") == "grouped-bars")
    cells, cut = list(grid), None
    if any(c.get("class") == "cut" for c in cells):
        cut = [c.get("class") for c in cells].index("cut") // 4
    rows = [c for c in cells if c.get("class") != "cut"]
    labels = ["".join(c.itertext()) for c in rows[1::4]]
    values = [[float(span.get("data-v")) for span in c] for c in rows[3::4]]
    return labels, [np.array(column) for column in zip(*values)], cut


def x_title(fig: dict) -> str:
    """A heatmap figure's column title: its x axis's (one panel) or the one written under all its panels."""
    own = fig["layout"]["xaxis"].get("title", {}).get("text")
    if own:
        return own
    (under,) = [a["text"] for a in fig["layout"].get("annotations", []) if a.get("yanchor") == "top"]
    return under


def heatmap_panels(fig: dict) -> list[np.ndarray]:
    """The matrices of a figures.heatmaps chart, panel order (masked overlays skipped)."""
    return [
        decode(tr["z"]).astype(np.float64) for tr in fig["data"] if tr.get("type") == "heatmap" and tr.get("coloraxis")
    ]


def all_text(at: AppTest) -> str:
    """Every visible string of the page, to look for a sentence or a message."""
    parts = []
    for kind in ("markdown", "text", "caption", "info", "warning", "error", "title", "subheader", "code"):
        parts += [str(el.value) for el in at.get(kind)]
    return "\n".join(parts)
