"""The frame shared by all pages: navigation, URL state, sidebar, languages, bad parameters, broken model."""

import shutil

import pytest

from tests.app_harness import ENV, all_text, errors, model_dir, open_app
from viz_model.model import checkpoint


def test_home_opens_on_the_default_sentence():
    at = open_app()
    assert errors(at) == []
    assert at.session_state["text"] and at.query_params["text"]
    assert len(at.get("plotly_chart")) == 1  # the architecture figure


@pytest.mark.parametrize(
    "page",
    [
        "pages/tokens.py",
        "pages/attention.py",
        "pages/step_by_step.py",
        "pages/similarity.py",
        "pages/positional.py",
        "pages/beam_search.py",
        "pages/metrics.py",
    ],
)
def test_a_page_url_opened_directly_shows_that_sentence(page):
    at = open_app(page, text="I saw a saw.", direction="en2zh", lang="zh")
    assert errors(at) == []
    assert at.session_state["text"] == "I saw a saw."
    assert at.text_input(key="text").value == "I saw a saw."
    assert at.query_params["text"] == "I saw a saw."  # kept in the URL after the page switch


def test_url_direction_and_language_are_used():
    at = open_app(text="我 看见 了", direction="zh2en", lang="zh")
    assert at.radio(key="dir").value == "zh2en"
    assert at.session_state["lang"] == "zh"
    assert "注意力实验室" in all_text(at)


@pytest.mark.parametrize(
    "params",
    [{"dir": "xx", "lang": "klingon"}, {"dir": "", "lang": ""}, {"text": "\x00" * 5 + "x" * 20000, "dir": "EN2ZH"}],
)
def test_nonsense_url_parameters_fall_back_to_defaults(params):
    at = open_app(**{"text": "hello", **params})
    assert errors(at) == []
    assert at.radio(key="dir").value == "en2zh"
    assert at.session_state["lang"] == "en"
    assert len(at.session_state["text"]) <= 1000


def test_example_button_sets_the_sentence_everywhere():
    at = open_app()
    # The examples are folded away at first, and folded content is not drawn (pages.parts.widgets.folded).
    assert not [b for b in at.button if b.key and b.key.startswith("example_")]
    at.session_state["examples"] = True  # unfold, as a click on the expander does
    at.run()
    at.button(key="example_3").click().run()
    from pages.parts.sidebar import EXAMPLES

    assert at.session_state["text"] == EXAMPLES[3][1]
    assert at.query_params["text"] == EXAMPLES[3][1]
    at.switch_page("pages/tokens.py").run()
    assert at.session_state["text"] == EXAMPLES[3][1]


def test_switching_language_translates_the_interface():
    at = open_app(text="an apple phone")
    assert "Attention Lab" in all_text(at)
    at.session_state["lang"] = "zh"
    at.run()
    assert "注意力实验室" in all_text(at)
    assert at.query_params["lang"] == "zh"


def test_unknown_words_are_named_and_html_stays_text():
    at = open_app(text="qwzx <b>bold</b>")
    assert errors(at) == []
    unknown = [w.value for w in at.warning if "“qwzx”" in w.value]
    assert len(unknown) == 1
    warning = unknown[0]
    assert "“qwzx”" in warning
    assert "“\\<”" in warning  # escaped for Markdown: shown, not interpreted
    assert "<b>" not in warning


def test_over_long_text_is_cut_with_a_notice():
    at = open_app(text=" ".join(["apple"] * 80))
    assert errors(at) == []
    assert any("80" in i.value for i in at.info)


def test_blank_text_prompts_instead_of_drawing():
    at = open_app("pages/tokens.py", text="   ")
    assert errors(at) == []


def test_a_broken_checkpoint_shows_one_friendly_error(tmp_path, monkeypatch):
    from pages.parts import cache

    for f in model_dir().iterdir():
        shutil.copy(f, tmp_path / f.name)
    data = (tmp_path / "checkpoint.pt").read_bytes()
    (tmp_path / "checkpoint.pt").write_bytes(data[: len(data) // 3])
    at = open_app()
    monkeypatch.setenv(ENV, str(tmp_path))
    at.run()
    assert errors(at) == []
    assert len(at.error) == 1
    assert "checkpoint.pt" in at.error[0].value
    assert checkpoint.RESTORE_COMMAND in all_text(at)
    cache._load_translator.clear()


def test_chinese_text_suggests_the_other_direction():
    at = open_app(text="我看见了一把锯子。", direction="en2zh")
    assert errors(at) == []
    at.button(key="switch_direction").click().run()
    assert at.session_state["dir"] == "zh2en" and at.query_params["dir"] == "zh2en"
    assert not [b for b in at.button if b.key == "switch_direction"]


def test_a_pages_own_url_parameters_are_kept():
    at = open_app(text="I saw a saw.", beam="3")
    assert at.query_params["beam"] == "3" and at.query_params["text"] == "I saw a saw."


@pytest.mark.parametrize("loader", ["translator", "pretrained", "sentence_index"])
def test_loading_a_model_or_index_freezes_long_lived_objects_out_of_the_per_run_collection(loader):
    # Streamlit runs gc.collect() after every rerun; walking torch's and plotly's objects cost 0.13 s each
    # time, and transformers' (MiniLM picked) as much again.
    import gc

    from pages.parts import cache

    load, cached = {
        "translator": (cache.translator, cache._load_translator),
        "pretrained": (cache.pretrained, cache._load_pretrained),
        "sentence_index": (lambda: cache._sentence_index("en"), cache._sentence_index),
    }[loader]
    cached.clear()
    gc.unfreeze()
    tracked_before = len(gc.get_objects())
    load()
    assert gc.get_freeze_count() >= 0.9 * tracked_before
    assert len(gc.get_objects()) < 0.1 * tracked_before


def test_unknown_words_offer_the_closest_known_sentences_and_low_confidence_is_marked():
    from tests.app_harness import translator

    text = "My qwertyzebra is hungry"
    at = open_app(text=text)
    assert errors(at) == []
    buttons = [b for b in at.button if b.key and b.key.startswith("closest_")]
    assert buttons, "no closest-sentence buttons"
    result = translator().translate(text, "en2zh")
    marked = any("Low confidence" in w.value for w in at.warning)
    assert marked == result.low_confidence
    choice = buttons[0].label
    buttons[0].click().run()
    assert errors(at) == []
    assert at.session_state["text"] == choice
    assert translator().encode(choice, "en2zh").unknown_words == []  # a sentence the model knows
