"""What does "it" attend to? The textbook picture of self-attention, read off the model's own trace.

For a pronoun in the source ("it", "they", 它), every encoder layer and head gives one row of attention
weights over the source words. `pronoun_attention` collects those rows and names, for each head, the word
it attends to most (the pronoun itself and the special tokens aside), so the page can say plainly what the
model does, whether or not a head turns out to resolve the reference.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viz_model.model.tokenizer import SPECIAL_TOKENS, UNK

PRONOUNS = ("it", "they", "them", "它", "它们")
# A head whose pronoun row gives no word this much weight looks elsewhere (mostly at the direction tag):
# its largest word weight (say 0.001 against 0.99 on <2zh>) names no word, so it casts no vote.
LEAST_VOTE_WEIGHT = 0.1


@dataclass(frozen=True)
class HeadFocus:
    layer: int
    head: int
    word: str  # the source word this head's pronoun row weighs most (pronoun and specials aside)
    position: int
    weight: float


@dataclass(frozen=True)
class PronounAttention:
    position: int  # the pronoun's position in the source tokens
    pronoun: str
    labels: list[str]  # source tokens as shown (unknown words as typed)
    weights: np.ndarray  # (L, H, S) each encoder layer's and head's row for the pronoun
    focus: list[HeadFocus]  # one per (layer, head), layer-major

    def votes(self) -> dict[str, int]:
        """How many heads put their largest weight on each word, among heads that give it at least
        LEAST_VOTE_WEIGHT."""
        out: dict[str, int] = {}
        for f in self.focus:
            if f.weight >= LEAST_VOTE_WEIGHT:
                out[f.word] = out.get(f.word, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    @property
    def heads_on_no_word(self) -> int:
        """Heads that give no source word LEAST_VOTE_WEIGHT (their weight is on the pronoun itself, the
        tag, <eos> or punctuation)."""
        return sum(f.weight < LEAST_VOTE_WEIGHT for f in self.focus)


def find_pronoun(labels: list[str]) -> int | None:
    """Position of the first pronoun among the source labels (an unknown one too: "it→<unk>"), or None."""
    return next((i for i, t in enumerate(labels) if t.split(f"→{UNK}")[0].lower() in PRONOUNS), None)


def pronoun_attention(trace, position: int | None = None) -> PronounAttention | None:
    """The encoder's attention rows for the pronoun at `position` (default: the first pronoun)."""
    tokens = trace.source_tokens
    position = find_pronoun(trace.source_labels) if position is None else position
    if position is None:
        return None
    stack = trace.attention_stack("encoder_self")[:, :, position, :]  # (L, H, S)
    # Words only: not the pronoun itself, not punctuation, not the tag or <eos> (an unknown word counts).
    candidates = np.array(
        [i != position and (t == UNK or t not in SPECIAL_TOKENS and t[:1].isalnum()) for i, t in enumerate(tokens)]
    )
    focus = []
    for layer in range(stack.shape[0]):
        for head in range(stack.shape[1]):
            row = np.where(candidates, stack[layer, head], -1.0)
            j = int(row.argmax())
            focus.append(HeadFocus(layer, head, trace.source_labels[j], j, float(stack[layer, head, j])))
    return PronounAttention(position, trace.source_labels[position], list(trace.source_labels), stack, focus)
