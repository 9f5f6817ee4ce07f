"""What the pages compute beyond the model itself: top attended tokens, differences of heads, the attention
arithmetic for one query redone from the weights, the toy example, vocabulary maps, the model card as rows.

numpy in, numpy out; no Streamlit, so every number a page shows is testable here. Attention matrices are
(queries, keys): rows look at columns.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from viz_model.model.tokenizer import SPECIAL_TOKENS
from viz_model.model.trace import AttentionTrace, TranslationTrace

from .projection import nearest_neighbours, pca
from .similarity import AttentionArithmetic, MoveResult, attention_arithmetic

# ------------------------------------------------------------------------------------------ model card


def model_card_rows(card: dict) -> list[tuple[str, object]]:
    """(catalogue key under "home.", value) for the Home page's model card; read from the card, never
    hard-coded, since the shipped model is retrained. Missing entries become "not_measured"."""
    config = card.get("config", {})
    evaluation = card.get("evaluation", {})
    training = card.get("training", {})

    def number(value, digits=0):
        if value is None:
            return "not_measured"
        return f"{value:,.{digits}f}" if isinstance(value, (int, float)) else str(value)

    norm = "norm_pre" if config.get("norm_first") else "norm_post"
    return [
        ("card_layers", f"{config.get('n_encoder_layers', '?')} + {config.get('n_decoder_layers', '?')}"),
        ("card_heads", number(config.get("n_heads"))),
        ("card_d_model", number(config.get("d_model"))),
        ("card_d_ff", number(config.get("d_ff"))),
        ("card_parameters", number(card.get("parameters"))),
        ("card_vocabulary", number(card.get("vocabulary_size", config.get("vocab_size")))),
        ("card_max_len", number(config.get("max_len"))),
        ("card_training", number(card.get("corpus", {}).get("train") or training.get("examples"))),
        ("card_bleu_en2zh", number(evaluation.get("test_bleu_en2zh"), 1)),
        ("card_bleu_zh2en", number(evaluation.get("test_bleu_zh2en"), 1)),
        ("card_everyday_chrf_en2zh", number(evaluation.get("everyday_chrf_en2zh"), 1)),
        ("card_everyday_chrf_zh2en", number(evaluation.get("everyday_chrf_zh2en"), 1)),
        ("card_everyday_coverage", number(_mean_percent(evaluation, "everyday_coverage"), 0)),
        ("card_norm", norm),
    ]


def _mean_percent(evaluation: dict, prefix: str) -> float | None:
    """Mean over both directions of a share, in percent; None when not measured."""
    values = [evaluation.get(f"{prefix}_{d}") for d in ("en2zh", "zh2en")]
    return None if None in values else 50 * (values[0] + values[1])


# ------------------------------------------------------------------------------------------ attention views


@dataclass
class Attended:
    position: int      # key position
    token: str
    weight: float


def top_attended(weights: np.ndarray, query: int, key_tokens: list[str], k: int = 5,
                 mask: np.ndarray | None = None) -> list[Attended]:
    """The k keys query row `query` of `weights` (Tq, Tk) puts most weight on, largest first.

    Keys the query may not look at (mask False) are left out; ties keep the earlier position first.
    """
    row = np.asarray(weights, dtype=np.float64)[query]
    allowed = np.ones_like(row, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)[query]
    order = [j for j in np.argsort(-row, kind="stable") if allowed[j]]
    return [Attended(int(j), key_tokens[j], float(row[j])) for j in order[:k]]


def head_differences(weights: np.ndarray, heads: list[int]) -> list[tuple[int, int, np.ndarray]]:
    """For heads [a, b, …] of weights (H, Tq, Tk): (b, a, W_b − W_a) for every later head against the first.

    Positive cells: the later head looks there more than the first. Two heads give one difference.
    """
    if len(heads) < 2:
        raise ValueError("a difference needs at least two heads")
    first = heads[0]
    return [(h, first, weights[h].astype(np.float64) - weights[first].astype(np.float64)) for h in heads[1:]]


# ------------------------------------------------------------------------------------------ step by step


@dataclass
class AttentionStep:
    """softmax(q·K/√d_k) V for one query token of one head, recomputed from x and the weight matrices.

    Shapes: d = d_model, d_k = d / H, Tk keys.
    """

    kind: str
    layer: int
    head: int
    query: int                 # query position (row of the attention matrix)
    x_query: np.ndarray        # (d,) the input W_Q multiplies
    x_keys: np.ndarray         # (Tk, d) the inputs W_K and W_V multiply
    q: np.ndarray              # (d_k,) x_query · W_Q[:, head] + b_Q[head]
    k: np.ndarray              # (Tk, d_k)
    v: np.ndarray              # (Tk, d_k)
    allowed: np.ndarray        # (Tk,) bool, False where the causal mask hides the key
    scores: np.ndarray         # (Tk,) q·k_j
    scale: float               # √d_k
    scaled: np.ndarray         # (Tk,) q·k_j / √d_k, −inf where masked
    weights: np.ndarray        # (Tk,) softmax of scaled; 0 where masked
    weighted_values: np.ndarray  # (Tk, d_k) weights_j · v_j
    z: np.ndarray              # (d_k,) Σ_j weights_j v_j: this head's output for the query
    head_outputs: np.ndarray   # (H, d_k) every head's z for this query (same computation)
    concat: np.ndarray         # (d,) heads side by side
    output: np.ndarray         # (d,) concat · W^O + b^O


def _head_columns(head: int, d_k: int) -> slice:
    return slice(head * d_k, (head + 1) * d_k)


def _softmax_masked(scaled: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    out = np.zeros_like(scaled)
    s = scaled[allowed]
    e = np.exp(s - s.max())
    out[allowed] = e / e.sum()
    return out


def attention_step(attention: AttentionTrace, parameters: dict[str, np.ndarray], head: int,
                   query: int) -> AttentionStep:
    """Redo one head's attention for one query in float64 from the traced inputs and the weights
    (`Translator.attention_parameters`: x @ W + b, head h owns columns h·d_k …).

    Independent of the model's torch code, so its agreement with the trace (and the Attention page's
    heatmap) is a real check.
    """
    H = attention.n_heads
    x_q = attention.query_input[query].astype(np.float64)                 # (d,)
    x_kv = attention.key_value_input.astype(np.float64)                   # (Tk, d)
    d = x_q.shape[0]
    d_k = d // H
    W = {name: parameters[name].astype(np.float64) for name in ("W_Q", "W_K", "W_V", "W_O")}
    b = {name: parameters[name].astype(np.float64) for name in ("b_q", "b_k", "b_v", "b_o")}
    allowed = np.asarray(attention.mask[query], dtype=bool)               # (Tk,)
    scale = math.sqrt(d_k)

    def one_head(h):
        cols = _head_columns(h, d_k)
        q = x_q @ W["W_Q"][:, cols] + b["b_q"][cols]                     # (d_k,)
        k = x_kv @ W["W_K"][:, cols] + b["b_k"][cols]                    # (Tk, d_k)
        v = x_kv @ W["W_V"][:, cols] + b["b_v"][cols]                    # (Tk, d_k)
        scores = k @ q                                                   # (Tk,)
        scaled = np.where(allowed, scores / scale, -np.inf)
        weights = _softmax_masked(scaled, allowed)
        return q, k, v, scores, scaled, weights, weights[:, None] * v

    parts = [one_head(h) for h in range(H)]
    head_outputs = np.stack([p[6].sum(axis=0) for p in parts])            # (H, d_k)
    concat = head_outputs.reshape(-1)                                      # (d,)
    q, k, v, scores, scaled, weights, weighted = parts[head]
    return AttentionStep(attention.kind, attention.layer, head, query, x_q, x_kv, q, k, v, allowed, scores,
                         scale, scaled, weights, weighted, weighted.sum(axis=0), head_outputs, concat,
                         concat @ W["W_O"] + b["b_o"])


def step_difference(step: AttentionStep, attention: AttentionTrace) -> float:
    """The largest absolute difference between a recomputed step and what the model's forward pass recorded
    for the same head and query (q, k, v, weights, z, concat, output): the Step by step page's check."""
    h, i = step.head, step.query
    pairs = ((step.q, attention.q[h, i]), (step.k, attention.k[h]), (step.v, attention.v[h]),
             (step.weights, attention.weights[h, i]), (step.z, attention.head_outputs[h, i]),
             (step.concat, attention.concat[i]), (step.output, attention.output[i]))
    return max(float(np.max(np.abs(mine - recorded))) for mine, recorded in pairs)


# ------------------------------------------------------------------------------------------ toy mode


@dataclass
class ToyAttention:
    """A tiny self-attention layer with readable numbers: X (n, d_model), W_* (d_model, d_k)."""

    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    q: np.ndarray           # (n, d_k) X W_Q
    k: np.ndarray           # (n, d_k)
    v: np.ndarray           # (n, d_k)
    arithmetic: AttentionArithmetic


def toy_inputs(n_words: int, d_model: int, d_k: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Seeded X (n, d_model) and W_Q, W_K, W_V (d_model, d_k), rounded to one decimal so they can be read
    (and retyped) by hand."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(0, 1, (n_words, d_model)), 1)
    w = [np.round(rng.normal(0, 1, (d_model, d_k)), 1) for _ in range(3)]
    return (x, *w)


def toy_attention(x, w_q, w_k, w_v, scale_dim: int | None = None) -> ToyAttention:
    """Q = X W_Q, K = X W_K, V = X W_V, then softmax(QKᵀ/√d_k) V with every step shown
    (similarity.attention_arithmetic, the same function the course example uses)."""
    x, w_q, w_k, w_v = (np.asarray(a, dtype=np.float64) for a in (x, w_q, w_k, w_v))
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    return ToyAttention(x, w_q, w_k, w_v, q, k, v, attention_arithmetic(q, k, v, scale_dim=scale_dim))


# ------------------------------------------------------------------------------------------ embeddings


@dataclass
class Neighbour:
    token: str
    cosine: float


def sentence_neighbours(embedding: np.ndarray, vocab: list[str], ids: list[int], k: int = 5
                        ) -> list[list[Neighbour]]:
    """For each id, the k vocabulary words whose embeddings are closest by cosine (special tokens and the
    word itself left out)."""
    special = {i for i, tok in enumerate(vocab) if tok in SPECIAL_TOKENS}
    out = []
    for i in ids:
        found = nearest_neighbours(embedding, int(i), k=k + len(special), exclude_self=True)
        out.append([Neighbour(vocab[j], c) for j, c in found if j not in special][:k])
    return out


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
        per_head = getattr(trace.encoder_layers[layer].self_attention, which)   # (H, S, d_k)
        return per_head[head] if head is not None else np.concatenate(list(per_head), axis=1)
    raise ValueError(f"unknown vector kind {which!r}")


# ------------------------------------------------------------------------------------------ similarity page


@dataclass
class SimilarityMatrices:
    """Dot, cosine and scaled-dot similarity of every query row with every key row, each (n, m), and each
    matrix's softmax over its rows (what attention would do with it: every row sums to 1)."""

    dot: np.ndarray
    cosine: np.ndarray
    scaled_dot: np.ndarray          # dot / √d
    scale: float                    # √d, d = the vectors' dimension
    softmax: dict[str, np.ndarray]  # measure name -> softmax of that matrix's rows

    MEASURES = ("dot", "cosine", "scaled_dot")

    def matrix(self, measure: str) -> np.ndarray:
        return getattr(self, measure)


def similarity_matrices(queries: np.ndarray, keys: np.ndarray) -> SimilarityMatrices:
    """All three similarities between queries (n, d) and keys (m, d) (similarity.py), with softmax rows.

    With the Q and K vectors of one head, `scaled_dot` is that head's q·k/√d_k and its softmax rows are the
    head's attention weights (encoder self-attention has no mask).
    """
    from .similarity import cosine_similarity, dot_similarity, scaled_dot_similarity, softmax

    queries = np.asarray(queries, dtype=np.float64)
    matrices = {"dot": dot_similarity(queries, keys), "cosine": cosine_similarity(queries, keys),
                "scaled_dot": scaled_dot_similarity(queries, keys)}
    return SimilarityMatrices(**matrices, scale=math.sqrt(queries.shape[1]),
                              softmax={name: softmax(m, axis=-1) for name, m in matrices.items()})


SIMILARITY_SOURCES = ("embedding", "hidden", "qk")


def similarity_vectors(trace: TranslationTrace, source: str, layer: int = 0, head: int = 0
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


class FeatureTableError(ValueError):
    """An edited word table the hand example cannot use. `code` names the catalogue message
    ("similarity.bad_<code>"); `cells` lists the offending (word, feature) cells or words."""

    def __init__(self, code: str, cells: list[str]):
        super().__init__(f"{code}: {', '.join(cells)}")
        self.code, self.cells = code, cells


def feature_vectors(words: list[str], features: list[str], rows) -> dict[str, np.ndarray]:
    """The edited table (one row of feature values per word) as {word: vector (d,)}.

    Raises FeatureTableError "not_number" for a cell that is not a finite number (text, empty, NaN, inf)
    and "zero_vector" for a word whose features are all 0 (it has no direction, so its cosine with any
    word is undefined and the word could not move).
    """
    bad, vectors = [], {}
    for word, row in zip(words, rows):
        values = []
        for feature, cell in zip(features, row):
            try:
                value = float(cell)
            except (TypeError, ValueError):
                value = math.nan
            if not math.isfinite(value):
                bad.append(f"{word} · {feature}")
            values.append(value)
        vectors[str(word)] = np.array(values, dtype=np.float64)
    if bad:
        raise FeatureTableError("not_number", bad)
    zero = [w for w, v in vectors.items() if not np.any(v)]
    if zero:
        raise FeatureTableError("zero_vector", zero)
    return vectors


# The course's movements (course §2): (name, focus word, the words it attends over).
HAND_SCENARIOS = (
    ("orange_pair", "orange", ("orange", "apple")),                 # 0.57 orange + 0.43 apple
    ("orange_sentence", "orange", ("orange", "apple", "and", "an")),  # 0.40, 0.30, 0.15, 0.15
    ("apple_fruit", "apple", ("apple", "orange")),                  # "an apple and an orange"
    ("apple_phone", "apple", ("apple", "phone")),                   # 0.57 apple + 0.43 phone
)


@dataclass
class HandExample:
    words: list[str]
    vectors: np.ndarray                  # (n, d) in `words` order
    cosine: np.ndarray                   # (n, n)
    softmax: np.ndarray                  # (n, n) softmax of each cosine row
    moves: dict[str, MoveResult]         # scenario name -> the focus word's move


def hand_example(vectors: dict[str, np.ndarray]) -> HandExample:
    """The course's hand-made word vectors (or the user's edit of them): the cosine matrix of all words, its
    softmax rows, and each scenario of HAND_SCENARIOS as a `contextual_move` with cosines rounded to two
    decimals, as the course does (0.71, hence 0.58/0.42 by plain normalisation, 0.57/0.43 by softmax)."""
    from .similarity import contextual_move, cosine_similarity, softmax

    words = list(vectors)
    V = np.stack([np.asarray(vectors[w], dtype=np.float64) for w in words])
    cosine = cosine_similarity(V, V)
    moves = {name: contextual_move(list(used), vectors, focus, round_similarities=2)
             for name, focus, used in HAND_SCENARIOS if all(w in vectors for w in used)}
    return HandExample(words, V, cosine, softmax(cosine, axis=-1), moves)


@dataclass
class VectorPair:
    first: int
    second: int
    dot: float
    scaled_dot: float
    cosine: float
    angle_degrees: float


def vector_pairs(vectors) -> list[VectorPair]:
    """Every pair (i < j) of rows of `vectors` (n, d) with its dot, dot/√d, cosine and angle
    (course §2: (1,4)·(0,3) = 12, /√2 = 8.49, cos 14° = 0.97)."""
    from .similarity import similarity_table

    table = similarity_table(vectors)
    n = table.dot.shape[0]
    return [VectorPair(i, j, float(table.dot[i, j]), float(table.scaled_dot[i, j]), float(table.cosine[i, j]),
                       float(table.angle_degrees[i, j])) for i in range(n) for j in range(i + 1, n)]


# ------------------------------------------------------------------------------------------ positional page


def distance_profiles(similarity: np.ndarray, starts) -> dict[int, np.ndarray]:
    """For each start position p, the row similarity[p, p:] as a function of the distance Δ = 0, 1, …
    Sinusoidal encodings give (nearly) the same curve from every start: similarity depends on Δ only."""
    similarity = np.asarray(similarity, dtype=np.float64)
    return {int(p): similarity[p, p:] for p in starts if 0 <= p < similarity.shape[0]}


# ------------------------------------------------------------------------------------------ beam search page


def path_tokens(record, node_id: int) -> list[str]:
    """The tokens from the first step down to candidate `node_id` of a SearchRecord."""
    return [c.token for c in record.path_nodes(node_id)]


def scientific(n: int) -> tuple[float, int]:
    """(mantissa, exponent) with n = mantissa × 10^exponent, exact for big integers (10**40 → (1.0, 40))."""
    n = int(n)
    if n == 0:
        return 0.0, 0
    exponent = len(str(abs(n))) - 1
    return n / 10**exponent, exponent


# ------------------------------------------------------------------------------------------ metrics page


def metric_tokens(tokenizer, text: str) -> list[str]:
    """Tokens of `text` for BLEU/ROUGE: the model's tokenization, with each `<unk>` put back as the word
    it stands for (two different unknown words must not count as a match)."""
    from viz_model.model.tokenizer import UNK

    tokens, unknown = tokenizer.split(text)
    spans = iter(unknown)
    return [next(spans, tok) if tok == UNK else tok for tok in tokens]


@dataclass
class NgramRow:
    gram: tuple[str, ...]
    count: int            # times in the candidate
    reference_max: int    # most times in any one reference
    clipped: int          # min(count, reference_max): what BLEU's p_n counts as matched


def ngram_rows(candidate: list[str], references: list[list[str]], n: int) -> list[NgramRow]:
    """Each distinct n-gram of the candidate (in order of first appearance) with its clipped count;
    Σ clipped / Σ count is BLEU's p_n (metrics.clipped_counts)."""
    from .metrics import ngrams

    counts = ngrams(candidate, n)
    reference_max: dict = {}
    for ref in references:
        for gram, c in ngrams(ref, n).items():
            reference_max[gram] = max(reference_max.get(gram, 0), c)
    return [NgramRow(g, c, reference_max.get(g, 0), min(c, reference_max.get(g, 0))) for g, c in counts.items()]


# Course §7: reference ABCDEF, prediction ABBCD -> p1 = 4/5, p2 = 3/4, p3 = 1/3, p4 = 0.
COURSE_BLEU_REFERENCE = ("A", "B", "C", "D", "E", "F")
COURSE_BLEU_CANDIDATE = ("A", "B", "B", "C", "D")
