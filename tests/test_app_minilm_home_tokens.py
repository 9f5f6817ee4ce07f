"""With MiniLM picked (?model=minilm), Home and Tokens speak of MiniLM (issue 42, item 11): Home shows its
card, every figure equal to the loaded model's config (MiniLM's, or a tiny random BERT's), says the
translation stays with our model, and leaves out our card; Tokens' "About" box explains WordPiece and
learned positions instead of jieba and √d + PE."""

import pytest

from pages.parts.cache import PRETRAINED_DIR_ENV
from pages.parts.i18n import t
from tests.app_harness import all_text, errors, open_app
from tests.test_pretrained_views import tiny_bert_directory
from viz_model.model.pretrained import PretrainedEncoder, minilm_path

pytestmark = pytest.mark.apptest

LANGS = ["en", "zh"]


@pytest.fixture(scope="module", params=["minilm", "tiny_bert"])
def encoder(request, tmp_path_factory):
    """An encoder directory and the model loaded from it here."""
    if request.param == "minilm":
        directory = minilm_path()
    else:
        directory = tiny_bert_directory(tmp_path_factory.mktemp("tiny-bert"))
    return directory, PretrainedEncoder.load(directory)


@pytest.fixture
def loaded(encoder, monkeypatch):
    """The app pointed at the encoder's directory for one test; the model loaded from it."""
    directory, model = encoder
    monkeypatch.setenv(PRETRAINED_DIR_ENV, str(directory))
    return model


def card(at, lang: str) -> dict[str, str]:
    """The Home page's card table as {property: value}."""
    (table,) = at.table
    frame = table.value
    return dict(zip(frame[t("home.card_property", lang)], frame[t("home.card_value", lang)]))


@pytest.mark.parametrize("lang", LANGS)
def test_home_with_minilm_shows_the_loaded_models_card(loaded, lang):
    at = open_app(text="The quick brown fox jumps over the lazy dog.", lang=lang, model="minilm")
    assert errors(at) == []
    config = loaded.model.config
    shown = card(at, lang)
    assert shown == {
        t("pretrained.card_architecture", lang): "BertModel",
        t("pretrained.card_layers", lang): f"{config.num_hidden_layers:,}",
        t("pretrained.card_heads", lang): f"{config.num_attention_heads:,}",
        t("pretrained.card_hidden", lang): f"{config.hidden_size:,}",
        t("pretrained.card_d_ff", lang): f"{config.intermediate_size:,}",
        t("pretrained.card_parameters", lang): f"{sum(p.numel() for p in loaded.model.parameters()):,}",
        t("pretrained.card_tokenizer", lang): "WordPiece",
        t("pretrained.card_vocabulary", lang): f"{config.vocab_size:,}",
        t("pretrained.card_max_len", lang): f"{config.max_position_embeddings:,}",
    }
    text = all_text(at)
    headings = [s.value for s in at.subheader]
    assert t("pretrained.card_title", lang) in headings and t("home.card", lang) not in headings
    assert t("home.card_bleu_en2zh", lang) not in shown and t("home.card_training", lang) not in shown
    assert t("pretrained.home_translation_ours", lang) in text
    assert t("pretrained.home_architecture", lang, layers=config.num_hidden_layers) in text


@pytest.mark.parametrize("lang", LANGS)
def test_home_with_our_translator_shows_our_card(lang):
    at = open_app(text="I saw a saw.", lang=lang)
    assert errors(at) == []
    shown = card(at, lang)
    assert t("home.card_bleu_en2zh", lang) in shown and t("pretrained.card_tokenizer", lang) not in shown
    text = all_text(at)
    headings = [s.value for s in at.subheader]
    assert t("home.card", lang) in headings and t("pretrained.card_title", lang) not in headings
    assert t("pretrained.home_translation_ours", lang) not in text


def test_home_with_a_broken_model_directory_shows_one_message_and_no_card(tmp_path, monkeypatch):
    monkeypatch.setenv(PRETRAINED_DIR_ENV, str(tmp_path))  # an empty directory: no config.json
    at = open_app(text="I saw a saw.", model="minilm")
    assert errors(at) == []
    assert len(at.error) == 1 and t("pretrained.error_title", "en") in at.error[0].value
    assert not at.table


def explanation(at) -> tuple[str, list[str]]:
    """The "About" box's text and formulas."""
    (box,) = [e for e in at.expander if e.label == t("common.about", at.session_state["lang"])]
    return "\n".join(m.value for m in box.markdown), [f.value for f in box.latex]


@pytest.mark.parametrize("lang", LANGS)
def test_tokens_explanation_follows_the_picked_model(lang, monkeypatch):
    monkeypatch.delenv(PRETRAINED_DIR_ENV, raising=False)  # MiniLM itself
    text = "The quick brown fox jumps over the lazy dog."
    ours = open_app("pages/tokens.py", text=text, lang=lang)
    minilm = open_app("pages/tokens.py", text=text, lang=lang, model="minilm")
    assert errors(ours) == [] and errors(minilm) == []
    ours_text, ours_formulas = explanation(ours)
    minilm_text, minilm_formulas = explanation(minilm)
    assert ours_text == t("tokens.intro", lang) and minilm_text == t("tokens.minilm.intro", lang)
    assert ours_text != minilm_text and ours_formulas != minilm_formulas
    assert "jieba" in ours_text and "jieba" not in minilm_text
    assert all(word in minilm_text for word in ("WordPiece", "[CLS]", "[SEP]", "LayerNorm"))
    assert "sqrt" in ours_formulas[0] and "sqrt" not in minilm_formulas[0]
    assert all(part in minilm_formulas[0] for part in ("LayerNorm", "pos", "type"))
