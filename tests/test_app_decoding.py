"""The Decoding lab page: teacher forcing beside free running, every strategy, one step's cut distribution; every
number equal to the lab lesson's (tests/test_decoding_lab.py checks those against independent oracles), links
round-trip, and bad settings get a note and a valid fallback."""

from __future__ import annotations

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import errors, markup, markup_grouped_bars, open_app, table, tables, translator
from viz_model.lessons.decoding_lab import compare_forcing, compare_strategies, one_word_changed, step_distribution
from viz_model.model.sampling import SamplingSettings
from viz_model.model.tokenizer import EOS
from viz_model.model.translator import SearchSettings, Translator

PAGE = "pages/decoding.py"
TEXT, DIRECTION = "The little girl put her new red umbrella next to the old wooden door.", "en2zh"


def greedy_words() -> list[str]:
    best = translator().search(TEXT, DIRECTION, SearchSettings(beam_width=1)).hypotheses[0]
    return [tok for tok in best.tokens if tok != EOS]


def steps_opened(at):
    """Unfold "every step at once", as a click on the expander does."""
    at.session_state["decoding.steps_open"] = True
    return at.run()


def texts(at) -> str:
    return "\n".join([e.value for e in at.markdown] + [e.value for e in at.caption] + [e.value for e in at.info])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_teacher_forcing_beside_free_running_shows_the_lessons_numbers(lang):
    at = steps_opened(open_app(PAGE, text=TEXT, lang=lang, ref="changed", step="4"))
    assert errors(at) == []
    own = compare_forcing(translator(), TEXT, DIRECTION, greedy_words())
    changed = one_word_changed(own)
    found = compare_forcing(translator(), TEXT, DIRECTION, changed)
    steps = table(at, "decoding.col_p_reference", lang)
    np.testing.assert_allclose(
        steps[t("decoding.col_p_reference", lang)].to_numpy(dtype=float)[: len(found.forced)],
        [round(s.chosen_prob, 4) for s in found.forced],
    )
    assert list(steps[t("decoding.col_argmax", lang)])[: len(found.free)] == found.free_tokens
    # The link's step (4) is shown: the fourth position's top 5 on each side, the reference's token marked.
    forced_top = tables(at, "decoding.col_candidate", lang)[0]  # the left side: teacher forcing
    shown = forced_top[t("decoding.axis_p", lang)].astype(float).to_numpy()[:5]
    np.testing.assert_allclose(shown, [round(p, 3) for _, p in found.forced[3].top], atol=1e-9)
    marked = [c for c in forced_top[t("decoding.col_candidate", lang)] if c.startswith("➜ ")]
    assert marked == ["➜ " + found.forced[3].chosen]
    rows = t("decoding.row_forced", lang, token=found.forced[3].fed)
    cross = next(el.value for el in at.table if rows in list(el.value.index))  # the step's shaded rows
    assert list(cross.columns) == [f"{i}:{tok}" for i, tok in enumerate(found.source_labels)]
    np.testing.assert_allclose(cross.to_numpy(dtype=float)[0], found.forced[3].cross[-1].mean(0), atol=1e-5)
    np.testing.assert_allclose(cross.to_numpy(dtype=float)[1], found.free[3].cross[-1].mean(0), atol=1e-5)
    body = texts(at)
    assert f"{found.loss.nll:.4f}" in body and f"{found.loss.smoothed:.4f}" in body
    assert t("decoding.diverge", lang, step=found.divergence + 1, argmax="", p_argmax="", reference="", p_reference="")[
        :4
    ] in "\n".join(w.value for w in at.warning)
    assert at.query_params["ref"] == "changed" and at.query_params["step"] == "4"


def test_next_moves_the_step_and_the_link_follows():
    at = open_app(PAGE, text=TEXT, ref="own")
    assert errors(at) == [] and at.success  # the model's own greedy output: the two sides agree everywhere
    assert "step" not in at.query_params
    assert at.button(key="step.next").proto.help == "Next time step"  # a time step, not a page's section
    at.button(key="step.next").click().run()
    assert errors(at) == [] and at.query_params["step"] == "2"
    at.button(key="step.previous").click().run()
    assert "step" not in at.query_params


@pytest.mark.parametrize(
    "reference, note",
    [("", "decoding.ref_problem_empty"), ("The girl put it there.", "decoding.ref_problem_wrong_language")],
)
def test_a_typed_reference_that_cannot_be_used_falls_back_with_a_note(reference, note):
    at = steps_opened(open_app(PAGE, text=TEXT, ref="typed", reftext=reference))
    assert errors(at) == []
    assert t(note, "en") in "\n".join(i.value for i in at.info)
    found = compare_forcing(translator(), TEXT, DIRECTION, greedy_words())
    steps = table(at, "decoding.col_reference")
    assert list(steps[t("decoding.col_reference", "en")])[: len(found.forced)] == [s.chosen for s in found.forced]


def test_a_typed_reference_is_forced():
    at = steps_opened(open_app(PAGE, text=TEXT, ref="typed", reftext="小女孩把她的新红伞放在旧木门旁边。"))
    assert errors(at) == []
    reference = translator().tokenizer.split("小女孩把她的新红伞放在旧木门旁边。")[0]
    found = compare_forcing(translator(), TEXT, DIRECTION, reference)
    steps = table(at, "decoding.col_reference")
    assert list(steps[t("decoding.col_reference", "en")])[: len(found.forced)] == [*reference, EOS]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_strategy_is_listed_as_the_lesson_computes_it(lang):
    reference = "小女孩把她的新红伞放在旧木门旁边。"
    at = open_app(
        PAGE, text=TEXT, lang=lang, section="tab_strategies", temp="0.8", topp="0.9", n="3", seed="7", reftext=reference
    )
    assert errors(at) == []
    found = compare_strategies(translator(), TEXT, DIRECTION, 4, 0.75, SamplingSettings(0.8, 0, 0.9, 3, 7), reference)
    shown = table(at, "decoding.col_output", lang)
    assert list(shown[t("decoding.col_output", lang)]) == [o.text or "∅" for o in found.outputs]
    np.testing.assert_allclose(shown["ln P"].to_numpy(dtype=float), [round(o.log_prob, 3) for o in found.outputs])
    np.testing.assert_allclose(shown["BLEU"].to_numpy(dtype=float), [round(o.bleu, 1) for o in found.outputs])
    # Draw again: the next seed, in the link.
    at.button(key="decoding.resample").click().run()
    assert errors(at) == [] and at.query_params["seed"] == "8"


def test_the_strategies_beam_at_the_sidebars_settings_is_the_sidebars_search(monkeypatch):
    beams = []
    real = Translator.search

    def counted(self, text, direction, settings):
        if settings.beam_width > 1:
            beams.append(settings.beam_width)
        return real(self, text, direction, settings)

    monkeypatch.setattr(Translator, "search", counted)
    text = "My grandmother grows tomatoes and beans in her small garden."  # in no other test: nothing cached
    at = open_app(PAGE, text=text, section="tab_strategies", n="2")
    assert errors(at) == []
    assert beams == []  # the sidebar translated it (Translator.translate); the strategies reused that search
    monkeypatch.undo()
    found = compare_strategies(translator(), text, DIRECTION, 4, 0.75, SamplingSettings(samples=2))
    monkeypatch.setattr(Translator, "search", counted)
    shown = table(at, "decoding.col_output", "en")
    assert list(shown[t("decoding.col_output", "en")]) == [o.text or "∅" for o in found.outputs]
    at.session_state["width"] = 3  # another width: its own search
    at.run()
    assert errors(at) == [] and beams == [3]


def test_top_k_one_says_sampling_is_greedy():
    at = open_app(PAGE, text=TEXT, section="tab_strategies", topk="1")
    assert errors(at) == []
    assert t("decoding.greedy_top_k", "en") in "\n".join(i.value for i in at.info)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_steps_cut_is_the_lessons(lang):
    at = open_app(PAGE, text=TEXT, lang=lang, section="tab_cut", temp="0.8", topk="10", topp="0.9", cstep="3")
    assert errors(at) == []
    path = translator().search(TEXT, DIRECTION, SearchSettings(beam_width=1)).hypotheses[0].tokens
    shown = step_distribution(translator(), TEXT, DIRECTION, path, 2, SamplingSettings(0.8, 10, 0.9))
    css_class, html = markup(at, "decoding.cut")
    tokens, (before, after), cut = markup_grouped_bars(html)
    assert css_class == "decoding-cut" and tokens == shown.tokens
    np.testing.assert_allclose(before, shown.model_probs, atol=1e-6)
    np.testing.assert_allclose(after, shown.final, atol=1e-6)
    assert cut == sum(shown.kept) < len(tokens)  # top-k 10 of the 15 shown: the line under the tenth
    assert t("decoding.bars_final", lang) in html and t("decoding.cut_here", lang) in html
    assert [b.proto.label for b in at.get("download_button")] == [
        t("common.download_svg", lang), t("common.download_csv", lang)
    ]  # fmt: skip


def test_the_cuts_downloads_are_the_figure_of_the_numbers_shown(monkeypatch):
    import pages.parts.widgets as widgets

    built = []
    real = widgets.export_buttons
    monkeypatch.setattr(
        widgets, "export_buttons", lambda key, make, **kw: built.append(make()) or real(key, make, **kw)
    )
    at = open_app(PAGE, text=TEXT, section="tab_cut", topp="0.5", cstep="2")
    assert errors(at) == [] and len(built) == 1
    tokens, (before, after), cut = markup_grouped_bars(markup(at, "decoding.cut")[1])
    bars = built[0].data
    np.testing.assert_allclose(bars[0].y, before, atol=1e-6)
    np.testing.assert_allclose(bars[1].y, after, atol=1e-6)
    assert len(bars[0].x) == len(tokens) and built[0].layout.shapes[0].x0 == cut - 0.5


def test_a_samples_cut_follows_that_sample_and_greedys_draws_none(monkeypatch):
    import viz_model.lessons.decoding_lab as lab

    drawn = []
    real = lab.sample
    monkeypatch.setattr(lab, "sample", lambda *a, **k: drawn.append(a[3]) or real(*a, **k))
    text = "The old fisherman told us a story about the sea."  # in no other test: nothing cached
    at = open_app(PAGE, text=text, section="tab_cut", temp="1.3", n="3", seed="7", cstep="2")
    assert errors(at) == [] and drawn == []  # greedy's path: the sidebar's, no sample drawn
    at.session_state["path"] = "sample2"
    at.run()
    assert errors(at) == [] and len(drawn) == 1 and at.query_params["path"] == "sample2"
    settings = SamplingSettings(1.3, 0, 1.0, 3, 7)
    found = compare_strategies(translator(), text, DIRECTION, 4, 0.75, settings)
    second = next(o.tokens for o in found.outputs if o.strategy == "sample" and o.number == 2)
    shown = step_distribution(translator(), text, DIRECTION, second, 1, settings)
    _, (before, _), _ = markup_grouped_bars(markup(at, "decoding.cut")[1])
    np.testing.assert_allclose(before, shown.model_probs, atol=1e-6)
    assert shown.prefix == [tok for tok in second if tok != EOS][:1]


@pytest.mark.parametrize(
    "params",
    [
        {"temp": "999"},
        {"topk": "99999999"},
        {"topp": "-2"},
        {"cstep": "999", "section": "tab_cut"},
        {"step": "0"},
        {"ref": "nonsense"},
        {"section": "tab_nonsense"},
        {"seed": "abc", "section": "tab_strategies"},
        {"path": "sample99", "section": "tab_cut"},
    ],
)
def test_broken_link_values_fall_back_without_a_traceback(params):
    at = open_app(PAGE, text=TEXT, **params)
    assert errors(at) == []
    assert at.get("plotly_chart") or at.get("bidi_component") or at.table  # the section drew its numbers


@pytest.mark.parametrize("text", ["   ", "🙂🙂", "<script>alert(1)</script>", "x" * 1000])
def test_hostile_sentences(text):
    for section in ("tab_forcing", "tab_strategies", "tab_cut"):
        at = open_app(PAGE, text=text, section=section)
        assert errors(at) == []


def test_beam_search_links_to_the_lab_with_the_sentence():
    at = open_app("pages/beam_search.py", text=TEXT)
    assert errors(at) == []
    links = [link for link in at.get("page_link") if "decoding" in link.proto.page]
    assert links and "The+little+girl" in links[0].proto.query_string or "The%20little" in links[0].proto.query_string


def test_in_presentation_mode_the_cuts_downloads_follow_its_bars_and_then_the_lead():
    at = open_app(PAGE, text=TEXT, section="tab_cut", present="true", cstep="2")
    assert errors(at) == []
    prefix = t("decoding.cut_prefix", "en").split("{")[0]
    order = []
    for node in at.main:
        key = getattr(node, "key", None) or ""
        if node.type == "custom_component" or key == "decoding.cut":
            order.append("bars")
        elif node.type == "download_button" and key.startswith("decoding.cut"):
            order.append("download")
        elif node.type == "markdown" and getattr(node, "value", "").startswith(prefix):
            order.append("lead")
    assert order.index("bars") < order.index("download") < order.index("lead"), order
