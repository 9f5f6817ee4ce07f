"""The model as the app and the command line use it: text in, translation, search record and trace out.

This is the one entry point the pages call. It holds the shared model object and keeps nothing per call,
so many sessions on many threads can use one `Translator`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from . import checkpoint
from .config import ModelConfig
from .decoding import DEFAULT_LENGTH_PENALTY, SequenceScore, beam_search, score_target
from .detokenize import detokenize
from .search_record import Hypothesis, SearchRecord
from .tokenizer import DIRECTIONS, EOS, Tokenized, Tokenizer, contains_chinese
from .trace import TranslationTrace, build_trace
from .transformer import Transformer

DEFAULT_BEAM_WIDTH = 4


@dataclass(frozen=True)
class SearchSettings:
    """How a beam search runs; the defaults are the app's and the command line's. Frozen: one instance can
    be a default argument and a cache key."""

    beam_width: int = DEFAULT_BEAM_WIDTH  # 1 is greedy search
    length_penalty: float = DEFAULT_LENGTH_PENALTY  # α in score = log P / L^α
    max_len: int | None = None  # target tokens at most; None: the model's max_len
    # Forces the first target tokens (any the vocabulary lacks are left out). Tokens, not text: a token such
    # as "'m" or "n't" written out and read again would split into "'" and "m".
    prefix: tuple[str, ...] = ()


DEFAULT_SEARCH = SearchSettings()  # the app's and the command line's search


def normalise_direction(direction: str | None, default: str = "en2zh") -> str:
    """Any unknown value (e.g. from a hand-edited URL) falls back to the default."""
    return direction if direction in DIRECTIONS else default


def suggested_direction(text: str) -> str:
    """Chinese characters in the text suggest zh→en, otherwise en→zh."""
    return "zh2en" if contains_chinese(text) else "en2zh"


_LATIN_LETTER = re.compile(r"[A-Za-z]")


def text_script(text: str) -> str | None:
    """ "zh" for text with Chinese characters and no Latin letter, "en" for text with Latin letters and no
    Chinese character, None for mixed text and for text of neither (digits, emoji, marks, blank). Marks
    alone decide nothing: English writes “ ” and … too."""
    chinese = contains_chinese(text)
    latin = _LATIN_LETTER.search(text) is not None
    if chinese == latin:
        return None
    return "zh" if chinese else "en"


def typed_direction(text: str, direction: str, chosen: str | None = None) -> str:
    """The direction after the reader types `text` while `direction` is set: the one the reader chose for
    this very text (`chosen`) if any, else the one its script implies (Chinese only → zh2en, Latin letters
    only → en2zh), else (mixed, or digits and emoji only) `direction` unchanged."""
    if chosen in DIRECTIONS:
        return chosen
    script = text_script(text)
    if script is None:
        return normalise_direction(direction)
    return next(d for d, (source, _) in DIRECTIONS.items() if source == script)


def output_tokens(record: SearchRecord) -> list[str]:
    """The best hypothesis's tokens without <eos>: the translation a search settles on."""
    return [t for t in record.hypotheses[0].tokens if t != EOS]


# Below this mean token probability a translation is marked as a guess. Drawn on the development set
# (`python -m viz_model.training.confidence`): its translations between 0.5 and 0.7 scored a mean sentence
# chrF of 22–38 (mostly wrong), those between 0.7 and 0.8 50 and above 0.8 72; the line marks 23 % of them
# and none of 400 of the grammar's test sentences. At 0.5 it marked 2 of 297.
LOW_CONFIDENCE = 0.7


@dataclass
class Translation:
    direction: str  # "en2zh" or "zh2en"
    source: Tokenized  # encoder input: <2xx> words <eos>, unknown words, truncation
    record: SearchRecord  # every step of the search
    output_tokens: list[str]  # best hypothesis, without <eos>
    output_text: str
    trace: TranslationTrace  # one recorded pass over (source, output_tokens)

    @property
    def target_language(self) -> str:
        return DIRECTIONS[self.direction][1]

    @property
    def mean_token_probability(self) -> float:
        """Mean probability the model gave to each token it emitted (<eos> included): how sure it was."""
        return float(self.trace.chosen_token_probs.mean())

    @property
    def low_confidence(self) -> bool:
        return self.mean_token_probability < LOW_CONFIDENCE


class Translator:
    def __init__(self, model: Transformer, tokenizer: Tokenizer, card: dict):
        self.model, self.tokenizer, self.card = model, tokenizer, card

    @classmethod
    def load(cls, model_dir: Path | None = None) -> Translator:
        """Load the shipped model (or the one in `model_dir`); raises checkpoint.CheckpointError."""
        return cls(*checkpoint.load(model_dir))

    @property
    def config(self) -> ModelConfig:
        return self.model.config

    @property
    def max_source_words(self) -> int:
        """Words the encoder takes; the tag and <eos> use the remaining two positions."""
        return self.config.max_len - 2

    def encode(self, text: str, direction: str) -> Tokenized:
        return self.tokenizer.encode_source(text, DIRECTIONS[normalise_direction(direction)][1], self.config.max_len)

    def is_empty(self, text: str) -> bool:
        """True when the text has no token at all (blank, or only invisible characters)."""
        return not self.tokenizer.split(text)[0]

    def search(self, text: str, direction: str = "en2zh", settings: SearchSettings = DEFAULT_SEARCH) -> SearchRecord:
        """Beam search alone, without the trace: for views that show the search and not the attention
        (`SearchSettings(beam_width=1)` is greedy search)."""
        return self._search(self.encode(text, direction), settings)

    def greedy(
        self,
        text: str,
        direction: str,
        beam: SearchRecord | None = None,
        search: Callable[[SearchSettings], SearchRecord] | None = None,
    ) -> list[str]:
        """What greedy search writes (<eos> included); see `greedy_hypothesis`."""
        return self.greedy_hypothesis(text, direction, beam, search).tokens

    def greedy_hypothesis(
        self,
        text: str,
        direction: str,
        beam: SearchRecord | None = None,
        search: Callable[[SearchSettings], SearchRecord] | None = None,
    ) -> Hypothesis:
        """Greedy search's output with its ln P and score (with `beam`'s α, else the default): read off `beam`,
        a beam search of this sentence, when it kept greedy's every prefix (186 of 200 development sentences),
        else searched (by `search`, the caller's cached one, if given)."""
        found = beam.greedy_hypothesis(EOS) if beam is not None else None
        if found is not None:
            return found
        alpha = beam.length_penalty_alpha if beam is not None else DEFAULT_SEARCH.length_penalty
        greedy = SearchSettings(beam_width=1, length_penalty=alpha)
        return (search(greedy) if search else self.search(text, direction, greedy)).hypotheses[0]

    def _search(self, source: Tokenized, settings: SearchSettings, encoded=None) -> SearchRecord:
        prefix_ids = [i for i in self.tokenizer.ids(settings.prefix) if i != self.tokenizer.unk_id]
        prefix_ids = prefix_ids[: self.config.max_len - 2]
        return beam_search(
            self.model,
            self.tokenizer,
            source.ids,
            beam_width=settings.beam_width,
            max_len=settings.max_len,
            length_penalty=settings.length_penalty,
            prefix=prefix_ids,
            encoded=None if encoded is None else encoded[:2],
        )

    def translate(self, text: str, direction: str = "en2zh", settings: SearchSettings = DEFAULT_SEARCH) -> Translation:
        """Translate with beam search and trace the best output."""
        direction = normalise_direction(direction)
        source = self.encode(text, direction)
        with torch.inference_mode():  # one encoder pass, recorded, for the search and the trace
            encoded = self.model.encode(torch.tensor([source.ids]), record=True)
        record = self._search(source, settings, encoded)
        output, text = self.output(record, direction)
        trace = build_trace(
            self.model, self.tokenizer, source.ids, self.tokenizer.ids(output), source.labels, encoded=encoded
        )
        return Translation(direction, source, record, output, text, trace)

    def output(self, record: SearchRecord, direction: str) -> tuple[list[str], str]:
        """The translation a search settles on, as tokens and as text (what `translate` returns for it)."""
        output = self.words(record.hypotheses[0].tokens)
        return output, detokenize(output, DIRECTIONS[normalise_direction(direction)][1])

    def words(self, written: Sequence[str]) -> list[str]:
        """A search's written tokens as a translation: without <eos>, and cut to leave room for <bos> in a
        traced pass."""
        return [t for t in written if t != EOS][: self.config.max_len - 1]

    def trace(self, text: str, direction: str, target_text: str) -> TranslationTrace:
        """Trace the model reading a given translation (teacher forcing) instead of its own output."""
        source = self.encode(text, direction)
        target = self.tokenizer.split(target_text)[0][: self.config.max_len - 1]
        return build_trace(self.model, self.tokenizer, source.ids, self.tokenizer.ids(target), source.labels)

    def score(self, text: str, direction: str, target_tokens: Sequence[str]) -> SequenceScore:
        """How probable the model finds the target tokens (as the search wrote them, or `tokenize` read
        them) as the translation of `text`. Tokens, not text: written out and read again, "i 'm" would
        become "i ' m", a sentence the model never wrote."""
        source = self.encode(text, direction)
        target = list(target_tokens)[: self.config.max_len - 1]
        return score_target(self.model, self.tokenizer, source.ids, self.tokenizer.ids(target))

    # ---- parameters the pages show --------------------------------------------------------------
    def embedding_matrix(self) -> np.ndarray:
        """(V, d) the one embedding table, row i for token i (unscaled)."""
        return self.model.embedding.weight.detach().numpy().copy()

    def attention_parameters(self, kind: str, layer: int) -> dict[str, np.ndarray]:
        """W_Q, W_K, W_V, W_O as (d, d) matrices that multiply row vectors (x @ W), and their biases.

        Head h uses columns h·d_k … (h+1)·d_k − 1 of W_Q, W_K, W_V and the same rows of W_O.
        """
        if kind == "encoder_self":
            module = self.model.encoder_layers[layer].self_attention
        elif kind == "decoder_self":
            module = self.model.decoder_layers[layer].self_attention
        elif kind == "cross":
            module = self.model.decoder_layers[layer].cross_attention
        else:
            raise ValueError(f"unknown attention kind {kind!r}")
        out = {}
        with torch.no_grad():
            for name in ("w_q", "w_k", "w_v", "w_o"):
                linear = getattr(module, name)
                out[name.upper()] = linear.weight.T.numpy().copy()
                out["b_" + name[2:]] = linear.bias.numpy().copy()
        return out
