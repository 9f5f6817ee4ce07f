"""One Transformer block with the model's numbers: attention, Add & Norm, the feed-forward network.

The trace records the residual stream around every sublayer (`SublayerTrace`); this module lays one
block out the way the course draws it, and redoes LayerNorm by hand from the recorded sum, the token's mean
and standard deviation and the model's γ and β, so the page can show that the numbers add up:

    post-LN:  z = x + Attention(x);   LayerNorm(z)_i = γ_i · (z_i − mean(z)) / σ(z) + β_i
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class AddNorm:
    """Add & Norm for one sublayer; all (T, d) except the per-token statistics (T,)."""

    residual_input: np.ndarray  # x, the stream entering the sublayer
    sublayer_output: np.ndarray  # Attention(x) after W^O, or FFN(x)
    normalised_input: np.ndarray  # what LayerNorm reads: x + sublayer(x) (post-LN) or x (pre-LN)
    mean: np.ndarray  # (T,) per token
    sigma: np.ndarray  # (T,) per token, √(variance + ε)
    standardised: np.ndarray  # (z − mean) / σ: each token's row has mean 0 and variance ≈ 1
    recomputed: np.ndarray  # γ · standardised + β, by hand
    model_output: np.ndarray  # what the model's LayerNorm returned

    @property
    def difference(self) -> float:
        """Largest gap between the hand computation and the model's LayerNorm."""
        return float(np.abs(self.recomputed - self.model_output).max())


def add_and_norm(sublayer, gamma: np.ndarray, beta: np.ndarray, eps: float = 1e-5) -> AddNorm:
    """Redo one recorded LayerNorm (`sublayer` is a trace.SublayerTrace) from its input."""
    z = sublayer.norm_input.astype(np.float64)
    mean = z.mean(axis=-1)
    sigma = np.sqrt(z.var(axis=-1) + eps)  # LayerNorm's variance is the biased one
    standardised = (z - mean[:, None]) / sigma[:, None]
    return AddNorm(
        sublayer.input,
        sublayer.sublayer_output,
        sublayer.norm_input,
        mean,
        sigma,
        standardised,
        standardised * gamma + beta,
        sublayer.norm_output,
    )


@dataclass
class BlockView:
    attention: AddNorm  # the (self-)attention sublayer
    cross_attention: AddNorm | None
    ffn_hidden: np.ndarray  # (T, d_ff) after ReLU
    feed_forward: AddNorm
    output: np.ndarray  # (T, d) what the next block reads

    @property
    def relu_zero_share(self) -> float:
        """Share of the FFN's hidden units that ReLU set to zero: most are, for any one token."""
        return float((self.ffn_hidden <= 0).mean())


def layer_norm_parameters(model, stack: str, layer: int) -> dict[str, tuple[np.ndarray, np.ndarray, float]]:
    """γ, β and ε of every LayerNorm in one block of our Transformer, by sublayer name."""
    block = (model.encoder_layers if stack == "encoder" else model.decoder_layers)[layer]
    names = {
        "self_attention": "attention_sublayer" if stack == "encoder" else "self_sublayer",
        "cross_attention": "cross_sublayer",
        "feed_forward": "ffn_sublayer",
    }
    out = {}
    for name, attribute in names.items():
        if hasattr(block, attribute):
            norm = getattr(block, attribute).norm
            out[name] = (norm.weight.detach().numpy(), norm.bias.detach().numpy(), float(norm.eps))
    return out


def block_view(layer_trace, norms: dict[str, tuple[np.ndarray, np.ndarray, float]]) -> BlockView:
    """Lay out one recorded block (`trace.LayerTrace`) with every LayerNorm redone by hand."""
    subs = layer_trace.sublayers
    redo = {name: add_and_norm(subs[name], *norms[name]) for name in subs}
    return BlockView(
        attention=redo["self_attention"],
        cross_attention=redo.get("cross_attention"),
        ffn_hidden=layer_trace.ffn_hidden,
        feed_forward=redo["feed_forward"],
        output=layer_trace.output,
    )


def trace_block_view(model, trace, kind: str, layer: int) -> BlockView:
    """The block that holds attention `kind` ("encoder_self", "decoder_self" or "cross") at `layer`."""
    stack = "encoder" if kind == "encoder_self" else "decoder"
    layers = trace.encoder_layers if stack == "encoder" else trace.decoder_layers
    return block_view(layers[layer], layer_norm_parameters(model, stack, layer))
