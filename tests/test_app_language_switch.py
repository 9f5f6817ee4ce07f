"""A language switch keeps every choice, on screen and in the link (issue 42): a control whose labels are
translated keeps a name, never a label, in the session state and the URL, and still shows its value after
the switch; a switch in a link is kept there, in one spelling.

What the browser shows is read off the element Streamlit sends. The browser keeps a choice as its label
and takes a new one only when the element carries a value (`set_value`): a label of the other language
names none of the new options, and the browser shows nothing chosen (the model picker did)."""

from __future__ import annotations

import pytest

from pages.parts.frame import PAGES
from pages.parts.i18n import t
from tests.app_harness import errors, open_app

pytestmark = pytest.mark.apptest

TEXT = "I saw a saw."
SELECTIONS = ("radio", "selectbox", "multiselect", "button_group", "select_slider")  # button_group: segmented, pills
OTHER = {"en": "zh", "zh": "en"}


def selections(at) -> dict:
    """The page's selection widgets by key, besides the language switch itself."""
    return {w.key: w for kind in SELECTIONS for w in at.get(kind) if w.key and w.key != "lang"}


def labels_of(widget) -> list[str]:
    """The labels of a widget's value (the value as the server holds it, shown in this run's language)."""
    value = widget.value
    values = list(value) if isinstance(value, list | tuple) else [] if value is None else [value]
    return [str(widget.format_func(v)) for v in values]


def options(widget) -> list[str]:
    return [getattr(o, "content", o) for o in widget.proto.options]


def sent(widget) -> list[str] | None:
    """The labels Streamlit sends for the browser to take, None when it sends none."""
    proto = widget.proto
    if not proto.set_value:
        return None
    if hasattr(proto, "raw_values"):
        return list(proto.raw_values)
    return [proto.raw_value] if proto.raw_value else []


def defaults(widget) -> list[str]:
    default = widget.proto.default
    indices = list(default) if not isinstance(default, int) else [default] if widget.proto.HasField("default") else []
    return [options(widget)[i] for i in indices]


def shown(widget, held: list[str] | None = None, held_id: str | None = None) -> list[str]:
    """What the browser shows chosen: the labels Streamlit sends, else the ones it held for this element
    (`held`, drawn as `held_id`), else the element's defaults; only labels that name an option show."""
    given = sent(widget)
    if given is None:
        given = held if held is not None and held_id == widget.id else defaults(widget)
    return [label for label in given if label in options(widget)]


def switch_language(at, to: str):
    at.segmented_control(key="lang").set_value(to).run()
    assert errors(at) == [] and at.session_state["lang"] == to
    return at


def link(at) -> dict:
    return {key: at.query_params[key] for key in at.query_params if key != "lang"}


CASES = [(page.file, model) for page in PAGES for model in ("ours", "minilm")]


@pytest.mark.parametrize("page, model", CASES, ids=[f"{p.rsplit('/', 1)[1][:-3]}-{m}" for p, m in CASES])
def test_a_language_switch_keeps_every_choice_and_the_link(page, model):
    given = {"model": "minilm"} if model == "minilm" else {}
    at = open_app(page, text=TEXT, lang="en", **given)
    assert errors(at) == []
    before = selections(at)
    values = {key: w.value for key, w in before.items()}
    held = {key: (labels_of(w), w.id) for key, w in before.items()}
    url = link(at)
    assert "model" in before and values["model"] == ("minilm" if model == "minilm" else "translator")
    switch_language(at, "zh")
    after = selections(at)
    assert sorted(after) == sorted(before)
    assert {key: w.value for key, w in after.items()} == values
    assert link(at) == url  # the same link, besides its language
    for key, widget in after.items():
        assert shown(widget, *held[key]) == labels_of(widget), f"{key} shows {shown(widget, *held[key])}"
    at.run()  # and it stays so
    assert link(at) == url and {key: w.value for key, w in selections(at).items()} == values


@pytest.mark.parametrize("start", ["en", "zh"])
def test_the_model_picker_shows_the_model_after_a_language_switch(start):
    at = open_app("pages/attention.py", text=TEXT, lang=start, model="minilm")
    picker = at.radio(key="model")
    held = (labels_of(picker), picker.id)
    switch_language(at, OTHER[start])
    assert at.radio(key="model").value == "minilm" and at.query_params["model"] == "minilm"
    assert shown(at.radio(key="model"), *held) == [t("pretrained.model_minilm", OTHER[start])]


def test_a_shared_choice_shows_on_the_next_page_after_a_language_switch_elsewhere():
    at = open_app("pages/attention.py", text=TEXT, lang="en")
    at.selectbox(key="kind").set_value("cross").run()
    held = (labels_of(at.selectbox(key="kind")), at.selectbox(key="kind").id)
    at.switch_page("pages/home.py").run()
    switch_language(at, "zh")
    at.switch_page("pages/step_by_step.py").run()
    assert errors(at) == [] and at.selectbox(key="kind").value == "cross" and at.query_params["kind"] == "cross"
    assert shown(at.selectbox(key="kind"), *held) == [t("attention.kind_cross", "zh")]


def test_the_positional_dimensions_show_after_a_language_switch():
    at = open_app("pages/positional.py", text=TEXT, lang="en")
    dims = at.multiselect(key="positional.dims")
    held = (labels_of(dims), dims.id)
    switch_language(at, "zh")
    dims = at.multiselect(key="positional.dims")
    assert shown(dims, *held) == labels_of(dims)


def test_minilm_vectors_keep_a_layer_number_in_the_link():
    at = open_app("pages/similarity.py", text=TEXT, lang="en", model="minilm")
    vectors = at.segmented_control(key="vlayer")
    assert vectors.value == 0 and shown(vectors) == [t("pretrained.input", "en")]  # a choice shown at first
    assert "vlayer" not in at.query_params  # the default is left out of the link
    vectors.set_value(3).run()
    assert errors(at) == [] and at.session_state["vlayer"] == 3 and at.query_params["vlayer"] == "3"
    held = (labels_of(at.segmented_control(key="vlayer")), at.segmented_control(key="vlayer").id)
    switch_language(at, "zh")
    assert at.session_state["vlayer"] == 3 and at.query_params["vlayer"] == "3"
    assert shown(at.segmented_control(key="vlayer"), *held) == [t("pretrained.after_layer", "zh", layer=3)]
    for made in ("en", "zh"):  # a link made in either language opens on layer 3 in the other
        opened = open_app("pages/similarity.py", text=TEXT, lang=OTHER[made], model="minilm", vlayer="3")
        assert errors(opened) == [] and not opened.toast and opened.session_state["vlayer"] == 3
        old = t("pretrained.after_layer", made, layer=3)  # an old link, with the label
        opened = open_app("pages/similarity.py", text=TEXT, lang=OTHER[made], model="minilm", vlayer=old)
        assert opened.session_state["vlayer"] == 3 and opened.query_params["vlayer"] == "3"


def test_the_tokens_map_keeps_its_dimensions_as_a_number():
    at = open_app("pages/tokens.py", text=TEXT, lang="zh", section="tab_map")
    at.segmented_control(key="dims").set_value(3).run()
    assert errors(at) == [] and at.query_params["dims"] == "3"
    switch_language(at, "en")
    assert at.query_params["dims"] == "3" and shown(at.segmented_control(key="dims"), ["三维"], None) == ["3-D"]


@pytest.mark.parametrize("spelt", ["1", "true", "TRUE", "True"])
def test_a_switch_in_a_link_is_kept_in_one_spelling(spelt):
    at = open_app("pages/attention.py", text=TEXT, present=spelt)
    assert errors(at) == [] and not at.toast
    assert at.session_state["present"] is True and at.toggle(key="present").value is True
    assert at.query_params["present"] == "true"
    at.run()
    assert at.query_params["present"] == "true"
    switch_language(at, "zh")
    assert at.query_params["present"] == "true"


@pytest.mark.parametrize("spelt", ["0", "false", "FALSE"])
def test_a_switch_off_in_a_link_is_the_default_left_out(spelt):
    at = open_app("pages/attention.py", text=TEXT, present=spelt)
    assert errors(at) == [] and not at.toast and at.session_state["present"] is False
    assert "present" not in at.query_params
