"""Plain-text helpers with no Streamlit in them: Markdown escaping for text a user typed, and how tokens,
fractions and probabilities are written on the pages."""

from __future__ import annotations

import math
import string

_MARKDOWN_SPECIAL = str.maketrans({ch: "\\" + ch for ch in string.punctuation})


def md(text) -> str:
    """User text made inert for st.markdown: every ASCII punctuation mark backslash-escaped (CommonMark
    renders an escaped mark as itself), so `**x**`, `$x$`, `:red[x]` and `<b>` stay literal text."""
    return " ".join(str(text).split()).translate(_MARKDOWN_SPECIAL)


def fraction(numerator: int, denominator: int) -> str:
    return f"{numerator}/{denominator}" if denominator else "0/0"


def tokens_text(tokens) -> str:
    """Tokens as one line of plain text, separated so a reader sees where each token ends."""
    return " · ".join(tokens) if tokens else "∅"


def log_line(log_prob: float) -> str:
    """ln P and P, P written in scientific notation when tiny."""
    p = math.exp(log_prob)
    return f"ln P = {log_prob:.3f} · P = {p:.3g}"
