"""The course as a guided path on the student's own sentence: ten steps in the course's order, each opening
a view of the app, with a "what to look for" computed on the sentence and a question the student answers
before the model's numbers are revealed (predict, then reveal).

Every answer is read off the model's own numbers on the current sentence: the trace of its translation, the
beam search's record, the positional table, a head switched off. A question that cannot be asked on this
sentence (too few words, no content word in the output) is None, and the page says why.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field, replace

import numpy as np

from viz_model.lessons.attention_notes import first_layer_without_sink
from viz_model.lessons.decoding_lab import sentence_scores
from viz_model.lessons.experiments import all_heads, switch_off
from viz_model.lessons.positional_views import position_similarity, positional_table
from viz_model.lessons.references import find_reference
from viz_model.lessons.similarity import cosine_similarity, scaled_dot_similarity, softmax
from viz_model.model.detokenize import detokenize
from viz_model.model.sampling import SamplingSettings, sample
from viz_model.model.tokenizer import DIRECTIONS, EOS, TARGET_TAG, is_punctuation
from viz_model.model.translator import Translation, Translator

MAX_OPTIONS = 6  # choices offered for "which token …?" questions


@dataclass(frozen=True)
class LessonStep:
    name: str  # catalogue: lesson.step_<name>, lesson.text_<name>, lesson.look_<name>
    page: str  # url_path of the page the step opens
    view: dict = field(default_factory=dict)  # that page's URL parameters (besides text, dir, lang)
    question: str | None = None  # the kind of question (see QUESTIONS)


STEPS = (
    LessonStep("embeddings", "tokens", {}, "neighbour"),
    LessonStep("similarity", "similarity", {}, "softmax_key"),
    LessonStep("qkv", "step_by_step", {}, "head_size"),
    LessonStep("one_head", "attention", {"view": "heads", "kind": "encoder_self"}, "head_key"),
    LessonStep("many_heads", "experiments", {}, "head_off"),
    LessonStep("positions", "positional", {}, "position"),
    LessonStep("masks", "attention", {"view": "heads", "kind": "cross"}, "cross_key"),
    LessonStep("add_norm", "step_by_step", {}, None),
    LessonStep("decoding", "beam_search", {}, "beam_next"),
    LessonStep("metrics", "metrics", {}, "bleu"),
)
STEP_NAMES = tuple(s.name for s in STEPS)


@dataclass
class Question:
    """One predict-then-reveal question. `options` are shown as written (tokens, numbers, sentences), except
    the names "yes", "no" and "tie", which the page translates."""

    kind: str
    values: dict  # what the prompt names, for its catalogue text
    options: list[str]
    answers: set[int] | None  # the right options (a tie has several); None until `answered` computes them
    numbers: list[float | None]  # the model's number behind each option, revealed after the pick
    reveal: dict  # values for the reveal's catalogue text
    instead_of: str | None = None  # the kind of the step's own question, when it could not be asked here

    def is_right(self, picked: int) -> bool:
        if self.answers is None:
            raise ValueError("the answer is not computed yet: use answered()")
        return picked in self.answers


def _words(tokens: list[str]) -> list[int]:
    """Positions of the words of a token sequence (not the direction tag, <bos>, <eos>, <unk> or marks)."""
    specials = {*TARGET_TAG.values(), "<bos>", EOS, "<unk>", "<pad>"}
    return [i for i, tok in enumerate(tokens) if tok not in specials and not is_punctuation(tok)]


def _content_word(tokens: list[str], words: list[int]) -> int:
    """The position of the sentence's longest word (the first of equals): a content word more often than
    the first word, which is often "the"."""
    return max(words, key=lambda p: (len(tokens[p]), -p))


def _choices(positions: list[int], answer: int, tokens: list[str]) -> list[int]:
    """At most MAX_OPTIONS positions in sentence order, always with the answer; the others drawn at random
    (seeded by the sentence, so a link asks the same), neither the highest-scoring ones, which would give
    the answer away, nor always the first ones, which would leave the answer standing out at the end."""
    others = [p for p in positions if p != answer]
    rng = random.Random(zlib.crc32(" ".join(tokens).encode("utf-8")))
    picked = rng.sample(others, min(len(others), MAX_OPTIONS - 1))
    return sorted([answer, *picked])


def _token_question(kind: str, tokens: list[str], positions: list[int], scores: np.ndarray, values: dict):
    """ "Which of these tokens scores highest?": the options, the right ones (ties within 1e-6) and numbers."""
    best = max(positions, key=lambda p: scores[p])
    shown = _choices(positions, best, tokens)
    top = max(scores[p] for p in shown)
    answers = {i for i, p in enumerate(shown) if scores[p] >= top - 1e-6}
    return Question(
        kind,
        values,
        [f"{p}:{tokens[p]}" for p in shown],
        answers,
        [float(scores[p]) for p in shown],
        {"answer": tokens[best], "value": f"{scores[best]:.3f}"},
    )


def neighbour_question(translator: Translator, t: Translation) -> Question | None:
    """Which word of the sentence has the input embedding most similar (cosine) to the first word's?"""
    tokens, words = t.trace.source_labels, _words(t.trace.source_tokens)
    if len(words) < 3:
        return None
    query = _content_word(t.trace.source_tokens, words)
    others = [p for p in words if t.trace.source_tokens[p] != t.trace.source_tokens[query]]
    if len(others) < 2:
        return None
    cosine = cosine_similarity(t.trace.source_embeddings, t.trace.source_embeddings)[query]
    return _token_question("neighbour", tokens, others, cosine, {"word": tokens[query]})


def softmax_key_question(translator: Translator, t: Translation) -> Question | None:
    """softmax(e_q · e_k / √d) over the sentence's tokens, before any projection: which key wins? (Itself,
    usually: the reason attention projects queries and keys first.)"""
    tokens, words = t.trace.source_labels, _words(t.trace.source_tokens)
    if len(words) < 2:
        return None
    query = _content_word(t.trace.source_tokens, words)
    vectors = t.trace.source_input  # (S, d) embedding·√d + PE, what the first layer reads
    weights = softmax(scaled_dot_similarity(vectors, vectors))[query]
    return _token_question("softmax_key", tokens, words, weights, {"word": tokens[query]})


def head_size_question(translator: Translator, t: Translation) -> Question:
    c = translator.config
    d_k = c.d_model // c.n_heads
    options = [c.d_model, d_k, c.n_heads, 3 * c.d_model]
    return Question(
        "head_size",
        {"d": c.d_model, "h": c.n_heads},
        [str(o) for o in options],
        {1},
        [None] * 4,
        {"d": c.d_model, "h": c.n_heads, "d_k": d_k},
    )


def _query_head(trace, kind: str, layer: int) -> tuple[int, int]:
    """A query word and the first head of `layer` whose query row gives most weight to a word (not to the
    direction tag, <eos> or a mark); head 0 if every head parks it."""
    query_tokens, key_tokens = trace.axis_tokens(kind)
    row_tokens = trace.source_tokens if kind == "encoder_self" else trace.target_tokens
    rows = _words(row_tokens)
    query = _content_word(row_tokens, rows) if rows else 0
    weights = trace.attention(kind, layer).weights  # (H, Tq, Tk)
    words = set(_words(trace.source_tokens if kind != "decoder_self" else trace.target_tokens))
    for head in range(weights.shape[0]):
        if int(weights[head, query].argmax()) in words:
            return query, head
    return query, 0


def head_key_question(translator: Translator, t: Translation) -> Question | None:
    """In the first encoder layer whose heads do not all park on the tag: which key does this head's query
    give most weight?"""
    if not _words(t.trace.source_tokens):
        return None
    layer = first_layer_without_sink(t.trace)
    query, head = _query_head(t.trace, "encoder_self", layer)
    row = t.trace.attention("encoder_self", layer).weights[head, query]
    tokens = t.trace.source_labels
    positions = list(range(len(tokens)))
    values = {"word": tokens[query], "layer": layer + 1, "head": head + 1}
    return _token_question("head_key", tokens, positions, row, values)


def cross_key_question(translator: Translator, t: Translation) -> Question | None:
    """The last decoder layer's cross-attention, mean of its heads: which source token does the row that
    writes the output's first word look at most?"""
    written = _words(t.trace.predicted_tokens)
    if not written:
        return None
    row_index = written[0]  # the decoder row that chose this word
    layer = len(t.trace.decoder_layers) - 1
    row = t.trace.attention("cross", layer).weights[:, row_index].mean(0)
    tokens = t.trace.source_labels
    values = {"word": t.trace.predicted_tokens[row_index], "layer": layer + 1}
    return _token_question("cross_key", tokens, list(range(len(tokens))), row, values)


def head_off_question(translator: Translator, t: Translation, text: str, direction: str) -> Question:
    """Does switching off one head (picked from the sentence, so each sentence asks about its own) change the
    translation? Asked without its answer: the re-run with the head off is made by `answered`, once a student
    has picked, so the step opens as fast as the others."""
    heads = all_heads(translator.config)
    kind, layer, h = heads[zlib.crc32(text.encode("utf-8")) % len(heads)]
    return Question(
        "head_off", {"kind": kind, "layer": layer + 1, "head": h + 1}, ["yes", "no"], None, [None, None], {}
    )


def answered(
    question: Question, translator: Translator, text: str, direction: str, before: Translation | None = None
) -> Question:
    """The question with its answer and the numbers of its reveal. Most questions carry them already; the
    head-off question's answer is the model re-run with that head switched off (the translation re-searched;
    `before`: the model's own translation, when the caller has it)."""
    if question.answers is not None:
        return question
    head = (question.values["kind"], question.values["layer"] - 1, question.values["head"] - 1)
    outcome = switch_off(translator, text, direction, [head], before=before)
    return replace(
        question,
        answers={0 if outcome.changed else 1},
        reveal={"after": outcome.after.output_text or "∅", "drop": outcome.drop_text},
    )


def position_question(translator: Translator, t: Translation) -> Question:
    """Which position's encoding is closest (dot product) to position 5's? 4 and 6 tie: the dot product of two
    sinusoidal encodings depends only on their distance."""
    similarity = position_similarity(positional_table(translator.config.d_model, 12).pe)[5]
    shown = [3, 4, 6, 9]
    scores = [float(similarity[p]) for p in shown]
    top = max(scores)
    best = [p for p, s in zip(shown, scores) if s >= top - 1e-6 * abs(top)]
    options = [*map(str, shown), "tie"]
    answers = {len(shown)} if len(best) > 1 else {shown.index(best[0])}
    reveal = {"p4": f"{scores[1]:.4f}", "p6": f"{scores[2]:.4f}"}
    return Question("position", {"p": 5}, options, answers, [*scores, None], reveal)


def beam_next_question(translator: Translator, t: Translation) -> Question | None:
    """At a step of the best path where the node had siblings: which of them does the beam keep on the path
    to its answer? The step chosen is the first where the kept token is not the most probable one, if any."""
    record = t.record
    path = record.best_path_nodes()
    if not path:
        return None
    candidates = None
    for node in path:
        siblings = [c for c in record.steps[node.step].candidates if c.parent == node.parent]
        siblings.sort(key=lambda c: -c.prob)
        if len(siblings) > 1 and (candidates is None or siblings[0] is not node):
            candidates, chosen = siblings[:4], node
            if siblings[0] is not node:
                break
    if candidates is None:
        return None
    if chosen not in candidates:
        candidates = [*candidates[:3], chosen]
    prefix = [c.token for c in path[: chosen.step]]
    return Question(
        "beam_next",
        {"prefix": " ".join(["<bos>", *prefix]), "step": chosen.step + 1, "k": record.beam_width},
        [c.token for c in candidates],
        {candidates.index(chosen)},
        [c.prob for c in candidates],
        {"answer": chosen.token, "p": f"{chosen.prob:.3f}", "greedy": candidates[0].token == chosen.token},
    )


def bleu_question(translator: Translator, t: Translation, text: str, direction: str) -> Question:
    """Which of two outputs scores the higher sentence BLEU against the reference (the corpus's when the
    sentence is in it, else the model's own translation)? The two: greedy search and a seeded sample."""
    target = DIRECTIONS[direction][1]
    corpus = find_reference(text, direction)
    reference = corpus or t.output_text
    greedy = translator.greedy(text, direction, t.record)  # read off the sidebar's beam where it can be
    drawn = sample(translator.model, translator.tokenizer, t.source.ids, SamplingSettings(samples=1, seed=1), 0.75)
    texts = [detokenize([x for x in tokens if x != EOS], target) for tokens in (greedy, drawn[0].tokens)]
    scores = [sentence_scores(candidate, reference, target)[0] for candidate in texts]
    if abs(scores[0] - scores[1]) < 1e-9:
        answers = {2}
    else:
        answers = {int(scores[1] > scores[0])}
    return Question(
        "bleu",
        {"reference": reference, "from_corpus": corpus is not None},
        [*texts, "tie"],
        answers,
        [*scores, None],
        {"a": f"{scores[0]:.1f}", "b": f"{scores[1]:.1f}"},
    )


def question_for(
    step: LessonStep, translator: Translator, t: Translation, text: str, direction: str
) -> Question | None:
    """The step's question on this sentence. One that cannot be asked here (too few words, no word in the
    translation) gives way to the next sensible one, which never fails: which position's encoding is closest
    to position 5 (its `instead_of` names the question it replaces); None for a step without a question."""
    kind = step.question
    if kind is None:
        return None
    if kind in ("head_off", "bleu"):
        return {"head_off": head_off_question, "bleu": bleu_question}[kind](translator, t, text, direction)
    question = BUILDERS[kind](translator, t)
    if question is None:
        question = position_question(translator, t)
        question.instead_of = kind
    return question


BUILDERS = {
    "neighbour": neighbour_question,
    "softmax_key": softmax_key_question,
    "head_size": head_size_question,
    "head_key": head_key_question,
    "position": position_question,
    "cross_key": cross_key_question,
    "beam_next": beam_next_question,
}


def look_values(step: LessonStep, translator: Translator, t: Translation) -> dict:
    """The numbers of the step's "what to look for" line (catalogue lesson.look_<name>), on this sentence."""
    c, trace = translator.config, t.trace
    name = step.name
    if name == "embeddings":
        return {"n": len(trace.source_tokens), "d": c.d_model, "scale": f"{trace.embedding_scale:.1f}"}
    if name == "similarity":
        return {"d": c.d_model, "sqrt_d": f"{np.sqrt(c.d_model):.1f}"}
    if name == "qkv":
        return {"d": c.d_model, "h": c.n_heads, "d_k": c.d_model // c.n_heads}
    if name == "one_head":
        return {"layer": first_layer_without_sink(trace) + 1}
    if name == "many_heads":
        weights = trace.attention("encoder_self", 0).weights  # (H, S, S); column 0 is the direction tag
        parked = int((weights[:, :, 0].mean(axis=1) >= 0.5).sum())
        return {"parked": parked, "h": weights.shape[0]}
    if name == "positions":
        return {"n": len(trace.source_tokens), "period": f"{2 * np.pi * 10000 ** ((c.d_model - 2) / c.d_model):,.0f}"}
    if name == "masks":
        T = len(trace.target_tokens)
        return {"T": T, "hidden": T * (T - 1) // 2, "cells": T * T}
    if name == "add_norm":
        out = trace.encoder_layers[0].output  # (S, d) after the first layer's last Add & Norm
        return {"mean": f"{out.mean(axis=1).mean():.3f}", "std": f"{out.std(axis=1).mean():.3f}"}
    if name == "decoding":
        record = t.record
        return {"k": record.beam_width, "steps": len(record.steps), "scored": record.candidates_scored}
    if name == "metrics":
        log_p = trace.predicted_log_probs
        return {"ppl": f"{float(np.exp(-log_p.mean())):.2f}", "n": len(log_p)}
    return {}


def view_params(step: LessonStep, question: Question | None) -> dict[str, str]:
    """The URL parameters of the view a step opens: the step's own, and the layer and head its question is
    about (so the link shows the very head the student was asked about)."""
    params = dict(step.view)
    if question is None:
        return params
    values = question.values
    if question.kind in ("head_key", "cross_key"):
        params["layer"] = str(values["layer"])
        if "head" in values:
            params["head"] = str(values["head"])
    if question.kind == "head_off":
        params["off"] = f"{values['kind']}.{values['layer']}.{values['head']}"
    return params
