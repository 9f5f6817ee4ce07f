"""Presentation mode (?present=true, the sidebar's switch): explanations folded, every chart's text at least
16 px, Previous/Next buttons through a page's sections."""

import pytest

from pages.parts.i18n import t
from pages.parts.minilm_attention import VIEWS as MINILM_VIEWS
from tests.app_harness import errors, figures, open_app
from tests.test_figures import _font_sizes

PAGES = [
    "pages/tokens.py",
    "pages/similarity.py",
    "pages/attention.py",
    "pages/step_by_step.py",
    "pages/positional.py",
    "pages/beam_search.py",
    "pages/metrics.py",
]


OPENS_ON_TABLES = {"pages/tokens.py", "pages/metrics.py"}  # the token table, the metric tables


@pytest.mark.parametrize("page", PAGES)
def test_presentation_mode(page):
    at = open_app(page, text="I saw a saw.", present="true")
    assert errors(at) == []
    assert at.session_state["present"] is True
    assert at.toggle(key="present").value is True
    assert not at.expander[0].proto.expanded  # the explanation, folded
    drawn = figures(at)
    if page in OPENS_ON_TABLES:
        assert at.dataframe or at.table, "the page opens on its tables"
    else:
        assert drawn, "the page opens on a chart"
    for fig in drawn:
        assert min(_font_sizes(fig)) >= 16


def test_previous_and_next_move_through_the_sections():
    at = open_app("pages/step_by_step.py", text="I saw a saw.", present="true")
    assert at.session_state["section"] == "step.tab_inputs"
    assert at.button(key="section.next").proto.help == t("common.next_section", "en") == "Next section"
    at.button(key="section.next").click().run()
    assert errors(at) == [] and at.session_state["section"] == "step.tab_projections"
    at.button(key="section.previous").click().run()
    at.button(key="section.previous").click().run()
    assert at.session_state["section"] == "step.tab_block"  # round the end


@pytest.mark.parametrize(
    ("model", "key", "views"),
    [
        ("", "view", ["heads", "roles", "compare", "grid", "query", "pronoun", "cost"]),
        ("minilm", "mview", list(MINILM_VIEWS)),
    ],
)
def test_previous_and_next_move_through_the_attention_views(model, key, views):
    """Attention heads has views, not sections: the same buttons step through them, for either model, and
    the URL follows."""
    params = {"model": model} if model else {}
    at = open_app(
        "pages/attention.py", text="The dog didn't eat the food because it was sick.", present="true", **params
    )
    assert at.session_state[key] == views[0]
    assert at.button(key=f"{key}.next").proto.help == "Next view"  # views, not sections
    assert at.button(key=f"{key}.previous").proto.help == "Previous view"
    at.button(key=f"{key}.next").click().run()
    assert errors(at) == [] and at.session_state[key] == views[1]
    assert at.query_params[key] == views[1]
    at.button(key=f"{key}.previous").click().run()
    at.button(key=f"{key}.previous").click().run()
    assert errors(at) == [] and at.session_state[key] == views[-1]  # round the end


def test_without_presentation_the_explanation_is_open_and_no_section_buttons():
    at = open_app("pages/step_by_step.py", text="I saw a saw.")
    assert at.expander[0].proto.expanded and not at.session_state["present"]
    assert not [b for b in at.button if b.key and b.key.startswith("section.")]
