"""Short facts about an attention layer, computed from its weights, for the one-line notes pages print.

- `attention_sink`: when most heads of a layer give one key more attention than any other (often the direction
  tag `<2zh>`, `<eos>`, or [CLS]/[SEP] in BERT), say so: a head with nothing useful to look at still has to
  put its softmax weight somewhere, and a token present in every sentence is a safe place.
- `first_layer_without_sink`: where a lesson on one head should open (the first layer without such a token).
- `decoder_row_labels`: decoder row i reads token i and predicts token i + 1, which its label says.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Sink:
    position: int
    token: str
    heads: int  # heads whose most-attended key (averaged over query rows) it is
    n_heads: int
    mean_weight: float  # the weight those heads give it, averaged over their query rows


def attention_sink(
    weights: np.ndarray,
    key_tokens: list[str],
    mask: np.ndarray | None = None,
    share: float = 0.5,
    least_weight: float = 0.3,
) -> Sink | None:
    """weights (H, Tq, Tk). The key that more than `share` of the heads attend to most, on average over
    the rows that may see it, if those heads give it at least `least_weight`; else None."""
    H = weights.shape[0]
    visible = np.ones(weights.shape[1:], dtype=bool) if mask is None else mask
    counts = np.maximum(visible.sum(axis=0), 1)  # rows that may see each key
    received = (weights * visible).sum(axis=1) / counts  # (H, Tk) mean weight per key
    favourite = received.argmax(axis=1)  # (H,)
    position = int(np.bincount(favourite, minlength=weights.shape[2]).argmax())
    heads = favourite == position
    if heads.sum() <= share * H:
        return None
    mean_weight = float(received[heads, position].mean())
    if mean_weight < least_weight:
        return None
    return Sink(position, key_tokens[position], int(heads.sum()), H, mean_weight)


def first_layer_without_sink(trace, kind: str = "encoder_self") -> int:
    """The first layer of `kind` in which no one token draws most heads (`attention_sink` finds none) in
    this trace; 0 when every layer has one. A lesson on one head opens there: a head parked on the
    direction tag gives it a weight of 1.00 and every word 0.00, so q·k, softmax and α·v show nothing."""
    keys = trace.axis_tokens(kind)[1]
    for layer in range(trace.attention_stack(kind).shape[0]):
        attention = trace.attention(kind, layer)
        if attention_sink(attention.weights, keys, attention.mask) is None:
            return layer
    return 0


def decoder_row_labels(decoder_input: list[str], predicted: list[str]) -> list[str]:
    """Row i of decoder (and cross-) attention: the decoder reads token i to predict token i + 1."""
    return [f"{read} → {then}" for read, then in zip(decoder_input, predicted)]
