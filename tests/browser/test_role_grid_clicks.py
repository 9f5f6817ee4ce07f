"""The grid of heads by role in a real browser: a click on a square opens that head's heatmap, and the link
says so (view, kind, layer and head), for our model and for MiniLM, in both languages."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t
from tests.browser.harness import CHART_DRAWN

TEXT = "The dog didn't eat the food because it was sick."
# A square's marker in the grid (plotly draws each scatter point as a path.point inside .scatterlayer).
SQUARE = '[data-testid="stPlotlyChart"] .scatterlayer .trace .points path.point'


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "model, view_key, layer_key, head_key", [("ours", "view", "layer", "head"), ("minilm", "mview", "mlayer", "mhead")]
)
def test_a_click_on_a_square_opens_that_head(new_session, lang, model, view_key, layer_key, head_key):
    session = new_session()
    session.open("attention", text=TEXT, dir="en2zh", lang=lang, model=model, **{view_key: "roles"})
    assert session.problems() == [], "\n".join(session.problems())
    squares = session.page.locator(SQUARE)
    assert squares.count() == (12 if model == "ours" else 72)  # one kind's 3 × 4 heads, or MiniLM's 6 × 12
    target = squares.nth(squares.count() // 2 + 1)
    # The square's head and layer (1-based), as plotly holds the point it drew: x = head, y = layer.
    head, layer = target.evaluate("p => [p.__data__.x, p.__data__.y]")
    # As a user clicks: at the square's centre (plotly's drag layer above the points receives the click).
    box = target.bounding_box()
    before = session.runs()
    session.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    session.wait_idle(since_runs=before, effect=f"!location.search.includes('{view_key}=roles')")
    session.page.locator(CHART_DRAWN).first.wait_for(timeout=30_000)
    # The one-head view of that layer and head: its heatmap says so, and the link no longer names the grid.
    title = t("attention.layer_head", lang, layer=layer, h=head)
    assert title in session.page.locator('[data-testid="stPlotlyChart"]').first.inner_text()
    assert parse_qs(urlparse(session.page.url).query).get(view_key, ["heads"]) == ["heads"]
    assert session.problems() == [], "\n".join(session.problems())
