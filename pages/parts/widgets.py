"""The pieces every page is built from: title and explanation box, sections and folded parts that run only
while shown, the chart element and its heatmap of token vectors, a position picker that stays valid, the
attention selectors, and Markdown escaping for text a user typed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import nullcontext

import numpy as np
import streamlit as st

from pages.parts.cache import translate, translator
from pages.parts.controls import choice, position
from pages.parts.i18n import t
from pages.parts.state import presenting, sentence, tr
from viz_model import figures
from viz_model.figures.export import export_name, figure_csv, figure_svg, has_csv
from viz_model.model.translator import Translation

ROW_PX = 35  # st.dataframe's row height (and its header's)


def whole_table_height(rows: int) -> int:
    """An st.dataframe height that shows every row: by default it shows about ten and scrolls inside itself,
    which hides the end of a longer sentence (its last words and <eos>)."""
    return ROW_PX * (rows + 1) + 3


# Presentation mode on a projector (1280 × 720, or 150 % zoom): a smaller title and less space above it, so
# the chart starts in the upper half of the first screen, and every text of the page at least 20 px.
PRESENTATION_CSS = """<style>
[data-testid="stMainBlockContainer"] { padding-top: 3.75rem; }
[data-testid="stMain"] h1 { font-size: 2.1rem; padding: 0; }
[data-testid="stMain"] [data-testid="stVerticalBlock"] { gap: 0.6rem; }
[data-testid="stMain"] :is([data-testid="stMarkdownContainer"] :is(p, li, td, th), [data-testid="stCaptionContainer"],
  [data-testid="stWidgetLabel"] p, [data-testid="stAlert"] p, [data-testid="stExpander"] summary p,
  [data-testid="stPopover"] button p, [data-testid="stSelectbox"] div,
  [data-testid="stMultiSelect"] span, [data-testid="stTextInput"] input, [data-testid="stTextArea"] textarea,
  [data-testid="stMetricValue"] div, [data-testid="stMetricLabel"] p, [data-testid="stText"]) { font-size: 20px; }
[data-testid="stPopoverBody"] :is([data-testid="stMarkdownContainer"] p, [data-testid="stWidgetLabel"] p) {
  font-size: 20px; }
[data-testid="stMain"] [data-testid="stButtonGroup"] button p { font-size: 20px; }
[data-testid="stMain"] [data-testid="stButtonGroup"] > div:last-child { display: flex; flex-wrap: wrap; row-gap: 4px; }
</style>"""

# The title row's popovers in presentation mode (about, settings), one pair per script run: a script run is
# one thread, so two sessions never see each other's.
_slots = threading.local()


def page_title(section: str, has_settings: bool = True) -> None:
    """The page's title. In presentation mode one row holds the title, the explanation and (`has_settings`)
    the page's settings, each in a popover, so the first screen is the chart's."""
    _slots.about = _slots.settings = None
    _slots.leads = []
    if not presenting():
        st.title(tr(f"{section}.title"))
        return
    st.html(PRESENTATION_CSS)
    title, about, settings = st.columns([5, 2, 2] if has_settings else [5, 2, 0.01], vertical_alignment="center")
    title.title(tr(f"{section}.title"))
    _slots.about = about.popover(tr("common.about_short"), icon=":material/school:", width="stretch")
    if has_settings:
        _slots.settings = settings.popover(tr("common.settings"), icon=":material/tune:", width="stretch")


def lead(text: str, as_caption: bool = True) -> None:
    """A caption (or, `as_caption` False, a paragraph) that introduces the chart below it. In presentation
    mode it follows that chart instead (the next `chart` call draws it), so the chart starts on the first
    screen and the teacher reads it after."""
    if presenting():
        _slots.leads = [*getattr(_slots, "leads", []), (text, as_caption)]
    else:
        (st.caption if as_caption else st.markdown)(text)


def heading(text: str) -> None:
    """A section's heading; none in presentation mode, where the row of section buttons above names it."""
    if not presenting():
        st.subheader(text)


def settings_area():
    """Where a page draws its settings: in place, or in presentation mode in the title row's popover."""
    slot = getattr(_slots, "settings", None) if presenting() else None
    return slot if slot is not None else st.container()


def explanation(section: str) -> None:
    """The page's opening explanation: "<section>.intro" (Markdown) and "<section>.formula" (LaTeX), in a
    box the reader can fold away (in presentation mode, a popover of the title row). Optional
    "<section>.formula2"… add more formulas."""
    slot = getattr(_slots, "about", None) if presenting() else None
    box = slot if slot is not None else st.expander(tr("common.about"), expanded=True, icon=":material/school:")
    with box:
        st.markdown(tr(f"{section}.intro"))
        for suffix in ("formula", "formula2", "formula3"):
            formula = tr(f"{section}.{suffix}")
            if formula != f"{section}.{suffix}":
                st.latex(formula)


def sections(key: str, parts: dict[str, Callable[[], None]]) -> None:
    """A page's sections (catalogue key of the label -> function drawing its content), picked with a row of
    buttons bound to the URL parameter `key`; only the chosen one runs: a hidden section's charts would cost
    a rerun's time and payload for nothing on screen. Choosing another reruns.

    Not st.tabs: its panels (react-aria) watch every change inside them and, on each, walk the panel for a
    focusable element, checking each one's visibility, which makes the browser recompute styles mid-render.
    On Beam search, with a section inside a section, that is a noticeable share of a new sentence's time."""
    names = list(parts)
    # The state and the URL hold the section's catalogue name (its part after the page's prefix, e.g.
    # "part_tree"), never its label: a link opens in either interface language, and a language switch keeps
    # the section.
    kwargs = dict(
        key=key,
        labels=lambda name, language: t(name, language),
        url_text=lambda name: name.split(".", 1)[-1],
        required=True,
        label_visibility="collapsed",
    )
    chosen = choice(slide_row(key, names).segmented_control, tr("common.sections"), names, **kwargs)
    parts.get(chosen, next(iter(parts.values())))()


def slide_row(key: str, names, where=st, always: bool = False, unit: str = "section"):
    """Where a choice among `names` (state key `key`) is drawn: in presentation mode between Previous and
    Next buttons, so a teacher clicks through a page's sections or views like slides; else `where` itself.
    `always`: the buttons in every mode (time steps, which a reader walks through one by one). `unit` names
    what the buttons move through in their tooltips: "section", "view" or "step"."""
    if not (always or presenting()):
        return where
    back, row, forward = where.columns([1, 10, 1], vertical_alignment="center")
    for column, name, arrow, step in ((back, "previous", "back", -1), (forward, "next", "forward", 1)):
        column.button(
            "",
            key=f"{key}.{name}",
            icon=f":material/arrow_{arrow}:",
            help=tr(f"common.{name}_{unit}"),
            on_click=_move_section,
            args=(key, list(names), step),
        )
    return _SlideWidget(row, key, fold=presenting())


def time_step(key: str, n: int, label: str, default: int = 0) -> int:
    """A time step 0..n-1, in the URL as 1..n, on a slider between Previous and Next (in every mode: a reader
    walks through time steps one by one)."""
    return position(slide_row(key, range(n), always=True, unit="step").select_slider, label, n, key, default)


_SHOWN = "_shown.{}"  # session state: the choice a slide row's widget last showed (its key formatted in)


class _SlideWidget:
    """The container between the arrows. Its widget's value is kept as the one shown, for the arrows to step
    from. In presentation mode the widget folds its label (it stays for screen readers): between the arrows
    the choices speak for themselves, and the line a label takes is the chart's on a projector."""

    def __init__(self, where, key: str, fold: bool):
        self._where, self._key, self._fold = where, key, fold

    def __getattr__(self, name: str):
        widget = getattr(self._where, name)

        def draw(*args, **kwargs):
            if self._fold:
                kwargs.setdefault("label_visibility", "collapsed")
            value = widget(*args, **kwargs)
            st.session_state[_SHOWN.format(self._key)] = value
            return value

        return draw


def _move_section(key: str, names: list[str], step: int) -> None:
    """Previous/Next: one step from the choice the page showed. Not from the widget's value in this request:
    under load the browser has been seen to send a select slider's first option, its default, for a slider
    that showed another (Next on the Lesson's step 6 then opened step 2)."""
    state = st.session_state
    shown = state.get(_SHOWN.format(key))
    current = shown if shown in names else state.get(key)
    index = names.index(current) if current in names else 0
    state[key] = names[(index + step) % len(names)]


def folded(label: str, key: str, draw: Callable[[], None]) -> None:
    """An expander, closed at first, whose content runs only while it is open (opening it reruns): content
    nobody has unfolded would cost every rerun its time and payload, and the browser its drawing."""
    box = st.expander(label, key=key, on_change="rerun")
    if box.open:
        with box:
            draw()


def require_sentence() -> tuple[str, str] | None:
    """The current sentence and direction, or None after showing the friendly empty-text prompt."""
    text, direction = sentence()
    if translator().is_empty(text):
        st.info(tr("common.empty_prompt"), icon=":material/keyboard:")
        return None
    return text, direction


def require_translation() -> Translation | None:
    """The current sentence's translation, or None after showing the friendly empty-text prompt."""
    typed = require_sentence()
    return None if typed is None else translate(*typed)


# The one place the app lets raw HTML through: a `viz_model.figures` builder's markup (every text escaped
# there), put in the page by this script, which also reports a click on any `<a data-node>` in it to Python.
# Not st.markdown (React parsed a whole search tree's SVG on every rerun, and its links, full page loads
# that started a new session, had to repeat the page's whole query each), nor st.html (it drops SVG).
_MARKUP_JS = """
export default function ({ data, parentElement, setTriggerValue }) {
  let box = parentElement.querySelector("div[data-markup]");
  if (!box) {
    box = document.createElement("div");
    box.dataset.markup = "";
    parentElement.appendChild(box);
    box.addEventListener("click", (event) => {
      const link = event.target.closest("a[data-node]");
      if (!link) return;
      event.preventDefault();
      box.send("node", Number(link.dataset.node));
    });
  }
  box.send = setTriggerValue;
  box.className = data.css_class;
  if (box.shown !== data.html) {
    box.innerHTML = data.html;
    box.shown = data.html;
  }
}
"""
_markup = st.components.v2.component("attention_lab_markup", js=_MARKUP_JS, isolate_styles=False)


def markup(
    html: str,
    css_class: str,
    key: str,
    on_pick: Callable[[int], None] | None = None,
    where=st,
    export: Callable[[], object] | None = None,
) -> None:
    """Markup a `viz_model.figures` builder wrote, in a `<div class=css_class>`. A click on one of its
    `<a data-node="id">` elements calls `on_pick(id)` before the rerun it starts (a callback: it may set the
    controls that show the node), in the same session. `export`: the plotly figure of the same numbers, for the
    SVG and CSV downloads under it (built only when one is pressed), in the order a chart has them."""

    def picked() -> None:
        node = getattr(st.session_state.get(key), "node", None)
        if on_pick is not None and isinstance(node, int) and not isinstance(node, bool):
            on_pick(node)

    with nullcontext() if where is st else where:
        _markup(key=key, data={"html": html, "css_class": css_class}, on_node_change=picked)
        if export is not None:
            export_buttons(key, export, csv=True)
        _leads_after()


def markup_text_size() -> int:
    """px of the text of a figure drawn as markup: the page's 14, or presentation mode's least size."""
    return figures.PRESENTATION_TEXT if presenting() else 14


def chart(fig, key: str, of_sentence: bool = True, on_select=None) -> None:
    """Draw a plotly figure full width, with a keyed element so Streamlit can reuse it between reruns.

    `of_sentence`: the figure shows the typed sentence, so its downloads are named after it too. A figure
    that never changes with the sentence (the architecture diagram, the course's toy tree) is named by page
    and view alone: the name is part of the chart's plotly config, and a chart whose config changes is
    drawn anew in the browser even when its figure did not (Home's warm rerun on a new sentence took
    0.81× the time with a fixed name, in `tests/bench_browser.py --compare`)."""
    # theme=None: the figures carry their own colours (viz_model.figures' one colour-scale policy).
    # react_ready: Streamlit hands plotly every new figure twice; prepared, the second time costs no drawing.
    if presenting():
        figures.for_presentation(fig)
    # Export for slides: the toolbar's image and the matrices' CSV are named page-view-sentence.
    name = _download_name(key, of_sentence)
    st.plotly_chart(
        figures.react_ready(fig),
        key=key,
        width="stretch",
        theme=None,
        config={
            "displaylogo": False,
            "scrollZoom": False,
            "toImageButtonOptions": {"filename": name, "format": "png", "scale": 2},
        },
        # `on_select`: a callback run when a point is clicked (its selection is in st.session_state[key]).
        **({"on_select": on_select, "selection_mode": "points"} if on_select else {}),
    )
    # PNG from the toolbar (drawn by the browser); SVG and the numbers (matrices or series) as CSV here.
    export_buttons(key, lambda: fig, has_csv(fig), of_sentence)
    _leads_after()


def _leads_after() -> None:
    """Presentation mode: what `lead` held back to introduce the figure just drawn, drawn after it."""
    for text, as_caption in getattr(_slots, "leads", []):
        (st.caption if as_caption else st.markdown)(text)
    _slots.leads = []


def _download_name(key: str, of_sentence: bool) -> str:
    page, _, view = key.partition(".")
    return export_name(page, view, sentence()[0] if of_sentence else "")


def export_buttons(key: str, figure: Callable[[], object], csv: bool, of_sentence: bool = True) -> None:
    """SVG and (`csv`: a figure of matrices or series) CSV downloads of the plotly figure `figure()` returns,
    named page-view-sentence. The figure is built, and the SVG drawn (a headless Chromium: seconds) or the CSV
    written, only when a button is pressed, not on every rerun."""
    name = _download_name(key, of_sentence)
    downloads = [("svg", lambda: figure_svg(figure()), "image/svg+xml", "image")]
    if csv:
        downloads.append(("csv", lambda: figure_csv(figure()), "text/csv", "download"))
    row = st.container(horizontal=True, gap="small")
    for extension, data, mime, icon in downloads:
        row.download_button(
            tr(f"common.download_{extension}"),
            data,
            file_name=f"{name}.{extension}",
            mime=mime,
            key=f"{key}.{extension}",
            on_click="ignore",
            icon=f":material/{icon}:",
            type="tertiary",
        )


def vectors_chart(panels, rows: list[str], value_name: str, key: str, x_title: str | None = None, **options) -> None:
    """Vectors as a heatmap, one row a token and one column a dimension (or `x_title`'s unit): signed colours,
    and the numbers on hover only, as a row holds tens of them. `panels`: one matrix, or several side by side
    (`panel_titles` in `options`, with any other option of figures.heatmaps)."""
    chart(
        figures.heatmaps(
            panels,
            rows,
            [str(j) for j in range(np.shape(panels)[-1])],
            y_title=tr("axis.token_rows"),
            x_title=x_title or tr("axis.dimension"),
            value_name=value_name,
            signed=True,
            show_values=False,
            **options,
        ),
        key=key,
    )


# Which side of the translation each attention kind's rows (queries) and columns (keys) come from.
_AXIS_KEYS = {
    "encoder_self": ("axis.query_source", "axis.key_source"),
    "decoder_self": ("axis.query_target", "axis.key_target"),
    "cross": ("axis.query_target", "axis.key_source"),
}


def axis_titles(kind: str) -> tuple[str, str]:
    """(y title, x title) for an attention matrix: rows are queries, columns keys, always said so."""
    y_key, x_key = _AXIS_KEYS[kind]
    return tr(y_key), tr(x_key)
