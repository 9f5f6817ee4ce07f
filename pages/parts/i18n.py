"""The interface's words in both languages: one JSON catalogue per language, the same keys in each.

A catalogue is organised in sections, one per page plus shared ones ("app", "common", "axis"), and a key
is written "section.name", e.g. t("attention.title", "zh"). Strings may hold str.format placeholders
("{words}"); the arguments are inserted as given, so text typed by a user must be escaped for wherever the
message is shown (Markdown, plotly) by the caller.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "assets" / "i18n"


def normalise_language(lang: str | None) -> str:
    """Any unknown value (a hand-edited URL, say) falls back to the default language."""
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def _flatten(tree: dict, prefix: str = "") -> dict[str, str]:
    flat = {}
    for name, value in tree.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            flat.update(_flatten(value, key + "."))
        else:
            flat[key] = value
    return flat


@cache
def catalogue(lang: str) -> dict[str, str]:
    """{"section.name": text} for one language, read once per process."""
    path = CATALOGUE_DIR / f"{normalise_language(lang)}.json"
    return _flatten(json.loads(path.read_text(encoding="utf-8")))


def t(key: str, lang: str, **values) -> str:
    """The text for `key` in `lang`, formatted with `values`.

    A key missing from one catalogue falls back to English, then to the key itself, so a forgotten string
    shows up as its name instead of breaking the page (tests/test_i18n.py keeps that from shipping).
    """
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE).get(key, key)
    if isinstance(text, list):
        text = "\n".join(text)
    return text.format(**values) if values else text
