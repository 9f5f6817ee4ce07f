"""Any beam-search node opened: its attention against forward hooks on a fresh pass over its prefix, its next
tokens against the probabilities the search itself recorded for the node's children, and the search forced
through it against the model's own continuation. The page shows these (AppTest at the end)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import errors, heatmap_panels, markup, markup_heatmaps, open_app, translator
from tests.test_coreference import cross_attention_by_hooks
from viz_model import figures
from viz_model.lessons.beam_node import continue_from, node_at, node_place, open_node
from viz_model.model.tokenizer import EOS
from viz_model.model.translator import SearchSettings

TEXT, DIRECTION = "The little girl put her new red umbrella next to the old wooden door.", "en2zh"
BEAM = SearchSettings()
SVG = "{http://www.w3.org/2000/svg}"


def record(settings: SearchSettings = BEAM):
    return translator().search(TEXT, DIRECTION, settings)


def test_a_nodes_place_names_it_and_a_stale_place_names_nothing():
    found = record()
    for node in found.nodes()[::7]:
        step, rank = node_place(found, node.hypothesis)
        assert node_at(found, step, rank) is node
    assert node_at(found, len(found.steps), 0) is None and node_at(found, 0, 10_000) is None
    assert node_at(found, -1, 0) is None


@pytest.mark.parametrize("status", ["kept", "pruned", "finished"])
def test_a_nodes_attention_is_a_fresh_pass_over_its_prefix(status):
    found = record()
    node = next(c for c in found.nodes() if c.status == status and c.step >= 2)
    view = open_node(translator(), TEXT, DIRECTION, found, node)
    words = [c.token for c in found.path_nodes(node.hypothesis) if c.token != EOS]
    assert view.path[-1] == node.token and [tok for tok in view.path if tok != EOS] == words
    assert view.trace.target_tokens == ["<bos>", *words]
    hooked = cross_attention_by_hooks(translator(), view.trace)  # (L, H, T, S)
    np.testing.assert_allclose(view.trace.attention_stack("cross"), hooked, atol=1e-5)
    assert view.finished == (status == "finished") and (view.next_top == []) == (status == "finished")


def test_a_nodes_next_tokens_are_the_probabilities_the_search_gave_its_children():
    found = record()
    parent = found.best_path_nodes()[3]
    view = open_node(translator(), TEXT, DIRECTION, found, parent)
    children = [c for c in found.nodes() if c.parent == parent.hypothesis]
    assert children
    shown = dict(view.next_top)
    for child in children:
        if child.token in shown:
            assert shown[child.token] == pytest.approx(child.prob, abs=1e-5)
    # The search's best child of this node is the view's most probable next token.
    best = max(children, key=lambda c: c.prob)
    assert view.next_top[0][0] == best.token


def test_forcing_the_models_own_node_gives_its_own_continuation():
    greedy = record(SearchSettings(beam_width=1))
    for node in greedy.best_path_nodes()[:-1]:
        found = continue_from(translator(), TEXT, DIRECTION, SearchSettings(beam_width=1), greedy, node)
        assert found.forced.tokens == found.own.tokens and found.log_ratio == pytest.approx(0.0, abs=1e-5)
    beam = record()
    own = beam.best_path_nodes()
    found = continue_from(translator(), TEXT, DIRECTION, BEAM, beam, own[-2])
    assert found.forced.tokens == beam.hypotheses[0].tokens


def test_forcing_a_pruned_node_writes_its_path_first_and_scores_it_as_the_model_does():
    beam = record()
    pruned = next(c for c in beam.nodes() if c.status == "pruned" and c.step >= 1)
    found = continue_from(translator(), TEXT, DIRECTION, BEAM, beam, pruned)
    assert found.forced.tokens[: len(found.prefix)] == found.prefix
    words = [tok for tok in found.forced.tokens if tok != EOS]
    assert found.forced.log_prob == pytest.approx(translator().score(TEXT, DIRECTION, words).log_prob, abs=1e-3)
    assert found.log_ratio < 0  # the search had pruned it: the model's own is more probable


def test_a_nodes_attention_downloads_as_the_matrices_it_shows():
    """The view shows its two heatmaps as shaded HTML grids; its downloads are drawn from the plotly figure of
    the same matrices, which must hold the very numbers shown (masked cells empty in both)."""
    found = record()
    view = open_node(translator(), TEXT, DIRECTION, found, found.best_path_nodes()[4])
    labels = dict(titles={"cross": "c", "decoder_self": "s"}, axes={k: ("q", "k") for k in figures.PREFIX_KINDS})
    shown = markup_heatmaps(figures.prefix_attention_html(view.trace, 1, value_name="w", masked_text="m", **labels))
    downloaded = heatmap_panels(json.loads(figures.prefix_attention(view.trace, 1, value_name="w", **labels).to_json()))
    assert len(shown) == len(downloaded) == 2
    for a, b in zip(shown, downloaded):
        np.testing.assert_allclose(a, b, atol=1e-6)  # NaN where masked in both


@pytest.mark.apptest
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_opens_the_linked_node_and_forces_it(lang):
    at = open_app("pages/beam_search.py", text=TEXT, lang=lang, part="part_node", nstep="4", nrank="6", force="true")
    assert errors(at) == []
    found = record()
    node = node_at(found, 3, 5)
    line = t("beam.node_line", lang, step=4, rank=6, token="", status="", p="", line="", score="")[:6]
    assert any(line in m.value and f"{node.prob:.4f}" in m.value for m in at.markdown)
    forced = continue_from(translator(), TEXT, DIRECTION, BEAM, found, node)
    assert any(e.value.startswith(forced.forced.tokens[0]) for e in at.text)
    # Two shaded grids: the last decoder layer's cross- and self-attention of the node's prefix, the cross
    # panel equal to weights recomputed by forward hooks (mean of the heads, as the title says).
    view = open_node(translator(), TEXT, DIRECTION, found, node)
    css_class, shown = markup(at, "beam.node_attention")
    cross, own = markup_heatmaps(shown)
    assert css_class == "beam-attention"
    np.testing.assert_allclose(cross, cross_attention_by_hooks(translator(), view.trace)[-1].mean(0), atol=1e-5)
    expected = view.trace.attention("decoder_self", translator().config.n_decoder_layers - 1).weights.mean(0)
    lower = np.tril(np.ones_like(expected, bool))
    np.testing.assert_allclose(own[lower], expected[lower], atol=1e-5)
    assert np.isnan(own[~lower]).all()
    # Rows are the prefix's tokens, columns the source's and the prefix's, titled in the interface's language.
    panels = ET.fromstring(f"<root>{shown.split('</style>', 1)[1]}</root>").findall(".//figure")
    assert [p.find("figcaption").text for p in panels] == [
        t(f"beam.node_{kind}", lang, layer=translator().config.n_decoder_layers) for kind in ("cross", "decoder_self")
    ]
    heads = [[c.text for c in p.iter("div") if c.get("class", "").split()[:1] == ["c"]] for p in panels]
    assert [len(h) for h in heads] == [len(view.trace.source_labels), len(view.trace.target_tokens)]
    assert heads[1][-1].endswith(view.trace.target_tokens[-1])
    # The same matrices download as the other pages' heatmaps do (SVG and CSV; the figure: a test below).
    downloads = sorted(
        d.proto.id.rsplit("-", 1)[-1] for d in at.get("download_button") if "node_attention" in d.proto.id
    )
    assert downloads == ["beam.node_attention.csv", "beam.node_attention.svg"]
    # Its next tokens as bars: the model's ten most probable, in order, each with its probability written out.
    bars = markup(at, "beam.next")[1]
    shown = ET.fromstring(f"<root>{bars.split('</style>', 1)[1]}</root>")  # title, rows
    cells = [(c.get("class"), c.text) for c in shown.iter("div") if c.get("class") in ("t", "v")]
    assert view.next_top and cells == [c for tok, p in view.next_top for c in (("t", tok), ("v", f"{p:.3f}"))]
    # The whole tree, every node but the root a link the page's script takes (a browser test clicks them),
    # the open node ringed.
    css_class, svg = markup(at, "beam.tree")
    links = list(ET.fromstring(svg).iter(f"{SVG}a"))
    assert css_class == "beam-tree" and len(links) == len(found.nodes())
    assert {int(a.get("data-node")) for a in links} == {n.hypothesis for n in found.nodes()}
    assert all(a.get("href") == f"#node-{a.get('data-node')}" for a in links)
    ringed = [int(a.get("data-node")) for a in links if a.find(f"{SVG}circle[@class='ring']") is not None]
    assert ringed == [node.hypothesis]
    at.session_state["nstep"] = 0
    at.session_state["nrank"] = 0
    at.run()
    assert errors(at) == [] and "nstep" not in at.query_params and "nrank" not in at.query_params


@pytest.mark.apptest
def test_a_node_from_an_outdated_link_falls_back_to_the_first():
    at = open_app("pages/beam_search.py", text=TEXT, part="part_node", nstep="999", nrank="abc")
    assert errors(at) == []
    first = node_at(record(), 0, 0)
    assert any(f"{first.prob:.4f}" in m.value for m in at.markdown)


@pytest.mark.apptest
def test_typed_markup_never_reaches_the_trees_raw_html():
    """The tree and the bars go into the page as raw HTML: a typed sentence's markup never reaches them (the
    tree's texts are tokens, escaped; its links name nodes only)."""
    hostile = 'The cat "><script>alert(1)</script><img src=x onerror=alert(2)> sat.'
    at = open_app("pages/beam_search.py", text=hostile, part="part_node")
    assert errors(at) == []
    svg = markup(at, "beam.tree")[1]
    assert "<script" not in svg and "<img" not in svg
    root = ET.fromstring(svg)
    assert {el.tag.split("}")[1] for el in root.iter()} <= {
        "svg",
        "style",
        "path",
        "circle",
        "rect",
        "polygon",
        "text",
        "a",
        "title",
    }
    assert all(a.get("href") == f"#node-{a.get('data-node')}" for a in root.iter(f"{SVG}a"))
    bars = markup(at, "beam.next")[1]
    assert "<script" not in bars and "<img" not in bars
