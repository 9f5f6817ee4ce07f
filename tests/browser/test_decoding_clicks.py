"""The Decoding lab and the beam node view in a real browser, as a student clicks: Next walks the time steps
and the link follows; Draw again takes the next seed; a click on a tree node opens it in the same session and
the link names it."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from pages.parts.i18n import t

TEXT = "The little girl put her new red umbrella next to the old wooden door."
NODE = ".beam-tree svg a"


def params(session) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(session.page.url).query).items()}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_next_walks_the_time_steps_and_the_link_follows(new_session, lang):
    session = new_session()
    session.open("decoding", text=TEXT, dir="en2zh", lang=lang, ref="changed")
    assert session.problems() == [], "\n".join(session.problems())
    # It opens on the first step where the two sides part (the default: not in the link).
    start = int(session.page.locator('.st-key-step [data-testid="stSliderThumbValue"]').inner_text())
    assert start > 1 and "step" not in params(session)
    following = session.page.locator(".st-key-step-next button").first
    for expected in (start + 1, start + 2):
        session.click_and_wait(following, effect=f"new URLSearchParams(location.search).get('step') === '{expected}'")
        assert params(session)["step"] == str(expected)
    # The steps table marks where the two sides part; the loss is written out with its sum.
    body = session.page.locator('[data-testid="stMain"]').inner_text()
    assert re.search(r"−\(ln 0\.\d+ \+ ln", body)
    strategies = session.page.locator("[data-testid='stButtonGroup'] button").filter(
        has_text=t("decoding.tab_strategies", lang)
    )
    session.click_and_wait(strategies, effect="location.search.includes('section=tab_strategies')")
    again = session.page.locator(".st-key-decoding-resample button").first
    session.click_and_wait(again, effect="new URLSearchParams(location.search).get('seed') === '1'")
    assert params(session)["seed"] == "1"
    assert session.problems() == [], "\n".join(session.problems())


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_click_on_a_tree_node_opens_it(new_session, lang, translator):
    """A click on a node opens it in the same session (no page load: a mark left on the window survives),
    the step and rank controls and the link name it, and the link opened anew rings the same node."""
    from viz_model.lessons.beam_node import node_place

    session = new_session()
    session.open("beam_search", text=TEXT, dir="en2zh", lang=lang, part="part_node")
    assert session.problems() == [], "\n".join(session.problems())
    nodes = session.page.locator(NODE)
    target = nodes.nth(nodes.count() // 2)
    node = int(target.get_attribute("data-node"))
    step, rank = (i + 1 for i in node_place(translator.search(TEXT, "en2zh"), node))
    # Where a student clicks: the node's marker (the link's first shape is its target, centred on it).
    marker = target.locator(":scope > circle, :scope > rect").first
    marker.scroll_into_view_if_needed()
    box = marker.bounding_box()
    session.page.evaluate("window.stillHere = true")
    before = session.runs()
    session.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    query = "new URLSearchParams(location.search)"
    opened_js = f"(q => q.get('nstep') === '{step}' && q.get('nrank') === '{rank}')({query})"
    session.wait_idle(since_runs=before, effect=opened_js)
    assert session.page.evaluate("window.stillHere === true"), "the click loaded the page anew"
    found = params(session)
    assert [found["nstep"], found["nrank"]] == [str(step), str(rank)]
    assert found["part"] == "part_node" and found["lang"] == lang and found["text"] == TEXT
    line = t("beam.node_line", lang, step=step, rank=rank, token="", status="", p="", line="", score="")
    head = line.split("**")[1].split(":")[0]  # "Step 9, rank 16" / "第 9 步，第 16 名"
    for opened in (session, new_session()):  # this session, then its link in a new one
        if opened is not session:
            opened.page.goto(session.page.url)
            opened.wait_first_run()
        ringed = opened.page.locator(f"{NODE}:has(circle.ring)")
        assert ringed.count() == 1 and ringed.get_attribute("data-node") == str(node)
        assert head in opened.page.locator('[data-testid="stMain"]').inner_text()
        assert opened.problems() == [], "\n".join(opened.problems())
