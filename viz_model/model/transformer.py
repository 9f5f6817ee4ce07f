"""The encoder–decoder Transformer of "Attention Is All You Need", small enough to show every number.

Attention is computed explicitly (no fused kernel) because the app shows every intermediate. Modules never
store what they computed: with `record=True` a forward pass *returns* its intermediates as dicts of tensors,
because one model object is shared by many browser sessions on many threads.

Shapes: B batch, S source length, T target length, H heads, d = d_model, d_k = d_model / H.
Attention matrices are always (queries, keys): rows are the tokens that look, columns the tokens looked at.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from .config import ModelConfig
from .experiment import EXPERIMENT, gated, hardened
from .positional import sinusoidal_encoding

Tensor = torch.Tensor
Record = dict[str, Any] | None  # what a forward pass with record=True returns; None without
KeysValues = tuple[Tensor, Tensor]  # K, V (B, H, T, d_k) each


def scaled_dot_product_attention(
    q: Tensor, k: Tensor, v: Tensor, allowed: Tensor | None = None
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Attention(Q, K, V) = softmax(QKᵀ / √d_k) V, returning every step.

    q (..., Tq, d_k), k (..., Tk, d_k), v (..., Tk, d_v); `allowed` is a boolean mask broadcastable to
    (..., Tq, Tk), True where a query may look at a key. Masked scores become −∞ before the softmax, so
    their weights are exactly 0. Returns (output (..., Tq, d_v), scores, scaled_scores, weights).
    """
    scores = q @ k.transpose(-2, -1)  # (..., Tq, Tk) raw q·k
    scaled = scores / math.sqrt(q.size(-1))  # ÷ √d_k keeps the softmax out of saturation
    if allowed is not None:
        scaled = scaled.masked_fill(~allowed, float("-inf"))
    weights = scaled.softmax(dim=-1)  # each row sums to 1
    return weights @ v, scores, scaled, weights


def causal_mask(length: int, device: torch.device | str | None = None) -> Tensor:
    """(T, T) True on and below the diagonal: position i may look at positions 0..i, never ahead."""
    return torch.ones(length, length, dtype=torch.bool, device=device).tril()


class MultiHeadAttention(nn.Module):
    """MultiHead(Q, K, V) = Concat(head_1..head_H) W^O, head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V).

    The H per-head projections are stored as one (d, d) matrix each, as in the paper's implementation;
    head i owns columns i·d_k … (i+1)·d_k − 1.
    """

    def __init__(self, config: ModelConfig, site: tuple[str, int] = ("", 0)):
        super().__init__()
        d = config.d_model
        self.site = site  # (attention kind, layer): where an experiment finds this block's gate
        self.n_heads, self.d_head = config.n_heads, config.d_head
        self.w_q = nn.Linear(d, d)
        self.w_k = nn.Linear(d, d)
        self.w_v = nn.Linear(d, d)
        self.w_o = nn.Linear(d, d)
        self.dropout = nn.Dropout(config.dropout)

    def _split_heads(self, x: Tensor) -> Tensor:  # (B, T, d) -> (B, H, T, d_k)
        B, T, _ = x.shape
        return x.view(B, T, self.n_heads, self.d_head).transpose(1, 2)

    def keys_values(self, x_key_value: Tensor) -> KeysValues:
        """x_key_value (B, Tk, d) -> K, V (B, H, Tk, d_k)."""
        return self._split_heads(self.w_k(x_key_value)), self._split_heads(self.w_v(x_key_value))

    def forward(
        self,
        x_query: Tensor,
        x_key_value: Tensor | None,
        allowed: Tensor | None = None,
        record: bool = False,
        key_values: KeysValues | None = None,
    ) -> tuple[Tensor, Record]:
        """x_query (B, Tq, d), x_key_value (B, Tk, d), allowed broadcastable to (B, H, Tq, Tk).

        `key_values`: K, V already projected (see keys_values), used instead of projecting x_key_value
        (decoding one token at a time reuses the keys and values of the earlier positions)."""
        q = self._split_heads(self.w_q(x_query))  # (B, H, Tq, d_k)
        k, v = key_values if key_values is not None else self.keys_values(x_key_value)  # (B, H, Tk, d_k)
        heads, scores, scaled, weights = scaled_dot_product_attention(q, k, v, allowed)
        if self.training and self.dropout.p > 0:  # dropout on the weights only while training
            heads = self.dropout(weights) @ v
        exp = EXPERIMENT.get()
        if exp is not None and self.site in exp.hard:  # hard attention: the argmax key's value alone
            weights = hardened(weights)
            heads = weights @ v
        if exp is not None and self.site in exp.gates:
            heads = gated(heads, exp.gates[self.site], exp.mode)
        B, H, Tq, d_k = heads.shape
        concat = heads.transpose(1, 2).reshape(B, Tq, H * d_k)  # (B, Tq, d): heads side by side
        out = self.w_o(concat)  # (B, Tq, d)
        if not record:
            return out, None
        return out, {
            "allowed": allowed,
            "query_input": x_query,
            "key_value_input": x_key_value,
            "q": q,
            "k": k,
            "v": v,
            "scores": scores,
            "scaled_scores": scaled,
            "weights": weights,
            "head_outputs": heads,
            "concat": concat,
            "output": out,
        }


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W_1 + b_1) W_2 + b_2, applied at every position separately."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.w_1 = nn.Linear(config.d_model, config.d_ff)
        self.w_2 = nn.Linear(config.d_ff, config.d_model)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """x (B, T, d) -> (FFN(x) (B, T, d), the ReLU's output (B, T, d_ff))."""
        hidden = F.relu(self.w_1(x))  # (B, T, d_ff)
        return self.w_2(self.dropout(hidden)), hidden


class Sublayer(nn.Module):
    """A residual connection around one sublayer, with LayerNorm after (post-LN) or before (pre-LN) it.

    post-LN (the paper):  x ← LayerNorm(x + Dropout(sublayer(x)))
    pre-LN:               x ← x + Dropout(sublayer(LayerNorm(x)))
    """

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.norm = nn.LayerNorm(config.d_model)
        self.dropout = nn.Dropout(config.dropout)
        self.norm_first = config.norm_first

    def forward(
        self, x: Tensor, sublayer: Callable[[Tensor], tuple[Tensor, Any]], record: bool = False
    ) -> tuple[Tensor, Any, Record]:
        """`sublayer` maps (B, T, d) to ((B, T, d), extra); returns (new x, extra, record dict)."""
        if self.norm_first:
            norm_input = x
            norm_output = self.norm(x)
            sub_out, extra = sublayer(norm_output)
            out = x + self.dropout(sub_out)
        else:
            sub_out, extra = sublayer(x)
            norm_input = x + self.dropout(sub_out)
            norm_output = out = self.norm(norm_input)
        rec = None
        if record:
            rec = {
                "input": x,
                "sublayer_output": sub_out,
                "norm_input": norm_input,
                "norm_output": norm_output,
                "output": out,
            }
        return out, extra, rec


class EncoderLayer(nn.Module):
    def __init__(self, config: ModelConfig, index: int = 0):
        super().__init__()
        self.self_attention = MultiHeadAttention(config, ("encoder_self", index))
        self.feed_forward = FeedForward(config)
        self.attention_sublayer = Sublayer(config)
        self.ffn_sublayer = Sublayer(config)

    def forward(self, x: Tensor, source_allowed: Tensor, record: bool = False) -> tuple[Tensor, Record]:
        x, attn, attn_sub = self.attention_sublayer(
            x, lambda h: self.self_attention(h, h, source_allowed, record), record
        )
        x, hidden, ffn_sub = self.ffn_sublayer(x, self.feed_forward, record)
        if not record:
            return x, None
        return x, {
            "self_attention": attn,
            "cross_attention": None,
            "ffn_hidden": hidden,
            "sublayers": {"self_attention": attn_sub, "feed_forward": ffn_sub},
        }


class DecoderLayer(nn.Module):
    def __init__(self, config: ModelConfig, index: int = 0):
        super().__init__()
        self.self_attention = MultiHeadAttention(config, ("decoder_self", index))
        self.cross_attention = MultiHeadAttention(config, ("cross", index))
        self.feed_forward = FeedForward(config)
        self.self_sublayer = Sublayer(config)
        self.cross_sublayer = Sublayer(config)
        self.ffn_sublayer = Sublayer(config)

    def forward(
        self, y: Tensor, memory: Tensor, target_allowed: Tensor, source_allowed: Tensor, record: bool = False
    ) -> tuple[Tensor, Record]:
        """y (B, T, d) decoder stream; memory (B, S, d) encoder output: queries from y, keys/values from it."""
        y, self_attn, self_sub = self.self_sublayer(
            y, lambda h: self.self_attention(h, h, target_allowed, record), record
        )
        y, cross_attn, cross_sub = self.cross_sublayer(
            y, lambda h: self.cross_attention(h, memory, source_allowed, record), record
        )
        y, hidden, ffn_sub = self.ffn_sublayer(y, self.feed_forward, record)
        if not record:
            return y, None
        return y, {
            "self_attention": self_attn,
            "cross_attention": cross_attn,
            "ffn_hidden": hidden,
            "sublayers": {"self_attention": self_sub, "cross_attention": cross_sub, "feed_forward": ffn_sub},
        }

    def step(
        self, y: Tensor, past: KeysValues | None, memory_keys_values: KeysValues, source_allowed: Tensor
    ) -> tuple[Tensor, KeysValues]:
        """The layer for one new position only (inference): y (B, 1, d); `past` the self-attention's K, V of
        the earlier positions (B, H, t, d_k each) or None at the first. The causal mask lets no earlier
        position see this one, so their outputs are final and only their keys and values are needed.
        Returns (y (B, 1, d), K, V now including this position)."""
        present = []

        def self_attend(h: Tensor) -> tuple[Tensor, Record]:
            k, v = self.self_attention.keys_values(h)
            if past is not None:
                k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
            present.append((k, v))
            return self.self_attention(h, None, key_values=(k, v))  # the newest position may see them all

        y, _, _ = self.self_sublayer(y, self_attend)
        y, _, _ = self.cross_sublayer(
            y, lambda h: self.cross_attention(h, None, source_allowed, key_values=memory_keys_values)
        )
        y, _, _ = self.ffn_sublayer(y, self.feed_forward)
        return y, present[0]


class Transformer(nn.Module):
    """Encoder–decoder with one embedding table shared by source, target and the output projection.

    One table works because both languages live in one vocabulary; the output projection reuses it
    transposed (logits = y Eᵀ), so a word's input vector is also the direction that predicts it.
    """

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.embedding = nn.Embedding(config.vocab_size, config.d_model)
        self.register_buffer(
            "positional",
            torch.from_numpy(sinusoidal_encoding(config.max_len, config.d_model)).float(),
            persistent=False,
        )
        self.dropout = nn.Dropout(config.dropout)
        self.encoder_layers = nn.ModuleList(EncoderLayer(config, i) for i in range(config.n_encoder_layers))
        self.decoder_layers = nn.ModuleList(DecoderLayer(config, i) for i in range(config.n_decoder_layers))
        # Pre-LN leaves the residual stream un-normalised, so each stack ends with one LayerNorm.
        self.encoder_norm = nn.LayerNorm(config.d_model) if config.norm_first else nn.Identity()
        self.decoder_norm = nn.LayerNorm(config.d_model) if config.norm_first else nn.Identity()
        self.apply(self._init_weights)

    def _init_weights(self, module: nn.Module) -> None:
        if isinstance(module, nn.Linear):
            nn.init.xavier_uniform_(module.weight)
            nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            # std d^-½: after the ×√d scaling, token vectors have unit-size entries like the PE.
            nn.init.normal_(module.weight, std=self.config.d_model**-0.5)

    # ---- inputs ---------------------------------------------------------------------------------
    def embed(self, ids: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """ids (B, T) -> (embedding·√d + PE (B, T, d), raw embedding rows, positional (T, d))."""
        T = ids.size(1)
        if self.config.max_len < T:
            raise ValueError(f"sequence of {T} tokens is longer than max_len={self.config.max_len}")
        token = self.embedding(ids)
        positional = self.positional[:T]
        exp = EXPERIMENT.get()
        if exp is not None and not exp.positions:  # the experiment "no word order": no PE at all
            positional = torch.zeros_like(positional)
        return token * math.sqrt(self.config.d_model) + positional, token, positional

    # ---- the two stacks -------------------------------------------------------------------------
    def encode(self, source_ids: Tensor, record: bool = False) -> tuple[Tensor, Tensor, Record]:
        """source_ids (B, S) -> memory (B, S, d), source_allowed (B, 1, 1, S), records."""
        source_allowed = (source_ids != self.config.pad_id)[:, None, None, :]
        x, token, positional = self.embed(source_ids)
        x = self.dropout(x)
        records = []
        for layer in self.encoder_layers:
            x, rec = layer(x, source_allowed, record)
            records.append(rec)
        memory = self.encoder_norm(x)
        info = {"token_embeddings": token, "positional": positional, "layers": records} if record else None
        return memory, source_allowed, info

    def decode(
        self, target_ids: Tensor, memory: Tensor, source_allowed: Tensor, record: bool = False
    ) -> tuple[Tensor, Record]:
        """target_ids (B, T) decoder input (<bos> y1 … y_{T-1}) -> logits (B, T, V) for y1 … y_T."""
        T = target_ids.size(1)
        target_allowed = (
            causal_mask(T, target_ids.device)[None, None] & (target_ids != self.config.pad_id)[:, None, None, :]
        )
        y, token, positional = self.embed(target_ids)
        y = self.dropout(y)
        records = []
        for layer in self.decoder_layers:
            y, rec = layer(y, memory, target_allowed, source_allowed, record)
            records.append(rec)
        y = self.decoder_norm(y)
        logits = y @ self._output_matrix()  # (B, T, V): tied output projection
        info = None
        if record:
            info = {"token_embeddings": token, "positional": positional, "layers": records, "output": y}
        return logits, info

    # ---- one token at a time (beam search) ----------------------------------------------------------
    def memory_keys_values(self, memory: Tensor) -> list[KeysValues]:
        """Each decoder layer's cross-attention K, V of the encoder output, computed once per sentence."""
        return [layer.cross_attention.keys_values(memory) for layer in self.decoder_layers]

    def decode_step(
        self,
        last_ids: Tensor,
        memory_keys_values: list[KeysValues],
        source_allowed: Tensor,
        past: list[KeysValues] | None,
    ) -> tuple[Tensor, list[KeysValues]]:
        """Next-token logits from the newest token only, reusing the earlier positions' keys and values
        (inference; equals decode(...)[0][:, -1] to float precision, which a test checks).

        last_ids (B,) the token at position t = number of positions in `past` (0 for <bos>); `past` a list
        with each decoder layer's self-attention (K, V), or None at the first step. Returns (logits (B, V),
        the new `past`). Nothing is stored on the modules: the caller owns the cache."""
        t = 0 if past is None else past[0][0].size(2)
        if t >= self.config.max_len:
            raise ValueError(f"position {t} is beyond max_len={self.config.max_len}")
        exp = EXPERIMENT.get()
        pe = self.positional[t] if exp is None or exp.positions else 0.0
        y = self.embedding(last_ids[:, None]) * math.sqrt(self.config.d_model) + pe  # (B, 1, d)
        present = []
        for i, layer in enumerate(self.decoder_layers):
            y, kv = layer.step(y, None if past is None else past[i], memory_keys_values[i], source_allowed)
            present.append(kv)
        y = self.decoder_norm(y)
        return y[:, -1] @ self._output_matrix(), present

    def _output_matrix(self) -> Tensor:
        """Eᵀ (d, V) for the tied output projection. At inference it is a contiguous copy, made once per
        version of the weights: a (B, d) × (d, V) product reads a transposed view of E at half the speed
        on one core, and this product over the whole vocabulary is the largest single cost of a decoding
        step (and of the trace's teacher-forced pass). The logits agree with the transposed view's to
        float precision (a test checks)."""
        weight = self.embedding.weight
        if torch.is_grad_enabled():  # training: the product must reach E's gradient
            return weight.T
        key = (weight.data_ptr(), weight._version)
        if getattr(self, "_output_matrix_key", None) != key:
            self._output_matrix_copy = weight.detach().T.contiguous()
            self._output_matrix_key = key
        return self._output_matrix_copy

    def forward(self, source_ids: Tensor, target_ids: Tensor) -> Tensor:
        """Teacher-forced logits (B, T, V) for training."""
        memory, source_allowed, _ = self.encode(source_ids)
        logits, _ = self.decode(target_ids, memory, source_allowed)
        return logits

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())
