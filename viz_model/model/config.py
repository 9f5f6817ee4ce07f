"""The model's hyper-parameters, in one place."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int  # one vocabulary for English, Chinese and the special tokens
    d_model: int = 128  # width of every token vector (the paper: 512)
    n_heads: int = 4  # d_k = d_v = d_model / n_heads (the paper: 8 heads of 64)
    n_encoder_layers: int = 3
    n_decoder_layers: int = 3
    d_ff: int = 512  # hidden width of the position-wise feed-forward network
    max_len: int = 40  # longest token sequence, tag and <eos> included; longer input is cut
    dropout: float = 0.1  # only active while training
    norm_first: bool = False  # False: post-LN as in the paper, LayerNorm(x + sublayer(x))
    pad_id: int = 0

    def __post_init__(self):
        if self.d_model % self.n_heads:
            raise ValueError("d_model must be a multiple of n_heads")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def to_dict(self) -> dict:
        return asdict(self)
