"""The one trace format: everything one translation computed, as numpy arrays, ready for the app.

A trace is built from the dicts that `Transformer.encode/decode(record=True)` return, i.e. from the very
tensors the forward pass used, not by computing anything a second time. Batch size is 1.

Shapes (S source tokens, T decoder positions, H heads, d = d_model, d_k = d/H, V vocabulary):
attention matrices are (queries, keys), rows look at columns. Encoder self-attention (H, S, S);
decoder self-attention (H, T, T), causal; cross-attention (H, T, S), target rows × source columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the trace itself needs numpy only; build_trace imports torch
    from .tokenizer import Tokenizer
    from .transformer import Transformer

ATTENTION_KINDS = ("encoder_self", "decoder_self", "cross")


def _np(t) -> np.ndarray:
    return t.detach().cpu().numpy().astype(np.float32, copy=False)


@dataclass
class AttentionTrace:
    """One multi-head attention block: every step from x to the W^O output."""

    kind: str  # one of ATTENTION_KINDS
    layer: int
    query_input: np.ndarray  # (Tq, d) x that W_Q multiplies (the LayerNorm output under pre-LN)
    key_value_input: np.ndarray  # (Tk, d) x that W_K and W_V multiply (encoder output for cross)
    q: np.ndarray  # (H, Tq, d_k)
    k: np.ndarray  # (H, Tk, d_k)
    v: np.ndarray  # (H, Tk, d_k)
    scores: np.ndarray  # (H, Tq, Tk) q·k
    scaled_scores: np.ndarray  # (H, Tq, Tk) q·k / √d_k, −inf where masked
    mask: np.ndarray  # (Tq, Tk) bool, True where the query may look at the key
    weights: np.ndarray  # (H, Tq, Tk) softmax rows: each sums to 1, masked entries exactly 0
    head_outputs: np.ndarray  # (H, Tq, d_k) z = weights @ v
    concat: np.ndarray  # (Tq, d) heads side by side
    output: np.ndarray  # (Tq, d) concat @ W^O + b^O

    @classmethod
    def from_record(cls, kind: str, layer: int, rec: dict) -> AttentionTrace:
        Tq, Tk = rec["weights"].shape[-2:]
        mask = (
            rec["allowed"].expand(1, 1, Tq, Tk)[0, 0] if rec["allowed"] is not None else np.ones((Tq, Tk), dtype=bool)
        )
        return cls(
            kind=kind,
            layer=layer,
            query_input=_np(rec["query_input"][0]),
            key_value_input=_np(rec["key_value_input"][0]),
            q=_np(rec["q"][0]),
            k=_np(rec["k"][0]),
            v=_np(rec["v"][0]),
            scores=_np(rec["scores"][0]),
            scaled_scores=_np(rec["scaled_scores"][0]),
            mask=np.asarray(mask.cpu().numpy(), dtype=bool),
            weights=_np(rec["weights"][0]),
            head_outputs=_np(rec["head_outputs"][0]),
            concat=_np(rec["concat"][0]),
            output=_np(rec["output"][0]),
        )

    @property
    def n_heads(self) -> int:
        return self.weights.shape[0]

    @property
    def mean_weights(self) -> np.ndarray:
        """(Tq, Tk) the average over heads, a common summary of a layer."""
        return self.weights.mean(axis=0)


@dataclass
class SublayerTrace:
    """The residual stream around one sublayer (see `transformer.Sublayer`); all (T, d)."""

    name: str  # "self_attention", "cross_attention" or "feed_forward"
    input: np.ndarray
    sublayer_output: np.ndarray  # attention after W^O, or the FFN output
    norm_input: np.ndarray  # post-LN: x + sublayer(x); pre-LN: x
    norm_output: np.ndarray
    output: np.ndarray  # the stream handed to the next sublayer


@dataclass
class LayerTrace:
    index: int
    self_attention: AttentionTrace
    cross_attention: AttentionTrace | None  # decoder layers only
    ffn_hidden: np.ndarray  # (T, d_ff) after ReLU
    sublayers: dict[str, SublayerTrace]

    @property
    def output(self) -> np.ndarray:
        return self.sublayers["feed_forward"].output


def _layer_traces(records: list[dict], self_kind: str) -> list[LayerTrace]:
    layers = []
    for i, rec in enumerate(records):
        cross = rec["cross_attention"]
        layers.append(
            LayerTrace(
                index=i,
                self_attention=AttentionTrace.from_record(self_kind, i, rec["self_attention"]),
                cross_attention=AttentionTrace.from_record("cross", i, cross) if cross is not None else None,
                ffn_hidden=_np(rec["ffn_hidden"][0]),
                sublayers={
                    name: SublayerTrace(name=name, **{k: _np(v[0]) for k, v in sub.items()})
                    for name, sub in rec["sublayers"].items()
                },
            )
        )
    return layers


@dataclass
class TranslationTrace:
    """Everything one teacher-forced pass over (source, translation) computed.

    The decoder input is `<bos> y1 … yn`; row t of `next_token_probs` is the distribution the decoder
    produced at position t, from which y_{t+1} (or `<eos>` at the last row) was chosen.
    """

    source_tokens: list[str]
    source_ids: np.ndarray  # (S,)
    target_tokens: list[str]  # (T,) decoder input, starting with <bos>
    target_ids: np.ndarray  # (T,)
    predicted_tokens: list[str]  # (T,) the token chosen at each position: y1 … yn <eos>
    predicted_ids: np.ndarray  # (T,)
    embedding_scale: float  # √d_model: embeddings are multiplied by it before adding PE
    source_embeddings: np.ndarray  # (S, d) rows of the embedding table, unscaled
    source_positional: np.ndarray  # (S, d)
    source_input: np.ndarray  # (S, d) = source_embeddings · √d + source_positional
    target_embeddings: np.ndarray  # (T, d)
    target_positional: np.ndarray  # (T, d)
    target_input: np.ndarray  # (T, d)
    encoder_layers: list[LayerTrace]
    encoder_output: np.ndarray  # (S, d)
    decoder_layers: list[LayerTrace]
    decoder_output: np.ndarray  # (T, d) before the output projection
    next_token_probs: np.ndarray  # (T, V)
    # In float64 from the logits, where float32 probabilities would round a rare token's to 0: training's
    # loss (its label smoothing averages ln p over the whole vocabulary) is read off a trace, not recomputed.
    predicted_log_probs: np.ndarray  # (T,) ln p of each predicted token
    mean_log_probs: np.ndarray  # (T,) mean over the vocabulary of ln p
    source_labels: list[str] | None = None  # (S,) source tokens for display: unknown words as typed

    def __post_init__(self):
        if self.source_labels is None:
            self.source_labels = list(self.source_tokens)

    def attention(self, kind: str, layer: int) -> AttentionTrace:
        if kind == "encoder_self":
            return self.encoder_layers[layer].self_attention
        if kind == "decoder_self":
            return self.decoder_layers[layer].self_attention
        if kind == "cross":
            return self.decoder_layers[layer].cross_attention
        raise ValueError(f"unknown attention kind {kind!r}; expected one of {ATTENTION_KINDS}")

    def attention_stack(self, kind: str) -> np.ndarray:
        """(L, H, Tq, Tk) the weights of every layer and head of one attention kind."""
        n = len(self.encoder_layers if kind == "encoder_self" else self.decoder_layers)
        return np.stack([self.attention(kind, i).weights for i in range(n)])

    def axis_tokens(self, kind: str) -> tuple[list[str], list[str]]:
        """(query tokens, key tokens) for the rows and columns of one attention kind, as a reader sees them
        (an unknown source word as "zebra→<unk>")."""
        if kind == "encoder_self":
            return self.source_labels, self.source_labels
        if kind == "decoder_self":
            return self.target_tokens, self.target_tokens
        return self.target_tokens, self.source_labels

    @property
    def chosen_token_probs(self) -> np.ndarray:
        """(T,) the probability the decoder gave to the token it emitted at each position."""
        return self.next_token_probs[np.arange(len(self.predicted_ids)), self.predicted_ids]


def build_trace(
    model: Transformer,
    tokenizer: Tokenizer,
    source_ids: list[int],
    target_ids: list[int],
    source_labels: list[str] | None = None,
    encoded: tuple | None = None,
) -> TranslationTrace:
    """One recorded forward pass. `target_ids` is the translation without <bos>/<eos>; `source_labels`
    names the source tokens for display (default: the tokens); `encoded` what `model.encode(source,
    record=True)` returned for these source ids, when the caller has it (the encoder then runs once for
    the search and the trace)."""
    import torch

    decoder_input = [tokenizer.bos_id] + list(target_ids)
    with torch.inference_mode():
        memory, source_allowed, enc = encoded or model.encode(torch.tensor([source_ids]), record=True)
        if enc is None or memory.shape[:2] != (1, len(source_ids)):
            raise ValueError("`encoded` is not a recorded encoder pass over these source ids")
        logits, dec = model.decode(torch.tensor([decoder_input]), memory, source_allowed, record=True)
    scale = float(np.sqrt(model.config.d_model))
    predicted_ids = list(target_ids) + [tokenizer.eos_id]
    log_p = logits[0].double().log_softmax(-1)  # (T, V)
    src_tok, src_pe = _np(enc["token_embeddings"][0]), _np(enc["positional"])
    tgt_tok, tgt_pe = _np(dec["token_embeddings"][0]), _np(dec["positional"])
    trace = TranslationTrace(
        source_tokens=tokenizer.tokens(source_ids),
        source_ids=np.asarray(source_ids),
        target_tokens=tokenizer.tokens(decoder_input),
        target_ids=np.asarray(decoder_input),
        predicted_tokens=tokenizer.tokens(predicted_ids),
        predicted_ids=np.asarray(predicted_ids),
        embedding_scale=scale,
        source_embeddings=src_tok,
        source_positional=src_pe,
        source_input=src_tok * scale + src_pe,
        target_embeddings=tgt_tok,
        target_positional=tgt_pe,
        target_input=tgt_tok * scale + tgt_pe,
        encoder_layers=_layer_traces(enc["layers"], "encoder_self"),
        encoder_output=_np(memory[0]),
        decoder_layers=_layer_traces(dec["layers"], "decoder_self"),
        decoder_output=_np(dec["output"][0]),
        next_token_probs=_np(logits[0].softmax(-1)),
        predicted_log_probs=log_p[torch.arange(len(predicted_ids)), torch.tensor(predicted_ids)].numpy(),
        mean_log_probs=log_p.mean(-1).numpy(),
        source_labels=source_labels,
    )
    return trace
