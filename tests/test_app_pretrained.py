"""MiniLM picked in the sidebar (?model=minilm): every page in both languages survives the default, an
English, a Chinese, an empty and a sample of hostile sentences; the numbers on the pages equal transformers'
own output_attentions / hidden states; the URL keeps a stable ?model=minilm; a bad model directory gives
one friendly message. A tiny random BERT (built from a config, no download) runs through the same pages."""

import os

import numpy as np
import pytest

from pages.parts.cache import PRETRAINED_DIR_ENV
from pages.parts.frame import PAGES
from pages.parts.i18n import t
from tests.app_harness import all_text, decode, errors, figure, figures, heatmap_panels, open_app, translator
from tests.hostile_inputs import hostile
from tests.test_pretrained_views import reference, tiny_bert_directory
from viz_model.lessons.pretrained_views import COREFERENCE_SENTENCE, ENGLISH_EXAMPLE
from viz_model.model.pretrained import PretrainedEncoder, minilm_path

PAGE_FILES = [p.file for p in PAGES]
ENGLISH = "The quick brown fox jumps over the lazy dog."
INPUTS = {
    "default": None,
    "english": ENGLISH,
    "chinese": "我看见了一把锯子。",
    "empty": "   ",
    **{h: hostile(h).text for h in ("len_5000", "html_script", "emoji", "markdown", "nul", "fullwidth")},
}


@pytest.fixture(scope="module")
def minilm():
    return PretrainedEncoder.load(minilm_path())


@pytest.fixture
def pretrained_dir():
    """Point the app at another encoder directory for one test."""

    def use(path):
        os.environ[PRETRAINED_DIR_ENV] = str(path)

    yield use
    os.environ.pop(PRETRAINED_DIR_ENV, None)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGE_FILES)
def test_every_page_with_minilm_survives_every_input(page, lang):
    """Opened from a link with MiniLM picked (its default sentence), then each input typed into the sidebar's
    box: one page load, not one a sentence (a load is most of an input's time; the link's own inputs are
    tests/test_hostile_apptest.py's and the browser's)."""
    failures = {}
    at = open_app(page, lang=lang, model="minilm")
    for name, text in INPUTS.items():
        if text is not None:
            at.sidebar.text_input(key="text").set_value(text).run()
        if errors(at):
            failures[name] = errors(at)[0][:300]
            at = open_app(page, lang=lang, model="minilm")
        assert at.session_state["model"] == "minilm"
    assert failures == {}


@pytest.mark.parametrize("text", [ENGLISH, "qwzx blorf 🙂", hostile("html_script").text])
def test_with_minilm_our_translation_is_folded_in_the_sidebar_until_opened(text):
    """MiniLM does not translate: the sidebar folds our translator's output (its model does not run for it)
    and, opened, shows exactly the translation and notices it shows with our model picked."""
    ours = open_app("pages/attention.py", text=text)
    at = open_app("pages/attention.py", text=text, model="minilm")
    assert errors(at) == []
    sidebar_text = [e.value for e in at.sidebar.text]
    expected = translator().translate(text, "en2zh").output_text or "∅"
    assert expected not in sidebar_text and t("app.translation", "en") not in all_text(at)
    assert [e.label for e in at.sidebar.expander][-1] == t("app.translation_ours", "en")
    at.session_state["translation_ours"] = True  # unfold, as a click on the expander does
    at.run()
    assert errors(at) == []
    opened = [e.value for e in at.sidebar.text]
    assert expected in opened and opened == [e.value for e in ours.sidebar.text]
    assert [w.body for w in at.sidebar.warning] == [w.body for w in ours.sidebar.warning]


@pytest.mark.parametrize(
    "page", ["pages/attention.py", "pages/tokens.py", "pages/similarity.py", "pages/step_by_step.py"]
)
def test_a_chinese_sentence_says_minilm_reads_english_with_an_english_example(page):
    at = open_app(page, text="我看见了一把锯子。", direction="zh2en", model="minilm")
    if page == "pages/similarity.py":  # the sentence section is the first one
        assert errors(at) == []
    assert t("pretrained.english_only", "en") in all_text(at)
    at.button(key="pretrained.english_example").click().run()
    assert errors(at) == [] and at.session_state["text"] == ENGLISH_EXAMPLE
    assert t("pretrained.english_only", "en") not in all_text(at)


def test_attention_heads_equal_output_attentions(minilm):
    _, attention, _ = reference(minilm, ENGLISH)
    at = open_app("pages/attention.py", text=ENGLISH, model="minilm")
    at.session_state["mlayer"], at.session_state["mhead"] = 4, 7
    at.run()
    head, mean = heatmap_panels(figure(at, "attention.minilm_heads"))
    np.testing.assert_allclose(head, attention[4, 7], atol=1e-5)
    np.testing.assert_allclose(mean, attention[4].mean(0), atol=1e-5)
    at.toggle(key="hide").set_value(True).run()
    words = slice(1, -1)  # [CLS] first, [SEP] last
    kept = attention[4, 7][words, words]
    np.testing.assert_allclose(
        heatmap_panels(figure(at, "attention.minilm_heads"))[0], kept / kept.sum(-1, keepdims=True), atol=1e-5
    )
    assert at.session_state["hide"] is True and errors(at) == []


def test_the_grid_shows_all_six_by_twelve_heads(minilm):
    _, attention, _ = reference(minilm, ENGLISH)
    at = open_app("pages/attention.py", text=ENGLISH, model="minilm", mview="grid")
    fig = figure(at, "attention.minilm_grid")
    (tiled,) = heatmap_panels(fig)  # one heatmap: 6 × 12 blocks, NaN between them
    S = attention.shape[-1]
    assert tiled.shape == (6 * (S + 1) - 1, 12 * (S + 1) - 1)
    for layer in range(6):
        for head in range(12):
            block = tiled[layer * (S + 1) : layer * (S + 1) + S, head * (S + 1) : head * (S + 1) + S]
            np.testing.assert_allclose(block, attention[layer, head], atol=1e-5)
    assert np.isnan(tiled[S]).all() and np.isnan(tiled[:, S]).all()
    assert fig["data"][0]["y"][S + 1].startswith("L2 · 0:") and fig["data"][0]["x"][S + 1].startswith("H2 · 0:")


def test_side_by_side_on_one_colour_scale(minilm):
    _, attention, _ = reference(minilm, ENGLISH)
    at = open_app("pages/attention.py", text=ENGLISH, model="minilm", mview="side")
    at.session_state["olayer"], at.session_state["ohead"], at.session_state["mlayer"] = 1, 2, 3
    at.run()
    ours_fig, theirs_fig = figure(at, "attention.side_ours"), figure(at, "attention.side_minilm")
    ours = translator().translate(ENGLISH, "en2zh").trace.attention("encoder_self", 1).weights[2]
    np.testing.assert_allclose(heatmap_panels(ours_fig)[0], ours, atol=1e-5)
    np.testing.assert_allclose(heatmap_panels(theirs_fig)[0], attention[3, 0], atol=1e-5)
    top = max(ours.max(), attention[3, 0].max())
    for fig in (ours_fig, theirs_fig):
        assert fig["layout"]["coloraxis"]["cmin"] == 0
        assert fig["layout"]["coloraxis"]["cmax"] == pytest.approx(top, rel=1e-5)


def test_coreference_head_by_head(minilm):
    """With a typed sentence holding no pronoun, the textbook sentence, said so: "it" → the best-ranked heads'
    words, every layer × head, as output_attentions gives them."""
    from viz_model.lessons.pretrained_views import pronoun_heads

    pieces, attention, _ = reference(minilm, COREFERENCE_SENTENCE)
    at = open_app("pages/attention.py", text=ENGLISH, model="minilm", mview="pronoun")
    assert len(at.info) == 1 and COREFERENCE_SENTENCE in at.info[0].value.replace("\\", "")
    panels = heatmap_panels(figure(at, "attention.minilm_coreference"))
    it = pieces.index("it")
    targets = pronoun_heads(minilm.view(COREFERENCE_SENTENCE)).targets(4)
    for panel, f in zip(panels, targets, strict=True):
        np.testing.assert_allclose(panel, attention[:, :, it, pieces.index(f.word)], atol=1e-5)


def test_step_by_step_from_q_and_k_equals_output_attentions(minilm):
    _, attention, _ = reference(minilm, ENGLISH)
    at = open_app("pages/step_by_step.py", text=ENGLISH, model="minilm")
    at.session_state["mlayer"], at.session_state["mhead"], at.session_state["mquery"] = 2, 5, 3
    at.run()
    table = at.dataframe[0].value
    np.testing.assert_allclose(table[t("step.col_weight", "en")].to_numpy(), attention[2, 5, 3], atol=1e-4)
    assert len(at.success) == 1 and errors(at) == []


def test_similarity_vectors_and_apple_contrast(minilm):
    _, _, hidden = reference(minilm, ENGLISH)
    at = open_app("pages/similarity.py", text=ENGLISH, model="minilm")
    at.session_state["vlayer"] = 6
    at.run()
    unit = hidden[6] / np.linalg.norm(hidden[6], axis=-1, keepdims=True)
    np.testing.assert_allclose(heatmap_panels(figure(at, "similarity.minilm_cosine"))[0], unit @ unit.T, atol=1e-4)
    at.session_state["msection"] = "pretrained.tab_apple"
    at.run()
    cosine = decode(figure(at, "similarity.minilm_apple")["data"][0]["y"])
    assert cosine[0] == pytest.approx(1.0, abs=1e-5) and (cosine[1:] < 0.999).all()


def test_positions_are_the_learned_table(minilm):
    at = open_app("pages/positional.py", model="minilm")
    table = heatmap_panels(figure(at, "positional.minilm_table"))[0]
    np.testing.assert_allclose(
        table, minilm.model.embeddings.position_embeddings.weight[:40].detach().numpy(), atol=1e-6
    )
    assert t("pretrained.learned_vs_fixed", "en", d=384)[:40] in all_text(at)
    assert len(figures(at)) == 1  # one section drawn a rerun: the cosine maps wait for their section
    at.session_state["msection"] = "pretrained.tab_position_cosine"
    at.run()
    learned, sinusoid = heatmap_panels(figure(at, "positional.minilm_cosine"))
    rows = minilm.model.embeddings.position_embeddings.weight[:40].detach().numpy().astype(np.float64)
    unit = rows / np.linalg.norm(rows, axis=-1, keepdims=True)
    np.testing.assert_allclose(learned, unit @ unit.T, atol=1e-4)
    # the sinusoid's cosine depends on the distance only: constant along each diagonal
    assert np.allclose(np.diagonal(sinusoid, 3), np.diagonal(sinusoid, 3)[0], atol=1e-4)
    assert len(figures(at)) == 1 and at.query_params["msection"] == "tab_position_cosine"


@pytest.mark.parametrize("page", ["pages/beam_search.py", "pages/metrics.py"])
def test_beam_search_and_metrics_stay_on_our_translator(page):
    at = open_app(page, text=ENGLISH, model="minilm")
    assert errors(at) == []
    section = page.split("/")[1].split(".")[0].replace("_search", "")
    assert t("pretrained.translator_only", "en", page=t(f"{section}.title", "en")) in all_text(at)


def test_the_url_round_trip_of_the_model():
    at = open_app("pages/attention.py", text=ENGLISH, model="minilm")
    assert at.session_state["model"] == "minilm" and at.query_params["model"] == "minilm"
    at.radio(key="model").set_value("translator").run()
    assert "model" not in at.query_params and errors(at) == []
    at.radio(key="model").set_value("minilm").run()
    assert at.query_params["model"] == "minilm"
    at.switch_page("pages/tokens.py").run()  # the sidebar's choice follows the reader
    assert at.session_state["model"] == "minilm" and at.query_params["model"] == "minilm"
    at = open_app("pages/attention.py", text=ENGLISH, lang="zh", model=t("pretrained.model_minilm", "zh"))
    assert at.session_state["model"] == "minilm" and at.query_params["model"] == "minilm"
    at = open_app("pages/attention.py", text=ENGLISH, model="gpt-5")
    assert at.session_state["model"] == "translator" and errors(at) == []


def test_a_bad_model_directory_gives_one_friendly_message(pretrained_dir, tmp_path):
    for path, problem in [(tmp_path / "missing", "no such directory"), (tmp_path, "no config.json")]:
        pretrained_dir(path)
        for page in ("pages/attention.py", "pages/positional.py"):
            at = open_app(page, text=ENGLISH, model="minilm")
            assert errors(at) == [] and len(at.error) == 1
            shown = at.error[0].value.replace("\\", "")  # Markdown escapes taken off
            assert str(path) in shown and problem in shown


def test_a_tiny_random_bert_runs_through_every_page(pretrained_dir, tmp_path):
    pretrained_dir(tiny_bert_directory(tmp_path))
    for page in PAGE_FILES:
        at = open_app(page, text=ENGLISH, model="minilm")
        assert errors(at) == [], page
    at = open_app("pages/attention.py", text=ENGLISH, model="minilm", mview="grid")
    rows, cols = heatmap_panels(figure(at, "attention.minilm_grid"))[0].shape
    assert (rows + 1) * 4 == (cols + 1) * 2  # 2 layers × 4 heads of (S + 1)-wide blocks
