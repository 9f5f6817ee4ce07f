"""Decoding as a lab: teacher forcing beside free running, and every decoding strategy on one sentence.

Training feeds the decoder the whole reference shifted right (<bos> y1 … yn) and reads every position's
prediction from one pass (teacher forcing); translating feeds back, one step at a time, the token the model
chose (free running). While the fed tokens agree the two see the same inputs and give the same numbers; from
the first step where the model's choice and the reference differ they read different prefixes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from viz_model.model.decoding import DEFAULT_LENGTH_PENALTY, largest
from viz_model.model.detokenize import detokenize
from viz_model.model.sampling import DEFAULT_SAMPLING, Cut, SamplingSettings, cut_distribution, sample
from viz_model.model.search_record import SearchRecord
from viz_model.model.tokenizer import DIRECTIONS, EOS, is_punctuation
from viz_model.model.trace import TranslationTrace, build_trace
from viz_model.model.translator import SearchSettings, Translator, normalise_direction, text_script

TOP_SHOWN = 5  # next-token candidates listed at each step
LABEL_SMOOTHING = 0.1  # the training's (viz_model.training.train.TrainConfig.label_smoothing)
REFERENCES = ("own", "changed", "typed")  # the model's own translation, one word changed, the reader's


@dataclass
class DecoderStep:
    """One decoder position: what it read last and what it gave the next token."""

    position: int  # t: the decoder reads the first t+1 inputs (<bos> …) and predicts token t+1
    fed: str  # the input at position t
    top: list[tuple[str, float]]  # the TOP_SHOWN most probable writable tokens, the model's own p
    chosen: str  # teacher forcing: the reference token; free running: the argmax
    chosen_prob: float
    cross: np.ndarray  # (L, H, S) this position's cross-attention rows, every layer and head


@dataclass
class ForcingLoss:
    """The loss training computes for one pair: mean cross-entropy, and with label smoothing ε
    (1 − ε)·NLL + ε·mean over the vocabulary of −ln p_v, averaged over the positions."""

    tokens: list[str]  # the predicted tokens: the reference and <eos>
    log_probs: list[float]  # ln p(y_t) for each
    nll: float  # −mean(log_probs)
    uniform_term: float  # mean over positions of mean over V of −ln p_v
    smoothing: float
    smoothed: float
    vocab_size: int


@dataclass
class ForcingComparison:
    source_labels: list[str]
    reference: list[str]  # tokens, without <bos>/<eos>
    forced: list[DecoderStep]  # len(reference) + 1 positions, the last predicting <eos>
    free: list[DecoderStep]  # until the model writes <eos> or runs out of positions
    decoder_self: np.ndarray  # (L, H, T, T) the teacher-forced pass's masked self-attention, T = len(forced)
    loss: ForcingLoss
    divergence: int | None  # the first position whose argmax is not the reference's token; None: they agree

    @property
    def free_tokens(self) -> list[str]:
        return [s.chosen for s in self.free]

    @property
    def steps(self) -> int:
        return max(len(self.forced), len(self.free))


def _writable(translator: Translator, source_ids: list[int]) -> torch.Tensor:
    """(V,) bool: the tokens a search may write (as in beam search: not <pad>, not the source's language)."""
    blocked = torch.zeros(len(translator.tokenizer), dtype=torch.bool)
    blocked[translator.tokenizer.foreign_ids(source_ids[0])] = True
    blocked[translator.tokenizer.pad_id] = True
    return ~blocked


def _step(trace: TranslationTrace, t: int, writable: np.ndarray, chosen_id: int | None, vocab) -> DecoderStep:
    probs = trace.next_token_probs[t]  # (V,) the model's own
    allowed = np.where(writable, probs, -1.0)
    top = largest(allowed, TOP_SHOWN)
    chosen_id = int(top[0]) if chosen_id is None else chosen_id
    cross = np.stack([layer.cross_attention.weights[:, t] for layer in trace.decoder_layers])
    return DecoderStep(
        t,
        trace.target_tokens[t],
        [(vocab[i], float(probs[i])) for i in top],
        vocab[chosen_id],
        float(probs[chosen_id]),
        cross,
    )


def forcing_loss(trace: TranslationTrace, smoothing: float = LABEL_SMOOTHING) -> ForcingLoss:
    """The training loss of the pair a teacher-forced trace read, its terms written out (the oracle is
    F.cross_entropy: tests)."""
    picked = trace.predicted_log_probs  # (T,) ln p(y_t)
    nll = float(-picked.mean())
    uniform = float(-trace.mean_log_probs.mean())
    return ForcingLoss(
        list(trace.predicted_tokens),
        picked.tolist(),
        nll,
        uniform,
        smoothing,
        (1 - smoothing) * nll + smoothing * uniform,
        trace.next_token_probs.shape[-1],
    )


def _read(trace: TranslationTrace) -> tuple[int, ...]:
    """The target ids a teacher-forced trace read (without <bos>/<eos>)."""
    return tuple(int(i) for i in trace.target_ids[1:])


def compare_forcing(
    translator: Translator,
    text: str,
    direction: str,
    reference: Sequence[str],
    greedy: Sequence[str] | None = None,
    traced: TranslationTrace | None = None,
) -> ForcingComparison:
    """Teacher forcing on `reference` (tokens) beside free running, for one source sentence.

    Free running feeds back the most probable writable token at every step: greedy search's output. Its
    steps' numbers come from one pass over what it wrote: the decoder is causal, so position t of that pass
    computes exactly what step t computed while writing (a test checks it against the cached step-by-step
    decoder, to 1e-5), at the cost of one pass instead of one per step. `greedy`: greedy search's tokens for
    this sentence, when the caller has them (else it searches). `traced`: a trace of this sentence the
    caller has (the sidebar's, of the beam's translation), which serves as either pass whose tokens it read.
    """
    model, tokenizer = translator.model, translator.tokenizer
    source = translator.encode(text, direction)
    reference_ids = tokenizer.ids(list(reference)[: model.config.max_len - 1])
    known = {} if traced is None or traced.source_ids.tolist() != source.ids else {_read(traced): traced}
    encoded = []  # the encoder's pass, run once and only if a pass is not known

    def teacher_forced(target_ids: list[int]) -> TranslationTrace:
        if tuple(target_ids) not in known:
            if not encoded:
                with torch.inference_mode():
                    encoded.append(model.encode(torch.tensor([source.ids]), record=True))
            known[tuple(target_ids)] = build_trace(
                model, tokenizer, source.ids, target_ids, source.labels, encoded=encoded[0]
            )
        return known[tuple(target_ids)]

    writable = _writable(translator, source.ids).numpy()
    vocab = tokenizer.vocab
    trace = teacher_forced(reference_ids)
    targets = reference_ids + [tokenizer.eos_id]
    forced = [_step(trace, t, writable, targets[t], vocab) for t in range(len(targets))]
    written = list(greedy or translator.search(text, direction, SearchSettings(beam_width=1)).hypotheses[0].tokens)
    words = translator.words(written)
    free_trace = teacher_forced(tokenizer.ids(words))  # the model's own output forced: one pass serves both
    free = [_step(free_trace, t, writable, None, vocab) for t in range(min(len(written), len(words) + 1))]
    divergence = next(
        (t for t in range(min(len(forced), len(free))) if free[t].top[0][0] != forced[t].chosen),
        None if len(free) == len(forced) else min(len(free), len(forced)),
    )
    return ForcingComparison(
        source.labels,
        tokenizer.tokens(reference_ids),
        forced,
        free,
        trace.attention_stack("decoder_self"),
        forcing_loss(trace),
        divergence,
    )


@dataclass
class TypedReference:
    """A reference the reader typed, read by the model's tokenizer; `problem` names why it cannot be used
    ("empty", "wrong_language": written in the source's language) or what was done to it ("long": cut to
    the model's positions); `unknown`: words the vocabulary lacks (read as <unk>)."""

    tokens: list[str] | None
    problem: str | None
    unknown: list[str]


def typed_reference(translator: Translator, reference_text: str, direction: str) -> TypedReference:
    source_language, target_language = DIRECTIONS[normalise_direction(direction)]
    tokens, unknown = translator.tokenizer.split(reference_text)
    if not tokens:
        return TypedReference(None, "empty", [])
    if text_script(reference_text) == source_language:
        return TypedReference(None, "wrong_language", [])
    room = translator.config.max_len - 1  # <bos> takes one position
    return TypedReference(tokens[:room], "long" if len(tokens) > room else None, unknown)


def one_word_changed(comparison: ForcingComparison) -> list[str] | None:
    """The reference with one word swapped for the model's runner-up where that runner-up is most probable
    (a translation that differs from the model's in one word); None when no word has a word as runner-up."""
    best = None
    for step in comparison.forced[:-1]:
        if is_punctuation(step.chosen):
            continue
        for token, p in step.top:
            if token != step.chosen and token != EOS and not is_punctuation(token):
                if best is None or p > best[1]:
                    best = (step.position, p, token)
                break
    if best is None:
        return None
    changed = list(comparison.reference)
    changed[best[0]] = best[2]
    return changed


# ---- every strategy on one sentence ---------------------------------------------------------------------
@dataclass
class StrategyOutput:
    strategy: str  # "greedy", "beam" or "sample"
    number: int  # the sample's number from 1 (0 for greedy and beam)
    tokens: list[str]  # ending with <eos> when finished
    text: str
    log_prob: float  # ln P under the model's own distribution
    score: float  # log_prob / L^α
    bleu: float | None  # against the reference, when one is given
    chrf: float | None

    @property
    def length(self) -> int:
        return len(self.tokens)


@dataclass
class StrategyComparison:
    outputs: list[StrategyOutput]
    settings: SamplingSettings  # as used (clamped)
    equals_greedy: str | None  # why sampling is greedy here: "temperature", "top_k", "cut"; None: it is not
    widest_step: tuple[int, int]  # (step, tokens that could be drawn there) over the samples: the least cut


def sentence_scores(output_text: str, reference_text: str, target_language: str) -> tuple[float, float]:
    """Sentence BLEU and chrF from sacrebleu (Chinese: its character-level "zh" tokenizer)."""
    import sacrebleu

    tokenize = "zh" if target_language == "zh" else "13a"
    bleu = sacrebleu.sentence_bleu(output_text, [reference_text], tokenize=tokenize).score
    return bleu, sacrebleu.sentence_chrf(output_text, [reference_text]).score


def compare_strategies(
    translator: Translator,
    text: str,
    direction: str,
    beam_width: int = 4,
    length_penalty: float = DEFAULT_LENGTH_PENALTY,
    sampling: SamplingSettings = DEFAULT_SAMPLING,
    reference_text: str = "",
    search: Callable[[SearchSettings], SearchRecord] | None = None,
) -> StrategyComparison:
    """Greedy, beam k with α, and seeded samples of one sentence, each scored by the model and (when a
    reference is given) by BLEU and chrF. `search`: how the caller runs this sentence's searches (the app's
    is cached, so the beam at the sidebar's settings is the sidebar's); default Translator.search."""
    direction = normalise_direction(direction)
    target = DIRECTIONS[direction][1]
    settings = sampling.clamped(len(translator.tokenizer))
    search = search or (lambda how: translator.search(text, direction, how))
    beam = search(SearchSettings(beam_width=beam_width, length_penalty=length_penalty))
    greedy = translator.greedy_hypothesis(text, direction, beam, search)  # read off the beam where it can be
    rows = [(name, 0, h.tokens, h.log_prob, h.score) for name, h in (("greedy", greedy), ("beam", beam.hypotheses[0]))]
    source = translator.encode(text, direction)
    samples = sample(translator.model, translator.tokenizer, source.ids, settings, length_penalty)
    rows += [("sample", i + 1, s.tokens, s.log_prob, s.score) for i, s in enumerate(samples)]
    outputs = []
    for strategy, number, tokens, log_prob, score in rows:
        words = [tok for tok in tokens if tok != EOS]
        output_text = detokenize(words, target)
        bleu, chrf = sentence_scores(output_text, reference_text, target) if reference_text.strip() else (None, None)
        outputs.append(StrategyOutput(strategy, number, list(tokens), output_text, log_prob, score, bleu, chrf))
    counts = [(t, c) for s in samples for t, c in enumerate(s.kept_counts)]
    widest = max(counts, key=lambda tc: tc[1]) if counts else (0, 1)
    if settings.temperature == 0:
        why = "temperature"
    elif settings.top_k == 1:
        why = "top_k"
    elif widest[1] == 1:
        why = "cut"
    else:
        why = None
    return StrategyComparison(outputs, settings, why, widest)


@dataclass
class StepDistribution:
    """The next-token distribution at one step of a path, before and after the sampling cut."""

    step: int
    prefix: list[str]  # the tokens written before this step
    tokens: list[str]  # the most probable writable tokens, most probable first
    model_probs: list[float]  # the model's own p
    tempered: list[float]  # after temperature
    kept_by_k: list[bool]
    kept: list[bool]  # survives top-k and top-p
    final: list[float]  # what is drawn from
    kept_count: int  # tokens that can be drawn, over the whole vocabulary
    mass_kept: float  # the tempered mass of the kept tokens, before renormalising


def step_distribution(
    translator: Translator,
    text: str,
    direction: str,
    path: Sequence[str],
    step: int,
    settings: SamplingSettings,
    shown: int = 15,
) -> StepDistribution:
    """At `step` of `path` (tokens; the prefix path[:step] is fed): the top `shown` tokens' probabilities
    before and after temperature, top-k and top-p."""
    model, tokenizer = translator.model, translator.tokenizer
    source = translator.encode(text, direction)
    prefix = [tok for tok in path if tok != EOS][: max(0, min(step, model.config.max_len - 1))]
    with torch.inference_mode():
        memory, allowed, _ = model.encode(torch.tensor([source.ids]))
        logits, _ = model.decode(torch.tensor([[tokenizer.bos_id] + tokenizer.ids(prefix)]), memory, allowed)
    settings = settings.clamped(len(tokenizer))
    cut: Cut = cut_distribution(logits[0, -1], ~_writable(translator, source.ids), settings)
    top = cut.model_probs.argsort(descending=True, stable=True)[:shown].tolist()
    return StepDistribution(
        len(prefix),
        prefix,
        tokenizer.tokens(top),
        cut.model_probs[top].tolist(),
        cut.tempered[top].tolist(),
        cut.kept_by_k[top].tolist(),
        cut.kept[top].tolist(),
        cut.final[top].tolist(),
        cut.kept_count,
        float(cut.tempered[cut.kept].sum()),
    )
