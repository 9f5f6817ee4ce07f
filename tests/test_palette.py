"""One colour helper: every colour in every figure the pages draw comes from viz_model.figures.look's palette
(Okabe–Ito colours, their tints, greys, and the two colour scales), so a colour-blind-safe palette holds
everywhere. The figures are taken from the pages as drawn, view by view and section by section."""

import pytest

from tests.app_harness import errors, figures, open_app
from viz_model.figures.look import SIGNED_SCALE, WEIGHT_SCALE, palette

TEXT = "I saw a saw."
# (page, URL parameters): a view or section each, so that every kind of figure is drawn once.
VIEWS = [("pages/home.py", {})]
VIEWS += [("pages/tokens.py", {"section": s}) for s in ("tab_embeddings", "tab_map", "tab_input")]
VIEWS += [("pages/similarity.py", {"section": s}) for s in ("tab_sentence", "tab_scoring", "tab_course")]
VIEWS += [("pages/similarity.py", {"measure": "view_softmax"})]
VIEWS += [("pages/attention.py", {"view": v}) for v in ("heads", "compare", "grid", "query", "pronoun")]
PRONOUN = "The animal didn't cross the street because it was too tired."  # the pronoun view needs one
VIEWS += [
    ("pages/step_by_step.py", {"section": s})
    for s in ("tab_inputs", "tab_projections", "tab_scores", "tab_weighted_sum", "tab_output", "tab_block")
]
VIEWS += [("pages/step_by_step.py", {"mode": m}) for m in ("course", "toy")]
VIEWS += [("pages/positional.py", {"section": s}) for s in ("tab_curves", "tab_table", "tab_similarity")]
VIEWS += [("pages/beam_search.py", {"part": "part_tree"}), ("pages/beam_search.py", {"section": "tab_course"})]
VIEWS += [("pages/metrics.py", {"part": "perplexity"})]  # the other parts draw tables only


def colours(node, path=""):
    """(path, value) of every colour in a figure's JSON: properties named *color*, and colour scales."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "colorscale":
                if isinstance(value, str):
                    yield f"{path}.{key}", value
                else:
                    for _, colour in value:
                        yield f"{path}.{key}", colour
            elif "color" in key.lower() and key not in ("coloraxis", "colorbar"):
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str):
                        yield f"{path}.{key}", item
            else:
                yield from colours(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from colours(item, f"{path}[{i}]")


def test_the_palette_is_safe_and_complete():
    from viz_model.figures.look import SERIES_COLOURS

    assert SERIES_COLOURS[:4] == ("#0072B2", "#E69F00", "#009E73", "#CC79A7")  # Okabe–Ito
    from plotly.colors import get_colorscale

    # one hue; blue–red, written out as plotly.py expands the names (plotly.js's "Blues" is another scale)
    assert get_colorscale("Blues") == WEIGHT_SCALE and get_colorscale("RdBu_r") == SIGNED_SCALE
    assert "#d62728" not in palette() and "#1f77b4" not in palette()  # plotly's red, blue


@pytest.mark.apptest
@pytest.mark.parametrize(
    "page, params", VIEWS, ids=[f"{p.split('/')[-1][:-3]}-{'-'.join(v.values()) or 'main'}" for p, v in VIEWS]
)
def test_every_figure_takes_its_colours_from_the_palette(page, params):
    at = open_app(page, text=PRONOUN if params.get("view") == "pronoun" else TEXT, **params)
    assert errors(at) == []
    drawn = figures(at)
    assert drawn, "no figure in this view"
    allowed = palette()
    foreign = {
        (path, value) for fig in drawn for path, value in colours(fig) if value.lower().replace(" ", "") not in allowed
    }
    assert not foreign, sorted(foreign)[:10]
