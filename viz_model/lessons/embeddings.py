"""Token vectors of a sentence and of the whole vocabulary (course §1: similar words get similar vectors):
nearest neighbours, the vocabulary's PCA map, the encoder's input as embedding·√d + PE, and the vectors a
similarity page compares.

numpy in, numpy out (float64 where computed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viz_model.model.tokenizer import SPECIAL_TOKENS, UNK
from viz_model.model.trace import TranslationTrace

from .projection import nearest_neighbours, pca
from .similarity import cosine_similarity


@dataclass
class Neighbour:
    token: str
    cosine: float


def sentence_neighbours(embedding: np.ndarray, vocab: list[str], ids: list[int], k: int = 5) -> list[list[Neighbour]]:
    """For each id, the k vocabulary words whose embeddings are closest by cosine (special tokens and the
    word itself left out)."""
    special = {i for i, tok in enumerate(vocab) if tok in SPECIAL_TOKENS}
    out = []
    for i in ids:
        found = nearest_neighbours(embedding, int(i), k=k + len(special), exclude_self=True)
        out.append([Neighbour(vocab[j], c) for j, c in found if j not in special][:k])
    return out


@dataclass
class SentenceNeighbour:
    position: int  # the neighbour's position in the sentence
    token: str
    cosine: float


def contextual_neighbours(
    trace: TranslationTrace, k: int = 3, layer: int = -1
) -> tuple[list[int], list[list[SentenceNeighbour]]]:
    """Nearest neighbours in context: the sentence's word positions, and for each the k other words of the same
    sentence whose encoder-layer-`layer` outputs (the last layer by default) are closest by cosine, best first.

    The vectors are the encoder's own, for this sentence, so a word's vector already carries its context; the
    candidates are only the sentence's other words (special tokens left out), not the vocabulary."""
    positions = word_positions(trace.source_tokens)
    labels = trace.source_labels or trace.source_tokens
    vectors = np.asarray(trace.encoder_layers[layer].output, dtype=np.float64)[positions]  # (W, d)
    cos = cosine_similarity(vectors, vectors)
    out = []
    for row in range(len(positions)):
        order = [j for j in np.argsort(-cos[row], kind="stable") if j != row][:k]
        out.append([SentenceNeighbour(positions[j], labels[positions[j]], float(cos[row, j])) for j in order])
    return positions, out


def vocabulary_map(embedding: np.ndarray, n_components: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(coords (V, n_components), explained variance ratio) of the whole embedding table by PCA."""
    result = pca(embedding, n_components)
    return result.coords, result.explained_variance_ratio


def encoder_input_parts(trace: TranslationTrace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(embedding · √d, positional encoding, their sum = the encoder's input), each (S, d)."""
    scaled = trace.source_embeddings.astype(np.float64) * trace.embedding_scale
    positional = trace.source_positional.astype(np.float64)
    return scaled, positional, scaled + positional


def token_vectors(trace: TranslationTrace, which: str, layer: int = 0, head: int | None = None) -> np.ndarray:
    """Per-token vectors of the source sentence to compare (e.g. on a similarity page), (S, ·):
    "embedding" (unscaled rows of the table), "input" (embedding·√d + PE), "hidden" (encoder layer
    `layer`'s output), "q" / "k" (that layer's self-attention queries/keys, one head or all heads side by side).
    """
    if which == "embedding":
        return trace.source_embeddings
    if which == "input":
        return trace.source_input
    if which == "hidden":
        return trace.encoder_layers[layer].output
    if which in ("q", "k"):
        per_head = getattr(trace.encoder_layers[layer].self_attention, which)  # (H, S, d_k)
        return per_head[head] if head is not None else np.concatenate(list(per_head), axis=1)
    raise ValueError(f"unknown vector kind {which!r}")


SIMILARITY_SOURCES = ("embedding", "hidden", "qk")


def similarity_vectors(
    trace: TranslationTrace, source: str, layer: int = 0, head: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """(query vectors, key vectors) of the source sentence to compare, each (S, ·):
    "embedding": the embedding rows against themselves; "hidden": encoder layer `layer`'s output against
    itself; "qk": that layer's self-attention queries of head `head` against its keys."""
    if source == "qk":
        return token_vectors(trace, "q", layer, head), token_vectors(trace, "k", layer, head)
    if source not in SIMILARITY_SOURCES:
        raise ValueError(f"unknown similarity source {source!r}; expected one of {SIMILARITY_SOURCES}")
    vectors = token_vectors(trace, source, layer)
    return vectors, vectors


def token_kinds(tokens: list[str], unknown_words: list[str]) -> list[tuple[str, str | None]]:
    """What each token of a tokenized sentence is: ("unknown", the word it stands for), ("special", None)
    for the direction tag and <eos>, or ("known", None). Unknown words are matched to the <unk>s in order."""
    words = iter(unknown_words)
    return [
        ("unknown", next(words, "?")) if t == UNK else ("special", None) if t in SPECIAL_TOKENS else ("known", None)
        for t in tokens
    ]


def word_positions(tokens: list[str]) -> list[int]:
    """Positions of the sentence's known words: every token but the special ones and <unk>."""
    return [i for i, t in enumerate(tokens) if t not in SPECIAL_TOKENS]


def in_sentence(vocab_size: int, ids: list[int], tokens: list[str]) -> np.ndarray:
    """(V,) bool: True for the vocabulary entries the sentence's words use (special tokens not marked)."""
    mask = np.zeros(vocab_size, dtype=bool)
    mask[[i for i, t in zip(ids, tokens) if t not in SPECIAL_TOKENS]] = True
    return mask
