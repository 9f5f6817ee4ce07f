"""Attention heads, "What 'it' attends to" (?view=pronoun / ?mview=pronoun; issue 42 item 6): the typed
sentence's pronoun for both models and both interface languages, the heads ranked by the weight they give one
word (no vote), the heads parked on the direction tag or [CLS]/[SEP], our model's output word translating
"it" with its cross-attention, the textbook sentence only as a fallback said so, and the view kept across a
switch of model."""

import numpy as np
import pytest

from pages.parts.i18n import t
from tests.app_harness import errors, figure, heatmap_panels, open_app, translator
from tests.test_pretrained_views import reference
from viz_model.lessons.coreference import pronoun_attention, translating_token
from viz_model.lessons.pretrained_views import COREFERENCE_SENTENCE, pronoun_heads
from viz_model.model.pretrained import PretrainedEncoder, minilm_path

PAGE = "pages/attention.py"
DOG = "The dog didn't eat the food because it was sick."
SHOWN = 8  # heads named in the ranking


@pytest.fixture(scope="module")
def minilm():
    return PretrainedEncoder.load(minilm_path())


def captions(at) -> list[str]:
    return [c.value.replace("\\", "") for c in at.caption]


def ranked_lines(found, lang: str) -> list[str]:
    return [
        t("attention.pronoun_head", lang, layer=f.layer + 1, h=f.head + 1, word=f.word, weight=f"{f.weight:.2f}")
        for f in found.focus[:SHOWN]
    ]


def assert_ranked_and_parked(at, found, lang: str, sink: str) -> None:
    shown = captions(at)
    ranking = [c for c in shown if all(line in c for line in ranked_lines(found, lang))]
    assert len(ranking) == 1, shown
    # ranked, not counted: no "word × n" votes anywhere
    assert not any(" × " in c for c in shown)
    parked = t("attention.pronoun_parked", lang, word=found.pronoun, parked=found.parked, n=found.n_heads, sink=sink)
    assert parked in shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_our_model_on_the_typed_sentence(lang):
    at = open_app(PAGE, text=DOG, lang=lang, kind="encoder_self", view="pronoun")
    assert errors(at) == [] and at.query_params["view"] == "pronoun"
    trace = translator().translate(DOG, "en2zh").trace
    found = pronoun_attention(trace)
    assert found.pronoun == "it" and trace.source_tokens[found.position] == "it"
    (rows,) = heatmap_panels(figure(at, "attention.pronoun"))
    np.testing.assert_allclose(rows, found.weights.reshape(-1, found.weights.shape[-1]), atol=1e-6)
    assert_ranked_and_parked(at, found, lang, "<2zh>")
    output = translating_token(trace, found.position)
    (cross,) = heatmap_panels(figure(at, "attention.pronoun_output"))
    np.testing.assert_allclose(cross, output.weights.reshape(-1, output.weights.shape[-1]), atol=1e-6)
    opening = t("attention.pronoun_output", lang).split("{")[0]  # the caption's words before its first value
    line = next(c for c in captions(at) if c.startswith(opening) and output.token in c)
    for layer, _, label, weight in output.strongest(found.labels):
        assert t("attention.pronoun_output_layer", lang, layer=layer + 1, word=label, weight=f"{weight:.2f}") in line
    assert not at.info


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_minilm_on_the_typed_sentence(minilm, lang):
    at = open_app(PAGE, text=DOG, lang=lang, model="minilm", mview="pronoun")
    assert errors(at) == [] and not at.info
    pieces, attention, _ = reference(minilm, DOG)
    found = pronoun_heads(minilm.view(DOG))
    it = pieces.index("it")
    np.testing.assert_allclose(found.weights, attention[:, :, it, :], atol=1e-5)
    panels = heatmap_panels(figure(at, "attention.minilm_coreference"))
    targets = found.targets(4)
    assert len(panels) == len(targets) >= 2
    for panel, f in zip(panels, targets):
        np.testing.assert_allclose(panel, attention[:, :, it, pieces.index(f.word)], atol=1e-5)
    assert_ranked_and_parked(at, found, lang, "[CLS]/[SEP]")
    assert "animal" not in " ".join(captions(at))  # the typed sentence, not the textbook one


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_minilm_falls_back_to_the_textbook_sentence_and_says_so(minilm, lang):
    text = "The quick brown fox jumps over the lazy dog."
    at = open_app(PAGE, text=text, lang=lang, model="minilm", mview="pronoun")
    assert errors(at) == []
    fallback = t("pretrained.pronoun_fallback", lang, sentence=COREFERENCE_SENTENCE)
    assert [i.value.replace("\\", "") for i in at.info] == [fallback]
    found = pronoun_heads(minilm.view(COREFERENCE_SENTENCE))
    assert_ranked_and_parked(at, found, lang, "[CLS]/[SEP]")
    button = next(b for b in at.button if b.label == COREFERENCE_SENTENCE)
    button.click().run()
    assert at.query_params["text"] == COREFERENCE_SENTENCE and not at.info


def test_our_model_without_a_pronoun_offers_the_textbook_sentence():
    at = open_app(PAGE, text="I saw a saw.", view="pronoun")
    assert [i.value for i in at.info] == [t("attention.pronoun_none", "en")]
    assert any(b.label == COREFERENCE_SENTENCE for b in at.button)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pronoun_view_survives_a_switch_of_model(lang):
    at = open_app(PAGE, text=DOG, lang=lang, view="pronoun")
    figure(at, "attention.pronoun")
    at.radio(key="model").set_value("minilm").run()
    assert errors(at) == []
    assert at.query_params["view"] == "pronoun" and at.query_params["model"] == "minilm"
    assert at.session_state["mview"] == "pronoun"
    figure(at, "attention.minilm_coreference")  # the page shows what the URL says
    at.radio(key="model").set_value("translator").run()
    assert at.query_params["view"] == "pronoun" and at.session_state["view"] == "pronoun"
    figure(at, "attention.pronoun")
    # leaving the view on MiniLM leaves it for both models
    at.radio(key="model").set_value("minilm").run()
    at.session_state["mview"] = "grid"
    at.run()
    assert "view" not in at.query_params
    figure(at, "attention.minilm_grid")
