"""The Decoding lab and the beam node view in a real browser, as a student clicks: Next walks the time steps
and the link follows; Draw again takes the next seed; a click on a tree node (a link) opens it and the link names
it."""

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
def test_a_click_on_a_tree_node_opens_it(new_session, lang):
    session = new_session()
    session.open("beam_search", text=TEXT, dir="en2zh", lang=lang, part="part_node")
    assert session.problems() == [], "\n".join(session.problems())
    nodes = session.page.locator(NODE)
    target = nodes.nth(nodes.count() // 2)
    href = parse_qs(target.get_attribute("href")[1:])
    # Where a student clicks: the node's marker (the link's first shape is its target, centred on it).
    marker = target.locator(":scope > circle, :scope > rect").first
    marker.scroll_into_view_if_needed()
    box = marker.bounding_box()
    with session.page.expect_navigation():
        session.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    session.wait_first_run()
    found = params(session)
    step, rank = found["nstep"], found["nrank"]
    assert [step, rank] == href["nstep"] + href["nrank"] and found["part"] == "part_node" and found["lang"] == lang
    # The node clicked is the one ringed now.
    ringed = session.page.locator(f"{NODE}:has(circle.ring)")
    assert ringed.count() == 1 and parse_qs(ringed.get_attribute("href")[1:])["nstep"] == [step]
    line = t("beam.node_line", lang, step=step, rank=rank, token="", status="", p="", line="", score="")
    head = line.split("**")[1].split(":")[0]  # "Step 9, rank 16" / "第 9 步，第 16 名"
    assert head in session.page.locator('[data-testid="stMain"]').inner_text()
    assert session.problems() == [], "\n".join(session.problems())
