"""Where the norm goes and what it averages over: post-LN against pre-LN, and layer norm against batch norm,
with the model's numbers on the typed sentence.

Post-LN (the paper, and this model): x ← LayerNorm(x + F(x)), so the stream is re-normalised after every
sublayer. Pre-LN: x ← x + F(LayerNorm(x)), so the stream is a sum that grows layer after layer, and the path
from the input to the output is an identity, along which gradients reach the first layers undiminished:
pre-LN trains stably without a learning-rate warm-up (Xiong et al. 2020), post-LN needs one.

Layer norm averages over a token's own d features; batch norm over one feature across every token of a
batch of sentences, so a token's normalised vector would depend on the other sentences it was batched with
(and on how many padding positions there are), and sentences of different lengths make that worse.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viz_model.model.trace import TranslationTrace

EPS = 1e-5  # torch's LayerNorm and BatchNorm1d default


@dataclass
class StreamSizes:
    """The residual stream's size through the encoder and the decoder: mean over tokens of the L2 norm."""

    labels: list[tuple[str, int, str]]  # (stack, layer, sublayer name) per sublayer, in order
    before_norm: list[float]  # ‖x + F(x)‖: the sum the norm receives (post-LN)
    after_norm: list[float]  # ‖LayerNorm(x + F(x))‖: the stream handed on
    input_size: tuple[float, float]  # ‖x‖ of the encoder's and the decoder's input (embedding·√d + PE)


def stream_sizes(trace: TranslationTrace) -> StreamSizes:
    labels, before, after = [], [], []
    for stack, layers in (("encoder", trace.encoder_layers), ("decoder", trace.decoder_layers)):
        for layer in layers:
            for name, sub in layer.sublayers.items():
                labels.append((stack, layer.index, name))
                before.append(float(np.linalg.norm(sub.norm_input, axis=-1).mean()))
                after.append(float(np.linalg.norm(sub.output, axis=-1).mean()))
    inputs = (
        float(np.linalg.norm(trace.source_input, axis=-1).mean()),
        float(np.linalg.norm(trace.target_input, axis=-1).mean()),
    )
    return StreamSizes(labels, before, after, inputs)


@dataclass
class NormComparison:
    """The typed sentence's encoder input normalised per token (layer norm) and per feature across a batch
    (batch norm), and batch norm again with other sentences in the batch."""

    tokens: list[str]
    x: np.ndarray  # (T, d) the sentence's encoder input
    layer_mean: np.ndarray  # (T,) μ of each token over its d features
    layer_std: np.ndarray  # (T,) σ of each token
    batch_mean: np.ndarray  # (d,) μ of each feature over every real token of the batch
    batch_std: np.ndarray  # (d,)
    layer_normed: np.ndarray  # (T, d)
    batch_normed: np.ndarray  # (T, d) the sentence's rows, normalised with the first batch's statistics
    batch_normed_other: np.ndarray  # (T, d) the same rows, normalised with the other batch's statistics
    batch_tokens: int  # real tokens in the first batch (padding is not counted)

    @property
    def batch_shift(self) -> float:
        """How far the sentence's batch-normed values move when its batch partners change (max |Δ|)."""
        return float(np.abs(self.batch_normed - self.batch_normed_other).max())


def layer_norm(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T, d) -> normalised rows, μ (T,), σ (T,): each token over its own features (biased variance)."""
    mean = x.mean(axis=-1)
    std = np.sqrt(x.var(axis=-1) + EPS)
    return (x - mean[:, None]) / std[:, None], mean, std


def batch_statistics(rows: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """μ (d,) and σ (d,) of each feature over every token of every sentence in the batch."""
    stacked = np.concatenate(rows, axis=0)
    return stacked.mean(axis=0), np.sqrt(stacked.var(axis=0) + EPS)


def compare_norms(trace: TranslationTrace, batch: list[np.ndarray], other_batch: list[np.ndarray]) -> NormComparison:
    """`batch` and `other_batch`: other sentences' encoder inputs, (T_i, d) each, batched with this one."""
    x = trace.source_input.astype(np.float64)
    layer_normed, layer_mean, layer_std = layer_norm(x)
    mean, std = batch_statistics([x, *batch])
    other_mean, other_std = batch_statistics([x, *other_batch])
    return NormComparison(
        list(trace.source_labels),
        x,
        layer_mean,
        layer_std,
        mean,
        std,
        layer_normed,
        (x - mean) / std,
        (x - other_mean) / other_std,
        sum(len(r) for r in [x, *batch]),
    )


def encoder_inputs(translator, sentences: list[tuple[str, str]]) -> list[np.ndarray]:
    """Each sentence's encoder input (T_i, d): embedding·√d + positional encoding, as the first layer reads it."""
    import torch

    out = []
    with torch.inference_mode():
        for text, direction in sentences:
            ids = torch.tensor([translator.encode(text, direction).ids])
            out.append(translator.model.embed(ids)[0][0].double().numpy())
    return out
