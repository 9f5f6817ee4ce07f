"""The Decoding lab's parts: teacher forcing beside free running, every decoding strategy on one sentence,
and one step's next-token distribution cut by temperature, top-k and top-p."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from pages.parts.cache import forcing, greedy_tokens, ngram_counts, strategies, translator
from pages.parts.controls import choice, dependent_index, linked
from pages.parts.i18n import t
from pages.parts.state import catalogue_labels, presenting, tr
from pages.parts.text import md, tokens_text
from pages.parts.widgets import (
    axis_titles,
    chart,
    folded,
    lead,
    markup,
    markup_text_size,
    settings_area,
    time_step,
)
from viz_model import figures
from viz_model.figures.look import short_label
from viz_model.lessons.decoding_lab import (
    LABEL_SMOOTHING,
    REFERENCES,
    ForcingComparison,
    StrategyComparison,
    one_word_changed,
    step_distribution,
    typed_reference,
)
from viz_model.lessons.ngrams import next_word
from viz_model.model.decoding import DEFAULT_LENGTH_PENALTY
from viz_model.model.sampling import SamplingSettings
from viz_model.model.translator import DEFAULT_BEAM_WIDTH, DIRECTIONS

MAX_REFERENCE_CHARS = 500
MAX_SAMPLES = 10


# ---- teacher forcing beside free running ------------------------------------------------------------------
def reference_text_box() -> str:
    """The reader's reference (the Strategies' BLEU and chrF, the typed choice of Teacher forcing), in the URL."""
    return linked(
        st.text_input, tr("decoding.reference_text"), key="reftext", max_chars=MAX_REFERENCE_CHARS,
        help=tr("decoding.reference_text_help"),
    )  # fmt: skip


def chosen_reference(text: str, direction: str) -> list[str]:
    """The reference tokens to force: the model's greedy translation (what free running writes, so the two
    agree at every step), it with one word changed, or the typed one (a typed reference that cannot be used
    falls back to the model's, with a note)."""
    with settings_area():
        kind = choice(
            st.segmented_control, tr("decoding.reference"), REFERENCES, "ref", catalogue_labels("decoding.ref_{}")
        )
        typed = reference_text_box() if kind == "typed" else ""
    own = translator().words(greedy_tokens(text, direction))
    if kind == "changed":
        changed = one_word_changed(forcing(text, direction, own))
        if changed is None:
            st.info(tr("decoding.no_change"), icon=":material/info:")
        return changed or own
    if kind == "typed":
        read = typed_reference(translator(), typed, direction)
        if read.problem in ("empty", "wrong_language"):
            st.info(tr(f"decoding.ref_problem_{read.problem}"), icon=":material/info:")
            return own
        if read.problem == "long":
            st.info(tr("decoding.ref_problem_long", n=len(read.tokens)), icon=":material/content_cut:")
        if read.unknown:
            st.info(tr("decoding.ref_unknown", words=md(", ".join(read.unknown[:8]))), icon=":material/help:")
        return read.tokens
    return own


def _divergence_note(found: ForcingComparison) -> str:
    at = found.divergence
    if at is None:
        return tr("decoding.agree", n=len(found.forced))
    free = found.free[at] if at < len(found.free) else None
    forced = found.forced[at] if at < len(found.forced) else None
    if free is None or forced is None:
        return tr("decoding.diverge_length", step=at + 1)
    return tr(
        "decoding.diverge",
        step=at + 1,
        argmax=md(free.top[0][0]),
        p_argmax=f"{free.top[0][1]:.3f}",
        reference=md(forced.chosen),
        p_reference=f"{forced.chosen_prob:.3f}",
    )


def forcing_part(text: str, direction: str) -> None:
    reference = chosen_reference(text, direction)
    found = forcing(text, direction, reference)
    config = translator().config
    with settings_area():
        layer = dependent_index(
            st.selectbox, tr("decoding.layer"), config.n_decoder_layers, "dlayer",
            default=config.n_decoder_layers - 1, format_func=lambda i: str(i + 1),
        )  # fmt: skip

    def summary() -> None:  # the reference and where the two sides part: above the steps, or on a projector below
        reference = tr("decoding.reference_line", tokens=md(tokens_text(found.reference)))
        alert = st.success if found.divergence is None else st.warning
        alert(f"{reference}\n\n{_divergence_note(found)}", icon=":material/call_split:")

    if not presenting():
        summary()
    n = found.steps
    step = time_step("step", n, tr("decoding.step"), default=found.divergence or 0)
    left, right = st.columns(2)
    for where, side, steps in ((left, "forced", found.forced), (right, "free", found.free)):
        with where:
            st.markdown(f"**{tr(f'decoding.side_{side}')}**")
            if step >= len(steps):
                st.caption(tr("decoding.side_ended", n=len(steps)))
                continue
            _step_view(side, steps, step)
    if presenting():
        summary()
    _cross_rows(found, step, layer)
    # Folded until opened (it stays open from step to step): every step's row is the larger share of what the
    # browser draws for a new sentence, and the step shown above has its own numbers.
    folded(tr("decoding.steps_title"), "decoding.steps_open", lambda: _steps_table(found))
    folded(tr("decoding.self_attention"), "decoding.self_fold", lambda: _self_attention(found, layer))
    _loss(found)


def _step_view(side: str, steps, step: int) -> None:
    now = steps[step]
    top = list(now.top)
    if now.chosen not in [tok for tok, _ in top]:  # the reference's token, outside the top 5: shown after them
        top.append((now.chosen, now.chosen_prob))
    # A plain table, not a chart, and what was fed written under it with the choice (one element, not two):
    # the page redraws both sides on every step and every new sentence, and the browser's drawing is most of
    # the time it takes.
    st.table(
        {
            tr("decoding.col_candidate"): [("➜ " if tok == now.chosen else "") + tok for tok, _ in top],
            tr("decoding.axis_p"): [f"{p:.3f}" for _, p in top],
        },
        hide_index=True,
    )
    chosen = tr(f"decoding.chosen_{side}", token=md(now.chosen), p=f"{now.chosen_prob:.3f}")
    st.markdown(f"{chosen}  \n{tr('decoding.fed', tokens=md(tokens_text([s.fed for s in steps[: step + 1]])))}")


def _cross_rows(found: ForcingComparison, step: int, layer: int) -> None:
    """This step's cross-attention row on each side: where in the source each decoder looks as it chooses.
    A shaded table, not a heatmap: two rows read as well, and the chart was a fifth of the page's time for
    a new sentence (the browser drawing it)."""
    both = (("forced", found.forced), ("free", found.free))
    sides = [(side, steps[step]) for side, steps in both if step < len(steps)]
    weights = np.stack([now.cross[layer].mean(0) for _, now in sides])  # (sides, S), the heads' mean
    frame = pd.DataFrame(
        weights,
        index=[tr(f"decoding.row_{side}", token=now.fed) for side, now in sides],
        columns=[f"{i}:{short_label(tok)}" for i, tok in enumerate(found.source_labels)],
    )
    _, x_title = axis_titles("cross")
    title = tr("decoding.cross_title", step=step + 1, layer=layer + 1)
    st.markdown(f"**{title}**  \n{x_title} · {tr('axis.weight')}")
    st.table(frame.style.format("{:.2f}").apply(lambda _: figures.weight_cells(weights), axis=None))


def _steps_table(found: ForcingComparison) -> None:
    rows = []
    for i in range(found.steps):
        forced = found.forced[i] if i < len(found.forced) else None
        free = found.free[i] if i < len(found.free) else None
        rows.append(
            {
                tr("decoding.col_step"): i + 1,
                tr("decoding.col_forced_fed"): forced.fed if forced else "",
                tr("decoding.col_reference"): forced.chosen if forced else "",
                tr("decoding.col_p_reference"): round(forced.chosen_prob, 4) if forced else None,
                tr("decoding.col_top"): "  ".join(f"{tok} {p:.2f}" for tok, p in forced.top) if forced else "",
                tr("decoding.col_free_fed"): free.fed if free else "",
                tr("decoding.col_argmax"): free.chosen if free else "",
                tr("decoding.col_p_argmax"): round(free.chosen_prob, 4) if free else None,
                tr("decoding.col_differ"): "⟵" if i == found.divergence else "",
            }
        )
    # A plain table, not the data grid: every row shows at once, and drawing it costs the browser a fraction
    # of the grid's on each new sentence.
    st.table(rows, hide_index=True)
    st.caption(tr("decoding.steps_caption"))


def _self_attention(found: ForcingComparison, layer: int) -> None:
    tokens = figures.token_labels(["<bos>", *found.reference])
    weights = found.decoder_self[layer].mean(0)  # (T, T)
    y_title, x_title = axis_titles("decoder_self")
    chart(
        figures.heatmaps(
            weights, tokens, tokens, y_title=y_title, x_title=x_title, value_name=tr("axis.weight"),
            panel_titles=[tr("decoding.self_title", layer=layer + 1)], mask=np.tril(np.ones_like(weights, bool)),
        ),
        key="decoding.self",
    )  # fmt: skip
    st.caption(tr("decoding.self_caption"))


def _loss(found: ForcingComparison) -> None:
    loss = found.loss
    # Three decimals, or three significant digits for a probability under 0.001 (not "ln 0.000").
    terms = " + ".join(
        f"ln {np.exp(lp):.3f}" if np.exp(lp) >= 1e-3 else f"ln {np.exp(lp):.3g}" for lp in loss.log_probs
    )
    plain = tr("decoding.loss_plain", terms=terms, n=len(loss.log_probs), value=f"{loss.nll:.4f}")
    smoothed = tr(
        "decoding.loss_smoothed",
        eps=f"{LABEL_SMOOTHING:g}",
        keep=f"{1 - LABEL_SMOOTHING:g}",
        nll=f"{loss.nll:.4f}",
        uniform=f"{loss.uniform_term:.4f}",
        V=f"{loss.vocab_size:,}",
        value=f"{loss.smoothed:.4f}",
    )  # fmt: skip
    st.markdown(f"**{tr('decoding.loss_title')}**\n\n{plain}\n\n{smoothed}")  # one element: see _step_view


# ---- every strategy on one sentence ------------------------------------------------------------------------
def _resample() -> None:
    st.session_state["seed"] = int(st.session_state.get("seed", 0)) + 1


def sampling_controls(where) -> SamplingSettings:
    """Temperature, top-k, top-p, samples and seed, each in the URL (out-of-range link values fall back to the
    default with a notice: the widgets' own bounds)."""
    c1, c2, c3 = where.columns(3)
    temperature = linked(
        c1.slider, tr("decoding.temperature"), 0.0, 3.0, 1.0, 0.05, key="temp", help=tr("decoding.temperature_help")
    )
    top_k = linked(
        c2.number_input, tr("decoding.top_k"), 0, len(translator().tokenizer), 0, key="topk",
        help=tr("decoding.top_k_help"),
    )  # fmt: skip
    top_p = linked(c3.slider, tr("decoding.top_p"), 0.0, 1.0, 1.0, 0.01, key="topp", help=tr("decoding.top_p_help"))
    c4, c5, c6 = where.columns(3, vertical_alignment="bottom")
    samples = linked(c4.slider, tr("decoding.samples"), 1, MAX_SAMPLES, 5, key="n")
    seed = linked(c5.number_input, tr("decoding.seed"), 0, 100_000, 0, key="seed")
    c6.button(tr("decoding.resample"), key="decoding.resample", on_click=_resample, icon=":material/casino:")
    settings = SamplingSettings(float(temperature), int(top_k), float(top_p), int(samples), int(seed))
    return settings.clamped(len(translator().tokenizer))


def strategies_part(text: str, direction: str) -> None:
    with settings_area():
        c1, c2 = st.columns(2)
        width = linked(c1.slider, tr("beam.width"), 1, 8, DEFAULT_BEAM_WIDTH, key="width", help=tr("beam.width_help"))
        alpha = linked(
            c2.slider, tr("beam.alpha"), 0.0, 1.5, DEFAULT_LENGTH_PENALTY, 0.05, key="alpha",
            help=tr("beam.alpha_help"),
        )  # fmt: skip
        settings = sampling_controls(st)
        reference = reference_text_box()
    found = strategies(text, direction, int(width), float(alpha), settings, reference or "")
    _strategies_table(found, reference, direction, int(width))


def _strategy_name(strategy: str, number: int, width: int) -> str:
    return tr(f"decoding.strategy_{strategy}", n=number, k=width)


def _strategies_table(found: StrategyComparison, reference: str, direction: str, width: int) -> None:
    scored = bool((reference or "").strip())
    rows = []
    for out in found.outputs:
        row = {
            tr("decoding.col_strategy"): _strategy_name(out.strategy, out.number, width),
            tr("decoding.col_output"): out.text or "∅",
            "ln P": f"{out.log_prob:.3f}",  # written out: a plain table shows a float with four decimals
            "L": out.length,
            tr("decoding.col_score"): f"{out.score:.3f}",
        }
        if scored:
            row["BLEU"], row["chrF"] = f"{out.bleu:.1f}", f"{out.chrf:.1f}"
        rows.append(row)
    # A plain table, not the data grid: a handful of rows, and the grid's canvas costs the browser several
    # times a table's drawing on every new sentence.
    st.table(rows, hide_index=True)
    st.caption(tr("decoding.strategies_caption" if scored else "decoding.strategies_caption_no_reference"))
    if found.equals_greedy:
        st.info(tr(f"decoding.greedy_{found.equals_greedy}"), icon=":material/equal:")
    else:
        step, kept = found.widest_step
        st.info(tr("decoding.not_greedy", step=step + 1, n=f"{kept:,}"), icon=":material/casino:")
    if DIRECTIONS[direction][1] == "zh" and scored:
        st.caption(tr("decoding.bleu_zh_note"))


# ---- one step's distribution, cut -------------------------------------------------------------------------
def cut_part(text: str, direction: str) -> None:
    with settings_area():
        settings = sampling_controls(st)
    names = ["greedy", *(f"sample{i}" for i in range(1, settings.samples + 1))]
    with settings_area():
        path = choice(st.segmented_control, tr("decoding.path"), names, "path", _path_label)
    # Greedy's path is the sidebar's (read off its beam); the samples are drawn only when one of them is
    # followed, so the view opens without drawing any.
    if path == "greedy":
        tokens = greedy_tokens(text, direction)
    else:
        found = strategies(text, direction, DEFAULT_BEAM_WIDTH, DEFAULT_LENGTH_PENALTY, settings, "")
        number = int(path.removeprefix("sample"))
        tokens = next(o.tokens for o in found.outputs if o.strategy == "sample" and o.number == number)
    step = time_step("cstep", len(tokens), tr("decoding.step"))
    shown = step_distribution(translator(), text, direction, tokens, step, settings)
    lead(tr("decoding.cut_prefix", tokens=md(tokens_text(["<bos>", *shown.prefix]))), as_caption=False)
    kept, names = sum(shown.kept), (tr("decoding.bars_model"), tr("decoding.bars_final"))
    # HTML bars, not plotly's, as this view's time is the browser's (docs/performance.md); the downloads are
    # the plotly figure of the same numbers, built only when a button is pressed.
    cut = figures.cut_bars_html(shown.tokens, shown.model_probs, shown.final, kept, names=names,
                                cut_label=tr("decoding.cut_here"), size=markup_text_size())  # fmt: skip
    plotly_figure = lambda: figures.cut_bars(
        figures.token_labels(shown.tokens), shown.model_probs, shown.final, kept, names=names,
        y_title=tr("decoding.axis_p"), cut_label=tr("decoding.cut_here"),
    )  # fmt: skip
    markup(cut, "decoding-cut", key="decoding.cut", export=plotly_figure)
    st.markdown(
        tr(
            "decoding.cut_line",
            t=f"{settings.temperature:g}",
            k=settings.top_k or "–",
            p=f"{settings.top_p:g}",
            n=f"{shown.kept_count:,}",
            mass=f"{shown.mass_kept:.3f}",
        )  # fmt: skip
    )
    st.caption(tr("decoding.cut_path_took", step=step + 1, token=md(tokens[step])))


def _path_label(name: str, language: str) -> str:
    if name == "greedy":
        return t("decoding.strategy_greedy", language)
    return t("decoding.strategy_sample", language, n=int(name.removeprefix("sample")))


# ---- next-word prediction: n-gram counts against the decoder ----------------------------------------------
def ngram_part(text: str, direction: str, result) -> None:
    target = DIRECTIONS[direction][1]
    with st.spinner(tr("decoding.ngram_counting")):
        counts = ngram_counts(target)
    n = len(result.output_tokens) + 1
    step = time_step("gstep", n, tr("decoding.step"))
    found = next_word(counts, result.trace, step, translator().tokenizer.vocab)
    context = " ".join(found.context)
    decoder_best = found.rows[0]
    lead(
        tr(
            "decoding.ngram_line",
            prefix=md(tokens_text(["<bos>", *found.prefix])),
            context=md(context),
            n=f"{found.context_count:,}",
            best=md(found.trigram_best or "∅"),
            decoder=md(decoder_best.token),
            p=f"{decoder_best.decoder:.2f}",
        ),
        as_caption=False,
    )
    names = [tr(f"decoding.ngram_{name}") for name in ("decoder", "trigram", "unigram")]
    columns = [[r.decoder for r in found.rows], [r.trigram for r in found.rows], [r.unigram for r in found.rows]]
    # HTML bars and a plain table, as the cut's (docs/performance.md); the downloads are plotly's figure.
    series = list(zip(names, columns, figures.SERIES_COLOURS))
    tokens = [r.token for r in found.rows]
    plotly_figure = lambda: figures.grouped_bars(
        figures.token_labels(tokens), {name: [v or 0.0 for v in values] for name, values in zip(names, columns)},
        y_title=tr("decoding.axis_p"),
    )  # fmt: skip
    shown = figures.grouped_bars_html(tokens, series, size=markup_text_size())
    markup(shown, "decoding-ngram", key="decoding.ngram", export=plotly_figure)
    written = {tr("decoding.ngram_token"): tokens}  # numbers written out: a plain table shows four decimals
    for name, values, decimals in zip(names, columns, (4, 4, 5)):
        written[name] = ["–" if v is None else f"{v:.{decimals}f}" for v in values]
    written[tr("decoding.ngram_count")] = [r.trigram_count for r in found.rows]
    st.table(written, hide_index=True)
    st.caption(tr("decoding.ngram_caption", sentences=f"{counts.sentences:,}", words=f"{counts.total:,}"))
