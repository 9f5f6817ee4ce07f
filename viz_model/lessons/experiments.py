"""Change the model and watch: heads switched off, every head's importance, word order taken away.

Each experiment runs the shipped model under `model.experiment` (this thread only) and returns what the
pages draw: translations re-decoded with the same search and traced in the one trace format, so every view
of the app can show the changed model, and the log-probabilities that say how much a change mattered.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import torch

from viz_model.model.experiment import Experiment, experiment
from viz_model.model.trace import ATTENTION_KINDS
from viz_model.model.translator import Translation

Head = tuple[str, int, int]  # (attention kind, layer, head), all 0-based
MODES = ("zero", "mean")


def layer_count(config, kind: str) -> int:
    return config.n_encoder_layers if kind == "encoder_self" else config.n_decoder_layers


def all_heads(config) -> list[Head]:
    return [
        (kind, layer, h)
        for kind in ATTENTION_KINDS
        for layer in range(layer_count(config, kind))
        for h in range(config.n_heads)
    ]


def valid_heads(heads: Iterable, config) -> list[Head]:
    """The heads of `heads` this model has (a link may name any), in the model's order, each once."""
    wanted = set()
    for item in heads:
        try:
            kind, layer, h = item
        except (TypeError, ValueError):
            continue
        wanted.add((kind, layer, h))
    return [head for head in all_heads(config) if head in wanted]


def gates_for(heads: Iterable[Head], config) -> dict[tuple[str, int], torch.Tensor]:
    """(kind, layer) → a (H,) gate with 0 at each switched-off head."""
    gates: dict[tuple[str, int], torch.Tensor] = {}
    for kind, layer, h in heads:
        gates.setdefault((kind, layer), torch.ones(config.n_heads))[h] = 0.0
    return gates


@dataclass
class SwitchOff:
    heads: list[Head]
    mode: str  # "zero" or "mean": how the log-probabilities below replace a head
    decode_mode: str  # how the re-decoded translation replaced them (see switch_off)
    before: Translation  # the model as shipped
    after: Translation  # the same search under the experiment, traced under it too
    tokens: list[str]  # the original translation's tokens and <eos>
    log_probs_before: np.ndarray  # (T,) ln p of each of them, teacher-forced, as shipped
    log_probs_after: np.ndarray  # (T,) the same tokens under the experiment

    @property
    def changed(self) -> bool:
        return self.after.output_tokens != self.before.output_tokens

    @property
    def log_prob_drop(self) -> float:
        """How much less probable the original translation became (ln P before − after)."""
        return float(self.log_probs_before.sum() - self.log_probs_after.sum())

    @property
    def drop_text(self) -> str:
        """The drop as the pages write it: two decimals, never "-0.00"."""
        return f"{round(self.log_prob_drop, 2) + 0.0:.2f}"


def switch_off(
    translator, text: str, direction: str, heads: Iterable[Head], mode: str = "zero", before: Translation | None = None
) -> SwitchOff:
    """The translation and its token log-probabilities with `heads` switched off (`mode`), beside the
    model's own (`before`, when the caller has it: the sidebar's translation). The log-probabilities are
    teacher-forced (every position at once), where a head's mean over the positions is defined; the model's
    own are its trace's, the same pass. Decoding writes one token at a time, when a decoder head has only the
    newest position: with a decoder head switched to its mean the translation is re-decoded with it zeroed
    instead, and `decode_mode` says so."""
    heads = valid_heads(heads, translator.config)
    mode = mode if mode in MODES else "zero"
    decode_mode = "zero" if mode == "mean" and any(kind != "encoder_self" for kind, _, _ in heads) else mode
    gates = gates_for(heads, translator.config)
    before = before or translator.translate(text, direction)
    log_probs_before = before.trace.predicted_log_probs
    if not heads:  # nothing switched off: the model as shipped, not run again
        return SwitchOff(
            heads, mode, decode_mode, before, before, before.trace.predicted_tokens, *[log_probs_before] * 2
        )
    with experiment(Experiment(gates=gates, mode=decode_mode)):
        after = translator.translate(text, direction)
    with experiment(Experiment(gates=gates, mode=mode)):
        score_after = translator.score(text, direction, before.output_tokens)
    return SwitchOff(
        heads, mode, decode_mode, before, after, score_after.tokens, log_probs_before, np.asarray(score_after.log_probs)
    )


@torch.no_grad()
def head_importance(
    translator, text: str, direction: str, batched: bool = True, output_tokens: list[str] | None = None
) -> dict[str, np.ndarray]:
    """kind → (L, H): how much ln P(the model's own translation) drops when that one head is switched off
    (zeroed), teacher-forced. Batched: one pass with a batch row per head (row 0 the model as shipped);
    unbatched: one pass per head (the tests' oracle). `output_tokens`: the translation, when already known."""
    config = translator.config
    tokenizer = translator.tokenizer
    source = translator.encode(text, direction).ids
    output = output_tokens if output_tokens is not None else translator.translate(text, direction).output_tokens
    target = tokenizer.ids(output)[: config.max_len - 1]
    decoder_input = torch.tensor([[tokenizer.bos_id, *target]])
    predicted = torch.tensor([*target, tokenizer.eos_id])
    heads = all_heads(config)

    def log_p(source_ids: torch.Tensor, decoder_ids: torch.Tensor) -> torch.Tensor:  # (B,) ln P(y | x)
        logits = translator.model(source_ids, decoder_ids)  # (B, T, V)
        picked = logits.log_softmax(-1)[:, torch.arange(len(predicted)), predicted]  # (B, T)
        return picked.sum(-1)

    src = torch.tensor([source])
    if batched:
        n = len(heads) + 1
        gates: dict[tuple[str, int], torch.Tensor] = {}
        for row, (kind, layer, h) in enumerate(heads, start=1):
            gates.setdefault((kind, layer), torch.ones(n, config.n_heads))[row, h] = 0.0
        with experiment(Experiment(gates=gates)):
            scores = log_p(src.expand(n, -1), decoder_input.expand(n, -1))
        plain, off = scores[0], scores[1:]
    else:
        plain = log_p(src, decoder_input)[0]
        off = []
        for head in heads:
            with experiment(Experiment(gates=gates_for([head], config))):
                off.append(log_p(src, decoder_input)[0])
        off = torch.stack(off)
    drops = (plain - off).numpy()
    out = {kind: np.zeros((layer_count(config, kind), config.n_heads)) for kind in ATTENTION_KINDS}
    for (kind, layer, h), drop in zip(heads, drops):
        out[kind][layer, h] = drop
    return out


@dataclass
class WordOrder:
    order: list[int]  # the shuffled positions of the source's words (tag and <eos> stay)
    shuffled_text: str
    plain: Translation  # the sentence as typed, positions on
    no_positions: Translation  # as typed, no positional encoding
    shuffled_no_positions: Translation  # shuffled, no positional encoding
    largest_difference: float  # max |encoder(shuffled) − encoder(typed) permuted| without positions


def word_order(translator, text: str, direction: str, seed: int = 0) -> WordOrder:
    """Take word order away: the translation without positional encoding, and the same for the words
    shuffled (seeded), with the fact that makes it so: without positions the encoder's outputs for the
    shuffled sentence are its outputs for the typed one, permuted."""
    source = translator.encode(text, direction)
    words = list(range(1, len(source.ids) - 1))  # between the direction tag and <eos>
    shuffled = words[:]
    random.Random(seed).shuffle(shuffled)
    order = [0, *shuffled, len(source.ids) - 1]
    shuffled_text = " ".join(source.tokens[i] for i in shuffled)  # tokens apart: read back as these tokens
    plain = translator.translate(text, direction)
    with experiment(Experiment(positions=False)), torch.no_grad():
        no_positions = translator.translate(text, direction)
        shuffled_translation = translator.translate(shuffled_text, direction)
        ids = torch.tensor([source.ids])
        memory, _, _ = translator.model.encode(ids)
        shuffled_memory, _, _ = translator.model.encode(ids[:, order])
    difference = float((shuffled_memory - memory[:, order]).abs().max())
    return WordOrder(shuffled, shuffled_text, plain, no_positions, shuffled_translation, difference)


@dataclass
class HardAttention:
    """Soft attention (softmax weights, every value mixed) against hard attention (one-hot at the argmax, one
    value taken) for one layer: one query row of one head, and the translation with the whole layer hard."""

    kind: str
    layer: int
    head: int
    query: int
    keys: list[str]  # the row's key tokens
    soft_weights: np.ndarray  # (Tk,) the softmax row
    hard_weights: np.ndarray  # (Tk,) one-hot at its argmax
    soft_output: np.ndarray  # (d_k,) z = soft_weights @ V
    hard_output: np.ndarray  # (d_k,) z = V[argmax]
    soft: Translation  # the model as shipped
    hard: Translation  # searched again with the layer's attention hard, traced under it

    @property
    def changed(self) -> bool:
        return self.hard.output_tokens != self.soft.output_tokens


def hard_attention(
    translator, text: str, direction: str, kind: str, layer: int, head: int = 0, query: int = 1
) -> HardAttention:
    """Make one layer's attention hard (every head of it); the row shown is `head`'s for `query` (clamped)."""
    soft = translator.translate(text, direction)
    with experiment(Experiment(hard=frozenset({(kind, layer)}))):
        hard = translator.translate(text, direction)
    att = soft.trace.attention(kind, layer)
    head = min(max(head, 0), att.n_heads - 1)
    query = min(max(query, 0), att.weights.shape[1] - 1)
    row = att.weights[head, query]
    one_hot = np.zeros_like(row)
    one_hot[int(row.argmax())] = 1.0
    keys = soft.trace.axis_tokens(kind)[1]
    v = att.v[head]  # (Tk, d_k)
    return HardAttention(kind, layer, head, query, keys, row, one_hot, row @ v, one_hot @ v, soft, hard)
