"""Beam search page: the tree at step s has one node per candidate the search scored up to s, the step
buttons move it, greedy (k = 1) equals decoding.greedy_search, the hypotheses and BLEU tables equal viz_model,
"what if" forces the chosen token, and the course's toy numbers (0.048 against 0.054, 10^40 against 5×10^5)."""

import json

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import (
    SENTENCES,
    assert_user_text_escaped,
    chart_keys,
    decode,
    errors,
    figure,
    open_app,
    open_section,
    set_widgets,
    table,
    tables,
    translator,
)
from viz_model.lessons.metrics import bleu, metric_tokens
from viz_model.lessons.references import find_reference
from viz_model.model.decoding import greedy_search
from viz_model.model.detokenize import detokenize
from viz_model.model.tokenizer import EOS
from viz_model.model.translator import SearchSettings

# The fixture `at` (tests/conftest.py) opens PAGE on this sentence.
PAGE = "pages/beam_search.py"
TEXT, DIRECTION = "Please buy an apple and an orange.", "en2zh"


def tree_nodes(fig):
    """Ids of the candidate nodes drawn (the root left out)."""
    return [
        i
        for tr in fig["data"]
        if str(tr.get("meta", "")).startswith("nodes:") and tr["meta"] != "nodes:root"
        for i in decode(tr["customdata"]).tolist()
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(SENTENCES))
def test_renders(name, lang):
    text, direction = SENTENCES[name]
    at = open_app(PAGE, text=text, direction=direction, lang=lang)
    assert errors(at) == []
    if name == "empty":
        assert chart_keys(at) == [] and at.info
    else:
        assert chart_keys(at) == ["beam.tree"]
        record = translator().translate(text, direction).record  # the page's defaults: k = 4, α = 0.75
        # the search opens at its first step: its candidates (the root left out)
        assert len(tree_nodes(figure(at, "beam.tree"))) == len(record.steps[0].candidates)
        assert_user_text_escaped(at)
    # The course's toy example is its own section, which runs only when chosen (and needs no sentence).
    open_section(at, "section", "beam.tab_course", lang)
    assert chart_keys(at) == ["beam.toy_tree"]


def settings(at, part="tree", **state):
    """The page's widgets set, on the part (a section inside "Your sentence") that shows what is checked."""
    open_section(at, "part", f"beam.part_{part}")
    return set_widgets(at, "beam", **state)


def test_tree_step_by_step(at):
    settings(at, width=3, alpha=0.5, max_len=12)
    record = (
        translator().translate(TEXT, DIRECTION, SearchSettings(beam_width=3, length_penalty=0.5, max_len=12)).record
    )
    n = len(record.steps)
    assert at.session_state["step"] == 1  # a new search opens at its first step
    assert sorted(tree_nodes(figure(at, "beam.tree"))) == [c.hypothesis for c in record.steps[0].candidates]
    for s in range(1, n + 1):
        at.session_state["step"] = s
        at.run()
        expected = [c.hypothesis for step in record.steps[:s] for c in step.candidates]
        assert sorted(tree_nodes(figure(at, "beam.tree"))) == sorted(expected)
    if n > 1:
        at.button(key="beam.previous").click().run()
        assert at.session_state["step"] == n - 1
        assert len(tree_nodes(figure(at, "beam.tree"))) == sum(len(st.candidates) for st in record.steps[: n - 1])
        at.button(key="beam.next").click().run()
        assert at.session_state["step"] == n
    # the best path is the first hypothesis, drawn with its statuses
    fig = figure(at, "beam.tree")
    best = {c.hypothesis for c in record.best_path_nodes()}
    statuses = {
        i: tr["meta"].split(":")[1]
        for tr in fig["data"]
        if str(tr.get("meta", "")).startswith("nodes:")
        for i in decode(tr["customdata"]).tolist()
    }
    assert all(statuses[c.hypothesis] == c.status for c in record.nodes())
    assert best and all(statuses[i] in ("kept", "finished") for i in best)
    hyps = table(open_section(at, "part", "beam.part_hypotheses"), "beam.col_finished")
    # The table shows 4 decimals; the page's search and this one may differ in the last float32 bit, which
    # can tip a rounding, so compare with the unrounded figures to half a unit in the 4th decimal (+ slack).
    shown_to_4dp = dict(rtol=0, atol=5e-5 + 1e-6)
    np.testing.assert_allclose(hyps[t("beam.col_logp", "en")], [h.log_prob for h in record.hypotheses], **shown_to_4dp)
    np.testing.assert_allclose(hyps[t("beam.col_score", "en")], [h.score for h in record.hypotheses], **shown_to_4dp)
    assert hyps[t("beam.col_length", "en")].tolist() == [h.length for h in record.hypotheses]


def test_greedy_equals_greedy_search(at):
    settings(at, "hypotheses", width=1, alpha=0.75, max_len=translator().config.max_len)
    model = translator()
    source = model.encode(TEXT, DIRECTION)
    greedy = greedy_search(model.model, model.tokenizer, source.ids)
    expected = detokenize(greedy.hypotheses[0].tokens, "zh") or "∅"
    texts = [x.value for x in at.text]
    assert texts.count(expected) >= 3  # the output line, and both columns of "greedy and beam"
    open_section(at, "part", "beam.part_tree")
    at.session_state["step"] = len(greedy.steps)  # the whole tree (it opens at step 1)
    at.run()
    assert sorted(tree_nodes(figure(at, "beam.tree"))) == sorted(c.hypothesis for c in greedy.nodes())


def test_what_if_forces_the_chosen_token(at):
    settings(at, "what_if", width=2, alpha=0.75, max_len=10, whatif_step=0, prefix="")
    record = translator().translate(TEXT, DIRECTION, SearchSettings(beam_width=2, max_len=10)).record
    alternatives = [
        c
        for c in record.steps[0].candidates
        if c.token != EOS and c.hypothesis != record.best_path_nodes()[0].hypothesis
    ]
    assert alternatives, "a beam of two keeps a second first word to force"
    chosen = alternatives[0]
    forced = translator().translate(TEXT, DIRECTION, SearchSettings(beam_width=2, max_len=10, prefix=(chosen.token,)))
    assert forced.output_tokens[0] == chosen.token
    assert (detokenize(forced.record.hypotheses[0].tokens, "zh") or "∅") in [x.value for x in at.text]
    score = translator().score(TEXT, DIRECTION, forced.output_tokens)
    assert any(f"ln P = {score.log_prob:.3f}" in c.value for c in at.caption)


def test_bleu_against_the_corpus_reference(at):
    settings(at, "bleu", width=4, alpha=0.75, max_len=translator().config.max_len)
    reference = find_reference(TEXT, DIRECTION)
    assert reference and at.text_input(key="beam.reference").value == reference
    output = translator().translate(TEXT, DIRECTION).output_tokens
    expected = bleu(output, [metric_tokens(translator().tokenizer, reference)])
    shown = table(at, "metrics.col_fraction")
    assert shown[t("metrics.col_matches", "en")].tolist() == expected.matches
    assert shown[t("metrics.col_total", "en")].tolist() == expected.totals
    assert any(f"BLEU = {expected.score:.4f}" in m.value for m in at.markdown)
    at.text_input(key="beam.reference").input(" ".join(output)).run()  # a typed reference
    assert len(output) >= 4  # a 4-gram to match: the course sentence's ten tokens
    assert any("BLEU = 1.0000" in m.value for m in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_course_toy_example(lang):
    at = open_section(open_app(PAGE, text="", lang=lang), "section", "beam.tab_course", lang)
    results = table(at, "beam.col_product", lang)
    assert results["P"].tolist() == ["0.048", "0.054", "0.054"]
    assert results[t("beam.col_product", lang)].tolist()[:2] == ["0.5 × 0.4 × 0.4 × 0.6", "0.5 × 0.3 × 0.6 × 0.6"]
    line = [m.value for m in at.markdown if m.value.startswith("####")][0]
    assert "0.048" in line and "0.054" in line
    latex = [m.value for m in at.latex]
    assert any("10^{40}" in x for x in latex) and any("5 \\times 10^{5}" in x for x in latex)
    best = [
        n
        for tr in figure(at, "beam.toy_tree")["data"]
        if tr.get("meta") == "nodes:finished"
        for n in decode(tr["customdata"]).tolist()
    ]
    assert best
    at.session_state["beam.toy_width"] = 1
    at.run()
    assert table(at, "beam.col_product", lang)["P"].tolist()[1] == "0.048"


def test_each_part_is_a_section_drawn_only_when_chosen():
    at = open_app(PAGE, text=TEXT, direction=DIRECTION)
    assert chart_keys(at) == ["beam.tree"]  # the search tree opens first …
    assert not tables(at, "beam.col_finished")  # … and only it
    open_section(at, "part", "beam.part_hypotheses")
    assert chart_keys(at) == [] and table(at, "beam.col_finished") is not None
    open_section(at, "part", "beam.part_bleu")
    assert at.text_input(key="beam.reference").value == find_reference(TEXT, DIRECTION)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_step_tables_columns_are_wide_enough_for_what_they_hold(lang):
    # The step table's widths are fixed (measuring every cell cost the browser time on each new sentence), so
    # they must fit their headers, every status, and the vocabulary's longest token (figures.text_width is on
    # the generous side; the grid pads a cell 8 px each side).
    from viz_model.figures import text_width

    at = open_app(PAGE, text=TEXT, direction=DIRECTION, lang=lang)
    at.session_state["beam.step_table_open"] = True  # unfold, as a click on the expander does
    step_table = next(df for df in at.run().dataframe if t("beam.col_status", lang) in df.value.columns)
    widths = {
        name: config["width"]
        for name, config in json.loads(step_table.proto.columns).items()
        if name in step_table.value.columns
    }
    assert list(widths) == list(step_table.value.columns)  # every column has its width
    room = {name: width - 16 for name, width in widths.items()}
    assert all(text_width(name) <= room[name] for name in widths)
    statuses = [t(f"beam.status_{s}", lang) for s in ("kept", "pruned", "finished", "best", "root")]
    assert max(map(text_width, statuses)) <= room[t("beam.col_status", lang)]
    assert max(map(text_width, translator().tokenizer.vocab)) <= room[t("beam.col_token", lang)]
    for column in ("beam.col_p", "beam.col_logp", "beam.col_score"):
        assert max(map(text_width, step_table.value[t(column, lang)].map(str))) <= room[t(column, lang)]


def test_the_step_table_is_folded_and_shows_the_steps_candidates_when_opened():
    at = open_app(PAGE, text=TEXT, direction=DIRECTION)
    assert not tables(at, "beam.col_status")  # folded
    record = translator().translate(TEXT, DIRECTION).record
    at.session_state["beam.step_table_open"] = True  # unfold, as a click on the expander does
    for step in (len(record.steps), 1, 2):  # it stays open as the step moves
        at.session_state["step"] = step
        shown = table(at.run(), "beam.col_status")
        candidates = record.steps[step - 1].candidates
        assert shown[t("beam.col_token", "en")].tolist() == [c.token for c in candidates]
        assert shown[t("beam.col_status", "en")].tolist() == [t(f"beam.status_{c.status}", "en") for c in candidates]
        for column, field in (
            ("beam.col_p", "prob"),
            ("beam.col_logp", "cumulative_log_prob"),
            ("beam.col_score", "score"),
        ):  # 4 decimals shown
            np.testing.assert_allclose(
                shown[t(column, "en")], [getattr(c, field) for c in candidates], rtol=0, atol=5e-5 + 1e-6
            )
        prefixes = [" · ".join(n.token for n in record.path_nodes(c.hypothesis)[:-1]) or "∅" for c in candidates]
        assert shown[t("beam.col_prefix", "en")].tolist() == prefixes


def test_the_default_settings_reuse_the_sidebar_translation(monkeypatch):
    # With the app's own settings the page's search is the sidebar's translation: one beam search, not two.
    # With its own settings the page runs the search alone: it draws no attention, so no trace is made.
    from viz_model.model.translator import DEFAULT_SEARCH, Translator

    calls = []
    for name in ("translate", "search"):
        original = getattr(Translator, name)

        def counted(self, text, direction, settings=DEFAULT_SEARCH, _name=name, _original=original):
            calls.append((_name, settings))
            return _original(self, text, direction, settings)

        monkeypatch.setattr(Translator, name, counted)
    at = open_app(PAGE, text="The teacher will open the black umbrella.", direction=DIRECTION)  # not cached yet
    assert errors(at) == [] and chart_keys(at) == ["beam.tree"]
    assert [name for name, _ in calls] == ["translate"]
    settings(at, width=3)
    assert errors(at) == [] and chart_keys(at) == ["beam.tree"]
    assert [name for name, _ in calls] == ["translate", "search"] and calls[-1][1].beam_width == 3
    # the output shown is the one `translate` gives for these settings
    shown = translator().translate(at.session_state["text"], DIRECTION, calls[-1][1]).output_text
    assert at.main.text[0].value == shown


def test_with_minilm_picked_the_page_runs_the_search_alone(monkeypatch):
    """MiniLM does not translate, so the sidebar has no translation to reuse: the page runs our model's search
    without the trace (which no view of the page draws), and shows what it shows with our model picked."""
    from viz_model.model.translator import DEFAULT_SEARCH, Translator

    text = "The teacher will close the red window."  # not cached yet
    calls = []
    for name in ("translate", "search"):
        original = getattr(Translator, name)

        def counted(self, text, direction, settings=DEFAULT_SEARCH, _name=name, _original=original):
            calls.append(_name)
            return _original(self, text, direction, settings)

        monkeypatch.setattr(Translator, name, counted)
    at = open_app(text=text, direction=DIRECTION, model="minilm")  # Home translates with our model
    calls.clear()
    at.switch_page(PAGE).run()
    assert errors(at) == [] and chart_keys(at) == ["beam.tree"]
    assert calls == ["search"]
    ours = open_app(PAGE, text=text, direction=DIRECTION)
    assert at.main.text[0].value == ours.main.text[0].value == translator().translate(text, DIRECTION).output_text
    assert figure(at, "beam.tree")["data"] == figure(ours, "beam.tree")["data"]


def test_the_page_opens_on_a_sentence_where_beam_and_greedy_differ():
    """Without a sentence in the link, Beam search opens (once a session) on the model's own pick, at step 1;
    a sentence from a link or typed is kept."""
    from viz_model.lessons.search_views import beam_default, contrast

    at = open_app(PAGE)
    pick = beam_default(translator())
    assert errors(at) == []
    assert (at.session_state["text"], at.session_state["dir"]) == (pick.text, pick.direction)
    greedy, beam, _ = contrast(translator(), pick.text, pick.direction)
    assert greedy != beam
    assert at.session_state["step"] == 1
    at = open_app(PAGE, text=TEXT)
    assert errors(at) == [] and at.session_state["text"] == TEXT
    at = open_app("pages/attention.py")  # other pages keep the app's default
    at.switch_page(PAGE).run()
    assert at.session_state["text"] == pick.text  # first visit of Beam search in the session
    at.session_state["text"] = TEXT
    at.run()
    at.switch_page("pages/home.py").run()
    at.switch_page(PAGE).run()
    assert at.session_state["text"] == TEXT  # once a session only
