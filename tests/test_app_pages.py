"""Every page of this part of the app (Home, Tokens, Attention, Step by step), in both languages, with the
sentences of tests/app_harness.SENTENCES: no exception, the expected charts, the translation visible,
and no user HTML reaching a chart unescaped. The numbers in the charts are checked in
test_app_tokens.py, test_app_attention.py and test_app_step.py."""

import json

import pytest

from tests.app_harness import SENTENCES, errors, open_app, open_section, translator

# page -> {chosen section (catalogue key of its label; None: a page without sections) -> chart keys drawn there}
PAGES = {
    "pages/home.py": {None: ["home.architecture"]},
    "pages/tokens.py": {
        "tokens.tab_tokenization": [],
        "tokens.tab_embeddings": ["tokens.embeddings"],
        "tokens.tab_map": ["tokens.map"],
        "tokens.tab_input": ["tokens.input"],
    },
    "pages/attention.py": {None: ["attention.heads"]},
    "pages/step_by_step.py": {
        "step.tab_inputs": ["step.x"],
        "step.tab_projections": ["step.q", "step.kv"],
        "step.tab_scores": ["step.weights"],
        "step.tab_weighted_sum": ["step.weighted"],
        "step.tab_output": ["step.output"],
    },
}
SECTION_WIDGETS = {"pages/tokens.py": "section", "pages/step_by_step.py": "section"}


def chart_ids(at):
    return [el.proto.id for el in at.get("plotly_chart")]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(SENTENCES))
@pytest.mark.parametrize("page", list(PAGES))
def test_page_renders(page, name, lang):
    text, direction = SENTENCES[name]
    at = open_app(page, text=text, direction=direction, lang=lang)
    assert errors(at) == []
    if name == "empty":
        expected = ["home.architecture"] if page == "pages/home.py" else []
        ids = chart_ids(at)
        assert [k for k in PAGES[page].get(None, []) if any(i.endswith(k) for i in ids)] == expected
        assert len(ids) == len(expected)  # no empty charts
        assert at.info, "blank text should get a friendly prompt"
        return
    result = translator().translate(text, direction)
    row_labels = []  # the charts' y labels, all sections
    for section, keys in PAGES[page].items():
        if section is not None:
            open_section(at, SECTION_WIDGETS[page], section, lang)
        ids = chart_ids(at)
        assert sorted(i.rsplit("-", 1)[1] for i in ids) == sorted(keys), (section, ids)
        assert result.output_text in [t.value for t in at.text]  # the translation is always visible
        if result.source.unknown_words:
            assert at.warning
        if result.source.truncated:
            assert any(str(result.source.original_length) in i.value for i in at.info)
        for el in at.get("plotly_chart"):  # user text only ever escaped in charts
            spec = el.proto.spec
            assert "<b>" not in spec and "<script" not in spec
        row_labels += [trace.get("y") for el in at.get("plotly_chart") for trace in json.loads(el.proto.spec)["data"]]
    if name == "html" and page != "pages/home.py":
        assert "&lt;" in json.dumps(row_labels)  # the sentence's <b>, escaped


def test_home_shows_the_model_card_and_links_to_every_page():
    from pages.parts.frame import PAGES as ALL_PAGES

    at = open_app("pages/home.py", text="I saw a saw.")
    card = translator().card
    table = at.table[0].value
    values = " ".join(str(v) for v in table.iloc[:, 1])
    assert f"{card['parameters']:,}" in values
    assert str(card["config"]["d_model"]) in values
    links = at.get("page_link")
    assert len(links) == len(ALL_PAGES) - 1
    assert all(link.proto.query_string == "text=I+saw+a+saw.&dir=en2zh&lang=en" for link in links)
