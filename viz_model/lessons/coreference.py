"""What does "it" attend to? The textbook picture of self-attention, read off the model's own attention.

For a pronoun of the typed sentence (it, he, she, they, this, that; 它, 他, 她, 他们 …), every encoder layer
and head gives one row of attention weights over the sentence. `rank_heads` names, for each head, the word
it gives the pronoun's weight most to (not the pronoun itself, special tokens, the direction tag or
punctuation) and ranks the heads by that weight ("layer 4 head 2 → animal 0.61"); it counts apart the heads
that park the pronoun's weight on the direction tag or [CLS]/[SEP]. `pronoun_attention` does it on our
translator's trace, `pretrained_views.pronoun_heads` on an encoder view (MiniLM). `translating_token` finds
where our translator resolves the pronoun: the output word that translates it (它, or the noun the output
repeats), and its cross-attention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from viz_model.model.tokenizer import SPECIAL_TOKENS, TARGET_TAG, UNK

PRONOUNS = ("it", "he", "she", "they", "this", "that")
CHINESE_PRONOUNS = ("它", "他", "她", "他们", "她们", "它们")
PARKED_SHARE = 0.5  # a head parks the pronoun when it gives the tag / [CLS]/[SEP] at least this share
_PRONOUN_WORD = re.compile(r"\b(?:" + "|".join(PRONOUNS) + r")\b", re.IGNORECASE)


def has_pronoun(text: str) -> bool:
    """Whether the text holds one of PRONOUNS as a whole word, in any case ("It", "THEY"; not "itself")."""
    return _PRONOUN_WORD.search(text) is not None


def is_pronoun(token: str) -> bool:
    return token.lower() in PRONOUNS or token in CHINESE_PRONOUNS


@dataclass(frozen=True)
class HeadFocus:
    layer: int
    head: int
    word: str  # the word this head's pronoun row weighs most (pronoun, specials and punctuation aside)
    position: int
    weight: float


@dataclass(frozen=True)
class PronounAttention:
    position: int  # the pronoun's position in the tokens
    pronoun: str
    labels: list[str]  # tokens as shown (unknown words as typed)
    weights: np.ndarray  # (L, H, S) each layer's and head's row for the pronoun
    focus: list[HeadFocus]  # one per (layer, head), ranked: largest weight first (ties layer-major)
    parked: int  # heads giving the parking tokens (direction tag, [CLS]/[SEP]) at least PARKED_SHARE
    parking: list[str]  # those tokens' labels, each once

    @property
    def n_heads(self) -> int:
        return self.weights.shape[0] * self.weights.shape[1]

    def targets(self, n: int = 2) -> list[HeadFocus]:
        """The first `n` different words of the ranking (the best head for each)."""
        out: list[HeadFocus] = []
        for f in self.focus:
            if all(f.position != g.position for g in out):
                out.append(f)
        return out[:n]


def rank_heads(
    rows: np.ndarray, labels: list[str], position: int, words: np.ndarray, parking: np.ndarray
) -> PronounAttention:
    """rows (L, H, S): the pronoun's attention row in every layer and head. `words` (S,) bool: the keys a head
    may be named for (the pronoun's own position is left out here); `parking` (S,) bool: the direction tag or
    [CLS]/[SEP]."""
    candidates = np.asarray(words, dtype=bool).copy()
    candidates[position] = False
    focus = []
    if candidates.any():
        for layer in range(rows.shape[0]):
            for head in range(rows.shape[1]):
                row = np.where(candidates, rows[layer, head], -1.0)
                j = int(row.argmax())
                focus.append(HeadFocus(layer, head, labels[j], j, float(rows[layer, head, j])))
    focus.sort(key=lambda f: -f.weight)  # stable: equal weights stay layer-major
    parked = int((rows[..., np.asarray(parking, dtype=bool)].sum(-1) >= PARKED_SHARE).sum())
    names = list(dict.fromkeys(labels[j] for j in np.flatnonzero(parking)))
    return PronounAttention(position, labels[position], list(labels), rows, focus, parked, names)


def find_pronoun(labels: list[str]) -> int | None:
    """Position of the first pronoun among the source labels (an unknown one too: "it→<unk>"), or None."""
    return next((i for i, t in enumerate(labels) if is_pronoun(t.split(f"→{UNK}")[0])), None)


def pronoun_attention(trace, position: int | None = None) -> PronounAttention | None:
    """Our encoder's rows for the pronoun at `position` (default: the first pronoun), heads ranked."""
    tokens = trace.source_tokens
    position = find_pronoun(trace.source_labels) if position is None else position
    if position is None:
        return None
    stack = trace.attention_stack("encoder_self")[:, :, position, :]  # (L, H, S)
    # Words only: not punctuation, not the tag or <eos> (an unknown word counts).
    words = np.array([t == UNK or t not in SPECIAL_TOKENS and t[:1].isalnum() for t in tokens])
    tags = np.array([t in TARGET_TAG.values() for t in tokens])
    return rank_heads(stack, list(trace.source_labels), position, words, tags)


@dataclass(frozen=True)
class OutputWord:
    """The output token that translates the pronoun, and its cross-attention in every decoder layer and head."""

    row: int  # decoder row: reads target_tokens[row], predicts predicted_tokens[row]
    token: str  # predicted_tokens[row]
    named: bool  # True: a pronoun of the output (它, 他 …); False: the token aligned to the pronoun
    weights: np.ndarray  # (L, H, S) the row's cross-attention in every decoder layer and head

    @property
    def layer_means(self) -> np.ndarray:
        """(L, S) averaged over each layer's heads."""
        return self.weights.mean(axis=1)

    def strongest(self, labels: list[str]) -> list[tuple[int, int, str, float]]:
        """Per decoder layer, the source token the row weighs most (heads averaged): (layer, position, label,
        weight)."""
        means = self.layer_means
        return [(layer, int(j), labels[j], float(means[layer, j])) for layer, j in enumerate(means.argmax(axis=1))]


def translating_token(trace, position: int) -> OutputWord | None:
    """The output token that translates the source token at `position`: a pronoun of the output (它/他/她/他们
    …, the one looking most at `position` if several), else the output token whose cross-attention, averaged
    over the heads of every decoder layer, gives `position` the most weight. (The last layer alone is not
    enough: when the output repeats the noun for "it", as in 因为食物病了, that noun looks at "it" in a middle
    layer and at the noun in the last.) None without output words."""
    cross = trace.attention_stack("cross")  # (L, H, T, S)
    aligned = cross.mean(axis=(0, 1))[:, position]  # (T,)
    rows = [i for i, t in enumerate(trace.predicted_tokens) if t not in SPECIAL_TOKENS]
    if not rows:
        return None
    named = [i for i in rows if is_pronoun(trace.predicted_tokens[i])]
    row = max(named or rows, key=lambda i: aligned[i])
    return OutputWord(row, trace.predicted_tokens[row], bool(named), cross[:, :, row, :])
