"""Metrics page: BLEU's clipped counts, p_n, BP and score, ROUGE-N recalls and perplexities equal
viz_model.lessons.metrics on the user's pair; the course example gives p1 = 4/5, p2 = 3/4, p3 = 1/3, p4 = 0."""

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
    table,
    tables,
    translator,
)
from viz_model.lessons.metrics import bleu, metric_tokens, perplexity, rouge_n
from viz_model.lessons.references import find_reference

# The fixture `at` (tests/conftest.py) opens PAGE on this sentence.
PAGE = "pages/metrics.py"
TEXT, DIRECTION = "I saw a saw.", "en2zh"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(SENTENCES))
def test_renders(name, lang):
    text, direction = SENTENCES[name]
    at = open_app(PAGE, text=text, direction=direction, lang=lang)
    assert errors(at) == []
    if name == "empty":
        assert chart_keys(at) == [] and at.info
        return
    result = translator().translate(text, direction)
    reference = find_reference(text, direction)
    assert at.text_input(key="metrics.candidate").value == result.output_text
    # BLEU first, one metric per section, and only the chosen one is drawn: no chart until perplexity is opened.
    assert chart_keys(at) == []
    assert len(tables(at, "metrics.col_precision", lang)) == (1 if reference else 0)
    assert bool(at.info) == (not reference)  # no reference: a prompt instead of BLEU
    open_section(at, "part", "metrics.perplexity", lang)
    expected = ["metrics.ppl_candidate"] if result.output_tokens else []
    assert chart_keys(at) == sorted(expected + (["metrics.ppl_reference"] if reference else []))
    assert not tables(at, "metrics.col_precision", lang)
    assert_user_text_escaped(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_course_example_is_one_click_away(lang):
    at = open_app(PAGE, text="", lang=lang)
    at.session_state["mode"] = "course"
    at.run()
    assert errors(at) == []
    shown = table(at, "metrics.col_fraction", lang)
    assert shown[t("metrics.col_fraction", lang)].tolist() == ["4/5", "3/4", "1/3", "0/2"]
    np.testing.assert_allclose(shown[t("metrics.col_precision", lang)], [0.8, 0.75, 0.3333, 0])
    assert any("e^{1 - 6/5} = 0.8187" in x.value for x in at.latex)
    assert any("BLEU = 0.0000" in m.value for m in at.markdown)
    open_section(at, "cpart", "metrics.rouge", lang)
    rouge = table(at, "metrics.col_recall", lang)
    assert rouge[t("metrics.col_fraction", lang)].tolist() == ["4/6", "3/5", "1/4", "0/3"]


def test_numbers_on_the_users_pair(at):
    model = translator()
    result = model.translate(TEXT, DIRECTION)
    reference_text = find_reference(TEXT, DIRECTION)
    assert at.text_input(key="ref").value == reference_text
    candidate, reference = result.output_tokens, metric_tokens(model.tokenizer, reference_text)
    expected = bleu(candidate, [reference])
    shown = table(at, "metrics.col_precision")
    assert shown[t("metrics.col_matches", "en")].tolist() == expected.matches
    np.testing.assert_allclose(shown[t("metrics.col_precision", "en")], np.round(expected.precisions, 4))
    assert any(f"BLEU = {expected.score:.4f}" in m.value for m in at.markdown)
    open_section(at, "part", "metrics.rouge")
    recalls = table(at, "metrics.col_recall")[t("metrics.col_recall", "en")].tolist()
    np.testing.assert_allclose(recalls, [round(rouge_n(candidate, [reference], n).recall, 4) for n in range(1, 5)])
    open_section(at, "part", "metrics.perplexity")
    for key, tokens in (("metrics.ppl_candidate", candidate), ("metrics.ppl_reference", reference)):
        scored = model.score(TEXT, DIRECTION, tokens)
        bars = figure(at, key)["data"][0]
        np.testing.assert_allclose(decode(bars["y"]), scored.probs, rtol=1e-5)
        ppl = perplexity(scored.log_probs, base=2).perplexity
        assert any(f"= {ppl:.3f}" in x.value for x in at.latex)
    open_section(at, "part", "metrics.bleu")  # the next test edits and reads BLEU


def test_editing_the_candidate(at):
    reference_text = find_reference(TEXT, DIRECTION)
    at.text_input(key="metrics.candidate").input(reference_text).run()
    assert errors(at) == []
    assert any("BLEU = 1.0000" in m.value for m in at.markdown)
    at.text_input(key="ref").input("").run()
    assert errors(at) == [] and at.info  # no reference: a prompt instead of BLEU


def test_ngram_tables_are_drawn_when_unfolded():
    at = open_app(PAGE, text="", lang="en")
    at.session_state["mode"] = "course"
    at.run()
    clipped = t("metrics.col_clipped", "en")
    assert not tables(at, "metrics.col_clipped")  # folded: not drawn
    at.session_state["metrics.course_bleu.ngram_tables"] = True  # unfold, as a click does
    at.run()
    ngrams = tables(at, "metrics.col_clipped")
    unigrams = ngrams[0].set_index(t("metrics.col_gram", "en"))
    # the course's candidate "A B B C D": B occurs twice but the reference has it once, so it counts once
    assert unigrams.loc["B", t("metrics.col_count", "en")] == 2 and unigrams.loc["B", clipped] == 1
    assert sum(shown[clipped].sum() for shown in ngrams) == 4 + 3 + 1 + 0  # the matches of p1…p4
