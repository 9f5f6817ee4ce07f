"""The Lesson page's parts: one step of the course's path on the typed sentence (its text, the view it opens
with every setting, a "what to look for" line), its question answered before the model's numbers are shown,
and the session's score."""

from __future__ import annotations

import functools
import zlib

import streamlit as st

from pages.parts.cache import lesson_answer, lesson_question, translator
from pages.parts.frame import PAGES
from pages.parts.i18n import t
from pages.parts.state import lang, link_params, presenting, tr
from pages.parts.text import md
from pages.parts.widgets import heading, time_step
from viz_model import figures
from viz_model.figures.export import export_name
from viz_model.lessons.handout import HandoutSection, handout_html
from viz_model.lessons.lesson import STEPS, Question, look_values, view_params
from viz_model.lessons.positional_views import default_dims, encoding_curves
from viz_model.lessons.search_tree import tree_layout

LESSON_STEP = "lstep"  # URL parameter: the step, from 1
ANSWERS = "_lesson_answers"  # {(text, direction, step name): the option picked first}
NAMED_OPTIONS = ("yes", "no", "tie")  # options the page translates; every other option is shown as written
STATUSES = ("root", "kept", "pruned", "finished", "best")  # the beam tree's legend
# Presentation mode: the answer buttons big enough for a room to read and a teacher to click.
BIG_CHOICES_CSS = """<style>
[class*="st-key-lesson-pick"] button { font-size: 26px; min-height: 3.2rem; padding: 0.4rem 1.4rem; }
[class*="st-key-lesson-pick"] button p { font-size: 26px; }
</style>"""


def step_part(text: str, direction: str, result) -> None:
    n = len(STEPS)
    index = time_step(LESSON_STEP, n, tr("lesson.step"))
    step = STEPS[index]
    question = lesson_question(text, direction, step.name) if step.question else None
    heading(f"{index + 1}. {tr(f'lesson.step_{step.name}')}")

    def explain() -> None:
        st.markdown(tr(f"lesson.text_{step.name}"))
        page = next(p for p in PAGES if p.url_path == step.page)
        st.page_link(
            page.file,
            label=tr("lesson.open_view", page=tr(f"{page.section}.title")),
            icon=page.icon,
            query_params={**link_params(), **view_params(step, question)},
        )
        st.info(tr(f"lesson.look_{step.name}", **look_values(step, translator(), result)), icon=":material/visibility:")

    if not presenting():
        explain()
    if step.question is not None:
        question_part(text, direction, step, question)
    if presenting():  # on a projector the question and its buttons first, for the room to answer
        explain()
    score_line()
    st.download_button(
        tr("lesson.handout"),
        # Called when the button is clicked, outside this run: what it needs from the session is bound now.
        functools.partial(handout, text, direction, result, lang(), dict(st.session_state.get(ANSWERS, {}))),
        file_name=export_name("lesson", "handout", text) + ".html",
        mime="text/html",
        key="lesson.handout",
        on_click="ignore",
        icon=":material/download:",
        help=tr("lesson.handout_help"),
    )


def prompt(question: Question, language: str, escape=str) -> str:
    """The question as asked, in `language`: its values (escaped by `escape`: Markdown on the page, none in the
    handout, which escapes HTML itself), a head's attention kind named in that language."""
    values = {k: escape(v) if isinstance(v, str) else v for k, v in question.values.items()}
    if "kind" in question.values:
        values["kind_label"] = t(f"lesson.kind_{question.values['kind']}", language)
    return t(f"lesson.q_{question.kind}", language, **values)


def _option_label(option: str, language: str) -> str:
    """An option as its button shows it: a named one translated, any other (a token, a sentence) escaped, as
    button labels are Markdown ("7:orange" would read as the colour directive :orange)."""
    return t(f"lesson.option_{option}", language) if option in NAMED_OPTIONS else md(option)


def question_part(text: str, direction: str, step, question: Question | None) -> None:
    if question is None:
        return
    if question.instead_of is not None:  # the step's own question cannot be asked on this sentence
        st.info(tr(f"lesson.no_question_{question.instead_of}") + " " + tr("lesson.instead"), icon=":material/info:")
    if presenting():
        st.html(BIG_CHOICES_CSS)
    st.markdown(f"**{prompt(question, lang(), escape=md)}**")
    answers = st.session_state.setdefault(ANSWERS, {})
    asked = (text, direction, step.name)
    first = answers.get(asked)
    language = lang()
    picked = st.pills(
        tr("lesson.your_answer"),
        range(len(question.options)),
        format_func=lambda i: _option_label(question.options[i], language),
        key=f"lesson.pick.{zlib.crc32(repr(asked).encode('utf-8'))}",  # a new sentence asks afresh
        default=first,
        disabled=first is not None,  # the first pick counts: the answer is shown after it
        label_visibility="collapsed",
    )
    if first is None and picked is not None:
        answers[asked] = first = picked
    if first is None:
        st.caption(tr("lesson.pick_first"))
        return
    reveal(lesson_answer(text, direction, step.name), first, language)


def reveal(question: Question, picked: int, language: str) -> None:
    right = question.is_right(picked)
    values = {k: md(v) if isinstance(v, str) else v for k, v in question.reveal.items()}
    verdict = tr("lesson.right" if right else "lesson.wrong")
    (st.success if right else st.error)(
        f"{verdict} {tr(f'lesson.reveal_{question.kind}', **values)}",
        icon=":material/check_circle:" if right else ":material/cancel:",
    )
    if any(number is not None for number in question.numbers):
        st.dataframe(
            {
                tr("lesson.col_option"): [
                    t(f"lesson.option_{o}", language) if o in NAMED_OPTIONS else o for o in question.options
                ],
                tr(f"lesson.col_number_{question.kind}"): [
                    None if x is None else round(x, 4) for x in question.numbers
                ],
                tr("lesson.col_answer"): ["✓" if i in question.answers else "" for i in range(len(question.options))],
            },
            hide_index=True,
            key="lesson.numbers",
        )


def _reset() -> None:
    st.session_state[ANSWERS] = {}
    for key in [k for k in st.session_state if str(k).startswith("lesson.pick.")]:
        del st.session_state[key]


def score_line() -> None:
    answers = st.session_state.get(ANSWERS, {})
    if not answers:
        return
    right = sum(lesson_answer(*asked).is_right(picked) for asked, picked in answers.items())
    left, button = st.columns([3, 2], vertical_alignment="center")
    left.markdown(tr("lesson.score", right=right, n=len(answers)))
    button.button(tr("lesson.reset"), key="lesson.reset", on_click=_reset, icon=":material/restart_alt:")


# ---- the handout: one offline HTML file of the whole lesson on this sentence ------------------------------
def _answer_line(question: Question, picked: int, language: str) -> tuple[str, bool]:
    right = question.is_right(picked)
    values = {k: str(v).replace("**", "") for k, v in question.reveal.items()}
    verdict = t("lesson.right" if right else "lesson.wrong", language)
    option = question.options[picked]
    shown = t(f"lesson.option_{option}", language) if option in NAMED_OPTIONS else option  # escaped as HTML
    text = t("lesson.handout_answer", language, answer=shown)
    return f"{text} {verdict} {t(f'lesson.reveal_{question.kind}', language, **values).replace('**', '')}", right


def _step_figure(step, question: Question | None, result, language: str):
    trace, config = result.trace, translator().config
    if step.name == "one_head" and question is not None:
        layer, head = question.values["layer"] - 1, question.values["head"] - 1
        tokens = figures.token_labels(trace.source_labels)
        title = t("attention.layer_head", language, layer=layer + 1, h=head + 1)
        weights = trace.attention("encoder_self", layer).weights[head]
        return figures.heatmaps(weights, tokens, tokens, y_title="", x_title="", value_name="", panel_titles=[title])
    if step.name == "masks":
        layer = config.n_decoder_layers - 1
        rows = figures.token_labels(trace.target_tokens)
        weights = trace.attention("cross", layer).mean_weights
        return figures.heatmaps(
            weights, rows, figures.token_labels(trace.source_labels), y_title="", x_title="", value_name=""
        )
    if step.name == "positions":
        dims = default_dims(config.d_model)
        x, values = encoding_curves(len(trace.source_tokens), config.d_model, dims)
        return figures.line_chart(
            x, {f"PE[{d}]": values[:, i] for i, d in enumerate(dims)}, x_title="position", y_title="PE", height=360
        )
    if step.name == "decoding":  # built here in `language`: the handout is written outside the script run
        names = {status: t(f"beam.status_{status}", language) for status in STATUSES}
        return figures.search_tree(
            tree_layout(result.record, None),
            names=names,
            x_title=t("beam.axis_step", language),
            y_title=t("beam.axis_rank", language),
            hover=t("beam.node_hover", language),
        )
    return None


def handout(text: str, direction: str, result, language: str, answers: dict) -> str:
    """The lesson on this sentence as one HTML file in `language`: the sentence, its tokens and translation,
    every step's text, its "what to look for" line, the student's answer (`answers`, as the session keeps
    them) with the model's numbers, and figures."""
    tokens = [[t("lesson.handout_position", language), t("lesson.handout_token", language)]]
    tokens += [[str(i), tok] for i, tok in enumerate(result.trace.source_labels)]
    sections = [HandoutSection(t("lesson.handout_sentence", language), [text, result.output_text or "∅"], table=tokens)]
    for index, step in enumerate(STEPS):
        question = lesson_question(text, direction, step.name) if step.question else None
        picked = answers.get((text, direction, step.name))
        look = t(f"lesson.look_{step.name}", language, **look_values(step, translator(), result))
        asks = [] if question is None else [prompt(question, language)]
        sections.append(
            HandoutSection(
                f"{index + 1}. {t(f'lesson.step_{step.name}', language)}",
                [t(f"lesson.text_{step.name}", language), *asks],
                note=look,
                answer=_answer_line(lesson_answer(text, direction, step.name), picked, language)
                if question is not None and picked is not None
                else None,
                figure=_step_figure(step, question, result, language),
            )
        )
    return handout_html(t("lesson.handout_title", language, sentence=text[:80]), language, sections)
