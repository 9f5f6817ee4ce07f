"""A lesson's handout: one HTML file that opens in any browser with no server and no network (plotly's
JavaScript is inside it, once), holding the sentence, its translation, the lesson's texts, the student's
answers, and interactive figures. Every text is escaped: a sentence a student typed stays text."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import plotly.graph_objects as go
import plotly.offline

STYLE = """
body { font-family: "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", sans-serif; max-width: 1100px;
       margin: 2rem auto; padding: 0 1rem; color: #111; line-height: 1.5; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
.sentence { font-size: 1.25rem; } .look { background: #eef4fb; padding: 0.6rem 0.9rem; border-radius: 6px; }
.answer-right { color: #1b6e3a; } .answer-wrong { color: #a3261b; }
table { border-collapse: collapse; margin: 0.6rem 0; } td, th { border: 1px solid #ccc; padding: 0.25rem 0.6rem; }
"""


@dataclass
class HandoutSection:
    heading: str
    paragraphs: list[str] = field(default_factory=list)  # plain text, escaped when written
    note: str | None = None  # a highlighted line ("what to look for")
    answer: tuple[str, bool] | None = None  # the student's answer and whether it was right
    table: list[list[str]] | None = None  # first row: the header
    figure: go.Figure | None = None


def _table(rows: list[list[str]]) -> str:
    head, *body = rows
    cells = "".join(f"<th>{html.escape(str(c))}</th>" for c in head)
    lines = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><tr>{cells}</tr>{lines}</table>"


def handout_html(title: str, language: str, sections: list[HandoutSection]) -> str:
    """The whole page. `language`: the document's language ("en" or "zh"), for the browser's fonts."""
    parts = []
    for i, section in enumerate(sections):
        parts.append(f"<h2>{html.escape(section.heading)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in section.paragraphs]
        if section.note:
            parts.append(f'<p class="look">{html.escape(section.note)}</p>')
        if section.answer is not None:
            text, right = section.answer
            parts.append(f'<p class="answer-{"right" if right else "wrong"}">{html.escape(text)}</p>')
        if section.table:
            parts.append(_table(section.table))
        if section.figure is not None:
            parts.append(
                section.figure.to_html(
                    full_html=False, include_plotlyjs=False, div_id=f"figure-{i}", config={"displaylogo": False}
                )
            )
    lang = "zh-Hans" if language == "zh" else "en"
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style><script>{plotly.offline.get_plotlyjs()}</script></head>"
        f"<body><h1>{html.escape(title)}</h1>{''.join(parts)}</body></html>"
    )
