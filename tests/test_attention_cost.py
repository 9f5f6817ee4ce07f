"""The cost of attention: the counts of the paper's table 1, the crossing at n = d, the timings measured, and
the Cost view in both languages."""

from __future__ import annotations

import pytest

from pages.parts.i18n import t
from tests.app_harness import errors, open_app, table, translator
from viz_model.lessons.attention_cost import LENGTHS, cost_rows, measured_ms


def test_counts_follow_the_papers_table():
    d = 256
    rows = {r.n: r for r in cost_rows(d, [10, 255, 256, 257, 400])}
    assert rows[10].attention_ops == 10 * 10 * d and rows[10].recurrent_ops == 10 * d * d
    assert rows[10].convolution_ops == 3 * 10 * d * d and rows[400].weights == 160_000
    assert rows[255].cheaper == "attention" and rows[257].cheaper == "recurrent"
    assert rows[256].attention_ops == rows[256].recurrent_ops  # n = d: the two counts meet


def test_timings_are_measured_for_every_length():
    block = translator().model.encoder_layers[0].self_attention
    found = measured_ms(block, translator().config.d_model, lengths=(10, 40), repeats=2)
    assert set(found) == {"attention", "recurrent"} and all(len(v) == 2 and min(v) > 0 for v in found.values())


@pytest.mark.apptest
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cost_view(lang):
    at = open_app("pages/attention.py", text="I saw a saw.", lang=lang, view="cost")
    assert errors(at) == []
    shown = table(at, "attention.cost_attention", lang)
    n = len(translator().translate("I saw a saw.", "en2zh").trace.source_tokens)
    assert sorted({n, *LENGTHS}) == list(shown["n"])
    assert t("attention.cost_sentence", lang, n=n, d=256, cells=f"{n * n:,}", heads=4, total="")[:12] in "\n".join(
        m.value for m in at.markdown
    )
