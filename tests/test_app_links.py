"""Every view is a link: a page's settings are in the URL under short names, so a URL's parameters set them on
the first run; choices with words for labels keep a stable value there (never the label), so a link made in
one interface language opens in the other; a value that names nothing falls back to the default with a
notice (one test per kind of setting); the settings several pages share (kind, layer, head) carry over when
moving between pages."""

import pytest

from pages.parts.i18n import t
from pages.parts.text import md
from tests.app_harness import errors, open_app, translator

TEXT = "I saw a saw."


def notices(at) -> list[str]:
    return [toast.value for toast in at.toast]


def test_the_urls_parameters_set_the_widgets():
    at = open_app("pages/attention.py", text=TEXT, kind="decoder_self", layer="3", view="compare", heads=["2", "4"])
    assert errors(at) == [] and notices(at) == []
    assert at.session_state["kind"] == "decoder_self"
    assert at.session_state["layer"] == 2
    assert at.session_state["view"] == "compare"
    assert at.multiselect(key="heads").value == [1, 3]
    at = open_app("pages/attention.py", text=TEXT, view="query", qhead="mean", top="2")
    assert errors(at) == [] and at.session_state["qhead"] == "mean" and at.session_state["top"] == 2
    at = open_app("pages/step_by_step.py", text=TEXT, mode="model", head="3", section="tab_block")
    assert errors(at) == [] and at.session_state["head"] == 2
    assert at.session_state["section"] == "step.tab_block"
    at = open_app("pages/beam_search.py", text=TEXT, width="2", alpha="0.5", max_len="12", step="2")
    assert errors(at) == []
    assert (at.session_state["width"], at.session_state["alpha"], at.session_state["max_len"]) == (2, 0.5, 12)
    assert at.session_state["step"] == 2
    at = open_app("pages/metrics.py", text=TEXT, mode="course", present="true")
    assert errors(at) == [] and at.session_state["mode"] == "course" and at.session_state["present"] is True


def test_the_url_holds_stable_names_not_labels():
    at = open_app("pages/attention.py", text=TEXT, lang="zh")
    at.selectbox(key="kind").set_value("cross").run()
    at.button_group(key="view").set_value("query").run()
    at.button_group(key="qhead").set_value("mean").run()
    assert errors(at) == []
    assert (at.query_params["kind"], at.query_params["view"], at.query_params["qhead"]) == ("cross", "query", "mean")
    at = open_app("pages/beam_search.py", text=TEXT, lang="zh")
    at.button_group(key="section").set_value("beam.tab_course").run()
    assert errors(at) == [] and at.query_params["section"] == "tab_course"
    at.button_group(key="section").set_value("beam.tab_sentence").run()
    assert "section" not in at.query_params  # the default is left out of the link


@pytest.mark.parametrize("made, opened", [("en", "zh"), ("zh", "en")])
def test_a_link_made_in_one_language_opens_in_the_other(made, opened):
    at = open_app("pages/attention.py", text=TEXT, lang=made)
    at.selectbox(key="kind").set_value("cross").run()
    at.selectbox(key="layer").set_value(1).run()
    at.button_group(key="view").set_value("query").run()
    link = {key: at.query_params[key] for key in ("kind", "view")} | {"layer": "2"}  # a number: bound
    opened_at = open_app("pages/attention.py", text=TEXT, lang=opened, **link)
    assert errors(opened_at) == [] and notices(opened_at) == []
    assert (opened_at.session_state["kind"], opened_at.session_state["layer"], opened_at.session_state["view"]) == (
        "cross",
        1,
        "query",
    )
    assert opened_at.selectbox(key="kind").proto.options == [
        t(f"attention.kind_{k}", opened) for k in ("encoder_self", "decoder_self", "cross")
    ]


def test_an_old_link_with_labels_in_either_language_still_opens():
    at = open_app(
        "pages/attention.py",
        text=TEXT,
        lang="en",
        kind=t("attention.kind_cross", "zh"),
        view=t("attention.view_grid", "en"),
    )
    assert errors(at) == [] and notices(at) == []
    assert (at.session_state["kind"], at.session_state["view"]) == ("cross", "grid")


# One nonsense value per kind of setting: (page, parameter, value, the key and its default afterwards).
NONSENSE = [
    ("pages/attention.py", "kind", "nonsense", "kind", "encoder_self"),  # select, words
    ("pages/attention.py", "view", "<b>x</b>", "view", "heads"),  # buttons, words
    ("pages/attention.py", "layer", "99", "layer", "opening"),  # select, positions (the opening layer)
    ("pages/attention.py", "head", "-3", "head", 0),  # buttons, numbers
    ("pages/step_by_step.py", "section", "tab_nothing", "section", "step.tab_inputs"),  # sections
    ("pages/beam_search.py", "width", "999", "width", 4),  # slider
    ("pages/beam_search.py", "alpha", "abc", "alpha", None),  # slider, real
    ("pages/positional.py", "len", "1.5", "len", None),  # slider, whole
    ("pages/tokens.py", "section", "tab_embeddings", None, None),  # (a valid one)
    ("pages/metrics.py", "mode", "poetry", "mode", "sentence"),  # buttons, words
    ("pages/home.py", "present", "maybe", "present", False),  # switch
    ("pages/attention.py", "heads", "9", "heads", None),  # multiselect (+view)
    ("pages/attention.py", "top", "0", "top", None),  # number box (+view)
    ("pages/home.py", "dir", "fr2de", "dir", "en2zh"),  # the direction
    ("pages/home.py", "lang", "klingon", "lang", "en"),  # the language
]


@pytest.mark.parametrize("page, param, value, key, default", NONSENSE, ids=[f"{n[1]}={n[2]}" for n in NONSENSE])
def test_nonsense_values_fall_back_to_the_defaults_with_a_notice(page, param, value, key, default):
    given = {"lang": value} if param == "lang" else {"direction": value} if param == "dir" else {param: value}
    if param in ("heads", "top"):  # widgets of one view: that view, and a notice expected
        given["view"] = "compare" if param == "heads" else "query"
    # The sidebar's settings are read on the app's first run (page None: no page switch after it).
    at = open_app(None if page == "pages/home.py" else page, text=TEXT, **given)
    assert errors(at) == []
    shown = notices(at)
    if key is None:  # a valid value: no notice
        assert shown == []
        return
    assert len(shown) == 1 and param in shown[0] and md(value) in shown[0], shown
    if default == "opening":  # the layer pages open on (see test_app_step)
        from pages.parts.state import DEFAULT_TEXT
        from viz_model.lessons.attention_notes import first_layer_without_sink

        default = first_layer_without_sink(translator().translate(DEFAULT_TEXT, "en2zh").trace)
    if default is not None:
        assert at.session_state[key] == default


def test_presentation_mode_from_present_1_or_true():
    for value in ("1", "true"):
        at = open_app("pages/attention.py", text=TEXT, present=value)
        assert errors(at) == [] and notices(at) == [] and at.session_state["present"] is True
        assert at.toggle(key="present").value is True


def test_a_notice_names_the_value_as_text_in_the_interface_language():
    at = open_app("pages/attention.py", text=TEXT, lang="zh", kind="**bold**")
    (shown,) = notices(at)
    assert "无效" in shown and "\\*\\*bold\\*\\*" in shown


def test_shared_settings_carry_over_between_pages():
    at = open_app("pages/attention.py", text=TEXT)
    at.selectbox(key="kind").set_value("cross").run()
    at.selectbox(key="layer").set_value(2).run()
    at.segmented_control(key="head").set_value(3).run()
    at.switch_page("pages/step_by_step.py").run()
    assert errors(at) == []
    assert (at.session_state["kind"], at.session_state["layer"], at.session_state["head"]) == ("cross", 2, 3)
    assert at.selectbox(key="kind").value == "cross" and at.segmented_control(key="head").value == 3
    at.switch_page("pages/similarity.py").run()
    at.segmented_control(key="source").set_value("qk").run()
    assert errors(at) == [] and at.session_state["layer"] == 2 and at.session_state["head"] == 3


@pytest.mark.parametrize("text, implied", [("这本书很好看", "zh2en"), ("This book is good.", "en2zh")])
def test_a_link_without_a_direction_reads_it_from_the_sentence(text, implied):
    """?text=这本书很好看 alone translates Chinese into English (it was read as English and came out as
    nonsense); a link's own dir still wins."""
    at = open_app("pages/attention.py", text=text, direction=None)
    assert errors(at) == [] and at.session_state["dir"] == implied
    other = "en2zh" if implied == "zh2en" else "zh2en"
    assert open_app("pages/attention.py", text=text, direction=other).session_state["dir"] == other
