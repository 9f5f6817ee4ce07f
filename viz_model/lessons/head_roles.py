"""What is each head doing? One role per head, read off its attention weights, for a "what to look for" line.

A student facing 36 attention maps needs a hint where to look. Each head's (Tq, Tk) weight matrix W (rows
are queries and sum to 1 over the keys they may see) is scored against a few textbook patterns:

- `parks`: most of every row lands on one structural token (the direction tag <2zh>/<2en>, <bos>, <eos>,
  [CLS], [SEP], or the sentence's final punctuation): the head has nothing to add here and parks its softmax
  weight somewhere harmless (see `attention_notes.attention_sink`, which finds the same thing per layer);
- `previous` / `next` / `self`: a fixed offset, W[i, i−1], W[i, i+1], W[i, i] (self-attention only: in
  cross-attention rows are target positions and columns source positions, so an offset means nothing);
- `broad`: rows spread evenly (normalised entropy near 1): the head averages the sentence;
- `aligned` (cross only): the row that writes an output word looks at the source word it translates, by the
  bilingual lexicon (`assets/corpus/lexicon.tsv`, `words.tsv`);
- `monotone` (cross only): the most-looked-at source word moves forward as the output is written;
- `pronoun`: a pronoun's row (it, he, she, they, …) looks at a noun: the coreference picture.

Every role has a score in [0, 1] and a threshold (THRESHOLDS); a head takes the role whose score is largest
relative to its threshold among those that pass, and is "unlabelled" when none passes: a label is a hint,
never forced. `head_roles` labels every head of a translation trace, `minilm_head_roles` every head of
MiniLM's (L, H, T, T) attention; `head_notes` builds on them (a head's usual role, its "what to look for"
line).
Everything returns data (numbers, token strings, rule keys); the app words and translates it.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from viz_model.lessons.attention_notes import attention_sink
from viz_model.model.tokenizer import BOS, EOS, PAD, TARGET_TAG, UNK, is_punctuation
from viz_model.model.trace import ATTENTION_KINDS

ASSETS = Path(__file__).resolve().parents[2] / "assets"
LEXICON_FILE = ASSETS / "corpus" / "lexicon.tsv"

MINILM = "minilm"  # the `kind` of a MiniLM head (its self-attention)
SELF_KINDS = ("encoder_self", "decoder_self", MINILM)

UNLABELLED = "unlabelled"
ROLES = ("parks", "previous", "next", "self", "broad", "aligned", "monotone", "pronoun", UNLABELLED)

# The least score at which a role is claimed. A head takes the role with the largest score / threshold.
THRESHOLDS = {
    # Half of every row on one structural token: the head is mostly idle on this input.
    "parks": 0.5,
    # Half of the weight at one fixed offset: a clear positional head (a random row over ~8 keys gives ~0.12).
    "previous": 0.5,
    "next": 0.5,
    "self": 0.5,
    # Rows nearly uniform (a uniform row scores 1). Random rows average ≈ 0.83 (Dirichlet α = 1 over 8-10
    # keys) and ≈ 0.7 (α = 0.5): "broad" asks a little more than a merely unfocused head gives.
    "broad": 0.85,
    # 40 % of an output word's row on the source word it translates: far above the 1/S of an unfocused row.
    "aligned": 0.4,
    # Consecutive output rows whose favourite source word does not move back. Random favourites already
    # reach ~0.5-0.6 (staying put counts as forward), so only a high share means the head reads in order.
    "monotone": 0.8,
    # The pronoun's row gives one noun 40 %: it has picked an antecedent, not averaged the sentence.
    "pronoun": 0.4,
}

# Rule keys: what `HeadRole.rule` says decided the role, for the app to translate into one sentence.
# parks_* name the kind of token parked on; the others are their role's name.
PARK_RULES = {
    "tag": "parks_tag",
    "bos": "parks_bos",
    "eos": "parks_eos",
    "cls": "parks_cls",
    "sep": "parks_sep",
    "punct": "parks_punct",
}
RULES = (*PARK_RULES.values(), "previous", "next", "self", "broad", "aligned", "monotone", "pronoun", UNLABELLED)

PRONOUN_WORDS = ("it", "he", "she", "they", "this", "that", "him", "her", "them")
_NOUN_POS = {"noun", "name"}
MIN_ALIGNED_ROWS = 2  # fewer judgeable output words: no alignment score (one word proves nothing)
MIN_MONOTONE_ROWS = 3  # fewer rows: no order to speak of


@dataclass
class HeadRole:
    kind: str  # one of ATTENTION_KINDS, or "minilm"
    layer: int  # 0-based
    head: int  # 0-based
    role: str  # one of ROLES
    score: float  # [0, 1]: how strongly the role holds on this input (unlabelled: best score / threshold)
    rule: str  # one of RULES, a key the app translates
    detail: dict  # the numbers and tokens of the one-line explanation, depending on the rule (see _score_*)
    scores: dict[str, float] = field(default_factory=dict)  # every role this head was scored for: raw score


# ---- tokens ----------------------------------------------------------------------------------------------


def _word(token: str) -> str:
    """A token as a word: an unknown word's typed text ("zebra→<unk>" → "zebra"), a WordPiece continuation
    without its mark ("##ing", "·ing" → "ing"), lower case."""
    token = token.split(f"→{UNK}")[0]
    if token.startswith("##"):
        token = token[2:]
    elif token.startswith("·") and len(token) > 1:
        token = token[1:]
    return token.lower()


def _is_special(token: str) -> bool:
    return token in (PAD, BOS, EOS, *TARGET_TAG.values(), "[CLS]", "[SEP]", "[PAD]", "[MASK]")


def structural_kind(tokens: Sequence[str], position: int) -> str | None:
    """What kind of structural token sits at `position` ("tag", "bos", "eos", "cls", "sep", "punct"), or None
    for a word. Final punctuation is a mark with only special tokens after it: like the tag it ends every
    sentence, so heads park on it too."""
    token = tokens[position]
    named = {BOS: "bos", EOS: "eos", "[CLS]": "cls", "[SEP]": "sep"}
    if token in TARGET_TAG.values():
        return "tag"
    if token in named:
        return named[token]
    if is_punctuation(token) and all(_is_special(t) for t in tokens[position + 1 :]):
        return "punct"
    return None


@dataclass(frozen=True)
class Lexicon:
    """English word forms ⇄ Chinese words, from the course lexicon and the everyday words table."""

    to_chinese: dict[str, frozenset[str]]
    to_english: dict[str, frozenset[str]]
    parts: dict[str, frozenset[str]]  # English word form → its parts of speech

    def translations(self, token: str) -> frozenset[str]:
        word = _word(token)
        return self.to_chinese.get(word, frozenset()) | self.to_english.get(word, frozenset())

    def noun_like(self, token: str) -> bool:
        """A content token a pronoun may point to: a word (not special, not punctuation, not a pronoun) that
        is a noun or name in the lexicon, or a word the lexicon does not know (names, unknown words)."""
        word = _word(token)
        if _is_special(token) or not any(ch.isalnum() for ch in word) or word in PRONOUN_WORDS:
            return False
        parts = self.parts.get(word)
        return parts is None or bool(parts & _NOUN_POS)


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """Both shipped word lists, every English form (cats, drinks, drank) mapped to the Chinese word."""
    from viz_model.corpus.words import load_words

    pairs: list[tuple[str, str, str]] = []  # (english, chinese, part of speech)
    if LEXICON_FILE.exists():
        with open(LEXICON_FILE, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                pos = {"pronoun": "pron", "adjective": "adj", "adverb": "adv"}.get(row["part_of_speech"])
                pairs.append((row["english"].strip().lower(), row["chinese"].strip(), pos or row["part_of_speech"]))
    for w in load_words():
        pairs += [(form, w.chinese, w.pos) for form in (w.english, *w.forms)]
    to_zh: dict[str, set[str]] = {}
    to_en: dict[str, set[str]] = {}
    parts: dict[str, set[str]] = {}
    for english, chinese, pos in pairs:
        if not english or " " in english or english == "-":
            continue
        parts.setdefault(english, set()).add(pos)
        if chinese and chinese not in ("∅", "-") and " " not in chinese:
            to_zh.setdefault(english, set()).add(chinese)
            to_en.setdefault(chinese, set()).add(english)

    def freeze(d):
        return {k: frozenset(v) for k, v in d.items()}

    return Lexicon(freeze(to_zh), freeze(to_en), freeze(parts))


# ---- one score per role, from one head's (Tq, Tk) matrix ------------------------------------------------
# Each returns (score, detail) or None when the role cannot be judged on this input.


def _score_parks(W: np.ndarray, key_tokens: Sequence[str]) -> tuple[float, dict] | None:
    """Mean over all query rows of the weight on the best structural key. `attention_sink` (over this one
    head, restricted to the structural keys) picks that key: the same measure the layer notes use."""
    cols = [j for j in range(len(key_tokens)) if structural_kind(key_tokens, j)]
    if not cols:
        return None
    sink = attention_sink(W[None][:, :, cols], [key_tokens[j] for j in cols], share=0.0, least_weight=0.0)
    position = cols[sink.position]
    kind = structural_kind(key_tokens, position)
    return sink.mean_weight, {
        "token": key_tokens[position],
        "position": position,
        "token_kind": kind,
        "weight": sink.mean_weight,
    }


def _judged_rows(allowed: np.ndarray) -> np.ndarray:
    """(Tq,) rows with a choice to make: a row that may see one key only (decoder row 0) says nothing."""
    return allowed.sum(axis=1) >= 2


def _score_offset(W: np.ndarray, allowed: np.ndarray, offset: int) -> tuple[float, dict] | None:
    """Mean of W[i, i + offset] over the rows that may see key i + offset and have a choice."""
    Tq, Tk = W.shape
    choice = _judged_rows(allowed)
    rows = [i for i in range(Tq) if 0 <= i + offset < Tk and allowed[i, i + offset] and choice[i]]
    if not rows:
        return None
    weights = np.array([W[i, i + offset] for i in rows])
    return float(weights.mean()), {"weight": float(weights.mean()), "rows": len(rows)}


def _score_broad(W: np.ndarray, allowed: np.ndarray) -> tuple[float, dict] | None:
    """Row entropy / log(keys the row may see), averaged: 1 for uniform rows, 0 for one-hot rows."""
    rows = np.flatnonzero(_judged_rows(allowed))
    if not len(rows):
        return None
    p = np.where(allowed[rows], W[rows], 0.0)
    entropy = -(p * np.log(np.where(p > 0, p, 1.0))).sum(axis=1)
    normalised = entropy / np.log(allowed[rows].sum(axis=1))
    score = float(np.clip(normalised.mean(), 0.0, 1.0))
    return score, {"entropy": score, "keys": float(allowed[rows].sum(axis=1).mean())}


def _score_aligned(
    W: np.ndarray, output_tokens: Sequence[str], key_tokens: Sequence[str], lexicon: Lexicon
) -> tuple[float, dict] | None:
    """For each output word with a lexicon translation among the source tokens: the weight its row gives
    those source tokens. The mean over such rows, when there are at least MIN_ALIGNED_ROWS."""
    judged = []  # (row, source positions, weight)
    for i, token in enumerate(output_tokens[: W.shape[0]]):
        if _is_special(token) or is_punctuation(token):
            continue
        translations = lexicon.translations(token)
        sources = [j for j, s in enumerate(key_tokens) if _word(s) in translations]
        if sources:
            judged.append((i, sources, float(W[i, sources].sum())))
    if len(judged) < MIN_ALIGNED_ROWS:
        return None
    score = float(np.mean([w for _, _, w in judged]))
    row, sources, weight = max(judged, key=lambda r: r[2])
    return score, {
        "rows": len(judged),
        "weight": score,
        "output": output_tokens[row],
        "source": key_tokens[sources[0]],
        "pair_weight": weight,
    }


def _score_monotone(W: np.ndarray, key_tokens: Sequence[str]) -> tuple[float, dict] | None:
    """Share of consecutive rows whose favourite source token does not move back (rows parked on a structural
    token left out), with at least MIN_MONOTONE_ROWS rows. A favourite that never moves, or visits fewer
    positions than half the rows, is not reading along the sentence: score 0."""
    favourite = W.argmax(axis=1)
    kept = [int(j) for j in favourite if not structural_kind(key_tokens, int(j))]
    if len(kept) < MIN_MONOTONE_ROWS:
        return None
    steps = np.diff(kept)
    share = float((steps >= 0).mean())
    distinct = len(set(kept))
    score = share if distinct >= max(2, int(np.ceil(len(kept) / 2))) else 0.0
    return score, {"rows": len(kept), "forward_share": share, "path": [key_tokens[j] for j in kept]}


def _score_pronoun(
    W: np.ndarray, allowed: np.ndarray, query_tokens: Sequence[str], key_tokens: Sequence[str], lexicon: Lexicon
) -> tuple[float, dict] | None:
    """The largest weight a pronoun's row gives one noun-like token (itself aside), over the pronouns."""
    candidates = np.array([lexicon.noun_like(t) for t in key_tokens])
    best = None
    for i, token in enumerate(query_tokens[: W.shape[0]]):
        if _word(token) not in PRONOUN_WORDS or _is_special(token):
            continue
        nouns = candidates & allowed[i]
        if i < len(nouns):
            nouns[i] = False
        if not nouns.any():
            continue
        j = int(np.where(nouns, W[i], -1.0).argmax())
        if best is None or W[i, j] > best[2]:
            best = (i, j, float(W[i, j]))
    if best is None:
        return None
    i, j, weight = best
    return weight, {
        "pronoun": query_tokens[i],
        "position": i,
        "noun": key_tokens[j],
        "noun_position": j,
        "weight": weight,
    }


def role_scores(
    weights: np.ndarray,
    kind: str,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    mask: np.ndarray | None = None,
    output_tokens: Sequence[str] | None = None,
) -> dict[str, tuple[float, dict]]:
    """weights (Tq, Tk) of one head. Every role that can be judged here: role → (score, detail).

    `mask` (Tq, Tk) True where the query may see the key (default: everywhere). `output_tokens` (Tq,): for
    cross-attention, the token each row writes (row i reads target token i and writes the next one, so the
    row that writes "tea" is the one that should look at 茶); default the query tokens."""
    W = np.asarray(weights, dtype=np.float64)
    allowed = np.ones(W.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    lexicon = load_lexicon()
    found = {
        "parks": _score_parks(W, key_tokens),
        "broad": _score_broad(W, allowed),
    }
    if kind == "cross":
        outputs = query_tokens if output_tokens is None else output_tokens
        found["aligned"] = _score_aligned(W, outputs, key_tokens, lexicon)
        found["monotone"] = _score_monotone(W, key_tokens)
    else:
        found["previous"] = _score_offset(W, allowed, -1)
        found["next"] = _score_offset(W, allowed, +1)
        found["self"] = _score_offset(W, allowed, 0)
        found["pronoun"] = _score_pronoun(W, allowed, query_tokens, key_tokens, lexicon)
    return {role: value for role, value in found.items() if value is not None}


def pick_role(scores: dict[str, tuple[float, dict]]) -> tuple[str, float, str, dict]:
    """(role, score, rule, detail): the passing role with the largest score / threshold (ties: ROLES order);
    with none passing, "unlabelled" scored by the best ratio reached and naming the closest role."""
    ratios = {role: scores[role][0] / THRESHOLDS[role] for role in ROLES if role in scores}
    if not ratios:
        return UNLABELLED, 0.0, UNLABELLED, {"closest": None, "closest_score": 0.0}
    best = max(ratios, key=lambda role: (ratios[role], -ROLES.index(role)))
    score, detail = scores[best]
    if ratios[best] < 1.0:
        return (
            UNLABELLED,
            float(np.clip(ratios[best], 0.0, 1.0)),
            UNLABELLED,
            {"closest": best, "closest_score": float(score), "threshold": THRESHOLDS[best]},
        )
    rule = PARK_RULES[detail["token_kind"]] if best == "parks" else best
    return best, float(np.clip(score, 0.0, 1.0)), rule, detail


def head_role(
    weights: np.ndarray,
    kind: str,
    layer: int,
    head: int,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    mask: np.ndarray | None = None,
    output_tokens: Sequence[str] | None = None,
) -> HeadRole:
    """The role of one head from its (Tq, Tk) weights (arguments as in `role_scores`)."""
    scores = role_scores(weights, kind, query_tokens, key_tokens, mask, output_tokens)
    role, score, rule, detail = pick_role(scores)
    return HeadRole(kind, layer, head, role, score, rule, detail, {r: float(s) for r, (s, _) in scores.items()})


# ---- whole models ---------------------------------------------------------------------------------------


def head_roles(trace) -> list[HeadRole]:
    """Every head of a TranslationTrace, kind by kind (ATTENTION_KINDS), layer by layer, head by head.
    Cross rows are judged by the token they write (`trace.predicted_tokens`)."""
    out = []
    for kind in ATTENTION_KINDS:
        query_tokens, key_tokens = trace.axis_tokens(kind)
        outputs = trace.predicted_tokens if kind == "cross" else None
        for layer in range(trace.attention_stack(kind).shape[0]):
            attention = trace.attention(kind, layer)
            for h in range(attention.n_heads):
                out.append(
                    head_role(attention.weights[h], kind, layer, h, query_tokens, key_tokens, attention.mask, outputs)
                )
    return out


def minilm_head_roles(weights: np.ndarray, tokens: Sequence[str]) -> list[HeadRole]:
    """weights (L, H, T, T): MiniLM's self-attention (`EncoderView.attention`), tokens (T,) its pieces or
    labels with [CLS]/[SEP]. Self-attention roles only; layer-major."""
    L, H = weights.shape[:2]
    return [head_role(weights[layer, h], MINILM, layer, h, tokens, tokens) for layer in range(L) for h in range(H)]
