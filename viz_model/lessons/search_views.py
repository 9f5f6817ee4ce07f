"""What the Beam search page shows about one search, as plain data: what happened at a step, the hypotheses
in words, and "what if": the alternatives the model offered at a step of the best path, the prefix that
forces one of them, and whether the forced translation is more probable than the one beam search chose.

A `SearchRecord` (viz_model.model.search_record) in, plain data out.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

from viz_model.corpus import read_split
from viz_model.model.detokenize import detokenize
from viz_model.model.search_record import Candidate, SearchRecord
from viz_model.model.tokenizer import DIRECTIONS, EOS, UNK
from viz_model.model.translator import DEFAULT_BEAM_WIDTH, SearchSettings

STATUSES = ("kept", "finished", "pruned")


def normalised_settings(settings: SearchSettings, full_length: int) -> SearchSettings:
    """The settings in one form (numbers as int and float, no length or one past the model's capped at the
    model's `full_length`), so equal settings compare equal and share one cache entry (Streamlit hashes a
    dataclass by its fields' values, and a slider may hand over 4.0 where the default says 4)."""
    return replace(
        settings,
        beam_width=int(settings.beam_width),
        length_penalty=float(settings.length_penalty),
        max_len=min(int(settings.max_len or full_length), full_length),
    )


def status_counts(candidates: list[Candidate]) -> dict[str, int]:
    """How many candidates of one step the search kept, finished and pruned."""
    return {status: sum(c.status == status for c in candidates) for status in STATUSES}


@dataclass(frozen=True)
class CandidateRow:
    """One candidate of a step, with the prefix it extends."""

    prefix: list[str]  # the tokens before this one, from step 0
    token: str
    prob: float  # p(token | prefix)
    cumulative_log_prob: float  # ln P(prefix + token)
    score: float  # ln P / L^α
    status: str


def step_rows(record: SearchRecord, step: int) -> list[CandidateRow]:
    """The candidates scored at `step` (0-based), in the search's ranking order."""
    return [
        CandidateRow(
            [n.token for n in record.path_nodes(c.hypothesis)[:-1]],
            c.token,
            c.prob,
            c.cumulative_log_prob,
            c.score,
            c.status,
        )
        for c in record.steps[step].candidates
    ]


@dataclass(frozen=True)
class HypothesisRow:
    output: str  # the tokens as text in the target language
    tokens: list[str]
    log_prob: float
    length: int
    score: float
    finished: bool


def hypothesis_rows(record: SearchRecord, language: str) -> list[HypothesisRow]:
    """The hypotheses the search returned, best first, with their text in `language` ("zh" or "en")."""
    return [
        HypothesisRow(detokenize(h.tokens, language), h.tokens, h.log_prob, h.length, h.score, h.finished)
        for h in record.hypotheses
    ]


def alternatives(record: SearchRecord, at: int) -> list[Candidate]:
    """Other tokens the model scored at step `at` of the best path, after the same prefix (not <eos>)."""
    best_path = record.best_path_nodes()
    chosen = best_path[at]
    return [
        c
        for c in record.steps[at].candidates
        if c.parent == chosen.parent and c.token != EOS and c.hypothesis != chosen.hypothesis
    ]


def forced_prefix(record: SearchRecord, at: int, token: str) -> list[str]:
    """The best path's first `at` tokens, then `token` instead of the one beam search chose."""
    return [c.token for c in record.best_path_nodes()[:at]] + [token]


def typed_prefix(tokenizer, text: str) -> list[str]:
    """A typed prefix as the model's tokens; unknown words are left out (the model cannot be made to emit
    a word it does not have)."""
    return [t for t in tokenizer.split(text)[0] if t != UNK]


@dataclass(frozen=True)
class Verdict:
    better: bool  # the forced translation is more probable than beam search's
    ratio: float  # P(forced) / P(beam search's choice)


def compare(forced_log_prob: float, chosen_log_prob: float) -> Verdict:
    """Is the forced translation more probable than the chosen one? ln P in nats."""
    return Verdict(forced_log_prob > chosen_log_prob + 1e-9, math.exp(forced_log_prob - chosen_log_prob))


# The Beam search page's default sentence: one where beam search and greedy search give different
# translations with this model, so the page opens on a contrast. Picked from the model's own outputs by
# `pick_default` and stored with the checkpoint's hash; `beam_default` picks again when the model changed.
#     python -m viz_model.training.beam_default
DEFAULT_FILE = Path(__file__).resolve().parents[2] / "assets" / "beam_default.json"
COURSE_CANDIDATES = (
    ("Please buy an apple and an orange.", "en2zh"),
    ("An apple phone", "en2zh"),
    ("I saw a saw.", "en2zh"),
    ("A fly is drinking the juice.", "en2zh"),
    ("The FBI is chasing a criminal on the run.", "en2zh"),
    ("我看见了一把锯子。", "zh2en"),
)
MAX_CANDIDATE_WORDS = 9  # short sentences only: the tree must fit on a projector
# The app's default direction: the pick never turns the sidebar's direction round under a reader who then
# types a sentence of their own (or opened a link that names the direction).
PICK_DIRECTION = "en2zh"
MAX_CANDIDATES = 400


@dataclass(frozen=True)
class BeamDefault:
    text: str
    direction: str
    greedy: list[str]  # greedy search's best tokens
    beam: list[str]  # beam search's best tokens (width DEFAULT_BEAM_WIDTH)
    checkpoint_sha256: str


def candidate_sentences() -> list[tuple[str, str, str]]:
    """(text, direction, reference or "") to try, English → Chinese (PICK_DIRECTION): the course's
    sentences, then short pairs (three to nine words), shortest first: the hand-written phrasebook's pairs
    of the training split (sentences people type), then the test split's."""
    found = _short_pairs(read_split("train"), "phrasebook") + _short_pairs(read_split("test"), None)
    return [
        c
        for c in dict.fromkeys([*((text, direction, "") for text, direction in COURSE_CANDIDATES), *found])
        if c[1] == PICK_DIRECTION
    ]


def _short_pairs(rows: list[dict[str, str]], origin: str | None) -> list[tuple[str, str, str]]:
    source, target = DIRECTIONS[PICK_DIRECTION]
    pairs = []
    for row in rows:
        if origin and row.get("origin") != origin or row["direction"] not in (PICK_DIRECTION, "both"):
            continue
        text = row[source]
        size = len(text.split()) if source == "en" else len(text) // 2  # ~2 characters a word
        if 3 <= size <= MAX_CANDIDATE_WORDS:
            pairs.append((text, PICK_DIRECTION, row[target]))
    pairs.sort(key=lambda r: (len(r[0]), r))
    return pairs[:MAX_CANDIDATES]


def contrast(translator, text: str, direction: str, width: int = DEFAULT_BEAM_WIDTH):
    """(greedy's best tokens, beam's best tokens, beam's ln P − greedy's ln P) for one sentence."""
    greedy = translator.search(text, direction, SearchSettings(beam_width=1)).hypotheses[0]
    beam = translator.search(text, direction, SearchSettings(beam_width=width)).hypotheses[0]
    return greedy.tokens, beam.tokens, beam.log_prob - greedy.log_prob


def _plain(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def pick_default(translator, candidates=None, prefer_reference: bool = True) -> BeamDefault:
    """A sentence whose beam-search translation differs from greedy's and is more probable: the course's
    point (greedy's locally best choices miss a better whole). Preferred: the first where beam search gives
    the reference translation and greedy does not; else the first that differs at all. ValueError if none."""
    sha = translator.card.get("checkpoint_sha256", "")
    differing = None
    for text, direction, reference in candidates or candidate_sentences():
        greedy, beam, gain = contrast(translator, text, direction)
        if greedy == beam or gain <= 1e-6:
            continue
        pick = BeamDefault(text, direction, greedy, beam, sha)
        language = DIRECTIONS[direction][1]
        if not prefer_reference or reference and _plain(detokenize(beam, language)) == _plain(reference):
            return pick
        differing = differing or pick
    if differing is None:
        raise ValueError("no candidate sentence where beam and greedy search differ")
    return differing


QUICK_CANDIDATES = 30  # a new model without a stored pick: how many candidates the page tries


def beam_default(translator, path: Path = DEFAULT_FILE) -> BeamDefault:
    """The stored pick when it was made for this model's checkpoint. Else (a retrained model, before the
    pick is made again) a quick one: the stored sentence if it still shows a difference, else the first of a
    few candidates that does, else the stored sentence all the same."""
    sha = translator.card.get("checkpoint_sha256", "")
    stored = BeamDefault(**json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else None
    if stored is not None and stored.checkpoint_sha256 == sha and sha:
        return stored
    quick = ([(stored.text, stored.direction, "")] if stored else []) + candidate_sentences()[:QUICK_CANDIDATES]
    try:
        return pick_default(translator, quick, prefer_reference=False)
    except ValueError:
        text, direction = (stored.text, stored.direction) if stored else COURSE_CANDIDATES[0]
        return BeamDefault(text, direction, [], [], sha)
