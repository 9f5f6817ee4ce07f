"""What the pages show of a pretrained encoder (MiniLM) and of our translator's encoder read the same way,
as plain data from an `EncoderView`: one layer's heads with or without [CLS]/[SEP], how much attention
lands on them, both models' heads on one colour scale, a pronoun's row in every head, learned
against sinusoidal positions, and one head's attention redone from its captured Q and K."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from viz_model.lessons.coreference import PRONOUNS, PronounAttention, rank_heads
from viz_model.model.positional import sinusoidal_encoding
from viz_model.model.pretrained import EncoderView

MODELS = ("translator", "minilm")  # the sidebar's picker; the URL says ?model=minilm
APPLE_WORD, APPLE_TEXTS = "apple", ("an apple and an orange", "an apple phone")
COREFERENCE_SENTENCE = "The animal didn't cross the street because it was too tired."
ENGLISH_EXAMPLE = COREFERENCE_SENTENCE
POSITIONS_SHOWN = 40

# Han characters, kana, hangul and full-width punctuation: text a WordPiece English vocabulary mostly reads
# as [UNK].
_CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")


def reads_english(text: str) -> bool:
    """False when the text holds CJK characters, which MiniLM's English vocabulary cannot read."""
    return _CJK.search(text) is None


def shown_attention(view: EncoderView, hide_special: bool) -> tuple[list[str], np.ndarray]:
    """(labels, attention (L, H, S, S)) as drawn: all pieces, or without [CLS]/[SEP] and rows renormalised.
    With nothing but special pieces (an empty text) the special pieces stay."""
    if hide_special and (~view.special).any():
        return view.without_special()
    return list(view.labels), view.attention


def head_and_layer_mean(weights: np.ndarray, layer: int, head: int) -> np.ndarray:
    """(2, n, n): one head's attention map beside the mean of its layer's heads (weights: (layers, heads, n, n)),
    so a student sees what this head does that the layer as a whole does not."""
    return np.stack([weights[layer, head], weights[layer].mean(axis=0)])


def special_share(view: EncoderView) -> float:
    """The share of all attention (every layer, head and query, each row summing to 1) that lands on the
    special pieces ([CLS], [SEP]): how much hiding them takes away."""
    return float(view.attention[..., view.special].sum(-1).mean()) if view.special.any() else 0.0


def common_range(*matrices: np.ndarray) -> tuple[float, float]:
    """One colour scale, 0 to the largest weight of all, for panels drawn in separate figures."""
    return 0.0, float(max((m.max() for m in matrices if m.size), default=1.0)) or 1.0


@dataclass
class TiledHeads:
    """Every layer's and head's (S, S) map in one matrix: layer l, head h at block (l, h), one NaN row and
    column between blocks. One heatmap instead of L × H small ones: a browser draws it several times faster."""

    matrix: np.ndarray  # (L·(S+1) − 1, H·(S+1) − 1)
    row_labels: list[str]  # "L2 · 3:fox"; a separator's label is unique blank text
    col_labels: list[str]  # "H5 · 7:the"

    def block(self, layer: int, head: int) -> np.ndarray:
        """The (S, S) map of one layer and head, found by its labels."""
        rows = [i for i, label in enumerate(self.row_labels) if label.startswith(f"L{layer + 1} · ")]
        cols = [j for j, label in enumerate(self.col_labels) if label.startswith(f"H{head + 1} · ")]
        return self.matrix[np.ix_(rows, cols)]


def tile_heads(weights: np.ndarray, labels: list[str]) -> TiledHeads:
    """(L, H, S, S) attention as one matrix of L × H blocks, with labels naming layer, head and piece."""
    L, H, S, _ = weights.shape
    step = S + 1
    matrix = np.full((L * step - 1, H * step - 1), np.nan, dtype=np.float32)
    for layer in range(L):
        for head in range(H):
            matrix[layer * step : layer * step + S, head * step : head * step + S] = weights[layer, head]

    def axis(prefix: str, n: int) -> list[str]:
        out = []
        for k in range(n * step - 1):
            block, j = divmod(k, step)
            out.append(f"{prefix}{block + 1} · {labels[j]}" if j < S else " " * (block + 1))
        return out

    return TiledHeads(matrix, axis("L", L), axis("H", H))


def pronoun_position(view: EncoderView) -> int | None:
    """The first piece that is a pronoun (it, he, she, they, this, that; any case) as a whole word: not a
    "##" continuation, not followed by one. None when there is none."""
    pieces = view.pieces
    for i, piece in enumerate(pieces):
        whole = not view.special[i] and (i + 1 == len(pieces) or not pieces[i + 1].startswith("##"))
        if whole and piece.lower() in PRONOUNS:
            return i
    return None


def pronoun_heads(view: EncoderView, position: int | None = None) -> PronounAttention | None:
    """The pronoun's row in every layer × head, heads ranked by the weight they give one word (not the pronoun,
    [CLS]/[SEP] or punctuation; a word's "##" pieces count), and the heads parking it on [CLS]/[SEP]."""
    position = pronoun_position(view) if position is None else position
    if position is None:
        return None
    words = np.array([not s and p.lstrip("#")[:1].isalnum() for p, s in zip(view.pieces, view.special)])
    return rank_heads(view.attention[:, :, position, :], list(view.labels), position, words, view.special)


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    """(n, n) cosine similarity between the rows of `vectors`."""
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    unit = vectors / np.where(norms > 0, norms, 1.0)
    return unit @ unit.T


@dataclass
class PositionComparison:
    """Learned position vectors beside the sinusoid, for the first n positions."""

    learned: np.ndarray  # (n, d) the model's position table
    sinusoid: np.ndarray  # (n, d) sinusoidal encoding at the same width
    cosines: np.ndarray  # (2, n, n) cosine between positions: learned, sinusoidal

    @property
    def colour_limit(self) -> float:
        """A few dimensions of a learned table are far larger than the rest (outlier features): a colour
        scale to ±their maximum would leave every other cell white. The 99th percentile of |value| instead
        (the outliers saturate)."""
        return float(np.percentile(np.abs(self.learned), 99)) or 1.0


def compare_positions(learned: np.ndarray) -> PositionComparison:
    sinusoid = sinusoidal_encoding(learned.shape[0], learned.shape[1])
    return PositionComparison(learned, sinusoid, np.stack([cosine_matrix(learned), cosine_matrix(sinusoid)]))


@dataclass
class HeadStep:
    """One query's attention in one head, redone from the model's captured Q and K."""

    q: np.ndarray  # (d_k,)
    k: np.ndarray  # (S, d_k)
    scores: np.ndarray  # (S,) q · k_j
    scaled: np.ndarray  # (S,) ÷ √d_k
    weights: np.ndarray  # (S,) softmax
    reported: np.ndarray  # (S,) the model's own attention row (output_attentions)
    z: np.ndarray  # (d_k,) Σ weights · v
    scale: float  # √d_k

    @property
    def difference(self) -> float:
        return float(np.abs(self.weights - self.reported).max())


def head_step(view: EncoderView, layer: int, head: int, query: int) -> HeadStep:
    """softmax(q·Kᵀ/√d_k) for one query of one head, beside the attention the model reported."""
    q, k, v = view.q[layer, head, query], view.k[layer, head], view.v[layer, head]
    scale = float(np.sqrt(q.shape[-1]))
    scores = k @ q
    scaled = scores / scale
    weights = np.exp(scaled - scaled.max())
    weights /= weights.sum()
    return HeadStep(q, k, scores, scaled, weights, view.attention[layer, head, query], weights @ v, scale)
