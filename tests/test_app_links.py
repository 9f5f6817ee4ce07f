"""Every view is a link: a page's settings are URL-bound widgets (pages.widgets.URL), so a URL's parameters
set them on the first run, nonsense values fall back to the defaults, and the settings several pages share
(kind, layer, head) carry over when moving between pages."""
from pages.i18n import t
from tests.app_harness import errors, open_app

TEXT = "I saw a saw."


def test_the_urls_parameters_set_the_widgets():
    # The URL holds what the widget shows (its label), as Streamlit's binding writes it.
    at = open_app("pages/attention.py", text=TEXT, kind=t("attention.kind_decoder_self", "en"), layer="3",
                  view=t("attention.view_compare", "en"), heads=["2", "4"])
    assert errors(at) == []
    assert at.session_state["kind"] == "decoder_self"
    assert at.session_state["layer"] == 2
    assert at.session_state["view"] == "compare"
    assert at.multiselect(key="heads").value == [1, 3]
    at = open_app("pages/step_by_step.py", text=TEXT, mode=t("step.mode_model", "en"), head="3",
                  section=t("step.tab_block", "en"))
    assert errors(at) == [] and at.session_state["head"] == 2
    assert at.session_state["section"] == t("step.tab_block", "en")
    at = open_app("pages/beam_search.py", text=TEXT, width="2", alpha="0.5", max_len="12", step="2")
    assert errors(at) == []
    assert (at.session_state["width"], at.session_state["alpha"], at.session_state["max_len"]) == (2, 0.5, 12)
    assert at.session_state["step"] == 2


def test_nonsense_values_fall_back_to_the_defaults():
    at = open_app("pages/attention.py", text=TEXT, kind="nonsense", layer="99", view="<b>x</b>", head="-3")
    assert errors(at) == []
    assert at.session_state["kind"] == "encoder_self"
    assert at.session_state["layer"] == 0
    assert at.session_state["view"] == "heads"
    assert at.session_state["head"] == 0
    at = open_app("pages/beam_search.py", text=TEXT, width="999", step="abc")
    assert errors(at) == [] and at.session_state["width"] == 4 and at.session_state["step"] == 1


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
