"""The metrics' working as the Beam search and Metrics pages show it: BLEU (p1…p4, brevity penalty,
score) as tables and formulas, ROUGE-N recall, and perplexity with each token's probability."""

from __future__ import annotations

import streamlit as st

from pages.parts.cache import score
from pages.parts.state import tr
from pages.parts.text import fraction
from pages.parts.widgets import chart, folded
from viz_model import figures
from viz_model.lessons.metrics import BleuResult, bleu, brevity_case, ngram_rows, perplexity, rouge_table


def show_bleu(candidate: list[str], reference: list[str], key: str) -> BleuResult:
    """BLEU of one candidate against one reference with the working: n-gram tables with clipped counts,
    p1…p4, the brevity penalty and the final score. Returns the result (metrics.bleu)."""
    result = bleu(candidate, [reference])
    st.dataframe(
        {
            tr("metrics.col_n"): [f"p{n}" for n in range(1, 5)],
            tr("metrics.col_matches"): result.matches,
            tr("metrics.col_total"): result.totals,
            tr("metrics.col_fraction"): [fraction(m, t) for m, t in zip(result.matches, result.totals)],
            tr("metrics.col_precision"): [round(p, 4) for p in result.precisions],
        },
        hide_index=True,
        key=f"{key}.precisions",
    )
    c, r = result.candidate_length, result.reference_length
    st.latex(
        {
            "longer": rf"c = {c} > r = {r} \;\Rightarrow\; BP = 1",
            "equal": rf"c = r = {r} \;\Rightarrow\; BP = e^{{1 - {r}/{c}}} = e^0 = 1",
            "empty": r"c = 0 \;\Rightarrow\; BP = 0",
            "shorter": rf"c = {c} < r = {r} \;\Rightarrow\; BP = e^{{1 - {r}/{c}}} = {result.brevity_penalty:.4f}",
        }[brevity_case(c, r)]
    )
    if min(result.precisions) == 0:
        zero = [f"p_{n + 1}" for n, p in enumerate(result.precisions) if p == 0]
        st.latex(
            r"\mathrm{BLEU} = BP \cdot \exp\Big(\sum_{n=1}^{4} \tfrac14 \log p_n\Big) = 0"
            rf"\quad ({', '.join(zero)} = 0,\ \log 0 = -\infty)"
        )
    else:
        logs = " + ".join(f"\\log {p:.3f}" for p in result.precisions)
        st.latex(
            rf"\mathrm{{BLEU}} = {result.brevity_penalty:.3f} \cdot \exp\big(\tfrac14({logs})\big)"
            rf" = {result.score:.4f}"
        )
    st.markdown(tr("metrics.bleu_line", score=f"{result.score:.4f}", score100=f"{result.score_100:.1f}"))
    folded(tr("metrics.ngram_tables"), f"{key}.ngram_tables", lambda: ngram_tables(candidate, reference, key))
    return result


def ngram_tables(candidate: list[str], reference: list[str], key: str) -> None:
    """Every n-gram of the candidate (n = 1…4) with its count, the reference's count and the clipped count."""
    for n in range(1, 5):
        rows = ngram_rows(candidate, [reference], n)
        if not rows:
            st.caption(tr("metrics.no_ngrams", n=n))
            continue
        st.markdown(f"**{tr('metrics.ngram_title', n=n)}**")
        st.dataframe(
            {
                tr("metrics.col_gram"): [" ".join(r.gram) for r in rows],
                tr("metrics.col_count"): [r.count for r in rows],
                tr("metrics.col_reference_max"): [r.reference_max for r in rows],
                tr("metrics.col_clipped"): [r.clipped for r in rows],
            },
            hide_index=True,
            key=f"{key}.ngrams{n}",
        )


def show_rouge(candidate: list[str], reference: list[str], key: str) -> None:
    results = rouge_table(candidate, reference)
    st.dataframe(
        {
            tr("metrics.col_n"): [f"ROUGE-{r.n}" for r in results],
            tr("metrics.col_rouge_matches"): [r.matches for r in results],
            tr("metrics.col_rouge_total"): [r.total for r in results],
            tr("metrics.col_fraction"): [fraction(r.matches, r.total) for r in results],
            tr("metrics.col_recall"): [round(r.recall, 4) for r in results],
        },
        hide_index=True,
        key=f"{key}.rouge",
    )
    st.caption(tr("metrics.rouge_caption"))


def show_perplexity(text: str, direction: str, tokens: list[str], title: str, key: str) -> None:
    scored = score(text, direction, tokens)
    result = perplexity(scored.log_probs, base=2)
    T = len(scored.tokens)
    st.markdown(f"**{title}**")
    st.latex(
        rf"\mathrm{{PPL}} = 2^{{-\frac{{1}}{{{T}}}\sum_t \log_2 p_t}}"
        rf" = 2^{{{result.mean_negative_log_prob:.3f}}} = {result.perplexity:.3f}"
    )
    labels = [f"{i}:{figures.escape_label(t)}" for i, t in enumerate(scored.tokens)]
    chart(
        figures.bar_chart(
            labels,
            result.probabilities,
            x_title=tr("metrics.axis_token"),
            y_title=tr("metrics.axis_probability"),
            horizontal=False,
            value_format=".2f",
            highlight=[p < 0.5 for p in result.probabilities],
        ),
        key=key,
    )
