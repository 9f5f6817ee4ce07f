"""The Experiments page: heads switched off (presets, links), every head's importance, word order taken away;
every number equal to the experiment lesson's, which tests/test_experiment.py checks against forward hooks."""

import re

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import errors, figure, heatmap_panels, open_app, translator
from viz_model.lessons.experiments import hard_attention, head_importance, switch_off, word_order
from viz_model.lessons.head_roles import head_roles

PAGE = "pages/experiments.py"
TEXT, DIRECTION = "The animal didn't cross the street because it was too tired.", "en2zh"


def texts(at) -> list[str]:
    return [e.value for e in at.text]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_switching_heads_off_shows_the_changed_model(lang):
    at = open_app(PAGE, text=TEXT, lang=lang, off=["cross.3.1", "cross.3.2"], mode="mean")
    assert errors(at) == []
    assert at.multiselect(key="off").value == ["cross.3.1", "cross.3.2"]
    outcome = switch_off(translator(), TEXT, DIRECTION, [("cross", 2, 0), ("cross", 2, 1)], "mean")
    assert outcome.before.output_text in texts(at) and outcome.after.output_text in texts(at)
    before, after = heatmap_panels(figure(at, "experiments.log_probs"))[0]
    np.testing.assert_allclose(before, outcome.log_probs_before, atol=1e-5)
    np.testing.assert_allclose(after, outcome.log_probs_after, atol=1e-5)
    assert at.query_params["off"] == ["cross.3.1", "cross.3.2"]  # names in the link, not labels


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_parked_preset_picks_the_heads_parked_on_the_tag(lang):
    at = open_app(PAGE, text=TEXT, lang=lang)
    trace = translator().translate(TEXT, DIRECTION).trace
    parked = [f"{r.kind}.{r.layer + 1}.{r.head + 1}" for r in head_roles(trace) if r.rule == "parks_tag"]
    at.button(key="experiments.preset_parked").click().run()
    assert errors(at) == []
    assert at.multiselect(key="off").value == parked


def test_a_link_naming_heads_the_model_lacks_opens_the_default():
    at = open_app(PAGE, text=TEXT, off=["cross.9.9", "nonsense", "encoder_self.1.2"])
    assert errors(at) == []
    assert at.multiselect(key="off").value == ["encoder_self.1.2"]  # the one head the model has


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_opens_on_the_model_as_shipped_with_the_presets_beside(lang):
    """Nothing switched off until asked: before and after are the sidebar's translation, the model not run
    again; a preset then switches its heads off."""
    at = open_app(PAGE, text=TEXT, lang=lang)
    assert errors(at) == [] and at.multiselect(key="off").value == []
    assert at.query_params["off"] in ("none", ["none"])
    assert t("experiments.none_off", lang) in "\n".join(m.value for m in [*at.markdown, *at.caption])
    assert at.multiselect(key="off").label in t("experiments.none_off", lang)  # the note names the control it means
    presenting = open_app(PAGE, text=TEXT, lang=lang, present="true")  # the control is inside Settings then
    shown = "\n".join(m.value for m in [*presenting.markdown, *presenting.caption])
    assert t("experiments.none_off_present", lang) in shown and t("experiments.none_off", lang) not in shown
    assert presenting.multiselect(key="off").label in t("experiments.none_off_present", lang)
    assert at.multiselect(key="off").proto.placeholder == t("common.choose", lang)  # not Streamlit's English
    own = translator().translate(TEXT, DIRECTION).output_text
    shown = "\n".join(m.value for m in at.markdown)
    assert own in texts(at) and t("experiments.after", lang, n=0) not in shown  # no "after" to compare yet
    (panel,) = heatmap_panels(figure(at, "experiments.log_probs"))
    (row,) = panel  # the model's own certainty, one row
    np.testing.assert_allclose(
        row,
        translator().score(TEXT, DIRECTION, translator().translate(TEXT, DIRECTION).output_tokens).log_probs,
        atol=1e-4,
    )
    at.button(key="experiments.preset_encoder_first").click().run()
    assert errors(at) == [] and len(at.multiselect(key="off").value) == translator().config.n_heads
    assert at.get("plotly_chart")  # before and after, token by token


def test_head_importance_equals_one_run_per_head():
    at = open_app(PAGE, text=TEXT, section="tab_importance")
    assert errors(at) == []
    panels = heatmap_panels(figure(at, "experiments.importance"))
    expected = head_importance(translator(), TEXT, DIRECTION, batched=False)
    for shown, kind in zip(panels, ("encoder_self", "decoder_self", "cross")):
        np.testing.assert_allclose(shown[: expected[kind].shape[0]], expected[kind], atol=1e-4)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_word_order_shows_the_permutation_check(lang):
    at = open_app(PAGE, text=TEXT, lang=lang, section="tab_order", seed="3")
    assert errors(at) == []
    check = next(m.value for m in at.markdown if t("experiments.order_check", lang).split("**")[1] in m.value)
    shown = float(re.search(r"\d\.\de[-+]\d+", check).group())
    assert shown < 1e-4  # float precision: the same vectors, permuted
    found = word_order(translator(), TEXT, DIRECTION, seed=3)
    assert shown == pytest.approx(found.largest_difference, rel=0.06)
    assert len(at.table) == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hard_attention_shows_the_row_both_ways_and_the_hard_translation(lang):
    at = open_app(PAGE, text=TEXT, lang=lang, section="tab_hard", hkind="decoder_self", hlayer="3", hhead="2")
    assert errors(at) == []
    query = at.session_state["hquery"]
    found = hard_attention(translator(), TEXT, DIRECTION, "decoder_self", 2, 1, query)
    soft, hard = heatmap_panels(figure(at, "experiments.hard_weights"))[0]
    np.testing.assert_allclose(soft, found.soft_weights, atol=1e-6)
    assert hard.tolist() == found.hard_weights.tolist() and hard.sum() == 1
    assert found.hard.output_text in texts(at)
    assert at.caption and t("experiments.hard_changed" if found.changed else "experiments.hard_same", lang) in [
        c.value for c in at.caption
    ]
