"""What training and evaluation share: sentence pairs as examples (token ids per direction), padded
batches, and the mean per-token loss, so the card's test perplexity is the training loss's definition."""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from viz_model.model.tokenizer import Tokenized, Tokenizer


@dataclass
class Example:
    source_ids: list[int]
    target_ids: list[int]  # without <bos>/<eos>
    direction: str


SENTENCE_ENDS = (".", "?", "!", "。", "？", "！")


def make_examples(
    pairs, tokenizer: Tokenizer, max_len: int, unpunctuated_share: float = 0.0, rng: random.Random | None = None
) -> list[Example]:
    """Each pair gives one example per direction it allows; the source carries the target-language tag.
    A share of the sources (drawn from `rng`) lose their final punctuation mark (see TrainConfig).

    Oversampled pairs repeat (a phrasebook pair five times, a course sentence a hundred), so each distinct
    source text is tokenized once and its examples share the id lists, which nothing modifies."""
    examples = []
    sources: dict[tuple[str, str], Tokenized] = {}
    targets: dict[tuple[str, ...], list[int]] = {}
    for pair in pairs:
        for direction, src_text, tgt_tokens, tgt_lang in (
            ("en2zh", pair.en, pair.zh_tokens, "zh"),
            ("zh2en", pair.zh, pair.en_tokens, "en"),
        ):
            if pair.direction not in ("both", direction):
                continue
            if unpunctuated_share and src_text.endswith(SENTENCE_ENDS) and rng.random() < unpunctuated_share:
                src_text = src_text[:-1].rstrip()
            if (src_text, tgt_lang) not in sources:
                sources[src_text, tgt_lang] = tokenizer.encode_source(src_text, tgt_lang, max_len)
            if tgt_tokens not in targets:
                targets[tgt_tokens] = tokenizer.ids(list(tgt_tokens))
            source, target = sources[src_text, tgt_lang], targets[tgt_tokens]
            if source.truncated or len(target) + 1 > max_len or source.unknown_words:
                raise ValueError(f"training example does not fit the model: {src_text!r}")
            examples.append(Example(source.ids, target, direction))
    return examples


def collate(batch: list[Example], tokenizer: Tokenizer):
    """-> source (B, S), decoder input (B, T) = <bos> y, decoder target (B, T) = y <eos>, padded."""
    pad = tokenizer.pad_id
    S = max(len(e.source_ids) for e in batch)
    T = max(len(e.target_ids) for e in batch) + 1
    src = torch.full((len(batch), S), pad)
    dec_in = torch.full((len(batch), T), pad)
    dec_out = torch.full((len(batch), T), pad)
    for i, e in enumerate(batch):
        src[i, : len(e.source_ids)] = torch.tensor(e.source_ids)
        dec_in[i, : len(e.target_ids) + 1] = torch.tensor([tokenizer.bos_id] + e.target_ids)
        dec_out[i, : len(e.target_ids) + 1] = torch.tensor(e.target_ids + [tokenizer.eos_id])
    return src, dec_in, dec_out


@contextmanager
def evaluating(model):
    """Dropout off inside the block, then the model's previous mode back. Restoring (rather than switching
    to training mode) matters: the card's test figures are measured after the validation loss, and a helper
    that left dropout on would make them figures of a noisier model than the one shipped."""
    was_training = model.training
    model.eval()
    try:
        yield model
    finally:
        model.train(was_training)


@torch.no_grad()
def mean_loss(model, examples, tokenizer, batch_size=256) -> float:
    """Mean per-token cross-entropy (nats, no label smoothing) over `examples`."""
    total, count = 0.0, 0
    with evaluating(model):
        for start in range(0, len(examples), batch_size):
            src, dec_in, dec_out = collate(examples[start : start + batch_size], tokenizer)
            logits = model(src, dec_in)
            total += F.cross_entropy(
                logits.flatten(0, 1), dec_out.flatten(), ignore_index=tokenizer.pad_id, reduction="sum"
            ).item()
            count += (dec_out != tokenizer.pad_id).sum().item()
    return total / count
