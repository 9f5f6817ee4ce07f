"""Tokens back to readable text, the inverse of `tokenizer.Tokenizer.split` for the reader's eye.

Chinese joins without spaces; English gets its spacing, its sentence capitals, its names' capitals, its
contractions, numbers, clock times and ordinals back ("i did n't see 9 : 15 ." -> "I didn't see 9:15.").
"""

from __future__ import annotations

from pathlib import Path

from .tokenizer import CLITICS, SPECIAL_TOKENS

# English is lower-cased on the way in; on the way out names get their capitals back: this hand list, and
# every word the phrasebook's writers capitalise mid-sentence (`viz_model.corpus.capitals`, written with the
# corpus; without the file only the hand list applies).
CAPITALS_FILE = Path(__file__).resolve().parents[2] / "assets" / "corpus" / "capitals.tsv"
_HAND_CAPITALISED = {
    "i": "I",
    "fbi": "FBI",
    "tv": "TV",
    "tom": "Tom",
    "lily": "Lily",
    "jack": "Jack",
    "lucy": "Lucy",
    "mary": "Mary",
    "david": "David",
    "anna": "Anna",
    "peter": "Peter",
    "monday": "Monday",
    "tuesday": "Tuesday",
    "wednesday": "Wednesday",
    "thursday": "Thursday",
    "friday": "Friday",
    "saturday": "Saturday",
    "sunday": "Sunday",
}


def _load_capitals(path: Path = CAPITALS_FILE) -> dict[str, str]:
    try:
        rows = path.read_text(encoding="utf-8").splitlines()[1:]
    except OSError:
        return {}
    return dict(row.split("\t", 1) for row in rows if "\t" in row)


EN_CAPITALISED = _load_capitals() | _HAND_CAPITALISED


def reload_capitals() -> None:
    """Read the capitals file again (after the corpus build has rewritten it)."""
    EN_CAPITALISED.clear()
    EN_CAPITALISED.update(_load_capitals() | _HAND_CAPITALISED)


EN_SENTENCE_END = (".", "?", "!")


# Punctuation that joins two digit runs into one number, by the lengths the second run may have: a clock
# time (9:15), a decimal (3.50), thousands (1,000). The tokenizer splits them; detokenize joins them back.
NUMBER_JOINERS = {":": (2,), ".": (1, 2, 3), ",": (3,)}


ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")  # 1 st -> 1st


def _join_clock_abbreviations(words: list[str]) -> list[str]:
    """a . m . -> a.m. (and p.m.) after a word: the tokenizer splits the abbreviation at its full stops."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if out and words[i] in ("a", "p") and words[i + 1 : i + 4] == [".", "m", "."]:
            out.append(words[i] + ".m.")
            i += 4
        else:
            out.append(words[i])
            i += 1
    return out


def _is_latin_or_digit(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def detokenize(tokens: list[str], language: str) -> str:
    """Tokens back to readable text: Chinese joins without spaces (but for one between two Latin words or
    numbers: 用 it is raining 造句); English puts no space before punctuation and starts each sentence with a
    capital ("i saw a saw ." -> "I saw a saw.")."""
    words = [t for t in tokens if t not in SPECIAL_TOKENS]
    if language == "zh":
        return "".join(
            f" {word}" if i and _is_latin_or_digit(words[i - 1][-1]) and _is_latin_or_digit(word[0]) else word
            for i, word in enumerate(words)
        )
    words = _join_clock_abbreviations(words)
    out = ""
    sentence_start = True
    quote_open = False  # a straight " opens a quotation, the next one closes it: say "thank you" in
    for i, word in enumerate(words):
        if word == '"':
            if quote_open:
                out += word  # closing: joins the quoted word before it
            else:
                out += (" " if out and not out.endswith("(") else "") + word
            quote_open = not quote_open
            continue
        if word in CLITICS and out or word in ORDINAL_SUFFIXES and i and words[i - 1].isdigit():
            out += word  # didn't, 6th
            sentence_start = False
            continue
        if i >= 2 and words[i - 2].isdigit() and word.isdigit() and len(word) in NUMBER_JOINERS.get(words[i - 1], ()):
            out += word  # 9 : 15 -> 9:15, 3 . 50 -> 3.50, 1 , 000 -> 1,000 (and not 1, 2 -> 1,2)
            sentence_start = False  # the "." of 3.50 ends no sentence
            continue
        if (
            out
            and (word[0].isalnum() or word[0] == "(")
            and not (out.endswith("(") or out.endswith('"') and quote_open)
        ):
            out += " "
        shown = EN_CAPITALISED.get(word, word)
        if sentence_start and shown[:1].isalpha():
            shown = shown[0].upper() + shown[1:]
            sentence_start = False
        elif shown[:1].isalnum():
            sentence_start = False
        out += shown
        if word in EN_SENTENCE_END:
            sentence_start = True
    return out
