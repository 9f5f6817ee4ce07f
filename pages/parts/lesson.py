"""The Lesson page's parts: one step of the course's path on the typed sentence (its text, the view it opens
with every setting, a "what to look for" line), its question answered before the model's numbers are shown,
and the session's score."""

from __future__ import annotations

import zlib

import streamlit as st

from pages.parts.cache import lesson_question, translator
from pages.parts.frame import PAGES
from pages.parts.i18n import t
from pages.parts.state import lang, link_params, presenting, tr
from pages.parts.text import md
from pages.parts.widgets import heading, time_step
from viz_model.lessons.lesson import STEPS, Question, look_values, view_params

LESSON_STEP = "lstep"  # URL parameter: the step, from 1
ANSWERS = "_lesson_answers"  # {(text, direction, step name): the option picked first}
NAMED_OPTIONS = ("yes", "no", "tie")  # options the page translates; every other option is shown as written
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


def _option_label(option: str, language: str) -> str:
    """An option as its button shows it: a named one translated, any other (a token, a sentence) escaped, as
    button labels are Markdown ("7:orange" would read as the colour directive :orange)."""
    return t(f"lesson.option_{option}", language) if option in NAMED_OPTIONS else md(option)


def question_part(text: str, direction: str, step, question: Question | None) -> None:
    if question is None:
        st.caption(tr(f"lesson.no_question_{step.question}"))
        return
    if presenting():
        st.html(BIG_CHOICES_CSS)
    values = {k: md(v) if isinstance(v, str) else v for k, v in question.values.items()}
    if "kind" in question.values:  # a head's attention kind, named in the interface language
        values["kind_label"] = tr(f"lesson.kind_{question.values['kind']}")
    st.markdown(f"**{tr(f'lesson.q_{question.kind}', **values)}**")
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
    reveal(question, first, language)


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
    right = sum(lesson_question(*asked).is_right(picked) for asked, picked in answers.items())
    left, button = st.columns([3, 2], vertical_alignment="center")
    left.markdown(tr("lesson.score", right=right, n=len(answers)))
    button.button(tr("lesson.reset"), key="lesson.reset", on_click=_reset, icon=":material/restart_alt:")
